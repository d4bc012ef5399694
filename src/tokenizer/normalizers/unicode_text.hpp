// Text helpers shared by the normalizers: ASCII scans and Rust's whitespace and lowercase rules.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace textedge::detail::normalizers {

// Offset of the first byte >= 0x80, or s.size().
inline std::size_t ascii_prefix_length(std::string_view s) {
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    unsigned long long word;
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ULL) break;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

inline bool is_ascii(std::string_view s) { return ascii_prefix_length(s) == s.size(); }

// Rust's char::is_whitespace: the Unicode White_Space property.
inline bool is_rust_whitespace(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Rust's char::to_lowercase applied to every character: the full (one-to-many) lowercase
// mapping without context, so "Σ" always becomes "σ" (never final "ς") and "İ" becomes "i̇".
void lowercase_in_place(std::string& text);

}  // namespace textedge::detail::normalizers
