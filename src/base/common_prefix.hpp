// The length of the common beginning of two texts, compared eight bytes at a time (the prompt
// cache compares 100 KB conversations with it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace textedge::detail {

inline std::size_t common_prefix(std::string_view a, std::string_view b) {
  std::size_t n = std::min(a.size(), b.size()), i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) break;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace textedge::detail
