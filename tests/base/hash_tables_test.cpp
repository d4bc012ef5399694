// The load and encode tables (src/base/hash_tables.hpp): what goes in is found, what did not is
// not, through growth from the smallest table, with MergeMap's filter in front of its slots.
#include "base/hash_tables.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

namespace textedge::detail {
namespace {

// Pairs of ids as vocabularies have them (small and dense), some inserted twice (the later wins),
// looked up with as many pairs that were never inserted; grown from 16 slots and reserved ahead.
TEST(MergeMap, FindsEveryMergeAndNoOtherPair) {
  for (bool reserved : {false, true}) {
    std::mt19937 rng(reserved ? 7 : 8);
    std::map<std::pair<std::uint32_t, std::uint32_t>, MergeMap::Merge> expected;
    MergeMap map;
    if (reserved) map.reserve(50000);
    for (std::uint32_t rank = 0; rank < 50000; ++rank) {
      std::uint32_t left = rng() % 3000, right = rng() % 3000;
      MergeMap::Merge m{rank, static_cast<std::uint32_t>(rng() % 100000)};
      map.insert(left, right, m);
      expected[{left, right}] = m;
    }
    EXPECT_EQ(map.size(), expected.size());
    for (const auto& [pair, m] : expected) {
      MergeMap::Merge found = map.find(pair.first, pair.second);
      ASSERT_EQ(found.rank, m.rank) << pair.first << " " << pair.second;
      ASSERT_EQ(found.id, m.id);
    }
    std::size_t absent = 0;
    for (int i = 0; i < 200000; ++i) {
      std::uint32_t left = rng() % 6000, right = rng() % 6000;
      if (expected.count({left, right})) continue;
      ++absent;
      ASSERT_EQ(map.find(left, right).rank, MergeMap::kNoRank) << left << " " << right;
    }
    EXPECT_GT(absent, 150000u);
  }
}

TEST(StringIdMap, FindsEveryKeyAndNoOther) {
  for (bool filtered : {false, true}) {
    StringIdMap map;
    if (filtered) map.reserve(1, 0, true);  // then grown, the filter with it
    std::map<std::string, std::uint32_t> expected;
    std::mt19937 rng(3);
    for (std::uint32_t id = 0; id < 20000; ++id) {
      std::string key(rng() % 40, 'a');
      for (char& c : key) c = static_cast<char>('a' + rng() % 3);
      map.insert(key, id);
      expected[key] = id;
    }
    for (const auto& [key, id] : expected) {
      ASSERT_EQ(map.find(key), id) << key;
      ASSERT_EQ(map.find_rare(key, hash_bytes(key)), id) << key;  // through the filter
    }
    for (std::string absent : {std::string("d"), std::string("ad"), std::string(41, 'a'), std::string(3, 'd')}) {
      EXPECT_FALSE(map.find(absent).has_value());
      EXPECT_FALSE(map.find_rare(absent, hash_bytes(absent)).has_value());
    }
    // Every byte of a key counts, wherever it lies in a short key's word or a long key's bytes.
    for (const auto& [key, id] : expected) {
      if (key.size() > 12) continue;
      for (std::size_t at = 0; at < key.size(); ++at) {
        std::string changed = key;
        changed[at] = 'd';
        ASSERT_FALSE(map.find(changed).has_value()) << changed;
      }
    }
  }
}

}  // namespace
}  // namespace textedge::detail
