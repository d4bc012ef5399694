// Regex (textedge's dialect, docs/schema.md) -> GBNF, the grammar language of llama.cpp's
// sampler. The regex is parsed into a small tree and written back as the rule `root`, plus named
// rules for repeated groups. What llama.cpp's grammar code (src/llama-grammar.cpp) imposes:
// - `S{m,n}` is expanded by copying S and adding n-m rules. When S is a parenthesized group,
//   every rule the group generated inside counts too, and a product of 2000 is refused: so a
//   repeated group that holds groups or quantifiers becomes a named rule (one symbol), and the
//   grammar stays linear in the regex. A bound above 2000 silently becomes unbounded: bounds
//   above kBlock are built from rules of kBlock repetitions.
// - `S*`, `S+` and `S{m,}` become right-recursive rules, and a rule that can reach itself
//   without consuming a character is refused as left recursion: a repeated item that can match
//   the empty string is rewritten to its non-empty part first (X* is (X without "")*).
// - Every branch of an alternation that is still alive is a parse of its own, checked against
//   every candidate token: alternatives are written with their common start taken out.
// - Escapes in strings and classes are \xHH \uHHHH \UHHHHHHHH \t \r \n \\ \" \[ \] \- only.
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.hpp"
#include "textedge/schema.hpp"

namespace textedge::detail {
namespace {

constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kBlock = 1000;      // the largest bound written as a GBNF quantifier
constexpr std::size_t kMaxBound = 65535;  // PCRE2's limit, so the dialect's too

using Ranges = std::vector<std::pair<char32_t, char32_t>>;  // inclusive; sorted and disjoint in a Node

struct Node {
  enum Kind { literal, cls, seq, alt, repeat } kind;
  std::u32string text;  // literal (never empty)
  Ranges ranges;        // cls
  bool negated = false;
  std::vector<Node> items;  // seq (an empty one matches ""), alt; repeat: the one item repeated
  std::size_t min = 0, max = 0;
};

Node make(Node::Kind kind, std::vector<Node> items = {}) { return Node{kind, {}, {}, false, std::move(items), 0, 0}; }
Node literal(char32_t c) {
  Node n = make(Node::literal);
  n.text = std::u32string(1, c);
  return n;
}
Node repeat(Node item, std::size_t min, std::size_t max) {
  if (min == 1 && max == 1) return item;
  Node n = make(Node::repeat, {std::move(item)});
  n.min = min;
  n.max = max;
  return n;
}

// Appends `item` to sequence `s`: nested sequences are spliced, adjacent literals joined.
void append(Node& s, Node item) {
  if (item.kind == Node::seq) {
    for (Node& m : item.items) append(s, std::move(m));
  } else if (item.kind == Node::literal && !s.items.empty() && s.items.back().kind == Node::literal) {
    s.items.back().text += item.text;
  } else {
    s.items.push_back(std::move(item));
  }
}
Node single_or(Node n) { return n.items.size() == 1 ? std::move(n.items[0]) : std::move(n); }

bool nullable(const Node& n) {
  switch (n.kind) {
    case Node::literal:
    case Node::cls:
      return false;
    case Node::repeat:
      return n.min == 0 || nullable(n.items[0]);
    case Node::seq:
      return std::all_of(n.items.begin(), n.items.end(), nullable);
    case Node::alt:
      return std::any_of(n.items.begin(), n.items.end(), nullable);
  }
  return false;
}

// The texts of `n` other than "" (nullopt: none).
std::optional<Node> non_empty(const Node& n) {
  if (!nullable(n)) return n;
  if (n.kind == Node::repeat) {  // n{0,k} without "": the first iteration that is not empty, then the rest
    auto item = non_empty(n.items[0]);
    if (!item) return std::nullopt;
    return repeat(std::move(*item), 1, n.max);
  }
  // A sequence of nullable items: its first non-empty item, then the items after it. An
  // alternation: its branches without "".
  Node out = make(Node::alt);
  for (std::size_t k = 0; k < n.items.size(); ++k) {
    auto first = non_empty(n.items[k]);
    if (!first) continue;
    if (n.kind == Node::alt) {
      out.items.push_back(std::move(*first));
      continue;
    }
    Node s = make(Node::seq);
    append(s, std::move(*first));
    for (std::size_t j = k + 1; j < n.items.size(); ++j) append(s, n.items[j]);
    out.items.push_back(single_or(std::move(s)));
  }
  if (out.items.empty()) return std::nullopt;
  return single_or(std::move(out));
}

// A text that identifies `n` (equal nodes, equal keys).
std::string key(const Node& n) {
  std::string k(1, "lcsar"[n.kind]);
  for (char32_t c : n.text) k += std::to_string(c) + ",";
  for (auto [lo, hi] : n.ranges) k += std::to_string(lo) + "-" + std::to_string(hi) + ",";
  if (n.negated) k += "^";
  if (n.kind == Node::repeat) k += std::to_string(n.min) + "," + std::to_string(n.max);
  k += "(";
  for (const Node& m : n.items) k += key(m) + ";";
  return k + ")";
}

// `branch` as a list of units: each character of a literal on its own, other items whole.
std::vector<Node> units(const Node& branch) {
  std::vector<Node> out;
  for (const Node& item : branch.kind == Node::seq ? branch.items : std::vector<Node>{branch}) {
    if (item.kind != Node::literal)
      out.push_back(item);
    else
      for (char32_t c : item.text) out.push_back(literal(c));
  }
  return out;
}

// The alternation of `branches` (unit lists) with common starts taken out: a|ab|ac is a(|b|c).
// llama.cpp follows each branch that is still alive as its own parse for every candidate token,
// so forty tool calls that all begin "<tool_call>\n{\"name\": " cost forty times one until the
// names differ; factored, they cost one.
Node factored(std::vector<std::vector<Node>> branches) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::size_t>> groups;  // by first unit
  for (std::size_t b = 0; b < branches.size(); ++b) {
    std::string k = branches[b].empty() ? "" : key(branches[b][0]);
    auto [it, added] = groups.try_emplace(k);
    if (added) order.push_back(k);
    it->second.push_back(b);
  }
  Node alt = make(Node::alt);
  for (auto& k : order) {
    auto& group = groups[k];
    std::size_t common = branches[group[0]].size();
    for (std::size_t b : group.size() > 1 ? group : std::vector<std::size_t>{}) {
      std::size_t n = 0;
      while (n < common && n < branches[b].size() && key(branches[b][n]) == key(branches[group[0]][n])) ++n;
      common = n;
    }
    Node s = make(Node::seq);
    for (std::size_t u = 0; u < common; ++u) append(s, branches[group[0]][u]);
    if (group.size() > 1 && common > 0) {
      std::vector<std::vector<Node>> rests;
      for (std::size_t b : group) rests.emplace_back(branches[b].begin() + common, branches[b].end());
      append(s, factored(std::move(rests)));
    }
    alt.items.push_back(single_or(std::move(s)));
  }
  return single_or(std::move(alt));
}

Ranges normalized(Ranges r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  for (auto [lo, hi] : r) {
    if (!out.empty() && lo <= out.back().second + 1)
      out.back().second = std::max(out.back().second, hi);
    else
      out.push_back({lo, hi});
  }
  return out;
}

const Ranges kDigit = {{'0', '9'}};
const Ranges kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const Ranges kSpace = {{'\t', '\r'}, {' ', ' '}};  // PCRE2's \s without UCP: \t \n \v \f \r and space

class Parser {
 public:
  explicit Parser(std::string_view re) : re_(re) {}

  Node parse() {
    if (std::size_t bad = find_invalid_utf8(re_); bad != std::string_view::npos) fail(bad, "a byte that is not UTF-8");
    Node n = alternation();
    if (more()) fail(i_, "an unbalanced ')'");
    return n;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw SchemaError("$", "regex at offset " + std::to_string(at) + ": " + what);
  }
  bool more() const { return i_ < re_.size(); }
  char peek() const { return re_[i_]; }
  bool at(std::string_view s) const { return re_.substr(i_).starts_with(s); }

  Node alternation() {
    Node n = make(Node::alt);
    n.items.push_back(sequence());
    while (more() && peek() == '|') {
      ++i_;
      n.items.push_back(sequence());
    }
    if (n.items.size() == 1) return std::move(n.items[0]);
    std::vector<std::vector<Node>> branches;
    for (const Node& b : n.items) branches.push_back(units(b));
    return factored(std::move(branches));
  }

  Node sequence() {
    Node s = make(Node::seq);
    while (more() && peek() != '|' && peek() != ')') {
      Node item = atom();
      if (quantifier(item) && more()) {
        if (peek() == '?') fail(i_, "a lazy quantifier is not supported");
        if (peek() == '+') fail(i_, "a possessive quantifier is not supported");
        if (peek() == '*' || (peek() == '{' && quantifier_ahead()))
          fail(i_, "a quantifier after a quantifier is not supported");
      }
      append(s, std::move(item));
    }
    return single_or(std::move(s));
  }

  // Reads a quantifier applying to `item`, if there is one.
  bool quantifier(Node& item) {
    if (!more()) return false;
    std::size_t start = i_, min = 0, max = kUnbounded;
    char c = peek();
    if (c == '*') {
      ++i_;
    } else if (c == '+') {
      ++i_, min = 1;
    } else if (c == '?') {
      ++i_, max = 1;
    } else if (c == '{' && quantifier_ahead()) {
      ++i_;
      min = max = number();
      if (peek() == ',') {
        ++i_;
        max = peek() == '}' ? kUnbounded : number();
      }
      ++i_;  // '}'
      if (max < min) fail(start, "a repetition {m,n} with n < m");
    } else {
      return false;
    }
    if (nullable(item)) {
      // Empty iterations add nothing: X{m,n} is (X without ""){0,n}, which llama.cpp accepts
      // (X* with X nullable is left recursion to it) and which has no empty iterations to follow.
      auto ne = non_empty(item);
      item = ne && max > 0 ? repeat(std::move(*ne), 0, max) : make(Node::seq);
    } else {
      item = max == 0 ? make(Node::seq) : repeat(std::move(item), min, max);
    }
    return true;
  }

  // Whether a quantifier {m}, {m,} or {m,n} starts at i_ (PCRE2 10.42 reads any other '{' as a
  // literal; the dialect writes that \{, so a bare one is refused).
  bool quantifier_ahead() const {
    std::size_t j = i_ + 1;
    auto digits = [&] {
      std::size_t from = j;
      while (j < re_.size() && std::isdigit(static_cast<unsigned char>(re_[j]))) ++j;
      return j > from;
    };
    if (!digits()) return false;
    if (j < re_.size() && re_[j] == ',') ++j, digits();
    return j < re_.size() && re_[j] == '}';
  }

  std::size_t number() {
    std::size_t start = i_, v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      v = v * 10 + (re_[i_++] - '0');
      if (v > kMaxBound) fail(start, "a repetition bound above 65535");
    }
    return v;
  }

  Node atom() {
    std::size_t start = i_;
    switch (peek()) {
      case '(': {
        if (at("(?:")) {
          i_ += 3;
          Node n = alternation();
          if (!more()) fail(start, "an unclosed group");
          ++i_;
          return n;
        }
        if (at("(?=") || at("(?!") || at("(?<=") || at("(?<!")) fail(start, "a lookaround is not supported");
        if (at("(?>")) fail(start, "an atomic group is not supported");
        if (at("(?")) fail(start, "a group with options or a name is not supported");
        fail(start, "a capturing group is not supported (write (?:...))");
      }
      case '[':
        return char_class();
      case '.': {  // without PCRE2_DOTALL: any character but a newline
        ++i_;
        Node n = make(Node::cls);
        n.ranges = {{'\n', '\n'}};
        n.negated = true;
        return n;
      }
      case '\\': {
        Node n = make(Node::cls);
        n.negated = escape(n.ranges, false);
        if (!n.negated && n.ranges.size() == 1 && n.ranges[0].first == n.ranges[0].second)
          return literal(n.ranges[0].first);
        return n;
      }
      case '^':
      case '$':
        fail(start, "an anchor is not supported (the whole text always matches)");
      case '*':
      case '+':
      case '?':
        fail(start, "a quantifier with nothing to repeat");
      case '{':
        fail(start,
             quantifier_ahead() ? "a quantifier with nothing to repeat" : "a literal '{' is not supported (write \\{)");
      default:
        return literal(next_code_point(re_, i_));
    }
  }

  // The escape at i_ (a backslash). A character is added to `out` as a range of one; \d \w \s as
  // their ranges. Outside a class, \D \W \S set `out` to what they exclude and return true.
  bool escape(Ranges& out, bool in_class) {
    std::size_t start = i_++;
    if (!more()) fail(start, "a trailing backslash");
    char e = peek();
    auto add = [&](const Ranges& r) {
      ++i_;
      out.insert(out.end(), r.begin(), r.end());
      return false;
    };
    switch (e) {
      case 'n':
        return add({{'\n', '\n'}});
      case 'r':
        return add({{'\r', '\r'}});
      case 't':
        return add({{'\t', '\t'}});
      case 'f':
        return add({{'\f', '\f'}});
      case 'v':
        return add({{'\v', '\v'}});
      case 'd':
        return add(kDigit);
      case 'w':
        return add(kWord);
      case 's':
        return add(kSpace);
      case 'D':
      case 'W':
      case 'S':
        if (in_class) fail(start, std::string("\\") + e + " inside a class is not supported");
        add(e == 'D' ? kDigit : e == 'W' ? kWord : kSpace);
        return true;
      case 'x': {
        ++i_;
        bool braced = more() && peek() == '{';
        std::size_t from = i_ + braced, end = braced ? re_.find('}', from) : i_ + 2;
        if (end == std::string_view::npos || end == from || end - from > 6 || end > re_.size())
          fail(start, "a malformed \\x escape");
        char32_t cp = 0;
        for (i_ = from; i_ < end; ++i_) {
          if (!std::isxdigit(static_cast<unsigned char>(peek()))) fail(start, "a malformed \\x escape");
          cp = cp * 16 + (std::isdigit(static_cast<unsigned char>(peek())) ? peek() - '0' : (peek() | 0x20) - 'a' + 10);
        }
        i_ += braced;
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
          fail(start, "an escape of a code point that is not a character");
        out.push_back({cp, cp});
        return false;
      }
      case 'p':
      case 'P':
        fail(start, "a Unicode property \\p is not supported");
      case 'b':
      case 'B':
        fail(start, "a word boundary \\b is not supported");
      default: {
        if (std::isdigit(static_cast<unsigned char>(e)))
          fail(start, "a backreference or octal escape is not supported");
        if (std::isalpha(static_cast<unsigned char>(e)))
          fail(start, std::string("the escape \\") + e + " is not supported");
        char32_t cp = next_code_point(re_, i_);  // escaped punctuation (or any non-ASCII character) is itself
        out.push_back({cp, cp});
        return false;
      }
    }
  }

  // One class member at i_: a character (a range of one) or a shorthand's ranges.
  void class_item(Ranges& r) {
    if (peek() == '\\') {
      escape(r, true);
    } else {
      char32_t cp = next_code_point(re_, i_);
      r.push_back({cp, cp});
    }
  }

  Node char_class() {
    std::size_t start = i_++;
    Node n = make(Node::cls);
    if (more() && peek() == '^') ++i_, n.negated = true;
    Ranges r;
    for (bool first = true;; first = false) {
      if (!more()) fail(start, "an unclosed class");
      if (peek() == ']' && !first) break;  // PCRE2 reads a ']' first in the class as a literal
      std::size_t item = i_;
      if (at("[:") || at("[.") || at("[=")) fail(item, "a POSIX class is not supported");
      std::size_t before = r.size();
      class_item(r);
      if (more() && peek() == '-' && i_ + 1 < re_.size() && re_[i_ + 1] != ']') {  // a range a-b
        ++i_;
        Ranges end;
        class_item(end);
        bool chars = r.size() == before + 1 && r.back().first == r.back().second && end.size() == 1 &&
                     end[0].first == end[0].second;
        if (!chars) fail(item, "a range with a shorthand class as an end is not supported");
        if (end[0].first < r.back().first) fail(item, "a range out of order");
        r.back().second = end[0].first;
      }
    }
    ++i_;
    n.ranges = normalized(std::move(r));
    if (!n.negated && n.ranges.size() == 1 && n.ranges[0].first == n.ranges[0].second)
      return literal(n.ranges[0].first);
    return n;
  }

  std::string_view re_;
  std::size_t i_ = 0;
};

// ---- writing GBNF --------------------------------------------------------------------------

// \xHH, or \uHHHH when `c` is above 0xFF.
void append_hex(std::string& out, char32_t c) {
  static const char* hex = "0123456789ABCDEF";
  int digits = c > 0xFF ? 4 : 2;
  out += c > 0xFF ? "\\u" : "\\x";
  for (int k = digits - 1; k >= 0; --k) out += hex[(c >> (4 * k)) & 0xF];
}

// A character inside "..." or [...]: escaped where GBNF would misread it; controls and the two
// Unicode line separators in hex, so that a grammar is one line per rule in any editor.
void append_char(std::string& out, char32_t c, bool in_class) {
  if (c == '\\' || c == (in_class ? U']' : U'"') || (in_class && (c == '-' || c == '['))) {
    out += '\\';
    out += static_cast<char>(c);
  } else if (c == '\n') {
    out += "\\n";
  } else if (c == '\r') {
    out += "\\r";
  } else if (c == '\t') {
    out += "\\t";
  } else if (c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x2028 || c == 0x2029) {
    append_hex(out, c);
  } else {
    append_utf8(out, c);
  }
}

// Whether llama.cpp makes a single rule of `n` in parentheses: characters, strings and classes in
// a sequence or alternation, no group or quantifier inside.
bool flat(const Node& n) {
  auto atom = [](const Node& m) { return m.kind == Node::literal || m.kind == Node::cls; };
  if (atom(n)) return true;
  if (n.kind == Node::repeat) return false;
  return std::all_of(n.items.begin(), n.items.end(),
                     [&](const Node& m) { return atom(m) || (n.kind == Node::alt && m.kind == Node::seq && flat(m)); });
}

class Writer {
 public:
  std::string grammar(const Node& root) {
    std::string body = expr(root);
    std::string out = "root ::= " + (body.empty() ? "\"\"" : body) + "\n";
    for (auto& rule : rules_) out += rule + "\n";
    return out;
  }

 private:
  std::string expr(const Node& n) {
    switch (n.kind) {
      case Node::literal: {
        std::string out = "\"";
        for (char32_t c : n.text) append_char(out, c, false);
        return out + "\"";
      }
      case Node::cls: {
        std::string out = n.negated ? "[^" : "[";
        for (auto [lo, hi] : n.ranges) {
          if (lo == '^' && !n.negated && out.size() == 1)
            append_hex(out, lo);  // not read as a negation
          else
            append_char(out, lo, true);
          if (hi > lo + 1) out += '-';
          if (hi > lo) append_char(out, hi, true);
        }
        return out + "]";
      }
      case Node::seq: {
        std::string out;
        for (const Node& m : n.items) out = join(out, m.kind == Node::alt ? parens(expr(m)) : expr(m));
        return out;
      }
      case Node::alt: {
        std::string out;
        for (std::size_t k = 0; k < n.items.size(); ++k) {
          std::string s = expr(n.items[k]);
          out += (k ? " | " : "") + (s.empty() ? "\"\"" : s);  // "" keeps a trailing empty branch on its line
        }
        return out;
      }
      case Node::repeat: {
        const Node& item = n.items[0];
        std::string atom = item.kind == Node::literal || item.kind == Node::cls ? expr(item)
                           : flat(item)                                         ? parens(expr(item))
                                                                                : rule(expr(item));
        return repeat(atom, n.min, n.max);
      }
    }
    return "";
  }

  // The name of the rule `name ::= body`; equal bodies share one rule.
  std::string rule(const std::string& body) {
    auto [it, added] = names_.emplace(body, std::string(1, 'r').append(std::to_string(names_.size() + 1)));
    if (added) rules_.push_back(it->second + " ::= " + body);
    return it->second;
  }

  // (Written without operator+ on a literal, which makes GCC 12 warn wrongly: -Wrestrict.)
  static std::string parens(const std::string& s) { return std::string(1, '(').append(s).append(1, ')'); }

  static std::string join(const std::string& a, const std::string& b) {
    return a.empty() || b.empty() ? a + b : a + " " + b;
  }

  std::string repeat(const std::string& atom, std::size_t min, std::size_t max) {
    if (min > kBlock || (max != kUnbounded && max > kBlock))
      return join(exactly(atom, min), max == kUnbounded ? atom + "*" : up_to(atom, max - min));
    if (max == 0) return "";
    if (min == 1 && max == 1) return atom;
    if (min == 0 && max == 1) return atom + "?";
    if (max == kUnbounded) return atom + (min == 0 ? "*" : min == 1 ? "+" : "{" + std::to_string(min) + ",}");
    if (min == max) return atom + "{" + std::to_string(min) + "}";
    return atom + "{" + std::to_string(min) + "," + std::to_string(max) + "}";
  }

  std::string block(const std::string& atom) { return rule(atom + "{" + std::to_string(kBlock) + "}"); }

  // atom{n}, in blocks of kBlock.
  std::string exactly(const std::string& atom, std::size_t n) {
    if (n <= kBlock) return repeat(atom, n, n);
    return join(exactly(block(atom), n / kBlock), repeat(atom, n % kBlock, n % kBlock));
  }

  // atom{0,n}: fewer than q = n / kBlock blocks and a partial one, or q blocks and up to n % kBlock
  // more. The count alone decides the branch, so llama.cpp follows a couple of parses, not n.
  std::string up_to(const std::string& atom, std::size_t n) {
    if (n <= kBlock) return repeat(atom, 0, n);
    std::size_t q = n / kBlock;
    std::string fewer = join(up_to(block(atom), q - 1), repeat(atom, 0, kBlock - 1));
    std::string all = join(exactly(block(atom), q), repeat(atom, 0, n % kBlock));
    return "(" + fewer + " | " + all + ")";
  }

  std::map<std::string, std::string> names_;
  std::vector<std::string> rules_;
};

}  // namespace
}  // namespace textedge::detail

namespace textedge {

std::string regex_to_gbnf(const std::string& regex) { return detail::Writer().grammar(detail::Parser(regex).parse()); }

}  // namespace textedge
