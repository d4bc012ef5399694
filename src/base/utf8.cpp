#include "base/utf8.hpp"

#include <simdjson.h>

namespace textedge::detail {

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0 and `bad` = length of the maximal invalid
// prefix (at least 1) following the Unicode "maximal subpart" rule that Rust and Python use.
inline std::size_t valid_sequence(std::string_view s, std::size_t i, std::size_t& bad) {
  auto at = [&](std::size_t k) -> unsigned { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0x100; };
  unsigned b0 = at(i);
  if (b0 < 0x80) return 1;
  unsigned lo = 0x80, hi = 0xBF;
  std::size_t n;
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 3; if (b0 == 0xE0) lo = 0xA0; if (b0 == 0xED) hi = 0x9F; }
  else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 4; if (b0 == 0xF0) lo = 0x90; if (b0 == 0xF4) hi = 0x8F; }
  else { bad = 1; return 0; }
  unsigned b1 = at(i + 1);
  if (b1 < lo || b1 > hi) { bad = 1; return 0; }
  for (std::size_t k = 2; k < n; ++k) {
    unsigned b = at(i + k);
    if (b < 0x80 || b > 0xBF) { bad = k; return 0; }
  }
  return n;
}
}  // namespace

// Performance note: simdjson's validator (SIMD, ~0.5 instructions a byte) answers for valid text,
// nearly all text; the scan below finds where invalid text breaks, and reads short texts (the
// detokenizer's few pending bytes) without the validator's dispatch. callgrind, qwen3, 300 KB of
// bench2.txt (a third of it beyond ASCII): 2.13M -> 0.20M instructions.
std::size_t find_invalid_utf8(std::string_view s) {
  if (s.size() >= 64 && simdjson::validate_utf8(s.data(), s.size())) return std::string_view::npos;
  std::size_t i = 0, bad = 0;
  while (i < s.size()) {
    // ASCII fast path, 8 bytes at a time.
    while (i + 8 <= s.size()) {
      std::uint64_t w;
      __builtin_memcpy(&w, s.data() + i, 8);
      if (w & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= s.size()) break;
    std::size_t n = valid_sequence(s, i, bad);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

void append_utf8_lossy(std::string& out, std::string_view s) {
  std::size_t i = 0, start = 0, bad = 0;
  while (i < s.size()) {
    std::size_t n = valid_sequence(s, i, bad);
    if (n) { i += n; continue; }
    out.append(s.data() + start, i - start);
    out += "\xEF\xBF\xBD";
    i += bad;
    start = i;
  }
  out.append(s.data() + start, s.size() - start);
}

std::size_t append_utf8_lossy_prefix(std::string& out, std::string_view s) {
  std::size_t i = 0, start = 0, bad = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) { ++i; continue; }
    std::size_t n = valid_sequence(s, i, bad);
    if (n) { i += n; continue; }
    unsigned char lead = static_cast<unsigned char>(s[i]);
    if (i + bad == s.size() && lead >= 0xC2 && lead <= 0xF4) {  // cut short by the end, not invalid
      out.append(s.data() + start, i - start);
      return bad;
    }
    out.append(s.data() + start, i - start);
    out += "\xEF\xBF\xBD";
    i += bad;
    start = i;
  }
  out.append(s.data() + start, s.size() - start);
  return 0;
}

bool is_utf8_prefix(std::string_view s) {
  std::size_t i = 0, bad = 0;
  while (i < s.size()) {
    std::size_t n = valid_sequence(s, i, bad);
    if (n) { i += n; continue; }
    unsigned char lead = static_cast<unsigned char>(s[i]);
    return i + bad == s.size() && lead >= 0xC2 && lead <= 0xF4;
  }
  return true;
}

std::string utf8_lossy(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_utf8_lossy(out, s);
  return out;
}

}  // namespace textedge::detail
