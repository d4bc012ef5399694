// Reusable per-thread strings for pre-tokenizers that must rewrite their text (Metaspace,
// ByteLevel's prefix space). Each call takes the next level of a per-thread stack, so nested
// rewriting stages never share storage and steady-state encoding does not allocate.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

namespace textedge::detail {

class ScratchString {
 public:
  ScratchString() : level_(depth()++) {
    auto& pool = strings();
    if (pool.size() <= level_) pool.emplace_back();  // deque: outer levels' references stay valid
    pool[level_].clear();
  }
  ~ScratchString() { --depth(); }
  ScratchString(const ScratchString&) = delete;
  ScratchString& operator=(const ScratchString&) = delete;

  std::string& str() { return strings()[level_]; }

 private:
  static std::deque<std::string>& strings() {
    thread_local std::deque<std::string> pool;
    return pool;
  }
  static std::size_t& depth() {
    thread_local std::size_t level = 0;
    return level;
  }
  std::size_t level_;
};

}  // namespace textedge::detail
