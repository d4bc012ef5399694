// The pool's two uses (src/base/thread_pool.hpp): PoolTask and run_in_parallel, which loading
// runs its phases with, and run_on_pool, which encode_batch runs on; under ThreadSanitizer in
// `make test-tsan` (the tests named Thread*).
#include "base/thread_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/run_in_parallel.hpp"

namespace textedge::detail {
namespace {

TEST(ThreadPoolTask, RunsItsWorkExactlyOnceWhoeverTakesIt) {
  std::atomic<int> runs{0};
  for (int i = 0; i < 500; ++i) {
    auto work = [&] { runs.fetch_add(1); };
    PoolTask task(work);
    if (i % 2) task.join();  // at once (often before a worker takes it), or at the end of scope
  }
  EXPECT_EQ(runs.load(), 500);
}

TEST(ThreadPoolTask, WorkMayWaitForWhatTheCallerDoesBeforeJoining) {
  // As read_bpe_lists' helper waits for the split point the loading thread finds.
  for (int i = 0; i < 200; ++i) {
    std::promise<int> sent;
    std::future<int> got = sent.get_future();
    int seen = 0;
    auto work = [&] { seen = got.get(); };
    PoolTask task(work);
    sent.set_value(i);
    task.join();
    EXPECT_EQ(seen, i);
  }
}

TEST(ThreadPoolDetached, DestroysOnAWorkerWithoutWaiting) {
  // As a load frees its read lists and unmaps its file.
  struct Signals {
    std::promise<std::thread::id> destroyed;
    ~Signals() { destroyed.set_value(std::this_thread::get_id()); }
  };
  for (int i = 0; i < 50; ++i) {
    auto object = std::make_unique<Signals>();
    std::future<std::thread::id> done = object->destroyed.get_future();
    destroy_on_pool(std::move(object));
    ASSERT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_NE(done.get(), std::this_thread::get_id());
  }
}

TEST(ThreadRunInParallel, RunsBothAndRethrows) {
  int a = 0, b = 0;
  run_in_parallel(true, [&] { a = 1; }, [&] { b = 2; });
  EXPECT_EQ(a + b, 3);
  EXPECT_THROW(run_in_parallel(true, [] {}, [] { throw std::runtime_error("second"); }), std::runtime_error);
  try {
    run_in_parallel(true, [] { throw std::logic_error("first"); }, [] { throw std::runtime_error("second"); });
    ADD_FAILURE() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "first");  // first()'s wins when both throw
  }
  bool second_ran = false;
  EXPECT_THROW(run_in_parallel(true, [] { throw std::logic_error("first"); }, [&] { second_ran = true; }), std::logic_error);
  EXPECT_TRUE(second_ran);  // both finish before the exception leaves
}

// Three threads take ranges until none is left: every index once, the ranges `size` long until
// a quarter of what is left is shorter, then shorter, down to `min_size` (the last one shorter
// still when n runs out).
TEST(ThreadWorkRanges, EveryIndexOnceTheLastRangesShorter) {
  for (auto [n, size, min_size] : std::vector<std::array<std::size_t, 3>>{
           {0, 8, 2}, {1, 8, 2}, {7, 8, 2}, {100, 8, 2}, {61249, 8192, 512}, {5000, 64, 0}, {5000, 64, 100}}) {
    WorkRanges ranges(n, size, min_size);
    std::vector<std::pair<std::size_t, std::size_t>> taken[3];
    auto take = [&](int k) {
      for (std::size_t b, e; ranges.next(b, e);) taken[k].emplace_back(b, e);
    };
    std::thread one(take, 1), two(take, 2);
    take(0);
    one.join();
    two.join();
    std::vector<std::pair<std::size_t, std::size_t>> all;
    for (auto& list : taken) all.insert(all.end(), list.begin(), list.end());
    std::sort(all.begin(), all.end());
    std::size_t at = 0;
    const std::size_t least = std::min(min_size ? min_size : size, size);
    for (auto [b, e] : all) {
      EXPECT_EQ(b, at) << n;  // no gap, no overlap
      EXPECT_LT(b, e);
      EXPECT_EQ(e - b, e == n ? e - b : std::clamp((n - b) / 4, least, size)) << n << " " << b;
      at = e;
    }
    EXPECT_EQ(at, n);
  }
}

TEST(ThreadTwoEndedRanges, EveryRangeOnceTheFrontsInOrderBeforeTheBacks) {
  for (std::size_t n : {0, 1, 5, 8, 9, 1000, 4097}) {
    TwoEndedRanges ranges(n, 8);
    std::vector<std::pair<std::size_t, std::size_t>> front, back[2];
    auto take_back = [&](int k) {
      for (std::size_t b, e; ranges.back(b, e);) back[k].emplace_back(b, e);
    };
    std::thread one(take_back, 0), two(take_back, 1);
    for (std::size_t b, e; ranges.front(b, e);) front.emplace_back(b, e);
    one.join();
    two.join();
    std::vector<int> seen(n, 0);
    for (auto* list : {&front, &back[0], &back[1]})
      for (auto [b, e] : *list) {
        EXPECT_LT(b, e);
        EXPECT_LE(e, n);
        EXPECT_TRUE(b % 8 == 0 && (e - b == 8 || e == n)) << b << " " << e;
        for (std::size_t i = b; i < e; ++i) ++seen[i];
      }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(n)) << n;
    for (std::size_t i = 0; i < front.size(); ++i) EXPECT_EQ(front[i].first, i * 8);  // from 0, in order
    std::size_t front_end = front.empty() ? 0 : front.back().second;
    for (auto& list : back)
      for (auto [b, e] : list) EXPECT_GE(b, front_end);
  }
}

TEST(ThreadPoolConcurrent, LoadPhasesAndBatchesFromManyThreads) {
  // Loads on several threads at once, beside encode_batch's batches: every piece of work runs
  // once, none waits for a worker busy with another caller's work.
  std::atomic<long> sum{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        if (t % 3 == 2) {
          std::atomic<int> next{0};
          run_on_pool(3, [&] {
            for (int k; (k = next.fetch_add(1)) < 8;) sum.fetch_add(1);
          });
        } else {
          run_in_parallel(true, [&] { sum.fetch_add(1); }, [&] { sum.fetch_add(1); });
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(sum.load(), 4 * 300 * 2 + 2 * 300 * 8);
}

}  // namespace
}  // namespace textedge::detail
