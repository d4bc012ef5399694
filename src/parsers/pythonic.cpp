// pythonic: Llama 3.2 / Llama 4 pythonic tool calls (vLLM's pythonic parser, which reads them
// with ast): [f(a=1, b="x"), g()] at the start of the output, or after <|python_start|>.
// Keyword arguments become a JSON object as they stream. Values are read as Python's
// ast.literal_eval reads them and written as the JSON json.dumps would give for them (numbers
// keep their digits): see PyValue.
#include <cstring>

#include "core.hpp"

namespace textedge::detail {
namespace {

bool ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }
int hex_value(unsigned char c) {
  if (digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Python's reserved words cannot name a keyword argument or a function.
bool python_keyword(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "False", "None",  "True",   "and",    "as",       "assert", "async", "await",  "break",
      "class", "continue", "def", "del",    "elif",     "else",   "except", "finally", "for",
      "from",  "global", "if",    "import", "in",       "is",     "lambda", "nonlocal", "not",
      "or",    "pass",  "raise",  "return", "try",      "while",  "with",  "yield"};
  for (std::string_view k : kWords)
    if (w == k) return true;
  return false;
}

bool octal_digit(unsigned char c) { return c >= '0' && c <= '7'; }
bool binary_digit(unsigned char c) { return c == '0' || c == '1'; }
bool hex_digit(unsigned char c) { return hex_value(c) >= 0; }

// Python's digitpart, digit (["_"] digit)*, over the digits `allowed`: appends the digits.
bool digit_part(std::string_view s, bool (*allowed)(unsigned char), std::string& digits) {
  if (s.empty() || !allowed(s.front()) || !allowed(s.back())) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (!allowed(s[i + 1])) return false;  // "__" (the last byte is a digit)
      continue;
    }
    if (!allowed(s[i])) return false;
    digits += s[i];
  }
  return true;
}

// A Python number token (its sign read before it) as a JSON number of the same value:
// underscores dropped, 0x/0o/0b integers in decimal (any size, as Python's), "1." and ".5"
// completed. False when Python would not read it, or reads a complex number (no JSON value).
bool python_number_to_json(std::string_view t, bool negative, std::string& out) {
  std::string digits;
  if (t.size() > 1 && t[0] == '0' && std::strchr("xXoObB", t[1])) {
    unsigned base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
    std::string_view rest = t.substr(2);
    if (!rest.empty() && rest[0] == '_') rest.remove_prefix(1);
    if (!digit_part(rest, base == 16 ? hex_digit : base == 8 ? octal_digit : binary_digit, digits)) return false;
    std::vector<std::uint32_t> limbs{0};  // little-endian, base 1e9
    for (char d : digits) {
      std::uint64_t carry = static_cast<std::uint64_t>(hex_value(d));
      for (auto& limb : limbs) {
        std::uint64_t v = std::uint64_t(limb) * base + carry;
        limb = static_cast<std::uint32_t>(v % 1000000000u);
        carry = v / 1000000000u;
      }
      if (carry) limbs.push_back(static_cast<std::uint32_t>(carry));
    }
    if (negative && !(limbs.size() == 1 && limbs[0] == 0)) out += '-';
    out += std::to_string(limbs.back());
    for (std::size_t i = limbs.size() - 1; i-- > 0;) {
      std::string part = std::to_string(limbs[i]);
      out.append(9 - part.size(), '0');
      out += part;
    }
    return true;
  }
  std::size_t e = t.find_first_of("eE"), dot = t.find('.');
  if (dot != std::string_view::npos && (dot > e || t.find('.', dot + 1) != std::string_view::npos)) return false;
  std::string_view mantissa = t.substr(0, e);
  std::string_view int_part = mantissa.substr(0, dot);
  std::string_view frac_part = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
  std::string int_digits, frac_digits, exp_digits;
  if (!int_part.empty() && !digit_part(int_part, digit, int_digits)) return false;
  if (!frac_part.empty() && !digit_part(frac_part, digit, frac_digits)) return false;
  if (int_digits.empty() && frac_digits.empty()) return false;
  bool is_float = dot != std::string_view::npos || e != std::string_view::npos;
  bool exp_negative = false;
  if (e != std::string_view::npos) {
    std::string_view exponent = t.substr(e + 1);
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
      exp_negative = exponent[0] == '-';
      exponent.remove_prefix(1);
    }
    if (!digit_part(exponent, digit, exp_digits)) return false;
  }
  std::size_t nonzero = int_digits.find_first_not_of('0');
  if (!is_float && nonzero != 0 && nonzero != std::string::npos) return false;  // "01": leading zeros in an int
  std::string whole = nonzero == std::string::npos ? "0" : int_digits.substr(nonzero);
  if (negative && (is_float || whole != "0")) out += '-';  // -0 is the integer 0; -0.0 keeps its sign
  out += whole;
  if (dot != std::string_view::npos) {
    out += '.';
    out += frac_digits.empty() ? "0" : frac_digits;
  }
  if (e != std::string_view::npos) {
    out += exp_negative ? "e-" : "e";
    out += exp_digits;
  }
  return true;
}

// A code point from an escape, inside a JSON string.
void append_code_point(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) return append_json_char(out, static_cast<unsigned char>(cp));
  if (cp >= 0xD800 && cp < 0xE000) {  // a lone surrogate has no UTF-8 form: JSON's escape
    static const char hex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
    return;
  }
  if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (cp & 0x3F));
}

// One Python literal, read as ast.literal_eval reads it and converted to JSON byte by byte:
// strings (' " ''' """, prefixes r and u, every escape but \N{...}, implicit concatenation
// 'a' 'b'), numbers (a sign, underscores, 0x/0o/0b, floats), True/False/None, lists, tuples
// (arrays), parenthesized values, dicts with string keys. What JSON cannot hold (bytes, complex
// numbers, sets, non-string keys) and anything else is an error.
class PyValue {
 public:
  enum class R { more, done, done_reprocess, error };
  void reset() { *this = PyValue(); }
  R step(unsigned char c, std::string& out) {
    out_ = &out;
    if (skip_lf_) {  // "\r\n" reads as one newline
      skip_lf_ = false;
      if (c == '\n') return R::more;
    }
    switch (st_) {
      case St::value: return value(c);
      case St::sign:
        if (json_ws(c)) return R::more;
        if (!digit(c) && c != '.') return R::error;
        st_ = St::num;
        token_.clear();
        [[fallthrough]];
      case St::num: {
        bool hex = token_.size() > 1 && (token_[1] == 'x' || token_[1] == 'X');
        bool after_e = !token_.empty() && (token_.back() == 'e' || token_.back() == 'E');
        bool exp_sign = (c == '+' || c == '-') && !hex && after_e;
        if (ident_char(c) || c == '.' || exp_sign) {
          token_ += static_cast<char>(c);
          return R::more;
        }
        std::string json;
        if (!python_number_to_json(token_, negative_, json)) return R::error;
        emit(json);
        return reprocess(value_end(), c);
      }
      case St::word:
        if (ident_char(c)) {
          word_ += static_cast<char>(c);
          return R::more;
        }
        if (c == '\'' || c == '"') {
          if (word_ != "r" && word_ != "R" && word_ != "u" && word_ != "U") return R::error;  // bytes, f-strings
          raw_ = word_ == "r" || word_ == "R";
          if (!continuing_) emit("\"");
          return open_quote(c);
        }
        if (continuing_ || in_key()) return R::error;
        if (word_ == "True") emit("true");
        else if (word_ == "False") emit("false");
        else if (word_ == "None") emit("null");
        else return R::error;
        return reprocess(value_end(), c);
      case St::open1:  // one quote read: an empty string, a triple quote, or the first character
        if (c == quote_) {
          st_ = St::open2;
          return R::more;
        }
        st_ = St::str;
        return str(c);
      case St::open2:
        if (c == quote_) {
          triple_ = true;
          st_ = St::str;
          return R::more;
        }
        st_ = St::str_end;
        return str_end(c);
      case St::str: return str(c);
      case St::esc: return esc(c);
      case St::raw_esc:  // a raw string keeps the backslash and the character after it
        st_ = St::str;
        emit("\\\\");
        if (c == '\r' || c == '\n') {
          emit("\\n");
          skip_lf_ = c == '\r';
          return R::more;
        }
        append_json_char(target(), c);
        return R::more;
      case St::code: {
        bool ok = code_base_ == 8 ? octal_digit(c) : hex_digit(c);
        if (!ok) {
          if (code_base_ != 8) return R::error;  // \x, \u, \U take exactly 2, 4, 8 hex digits
          append_code_point(target(), code_);
          st_ = St::str;
          return str(c);
        }
        code_ = code_ * code_base_ + static_cast<std::uint32_t>(hex_value(c));
        if (--code_left_ > 0) return R::more;
        if (code_ > 0x10FFFF) return R::error;
        append_code_point(target(), code_);
        st_ = St::str;
        return R::more;
      }
      case St::str_end: return str_end(c);
      case St::after: return after(c);
    }
    return R::error;
  }

 private:
  enum class St : unsigned char { value, sign, num, word, open1, open2, str, esc, raw_esc, code, str_end, after };

  // Output waits in pending_ while an open parenthesis may still turn out to be a tuple.
  std::string& target() { return undecided_.empty() ? *out_ : pending_; }
  void emit(std::string_view s) { target() += s; }
  bool in_key() const { return !stack_.empty() && stack_.back() == '{'; }

  R value(unsigned char c) {
    if (json_ws(c)) return R::more;
    if (allow_close_ && !stack_.empty() && close_matches(c)) return close();
    if (comma_) emit(", ");
    comma_ = allow_close_ = continuing_ = false;
    if (c == '\'' || c == '"') {
      raw_ = false;
      emit("\"");
      return open_quote(c);
    }
    if (ident_start(c)) {
      word_.assign(1, static_cast<char>(c));
      st_ = St::word;
      return R::more;
    }
    if (in_key()) return R::error;  // JSON keys are strings
    if (c == '-' || c == '+') {
      negative_ = c == '-';
      st_ = St::sign;
      return R::more;
    }
    if (digit(c) || c == '.') {
      negative_ = false;
      token_.assign(1, static_cast<char>(c));
      st_ = St::num;
      return R::more;
    }
    if (c == '[' || c == '{') {
      stack_ += static_cast<char>(c);
      emit(c == '[' ? "[" : "{");
      allow_close_ = true;
      return R::more;
    }
    if (c == '(') {  // a tuple once a comma follows its first value, else a parenthesized value
      stack_ += 'P';
      undecided_.push_back(pending_.size());
      allow_close_ = true;
      return R::more;
    }
    return R::error;
  }

  R open_quote(unsigned char c) {
    quote_ = c;
    triple_ = false;
    quotes_ = 0;
    st_ = St::open1;
    return R::more;
  }

  R str(unsigned char c) {
    if (c == quote_) {
      if (!triple_ || ++quotes_ == 3) {
        quotes_ = 0;
        st_ = St::str_end;
      }
      return R::more;
    }
    for (; quotes_ > 0; --quotes_) append_json_char(target(), quote_);  // quotes inside a triple-quoted string
    if (c == '\\') {
      st_ = raw_ ? St::raw_esc : St::esc;
      return R::more;
    }
    if (c == '\r' || c == '\n') {
      if (!triple_) return R::error;  // unterminated string
      emit("\\n");
      skip_lf_ = c == '\r';
      return R::more;
    }
    append_json_char(target(), c);
    return R::more;
  }

  R esc(unsigned char c) {
    st_ = St::str;
    switch (c) {
      case '\r': skip_lf_ = true; return R::more;  // a line continuation
      case '\n': return R::more;
      case '\\': emit("\\\\"); return R::more;
      case '\'': emit("'"); return R::more;
      case '"': emit("\\\""); return R::more;
      case 'a': emit("\\u0007"); return R::more;
      case 'b': emit("\\b"); return R::more;
      case 'f': emit("\\f"); return R::more;
      case 'n': emit("\\n"); return R::more;
      case 'r': emit("\\r"); return R::more;
      case 't': emit("\\t"); return R::more;
      case 'v': emit("\\u000b"); return R::more;
      case 'x': return code(16, 2, 0);
      case 'u': return code(16, 4, 0);
      case 'U': return code(16, 8, 0);
      case 'N': return R::error;  // \N{name} needs Unicode's name table
      default:
        if (octal_digit(c)) return code(8, 2, c - '0');
        emit("\\\\");  // an unknown escape keeps its backslash
        return str(c);
    }
  }

  R code(std::uint32_t base, int digits, std::uint32_t first) {
    code_base_ = base;
    code_left_ = digits;
    code_ = first;
    st_ = St::code;
    return R::more;
  }

  // After a string's closing quote: another string continues it ('a' 'b' is 'ab').
  R str_end(unsigned char c) {
    if (json_ws(c)) return R::more;
    if (c == '\'' || c == '"') {
      raw_ = false;
      return open_quote(c);
    }
    if (ident_start(c)) {  // a prefixed string (anything else there is an error)
      continuing_ = true;
      word_.assign(1, static_cast<char>(c));
      st_ = St::word;
      return R::more;
    }
    emit("\"");
    return reprocess(value_end(), c);
  }

  R after(unsigned char c) {
    if (json_ws(c)) return R::more;
    char& top = stack_.back();
    if (top == ':') {  // a dict key was read
      if (c != ':') return R::error;
      emit(": ");
      top = 'v';
      st_ = St::value;
      return R::more;
    }
    if (c == ',') {
      if (top == '}') top = '{';
      if (top == 'P') {  // "(x,": a tuple
        top = '(';
        pending_.insert(undecided_.back(), "[");
        undecided_.pop_back();
        flush();
      }
      comma_ = allow_close_ = true;
      st_ = St::value;
      return R::more;
    }
    if (close_matches(c)) return close();
    return R::error;
  }

  void flush() {
    if (undecided_.empty() && !pending_.empty()) {
      *out_ += pending_;
      pending_.clear();
    }
  }

  bool close_matches(unsigned char c) const {
    char top = stack_.back();
    return (c == ']' && top == '[') || (c == ')' && (top == '(' || top == 'P')) ||
           (c == '}' && (top == '{' || top == '}'));
  }
  R close() {
    char top = stack_.back();
    stack_.pop_back();
    if (top == 'P') {  // "()" is the empty tuple, "(x)" is x
      if (st_ == St::value) emit("[]");
      undecided_.pop_back();
      flush();
    } else {
      emit(top == '[' || top == '(' ? "]" : "}");
    }
    comma_ = allow_close_ = false;
    return value_end();
  }
  // Dict levels: '{' a key comes next, ':' a key was read (a colon comes next), 'v' its value
  // comes next, '}' the value was read (',' or '}' comes next). 'P' an open parenthesis not yet
  // known to be a tuple, '(' a tuple.
  R value_end() {
    st_ = St::after;
    if (stack_.empty()) return R::done;
    char& top = stack_.back();
    if (top == '{') top = ':';
    else if (top == 'v') top = '}';
    return R::more;
  }
  R reprocess(R r, unsigned char c) {
    if (r == R::done) return R::done_reprocess;
    return step(c, *out_);
  }

  St st_ = St::value;
  std::string* out_ = nullptr;
  std::string stack_, word_, token_, pending_;
  std::vector<std::size_t> undecided_;  // where each undecided '(' begins in pending_
  unsigned char quote_ = 0;
  int quotes_ = 0, code_left_ = 0;
  std::uint32_t code_ = 0, code_base_ = 0;
  bool comma_ = false, allow_close_ = false, raw_ = false, triple_ = false, negative_ = false, continuing_ = false,
       skip_lf_ = false;
};

class Pythonic final : public ToolScanner {
 public:
  Pythonic(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"[", "<|python_start|>"}) {}

 private:
  enum class St : unsigned char { start, list_pre, name, args_pre, key, eq, val_pre, val, after_arg, after_call, python_end };
  bool marker_allowed(std::uint32_t marker) const override { return marker == 1 || !content_started(); }
  void begin(std::uint32_t marker) override {
    st_ = marker == 0 ? St::list_pre : St::start;
    python_start_ = marker == 1;
  }
  Step close_call() {
    add_args(first_ ? "{}" : "}");
    end_call();
    st_ = St::after_call;
    return Step::more;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::start:
        if (json_ws(c)) return Step::more;
        if (c != '[') return Step::fail;
        st_ = St::list_pre;
        return Step::more;
      case St::list_pre:
        if (json_ws(c)) return Step::more;
        if (!ident_start(c)) return Step::fail;
        name_.assign(1, static_cast<char>(c));
        st_ = St::name;
        return Step::more;
      case St::name:
        if (ident_char(c) || c == '.') {
          name_ += static_cast<char>(c);
          return Step::more;
        }
        if (c != '(' || python_keyword(name_)) return Step::fail;
        set_name(name_);
        first_ = true;
        keys_.clear();
        st_ = St::args_pre;
        return Step::more;
      case St::args_pre:
        if (json_ws(c)) return Step::more;
        if (c == ')') return close_call();
        if (!ident_start(c)) return Step::fail;
        key_.assign(1, static_cast<char>(c));
        st_ = St::key;
        return Step::more;
      case St::key:
        if (ident_char(c)) {
          key_ += static_cast<char>(c);
          return Step::more;
        }
        st_ = St::eq;
        [[fallthrough]];
      case St::eq: {
        if (json_ws(c)) return Step::more;
        if (c != '=' || python_keyword(key_)) return Step::fail;
        for (const std::string& k : keys_)
          if (k == key_) return Step::fail;  // a repeated keyword argument is a SyntaxError
        keys_.push_back(key_);
        std::string head = first_ ? "{" : ", ";
        head += json_quote(key_);
        head += ": ";
        first_ = false;
        add_args(head);
        st_ = St::val_pre;
        return Step::more;
      }
      case St::val_pre:
        if (json_ws(c)) return Step::more;
        value_.reset();
        st_ = St::val;
        [[fallthrough]];
      case St::val: {
        std::string out;
        PyValue::R r = value_.step(c, out);
        if (r == PyValue::R::error) return Step::fail;
        add_args(out);
        if (r == PyValue::R::more) return Step::more;
        st_ = St::after_arg;
        if (r == PyValue::R::done) return Step::more;
        [[fallthrough]];
      }
      case St::after_arg:
        if (json_ws(c)) return Step::more;
        if (c == ',') {
          st_ = St::args_pre;
          return Step::more;
        }
        if (c == ')') return close_call();
        return Step::fail;
      case St::after_call:
        if (json_ws(c)) return Step::more;
        if (c == ',') {
          st_ = St::list_pre;
          return Step::more;
        }
        if (c != ']') return Step::fail;
        commit();
        if (!python_start_) return Step::end;
        tag_.clear();
        st_ = St::python_end;
        return Step::more;
      case St::python_end:
        if (tag_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(tag_, c, {"<|python_end|>"})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }

  St st_ = St::start;
  std::string name_, key_, tag_;
  std::vector<std::string> keys_;
  bool first_ = true, python_start_ = false;
  PyValue value_;
};

}  // namespace

std::unique_ptr<ToolScanner> make_pythonic(Emitter& em, const OutputParserOptions& o) { return std::make_unique<Pythonic>(em, o); }

}  // namespace textedge::detail
