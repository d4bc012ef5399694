// textedge::Tokenizer: Hugging Face tokenizer.json (BPE family), id-exact with `tokenizers`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/error.hpp"

namespace textedge {

using TokenId = std::uint32_t;

struct EncodeOptions {
  // Run the post-processor (e.g. prepend <bos>). Off by default, as for rendered chat prompts
  // whose template already wrote the special tokens.
  bool add_special_tokens = false;
  // Text that is not valid UTF-8 is refused with InputError; with this on, each invalid
  // sequence is replaced by U+FFFD instead (as Python's errors="replace" does).
  bool lossy_utf8 = false;
};

struct DecodeOptions {
  bool skip_special_tokens = false;
};

struct SpecialToken {
  std::string content;
  TokenId id;
  bool special;  // false for added tokens that are not special ("normalized" user tokens)
};

// A short description of a loaded tokenizer (what `textedge info` prints).
struct TokenizerInfo {
  std::string model_type;                 // "BPE"
  std::size_t vocab_size = 0;             // model vocabulary plus added tokens
  std::vector<SpecialToken> added_tokens;
  std::string normalizer;                 // component tree, e.g. "Sequence[Prepend, Replace]"
  std::string pre_tokenizer;
  std::string post_processor;
  std::string decoder;
  std::optional<std::string> bos_token, eos_token, pad_token, unk_token;  // tokenizer_config
};

// One conversation's last prompt, kept so that the next prompt, which repeats most of it,
// re-encodes only what follows the last added token (e.g. <|im_start|>) whose ids cannot change:
// see Tokenizer::encode_cached and docs/prompt_cache.md. Not shared between threads.
class TEXTEDGE_API PromptCache {
 public:
  void clear();
  // The prompt the cache holds (the last one encode_cached was given).
  std::string_view text() const noexcept { return text_; }
  // Of the last encode_cached: bytes whose ids came from the cache, and bytes encoded.
  std::size_t reused_bytes() const noexcept { return reused_bytes_; }
  std::size_t encoded_bytes() const noexcept { return encoded_bytes_; }

  // The end of an added token's match (rstrip's whitespace included), the ids up to it (before
  // the post-processor), and how far the text had been read to decide it and every match before.
  struct Boundary {
    std::size_t end, ids, horizon;
  };

 private:
  friend class Tokenizer;
  // The implementation the ids came from: weak, so that a tokenizer made later at the same
  // address is never taken for it (and the cache keeps no tokenizer alive).
  std::weak_ptr<const void> tokenizer_;
  bool add_special_tokens_ = false;
  std::string text_;
  std::vector<TokenId> ids_;  // before the post-processor
  std::vector<Boundary> boundaries_;
  std::size_t reused_bytes_ = 0, encoded_bytes_ = 0;
};

// An immutable tokenizer. Copies are cheap handles sharing one implementation, and every
// method is safe to call from many threads at once.
class TEXTEDGE_API Tokenizer {
 public:
  // `path` is a model directory (tokenizer.json, plus tokenizer_config.json when present) or a
  // tokenizer.json file. Throws LoadError naming the file and the JSON path of any problem.
  static Tokenizer load(const std::string& path);
  // Builds from tokenizer.json text; `origin` names it in errors.
  static Tokenizer from_json(std::string_view json, const std::string& origin = "<memory>");

  // BPE models keep the ids of recent words in a cache of each thread's own: 8 MB a thread and
  // model from its first encode (up to four models a thread; a fifth replaces the oldest), plus
  // the strings of words of 55-512 bytes as they come (at most ~10 MB).
  std::vector<TokenId> encode(std::string_view text, const EncodeOptions& options = {}) const;
  // encode(text, options), reusing the ids of `cache`'s prompt up to the last added token that
  // both texts share far enough before they differ that no rule of the pipeline can see the
  // difference; `cache` then holds this prompt. Always the ids of encode: a cache from another
  // tokenizer or other options, or a text that shares no such token, is encoded whole.
  std::vector<TokenId> encode_cached(std::string_view text, PromptCache& cache, const EncodeOptions& options = {}) const;
  // Encodes many texts on a thread pool (threads = 0: hardware concurrency). Order is kept.
  std::vector<std::vector<TokenId>> encode_batch(std::span<const std::string> texts,
                                                 const EncodeOptions& options = {},
                                                 unsigned threads = 0) const;

  // Ids outside the vocabulary are skipped, as Hugging Face tokenizers does.
  std::string decode(std::span<const TokenId> ids, const DecodeOptions& options = {}) const;

  // The raw bytes a token contributes to decoded text, before the decoder's context rules
  // (e.g. stripping the first leading space) and before UTF-8 repair. Special tokens and ids
  // outside the vocabulary give "".
  std::string_view token_bytes(TokenId id) const;
  // token_bytes for every id in [0, vocab_size()); the views live as long as the tokenizer.
  std::vector<std::string_view> vocab_bytes() const;

  std::size_t vocab_size() const;  // model vocabulary plus added tokens (max id + 1)
  std::optional<std::string> id_to_token(TokenId id) const;
  std::optional<TokenId> token_to_id(std::string_view token) const;
  bool is_special(TokenId id) const;
  TokenizerInfo info() const;

  // The implementation is internal; these let textedge's own components reach it.
  struct Impl;
  explicit Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  const Impl* impl() const noexcept { return impl_.get(); }

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace textedge
