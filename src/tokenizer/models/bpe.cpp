#include "tokenizer/models/bpe.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "base/large_blocks.hpp"
#include "base/run_in_parallel.hpp"
#include "base/utf8.hpp"
#include "tokenizer/byte_level.hpp"
#include "tokenizer/models/bpe_json.hpp"
#include "tokenizer/models/merge_queue.hpp"

namespace textedge::detail {

namespace {

// Converts a token written in the GPT-2 byte alphabet to raw bytes; false when some character
// is outside the alphabet (such tokens can never be produced from byte-level input).
bool alphabet_to_bytes(std::string_view token, std::string& out) {
  // Written through a pointer into room for one byte a character (a push_back a byte was ~30
  // instructions a character: Llama 3.1's raw bytes 26.5M -> 20.2M).
  out.resize(token.size());
  char* o = out.data();
  const auto* s = reinterpret_cast<const unsigned char*>(token.data());
  const std::size_t n = token.size();
  for (std::size_t i = 0; i < n;) {
    char32_t cp = s[i];
    if (cp >= 0x80) {
      // The alphabet is U+0021-U+0143: one or two bytes (tokens are valid UTF-8).
      if ((cp & 0xE0) != 0xC0 || i + 1 >= n) return false;
      cp = ((cp & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
      i += 2;
    } else {
      ++i;
    }
    int b = unicode_to_byte(cp);
    if (b < 0) return false;
    *o++ = static_cast<char>(b);
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
  return true;
}

// Per-thread cache of recently encoded short words.
//
// Performance note: on English prose and code most words repeat; a hit costs one hash and
// two cache lines instead of a merge loop (~10 merge-table probes). Keys up to 54 bytes (128-byte
// entries) rather than 22 (64-byte entries) cut instructions by 4-6% on SentencePiece text,
// whose segments carry punctuation and newlines (callgrind, llama2, 1-2 MB of bench.txt). A
// shared cache with a mutex was rejected: contention across encode_batch threads. Entries are
// fixed-size so the cache never allocates after its first use.
struct CachedWord {
  std::uint64_t hash;
  std::uint8_t key_length;  // 0 when unused (see WordCache)
  std::uint8_t id_count;
  char key[54];
  TokenId ids[16];
};
static_assert(sizeof(CachedWord) == 128);
// Most words (up to 14 bytes with up to 3 ids) in 32-byte entries: four times as many words in
// the same memory. A short word with more ids keeps a mark here and its ids in a CachedWord.
// The key's unused bytes are 0, so that the key and its length compare as two words (WordBlock).
struct ShortWord {
  char key[14];
  std::uint8_t key_length;  // 0 when unused (see WordCache)
  std::uint8_t id_count;    // kInLong: the ids are in the word's CachedWord
  TokenId ids[3];
  std::uint32_t unused;
};
static_assert(sizeof(ShortWord) == 32);

// A word of up to 16 bytes as two words, its bytes in memory order and zeros after them: the
// word cache's hash for such words (block_hash), and, with a short word's length in byte 14,
// the first 15 bytes of its ShortWord (holds).
//
// Performance note: hash_bytes and same_bytes branch on the word's length (8 or more bytes, 4 or
// more), and a SentencePiece text's segments vary in length from one to the next: callgrind's
// branch simulation put ~460k of llama2's 1.84M mispredicted branches a warm pass over
// bench2.txt there, and 158k more at the entry's compare of check, length and bytes. With blocks
// (a /tmp driver, the best of six warm passes, alternating, 2026-12-06): llama2 on bench2.txt
// 24.8-25.4 -> 22.5-22.7 ms, on bench.txt 32.2-32.8 -> 28.9-29.2; qwen3 on bench.txt 27.6-28.4 ->
// 26.1-26.4, llama3_1 on bench2.txt -4 to -12%, gemma3 -2 to -5%. llama2's warm pass over
// bench2.txt: 138.5M -> 135.4M instructions, 1.84M -> 1.40M mispredicted branches (callgrind).
struct WordBlock {
  std::uint64_t low, high;
};
constexpr std::uint64_t first_bytes(std::size_t k) {  // the mask of a word's first k bytes (k <= 8)
  if (k >= 8) return ~std::uint64_t{0};
  if constexpr (std::endian::native == std::endian::little) return (std::uint64_t{1} << (8 * k)) - 1;
  return k == 0 ? 0 : ~(~std::uint64_t{0} >> (8 * k));
}
struct BlockMasks {
  WordBlock mask[17];
  constexpr BlockMasks() : mask{} {
    for (std::size_t n = 0; n <= 16; ++n) mask[n] = {first_bytes(n), first_bytes(n < 8 ? 0 : n - 8)};
  }
};
constexpr BlockMasks kBlockMasks;
// Byte 14 of a block (a ShortWord's key_length), and bytes 0-14 of its second word.
constexpr std::uint64_t kByte14Shift = std::endian::native == std::endian::little ? 48 : 8;
constexpr std::uint64_t kKeyAndLength = first_bytes(7);

// The n (1-16) bytes at p; `end`: where the readable bytes after p end.
[[gnu::always_inline]] inline WordBlock word_block(const char* p, std::size_t n, const char* end) {
  WordBlock b;
  if (end - p >= 16) [[likely]] {
    std::memcpy(&b.low, p, 8);
    std::memcpy(&b.high, p + 8, 8);
  } else {
    char bytes[16] = {};
    std::memcpy(bytes, p, n);
    std::memcpy(&b.low, bytes, 8);
    std::memcpy(&b.high, bytes + 8, 8);
  }
  b.low &= kBlockMasks.mask[n].low;
  b.high &= kBlockMasks.mask[n].high;
  return b;
}
[[gnu::always_inline]] inline std::uint64_t block_hash(WordBlock b, std::size_t n) {
  constexpr std::uint64_t k = 0x9E3779B97F4A7C15ULL;
  std::uint64_t h = (n * k ^ b.low) * k;
  h = ((h ^ (h >> 29)) ^ b.high) * k;
  h ^= h >> 29;
  return h ^ (h >> 31);
}
// The word cache's hash of a word: block_hash up to 16 bytes, hash_bytes after.
[[gnu::always_inline]] inline std::uint64_t cache_hash(std::string_view word, const char* end) {
  if (word.size() <= 16) return block_hash(word_block(word.data(), word.size(), end), word.size());
  return hash_bytes(word);
}
// Whether `e` holds the short word of `b` (its block) and `n` bytes.
[[gnu::always_inline]] inline bool holds(const ShortWord& e, WordBlock b, std::size_t n) {
  std::uint64_t low, high;
  std::memcpy(&low, e.key, 8);
  std::memcpy(&high, e.key + 8, 8);
  return ((low ^ b.low) | ((high ^ (b.high | std::uint64_t{n} << kByte14Shift)) & kKeyAndLength)) == 0;
}
constexpr std::uint8_t kInLong = 0xFE;
// 128k short entries and 32k long ones (8 MB a thread and model, on huge pages; below). A
// direct-mapped cache of 16k 128-byte entries (2 MB) missed 143.7k times on bench2.txt's 418k
// qwen3 words (85.1k distinct), these 108.2k times (replayed in Python; 64k long entries: 110.3k). bench encode, best of three
// alternating rounds against 16k long entries (2026-12-03, with the symbols written in place):
// bench.txt +20-33%, bench2.txt +9-24% on the six models. Part of it is the benchmark's rounds
// finding the corpus's rarer words from the round before: its first pass alone (first_MBps,
// cold caches) is 21-30% below the repeated rounds' rate.
// Earlier, at 16k entries: 4k were 5-9% slower on bench.txt (2026-12-03). Two ways a set with the
// less recent one replaced (same size) missed fewer repeated words on bench2.txt (qwen3 59.3k ->
// 53.8k of 137k misses, gemma3 20.9k -> 16.3k) but was no faster (bench encode, best of three:
// -1 to +1% on bench2.txt, -2 to -6% on bench.txt): dropped.
// Since 2026-12-04: 32k long entries (4 MB; 8k before): words of 15-54 bytes (and short ones with
// more than 3 ids) are much of bench2.txt's CJK, Thai and code, and 8k entries kept too few of a
// text's distinct ones. A second pass over 350 KB of bench2.txt (callgrind): llama2 41.3M -> 36.8M
// instructions, gemma3 47.2M -> 42.6M, qwen3 48.1M -> 44.5M; of bench.txt -0.8 to -2.5%; first
// passes unchanged. bench encode, best of two alternating rounds, against 8k entries: bench2.txt
// qwen3 +19%, gemma3 +10%, gptoss +12%, deepseek_v3 +8%, llama2 +2%, llama3_1 -5%; bench.txt +3
// to +25% (this machine moves a run by 10%). 16k entries gave about half the instructions' gain.
// Since 2026-12-05: 128k short entries (64k before), 4096 longer ones (1024), on huge pages and
// zeroed by the kernel (see ZeroedBlock). Gemma 3 on bench2.txt (SentencePiece: its words are
// cut before each U+2581 and around inert characters): its 55k distinct short words in 64k
// direct-mapped entries shared one with another word in more than half, and a warm pass missed
// 31k of them and 9.9k of its 18k long ones (counted in a temporary build). Instructions a warm
// pass 187.8M -> 171.0M (callgrind); `textedge bench encode`, six alternating rounds, best: 39.7
// -> 46.4 MB/s, first pass 23.2 -> 26.5 (the kernel's zeroed huge pages, not a pass writing 6 MB
// of marks at a thread's first word; docs/performance.md, eleventh session).
// Since 2026-12-06: two entries a set, the more recent first (the inline look-up reads that one;
// encode_segment both, and swaps them when it finds the second); 64k long entries (32k), 16k
// longer ones (4096), which also keep long words of more than 16 ids (byte fallback). A warm pass
// over bench2.txt's 4 KB chunks missed (counted in a temporary build), short / long words:
// llama2 18,965 / 12,398 -> 7,732 / 4,012, gemma3 19,511 / 9,939 -> 9,055 / 2,984, gptoss
// 27,027 / 5,005 -> 7,655 / 739. Two ways alone took short misses about halfway; the rest came
// from the long entries, where short words of more than 3 ids are kept too. `bench encode`,
// best of three alternating rounds, bench2.txt: qwen3 58.4 -> 68.9 MB/s, llama3_1 59.2 -> 81.6,
// gemma3 48.0 -> 58.2, deepseek_v3 53.0 -> 64.2, gptoss 63.3 -> 84.3, llama2 64.1 -> 64.6 (then
// 71-75 with encode_word's look-ups ahead, below); bench.txt +10 to +17% on the byte-level
// models, gemma3 +3%, llama2 -4% (within this machine's noise). The memory: 4 MB of short and
// 8 MB of long entries a thread and model from its first word, and the longer words' strings as
// they come (kLongerBudget).
// Then four entries a set (a word found in the second to fourth moves to the front; the inline
// look-up reads the first two, one cache line, and moves none): misses of a warm pass over
// bench2.txt, short / long, llama2 7,732 / 4,012 -> 2,680 / 2,121, gemma3 9,055 / 2,984 -> 3,243 /
// 1,249 (counted; a replay of the segments in Python gave the same). The best of six warm passes
// (a /tmp driver, three runs each): gemma3 30.1-31.1 -> 28.7-29.4 ms, llama2 25.7 ms both; `bench
// encode` qwen3 +8%. Instructions a warm pass, llama2: 143.0M -> 138.5M.
// Measured, not kept: 32 MB of short and 32 MB of long entries (four a set) made a warm pass
// llama2 25.7 -> 22.0 ms and gemma3 29 -> 24.5 ms, 6.5% fewer instructions and fewer mispredicted
// branches (callgrind --branch-sim: 1.84M -> 1.52M a pass, most of them at the first entry's
// compare and at the hash's and compare's word-length branches); 8 MB of short entries: -3 to -8%;
// 16 MB of long ones: -2%. The rest of the gap is the look-up's branches, not the memory.
constexpr std::size_t kShortSlots = 1 << 17;
constexpr std::size_t kLongSlots = 1 << 16;
constexpr std::size_t kWays = 4;  // entries a set, the most recently used first

// The set of a word's hash among `slots` entries.
template <class Entry>
Entry* set_of(Entry* entries, std::size_t slots, std::uint64_t hash) {
  return entries + (hash & (slots - kWays));
}
// The entry of `set` that holds the word (holds(entry)), moved to the front; nullptr if none.
template <class Entry, class Holds>
Entry* find_in_set(Entry* set, Holds&& holds) {
  if (holds(set[0])) return set;
  for (std::size_t w = 1; w < kWays; ++w) {
    if (!holds(set[w])) continue;
    const Entry found = set[w];
    std::memmove(set + 1, set, w * sizeof(Entry));
    set[0] = found;
    return set;
  }
  return nullptr;
}
// The front entry of `set`, for a new word: the others move back, the last is dropped.
template <class Entry>
Entry* make_room(Entry* set) {
  std::memmove(set + 1, set, (kWays - 1) * sizeof(Entry));
  return set;
}

// Words longer than a CachedWord holds, up to kLongerBytes: SentencePiece keeps an indented
// line's run of "\u2581" and its first word in one segment (llama2: "\u2581"x20 + "return", 66
// bytes), code repeats its indentation, and uncached each was merged again by an O(n^2) scan.
// Four to a set like the others; an entry keeps its strings' capacity, so a warm cache does not
// allocate; made at the first such word (see kShortSlots for the memory). Direct-mapped until
// 2026-12-06: a warm pass over bench2.txt missed 1,095 of llama2's 4,500 words kept here (longer
// ones, and long ones of more than 16 ids), four to a set 133; gemma3's longer words 363 -> 24
// (counted in a temporary build).
// HF tokenizers caches words shorter than 256 bytes (MAX_LENGTH, utils/cache.rs).
//
// Performance note (callgrind, the instructions of a second pass over the first 350 KB of each
// corpus in one process, minus the first): bench.txt llama2 31.8M -> 29.9M, gemma3 38.4M -> 36.4M,
// qwen3 32.1M -> 30.9M, llama3_1 30.1M -> 28.9M; bench2.txt (long CJK and Thai runs, cached whole
// rather than cut and looked up piece by piece) qwen3 56.3M -> 51.5M, llama3_1 50.2M -> 44.7M,
// llama2 -3%, gemma3 -2%. The first pass pays for the entries' strings: +0.5% on bench.txt, +3%
// on bench2.txt. llama2's merge_by_scan over 1 MB of bench.txt: 9.8M -> 6.2M instructions a warm
// pass (2026-12-04).
struct LongerWord {
  std::uint64_t hash = 0;
  std::string key;
  std::vector<TokenId> ids;
};
constexpr std::size_t kLongerSlots = 1 << 14;
constexpr std::size_t kLongerBytes = 512;
// What the longer entries' strings may hold (their capacity) a thread and model: a word that
// would take more replaces none. 16k words of 512 bytes and ids would otherwise hold 40 MB.
constexpr std::size_t kLongerBudget = 4 << 20;

// The short and long entries start zeroed, a length of 0 marking an unused one (no empty word is
// looked up or kept): fresh pages, so that no pass writes the 12 MB before a thread's first word.
struct ZeroedBlock {
  std::size_t bytes;
  void operator()(void* p) const noexcept { unmap_zeroed_block(p, bytes); }
};
template <class T>
using ZeroedArray = std::unique_ptr<T[], ZeroedBlock>;
template <class T>
ZeroedArray<T> zeroed_array(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t bytes = n * sizeof(T);
  return ZeroedArray<T>(static_cast<T*>(map_zeroed_block(bytes, true)), ZeroedBlock{bytes});
}

struct WordCache {
  std::uint64_t owner = 0;
  ZeroedArray<ShortWord> short_words;
  ZeroedArray<CachedWord> long_words;
  std::unique_ptr<LongerWord[]> longer_words;  // made at a first word that needs it
  std::size_t longer_bytes = 0;                // their strings' capacity (kLongerBudget)
};

// Where a word's ids go in the cache: its short entry (words up to 14 bytes), its long entry
// (words up to 54 bytes), its longer entry (up to kLongerBytes), none (longer words).
struct CacheSpot {
  ShortWord* short_set = nullptr;   // kWays entries, the most recently used first
  bool short_kept = false;          // the short entry is the word's (its ids are in the long set)
  CachedWord* long_set = nullptr;   // kWays entries, the most recently used first
  LongerWord* longer_set = nullptr;
  std::size_t* longer_bytes = nullptr;  // the cache's
};

WordCache& cache_for_slow(std::uint64_t owner) {
  // A few models per thread; the oldest is replaced when a thread uses more.
  thread_local WordCache caches[4];
  thread_local unsigned next_victim = 0;
  for (auto& c : caches)
    if (c.owner == owner) return c;
  WordCache& c = caches[next_victim++ % 4];
  c.short_words = zeroed_array<ShortWord>(kShortSlots);  // another model's words: new pages
  c.long_words = zeroed_array<CachedWord>(kLongSlots);
  if (c.longer_words)
    for (std::size_t i = 0; i < kLongerSlots; ++i) c.longer_words[i].key.clear();
  c.owner = owner;
  return c;
}

// Performance note: the caches above have destructors, so each use of them goes through the
// thread_local's initialisation wrapper (~20 instructions a word with the owner search); a plain
// pointer to the last one used needs none. Instructions of a pass over the first 350 KB of
// bench.txt, cold / warm (callgrind, 2026-12-04): llama2 42.3M / 29.9M -> 40.1M / 28.1M, qwen3
// 47.4M / 30.9M -> 45.9M / 29.3M, llama3_1 41.4M / 28.9M -> 39.9M / 27.4M, gemma3 49.0M / 36.4M ->
// 47.0M / 34.8M.
WordCache& cache_for(std::uint64_t owner) {
  thread_local WordCache* recent = nullptr;
  if (recent && recent->owner == owner) [[likely]]
    return *recent;
  recent = &cache_for_slow(owner);
  return *recent;
}


// Keeps `word`'s ids at its spot (none: the word is too long): in its short entry, else its long
// one, else (more ids than a long entry holds) its longer one.
void remember(const CacheSpot& spot, std::uint64_t hash, std::string_view word, std::span<const TokenId> ids) {
  if (ShortWord* set = spot.short_set; set && !spot.short_kept) {
    ShortWord* s = make_room(set);
    s->key_length = static_cast<std::uint8_t>(word.size());
    std::memset(s->key, 0, sizeof s->key);
    std::memcpy(s->key, word.data(), word.size());
    if (ids.size() <= std::size(s->ids)) {
      s->id_count = static_cast<std::uint8_t>(ids.size());
      std::copy(ids.begin(), ids.end(), s->ids);
      return;
    }
    s->id_count = kInLong;  // a short word has at most 14 ids: its long entry holds them
  }
  if (CachedWord* set = spot.long_set; set && ids.size() <= std::size(set->ids)) {
    CachedWord* slot = make_room(set);
    slot->hash = hash;
    slot->key_length = static_cast<std::uint8_t>(word.size());
    slot->id_count = static_cast<std::uint8_t>(ids.size());
    std::memcpy(slot->key, word.data(), word.size());
    std::copy(ids.begin(), ids.end(), slot->ids);
    return;
  }
  if (LongerWord* set = spot.longer_set) {
    LongerWord* w = set + kWays - 1;  // the least recently used, its strings kept
    auto held = [&] { return w->key.capacity() + w->ids.capacity() * sizeof(TokenId); };
    const std::size_t before = held();  // assign keeps it, or grows it
    const bool grows = w->key.capacity() < word.size() || w->ids.capacity() < ids.size();
    if (grows && *spot.longer_bytes + word.size() + ids.size_bytes() > kLongerBudget) return;  // the set as it was
    std::rotate(set, w, set + kWays);  // to the front
    w = set;
    w->hash = hash;
    w->key.assign(word);
    w->ids.assign(ids.begin(), ids.end());
    *spot.longer_bytes += held() - before;
  }
}

// The word's ids from its longer entry, appended (false: not there); `spot` is set to that entry.
bool append_if_longer(WordCache& cache, std::string_view word, std::uint64_t hash, CacheSpot& spot, std::vector<TokenId>& out) {
  if (!cache.longer_words) cache.longer_words = std::make_unique<LongerWord[]>(kLongerSlots);
  LongerWord* set = spot.longer_set = set_of(cache.longer_words.get(), kLongerSlots, hash);
  spot.longer_bytes = &cache.longer_bytes;
  for (std::size_t w = 0; w < kWays; ++w) {
    if (set[w].hash != hash || std::string_view(set[w].key) != word) continue;
    std::rotate(set, set + w, set + w + 1);  // to the front
    out.insert(out.end(), set->ids.begin(), set->ids.end());
    return true;
  }
  return false;
}

std::atomic<std::uint64_t> next_cache_owner{1};

constexpr std::string_view kMetaspace = "\xE2\x96\x81";  // U+2581

}  // namespace

namespace {

// The lists from a DOM: for documents the fast reader declined (their errors come from here,
// with paths) and for callers that hold a DOM.
void lists_from_dom(const Json& vocab, const Json& merges, BpeLists& out) {
  simdjson::dom::object vocab_object;
  if (vocab.raw().get_object().get(vocab_object)) vocab.fail("expected an object of token -> id");
  out.vocab.reserve(vocab_object.size());
  for (auto field : vocab_object) {
    std::int64_t id;
    if (field.value.get_int64().get(id)) vocab.get(field.key).fail("expected an integer token id");
    if (id < 0 || id > 0x7FFFFFFF) vocab.get(field.key).fail("token id out of range");
    out.vocab.push_back({field.key, static_cast<std::uint32_t>(id)});
  }
  simdjson::dom::array merge_list;
  if (merges.raw().get_array().get(merge_list)) merges.fail("expected an array of merges");
  out.merges.reserve(merge_list.size());
  for (simdjson::dom::element entry : merge_list) {
    auto fail = [&](const char* message) {
      throw LoadError(merges.file(), merges.path() + "[" + std::to_string(out.merges.size()) + "]", message);
    };
    std::string_view a, b;
    if (entry.is_string()) {
      std::string_view s = entry.get_string().value_unsafe();
      std::size_t space = s.find(' ');
      if (space == std::string_view::npos || s.find(' ', space + 1) != std::string_view::npos)
        fail("a merge string must be two tokens separated by one space");
      a = s.substr(0, space);
      b = s.substr(space + 1);
    } else {
      simdjson::dom::array pair;
      if (entry.get_array().get(pair) || pair.size() != 2 || pair.at(0).get_string().get(a) || pair.at(1).get_string().get(b))
        fail("a merge must be a string \"a b\" or a pair of strings");
    }
    out.merges.push_back({a, b});
  }
}

// Hash-table loops hash this many keys ahead and prefetch their slots: the tables (4-16 MB)
// do not fit in cache, and waiting for one slot at a time was most of the merge resolution.
constexpr std::size_t kAhead = 16;

}  // namespace

BpeModel BpeModel::from_json(const Json& model, bool byte_level, const BpeLists* read_lists,
                             const BesideMergeTable* beside_merge_table) {
  BpeModel m;
  m.byte_level_ = byte_level;
  m.cache_owner_ = next_cache_owner.fetch_add(1);
  if (auto dropout = model.find("dropout"); dropout && dropout->number() != 0.0)
    dropout->fail("BPE dropout is random at encode time and is not supported");
  m.ignore_merges_ = model.bool_or("ignore_merges", false);
  m.byte_fallback_ = model.bool_or("byte_fallback", false);
  m.fuse_unk_ = model.bool_or("fuse_unk", false);
  m.continuing_subword_prefix_ = model.string_or("continuing_subword_prefix", "");
  m.end_of_word_suffix_ = model.string_or("end_of_word_suffix", "");
  if (byte_level && (!m.continuing_subword_prefix_.empty() || !m.end_of_word_suffix_.empty()))
    model.fail("continuing_subword_prefix/end_of_word_suffix together with a ByteLevel pre-tokenizer is not supported");
  Json merges = model.get("merges");
  BpeLists dom_lists;
  if (!read_lists) lists_from_dom(model.get("vocab"), merges, dom_lists);
  const BpeLists& lists = read_lists ? *read_lists : dom_lists;

  // Vocabulary: the token -> id map on this thread, the id-indexed lists on the other.
  std::size_t max_id = 0, key_bytes = 0;
  for (const auto& t : lists.vocab) {
    max_id = std::max<std::size_t>(max_id, t.id);
    key_bytes += t.text.size();
  }
  if (max_id >= lists.vocab.size() + kMaxTokenIdGap)
    model.get("vocab").fail("token id " + std::to_string(max_id) + " lies too far beyond the " +
                            std::to_string(lists.vocab.size()) + " tokens (ids must stay dense)");
  std::size_t size = lists.vocab.empty() ? 0 : max_id + 1;
  BlockVector<std::string_view> tokens(size);
  // Vocabularies of plain characters (no subword prefix or suffix): bmp_ids_ holds their ids.
  const bool plain_characters = !byte_level && m.continuing_subword_prefix_.empty() && m.end_of_word_suffix_.empty();
  // Characters before a U+2581 inside a merge result (see split_before_metaspace_).
  const bool track_metaspace = plain_characters && !m.ignore_merges_;
  // The hashes of every merge's two sides, for resolving them below, made here in ranges by
  // whichever thread is done with its part first: the two parts differ by model (Llama 2's
  // token list took 0.39 ms against its table's 0.93, Llama 3.1's list with the raw bytes 4.9
  // against 3.8, timed inside a load).
  const auto& entries = lists.merges;
  ScratchArray<std::uint64_t> side_hashes(2 * entries.size());
  WorkRanges hash_ranges(entries.size(), 8192, 1024);
  auto hash_sides = [&] {
    for (std::size_t begin, end; hash_ranges.next(begin, end);)
      for (std::size_t rank = begin; rank < end; ++rank) {
        side_hashes[2 * rank] = hash_bytes(entries[rank].left);
        side_hashes[2 * rank + 1] = hash_bytes(entries[rank].right);
      }
  };
  run_in_parallel(
      size >= kParallelMinItems,
      [&] {
        const auto& v = lists.vocab;
        m.json_vocab_.reserve(v.size(), key_bytes, !byte_level && m.ignore_merges_);  // find_rare's tables
        std::uint64_t ahead[kAhead];
        for (std::size_t i = 0; i < std::min(kAhead, v.size()); ++i) m.json_vocab_.prefetch(ahead[i] = hash_bytes(v[i].text));
        for (std::size_t i = 0; i < v.size(); ++i) {
          std::uint64_t h = ahead[i % kAhead];
          if (i + kAhead < v.size()) m.json_vocab_.prefetch(ahead[i % kAhead] = hash_bytes(v[i + kAhead].text));
          m.json_vocab_.insert(v[i].text, h, v[i].id);
        }
        hash_sides();
      },
      [&] {
        m.has_token_.assign(size, false);
        for (const auto& t : lists.vocab) {
          tokens[t.id] = t.text;
          m.has_token_[t.id] = true;
        }
        m.tokens_ = StringList(tokens);
        // The raw bytes of byte-level tokens here, where the other thread's vocabulary table
        // takes longer than the token list (Llama 3.1 3.5 against 1.4 ms, DeepSeek V3 3.7-4.3
        // against 1.5, timed inside one load).
        if (byte_level) {
          std::string raw;
          m.raw_bytes_.reserve(size, key_bytes);
          for (std::size_t id = 0; id < size; ++id)
            m.raw_bytes_.push_back(alphabet_to_bytes(tokens[id], raw) ? std::string_view(raw) : std::string_view());
        }
        // The characters' ids and word splitting's tables here too, from the lists (a later
        // duplicate wins, as in the vocabulary's table): they had been made after this phase,
        // on the thread that then resolved merges later than the other (Llama 2: 0.7-0.8 ms
        // of its 1.5 ms phase, timed inside loads).
        if (plain_characters) {
          m.bmp_ids_.assign(0x10000, -1);
          for (const auto& t : lists.vocab) {
            std::string_view token = t.text;
            if (token.empty() || token.size() > 3 || static_cast<std::size_t>(utf8_length(static_cast<unsigned char>(token[0]))) != token.size()) continue;
            std::size_t i = 0;
            char32_t cp = next_code_point(token, i);
            if (cp < 0x10000 && find_invalid_utf8(token) == std::string_view::npos) m.bmp_ids_[cp] = static_cast<std::int32_t>(t.id);
          }
          // "\u2581" is one BMP character: in the vocabulary exactly when it has an id here.
          m.split_before_metaspace_ = track_metaspace && m.bmp_ids_[0x2581] >= 0;
        }
        m.prepare_word_splitting();  // reads the token list and bmp_ids_
        hash_sides();
      });
  std::fill(std::begin(m.byte_ids_), std::end(m.byte_ids_), -1);
  if (byte_level) {
    std::string alphabet_char;
    for (int b = 0; b < 256; ++b) {
      alphabet_char.clear();
      append_utf8(alphabet_char, byte_to_unicode(static_cast<unsigned char>(b)));
      if (auto id = m.json_vocab_.find(alphabet_char)) m.byte_ids_[b] = *id;
    }
  }

  std::fill(std::begin(m.byte_fallback_ids_), std::end(m.byte_fallback_ids_), -1);
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    if (auto id = m.json_vocab_.find(name)) m.byte_fallback_ids_[b] = *id;
  }
  m.finish_word_splitting();
  if (auto unk = model.find("unk_token")) {
    auto id = m.json_vocab_.find(unk->str());
    if (!id) unk->fail("unk_token \"" + std::string(unk->str()) + "\" is not in the vocabulary");
    m.unk_id_ = *id;
  }

  // Merges: rank = position. Resolving the three token ids of a merge is most of the loading
  // work; the two halves of the list are resolved at once.
  struct Resolved {
    TokenId left, right, merged;
  };
  // Every rank is written before it is read (or the load fails): left uninitialized, as zeroing
  // it was 0.12-0.16 ms of Llama 2's load on one thread between two parallel phases (timed
  // inside loads).
  ScratchArray<Resolved> resolved(entries.size());
  struct Half {
    std::size_t error_rank = SIZE_MAX;
    std::string error;
    std::vector<char32_t> no_split_after;
  };
  // The merged token is looked up by guess first: in every real file a merge's result is the
  // previous merge's or the next id (ranks follow the vocabulary, several merges making one
  // token), so its text is compared with the two sides where it lies, without building, hashing
  // and probing for it. Not when a string is in the vocabulary twice (the table holds the later
  // id, the guess could find the earlier).
  // Performance note (callgrind over `textedge info`, each thread's resolving): llama3_1 62M ->
  // 45M, llama2 13.8M -> 10.3M; with the table's inline compare (same_bytes) 40M and 9.3M.
  const bool guess_merged = m.json_vocab_.size() == lists.vocab.size();
  auto is_concatenation = [&](TokenId id, std::string_view a, std::string_view b) {
    if (id >= tokens.size()) return false;
    std::string_view t = tokens[id];
    return t.size() == a.size() + b.size() && !t.empty() && same_bytes(t.data(), a) && same_bytes(t.data() + a.size(), b);
  };
  auto resolve = [&](std::size_t begin, std::size_t end, Half& half) {
    const std::string& prefix = m.continuing_subword_prefix_;
    std::string merged;
    TokenId last = kNoToken;
    for (std::size_t base = begin; base < end; base += kAhead) {
      std::size_t n = std::min(kAhead, end - base);
      const std::uint64_t* hashes = &side_hashes[2 * base];  // left, right, left, ...
      for (std::size_t k = 0; k < 2 * n; ++k) m.json_vocab_.prefetch(hashes[k]);
      for (std::size_t j = 0; j < n; ++j) {
        std::size_t rank = base + j;
        const BpeLists::Merge& e = entries[rank];
        auto fail = [&](std::string message) {
          half.error_rank = rank;
          half.error = std::move(message);
        };
        auto a_id = m.json_vocab_.find(e.left, hashes[2 * j]);
        if (!a_id) return fail("merge token \"" + std::string(e.left) + "\" is not in the vocabulary");
        auto b_id = m.json_vocab_.find(e.right, hashes[2 * j + 1]);
        if (!b_id) return fail("merge token \"" + std::string(e.right) + "\" is not in the vocabulary");
        std::string_view b_rest = e.right;
        if (!prefix.empty() && b_rest.substr(0, prefix.size()) == prefix) b_rest.remove_prefix(prefix.size());
        TokenId merged_id;
        std::string_view merged_text;
        if (guess_merged && last != kNoToken && is_concatenation(last, e.left, b_rest)) {
          merged_id = last;
          merged_text = tokens[last];
        } else if (guess_merged && last != kNoToken && is_concatenation(last + 1, e.left, b_rest)) {
          merged_id = last + 1;
          merged_text = tokens[last + 1];
        } else {
          merged.clear();  // then append: assign's general _M_replace was ~75 instructions a merge
          merged.append(e.left);
          merged.append(b_rest);
          auto found = m.json_vocab_.find(merged);
          if (!found) return fail("merged token \"" + merged + "\" is not in the vocabulary");
          merged_id = *found;
          merged_text = merged;
        }
        last = merged_id;
        resolved[rank] = {*a_id, *b_id, merged_id};
        if (!track_metaspace) continue;
        std::string_view s = merged_text;
        for (std::size_t p = s.find(kMetaspace, 1); p != std::string_view::npos; p = s.find(kMetaspace, p + 1)) {
          std::size_t start;
          char32_t before = last_code_point(s, p, start);
          auto& list = half.no_split_after;
          if (before != 0x2581 && std::find(list.begin(), list.end(), before) == list.end()) list.push_back(before);
        }
      }
    }
  };
  // Both threads take ranges of ranks until none is left: halves by count left one thread up to
  // a fifth longer (later merges make longer tokens; Llama 3.1 5.3 against 6.5 ms, timed inside
  // a load). The error reported is the lowest rank's, as one thread in order would find.
  Half first, second;
  WorkRanges rank_ranges(entries.size(), 8192, 512);
  auto resolve_ranges = [&](Half& half) {
    for (std::size_t begin, end; rank_ranges.next(begin, end);) {
      Half part;
      resolve(begin, end, part);
      for (char32_t c : part.no_split_after)
        if (std::find(half.no_split_after.begin(), half.no_split_after.end(), c) == half.no_split_after.end())
          half.no_split_after.push_back(c);
      if (part.error_rank != SIZE_MAX) {
        if (part.error_rank < half.error_rank) half.error = std::move(part.error), half.error_rank = part.error_rank;
        return;
      }
    }
  };
  // A table that needs neither the merges nor their table, made by the first thread to take it
  // before resolving: in the next phase, beside the merge table, it had left one thread up to
  // 1.7 ms (Llama 3.1) longer (timed inside a load).
  WorkRanges tables(1, 1);
  auto make_tables = [&] {
    for (std::size_t table, end; tables.next(table, end);) {
      if (byte_level && m.ignore_merges_) {
        // Raw-bytes keys are only looked up whole (ignore_merges): the id's raw bytes made above
        // when the entry is the id's token (not a duplicate's).
        std::string raw;
        m.vocab_.reserve(lists.vocab.size(), key_bytes, true);
        for (const auto& t : lists.vocab) {
          if (!t.text.empty() && tokens[t.id].data() == t.text.data()) {
            if (std::string_view bytes = m.raw_bytes_[t.id]; !bytes.empty()) m.vocab_.insert(bytes, t.id);
          } else if (alphabet_to_bytes(t.text, raw)) {
            m.vocab_.insert(raw, t.id);
          }
        }
      }
    }
  };
  run_in_parallel(
      entries.size() >= kParallelMinItems,
      [&] {
        make_tables();
        resolve_ranges(first);
      },
      [&] {
        make_tables();
        resolve_ranges(second);
      });
  if (second.error_rank < first.error_rank) std::swap(first, second);
  for (Half* half : {&first, &second}) {
    if (half->error_rank != SIZE_MAX)
      throw LoadError(merges.file(), merges.path() + "[" + std::to_string(half->error_rank) + "]", half->error);
    for (char32_t c : half->no_split_after)
      if (std::find(m.no_split_after_.begin(), m.no_split_after_.end(), c) == m.no_split_after_.end())
        m.no_split_after_.push_back(c);
  }

  m.set_split_after_ascii();  // after the merges: they name the characters never split after
  BlockVector<std::uint32_t> first_rank_with;
  // The merge table on this thread, the per-character tables on the other; then each takes
  // ranges of token ids for the byte-level cuts until none is left (their share differs by
  // model: DeepSeek V3's vocabulary, full of CJK, makes them as long as its merge table).
  const bool cuts = m.cuts_apply();
  Cuts cut_parts[2];
  WorkRanges cut_ranges(cuts ? size : 0, 4096);
  auto take_cuts = [&](Cuts& part) {
    for (std::size_t begin, end; cut_ranges.next(begin, end);) m.add_cuts(begin, end, part);
  };
  m.merges_.reserve_filter(resolved.size());  // the table here, its filter on the other thread
  std::atomic<bool> table_filled{false};
  run_in_parallel(
      resolved.size() >= kParallelMinItems,
      [&] {
        m.merges_.reserve_slots(resolved.size());
        m.rank_count_ = static_cast<std::uint32_t>(resolved.size());
        for (std::size_t rank = 0; rank < resolved.size(); ++rank) {
          if (rank + kAhead < resolved.size()) m.merges_.prefetch(resolved[rank + kAhead].left, resolved[rank + kAhead].right);
          m.merges_.insert_slot(resolved[rank].left, resolved[rank].right, {static_cast<std::uint32_t>(rank), resolved[rank].merged});
        }
        if (byte_level) {  // for prepare_character_tokens: the lowest rank of a merge each token takes part in
          first_rank_with.assign(size, MergeMap::kNoRank);
          for (std::size_t rank = 0; rank < resolved.size(); ++rank)
            for (TokenId side : {resolved[rank].left, resolved[rank].right})
              first_rank_with[side] = std::min<std::uint32_t>(first_rank_with[side], static_cast<std::uint32_t>(rank));
        }
        take_cuts(cut_parts[0]);
        table_filled.store(true, std::memory_order_relaxed);
      },
      [&] {
        for (const Resolved& r : resolved) m.merges_.add_to_filter(r.left, r.right);
        take_cuts(cut_parts[1]);
        if (beside_merge_table) (*beside_merge_table)(m, table_filled);
      });
  m.set_cuts(cuts, cut_parts);
  m.prepare_character_tokens(first_rank_with);
  return m;
}

namespace {
// The character at p when it is a whole one (a lead byte and its continuation bytes, as
// add_cuts reads tokens) in the BMP beyond ASCII with its shortest encoding
// (so the code point names the bytes); else 0. `length`: the bytes of the unit at p either way.
char32_t cuttable_character(const unsigned char* s, std::size_t n, std::size_t p, std::size_t& length) {
  unsigned char lead = s[p];
  length = 1;
  if (lead < 0xC0) return 0;  // ASCII, or a continuation byte out of place
  std::size_t len = static_cast<std::size_t>(utf8_length(lead));
  if (len < 2 || p + len > n) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((s[p + k] & 0xC0) != 0x80) return 0;
  length = len;
  if (len == 2) {
    char32_t cp = (lead & 0x1F) << 6 | (s[p + 1] & 0x3F);
    return cp >= 0x80 ? cp : 0;
  }
  if (len == 3) {
    char32_t cp = (lead & 0x0F) << 12 | (s[p + 1] & 0x3F) << 6 | (s[p + 2] & 0x3F);
    return cp >= 0x800 ? cp : 0;
  }
  return 0;  // beyond the BMP
}

// Keys of whole characters in no_cut_after_ and no_cut_before_: the code point of ASCII and of
// cuttable_character, one key for all others (beyond the BMP, longer than needed).
constexpr std::uint32_t kOtherCharacters = 0x10000, kUnitKeys = 0x10000 + 64;
std::uint32_t unit_key(char32_t cuttable, unsigned char first) {
  return first < 0x80 ? first : cuttable ? cuttable : kOtherCharacters;
}
bool test_bit(const std::vector<std::uint64_t>& bits, std::uint32_t i) { return (bits[i >> 6] >> (i & 63)) & 1; }
}  // namespace

// Byte-level words start as bytes, and a character's bytes merge into its token by their own
// merges. A character c can start as its token T instead when nothing could tell (each shown
// beside the check): (1) BPE on c alone makes T, with merges of ranks up to r; (2) every merge
// with T on a side ranks after r; (3) in the word, no token holds a part of c with a byte
// around it (the boundary flags of the cuts). Then c's bytes only ever merge among themselves,
// as they would alone, and while they do (a pending merge ranks at most r) no merge T takes
// part in could have been chosen: the merges made are the same, c's first.
void BpeModel::prepare_character_tokens(const BlockVector<std::uint32_t>& first_rank_with) {
  char_tokens_.clear();
  if (!cut_words_ || first_rank_with.empty()) return;
  char_tokens_.assign(0x10000, kNoToken);
  // The tokens of [begin, end) that are one character made by merges alone, as (cp, id).
  auto find = [&](std::size_t begin, std::size_t end, std::vector<std::pair<char32_t, TokenId>>& found) {
    std::vector<TokenId> symbols;
    for (std::size_t id = begin; id < end; ++id) {
      std::string_view t = raw_bytes_[id];
      if (t.size() < 2 || t.size() > 3) continue;
      std::size_t length;
      char32_t cp = cuttable_character(reinterpret_cast<const unsigned char*>(t.data()), t.size(), 0, length);
      if (!cp || length != t.size()) continue;
      symbols.clear();
      for (unsigned char b : t) symbols.push_back(static_cast<TokenId>(byte_ids_[b]));
      std::uint32_t last_rank = 0;  // r
      while (symbols.size() > 1) {  // (1): two or three bytes, lowest rank first
        std::size_t best = 0;
        MergeMap::Merge m = merges_.find(symbols[0], symbols[1]);
        if (symbols.size() == 3) {
          MergeMap::Merge right = merges_.find(symbols[1], symbols[2]);
          if (right.rank < m.rank) { m = right; best = 1; }
        }
        if (m.rank == MergeMap::kNoRank) break;
        last_rank = std::max(last_rank, m.rank);
        symbols[best] = m.id;
        symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best) + 1);
      }
      if (symbols.size() == 1 && symbols[0] == id && first_rank_with[id] > last_rank)  // (1), (2)
        found.emplace_back(cp, static_cast<TokenId>(id));
    }
  };
  // Both halves at once (their merge-table look-ups miss the caches: Llama 3.1 ~0.7 ms on one
  // thread, timed inside a load), then set in id order, so that a later id wins as before.
  std::vector<std::pair<char32_t, TokenId>> low, high;
  const std::size_t middle = raw_bytes_.size() / 2;
  run_in_parallel(
      raw_bytes_.size() >= kParallelMinItems, [&] { find(0, middle, low); },
      [&] { find(middle, raw_bytes_.size(), high); });
  for (const auto* found : {&low, &high})
    for (auto [cp, id] : *found) char_tokens_[cp] = id;
}

bool BpeModel::cuts_apply() const {
  if (!byte_level_) return false;
  for (std::int64_t id : byte_ids_)
    if (id < 0) return false;  // unknown tokens' strings are not the text's bytes
  return true;
}

void BpeModel::add_cuts(std::size_t begin, std::size_t end, Cuts& part) const {
  if (part.no_cut_after.empty()) {
    part.no_cut_after.assign(kUnitKeys / 64, 0);
    part.no_cut_before.assign(kUnitKeys / 64, 0);
    part.partial_junctions.assign(0x10000 / 64, 0);
    part.held_pairs.reserve(1 << 14);
  }
  auto set = [](std::vector<std::uint64_t>& bits, std::uint32_t i) { bits[i >> 6] |= std::uint64_t{1} << (i & 63); };
  // A token's bytes as units read as next_cut reads text: whole characters (cp: their code
  // point when cuttable_character, else 0) and bytes on their own (parts: of a character the
  // token's ends cut, or out of place).
  struct Unit {
    char32_t cp;
    bool whole;
    unsigned char first, last;
  };
  for (std::size_t id = begin; id < end; ++id) {
    std::string_view t = raw_bytes_[id];
    const auto* u = reinterpret_cast<const unsigned char*>(t.data());
    std::size_t i = 0;
    while (i < t.size() && u[i] < 0x80) ++i;
    if (i == t.size() || t.size() < 2) continue;  // ASCII: nothing to record
    Unit a{};
    for (std::size_t p = 0, length; p < t.size(); p += length) {
      char32_t cp = cuttable_character(u, t.size(), p, length);
      Unit b{cp, u[p] < 0x80 || length > 1, u[p], u[p + length - 1]};
      // Between a and b, unless b continues a character (the text has no boundary there).
      if (p > 0 && (b.first & 0xC0) != 0x80) {
        if (a.whole && b.whole) {
          if (a.cp && b.cp) part.held_pairs.insert(a.cp << 16 | b.cp);
        } else if (a.whole) {
          set(part.no_cut_after, unit_key(a.cp, a.first));
        } else if (b.whole) {
          set(part.no_cut_before, unit_key(b.cp, b.first));
        } else {
          set(part.partial_junctions, std::uint32_t{a.last} << 8 | b.first);
        }
      }
      a = b;
    }
  }
}

void BpeModel::set_cuts(bool apply, Cuts (&parts)[2]) {
  cut_words_ = apply;
  if (!apply) return;
  // The parts' union: a part that took no range is empty.
  Cuts& into = parts[0].no_cut_after.empty() ? parts[1] : parts[0];
  Cuts& other = &into == &parts[0] ? parts[1] : parts[0];
  if (into.no_cut_after.empty()) {  // no tokens at all
    into.no_cut_after.assign(kUnitKeys / 64, 0);
    into.no_cut_before.assign(kUnitKeys / 64, 0);
    into.partial_junctions.assign(0x10000 / 64, 0);
  }
  if (!other.no_cut_after.empty()) {
    for (std::size_t i = 0; i < into.no_cut_after.size(); ++i) into.no_cut_after[i] |= other.no_cut_after[i];
    for (std::size_t i = 0; i < into.no_cut_before.size(); ++i) into.no_cut_before[i] |= other.no_cut_before[i];
    for (std::size_t i = 0; i < into.partial_junctions.size(); ++i) into.partial_junctions[i] |= other.partial_junctions[i];
    other.held_pairs.for_each([&](std::uint32_t pair) { into.held_pairs.insert(pair); });
  }
  no_cut_after_ = std::move(into.no_cut_after);
  no_cut_before_ = std::move(into.no_cut_before);
  partial_junctions_ = std::move(into.partial_junctions);
  held_pairs_ = std::move(into.held_pairs);
}

std::size_t BpeModel::next_cut(std::string_view word, std::size_t from) const {
  const std::size_t n = word.size();
  const auto* s = reinterpret_cast<const unsigned char*>(word.data());
  char32_t prev = 0;  // the character before p when cuttable_character, else 0
  for (std::size_t p = from, length; p < n; p += length) {
    char32_t cp = cuttable_character(s, n, p, length);
    if (prev && cp && !test_bit(no_cut_after_, prev) && !test_bit(no_cut_before_, cp) &&
        !test_bit(partial_junctions_, std::uint32_t{s[p - 1]} << 8 | s[p]) && !held_pairs_.contains(prev << 16 | cp))
      return p;
    prev = cp;
  }
  return std::string_view::npos;
}

void BpeModel::prepare_word_splitting() {
  inert_fallback_ = false;
  byte_tokens_unmerged_ = false;
  if (!split_before_metaspace_) return;
  for (int b = 0; b < 256; ++b) lead_kind_[b] = b < 0x80 ? kPlain : kLong;
  // ASCII characters side by side in some token (any merge across a boundary makes a token that
  // holds the two characters there, so where no token does, no merge crosses).
  // Only for plain character vocabularies (bmp_ids_: no subword prefix or suffix, whose symbols
  // are not the characters alone); elsewhere every pair stays "held" and nothing is cut.
  // Performance note (callgrind over one load, the helper thread): every byte pair marked in a
  // 256x256 table, one store a byte and no test, then its ASCII quarter kept: gemma3 this
  // function 38.1M -> 28.2M instructions, llama2 4.0M -> 3.0M (was a test and a store a pair).
  ascii_pairs_.assign(128 * 128, bmp_ids_.empty() ? 1 : 0);
  if (!bmp_ids_.empty()) {
    std::vector<std::uint8_t> pairs(256 * 256, 0);
    for (std::size_t id = 0; id < tokens_.size(); ++id) {  // absent ids are empty strings
      std::string_view t = tokens_[id];
      if (t.size() < 2) continue;
      const auto* s = reinterpret_cast<const unsigned char*>(t.data());
      unsigned prev = s[0];
      for (std::size_t i = 1; i < t.size(); ++i) {
        unsigned next = s[i];
        pairs[prev << 8 | next] = 1;
        prev = next;
      }
    }
    for (unsigned a = 0; a < 0x80; ++a)
      for (unsigned b = 0; b < 0x80; ++b) ascii_pairs_[a << 7 | b] = pairs[a << 8 | b];
  }
  // A character without a token of its own becomes byte or unknown tokens, whose strings the
  // pairs do not show: never cut next to one. (Tried: the same for pairs of characters beyond
  // ASCII, through a hash set: llama2 encode +6% on bench.txt, +12% on bench2.txt, gemma3 +5%,
  // +11%: most such pairs are in some token, so the look-ups rarely cut.)
  for (unsigned a = 0; a < 0x80 && !bmp_ids_.empty(); ++a) {
    if (bmp_ids_[a] >= 0) continue;
    for (unsigned b = 0; b < 0x80; ++b) ascii_pairs_[a << 7 | b] = ascii_pairs_[b << 7 | a] = 1;
  }
  if (!byte_fallback_ || bmp_ids_.empty()) return;
  // A merge with a byte token on its left (right) makes a token longer than six characters
  // that starts (ends) with "<0xHH>": when the vocabulary has none, no merge uses byte tokens.
  auto is_byte_token = [](std::string_view t) {
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); };
    return t.size() == 6 && t.substr(0, 3) == "<0x" && hex(t[3]) && hex(t[4]) && t[5] == '>';
  };
  for (std::size_t id = 0; id < tokens_.size(); ++id) {
    if (!has_token_[id]) continue;
    std::string_view t = tokens_[id];
    if (t.empty()) return;
    if (t.size() > 6 && (is_byte_token(t.substr(0, 6)) || is_byte_token(t.substr(t.size() - 6)))) return;
  }
  byte_tokens_unmerged_ = true;
}

void BpeModel::finish_word_splitting() {
  if (!byte_tokens_unmerged_) return;
  for (std::int64_t id : byte_fallback_ids_)
    if (id < 0) return;  // some byte has no token: its byte becomes unknown tokens
  inert_fallback_ = true;
  for (int b = 0; b < 0x80; ++b) {
    if (bmp_ids_[b] >= 0) continue;
    lead_kind_[b] = kInert;
  }
}

void BpeModel::set_split_after_ascii() {
  if (!split_before_metaspace_) return;
  for (char32_t c = 0; c < 0x80; ++c) split_after_ascii_[c] = may_split_after(c);
}

std::optional<TokenId> BpeModel::token_to_id(std::string_view token) const { return json_vocab_.find(token); }

// Byte-level words have at most a symbol a byte, written in place: push_back's capacity check,
// out of line, was 5% of encode's instructions (qwen3, 300 KB of bench2.txt).
std::size_t BpeModel::byte_level_symbols(std::string_view word, TokenId* out, bool character_tokens) const {
  TokenId* const first = out;
  if (character_tokens && !char_tokens_.empty()) {
    // Performance note: bench encode, best of three (2026-12-03): qwen3 +18% on bench2.txt and
    // +6% on bench.txt, deepseek_v3 +10% and +2%, gptoss +8% and +8%; instructions about the
    // same (the merges saved were the pair table's cache misses).
    const auto* s = reinterpret_cast<const unsigned char*>(word.data());
    const std::size_t n = word.size();
    std::uint32_t before = kOtherCharacters;  // the key of the character before p
    for (std::size_t p = 0, length; p < n; p += length) {
      unsigned char lead = s[p];
      if (lead < 0x80) {
        *out++ = static_cast<TokenId>(byte_ids_[lead]);
        before = lead;
        length = 1;
        continue;
      }
      char32_t cp = cuttable_character(s, n, p, length);
      TokenId t = cp ? char_tokens_[cp] : kNoToken;
      if (t != kNoToken) {  // (3): no token holds a part of cp with the byte before or after it
        std::size_t q = p + length;
        bool left = p == 0 || (!test_bit(no_cut_after_, before) && !test_bit(partial_junctions_, std::uint32_t{s[p - 1]} << 8 | lead));
        bool right = q == n || (!test_bit(partial_junctions_, std::uint32_t{s[q - 1]} << 8 | s[q]) &&
                                (s[q] & 0xC0) != 0x80 && [&] {
                                  std::size_t next_length;
                                  char32_t next = cuttable_character(s, n, q, next_length);
                                  bool whole = s[q] < 0x80 || next_length > 1;
                                  return whole && !test_bit(no_cut_before_, unit_key(next, s[q]));
                                }());
        if (left && right) {
          *out++ = t;
          before = cp;
          continue;
        }
      }
      for (std::size_t k = 0; k < length; ++k) *out++ = static_cast<TokenId>(byte_ids_[s[p + k]]);
      before = cp ? cp : kOtherCharacters;
    }
    return static_cast<std::size_t>(out - first);
  }
  for (unsigned char b : word) {
    std::int64_t id = byte_ids_[b];
    if (id >= 0) {
      *out++ = static_cast<TokenId>(id);
    } else if (unk_id_) {
      // A byte-level vocabulary missing an alphabet character: as the reference, unknown.
      if (!(fuse_unk_ && out != first && out[-1] == *unk_id_)) *out++ = *unk_id_;
    }
  }
  return static_cast<std::size_t>(out - first);
}

std::size_t BpeModel::initial_symbols(std::string_view word, std::vector<TokenId>& symbols, bool character_tokens) const {
  if (byte_level_) {  // written in place: symbols only grows
    if (symbols.size() < word.size()) symbols.resize(std::max<std::size_t>(word.size(), 256));
    return byte_level_symbols(word, symbols.data(), character_tokens);
  }
  // SentencePiece words (no subword prefix or suffix; a table gives each BMP character's token):
  // a symbol a character written in place, as byte-level words are, while every character has a
  // token of its own; at the first that has none the loop below starts over. Performance note
  // (callgrind, 300 KB of bench.txt / bench2.txt, ids the same): Gemma 3 42.8M -> 41.8M and
  // 46.0M -> 45.2M instructions, Llama 2 36.7M -> 36.1M and 39.6M -> 39.2M; bench encode on 1 MB
  // of bench.txt, four alternating rounds: Gemma 3 +2.0%, Llama 2 +0.6% (noise is ~2%).
  if (!bmp_ids_.empty() && continuing_subword_prefix_.empty() && end_of_word_suffix_.empty()) {
    if (symbols.size() < word.size()) symbols.resize(std::max<std::size_t>(word.size(), 256));
    TokenId* const first = symbols.data();
    TokenId* out = first;
    const auto* s = reinterpret_cast<const unsigned char*>(word.data());
    std::size_t i = 0;
    while (i < word.size()) {
      unsigned char lead = s[i];
      std::int32_t id;
      std::size_t length = 1;
      if (lead < 0x80) {
        id = bmp_ids_[lead];
      } else if (lead < 0xF0) {
        std::size_t j = i;
        id = bmp_ids_[next_code_point(word, j)];
        length = std::min<std::size_t>(utf8_length(lead), word.size() - i);
      } else {
        break;
      }
      if (id < 0) break;
      *out++ = static_cast<TokenId>(id);
      i += length;
    }
    if (i == word.size()) return static_cast<std::size_t>(out - first);
  }
  symbols.clear();
  // Character mode (SentencePiece-style vocabularies).
  bool pending_unk = false;  // an unknown run not yet emitted (fuse_unk)
  std::string key;
  std::size_t i = 0;
  while (i < word.size()) {
    std::size_t start = i;
    unsigned char lead = static_cast<unsigned char>(word[i]);
    i += std::min<std::size_t>(utf8_length(lead), word.size() - i);
    bool first = start == 0, last = i == word.size();
    std::int64_t id = -1;
    if (!bmp_ids_.empty() && lead < 0xF0) {
      std::size_t j = start;
      id = bmp_ids_[next_code_point(word, j)];  // -1: no such token, no need to look further
    } else {
      std::string_view ch = word.substr(start, i - start);
      std::optional<TokenId> found;
      if ((first || continuing_subword_prefix_.empty()) && (!last || end_of_word_suffix_.empty())) {
        found = json_vocab_.find(ch);
      } else {
        key.clear();
        if (!first) key += continuing_subword_prefix_;
        key += ch;
        if (last) key += end_of_word_suffix_;
        found = json_vocab_.find(key);
      }
      if (found) id = *found;
    }
    if (id >= 0) {
      if (pending_unk) { symbols.push_back(*unk_id_); pending_unk = false; }
      symbols.push_back(static_cast<TokenId>(id));
      continue;
    }
    if (byte_fallback_) {
      // The reference falls back on the bytes of the character as looked up (with any
      // prefix/suffix), and only when every byte has a token.
      std::string_view bytes = word.substr(start, i - start);
      if (!first && !continuing_subword_prefix_.empty()) { key = continuing_subword_prefix_; key += bytes; if (last) key += end_of_word_suffix_; bytes = key; }
      else if (last && !end_of_word_suffix_.empty()) { key.assign(bytes); key += end_of_word_suffix_; bytes = key; }
      bool all = true;
      for (unsigned char b : bytes) all = all && byte_fallback_ids_[b] >= 0;
      if (all) {
        if (pending_unk) { symbols.push_back(*unk_id_); pending_unk = false; }
        for (unsigned char b : bytes) symbols.push_back(static_cast<TokenId>(byte_fallback_ids_[b]));
        continue;
      }
    }
    if (unk_id_) {
      if (pending_unk && !fuse_unk_) symbols.push_back(*unk_id_);
      pending_unk = true;
    }
    // Without unk_token the character is dropped, as the reference does.
  }
  if (pending_unk) symbols.push_back(*unk_id_);
  return symbols.size();
}

// Performance note: most words are short (< 16 symbols), where a linear scan for the lowest
// rank over a small array beats a heap (no allocation, no pointer chasing); tiktoken does the
// same. Instruction counts (callgrind, 1 MB of build/corpus/bench.txt, llama2): raising the
// scan limit from 48 to 128 symbols saved 2.4%, a limit of 16 or 24 cost more than it saved.
// Rejected: one int32 key per pair (rank * 128 + position) with a vectorised minimum and
// linked symbols instead of memmove: 18% fewer instructions in this function, but 10-15%
// slower in thread CPU time on bench.txt chunks (llama2 and gemma3, three runs each).
std::size_t BpeModel::merge_by_scan(TokenId* symbols, std::size_t n) const {
  if (n < 2) return n;
  MergeMap::Merge pairs[kScanLimit];
  // No prefetch of the pairs' slots ahead: with MergeMap's filter GCC dropped the loop that asked
  // for them (its prefetches depended on the filter's loads), and forced back (an asm prefetch) it
  // cost 1-19% on bench2.txt and up to 10% on bench.txt (best of four, 2026-12-04). Before the
  // filter it had paid 1-4% on bench2.txt.
  for (std::size_t i = 0; i + 1 < n; ++i) pairs[i] = merges_.find(symbols[i], symbols[i + 1]);
  while (n > 1) {
    std::size_t best = 0;
    std::uint32_t best_rank = pairs[0].rank;
    for (std::size_t i = 1; i + 1 < n; ++i)
      if (pairs[i].rank < best_rank) { best_rank = pairs[i].rank; best = i; }
    if (best_rank == MergeMap::kNoRank) break;
    symbols[best] = pairs[best].id;
    // Remove symbol best+1 and pair best+1.
    for (std::size_t i = best + 1; i + 1 < n; ++i) symbols[i] = symbols[i + 1];
    for (std::size_t i = best + 1; i + 2 < n; ++i) pairs[i] = pairs[i + 1];
    --n;
    if (best > 0) pairs[best - 1] = merges_.find(symbols[best - 1], symbols[best]);
    if (best + 1 < n) pairs[best] = merges_.find(symbols[best], symbols[best + 1]);
  }
  return n;
}

void BpeModel::merge_by_heap(std::vector<TokenId>& symbols) const {
  const std::size_t n = symbols.size();
  if (n < 2) return;
  struct Node { std::int32_t prev, next; };
  struct Candidate {
    std::uint32_t rank, pos, id;
    bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };
  // Reused across calls: long words are common in SentencePiece text (CJK runs, code).
  thread_local std::vector<Node> links;
  thread_local std::vector<std::uint8_t> alive;
  thread_local std::vector<Candidate> heap;
  links.resize(n);
  alive.assign(n, 1);
  heap.clear();
  for (std::size_t i = 0; i < n; ++i) links[i] = {static_cast<std::int32_t>(i) - 1, i + 1 < n ? static_cast<std::int32_t>(i + 1) : -1};
  auto push = [&](Candidate c) { heap.push_back(c); std::push_heap(heap.begin(), heap.end(), std::greater<>()); };
  for (std::size_t i = 0; i + 1 < n; ++i) {
    auto m = merges_.find(symbols[i], symbols[i + 1]);
    if (m.rank != MergeMap::kNoRank) heap.push_back({m.rank, static_cast<std::uint32_t>(i), m.id});
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    Candidate top = heap.back();
    heap.pop_back();
    std::uint32_t pos = top.pos;
    if (!alive[pos] || links[pos].next < 0) continue;
    std::uint32_t right = static_cast<std::uint32_t>(links[pos].next);
    // Stale entry: the pair at pos changed since it was queued.
    auto current = merges_.find(symbols[pos], symbols[right]);
    if (current.rank != top.rank || current.id != top.id) continue;
    symbols[pos] = top.id;
    alive[right] = 0;
    links[pos].next = links[right].next;
    if (links[right].next >= 0) links[links[right].next].prev = static_cast<std::int32_t>(pos);
    if (links[pos].prev >= 0) {
      auto p = static_cast<std::uint32_t>(links[pos].prev);
      auto m = merges_.find(symbols[p], symbols[pos]);
      if (m.rank != MergeMap::kNoRank) push({m.rank, p, m.id});
    }
    if (links[pos].next >= 0) {
      auto m = merges_.find(symbols[pos], symbols[links[pos].next]);
      if (m.rank != MergeMap::kNoRank) push({m.rank, pos, m.id});
    }
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (alive[i]) symbols[out++] = symbols[i];
  symbols.resize(out);
}

void BpeModel::merge_by_queue(std::vector<TokenId>& symbols) const {
  const std::size_t n = symbols.size();
  if (n < 2) return;
  constexpr TokenId kDead = 0xFFFFFFFFu;  // no token has this id
  // Symbol and links side by side: a merge at a far position then costs one cache miss.
  struct Node {
    TokenId symbol;
    std::int32_t prev, next;
  };
  thread_local MergeQueue queue;
  thread_local HugeVector<Node> nodes;
  queue.start(rank_count_);
  nodes.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    nodes[i] = {symbols[i], static_cast<std::int32_t>(i) - 1, i + 1 < n ? static_cast<std::int32_t>(i + 1) : -1};
  for (std::size_t i = 0; i + 1 < n; ++i) {
    auto m = merges_.find(symbols[i], symbols[i + 1]);
    if (m.rank != MergeMap::kNoRank) queue.push(m.rank, static_cast<std::uint32_t>(i), {symbols[i], symbols[i + 1], m.id});
  }
  std::uint32_t rank, pos;
  while (queue.pop(rank, pos)) {
    const MergeQueue::Pair pair = queue.pair(rank);
    // Stale candidates: the symbol at pos or its right neighbour changed (or died) since.
    Node& node = nodes[pos];
    if (node.symbol != pair.left || node.next < 0) continue;
    Node& right = nodes[node.next];
    if (right.symbol != pair.right) continue;
    node.symbol = pair.merged;
    right.symbol = kDead;
    std::int32_t after = right.next;
    node.next = after;
    if (after >= 0) nodes[after].prev = static_cast<std::int32_t>(pos);
    if (node.prev >= 0) {
      TokenId before = nodes[node.prev].symbol;
      auto m = merges_.find(before, pair.merged);
      if (m.rank != MergeMap::kNoRank) queue.push(m.rank, static_cast<std::uint32_t>(node.prev), {before, pair.merged, m.id});
    }
    if (after >= 0) {
      TokenId next = nodes[after].symbol;
      auto m = merges_.find(pair.merged, next);
      if (m.rank != MergeMap::kNoRank) queue.push(m.rank, pos, {pair.merged, next, m.id});
    }
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (nodes[i].symbol != kDead) symbols[out++] = nodes[i].symbol;
  symbols.resize(out);
}

bool BpeModel::may_split_after(char32_t c) const {
  if (c == 0x2581) return false;
  if (std::find(no_split_after_.begin(), no_split_after_.end(), c) != no_split_after_.end()) return false;
  // A character without its own token becomes byte-fallback or unknown tokens, whose strings
  // ("<0xE2>", "<unk>") a merge might continue; only split after characters the vocabulary has.
  if (c < 0x10000 && !bmp_ids_.empty()) return bmp_ids_[c] >= 0;
  std::string s;
  append_utf8(s, c);
  return json_vocab_.find(s).has_value();
}

// Performance note: the hit path of encode_segment inline at its callers (most words hit): a call
// into encode_segment paid for its prologue and its miss path's registers (~20 instructions a
// word). A warm pass over 350 KB of bench.txt (callgrind, 2026-12-04): qwen3 25.7M -> 23.9M
// instructions, llama3_1 23.9M -> 22.0M, deepseek_v3 28.6M -> 26.8M, gptoss 29.0M -> 27.1M,
// llama2 23.2M -> 22.6M, gemma3 29.6M -> 28.8M; of bench2.txt -3% (byte-level) to +0.3%
// (SentencePiece: its misses look twice), first passes -3% to +1.6%. Not kept: encode_segment's
// misses in a function of their own, so that its hits would be cheap to call (-0.5%); this check
// and encode_segment's sharing one helper (+5-8%: GCC then kept emplace_back a call, as it keeps
// push_back and insert; a wrapper around push_back kept the call too, +2%).
namespace {

// A whole word's (not a piece's) ids from the short entries of the word cache, appended: false
// when they are not there (then encode_segment). The word as its block of n bytes and its
// block_hash, or as its bytes (below). `short_words`: the calling thread's for this model
// (cache_for), read once by the caller rather than at each word (~11 instructions a word).
[[gnu::always_inline]] inline bool append_if_cached(const ShortWord* short_words, WordBlock b, std::size_t n,
                                                    std::uint64_t hash, std::vector<TokenId>& out) {
  const ShortWord* set = set_of(short_words, kShortSlots, hash);
  // The set's first two entries (one cache line), the second left where it is.
  const ShortWord* s = set;
  if (!holds(*s, b, n)) {
    s = set + 1;
    if (!holds(*s, b, n)) return false;
  }
  if (s->id_count == kInLong) return false;
  for (std::uint8_t k = 0; k < s->id_count; ++k) out.emplace_back(s->ids[k]);
  return true;
}

// `end`: where the readable bytes after the word end (its block is read 16 bytes at a time).
[[gnu::always_inline]] inline bool append_if_cached(const ShortWord* short_words, std::string_view word,
                                                    const char* end, std::vector<TokenId>& out) {
  if (word.size() - 1 >= sizeof(ShortWord::key)) return false;  // empty (as an unused entry) or long
  const WordBlock b = word_block(word.data(), word.size(), end);
  return append_if_cached(short_words, b, word.size(), block_hash(b, word.size()), out);
}

}  // namespace

std::size_t BpeModel::encode_matches(std::string_view text, std::size_t previous, const PatternMatch* matches,
                                     std::size_t n, std::vector<TokenId>& out) const {
  const char* s = text.data();
  const ShortWord* short_words = cache_for(cache_owner_).short_words.get();
  for (std::size_t k = 0; k < n; ++k) {
    const PatternMatch m = matches[k];
    if (m.begin > previous) encode_word(std::string_view(s + previous, m.begin - previous), out);
    std::string_view word(s + m.begin, m.end - m.begin);
    if (split_before_metaspace_) encode_word(word, out);
    else if (!append_if_cached(short_words, word, text.data() + text.size(), out)) encode_segment(word, out, ignore_merges_);
    previous = m.end;
  }
  return previous;
}

void BpeModel::encode_word(std::string_view word, std::vector<TokenId>& out) const {
  if (!split_before_metaspace_) {
    if (!append_if_cached(cache_for(cache_owner_).short_words.get(), word, word.data() + word.size(), out))
      encode_segment(word, out, ignore_merges_);
    return;
  }
  if (ignore_merges_) {  // the whole word, before its pieces
    if (auto id = (byte_level_ ? vocab_ : json_vocab_).find(word)) {
      out.push_back(*id);
      return;
    }
  }
  // Cut before a U+2581 that may follow the character before it, around runs of inert
  // characters, and between two ASCII characters that no token holds side by side. Runs of
  // U+2581 stay whole (merges join them).
  //
  // Performance note: "▁" after an ASCII character is decided by one table look-up (callgrind,
  // llama2, 1 MB of bench.txt: 22M instructions with a byte loop and a call per "▁", 15M then).
  // Cutting at ASCII pairs no token holds costs a table look-up per byte (plain ASCII was skipped 8
  // bytes at a time before) and pays many times over: segments of code without spaces missed the
  // word cache and went through the quadratic merge (300 KB of bench.txt: llama2 encode 48.9M ->
  // 39.6M instructions, gemma3 55.9M -> 45.3M; of bench2.txt 51.6M -> 42.8M and 56.1M -> 48.9M).
  // Also cutting around "isolated" characters (a token, never next to a different character in
  // any token: most CJK, Gemma 3's "\n") cost llama2 1.4% more and did not help Gemma 3, whose
  // newlines are added tokens.
  std::size_t start = 0, p = 0;
  bool prev_inert = false;
  const std::size_t n = word.size();
  const char* s = word.data();
  // Segments wait in a ring of kAhead, hashed and their cache entries prefetched, before they
  // are looked up in order.
  // Performance note: a look-up waited on its entry (perf annotate: 65% of the cut's samples
  // on the load of its length; 12 MB of entries a thread, most of a warm pass's lines from L3 or
  // memory). `bench encode` on bench2.txt, best of four or five alternating rounds: llama2
  // 64.6 -> 68.4 MB/s, gemma3 53.0 -> 60.7 with short entries prefetched; long ones too (words
  // of 15-54 bytes, most Cyrillic and Greek words here) llama2 70.8 -> 74.9, gemma3 unchanged.
  struct Waiting {
    std::size_t start, size;
    std::uint64_t hash;
    WordBlock block;  // up to 16 bytes
  };
  constexpr unsigned kAhead = 8;
  Waiting waiting[kAhead];
  unsigned first = 0, count = 0;
  const WordCache& cache = cache_for(cache_owner_);
  auto look_up_first = [&] {
    const Waiting& w = waiting[first];
    std::string_view segment(s + w.start, w.size);
    if (w.size - 1 >= sizeof(CachedWord::key)) encode_segment(segment, out);
    else if (w.size > sizeof(ShortWord::key) || !append_if_cached(cache.short_words.get(), w.block, w.size, w.hash, out))
      encode_segment(segment, out, false, false, &w.hash);
    first = (first + 1) & (kAhead - 1);
    --count;
  };
  // Inlined at its four call sites (GCC kept it a call; the GNU spelling: a [[gnu::]] attribute
  // there would name the lambda's type): llama2's warm pass over bench2.txt 129.1M -> 123.2M
  // instructions, gemma3's 158.8M -> 154.7M (callgrind); the best of six warm passes, three
  // alternating runs, llama2 20.3-22.4 -> 19.5-21.4 ms, gemma3 unchanged. look_up_first inlined
  // too: llama2 125.2M, gemma3 147.7M, no faster.
  auto cut = [&](std::size_t at) __attribute__((always_inline)) {
    if (count == kAhead) look_up_first();
    const std::size_t size = at - start;
    std::uint64_t hash = 0;
    WordBlock block{};
    if (size - 1 < sizeof(CachedWord::key)) {
      if (size <= 16) {
        block = word_block(s + start, size, s + n);
        hash = block_hash(block, size);
      } else {
        hash = hash_bytes(std::string_view(s + start, size));
      }
      if (size <= sizeof(ShortWord::key)) {
        __builtin_prefetch(set_of(cache.short_words.get(), kShortSlots, hash));
      } else {
        const char* first_entry = reinterpret_cast<const char*>(set_of(cache.long_words.get(), kLongSlots, hash));
        __builtin_prefetch(first_entry);  // its key
        __builtin_prefetch(first_entry + 64);  // its ids
      }
    }
    waiting[(first + count) & (kAhead - 1)] = Waiting{start, size, hash, block};
    ++count;
    start = at;
  };
  while (p < n) {
    std::size_t from = p;
    // A run of plain ASCII, cut between two characters no token holds side by side (code:
    // "x=f(a,b);" has few spaces, and long segments miss the word cache and merge slowly).
    if (p < n && lead_kind_[static_cast<unsigned char>(s[p])] == kPlain) {
      unsigned previous = static_cast<unsigned char>(s[p++]);
      for (; p < n; ++p) {
        unsigned b = static_cast<unsigned char>(s[p]);
        if (lead_kind_[b] != kPlain) break;
        if (!ascii_pairs_[previous << 7 | b]) cut(p);
        previous = b;
      }
    }
    if (p != from) prev_inert = false;
    if (p == n) break;
    std::size_t at = p;
    unsigned char lead = static_cast<unsigned char>(s[p]);
    if (lead_kind_[lead] == kInert) {
      ++p;
      if (at > start && !prev_inert) cut(at);
      prev_inert = true;
      continue;
    }
    if (lead == 0xE2 && p + 2 < n && s[p + 1] == '\x96' && s[p + 2] == '\x81') {  // U+2581
      p += 3;
      if (at == start) {
      } else if (prev_inert) {
        cut(at);
      } else if (unsigned char before = static_cast<unsigned char>(s[at - 1]); before < 0x80) {
        if (split_after_ascii_[before]) cut(at);
      } else {
        std::size_t before_start;
        if (may_split_after(last_code_point(word, at, before_start))) cut(at);
      }
      prev_inert = false;
      continue;
    }
    char32_t c = next_code_point(word, p);
    bool inert = inert_fallback_ && c < 0x10000 && bmp_ids_[c] < 0;
    if (at > start && inert != prev_inert) cut(at);
    prev_inert = inert;
  }
  cut(n);
  while (count > 0) look_up_first();
}

// Performance note: with ignore_merges the word cache is read before the vocabulary (it holds
// the same one id for a word that is a token) and the look-up reuses the cache's hash: llama3_1,
// 300 KB of bench.txt, 40.9M -> 40.3M instructions (a vocabulary probe per word, then a second hash
// for the cache, before).
void BpeModel::encode_segment(std::string_view word, std::vector<TokenId>& out, bool whole_word_first, bool piece,
                              const std::uint64_t* known_hash) const {
  CacheSpot slot;
  std::uint64_t hash = 0;
  if (word.size() - 1 < sizeof(CachedWord::key)) {  // not empty (as an unused entry)
    hash = known_hash ? *known_hash : cache_hash(word, word.data() + word.size());
    if (piece && ignore_merges_) hash = ~hash;  // pieces apart from whole words: see the header
    WordCache& cache = cache_for(cache_owner_);
    bool long_look = true;
    if (word.size() <= sizeof(ShortWord::key)) {
      ShortWord* set = slot.short_set = set_of(cache.short_words.get(), kShortSlots, hash);
      const WordBlock b = word_block(word.data(), word.size(), word.data() + word.size());
      ShortWord* s = find_in_set(set, [&](const ShortWord& e) { return holds(e, b, word.size()); });
      long_look = slot.short_kept = s != nullptr;
      if (long_look && s->id_count != kInLong) {
        if (s->id_count == 1)  // most words
          out.emplace_back(s->ids[0]);  // GCC inlines this, not push_back: llama2 -4.6% a warm pass
        else
          for (std::uint8_t k = 0; k < s->id_count; ++k) out.emplace_back(s->ids[k]);  // at most 3
        return;
      }
    }
    CachedWord* set = slot.long_set = set_of(cache.long_words.get(), kLongSlots, hash);
    auto holds = [&](const CachedWord& e) { return e.key_length == word.size() && e.hash == hash && same_bytes(e.key, word); };
    if (long_look) {
      if (const CachedWord* l = find_in_set(set, holds)) {
        // A loop GCC inlines: insert is a call to _M_range_insert, ~75 instructions.
        for (std::uint8_t k = 0; k < l->id_count; ++k) out.emplace_back(l->ids[k]);
        return;
      }
    }
    // A word of more ids than a long entry holds (byte fallback: "▁" and six unknown CJK
    // characters are 19 ids) is kept among the longer ones.
    if (word.size() > sizeof(ShortWord::key) && append_if_longer(cache, word, hash, slot, out)) return;
  } else if (word.size() - 1 < kLongerBytes) {
    hash = hash_bytes(word);
    if (piece && ignore_merges_) hash = ~hash;
    if (append_if_longer(cache_for(cache_owner_), word, hash, slot, out)) return;
  } else if (whole_word_first) {
    hash = hash_bytes(word);
  }
  thread_local std::vector<TokenId> symbols;
  if (whole_word_first) {
    // The vocabulary's hash is the cache's beyond 16 bytes (a piece's, ~hash, is never looked up).
    const std::uint64_t vocab_hash = word.size() <= 16 ? hash_bytes(word) : hash;
    if (auto id = (byte_level_ ? vocab_ : json_vocab_).find_rare(word, vocab_hash)) {
      TokenId one = *id;
      remember(slot, hash, word, {&one, 1});
      out.push_back(one);
      return;
    }
  }
  // Long words of byte-level vocabularies (CJK and Thai runs) are cut where no merge can cross
  // (add_cuts), so their pieces hit the word cache and merge in short scans.
  //
  // Performance note: bench encode on bench2.txt, one thread, best of three alternating rounds
  // (2026-12-03, fuzzers stopped): qwen3 23.1 -> 27.7 MB/s, deepseek_v3 22.6 -> 26.8, gptoss
  // 18.4 -> 21.1, llama3_1 21.5 -> 23.9; bench.txt unchanged (its words are short). Instructions
  // fell only 3% (qwen3, 300 KB of bench2.txt): the long words' merges had been cache misses on
  // pairs of rare characters. Load: ~17M instructions on the loader's second thread (qwen3),
  // beside the merge table. A word under 16 bytes is not looked at (most hit the cache first).
  // Tried: the same for SentencePiece segments (cut between two characters with tokens of their
  // own that no token holds side by side): gemma3 -6% and llama2 -5% on bench2.txt, -3-5% on
  // bench.txt (Gemma 3's 262k tokens hold most CJK pairs: the look-ups rarely cut).
  if (cut_words_ && !piece && word.size() >= kCutFrom) {
    std::size_t at = next_cut(word, 0);
    if (at != std::string_view::npos) {
      std::size_t before = out.size();
      for (std::size_t start = 0; start < word.size();) {
        std::size_t end = at == std::string_view::npos ? word.size() : at;
        encode_segment(word.substr(start, end - start), out, false, true);
        start = end;
        if (start < word.size()) at = next_cut(word, start);
      }
      remember(slot, hash, word, {out.data() + before, out.size() - before});
      return;
    }
  }
  std::size_t n = initial_symbols(word, symbols);  // the first n of symbols
  if (n <= kScanLimit) {
    n = merge_by_scan(symbols.data(), n);
  } else {
    symbols.resize(n);
    if (n <= kHeapLimit) merge_by_heap(symbols);
    else merge_by_queue(symbols);
    n = symbols.size();
  }
  out.insert(out.end(), symbols.data(), symbols.data() + n);
  remember(slot, hash, word, {symbols.data(), n});
}


void BpeModel::encode_word_with_queue(std::string_view word, std::vector<TokenId>& out) const {
  std::vector<TokenId> symbols;
  symbols.resize(initial_symbols(word, symbols, false));
  merge_by_queue(symbols);
  out.insert(out.end(), symbols.begin(), symbols.end());
}

void BpeModel::encode_word_with_heap(std::string_view word, std::vector<TokenId>& out) const {
  std::vector<TokenId> symbols;
  symbols.resize(initial_symbols(word, symbols, false));
  merge_by_heap(symbols);
  out.insert(out.end(), symbols.begin(), symbols.end());
}

}  // namespace textedge::detail
