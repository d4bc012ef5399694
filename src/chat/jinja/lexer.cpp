#include "chat/jinja/lexer.hpp"

#include <charconv>
#include <cstdlib>

#include "chat/jinja/code_points.hpp"
#include "textedge/error.hpp"

namespace textedge::detail::jinja {

namespace {

// Byte length of the Python-whitespace code point at s[i], or 0.
std::size_t space_at(std::string_view s, std::size_t i) {
  if (i >= s.size()) return 0;
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) ? 1 : 0;
  std::size_t j = i;
  char32_t cp = decode_utf8(s, j);
  return is_space(cp) ? j - i : 0;
}

std::size_t skip_spaces(std::string_view s, std::size_t i) {
  while (std::size_t n = space_at(s, i)) i += n;
  return i;
}

// Python's str.rstrip(): the length without trailing whitespace.
std::size_t rstrip_length(std::string_view s) {
  std::size_t end = s.size();
  while (end > 0) {
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xc0) == 0x80) --start;
    if (space_at(s, start) != end - start) break;
    end = start;
  }
  return end;
}

bool all_space(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t n = space_at(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

bool is_name_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(unsigned char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit_char(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  explicit Lexer(const std::string& source) : s_(source) {}

  std::vector<Token> run() {
    std::size_t pos = 0;
    bool line_starting = true;
    while (pos < s_.size()) {
      // Find the next tag opener.
      std::size_t p = pos;
      char kind = 0;
      while (true) {
        p = s_.find('{', p);
        if (p == std::string::npos || p + 1 >= s_.size()) {
          p = std::string::npos;
          break;
        }
        char c = s_[p + 1];
        if (c == '{' || c == '%' || c == '#') {
          kind = c;
          break;
        }
        ++p;
      }
      if (p == std::string::npos) {
        emit_data(pos, s_.size() - pos);
        return finish();
      }
      std::size_t after = p + 2;
      char sign = 0;
      if (after < s_.size() && (s_[after] == '-' || s_[after] == '+')) sign = s_[after++];
      // {% raw %}: its own rule, tried first.
      bool raw = false;
      std::size_t raw_end = 0;
      if (kind == '%') {
        std::size_t q = skip_spaces(s_, after);
        if (s_.compare(q, 3, "raw") == 0) {
          q = skip_spaces(s_, q + 3);
          if (s_.compare(q, 3, "-%}") == 0) {
            raw = true;
            raw_end = skip_spaces(s_, q + 3);
          } else if (s_.compare(q, 2, "%}") == 0) {
            raw = true;
            raw_end = q + 2;
          }
        }
      }
      std::size_t text_len = strip_before(pos, p - pos, sign, kind != '{', line_starting);
      emit_data(pos, text_len);
      if (raw) {
        pos = lex_raw(raw_end, line_starting);
        continue;
      }
      if (kind == '#') {
        pos = lex_comment(p, after, line_starting);
        continue;
      }
      Token t = make(kind == '{' ? Tok::VariableBegin : Tok::BlockBegin, p);
      tokens_.push_back(std::move(t));
      pos = lex_tag(after, kind == '{', line_starting);
    }
    return finish();
  }

 private:
  std::vector<Token> finish() {
    Token eof = make(Tok::Eof, s_.size());
    tokens_.push_back(std::move(eof));
    return std::move(tokens_);
  }

  void position(std::size_t offset, std::size_t& line, std::size_t& column) {
    // Tokens arrive in order: advance a cursor instead of rescanning.
    if (offset < cursor_) {
      cursor_ = 0;
      cursor_line_ = 1;
      line_start_ = 0;
    }
    for (; cursor_ < offset && cursor_ < s_.size(); ++cursor_) {
      if (s_[cursor_] == '\n') {
        ++cursor_line_;
        line_start_ = cursor_ + 1;
      }
    }
    line = cursor_line_;
    column = offset - line_start_ + 1;
  }

  Token make(Tok type, std::size_t offset) {
    Token t;
    t.type = type;
    position(offset, t.line, t.column);
    return t;
  }

  [[noreturn]] void fail(const std::string& message, std::size_t offset) {
    std::size_t line, column;
    position(offset, line, column);
    throw TemplateError("TemplateSyntaxError", message, line, column);
  }

  void emit_data(std::size_t start, std::size_t len) {
    if (len == 0) return;
    Token t = make(Tok::Data, start);
    t.text.assign(s_, start, len);
    tokens_.push_back(std::move(t));
  }

  // The length of the data before a tag after whitespace control: "-" strips all whitespace;
  // lstrip_blocks strips spaces before a block or comment tag that starts its line.
  std::size_t strip_before(std::size_t start, std::size_t len, char sign, bool lstrip, bool line_starting) {
    std::string_view text(s_.data() + start, len);
    if (sign == '-') return rstrip_length(text);
    if (sign == '+' || !lstrip) return len;
    std::size_t nl = text.rfind('\n');
    std::size_t l_pos = nl == std::string_view::npos ? 0 : nl + 1;
    if ((l_pos > 0 || line_starting) && l_pos < len && all_space(text.substr(l_pos))) return l_pos;
    return len;
  }

  // After a block end: "-%}" eats all whitespace, "+%}" nothing, "%}" one newline (trim_blocks).
  std::size_t block_suffix(std::size_t end, char sign, bool& line_starting) {
    std::size_t start = end;
    if (sign == '-') {
      end = skip_spaces(s_, end);
    } else if (sign != '+' && end < s_.size() && s_[end] == '\n') {
      ++end;
    }
    (void)start;
    line_starting = end > 0 && s_[end - 1] == '\n';
    return end;
  }

  std::size_t lex_comment(std::size_t begin, std::size_t pos, bool& line_starting) {
    for (std::size_t q = pos; q + 1 < s_.size(); ++q) {
      if ((s_[q] == '+' || s_[q] == '-') && q + 2 < s_.size() && s_[q + 1] == '#' && s_[q + 2] == '}')
        return block_suffix(q + 3, s_[q], line_starting);
      if (s_[q] == '#' && s_[q + 1] == '}') return block_suffix(q + 2, 0, line_starting);
    }
    fail("Missing end of comment tag", begin);
  }

  std::size_t lex_raw(std::size_t pos, bool& line_starting) {
    std::size_t q = pos;
    while ((q = s_.find("{%", q)) != std::string::npos) {
      std::size_t r = q + 2;
      char sign = 0;
      if (r < s_.size() && (s_[r] == '-' || s_[r] == '+')) sign = s_[r++];
      r = skip_spaces(s_, r);
      if (s_.compare(r, 6, "endraw") == 0) {
        r = skip_spaces(s_, r + 6);
        char end_sign = 0;
        if (r < s_.size() && (s_[r] == '-' || s_[r] == '+')) end_sign = s_[r++];
        if (s_.compare(r, 2, "%}") == 0) {
          std::size_t text_len = strip_before(pos, q - pos, sign, true, line_starting);
          emit_data(pos, text_len);
          return block_suffix(r + 2, end_sign, line_starting);
        }
      }
      q += 2;
    }
    fail("Missing end of raw directive", pos);
  }

  std::size_t lex_tag(std::size_t pos, bool variable, bool& line_starting) {
    std::vector<char> balance;
    const char* end = variable ? "}}" : "%}";
    while (true) {
      if (pos >= s_.size()) fail(variable ? "unexpected end of template, expected 'end of print statement'." : "unexpected end of template, expected 'end of statement block'.", pos);
      if (balance.empty()) {
        if ((s_[pos] == '-' || (!variable && s_[pos] == '+')) && s_.compare(pos + 1, 2, end) == 0) {
          tokens_.push_back(make(variable ? Tok::VariableEnd : Tok::BlockEnd, pos));
          if (variable) {
            std::size_t e = skip_spaces(s_, pos + 3);
            line_starting = e > 0 && s_[e - 1] == '\n';
            return e;
          }
          return block_suffix(pos + 3, s_[pos], line_starting);
        }
        if (s_.compare(pos, 2, end) == 0) {
          tokens_.push_back(make(variable ? Tok::VariableEnd : Tok::BlockEnd, pos));
          if (variable) {
            line_starting = false;
            return pos + 2;
          }
          return block_suffix(pos + 2, 0, line_starting);
        }
      }
      if (std::size_t n = space_at(s_, pos)) {
        pos = skip_spaces(s_, pos + n);
        continue;
      }
      unsigned char c = static_cast<unsigned char>(s_[pos]);
      if (is_digit_char(static_cast<char>(c))) {
        pos = lex_number(pos);
        continue;
      }
      if (is_name_start(c) || c >= 0x80) {
        std::size_t q = pos;
        while (q < s_.size()) {
          unsigned char d = static_cast<unsigned char>(s_[q]);
          if (is_name_char(d)) {
            ++q;
          } else if (d >= 0x80) {
            std::size_t r = q;
            char32_t cp = decode_utf8(s_, r);
            if (!is_alpha(cp) && !(q > pos && (is_decimal(cp)))) break;
            q = r;
          } else {
            break;
          }
        }
        if (q == pos) fail(std::string("unexpected char ") + quote_char(pos) + " at " + std::to_string(pos), pos);
        Token t = make(Tok::Name, pos);
        t.text.assign(s_, pos, q - pos);
        tokens_.push_back(std::move(t));
        pos = q;
        continue;
      }
      if (c == '\'' || c == '"') {
        pos = lex_string(pos);
        continue;
      }
      static const char* const ops[] = {"//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]",
                                        "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";"};
      bool matched = false;
      for (const char* op : ops) {
        std::size_t n = op[1] ? 2 : 1;
        if (s_.compare(pos, n, op) == 0) {
          char o = op[0];
          if (n == 1) {
            if (o == '{' || o == '(' || o == '[') {
              balance.push_back(o == '{' ? '}' : o == '(' ? ')' : ']');
            } else if (o == '}' || o == ')' || o == ']') {
              if (balance.empty()) fail(std::string("unexpected '") + o + "'", pos);
              if (balance.back() != o) fail(std::string("unexpected '") + o + "', expected '" + balance.back() + "'", pos);
              balance.pop_back();
            }
          }
          Token t = make(Tok::Operator, pos);
          t.text = op;
          tokens_.push_back(std::move(t));
          pos += n;
          matched = true;
          break;
        }
      }
      if (!matched) fail(std::string("unexpected char ") + quote_char(pos) + " at " + std::to_string(pos), pos);
    }
  }

  std::string quote_char(std::size_t pos) {
    std::size_t q = pos;
    decode_utf8(s_, q);
    std::string out;
    std::string_view ch(s_.data() + pos, q - pos);
    out += ch == "'" ? '"' : '\'';
    out += ch;
    out += ch == "'" ? '"' : '\'';
    return out;
  }

  std::size_t lex_number(std::size_t pos) {
    auto digits = [&](std::size_t q, auto is_d) {
      // (_?D)+ style runs: digits with single underscores between them.
      std::size_t start = q;
      while (q < s_.size()) {
        if (is_d(s_[q])) {
          ++q;
        } else if (s_[q] == '_' && q > start && q + 1 < s_.size() && is_d(s_[q + 1])) {
          ++q;
        } else {
          break;
        }
      }
      return q;
    };
    auto dec = [](char c) { return c >= '0' && c <= '9'; };
    // Float first (not after a '.'): digits then .digits and/or exponent.
    bool after_dot = pos > 0 && s_[pos - 1] == '.';
    if (!after_dot) {
      std::size_t q = digits(pos, dec);
      std::size_t frac_end = 0;
      if (q < s_.size() && s_[q] == '.' && q + 1 < s_.size() && dec(s_[q + 1])) frac_end = digits(q + 1, dec);
      std::size_t e = frac_end ? frac_end : q;
      std::size_t exp_end = 0;
      if (e < s_.size() && (s_[e] == 'e' || s_[e] == 'E')) {
        std::size_t r = e + 1;
        if (r < s_.size() && (s_[r] == '+' || s_[r] == '-')) ++r;
        if (r < s_.size() && dec(s_[r])) exp_end = digits(r, dec);
      }
      std::size_t end = exp_end ? exp_end : frac_end;
      if (end) {
        std::string text;
        for (std::size_t i = pos; i < end; ++i)
          if (s_[i] != '_') text += s_[i];
        Token t = make(Tok::Float, pos);
        t.float_value = std::strtod(text.c_str(), nullptr);
        t.text = text;
        tokens_.push_back(std::move(t));
        return end;
      }
    }
    int base = 10;
    std::size_t start = pos, end;
    if (s_[pos] == '0' && pos + 1 < s_.size() && (s_[pos + 1] == 'b' || s_[pos + 1] == 'B' || s_[pos + 1] == 'o' ||
                                                   s_[pos + 1] == 'O' || s_[pos + 1] == 'x' || s_[pos + 1] == 'X')) {
      char k = static_cast<char>(s_[pos + 1] | 0x20);
      base = k == 'b' ? 2 : k == 'o' ? 8 : 16;
      auto is_d = [base](char c) {
        if (base == 2) return c == '0' || c == '1';
        if (base == 8) return c >= '0' && c <= '7';
        return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
      };
      std::size_t q = pos + 2;
      if (q < s_.size() && s_[q] == '_') ++q;
      std::size_t r = q < s_.size() && is_d(s_[q]) ? digits(q, is_d) : q;
      if (r == q) {
        end = pos + 1;  // just "0"
        base = 10;
      } else {
        start = pos + 2;
        end = r;
      }
    } else if (s_[pos] == '0') {
      end = pos + 1;
      while (end < s_.size() && (s_[end] == '0' || (s_[end] == '_' && end + 1 < s_.size() && s_[end + 1] == '0')))
        ++end;
    } else {
      end = digits(pos, dec);
    }
    std::string text;
    for (std::size_t i = start; i < end; ++i)
      if (s_[i] != '_') text += s_[i];
    Token t = make(Tok::Integer, pos);
    auto r = std::from_chars(text.data(), text.data() + text.size(), t.int_value, base);
    if (r.ec != std::errc()) fail("integer literal too large", pos);
    t.text.assign(s_, pos, end - pos);
    tokens_.push_back(std::move(t));
    return end;
  }

  std::size_t lex_string(std::size_t pos) {
    char quote = s_[pos];
    std::size_t q = pos + 1;
    while (q < s_.size() && s_[q] != quote) q += s_[q] == '\\' ? 2 : 1;
    if (q >= s_.size()) fail(std::string("unexpected char ") + quote_char(pos) + " at " + std::to_string(pos), pos);
    Token t = make(Tok::String, pos);
    t.text = unescape(std::string_view(s_).substr(pos + 1, q - pos - 1), pos);
    tokens_.push_back(std::move(t));
    return q + 1;
  }

  // Python's "unicode-escape" decoding of the literal's body (after backslashreplace of non-ASCII).
  std::string unescape(std::string_view body, std::size_t at) {
    std::string out;
    out.reserve(body.size());
    std::size_t i = 0;
    auto hex = [&](std::size_t n, const char* what) -> char32_t {
      char32_t v = 0;
      for (std::size_t k = 0; k < n; ++k) {
        if (i + k >= body.size()) fail(std::string("truncated ") + what + " escape", at);
        char c = body[i + k];
        int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
        if (d < 0) fail(std::string("truncated ") + what + " escape", at);
        v = v * 16 + static_cast<char32_t>(d);
      }
      i += n;
      return v;
    };
    while (i < body.size()) {
      char c = body[i];
      if (c != '\\') {
        out += c;
        ++i;
        continue;
      }
      if (i + 1 >= body.size()) fail("\\ at end of string", at);
      char e = body[i + 1];
      i += 2;
      switch (e) {
        case '\n':
          break;
        case '\\':
          out += '\\';
          break;
        case '\'':
          out += '\'';
          break;
        case '"':
          out += '"';
          break;
        case 'a':
          out += '\a';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'v':
          out += '\v';
          break;
        case 'x':
          append_utf8(out, hex(2, "\\xXX"));
          break;
        case 'u':
          append_utf8(out, hex(4, "\\uXXXX"));
          break;
        case 'U': {
          char32_t v = hex(8, "\\UXXXXXXXX");
          if (v > 0x10ffff) fail("illegal Unicode character", at);
          append_utf8(out, v);
          break;
        }
        case 'N':
          fail("malformed \\N character escape", at);
        default:
          if (e >= '0' && e <= '7') {
            char32_t v = static_cast<char32_t>(e - '0');
            for (int k = 0; k < 2 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++k) v = v * 8 + static_cast<char32_t>(body[i++] - '0');
            append_utf8(out, v);
          } else if (static_cast<unsigned char>(e) >= 0x80) {
            // backslashreplace turned the character into an escape the decoder reads back as text.
            std::size_t j = i - 1;
            char32_t cp = decode_utf8(body, j);
            i = j;
            append_python_escape(out, cp);
          } else {
            out += '\\';
            out += e;
          }
      }
    }
    return out;
  }

  const std::string& s_;
  std::vector<Token> tokens_;
  std::size_t cursor_ = 0, cursor_line_ = 1, line_start_ = 0;
};

}  // namespace

std::string normalize_newlines(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (c == '\r') {
      out += '\n';
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::vector<Token> tokenize(const std::string& source) { return Lexer(source).run(); }

}  // namespace textedge::detail::jinja
