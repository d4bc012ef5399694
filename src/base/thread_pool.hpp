// The process-wide pool of worker threads behind encode_batch.
//
// Performance note: spawning threads per call cost more than the thread start
// itself: each new thread starts with a cold per-thread BPE word cache (2 MB,
// allocated and filled again), so 2 threads gave 1.72x one thread on qwen3
// (bench encode --threads 2). Workers that live for the process keep their
// caches warm across calls.
#pragma once

#include <functional>
#include <memory>

#include "base/function_ref.hpp"

namespace textedge::detail {

// Calls `work` on the calling thread and on up to `threads - 1` pool workers at
// once, and returns when every call has returned. `work` must share its items
// out itself (e.g. an atomic index) and must not throw. Workers still queued
// when the caller's own call returns are withdrawn, so a batch never waits for
// a worker that is busy with another caller's batch. Safe to call from many
// threads at once.
void run_on_pool(unsigned threads, FunctionRef<void()> work);

// Wakes a worker to wait awake for PoolTasks about to come (a load calls it as it starts, so
// that its first phase does not wait for a halted vCPU to wake), until as many loaded() calls:
// workers then sleep as soon as they are idle. PoolLoading calls both.
void wake_pool_worker();
void loaded();
struct PoolLoading {
  explicit PoolLoading(bool active) : active(active) {
    if (active) wake_pool_worker();
  }
  ~PoolLoading() {
    if (active) loaded();
  }
  PoolLoading(const PoolLoading&) = delete;
  PoolLoading& operator=(const PoolLoading&) = delete;
  const bool active;
};

// Runs `work` on a pool worker later and returns at once: a load frees its temporaries there.
// Work still queued when the process exits is dropped.
void run_detached(std::function<void()> work);

// Destroys *object on a pool worker (run_detached).
template <class T>
void destroy_on_pool(std::unique_ptr<T> object) {
  run_detached([shared = std::shared_ptr<T>(std::move(object))]() mutable { shared.reset(); });
}

struct PoolBatch;

// `work` handed to a pool worker now and joined later: join() runs it on the joining thread when
// no worker has started it yet, else waits for it. `work` must not throw and must outlive the
// task; the destructor joins. Loading uses it for its second thread: a new thread per phase
// started 100-400 us late on this project's VMs (a sleeping worker is woken instead, and a worker
// that finished a phase waits for the next one awake for a while: see thread_pool.cpp).
class PoolTask {
 public:
  explicit PoolTask(FunctionRef<void()> work);
  PoolTask(const PoolTask&) = delete;
  PoolTask& operator=(const PoolTask&) = delete;
  ~PoolTask();
  void join();

 private:
  std::unique_ptr<PoolBatch> batch_;  // null once joined
};

}  // namespace textedge::detail
