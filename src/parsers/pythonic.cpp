// pythonic: Llama 3.2 / Llama 4 pythonic tool calls (vLLM's pythonic parser, which reads them
// with ast): [f(a=1, b="x"), g()] at the start of the output, or after <|python_start|>.
// Keyword arguments become a JSON object as they stream. Values are read as Python's
// ast.literal_eval reads them and written as the JSON json.dumps would give for them (numbers
// keep their digits): see PyValue.
#include <cstring>

#include "parsers/family.hpp"
#include "parsers/python_literal.hpp"

namespace textedge::detail {

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
bool python_literal_to_json(std::string_view text, std::string& out) {
  PyValue v;
  std::size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return false;
  PyValue::R r = PyValue::R::more;
  for (; i < text.size() && r == PyValue::R::more; ++i) r = v.step(static_cast<unsigned char>(text[i]), out);
  if (r == PyValue::R::more) r = v.step(' ', out);  // ends a number or a word
  if (r == PyValue::R::error || r == PyValue::R::more) return false;
  if (r == PyValue::R::done_reprocess) --i;  // the byte that ended the value is not part of it
  return text.find_first_not_of(" \t\r\n", std::min(i, text.size())) == std::string_view::npos;
}

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


PyArgs::R PyArgs::step(unsigned char c, ToolScanner& s) {
  switch (st_) {
    case St::args_pre:
      if (json_ws(c)) return R::more;
      if (c == ')') {
        s.add_args(first_ ? "{}" : "}");
        return R::done;
      }
      if (!ident_start(c)) return R::error;
      key_.assign(1, static_cast<char>(c));
      st_ = St::key;
      return R::more;
    case St::key:
      if (ident_char(c)) {
        key_ += static_cast<char>(c);
        return R::more;
      }
      st_ = St::eq;
      [[fallthrough]];
    case St::eq: {
      if (json_ws(c)) return R::more;
      if (c != '=' || python_keyword(key_)) return R::error;
      for (const std::string& k : keys_)
        if (k == key_) return R::error;  // a repeated keyword argument is a SyntaxError
      keys_.push_back(key_);
      std::string head = first_ ? "{" : ", ";
      head += json_quote(key_);
      head += ": ";
      first_ = false;
      s.add_args(head);
      st_ = St::val_pre;
      return R::more;
    }
    case St::val_pre:
      if (json_ws(c)) return R::more;
      value_.reset(json_words_);
      st_ = St::val;
      [[fallthrough]];
    case St::val: {
      std::string out;
      PyValue::R r = value_.step(c, out);
      if (r == PyValue::R::error) return R::error;
      s.add_args(out);
      if (r == PyValue::R::more) return R::more;
      st_ = St::after_arg;
      if (r == PyValue::R::done) return R::more;
      [[fallthrough]];
    }
    case St::after_arg:
      if (json_ws(c)) return R::more;
      if (c == ',') {
        st_ = St::args_pre;
        return R::more;
      }
      if (c == ')') {
        s.add_args("}");
        return R::done;
      }
      return R::error;
  }
  return R::error;
}

PyCall::R PyCall::step(unsigned char c, ToolScanner& s) {
  switch (st_) {
    case St::name_start:
      if (!ident_start(c)) return R::error;
      name_.assign(1, static_cast<char>(c));
      st_ = St::name;
      return R::more;
    case St::name:
      if (ident_char(c) || c == '.') {
        name_ += static_cast<char>(c);
        return R::more;
      }
      if (c != '(' || python_keyword(name_)) return R::error;
      s.set_name(name_);
      args_.reset(json_words_);
      st_ = St::args;
      return R::more;
    case St::args:
      switch (args_.step(c, s)) {
        case PyArgs::R::more: return R::more;
        case PyArgs::R::error: return R::error;
        case PyArgs::R::done: return R::done;
      }
  }
  return R::error;
}

namespace {

class Pythonic final : public ToolScanner {
 public:
  Pythonic(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"[", "<|python_start|>"}) {}

 private:
  enum class St : unsigned char { start, list_pre, call, after_call, python_end };
  bool marker_allowed(std::uint32_t marker) const override { return marker == 1 || !content_started(); }
  void begin(std::uint32_t marker) override {
    st_ = marker == 0 ? St::list_pre : St::start;
    python_start_ = marker == 1;
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
        call_.reset();
        st_ = St::call;
        [[fallthrough]];
      case St::call:
        switch (call_.step(c, *this)) {
          case PyCall::R::more: return Step::more;
          case PyCall::R::error: return Step::fail;
          case PyCall::R::done: end_call(); st_ = St::after_call; return Step::more;
        }
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
  std::string tag_;
  bool python_start_ = false;
  PyCall call_;
};

}  // namespace

bool identifier(std::string_view s) {
  if (s.empty() || !ident_start(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!ident_char(static_cast<unsigned char>(c))) return false;
  return true;
}

extern const Family kPythonic;
constexpr Family kPythonic{
    .name = "pythonic",
    .models = "Llama 3.2, Llama 4 (pythonic), other [f(a=1)] writers",
    .example = "[get_weather(city='Paris', days=3), get_time(tz='Asia/Tokyo')]",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<Pythonic>(em, o);
    },
    .markers = {"<|python_start|>", "<|python_end|>"},  // special tokens of Llama 4
    // vLLM's Llama 3.2 and Llama 4 pythonic templates ask for "[func_name1(params_name1=...), ...]".
    .detect = [](std::string_view t) { return contains(t, "[func_name1("); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
      if (!identifier(tool.name())) SchemaCompiler::fail(tool.at().get("name"), "pythonic calls need a Python identifier as name");
      if (tool.parameters() && tool.parameters()->is_object())
        if (auto props = tool.parameters()->find("properties"))
          for (auto& [k, v] : props->members())
            if (!identifier(k)) SchemaCompiler::fail(v, "pythonic calls need Python identifiers as argument names");
      // Names can also come from "required" or an allOf part: each is checked where it is written.
      const Json* params = tool.parameters() ? &*tool.parameters() : nullptr;
      auto argument = [params](std::string_view k) {
        if (!identifier(k))
          SchemaCompiler::fail(*params, "pythonic calls need Python identifiers as argument names, not \"" + std::string(k) + "\"");
        return std::string(k) + "=";
      };
      return tool.name_regex() + "\\(" + tool.members(MemberStyle{argument, "", ", ?", ""}, Dialect::python) + "\\)";
    },
    .envelope = {"\\[", ", ?", "\\]", true},
};

}  // namespace textedge::detail
