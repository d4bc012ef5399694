// Large blocks of memory for loading: the tables encode reads (on transparent huge pages) and
// the load's big temporaries (on plain pages), mapped apart from malloc's heap and kept for the
// next load when freed.
#pragma once

#include <bit>
#include <cstddef>
#include <new>
#include <vector>

namespace textedge::detail {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Smaller: operator new. malloc's own threshold for mapping a request apart (128 KiB until a
// free raises it): above it malloc mapped and unmapped the load's vectors at every load.
inline constexpr std::size_t kLargeBlock = std::size_t{128} << 10;

// The size a request of `bytes` (>= kLargeBlock) maps: four sizes to a doubling, so that a
// load's blocks fit the next load's requests, whose sizes may differ a little (the merge lists
// are reserved from an estimate that depends on the threads' timing); huge: whole huge pages.
constexpr std::size_t large_block_size(std::size_t bytes, bool huge) {
  std::size_t step = std::bit_floor(bytes - 1) / 4;
  if (huge && step < kHugePage) step = kHugePage;
  return (bytes + step - 1) / step * step;
}
// Whether `bytes` asked of a huge-page allocator get huge pages: below one, plain pages.
constexpr bool on_huge_pages(std::size_t bytes, bool huge) { return huge && bytes >= kHugePage; }

// `bytes` (a large_block_size) of memory, not necessarily zeroed, aligned to kHugePage when
// `huge` (then marked MADV_HUGEPAGE). Throws std::bad_alloc.
void* map_large_block(std::size_t bytes, bool huge);
// Gives back what map_large_block(bytes, huge) returned: kept for a later map_large_block of the
// same size and kind, for about five seconds at most (then a thread of the module's own unmaps it),
// while the blocks kept stay under 256 MiB (else the oldest are unmapped).
void unmap_large_block(void* p, std::size_t bytes, bool huge) noexcept;
// The bytes of the blocks kept now.
std::size_t kept_large_block_bytes();

// `bytes` of zeroed memory that is never a kept block (a fresh mapping, on huge pages when `huge`
// and at least one; calloc under AddressSanitizer): its pages are faulted in as they are first
// touched. Throws std::bad_alloc. Given back by unmap_zeroed_block(p, bytes).
void* map_zeroed_block(std::size_t bytes, bool huge);
void unmap_zeroed_block(void* p, std::size_t bytes) noexcept;

// LargeBlockAllocator's: `bytes` from operator new below kLargeBlock (and always under
// AddressSanitizer, which checks the bounds of what it allocates), else a block (huge pages
// when `huge` and on_huge_pages).
void* allocate_large(std::size_t bytes, bool huge);
void free_large(void* p, std::size_t bytes, bool huge) noexcept;

template <class T, bool kHuge>
struct LargeBlockAllocator {
  using value_type = T;
  LargeBlockAllocator() = default;
  template <class U>
  LargeBlockAllocator(const LargeBlockAllocator<U, kHuge>&) {}  // NOLINT(google-explicit-constructor)
  template <class U>
  struct rebind {
    using other = LargeBlockAllocator<U, kHuge>;
  };
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_large(n * sizeof(T), kHuge)); }
  void deallocate(T* p, std::size_t n) noexcept { free_large(p, n * sizeof(T), kHuge); }
  template <class U>
  bool operator==(const LargeBlockAllocator<U, kHuge>&) const { return true; }
};

// For a load's big vectors on plain pages, temporary or not: see large_blocks.cpp.
template <class T>
using BlockAllocator = LargeBlockAllocator<T, false>;
template <class T>
using BlockVector = std::vector<T, BlockAllocator<T>>;

// An array of n trivial T, left uninitialized, on a BlockAllocator block.
template <class T>
class ScratchArray {
 public:
  explicit ScratchArray(std::size_t n) : n_(n), p_(BlockAllocator<T>().allocate(n)) {}
  ~ScratchArray() { BlockAllocator<T>().deallocate(p_, n_); }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  std::size_t size() const { return n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }

 private:
  std::size_t n_;
  T* p_;
};

}  // namespace textedge::detail
