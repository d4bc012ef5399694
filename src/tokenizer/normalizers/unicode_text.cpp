#include "tokenizer/normalizers/unicode_text.hpp"

#include <utf8proc.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "base/utf8.hpp"

namespace textedge::detail::normalizers {

namespace {

// Lowercase mappings added in Unicode 16.0 and 17.0: Rust's tables (which the reference uses)
// have them, utf8proc may not yet.
struct LowercaseShift {
  char32_t first, last;
  std::int32_t delta;
};
constexpr LowercaseShift kRecentLowercase[] = {
    {0x1C89, 0x1C89, 1},     {0xA7CB, 0xA7CB, 0x0264 - 0xA7CB}, {0xA7CC, 0xA7CC, 1},
    {0xA7CE, 0xA7CE, 1},     {0xA7D2, 0xA7D2, 1},               {0xA7D4, 0xA7D4, 1},
    {0xA7DA, 0xA7DA, 1},     {0xA7DC, 0xA7DC, 0x019B - 0xA7DC}, {0x10D50, 0x10D65, 0x20},
    {0x16EA0, 0x16EB8, 0x1B}};

char32_t lowercase_from_tables(char32_t c) {
  if ((c >= 0xA7CB && c <= 0xA7DC) || c == 0x1C89 || (c >= 0x10D50 && c <= 0x10D65) ||
      (c >= 0x16EA0 && c <= 0x16EB8)) {
    for (const auto& shift : kRecentLowercase)
      if (c >= shift.first && c <= shift.last) return static_cast<char32_t>(static_cast<std::int32_t>(c) + shift.delta);
  }
  return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
}

// Lowercase of the one- and two-byte characters (Latin, Greek, Cyrillic...), looked up directly.
struct SmallLowercaseTable {
  std::array<char16_t, 0x800> lower{};
  SmallLowercaseTable() {
    for (char32_t c = 0; c < lower.size(); ++c) lower[c] = static_cast<char16_t>(lowercase_from_tables(c));
  }
};

// One-to-one lowercase (everything but U+0130, whose lowercase is two characters).
char32_t lowercase_char(char32_t c) {
  static const SmallLowercaseTable small;
  if (c < small.lower.size()) return small.lower[c];
  // No lowercase mappings here (CJK, kana, Hangul, emoji...).
  if ((c >= 0x2D00 && c < 0xA640) || (c >= 0xA800 && c < 0xFF21) || c >= 0x1E922) return c;
  return lowercase_from_tables(c);
}

int encoded_length(char32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

constexpr char32_t kCapitalIWithDot = 0x130;
constexpr std::string_view kLowercaseIWithDot = "i\xCC\x87";  // U+0069 U+0307

}  // namespace

void lowercase_in_place(std::string& text) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  // In place while every character keeps its encoded length (nearly always).
  while (i < n) {
    // ASCII eight bytes at a time: each byte is below 0x80, so adding 0x3F (0x25) sets its top
    // bit exactly when it is >= 'A' (> 'Z') and nothing carries into the next byte.
    while (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if (word & 0x8080808080808080ULL) break;
      std::uint64_t upper = (word + 0x3F3F3F3F3F3F3F3FULL) & ~(word + 0x2525252525252525ULL) & 0x8080808080808080ULL;
      word |= upper >> 2;  // 0x80 >> 2 == 0x20, the case bit
      std::memcpy(text.data() + i, &word, 8);
      i += 8;
    }
    if (i == n) break;
    unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (b >= 'A' && b <= 'Z') text[i] = static_cast<char>(b + 32);
      ++i;
      continue;
    }
    std::size_t start = i;
    char32_t c = next_code_point(text, i);
    if (c == kCapitalIWithDot) {
      i = start;
      break;
    }
    char32_t lower = lowercase_char(c);
    if (lower == c) continue;
    if (encoded_length(lower) != static_cast<int>(i - start)) {
      i = start;
      break;
    }
    char* write = text.data() + start;
    if (lower < 0x800) {
      write[0] = static_cast<char>(0xC0 | (lower >> 6));
      write[1] = static_cast<char>(0x80 | (lower & 0x3F));
    } else {
      std::string encoded = utf8(lower);  // fits the small-string buffer: no allocation
      std::memcpy(write, encoded.data(), encoded.size());
    }
  }
  if (i == n) return;

  std::string out;
  out.reserve(n + n / 4 + 4);
  out.append(text, 0, i);
  while (i < n) {
    unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b >= 'A' && b <= 'Z' ? b + 32 : b));
      ++i;
      continue;
    }
    char32_t c = next_code_point(text, i);
    if (c == kCapitalIWithDot)
      out += kLowercaseIWithDot;
    else
      append_utf8(out, lowercase_char(c));
  }
  text.swap(out);
}

}  // namespace textedge::detail::normalizers
