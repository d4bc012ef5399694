// Python's literal syntax, for the formats that write calls as Python (pythonic, and llama3_json's
// built-in tools): PyValue reads one value as ast.literal_eval reads it and converts it to JSON as
// it streams; PyArgs reads a keyword argument list "k=v, ...)" into a call's JSON arguments.
// The helpers are defined in pythonic.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/core.hpp"

namespace textedge::detail {

bool ident_start(unsigned char c);  // ASCII identifiers: [A-Za-z_][A-Za-z0-9_]*
bool ident_char(unsigned char c);
bool digit(unsigned char c);
bool octal_digit(unsigned char c);
bool hex_digit(unsigned char c);
int hex_value(unsigned char c);
bool identifier(std::string_view s);  // one ASCII identifier
bool python_keyword(std::string_view word);  // reserved words: no function or keyword argument is named so
// A Python number token (its sign read before it) as a JSON number of the same value; false when
// Python would not read it, or reads a complex number.
bool python_number_to_json(std::string_view token, bool negative, std::string& out);
void append_code_point(std::string& out, std::uint32_t cp);  // a code point inside a JSON string
// One whole Python literal (surrounding whitespace allowed) as JSON; false when it is not one.
bool python_literal_to_json(std::string_view text, std::string& out);

// One Python literal, read as ast.literal_eval reads it and converted to JSON byte by byte:
// strings (' " ''' """, prefixes r and u, every escape but \N{...}, implicit concatenation
// 'a' 'b'), numbers (a sign, underscores, 0x/0o/0b, floats), True/False/None, lists, tuples
// (arrays), parenthesized values, dicts with string keys. What JSON cannot hold (bytes, complex
// numbers, sets, non-string keys) and anything else is an error.
class PyValue {
 public:
  enum class R { more, done, done_reprocess, error };
  // json_words: also read JSON's true, false and null (for templates that write dicts as JSON).
  void reset(bool json_words = false) {
    *this = PyValue();
    json_words_ = json_words;
  }
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
        if (word_ == "True" || (json_words_ && word_ == "true")) emit("true");
        else if (word_ == "False" || (json_words_ && word_ == "false")) emit("false");
        else if (word_ == "None" || (json_words_ && word_ == "null")) emit("null");
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
        pending_.insert(undecided_.back(), 1, '[');
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
       skip_lf_ = false, json_words_ = false;
};

// Keyword arguments after a call's "(": "k=v, ...)" (a trailing comma allowed) as the call's JSON
// object, streamed through the scanner's add_args. Positional arguments, reserved or repeated
// names are errors (Python's SyntaxError, or no JSON name).
class PyArgs {
 public:
  enum class R { more, done, error };
  // json_words: values may also use JSON's true, false and null (see PyValue::reset).
  void reset(bool json_words = false) {
    *this = PyArgs();
    json_words_ = json_words;
  }
  R step(unsigned char c, ToolScanner& s);

 private:
  enum class St : unsigned char { args_pre, key, eq, val_pre, val, after_arg };
  St st_ = St::args_pre;
  std::string key_;
  std::vector<std::string> keys_;
  bool first_ = true, json_words_ = false;
  PyValue value_;
};

// One call as Python writes it, from its name's first byte: f(k=v, ...) (a dotted name allowed).
// The name goes to the scanner at "(", the arguments stream through PyArgs; shared by pythonic,
// olmo3 and lfm2.
class PyCall {
 public:
  enum class R { more, done, error };
  void reset(bool json_words = false) {
    st_ = St::name_start;
    json_words_ = json_words;
  }
  R step(unsigned char c, ToolScanner& s);

 private:
  enum class St : unsigned char { name_start, name, args };
  St st_ = St::name_start;
  bool json_words_ = false;
  std::string name_;
  PyArgs args_;
};

}  // namespace textedge::detail
