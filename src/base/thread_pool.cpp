#include "base/thread_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace textedge::detail {
namespace {

// One caller's batch: how many of its queued tasks are still running or
// waiting.
struct Batch {
  explicit Batch(FunctionRef<void()> w) : work(w) {}
  FunctionRef<void()> work;
  unsigned outstanding = 0;
  std::condition_variable done;
};

class Pool {
 public:
  // Workers are never joined: the pool lives until the process exits (joining
  // in a static destructor could deadlock with threads the program has not
  // stopped).
  static Pool &instance() {
    static Pool *pool = new Pool;
    return *pool;
  }

  void run(unsigned threads, FunctionRef<void()> work) {
    Batch batch(work);
    {
      std::lock_guard lock(mutex_);
      unsigned helpers = std::min(threads - 1, kMaxWorkers);
      while (workers_ < helpers) {
        std::thread([this] { serve(); }).detach();
        ++workers_;
      }
      for (unsigned i = 0; i < helpers; ++i) queue_.push_back(&batch);
      batch.outstanding = helpers;
    }
    wake_.notify_all();
    work();
    std::unique_lock lock(mutex_);
    // The caller ran out of items, so tasks not yet started would find none:
    // withdraw them.
    auto queued = std::remove(queue_.begin(), queue_.end(), &batch);
    batch.outstanding -= static_cast<unsigned>(queue_.end() - queued);
    queue_.erase(queued, queue_.end());
    batch.done.wait(lock, [&] { return batch.outstanding == 0; });
  }

 private:
  static constexpr unsigned kMaxWorkers = 255;

  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return !queue_.empty(); });
      Batch *batch = queue_.front();
      queue_.pop_front();
      lock.unlock();
      batch->work();
      lock.lock();
      if (--batch->outstanding == 0) batch->done.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Batch *> queue_;
  unsigned workers_ = 0;
};

}  // namespace

void run_on_pool(unsigned threads, FunctionRef<void()> work) {
  if (threads <= 1) return work();
  Pool::instance().run(threads, work);
}

}  // namespace textedge::detail
