// Tokenizer::Impl: the immutable state behind a Tokenizer handle. Internal; shared by
// tokenizer.cpp (load, encode, decode) and detokenizer.cpp (streaming decode).
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/string_list.hpp"
#include "textedge/tokenizer.hpp"
#include "tokenizer/added_vocabulary.hpp"
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/models/bpe.hpp"
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/post_processors/post_processor.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge {

struct Tokenizer::Impl {
  std::string origin;
  detail::AddedVocabulary added;
  std::unique_ptr<detail::Normalizer> normalizer;
  std::unique_ptr<detail::PreTokenizer> pre_tokenizer;
  detail::KnownPatternFinder pieces_finder = nullptr;  // pre_tokenizer's, when it has one
  detail::BpeModel model;
  std::unique_ptr<detail::PostProcessor> post_processor;
  std::unique_ptr<detail::Decoder> decoder;
  detail::StringList token_bytes;  // id -> bytes (see Tokenizer::token_bytes)
  // What each id is to the fast decode paths and to streaming (bytewise and fused decoders).
  enum class TokenKind : std::uint8_t {
    kText,     // contributes token_bytes, which are whole UTF-8 characters
    kPartial,  // contributes token_bytes, which are not (a byte-level token that cuts a character)
    kSpecial,  // a special token's content: dropped by skip_special_tokens, else special_bytes
    kByte,     // fused decode with ByteFallback: "<0xNN>", token_bytes is the byte
    kNone,     // no token with this id: skipped
  };
  std::vector<TokenKind> token_kind;
  std::vector<std::pair<TokenId, std::string>> special_bytes;  // sorted by id
  // Special tokens that a fused decode's ByteFallback reads as a byte ("<0xC3>" declared special):
  // decoded, unless skipped, as the byte tokens they are. Sorted.
  std::vector<TokenId> byte_specials;
  bool is_byte_special(TokenId id) const {
    return !byte_specials.empty() && std::binary_search(byte_specials.begin(), byte_specials.end(), id);
  }
  // Bytewise decode (ByteLevel): map each token to bytes, concatenate, repair UTF-8.
  bool bytewise_decode = false;
  // Fused decode (SentencePiece chains: per-token Replace, ByteFallback, Fuse, then e.g. Strip):
  // the decoders that run on the fused text.
  bool fused_decode = false;
  std::vector<const detail::Decoder*> decode_tail;
  // Streaming (Detokenizer): supported for bytewise decode, and for fused decode whose tail is
  // at most one Strip (stream_strip); otherwise stream_unsupported says why.
  const detail::Decoder::StripSpec* stream_strip = nullptr;
  // Streaming a chain of per-token components where the first token maps differently
  // (Metaspace): the first contributing token goes through decoder->map_first_token.
  bool stream_first_token = false;
  std::string stream_unsupported;

  void decode_bytewise(std::span<const TokenId> ids, bool skip_special, std::string& out) const;
  void decode_fused(std::span<const TokenId> ids, bool skip_special, std::string& out) const;
  std::string_view special_token_bytes(TokenId id) const {
    auto it = std::lower_bound(special_bytes.begin(), special_bytes.end(), id,
                               [](const auto& entry, TokenId v) { return entry.first < v; });
    return it->second;
  }
  std::size_t vocab_size = 0;
  std::optional<std::string> bos_token, eos_token, pad_token, unk_token;

  void encode_into(std::string_view text, bool add_special_tokens, std::vector<TokenId>& ids) const;
  // The model's ids of text[from:] (no post-processor) appended to `ids`, the scan starting as
  // after an added token that ended at `from` with the given horizon; each added token matched
  // in the raw text is appended to `boundaries` (PromptCache's).
  void encode_raw(std::string_view text, std::size_t from, std::size_t horizon, std::vector<TokenId>& ids,
                  std::vector<PromptCache::Boundary>* boundaries) const;
  void encode_normalized_piece(std::string_view piece, bool at_start, std::vector<TokenId>& ids) const;
  std::optional<std::string_view> token_string(TokenId id) const {
    if (const detail::AddedToken* t = added.by_id(id)) return t->content;
    return model.token(id);
  }
};

}  // namespace textedge
