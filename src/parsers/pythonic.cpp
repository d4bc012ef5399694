// pythonic: Llama 3.2 / Llama 4 pythonic tool calls (vLLM's pythonic parser, which reads them
// with ast): [f(a=1, b="x"), g()] at the start of the output, or after <|python_start|>.
// Keyword arguments become a JSON object as they stream: Python strings -> JSON strings,
// True/False/None -> true/false/null, lists and tuples -> arrays, dicts (string keys) -> objects.
#include "core.hpp"

namespace textedge::detail {
namespace {

bool ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// One Python literal, converted to JSON byte by byte.
class PyValue {
 public:
  enum class R { more, done, done_reprocess, error };
  void reset() { *this = PyValue(); }
  R step(unsigned char c, std::string& out) {
    switch (st_) {
      case St::value:
        if (json_ws(c)) return R::more;
        if (allow_close_ && !stack_.empty() && close_matches(c)) return close(out);
        if (comma_) out += ", ";
        comma_ = allow_close_ = false;
        if (!stack_.empty() && stack_.back() == '{' && c != '\'' && c != '"') return R::error;  // JSON keys are strings
        if (c == '\'' || c == '"') {
          quote_ = c;
          out += '"';
          st_ = St::str;
          return R::more;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
          out += static_cast<char>(c);
          st_ = St::num;
          return R::more;
        }
        if (ident_start(c)) {
          word_.assign(1, static_cast<char>(c));
          st_ = St::word;
          return R::more;
        }
        if (c == '[' || c == '(' || c == '{') {
          stack_ += static_cast<char>(c);
          out += c == '{' ? '{' : '[';
          allow_close_ = true;
          return R::more;
        }
        return R::error;
      case St::str:
        if (c == quote_) {
          out += '"';
          return value_end();
        }
        if (c == '\\') {
          st_ = St::esc;
          return R::more;
        }
        if (c == '\n') return R::error;
        append_json_char(out, c);
        return R::more;
      case St::esc:
        st_ = St::str;
        switch (c) {
          case '\'': out += '\''; return R::more;
          case '"': out += "\\\""; return R::more;
          case '\\': out += "\\\\"; return R::more;
          case 'n': case 't': case 'r': case 'b': case 'f': case 'u':
            out += '\\';
            out += static_cast<char>(c);
            return R::more;
          default: return R::error;
        }
      case St::num:
        if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
          out += static_cast<char>(c);
          return R::more;
        }
        return reprocess(value_end(), c, out);
      case St::word:
        if (ident_char(c)) {
          word_ += static_cast<char>(c);
          return R::more;
        }
        if (word_ == "True") out += "true";
        else if (word_ == "False") out += "false";
        else if (word_ == "None") out += "null";
        else return R::error;
        return reprocess(value_end(), c, out);
      case St::after:
        if (json_ws(c)) return R::more;
        if (stack_.back() == ':') {  // a dict key was read
          if (c != ':') return R::error;
          out += ": ";
          stack_.back() = 'v';
          st_ = St::value;
          return R::more;
        }
        if (c == ',') {
          if (stack_.back() == '}') stack_.back() = '{';
          comma_ = allow_close_ = true;
          st_ = St::value;
          return R::more;
        }
        if (close_matches(c)) return close(out);
        return R::error;
    }
    return R::error;
  }

 private:
  enum class St : unsigned char { value, str, esc, num, word, after };
  bool close_matches(unsigned char c) const {
    char top = stack_.back();
    return (c == ']' && top == '[') || (c == ')' && top == '(') || (c == '}' && (top == '{' || top == '}'));
  }
  R close(std::string& out) {
    out += stack_.back() == '[' || stack_.back() == '(' ? ']' : '}';
    stack_.pop_back();
    comma_ = allow_close_ = false;
    return value_end();
  }
  // Dict levels: '{' a key comes next, ':' a key was read (a colon comes next), 'v' its value
  // comes next, '}' the value was read (',' or '}' comes next).
  R value_end() {
    st_ = St::after;
    if (stack_.empty()) return R::done;
    char& top = stack_.back();
    if (top == '{') top = ':';
    else if (top == 'v') top = '}';
    return R::more;
  }
  R reprocess(R r, unsigned char c, std::string& out) {
    if (r == R::done) return R::done_reprocess;
    return step(c, out);
  }

  St st_ = St::value;
  std::string stack_, word_;
  unsigned char quote_ = 0;
  bool comma_ = false, allow_close_ = false;
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
        if (c != '(') return Step::fail;
        set_name(name_);
        first_ = true;
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
        if (c != '=') return Step::fail;
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
  bool first_ = true, python_start_ = false;
  PyValue value_;
};

}  // namespace

std::unique_ptr<ToolScanner> make_pythonic(Emitter& em, const OutputParserOptions& o) { return std::make_unique<Pythonic>(em, o); }

}  // namespace textedge::detail
