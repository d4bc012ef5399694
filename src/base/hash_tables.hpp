// Open-addressing hash tables for the two lookups on the encode hot path: token bytes -> id
// and (left id, right id) -> merge. Built once at load time, read-only afterwards.
//
// Performance note: std::unordered_map costs a pointer chase per probe and a heap node per
// entry; with 150k-500k entries that dominated load time (several 100 ms) and BPE merges.
// Linear probing over a flat power-of-two array at load factor <= 0.5 keeps a lookup to one
// or two cache lines.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/copy_bytes.hpp"
#include "base/large_blocks.hpp"

namespace textedge::detail {

// Allocates large tables on transparent huge pages where the kernel offers them (madvise
// mode). Performance note: filling 8-16 MB tables page by page cost a quarter of load time
// in page faults on our VMs; 2 MB pages cut the fault count 512-fold. Touching 64 MB of fresh
// memory took ~250 ms on 4 KB pages and ~6 ms on huge pages there. Only what encode reads
// (these tables, the string lists) uses it: 2 MB pages keep the merge table's lookups off the
// TLB's misses (gptoss encode 5-11% slower on 4 KB pages), but where the kernel compacts memory
// for them (defrag=madvise) a first load can stall; the load's temporaries (the read lists, the
// resolved merges) on plain pages: first loads of llama3_1 178-446 -> 74-89 ms, gemma3 147-496 ->
// 154-182 ms (five fresh processes each, alternating, 2026-12-03).
template <class T>
using HugePageAllocator = LargeBlockAllocator<T, true>;
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

[[gnu::always_inline]] inline std::uint64_t hash_bytes(std::string_view s) {
  // 8 bytes at a time, multiply-xorshift mixing (in the style of wyhash, simplified). The last
  // 1-7 bytes are read with fixed-size loads, overlapping what was read (as wyhash does): for a
  // given length the words still determine the bytes.
  // Performance note: a memcpy of the variable-length tail was a call to memcpy per hash, most
  // of a short word's hash (llama3_1 encode of 300 KB of bench.txt: 38.1M -> 37.0M instructions;
  // loading qwen3 289.3M -> 281.9M).
  // Inlined by force: GCC kept it a call in the word cache's look-up (llama2, a warm pass over
  // 350 KB of bench.txt 26.8M -> 26.4M instructions, qwen3 28.1M -> 27.7M; `textedge info`
  // -1%; callgrind, 2026-12-04).
  constexpr std::uint64_t k = 0x9E3779B97F4A7C15ULL;
  auto load = [](const char* at, auto bytes) {
    decltype(bytes) w;
    std::memcpy(&w, at, sizeof w);
    return static_cast<std::uint64_t>(w);
  };
  auto mix = [&](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * k;
    return h ^ (h >> 29);
  };
  const std::size_t size = s.size();
  std::uint64_t h = size * k;
  const char* p = s.data();
  std::size_t n = size;
  while (n >= 8) {
    h = mix(h, load(p, std::uint64_t{}));
    p += 8;
    n -= 8;
  }
  if (n >= 4) {
    h = mix(h, load(p, std::uint32_t{}) | load(p + n - 4, std::uint32_t{}) << 32);
  } else if (n) {
    auto byte = [&](std::size_t i) { return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])); };
    h = mix(h, byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16);
  }
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 31);
}

// Whether the first word.size() bytes at `key` are word's. Short words (most) are compared with
// two overlapping fixed-size loads: a memcmp call cost more than the rest of a cache hit.
// Inlined by force (GCC kept it a call): a warm pass over 350 KB of bench.txt, llama2 28.1M ->
// 26.8M instructions, qwen3 29.3M -> 28.1M (callgrind, 2026-12-04).
// StringIdMap::find compares with it too, inlined by force with it (a memcmp call a found key
// was ~17 instructions; resolving llama3_1's merges 45M -> 40M instructions a thread).
[[gnu::always_inline]] inline bool same_bytes(const char* key, std::string_view word) {
  const char* w = word.data();
  const std::size_t n = word.size();
  auto equal = [](const char* a, const char* b, auto bytes) {
    decltype(bytes) x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    return x == y;
  };
  if (n >= 16) return std::memcmp(key, w, n) == 0;
  if (n >= 8) return equal(key, w, std::uint64_t{}) && equal(key + n - 8, w + n - 8, std::uint64_t{});
  if (n >= 4) return equal(key, w, std::uint32_t{}) && equal(key + n - 4, w + n - 4, std::uint32_t{});
  return n == 0 || (key[0] == w[0] && key[n / 2] == w[n / 2] && key[n - 1] == w[n - 1]);
}

inline std::size_t table_capacity_for(std::size_t n) {
  std::size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  return cap;
}

// A blocked Bloom filter over well-mixed 64-bit hashes, in front of a table whose look-ups mostly
// miss: two bits of one 64-bit word a key, 4 bits a table slot, at most 4M bits (512 KB, for the
// CPU's second-level cache), so that most absent keys are answered without the table's cache miss.
// Performance note (MergeMap, which it was made for; bench encode, best of four or five
// alternating rounds, two runs each, 2026-12-04): one bit a key against no filter, bench2.txt
// qwen3 +2/+34%, llama3_1 +20/+25%, gemma3 +7/+31%, deepseek_v3 +22/+23%, gptoss +14/+21%, llama2
// +15/+27%, bench.txt +1 to +9%; two bits of one word against one bit (Gemma 3's 515k merges:
// ~12% -> ~5% of absent pairs let through), gemma3 +2/+14%, gptoss +3/+18%, llama3_1 +5/+9%,
// qwen3 +0/+18%. perf had put merge_by_scan at 30% of qwen3's time on bench2.txt against 16% of
// its instructions: the merge table (8-32 MB) missed the caches on pairs of rare characters.
class BlockedFilter {
 public:
  BlockedFilter() = default;
  explicit BlockedFilter(std::size_t slots) { reserve(slots); }
  void reserve(std::size_t slots) {
    std::size_t words = std::max<std::size_t>(std::min<std::size_t>(slots * 4, std::size_t{1} << 22) / 64, 2);
    shift_ = 64 - std::countr_zero(words);
    words_.assign(words, 0);
  }
  bool empty() const { return words_.empty(); }
  void add(std::uint64_t h) {
    Bits b = bits(h);
    words_[b.word] |= b.mask;
  }
  bool may_hold(std::uint64_t h) const {
    Bits b = bits(h);
    return (words_[b.word] & b.mask) == b.mask;
  }

 private:
  struct Bits {
    std::size_t word;
    std::uint64_t mask;
  };
  // The word from h's top bits (tables index slots by their low ones), the bits from both halves.
  Bits bits(std::uint64_t h) const {
    std::uint64_t g = h ^ (h >> 32);
    return {static_cast<std::size_t>(h >> shift_), (std::uint64_t{1} << (g & 63)) | (std::uint64_t{1} << ((g >> 6) & 63))};
  }
  BlockVector<std::uint64_t> words_;
  unsigned shift_ = 63;
};

// Byte string -> id. Keys of up to 8 bytes live in their slot, longer ones in one arena.
// Performance note (callgrind, Llama 2's load, 2026-12-06): resolving a merge looks up its two
// sides, ~56 instructions a look-up with the key compared in the arena (the slot's hash, then
// the bytes); a short key (most merge sides) is now compared as its slot's word, exactly, as the
// length is compared too.
class StringIdMap {
 public:
  StringIdMap() = default;
  explicit StringIdMap(std::size_t expected) { reserve(expected); }

  // `filtered`: keep a BlockedFilter for find_rare (its bits cost every insertion a likely cache
  // miss, so only the tables that find_rare reads have one).
  void reserve(std::size_t expected, std::size_t key_bytes = 0, bool filtered = false) {
    slots_.assign(table_capacity_for(expected), Slot{});
    if (filtered) filter_.reserve(slots_.size());
    arena_.resize(key_bytes ? key_bytes : expected * 8);  // exact when given: growing copies
  }

  // Inserts or overwrites (later insertions win, as in a Rust HashMap collect).
  void insert(std::string_view key, std::uint32_t id) { insert(key, hash_bytes(key), id); }
  // With h = hash_bytes(key), for callers that hash ahead and prefetch().
  void insert(std::string_view key, std::uint64_t h, std::uint32_t id) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& s = slot_for(key, h);
    if (s.length == kEmpty) {
      std::uint64_t word = short_word(key);
      if (key.size() > kShortKey) {
        word = std::uint64_t{static_cast<std::uint32_t>(arena_used_)} << 32 | static_cast<std::uint32_t>(h);
        append_key(key);
      }
      s = Slot{word, static_cast<std::uint32_t>(key.size()), id};
      ++size_;
      if (!filter_.empty()) filter_.add(h);
    } else {
      s.id = id;
    }
  }

  std::optional<std::uint32_t> find(std::string_view key) const { return find(key, hash_bytes(key)); }
  [[gnu::always_inline]] std::optional<std::uint32_t> find(std::string_view key, std::uint64_t h) const {
    if (slots_.empty()) return std::nullopt;
    const Slot& s = slot_for(key, h);
    if (s.length == kEmpty) return std::nullopt;
    return s.id;
  }

  // The same, for keys that are mostly absent (encode's whole-word look-ups), through the filter
  // when the table keeps one. Performance note: bench encode on bench2.txt, best of six
  // alternating rounds (2026-12-04), where it serves ignore_merges' whole-word look-up: llama3_1
  // +3.7%, gptoss +7.9% (with one filter bit a key).
  std::optional<std::uint32_t> find_rare(std::string_view key, std::uint64_t h) const {
    if (!filter_.empty() && !filter_.may_hold(h)) return std::nullopt;
    return find(key, h);
  }

  // Brings the first slot for hash h into cache (load loops hash a few keys ahead).
  void prefetch(std::uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  static constexpr std::size_t kShortKey = 8;
  // `word`: a short key's bytes as short_word() packs them; a long key's hash (low half) and
  // offset in the arena (high half).
  struct Slot {
    std::uint64_t word = 0;
    std::uint32_t length = kEmpty, id = 0;
  };
  // A key of up to 8 bytes as one word, as hash_bytes reads it: for a given length the word
  // determines the bytes.
  static std::uint64_t short_word(std::string_view key) {
    auto load4 = [](const char* at) {
      std::uint32_t w;
      std::memcpy(&w, at, 4);
      return std::uint64_t{w};
    };
    const char* p = key.data();
    const std::size_t n = key.size();
    if (n >= 4) return load4(p) | load4(p + n - 4) << 32;
    if (n == 0) return 0;
    auto byte = [&](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
    return byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16;
  }
  // The key's slot, or the empty slot where it would go.
  [[gnu::always_inline]] Slot& slot_for(std::string_view key, std::uint64_t h) const {
    Slot* const slots = const_cast<Slot*>(slots_.data());
    const std::size_t mask = slots_.size() - 1;
    const std::size_t n = key.size();
    if (n <= kShortKey) {
      const std::uint64_t word = short_word(key);
      for (std::size_t i = h & mask;; i = (i + 1) & mask)
        if (slots[i].length == kEmpty || (slots[i].length == n && slots[i].word == word)) return slots[i];
    }
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots[i];
      if (s.length == kEmpty || (s.length == n && static_cast<std::uint32_t>(s.word) == static_cast<std::uint32_t>(h) &&
                                 same_bytes(arena_.data() + (s.word >> 32), key)))
        return slots[i];
    }
  }
  // A slot's key: in the arena, or unpacked from its word into `buffer`.
  std::string_view key_of(const Slot& s, char (&buffer)[kShortKey]) const {
    const std::size_t n = s.length;
    if (n > kShortKey) return {arena_.data() + (s.word >> 32), n};
    if (n >= 4) {
      const auto low = static_cast<std::uint32_t>(s.word), high = static_cast<std::uint32_t>(s.word >> 32);
      std::memcpy(buffer + n - 4, &high, 4);
      std::memcpy(buffer, &low, 4);
    } else if (n) {
      buffer[n - 1] = static_cast<char>(s.word >> 16);
      buffer[n / 2] = static_cast<char>(s.word >> 8);
      buffer[0] = static_cast<char>(s.word);
    }
    return {buffer, n};
  }
  // The arena is sized ahead and filled up to arena_used_, short keys copied inline.
  void append_key(std::string_view key) {
    if (arena_.size() - arena_used_ < key.size()) arena_.resize(std::max(2 * arena_.size(), arena_used_ + key.size()));
    copy_bytes(arena_.data() + arena_used_, key.data(), key.size());
    arena_used_ += key.size();
  }
  void grow() {
    HugeVector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    const bool filtered = !filter_.empty();
    if (filtered) filter_.reserve(slots_.size());
    std::size_t mask = slots_.size() - 1;
    char buffer[kShortKey];
    for (const Slot& s : old) {
      if (s.length == kEmpty) continue;
      std::uint64_t h = hash_bytes(key_of(s, buffer));
      std::size_t i = h & mask;
      while (slots_[i].length != kEmpty) i = (i + 1) & mask;
      slots_[i] = s;
      if (filtered) filter_.add(h);
    }
  }

  HugeVector<Slot> slots_;
  HugeVector<char> arena_;  // long keys only
  std::size_t arena_used_ = 0;
  std::size_t size_ = 0;
  BlockedFilter filter_;  // empty unless reserved `filtered`
};

// A set of 32-bit keys (not 0xFFFFFFFF).
class U32Set {
 public:
  void reserve(std::size_t n) { slots_.assign(table_capacity_for(n), kEmpty); }
  void insert(std::uint32_t key) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return;
      if (slots_[i] == kEmpty) { slots_[i] = key; ++size_; return; }
    }
  }
  bool contains(std::uint32_t key) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  template <class F>
  void for_each(F f) const {
    for (std::uint32_t k : slots_)
      if (k != kEmpty) f(k);
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  static std::size_t mix(std::uint32_t x) { return static_cast<std::size_t>((x * 0x9E3779B97F4A7C15ULL) >> 32); }
  void grow() {
    std::vector<std::uint32_t> old = std::move(slots_);
    slots_.assign(old.size() * 2, kEmpty);
    size_ = 0;
    for (std::uint32_t k : old)
      if (k != kEmpty) insert(k);
  }
  std::vector<std::uint32_t> slots_ = std::vector<std::uint32_t>(16, kEmpty);
  std::size_t size_ = 0;
};

// (left id, right id) -> (rank, merged id).
//
// Tried (2026-12-03): 8-byte slots (the pair and its rank in one word, the merged id in a
// rank-indexed side array): Qwen3's table 8 -> 2-4 MB, but bench encode on bench2.txt moved
// qwen3 +0-5% and gemma3 -4 to -8% (the side array's miss on every merge made, and more probes);
// dropped. Tried again behind the filter (2026-12-05), at the same capacity: left << (id bits +
// rank bits) | right << rank bits | rank when 2 * bits(ids) + bits(merges) <= 64 (all six models;
// 16-byte slots beyond), the merged id read from the side array only for the merge made (reading
// it in find() for every pair found cost more: gemma3 merge_by_scan 100.5M -> 122.0M
// instructions). Cachegrind, 32 MB LL, load and two passes over bench2.txt: merge_by_scan's D1
// misses gemma3 1.59M -> 1.85M, gptoss 1.14M -> 1.34M, llama2 1.07M -> 1.23M, llama3_1 1.23M ->
// 1.45M (the side array), its LL misses unchanged (a 16 MB table fits the 32 MB L3), its
// instructions +4-6%. Encode, best of six alternating rounds: bench2.txt gemma3 -1.5%, gptoss
// -0.8%, llama2 -1.7%, llama3_1 -1.1%; bench.txt medians -1.1% to +0.4%. A hot pair costs one
// cache line in either layout, and the side array adds one; dropped again.
class MergeMap {
 public:
  struct Merge {
    std::uint32_t rank;
    std::uint32_t id;
  };
  static constexpr std::uint32_t kNoRank = 0xFFFFFFFFu;

  void reserve(std::size_t expected) {
    reserve_filter(expected);
    reserve_slots(expected);
  }

  // Later insertions of the same pair win, as the reference's map does.
  void insert(std::uint32_t left, std::uint32_t right, Merge m) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    add_to_filter(pack(left, right));
    insert_slot(left, right, m);
  }

  // For a loader that fills the table and its filter on two threads at once: reserve_filter
  // before both, reserve_slots and at most `expected` insert_slot on one, add_to_filter for each
  // pair on the other. Performance note: the filter's bits set in insert() missed the caches on
  // every merge while the insertions streamed through the slots (8-32 MB) and made the load
  // slower than before the filter (best-of-5 loads, median of eight alternating runs: Gemma 3
  // 79 -> 95 ms). Set on the other thread: six alternating runs, median (min), before the filter
  // / bits in insert() / other thread: Gemma 3 81.0 (65.4) / 86.0 (74.2) / 78.5 (66.7) ms, gpt-oss
  // 59.3 (58.4) / 68.0 (58.5) / 60.1 (55.5), Llama 3.1 30.6 (29.6) / 36.3 (29.2) / 33.8 (29.2).
  void reserve_filter(std::size_t expected) { filter_.reserve(table_capacity_for(expected)); }
  void reserve_slots(std::size_t expected) { slots_.assign(table_capacity_for(expected), Slot{}); }
  void add_to_filter(std::uint32_t left, std::uint32_t right) { add_to_filter(pack(left, right)); }
  void insert_slot(std::uint32_t left, std::uint32_t right, Merge m) {
    std::uint64_t key = pack(left, right);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.key == kEmptyKey) { s = Slot{key, m}; ++size_; return; }
      if (s.key == key) { s.merge = m; return; }
    }
  }

  // For the load's insertion loop (the filter is not asked: GCC drops a prefetch that depends on it).
  void prefetch(std::uint32_t left, std::uint32_t right) const {
    __builtin_prefetch(&slots_[mix(pack(left, right)) & (slots_.size() - 1)]);
  }

  // {kNoRank, 0} when the pair does not merge.
  Merge find(std::uint32_t left, std::uint32_t right) const {
    std::uint64_t key = pack(left, right);
    if (!filter_.may_hold(filter_hash(key))) return Merge{kNoRank, 0};
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.key == key) return s.merge;
      if (s.key == kEmptyKey) return Merge{kNoRank, 0};
    }
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint64_t kEmptyKey = ~0ULL;
  struct Slot {
    std::uint64_t key = kEmptyKey;
    Merge merge{kNoRank, 0};
  };
  static std::uint64_t pack(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} << 32) | b; }
  static std::uint64_t mix(std::uint64_t x) {
    x *= 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 32);
  }
  // The pair's hash for the filter (mix's low bits index the slots).
  static std::uint64_t filter_hash(std::uint64_t key) { return key * 0xC2B2AE3D27D4EB4FULL; }
  void add_to_filter(std::uint64_t key) { filter_.add(filter_hash(key)); }
  void grow() {
    HugeVector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    filter_.reserve(slots_.size());
    std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.key == kEmptyKey) continue;
      std::size_t i = mix(s.key) & mask;
      while (slots_[i].key != kEmptyKey) i = (i + 1) & mask;
      slots_[i] = s;
      add_to_filter(s.key);
    }
  }

  HugeVector<Slot> slots_ = HugeVector<Slot>(16);
  BlockedFilter filter_ = BlockedFilter(16);
  std::size_t size_ = 0;
};

}  // namespace textedge::detail
