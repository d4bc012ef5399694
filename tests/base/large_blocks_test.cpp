// Large blocks (src/base/large_blocks.hpp): the tables' huge pages and the load's kept blocks.
#include "base/large_blocks.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>

namespace textedge::detail {
namespace {

TEST(LargeBlocks, SizesHoldTheRequestAndHugeOnesAreWholeHugePages) {
  for (std::size_t bytes = kLargeBlock; bytes < (std::size_t{64} << 20); bytes = bytes * 9 / 8 + 4093) {
    for (bool huge : {false, true}) {
      std::size_t size = large_block_size(bytes, huge);
      EXPECT_GE(size, bytes);
      if (huge) EXPECT_EQ(size % kHugePage, 0u) << bytes;
      else EXPECT_LE(size, bytes + bytes / 4 + 1) << bytes;  // four sizes to a doubling
    }
  }
  EXPECT_FALSE(on_huge_pages(kHugePage - 1, true));
  EXPECT_TRUE(on_huge_pages(kHugePage, true));
  EXPECT_FALSE(on_huge_pages(kHugePage, false));
}

TEST(LargeBlocks, AFreedBlockServesTheNextRequestOfItsSizeAndKindOnly) {
  const std::size_t bytes = large_block_size(3 << 20, true);
  auto* huge = static_cast<char*>(map_large_block(bytes, true));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(huge) % kHugePage, 0u);
  std::memset(huge, 7, bytes);  // all of it is writable
  std::size_t before = kept_large_block_bytes();
  unmap_large_block(huge, bytes, true);
  EXPECT_EQ(kept_large_block_bytes(), before + bytes);

  void* plain = map_large_block(bytes, false);  // same size, other kind: a block of its own
  EXPECT_NE(plain, huge);
  void* other_size = map_large_block(bytes + kHugePage, true);
  EXPECT_NE(other_size, huge);
  void* again = map_large_block(bytes, true);
  EXPECT_EQ(again, huge);
  EXPECT_EQ(kept_large_block_bytes(), before);
  for (void* p : {plain, again}) unmap_large_block(p, bytes, p == again);
  unmap_large_block(other_size, bytes + kHugePage, true);
}

TEST(LargeBlocks, KeptBlocksAreUnmappedAfterAFewSeconds) {
  const std::size_t bytes = large_block_size(kLargeBlock * 3, false);
  void* p = map_large_block(bytes, false);
  unmap_large_block(p, bytes, false);
  EXPECT_GE(kept_large_block_bytes(), bytes);
  auto start = std::chrono::steady_clock::now();
  while (kept_large_block_bytes() != 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(kept_large_block_bytes(), 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(LargeBlocks, VectorsOnBlocksGrowKeepTheirElementsAndReuseFreedBlocks) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "under AddressSanitizer the allocator takes every size from operator new";
#endif
  BlockVector<std::uint64_t> v;
  for (std::uint64_t i = 0; i < (1u << 20); ++i) v.push_back(i * 3);  // through 1 KiB .. 8 MiB
  for (std::uint64_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i * 3);
  const std::uint64_t* data = v.data();
  const std::size_t capacity = v.capacity();
  BlockVector<std::uint64_t>().swap(v);  // frees its block
  BlockVector<std::uint64_t> w;
  w.reserve(capacity);
  EXPECT_EQ(w.data(), data);  // the freed block, kept
}

}  // namespace
}  // namespace textedge::detail
