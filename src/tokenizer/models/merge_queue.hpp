// Merge candidates of one long word in the order BPE applies them: lowest rank first, leftmost
// first among equal ranks, with O(1) amortised work per candidate.
//
// Performance note: a binary heap of (rank, position) was O(n log n) and, for a 1 MiB word,
// jumped around a 25 MB array (1 MiB / 256 KiB time ratio 4.3-7.8 instead of 4). Here ranks
// are buckets found through a 64-ary bitmap tree (4 levels for 500k ranks), and each bucket is
// a list of positions, appended in the order sweeps create them (which is almost always left
// to right; a bucket is sorted when it is taken otherwise).
// Merges can create a pair whose rank is at most the rank being applied ("▁" + "the" after
// "the" is made, Llama 2); such candidates go to a small binary heap beside the buckets, so the
// order stays exactly (rank, position) without a monotone-rank assumption.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "base/hash_tables.hpp"

namespace textedge::detail {

class MergeQueue {
 public:
  struct Pair {
    std::uint32_t left, right, merged;
  };

  // Empties the queue for a model with ranks below `rank_count`.
  void start(std::size_t rank_count) {
    if (rank_count > capacity_) grow(rank_count);
    blocks_.clear();
    side_.clear();
    taken_.clear();
    cursor_ = 0;
    taken_rank_ = kNone;
  }

  // Queues the pair `pair` (of rank `rank`) at `position`.
  void push(std::uint32_t rank, std::uint32_t position, const Pair& pair) {
    Bucket& b = buckets_[rank];
    b.pair = pair;
    if (taken_rank_ != kNone && rank <= taken_rank_) {
      side_.push_back(key(rank, position));
      std::push_heap(side_.begin(), side_.end(), std::greater<>());
      return;
    }
    if (set_bit(rank)) {
      b.head = b.tail = new_block();
      b.sorted = true;
    } else {
      const Block& tail = blocks_[b.tail];
      if (position < tail.positions[tail.count - 1]) b.sorted = false;
      if (tail.count == kBlockSize) {
        std::uint32_t k = new_block();  // may move blocks_
        blocks_[b.tail].next = k;
        b.tail = k;
      }
    }
    Block& tail = blocks_[b.tail];
    tail.positions[tail.count++] = position;
  }

  // The next candidate; false when none is left. Candidates may be stale: check the pair.
  bool pop(std::uint32_t& rank, std::uint32_t& position) {
    for (;;) {
      if (cursor_ < taken_.size()) {
        if (side_.empty() || key(taken_rank_, taken_[cursor_]) < side_.front()) {
          rank = taken_rank_;
          position = taken_[cursor_++];
          return true;
        }
      }
      if (!side_.empty()) {
        std::pop_heap(side_.begin(), side_.end(), std::greater<>());
        std::uint64_t k = side_.back();
        side_.pop_back();
        rank = static_cast<std::uint32_t>(k >> 32);
        position = static_cast<std::uint32_t>(k);
        return true;
      }
      if (levels_.empty() || bits_[levels_.back()] == 0) return false;
      take(lowest_bit());
    }
  }

  const Pair& pair(std::uint32_t rank) const { return buckets_[rank].pair; }

 private:
  static constexpr std::uint32_t kNil = 0xFFFFFFFFu;
  static constexpr std::uint64_t kNone = ~0ULL;
  // A bucket's positions in blocks of one cache line: taking a bucket reads them in order
  // (a list of single entries spread over the whole pool cost a cache miss per entry).
  static constexpr std::uint32_t kBlockSize = 14;
  struct Block {
    std::uint32_t positions[kBlockSize];
    std::uint32_t count, next;
  };
  static_assert(sizeof(Block) == 64);
  struct Bucket {
    std::uint32_t head, tail;
    Pair pair;
    bool sorted;
  };
  std::uint32_t new_block() {
    blocks_.emplace_back();
    blocks_.back().count = 0;
    blocks_.back().next = kNil;
    return static_cast<std::uint32_t>(blocks_.size() - 1);
  }
  static std::uint64_t key(std::uint64_t rank, std::uint32_t position) { return rank << 32 | position; }

  void grow(std::size_t rank_count) {
    // Only between words, when every bit is clear.
    buckets_ = std::make_unique_for_overwrite<Bucket[]>(rank_count);
    capacity_ = rank_count;
    levels_.clear();
    std::size_t total = 0;
    for (std::size_t n = rank_count;;) {
      n = (n + 63) / 64;
      levels_.push_back(total);
      total += n;
      if (n == 1) break;
    }
    bits_.assign(total, 0);
  }

  // Sets the bit of `rank`; true when its bucket was empty.
  bool set_bit(std::size_t rank) {
    std::size_t x = rank;
    for (std::size_t level = 0; level < levels_.size(); ++level) {
      std::uint64_t& word = bits_[levels_[level] + (x >> 6)];
      std::uint64_t bit = std::uint64_t{1} << (x & 63);
      if (level == 0 && (word & bit)) return false;
      bool word_was_empty = word == 0;
      word |= bit;
      if (!word_was_empty) break;  // the levels above already mark this word
      x >>= 6;
    }
    return true;
  }

  void clear_bit(std::size_t rank) {
    std::size_t x = rank;
    for (std::size_t level = 0; level < levels_.size(); ++level) {
      std::uint64_t& word = bits_[levels_[level] + (x >> 6)];
      word &= ~(std::uint64_t{1} << (x & 63));
      if (word != 0) return;
      x >>= 6;
    }
  }

  std::size_t lowest_bit() const {
    std::size_t x = 0;
    for (std::size_t level = levels_.size(); level-- > 0;)
      x = x * 64 + static_cast<std::size_t>(std::countr_zero(bits_[levels_[level] + x]));
    return x;
  }

  // Makes bucket `rank` the one being applied (every lower bucket is already done).
  void take(std::size_t rank) {
    clear_bit(rank);
    const Bucket& b = buckets_[rank];
    taken_.clear();
    for (std::uint32_t k = b.head;; k = blocks_[k].next) {
      const Block& block = blocks_[k];
      taken_.insert(taken_.end(), block.positions, block.positions + block.count);
      if (k == b.tail) break;
    }
    if (!b.sorted) std::sort(taken_.begin(), taken_.end());
    cursor_ = 0;
    taken_rank_ = rank;
  }

  std::unique_ptr<Bucket[]> buckets_;  // valid where the bitmap has a bit, and pair once pushed
  std::size_t capacity_ = 0;
  std::vector<std::uint64_t> bits_;    // level 0 (one bit per rank), then each level above
  std::vector<std::size_t> levels_;    // offset of each level in bits_
  HugeVector<Block> blocks_;           // the buckets' lists
  std::vector<std::uint64_t> side_;    // min-heap of (rank, position) at or below taken_rank_
  std::vector<std::uint32_t> taken_;   // positions of the bucket being applied, in order
  std::size_t cursor_ = 0;
  std::uint64_t taken_rank_ = kNone;
};

}  // namespace textedge::detail
