#include "base/large_blocks.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace textedge::detail {

// Performance note (best of 10 loads in a process, fresh processes alternating, 2026-12-05):
// the tables used to come from aligned_alloc, then madvise(MADV_HUGEPAGE), inside malloc's heap,
// and the temporaries from malloc. In about four processes of five, malloc gave the heap's top
// back and grew it again at every load, and each load faulted its memory in again: Qwen3 53-61
// ms a load against 27-29 in the other processes (68k page faults against 17k for 20 loads;
// 0.64-0.87 s of system time against 0.27). The tables mapped apart ended that mode for Qwen3,
// but malloc then unmapped the temporaries of every load (its mmap threshold stayed at 128 KiB:
// only the tables' frees had raised it) and Gemma 3 went 81 -> 141 ms (6k more faults a load). Hence
// blocks of both kinds, kept when freed for the next load, as malloc keeps freed memory but in
// every process: Qwen3 28-29 ms in every process, Gemma 3 69-71, gpt-oss 66-70 (was 72-82),
// Llama 2 6.6-7.3, the others unchanged. First loads (fresh memory) are unchanged or faster:
// Qwen3 78-88 ms (was 92-104), Gemma 3 187-200 (190-212).
// Tried and dropped: kept blocks given MADV_FREE (the kernel may take their pages when memory is
// short): loads 1.5-2x slower (Qwen3 47-50 ms, Llama 3.1 59-65).
// A load's temporaries are kept after it (Gemma 3's ~118 MB of address space, gpt-oss ~100), so
// blocks kept longer than kKeepFor are unmapped by a thread of their own: a server that loads
// once holds none of them for long.
namespace {

constexpr std::size_t kKeptBytes = std::size_t{256} << 20;
constexpr std::size_t kKeptBlocks = 64;
constexpr std::chrono::seconds kKeepFor{5};

using Clock = std::chrono::steady_clock;

struct Block {
  void* p;
  std::size_t bytes;
  bool huge;
  Clock::time_point kept_since;
};

struct KeptBlocks {
  std::mutex mutex;
  std::condition_variable kept_one;  // for the releasing thread
  bool releaser = false;             // it has started
  std::array<Block, kKeptBlocks> blocks;  // oldest first
  std::size_t count = 0;
  std::size_t bytes = 0;

  void remove(std::size_t i) {
    bytes -= blocks[i].bytes;
    for (std::size_t j = i + 1; j < count; ++j) blocks[j - 1] = blocks[j];
    --count;
  }
};

KeptBlocks* current = nullptr;

KeptBlocks& kept() {
  static KeptBlocks* k = [] {
    // A child forked while a thread held the lock would never get it; the child has no
    // releasing thread (it starts one when it keeps a block).
    pthread_atfork([] { current->mutex.lock(); }, [] { current->mutex.unlock(); },
                   [] {
                     current->mutex.unlock();
                     current->releaser = false;
                   });
    return current = new KeptBlocks;  // never destroyed: tokenizers may outlive static destruction
  }();
  return *k;
}

// Unmaps blocks once kept for kKeepFor; sleeps while none is kept.
void release_old_blocks() {
  KeptBlocks& k = kept();
  std::unique_lock lock(k.mutex);
  for (;;) {
    k.kept_one.wait(lock, [&] { return k.count > 0; });
    const Clock::time_point due = k.blocks[0].kept_since + kKeepFor;
    if (Clock::now() < due) {
      k.kept_one.wait_until(lock, due);
      continue;
    }
    Block old = k.blocks[0];
    k.remove(0);
    lock.unlock();
    munmap(old.p, old.bytes);
    lock.lock();
  }
}

// glibc's malloc maps requests above its threshold (128 KiB at first) apart and gives back the
// top of its heap above twice that at every free, until a large mapped block is freed: it then
// takes that block's size as its threshold (up to 32 MiB). The tables and temporaries that
// taught it so when they came from malloc now come from here, and without the lesson a
// program's batch of encodes (bench2.txt: 870 id vectors of ~5.5 KB, freed together) had its
// heap given back and faulted in again at every batch: Qwen3's encode 59-62 -> 42-45 MB/s
// (14k -> 33k page faults in a run of 24 batches). One such free, made here once, gives malloc
// the lesson the old frees gave it (their largest was 16 MiB).
void tell_malloc_of_a_large_free() {
#ifdef __GLIBC__
  void* volatile block = std::malloc(std::size_t{16} << 20);  // volatile: not elided
  std::free(block);
#endif
}

// A new mapping (zeroed pages), aligned to kHugePage and marked MADV_HUGEPAGE when `huge`.
void* map_fresh_block(std::size_t bytes, bool huge) {
  if (!huge) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
  }
  // A spare huge page mapped for the alignment, then the ends cut off.
  void* m = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<char*>(m);
  char* p = base + (kHugePage - reinterpret_cast<std::uintptr_t>(base) % kHugePage) % kHugePage;
  char* end = base + bytes + kHugePage;
  if (p != base) munmap(base, static_cast<std::size_t>(p - base));
  if (p + bytes != end) munmap(p + bytes, static_cast<std::size_t>(end - (p + bytes)));
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

}  // namespace

void* map_large_block(std::size_t bytes, bool huge) {
  static const bool told = [] {
    tell_malloc_of_a_large_free();
    return true;
  }();
  (void)told;
  {
    KeptBlocks& k = kept();
    std::lock_guard lock(k.mutex);
    for (std::size_t i = k.count; i-- > 0;) {
      if (k.blocks[i].bytes != bytes || k.blocks[i].huge != huge) continue;
      void* p = k.blocks[i].p;
      k.remove(i);
      return p;
    }
  }
  return map_fresh_block(bytes, huge);
}

void unmap_large_block(void* p, std::size_t bytes, bool huge) noexcept {
  if (bytes > kKeptBytes) {
    munmap(p, bytes);
    return;
  }
  KeptBlocks& k = kept();
  std::unique_lock lock(k.mutex);
  if (!k.releaser) {
    try {
      std::thread(release_old_blocks).detach();
      k.releaser = true;
    } catch (...) {  // no thread to release it: not kept
      lock.unlock();
      munmap(p, bytes);
      return;
    }
  }
  std::array<Block, kKeptBlocks> evicted;
  std::size_t evict = 0;
  while (k.count == kKeptBlocks || k.bytes + bytes > kKeptBytes) {
    evicted[evict++] = k.blocks[0];
    k.remove(0);
  }
  const bool first = k.count == 0;  // else the releasing thread waits for an older block
  k.blocks[k.count++] = {p, bytes, huge, Clock::now()};
  k.bytes += bytes;
  lock.unlock();
  if (first) k.kept_one.notify_one();
  for (std::size_t i = 0; i < evict; ++i) munmap(evicted[i].p, evicted[i].bytes);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

void* allocate_large(std::size_t bytes, bool huge) {
  if (kSanitized || bytes < kLargeBlock) return ::operator new(bytes);
  huge = on_huge_pages(bytes, huge);
  return map_large_block(large_block_size(bytes, huge), huge);
}

void* map_zeroed_block(std::size_t bytes, bool huge) {
  if (kSanitized) {
    void* p = std::calloc(1, bytes);
    if (!p) throw std::bad_alloc();
    return p;
  }
  return map_fresh_block(bytes, on_huge_pages(bytes, huge));
}

void unmap_zeroed_block(void* p, std::size_t bytes) noexcept {
  if (kSanitized) return std::free(p);
  munmap(p, bytes);
}

void free_large(void* p, std::size_t bytes, bool huge) noexcept {
  if (kSanitized || bytes < kLargeBlock) return ::operator delete(p);
  huge = on_huge_pages(bytes, huge);
  unmap_large_block(p, large_block_size(bytes, huge), huge);
}

std::size_t kept_large_block_bytes() {
  KeptBlocks& k = kept();
  std::lock_guard lock(k.mutex);
  return k.bytes;
}

}  // namespace textedge::detail
