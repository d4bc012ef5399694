// Performance (callgrind, tojson in the Qwen3 chat render): ~15k -> ~9k instructions per render,
// most of it a fixed cost for each of ~53 short strings. What paid: a raw cursor into a buffer
// grown ahead, strings checked and copied eight bytes at a time (short ones as two overlapping
// words), separators of up to eight bytes as one store. Tried and dropped: SSE2 over the eight-byte
// words (-1.1% of a render), the string fast path inlined into the writer (-0.8%), long and short
// strings in separate functions (0).
#include "base/json_string.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "base/utf8.hpp"

namespace textedge::detail {

namespace {

// Bytes written as they are: with ensure_ascii only printable ASCII (json.dumps escapes DEL then
// too), without it everything but control characters, quote and backslash.
constexpr auto kPlain = [] {
  std::array<std::array<bool, 256>, 2> t{};  // [ensure_ascii][byte]
  for (int c = 0x20; c < 256; ++c) t[0][c] = t[1][c] = c != '"' && c != '\\';
  for (int c = 0x7F; c < 256; ++c) t[1][c] = false;
  return t;
}();

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Nonzero when some byte of w is not plain: one json_escape_bytes() flags, or (non_ascii =
// kHighBits) one at or above 0x7F.
inline std::uint64_t unplain_bytes(std::uint64_t w, std::uint64_t non_ascii) {
  return json_escape_bytes(w) | ((w | (w + kOnes)) & non_ascii);
}

inline std::uint64_t load64(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

inline std::uint64_t load32(const char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

inline void store64(char* p, std::uint64_t w) { std::memcpy(p, &w, sizeof w); }
inline void store32(char* p, std::uint32_t w) { std::memcpy(p, &w, sizeof w); }

// Copies the leading run of from[0, n) that is written as it is to `to`; its length. Chat strings
// are mostly short keys and values without escapes: eight bytes are checked (and copied) at a
// time, the last word overlapping, a string of 4 to 7 bytes as two overlapping halves, and only a
// word with a hit is looked at byte by byte.
inline std::size_t copy_plain(char* to, const char* from, std::size_t n, bool ensure_ascii) {
  const std::uint64_t non_ascii = ensure_ascii ? kHighBits : 0;
  std::size_t i = 0;
  if (n >= 8) {
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w = load64(from + i);
      if (unplain_bytes(w, non_ascii)) break;
      store64(to + i, w);
    }
    if (i == n) return n;
    if (i + 8 > n) {
      std::uint64_t w = load64(from + n - 8);
      if (!unplain_bytes(w, non_ascii)) {
        store64(to + n - 8, w);
        return n;
      }
    }
  } else if (n >= 4) {
    std::uint64_t head = load32(from), tail = load32(from + n - 4);
    if (!unplain_bytes(head | tail << 32, non_ascii)) {
      store32(to, static_cast<std::uint32_t>(head));
      store32(to + n - 4, static_cast<std::uint32_t>(tail));
      return n;
    }
  }
  const auto& plain = kPlain[ensure_ascii];
  for (; i < n && plain[static_cast<unsigned char>(from[i])]; ++i) to[i] = from[i];
  return i;
}

constexpr char kHex[] = "0123456789abcdef";

void write_u_escape(char* at, char32_t unit) {
  char buf[6] = {'\\', 'u', kHex[(unit >> 12) & 15], kHex[(unit >> 8) & 15], kHex[(unit >> 4) & 15], kHex[unit & 15]};
  std::memcpy(at, buf, sizeof buf);
}

// The letter of a two-character escape (\n), or 0.
char short_escape(unsigned char c) {
  switch (c) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    default:
      return 0;
  }
}

// The escape of an ASCII byte that is not plain; its length.
std::size_t write_ascii_escape(char* at, unsigned char c) {
  if (char letter = short_escape(c)) {
    at[0] = '\\';
    at[1] = letter;
    return 2;
  }
  write_u_escape(at, c);
  return 6;
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
  if (kPlain[0][c]) {
    out += static_cast<char>(c);
    return;
  }
  char buf[6];
  out.append(buf, write_ascii_escape(buf, c));
}

void JsonSink::grow(std::size_t n) {
  // Geometric in what this sink wrote, so many small pieces cost few resizes.
  auto used = static_cast<std::size_t>(cur_ - out_.data());
  out_.resize(used + n + std::max<std::size_t>(used - start_, 64));
  cur_ = out_.data() + used;
  end_ = out_.data() + out_.size();
}

void JsonSink::string(std::string_view s, bool ensure_ascii) {
  const std::size_t n = s.size();
  char* at = room(n + 2);
  *at++ = '"';
  std::size_t i = copy_plain(at, s.data(), n, ensure_ascii);
  cur_ = at + i;
  if (i < n) escaped_rest(s, i, ensure_ascii);
  *cur_++ = '"';  // room was made for it
}

void JsonSink::escaped_rest(std::string_view s, std::size_t i, bool ensure_ascii) {
  const std::size_t n = s.size();
  while (i < n) {
    char* at = room(12 + (n - i) + 1);  // the escape, the rest as it is, the closing quote
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      at += write_ascii_escape(at, c);
      ++i;
    } else {
      std::size_t length;  // only with ensure_ascii
      char32_t cp = code_point_at(s, i, length);
      i += length;
      if (cp >= 0x10000) {
        write_u_escape(at, 0xD800 + ((cp - 0x10000) >> 10));
        write_u_escape(at + 6, 0xDC00 + ((cp - 0x10000) & 0x3FF));
        at += 12;
      } else {
        write_u_escape(at, cp);
        at += 6;
      }
    }
    std::size_t run = copy_plain(at, s.data() + i, n - i, ensure_ascii);
    cur_ = at + run;
    i += run;
  }
}

void append_json_string(std::string& out, std::string_view s, bool ensure_ascii) {
  JsonSink sink(out);
  sink.string(s, ensure_ascii);
  sink.finish();
}

}  // namespace textedge::detail
