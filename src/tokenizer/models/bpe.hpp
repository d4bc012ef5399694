// The BPE model: turns one pre-tokenized word into token ids by applying merges in rank order,
// exactly as Hugging Face's BPE does (lowest rank first, leftmost first among equal ranks).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/function_ref.hpp"
#include "base/hash_tables.hpp"
#include "base/json_dom.hpp"
#include "base/string_list.hpp"
#include "textedge/tokenizer.hpp"
#include "tokenizer/pre_tokenizers/known_patterns.hpp"

namespace textedge::detail {

struct BpeLists;

// Ids index textedge's per-id tables, so a tokenizer's ids must stay dense: the largest may lie at
// most this far beyond the number of tokens (a small hostile file could otherwise ask for
// gigabytes; the reference keeps ids in hash maps and has no such limit).
inline constexpr std::size_t kMaxTokenIdGap = std::size_t{1} << 20;

class BpeModel {
 public:
  // `byte_level`: the pre-tokenizer is ByteLevel, so words arrive as raw bytes and each byte
  // stands for its GPT-2 alphabet character. The vocabulary is then keyed by raw bytes.
  // `lists`: vocab and merges already read by read_bpe_lists (model's own are then empty).
  // Work for the loader's second thread while the first fills the merge table (the second's share
  // of that phase, the table's filter and the cuts, is often shorter): called with the model as
  // built so far (its tokens and raw bytes are final, its merges are not) and a flag that turns
  // true when the table is filled, only when the merges are many enough to load on two threads.
  using BesideMergeTable = FunctionRef<void(const BpeModel& so_far, const std::atomic<bool>& table_filled)>;
  static BpeModel from_json(const Json& model, bool byte_level, const BpeLists* lists = nullptr,
                            const BesideMergeTable* beside_merge_table = nullptr);

  // Appends the ids of `word` (non-empty) to `out`.
  void encode_word(std::string_view word, std::vector<TokenId>& out) const;
  // The words of `text` a pre-tokenizer's finder matched (and the text between them, from
  // `previous` on), encoded in order; returns the last match's end.
  std::size_t encode_matches(std::string_view text, std::size_t previous, const PatternMatch* matches, std::size_t n,
                             std::vector<TokenId>& out) const;

  // Largest model id + 1.
  std::size_t vocab_size() const { return tokens_.size(); }
  // The token as written in tokenizer.json (GPT-2 alphabet for byte-level vocabularies);
  // nullptr for ids the model does not have.
  std::optional<std::string_view> token(TokenId id) const {
    if (id < tokens_.size() && has_token_[id]) return tokens_[id];
    return std::nullopt;
  }
  std::optional<TokenId> token_to_id(std::string_view token) const;
  bool byte_level() const { return byte_level_; }
  // Raw bytes of a token of a byte-level vocabulary ("" when not byte-level or absent).
  std::string_view raw_bytes(TokenId id) const {
    return raw_bytes_[id];
  }

  // Words with at most this many initial symbols use the quadratic scan; longer ones the
  // heap. Exposed so tests can check that both give the same result.
  static constexpr std::size_t kScanLimit = 128;
  // Byte-level words of at least this many bytes are cut where no merge can cross.
  static constexpr std::size_t kCutFrom = 16;
  // The whole word (no cache, no splitting) by one strategy, for tests.
  void encode_word_with_heap(std::string_view word, std::vector<TokenId>& out) const;
  void encode_word_with_queue(std::string_view word, std::vector<TokenId>& out) const;

 private:
  // Fills `symbols` with the initial symbols of `word` (characters or bytes; byte fallback;
  // unknown handling).
  // `character_tokens`: byte-level characters may start as their tokens (char_tokens_); the
  // test strategies (encode_word_with_heap, _with_queue) start from bytes, as the reference.
  // Returns how many: the first ones of `symbols`, which for byte-level words only grows (they are
  // written in place).
  std::size_t initial_symbols(std::string_view word, std::vector<TokenId>& symbols, bool character_tokens = true) const;
  // Byte-level: the initial symbols of `word` written at `out` (room for word.size()): how many.
  std::size_t byte_level_symbols(std::string_view word, TokenId* out, bool character_tokens) const;
  // `whole_word_first` (ignore_merges): a segment that is a token is that token.
  // `piece`: a piece of a word cut by next_cut (with ignore_merges, kept apart in the word cache
  // from whole words, which a token of the same bytes would end).
  // `known_hash`: the word cache's hash of the segment (bpe.cpp: cache_hash), when the caller has it.
  void encode_segment(std::string_view segment, std::vector<TokenId>& out, bool whole_word_first = false,
                      bool piece = false, const std::uint64_t* known_hash = nullptr) const;
  // SentencePiece texts arrive as one long word; see split_before_metaspace_.
  bool may_split_after(char32_t c) const;
  // The n symbols at `symbols` merged in place: how many remain.
  std::size_t merge_by_scan(TokenId* symbols, std::size_t n) const;
  // Words up to kHeapLimit symbols: a binary heap, O(n log n) but within L1/L2. The bucket
  // queue touches one entry of a rank-indexed table per candidate (12 MB for Gemma 3): on
  // words of a few hundred symbols those cache misses made Gemma 3 encode 20% slower.
  static constexpr std::size_t kHeapLimit = 4096;
  void merge_by_heap(std::vector<TokenId>& symbols) const;
  // Long words: O(1) amortised per merge (see merge_queue.hpp).
  void merge_by_queue(std::vector<TokenId>& symbols) const;

  // Identifies this model in the per-thread word caches.
  std::uint64_t cache_owner_ = 0;
  bool byte_level_ = false;
  bool ignore_merges_ = false;
  bool byte_fallback_ = false;
  bool fuse_unk_ = false;
  std::optional<TokenId> unk_id_;
  // When no merge can create a token with some character X followed by U+2581, BPE never
  // merges across such a boundary, so a word can be encoded piece by piece, split before each
  // U+2581 that follows another character (each piece then hits the word cache). Checked at
  // load time against the merges; characters that do precede U+2581 in some merge result are
  // listed in no_split_after_ (Gemma 3 merges ">" with "▁</").
  bool split_before_metaspace_ = false;
  std::vector<char32_t> no_split_after_;
  // Byte-fallback tokens are never a side of a merge (and every byte has one), so a BMP
  // character without a token of its own ("\n" in Llama 2, CJK characters it lacks) is inert:
  // no merge crosses either side of it, and words are also cut around runs of such characters.
  bool inert_fallback_ = false;
  // First byte of a character -> kPlain (ASCII, not inert), kInert (ASCII, inert) or kLong.
  enum : std::uint8_t { kPlain, kInert, kLong };
  std::uint8_t lead_kind_[256] = {};
  bool split_after_ascii_[128] = {};  // may_split_after for ASCII characters
  std::vector<std::uint8_t> ascii_pairs_;  // [a * 128 + b]: some token holds "ab" (a byte each: one load)
  bool byte_tokens_unmerged_ = false;  // no merge result starts or ends with a byte token
  void prepare_word_splitting();
  void finish_word_splitting();  // once byte_fallback_ids_ is known
  void set_split_after_ascii();  // the rest of it, once no_split_after_ is known
  // Byte-level vocabularies: a word is cut between two BMP characters beyond ASCII, A then B,
  // where no token holds bytes across that boundary (any merge across it would make one), so
  // BPE on the pieces is BPE on the word. A token holds A's end and B's start as the two whole
  // characters (held_pairs_), as A and a part of B (no_cut_after_), as a part of A and B
  // (no_cut_before_), or as parts of both (partial_junctions_: A's last byte, B's first).
  bool cut_words_ = false;
  std::vector<std::uint64_t> no_cut_after_, no_cut_before_;  // bitsets over the BMP
  std::vector<std::uint64_t> partial_junctions_;              // bitset over byte pairs
  U32Set held_pairs_;                                         // A << 16 | B
  // The tables above, made by both loading threads over ranges of token ids and merged.
  struct Cuts {
    std::vector<std::uint64_t> no_cut_after, no_cut_before, partial_junctions;
    U32Set held_pairs;
  };
  bool cuts_apply() const;                                   // byte-level, every byte a token
  void add_cuts(std::size_t begin, std::size_t end, Cuts& part) const;  // tokens [begin, end)
  void set_cuts(bool apply, Cuts (&parts)[2]);
  // Byte-level: BMP character -> the token it may start as (kNoToken: its bytes); see
  // prepare_character_tokens. Empty without the cut tables.
  static constexpr TokenId kNoToken = 0xFFFFFFFFu;
  BlockVector<TokenId> char_tokens_;
  void prepare_character_tokens(const BlockVector<std::uint32_t>& first_rank_with);
  // Where `word` may first be cut after `from` (npos: nowhere).
  std::size_t next_cut(std::string_view word, std::size_t from) const;
  std::string continuing_subword_prefix_;
  std::string end_of_word_suffix_;

  StringIdMap vocab_;          // raw bytes -> id (only byte-level with ignore_merges_)
  StringIdMap json_vocab_;     // token as in tokenizer.json -> id
  MergeMap merges_;
  std::uint32_t rank_count_ = 0;  // ranks are below this
  StringList tokens_;     // id -> token as in tokenizer.json
  std::vector<bool> has_token_;
  StringList raw_bytes_;  // byte-level only: id -> raw bytes
  std::int64_t byte_ids_[256];          // byte-level: byte -> id of its alphabet character (-1: none)
  // Char mode without prefix/suffix: code point below U+10000 -> id of its one-character token
  // (-1: none). Saves a hash lookup per character (every SentencePiece word starts with U+2581).
  BlockVector<std::int32_t> bmp_ids_;
  std::int64_t byte_fallback_ids_[256]; // "<0xNN>" -> id (-1: none)
};

}  // namespace textedge::detail
