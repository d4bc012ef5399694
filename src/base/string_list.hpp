// An immutable list of byte strings in one allocation: id -> bytes for whole vocabularies,
// without a heap string per token (loading 150k-260k tokens one std::string at a time was a
// measurable part of load time). Large lists live on huge pages (see HugePageAllocator).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/copy_bytes.hpp"
#include "base/hash_tables.hpp"

namespace textedge::detail {

class StringList {
 public:
  StringList() { offsets_.push_back(0); }
  // Builds from views that must stay valid during the call.
  template <class Views>
  explicit StringList(const Views& items) : StringList() {
    std::size_t total = 0;
    for (auto s : items) total += s.size();
    reserve(items.size(), total);
    for (auto s : items) push_back(s);
  }
  void reserve(std::size_t count, std::size_t bytes) {
    if (arena_.size() < bytes) arena_.resize(bytes);
    offsets_.reserve(count + 1);
  }
  // Appends the string of the next id. The arena is sized ahead and filled up to its last
  // offset, short strings copied inline: vector::insert's general path was ~80 instructions a
  // token (loading Llama 3.1's raw bytes: 10.1M), resize and memcpy ~40 (Llama 2's token list).
  void push_back(std::string_view s) {
    const std::size_t at = offsets_.back();
    if (arena_.size() - at < s.size()) arena_.resize(std::max(2 * arena_.size(), at + s.size()));
    copy_bytes(arena_.data() + at, s.data(), s.size());
    offsets_.push_back(static_cast<std::uint32_t>(at + s.size()));
  }
  // Appends every string of `other`, in order.
  void append(const StringList& other) {
    const std::size_t at = offsets_.back(), bytes = other.offsets_.back();
    if (arena_.size() - at < bytes) arena_.resize(at + bytes);
    if (bytes) std::memcpy(arena_.data() + at, other.arena_.data(), bytes);
    for (std::size_t i = 1; i < other.offsets_.size(); ++i) offsets_.push_back(static_cast<std::uint32_t>(at + other.offsets_[i]));
  }
  std::size_t size() const { return offsets_.size() - 1; }
  std::string_view operator[](std::size_t i) const {
    return i < size() ? std::string_view(arena_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]) : std::string_view();
  }

 private:
  HugeVector<char> arena_;  // bytes past the last offset unused
  HugeVector<std::uint32_t> offsets_;
};

}  // namespace textedge::detail
