// The process-wide pool of worker threads behind encode_batch.
//
// Performance note: spawning threads per call cost more than the thread start
// itself: each new thread starts with a cold per-thread BPE word cache (2 MB,
// allocated and filled again), so 2 threads gave 1.72x one thread on qwen3
// (bench encode --threads 2). Workers that live for the process keep their
// caches warm across calls.
#pragma once

#include "base/function_ref.hpp"

namespace textedge::detail {

// Calls `work` on the calling thread and on up to `threads - 1` pool workers at
// once, and returns when every call has returned. `work` must share its items
// out itself (e.g. an atomic index) and must not throw. Workers still queued
// when the caller's own call returns are withdrawn, so a batch never waits for
// a worker that is busy with another caller's batch. Safe to call from many
// threads at once.
void run_on_pool(unsigned threads, FunctionRef<void()> work);

}  // namespace textedge::detail
