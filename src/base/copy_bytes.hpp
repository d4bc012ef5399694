// Short copies inline: a memcpy call costs more than copying the few bytes of a token, a key or
// a template's piece of text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace textedge::detail {

// n bytes, sizeof(W) <= n <= 2 * sizeof(W), as two words that overlap: no byte outside either
// range read or written.
template <class W>
[[gnu::always_inline]] inline void copy_two_words(char* to, const char* from, std::size_t n) {
  W head, tail;
  std::memcpy(&head, from, sizeof(W));
  std::memcpy(&tail, from + n - sizeof(W), sizeof(W));
  std::memcpy(to, &head, sizeof(W));
  std::memcpy(to + n - sizeof(W), &tail, sizeof(W));
}

// Copies n bytes from `from` to `to` (not overlapping): up to 32 inline, more by memcpy.
[[gnu::always_inline]] inline void copy_bytes(char* to, const char* from, std::size_t n) {
  struct Block16 {
    char bytes[16];
  };
  if (n > 32) {
    std::memcpy(to, from, n);
  } else if (n >= 16) {
    copy_two_words<Block16>(to, from, n);
  } else if (n >= 8) {
    copy_two_words<std::uint64_t>(to, from, n);
  } else if (n >= 4) {
    copy_two_words<std::uint32_t>(to, from, n);
  } else if (n) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
}

}  // namespace textedge::detail
