// Runs two pieces of loading work at once (the machines we target have at least two cores).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

#include "base/thread_pool.hpp"

namespace textedge::detail {

// Below this many items (tokens, merges) a second thread costs more than it saves: starting and
// joining one is tens of microseconds, and small tokenizers (tests, fuzzing, toy models) load in
// less. Measured with callgrind and the fuzz_tokenizer_load target (2026-12-02).
inline constexpr std::size_t kParallelMinItems = std::size_t{1} << 14;
// The same for tokenizer.json text read on two threads.
inline constexpr std::size_t kParallelMinBytes = std::size_t{1} << 18;

// Calls first() on this thread and second() on a pool worker (or on this thread, after first(),
// when no worker has taken it by then), and waits for both; when `parallel` is
// false, calls both here, in order. An exception from either is rethrown after both finished
// (first()'s wins when both throw).
template <class First, class Second>
void run_in_parallel(bool parallel, First&& first, Second&& second) {
  if (!parallel) {
    first();
    second();
    return;
  }
  std::exception_ptr second_error;
  auto guarded = [&] {
    try {
      second();
    } catch (...) {
      second_error = std::current_exception();
    }
  };
  PoolTask helper(guarded);
  try {
    first();
  } catch (...) {
    helper.join();
    throw;
  }
  helper.join();
  if (second_error) std::rethrow_exception(second_error);
}

// [0, n) dealt out in ranges to whichever thread asks next, until none is left: the loader's
// phases share work so rather than by halves fixed in advance, whose lengths differ by model
// (Llama 3.1's halves of its merges took 5.3 and 6.5 ms). A range is `size` long, or a quarter
// of what is left when that is shorter, down to `min_size`: the last ranges are short, so the
// threads end close together. Performance note (resolving Llama 2's 61k merges, timed inside
// loads, 2026-12-06): with ranges of 8192 throughout, one thread ended 0.17 ms (of 0.93) after
// the other.
class WorkRanges {
 public:
  WorkRanges(std::size_t n, std::size_t size, std::size_t min_size = 0)
      : n_(n), size_(size), min_size_(std::max<std::size_t>(1, std::min(min_size ? min_size : size, size))) {}
  // The next range [begin, end); false when none is left.
  bool next(std::size_t& begin, std::size_t& end) {
    begin = next_.load(std::memory_order_relaxed);
    std::size_t size;
    do {
      if (begin >= n_) return false;
      size = std::clamp((n_ - begin) / 4, min_size_, size_);
    } while (!next_.compare_exchange_weak(begin, begin + size, std::memory_order_relaxed));
    end = std::min(n_, begin + size);
    return true;
  }

 private:
  std::atomic<std::size_t> next_{0};
  const std::size_t n_, size_, min_size_;
};

// [0, n) in ranges of `size`, taken from the front by one thread and from the back by the
// others, until they meet: the front's results can go straight where they belong, in order,
// while the back's wait in ranges of their own (the loader's token bytes: the front's share is
// no copy, however large it turns out).
class TwoEndedRanges {
 public:
  TwoEndedRanges(std::size_t n, std::size_t size) : n_(n), size_(size), state_(pack(0, (n + size - 1) / size)) {}
  bool front(std::size_t& begin, std::size_t& end) { return take(begin, end, true); }
  bool back(std::size_t& begin, std::size_t& end) { return take(begin, end, false); }

 private:
  // The next range at the front and the end of those left, in ranges: one word, so that a
  // range is taken by one compare-and-swap.
  static std::uint64_t pack(std::uint64_t front, std::uint64_t back) { return front << 32 | back; }
  bool take(std::size_t& begin, std::size_t& end, bool at_front) {
    std::uint64_t s = state_.load(std::memory_order_relaxed);
    std::uint64_t front, back;
    do {
      front = s >> 32, back = s & 0xFFFFFFFFu;
      if (front >= back) return false;
    } while (!state_.compare_exchange_weak(s, at_front ? pack(front + 1, back) : pack(front, back - 1),
                                           std::memory_order_relaxed));
    std::size_t range = at_front ? front : back - 1;
    begin = range * size_;
    end = std::min(n_, begin + size_);
    return true;
  }
  const std::size_t n_, size_;
  std::atomic<std::uint64_t> state_;
};

}  // namespace textedge::detail
