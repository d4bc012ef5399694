#include "json_string.hpp"

#include <array>

#include "utf8.hpp"

namespace textedge::detail {

namespace {

// Bytes written as they are (non-ASCII only without ensure_ascii): copied in runs.
constexpr auto kPlain = [] {
  std::array<std::array<bool, 256>, 2> t{};  // [ensure_ascii][byte]
  for (int c = 0x20; c < 256; ++c) t[0][c] = t[1][c] = c != '"' && c != '\\';
  for (int c = 0x80; c < 256; ++c) t[1][c] = false;
  return t;
}();

constexpr char kHex[] = "0123456789abcdef";

void append_u_escape(std::string& out, char32_t unit) {
  char buf[6] = {'\\', 'u', kHex[(unit >> 12) & 15], kHex[(unit >> 8) & 15], kHex[(unit >> 4) & 15], kHex[unit & 15]};
  out.append(buf, sizeof buf);
}

// The code point at s[i] and its length; an invalid or cut sequence is its first byte alone.
char32_t code_point_at(std::string_view s, std::size_t i, std::size_t& length) {
  auto b = static_cast<unsigned char>(s[i]);
  length = static_cast<std::size_t>(utf8_length(b));
  if (length == 1 || i + length > s.size()) {
    length = 1;
    return b;
  }
  for (std::size_t k = 1; k < length; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
      length = 1;
      return b;
    }
  std::size_t j = i;
  return next_code_point(s, j);
}

}  // namespace

void append_json_char(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    default:
      if (c < 0x20)
        append_u_escape(out, c);
      else
        out += static_cast<char>(c);
  }
}

void append_json_string(std::string& out, std::string_view s, bool ensure_ascii) {
  const auto& plain = kPlain[ensure_ascii];
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t run = i;
    while (run < s.size() && plain[static_cast<unsigned char>(s[run])]) ++run;
    out.append(s.data() + i, run - i);
    if (run == s.size()) break;
    i = run;
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      append_json_char(out, c);
      ++i;
      continue;
    }
    std::size_t length;  // only with ensure_ascii
    char32_t cp = code_point_at(s, i, length);
    i += length;
    if (cp >= 0x10000) {
      append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      append_u_escape(out, cp);
    }
  }
  out += '"';
}

}  // namespace textedge::detail
