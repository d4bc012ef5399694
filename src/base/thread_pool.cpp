#include "base/thread_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <vector>

namespace textedge::detail {

// One caller's batch (or one PoolTask): how many of its queued tasks are still running or
// waiting.
struct PoolBatch {
  PoolBatch(FunctionRef<void()> w, bool task) : work(w), keep_awake(task) {}
  // A detached batch owns its work and is deleted by the worker that ran it.
  explicit PoolBatch(std::function<void()> owned_work) : owned(std::move(owned_work)), work(owned), keep_awake(false), detached(true) {}
  std::function<void()> owned;
  FunctionRef<void()> work;
  bool keep_awake = true;  // a load phase: the worker then waits awake for the next one
  bool detached = false;
  unsigned outstanding = 0;
  std::atomic<bool> finished{false};  // outstanding reached 0 (read without the lock)
  std::condition_variable done;
};

namespace {

// Waits awake until ready() or `limit` has passed; whether ready() came true. It yields the CPU
// at each turn: where the two threads of a load share one CPU with other work (a busy machine),
// a waiter that only spun kept the thread it waited for off the CPU.
template <class Ready>
bool wait_awake(Ready ready, std::chrono::microseconds limit) {
  if (limit.count() <= 0) return ready();
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0;; ++i) {
    if (ready()) return true;
    std::this_thread::yield();
    if ((i & 15) == 15 && std::chrono::steady_clock::now() - start > limit) return false;
  }
}

// Performance note: a loader's phases are ~0.3-8 ms each with short serial steps between them.
// A worker that went to sleep between them, like a thread started for each, took 100-400 us to
// run again on this project's VMs (an idle vCPU is halted and woken through the hypervisor);
// waiting awake for this long after a load phase, and joining awake as long, keeps both vCPUs
// running through a load. Batches of encode_batch do not keep workers awake.
// TEXTEDGE_AWAKE_US sets it (0: sleep at once), for instruction counts under callgrind, which
// would count the waiting.
const std::chrono::microseconds kAwake{[] {
  const char* v = std::getenv("TEXTEDGE_AWAKE_US");
  return v ? std::strtol(v, nullptr, 10) : 3000L;
}()};

class Pool {
 public:
  // Workers are never joined: the pool lives until the process exits (joining
  // in a static destructor could deadlock with threads the program has not
  // stopped).
  static Pool &instance() {
    static Pool *pool = [] {
      // A child forked while a worker held the lock would never get it: the parent holds the
      // lock across fork(), and the child starts a new pool (it has no workers; the old one
      // is left as it was). Python engines fork workers after loading a tokenizer.
      pthread_atfork([] { current->mutex_.lock(); }, [] { current->mutex_.unlock(); },
                     [] { current = new Pool; });
      return current = new Pool;
    }();
    (void)pool;
    return *current;
  }

  void run(unsigned threads, FunctionRef<void()> work) {
    PoolBatch batch(work, false);
    {
      std::lock_guard lock(mutex_);
      unsigned helpers = std::min(threads - 1, kMaxWorkers);
      add_workers(helpers);
      for (unsigned i = 0; i < helpers; ++i) push(&batch);
      batch.outstanding = helpers;
    }
    wake_.notify_all();
    work();
    std::unique_lock lock(mutex_);
    // The caller ran out of items, so tasks not yet started would find none:
    // withdraw them.
    batch.outstanding -= withdraw(&batch);
    batch.done.wait(lock, [&] { return batch.outstanding == 0; });
  }

  // A PoolTask's batch, or a detached one: to one worker, made when there is none.
  void enqueue(PoolBatch* batch) {
    {
      std::lock_guard lock(mutex_);
      add_workers(1);
      if (!batch->detached) batch->outstanding = 1;
      push(batch);
    }
    wake_.notify_one();
  }

  void loaded() { loading_.fetch_sub(1, std::memory_order_relaxed); }

  void wake() {
    loading_.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard lock(mutex_);
      add_workers(1);
      wake_requested_ = true;
    }
    wake_.notify_one();
  }

  // Whether the batch was withdrawn before a worker took it (the caller then runs it).
  bool finish(PoolBatch& batch) {
    {
      std::lock_guard lock(mutex_);
      if (withdraw(&batch)) return true;
    }
    if (wait_awake([&] { return batch.finished.load(std::memory_order_acquire); }, kAwake)) return false;
    std::unique_lock lock(mutex_);
    batch.done.wait(lock, [&] { return batch.outstanding == 0; });
    return false;
  }

 private:
  static constexpr unsigned kMaxWorkers = 255;

  void add_workers(unsigned wanted) {
    while (workers_ < wanted) {
      std::thread([this] { serve(); }).detach();
      ++workers_;
    }
  }
  void push(PoolBatch* batch) {
    queue_.push_back(batch);
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  unsigned withdraw(PoolBatch* batch) {
    auto queued = std::remove(queue_.begin(), queue_.end(), batch);
    auto n = static_cast<unsigned>(queue_.end() - queued);
    queue_.erase(queued, queue_.end());
    queued_.store(queue_.size(), std::memory_order_relaxed);
    return n;
  }

  void serve() {
    std::unique_lock lock(mutex_);
    bool awake = false;  // the last task was a load phase
    for (;;) {
      if (queue_.empty() && awake) {
        lock.unlock();
        wait_awake([&] { return queued_.load(std::memory_order_relaxed) != 0 || loading_.load(std::memory_order_relaxed) == 0; },
                   kAwake);
        lock.lock();
      }
      wake_.wait(lock, [&] { return !queue_.empty() || wake_requested_; });
      if (queue_.empty()) {  // wake(): work is coming
        wake_requested_ = false;
        awake = true;
        continue;
      }
      PoolBatch *batch = queue_.front();
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
      awake = batch->keep_awake;
      lock.unlock();
      batch->work();
      if (batch->detached) {
        delete batch;
        lock.lock();
        continue;
      }
      lock.lock();
      if (--batch->outstanding == 0) {
        batch->done.notify_one();
        // Last: a caller waiting awake may free the batch as soon as it sees this.
        batch->finished.store(true, std::memory_order_release);
      }
    }
  }

  static inline Pool *current = nullptr;  // this process's pool (a forked child makes its own)
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<PoolBatch *> queue_;
  std::atomic<std::size_t> queued_{0};  // queue_.size(), for spinning workers
  unsigned workers_ = 0;
  bool wake_requested_ = false;
  std::atomic<int> loading_{0};  // loads between wake_pool_worker and loaded: workers wait awake
};

}  // namespace

void run_on_pool(unsigned threads, FunctionRef<void()> work) {
  if (threads <= 1) return work();
  Pool::instance().run(threads, work);
}

void wake_pool_worker() { Pool::instance().wake(); }

void loaded() { Pool::instance().loaded(); }

void run_detached(std::function<void()> work) { Pool::instance().enqueue(new PoolBatch(std::move(work))); }

PoolTask::PoolTask(FunctionRef<void()> work) : batch_(std::make_unique<PoolBatch>(work, true)) {
  Pool::instance().enqueue(batch_.get());
}

void PoolTask::join() {
  if (!batch_) return;
  if (Pool::instance().finish(*batch_)) batch_->work();
  batch_.reset();
}

PoolTask::~PoolTask() { join(); }

}  // namespace textedge::detail
