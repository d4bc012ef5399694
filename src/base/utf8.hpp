// UTF-8 helpers shared by every stage. Text inside the pipeline is always valid UTF-8
// (checked once at the public API), so the decoders here trust their input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace textedge::detail {

// Length of the UTF-8 sequence starting with lead byte `b` (1 for invalid lead bytes).
inline int utf8_length(unsigned char b) {
  if (b < 0x80) return 1;
  if (b < 0xE0) return b < 0xC0 ? 1 : 2;
  if (b < 0xF0) return 3;
  return b < 0xF8 ? 4 : 1;
}

// Decodes the code point at s[i] (valid UTF-8 assumed) and advances i.
// Inlined by force: GCC kept it a call in the encoder's character loops (a warm pass over 350 KB,
// callgrind, 2026-12-04: bench2.txt llama2 41.3M -> 40.1M instructions, gemma3 47.2M -> 46.1M;
// bench.txt -0.8 to -1.3%).
[[gnu::always_inline]] inline char32_t next_code_point(std::string_view s, std::size_t& i) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) { ++i; return b; }
  int n = utf8_length(b);
  char32_t cp = n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += n;
  return cp;
}

// Decodes the code point that ends at s[end] (exclusive; end > 0) and sets `start` to its
// first byte.
inline char32_t last_code_point(std::string_view s, std::size_t end, std::size_t& start) {
  std::size_t i = end;
  do { --i; } while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80);
  start = i;
  std::size_t j = i;
  return next_code_point(s, j);
}

inline void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

inline std::string utf8(char32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

// Offset of the first byte that does not start/continue a valid UTF-8 sequence, or npos.
std::size_t find_invalid_utf8(std::string_view s);

// Replaces each maximal invalid subsequence with U+FFFD, exactly as Rust's
// String::from_utf8_lossy (and Python's errors="replace") do.
std::string utf8_lossy(std::string_view bytes);
void append_utf8_lossy(std::string& out, std::string_view bytes);
// append_utf8_lossy for a stream of bytes: when `bytes` ends with the first bytes of a valid
// sequence that more bytes could complete, those bytes are not appended and their count
// (at most 3) is returned; the caller prepends them to the next chunk.
std::size_t append_utf8_lossy_prefix(std::string& out, std::string_view bytes);
// True when `bytes` is valid UTF-8, possibly cut short inside its last character (so more
// bytes could still make it valid).
bool is_utf8_prefix(std::string_view bytes);

}  // namespace textedge::detail
