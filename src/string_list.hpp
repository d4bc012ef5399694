// An immutable list of byte strings in one allocation: id -> bytes for whole vocabularies,
// without a heap string per token (loading 150k-260k tokens one std::string at a time was a
// measurable part of load time).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace textedge::detail {

class StringList {
 public:
  // Builds from views that must stay valid during the call.
  explicit StringList(const std::vector<std::string_view>& items = {}) {
    std::size_t total = 0;
    for (auto s : items) total += s.size();
    arena_.reserve(total);
    offsets_.reserve(items.size() + 1);
    offsets_.push_back(0);
    for (auto s : items) {
      arena_.append(s);
      offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
    }
  }
  std::size_t size() const { return offsets_.size() - 1; }
  std::string_view operator[](std::size_t i) const {
    return i < size() ? std::string_view(arena_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]) : std::string_view();
  }

 private:
  std::string arena_;
  std::vector<std::uint32_t> offsets_;
};

}  // namespace textedge::detail
