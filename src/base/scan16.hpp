// The first position whose byte a 16-byte test marks, for scans that skip text with SSE2.
#pragma once

#include <cstddef>
#include <string_view>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace textedge::detail {

#ifdef __SSE2__
// From p, 16 bytes at a time, to the first byte that `flags` (the 16 bytes' bit mask for a
// __m128i of them) marks; where fewer than 16 bytes remain, the first of them (the caller reads
// the rest its own way).
template <class Flags>
std::size_t skip_unflagged(std::string_view t, std::size_t p, Flags flags) {
  for (; p + 16 <= t.size(); p += 16)
    if (unsigned m = flags(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + p))))
      return p + static_cast<std::size_t>(__builtin_ctz(m));
  return p;
}
#endif

}  // namespace textedge::detail
