// Stage 5: decoders turn token strings back into text. One component per file, named after
// its JSON "type"; decoder_from_json (factory.cpp) is the only place that knows them all.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"

namespace textedge::detail {

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Hugging Face's decode_chain: rewrites the list of token strings; the decoded text is the
  // concatenation of the result. Output strings may hold any bytes; the tokenizer repairs
  // invalid UTF-8 at the end only where the reference would (ByteLevel does its own).
  virtual void decode_chain(std::vector<std::string>& tokens) const = 0;
  // The context-free part of decoding one token, for Tokenizer::token_bytes: e.g. ByteLevel
  // maps the GPT-2 alphabet back to raw bytes, ByteFallback turns "<0x0A>" into byte 0x0A,
  // Replace replaces. The token is treated as one in the middle of the text (Metaspace and
  // WordPiece as for a token that is not the first, BPEDecoder as for one that is not the last);
  // rules that depend on position (Strip, CTC dedup) are not applied and nothing is repaired.
  // Default: unchanged. Each component says what it does.
  virtual void map_token(std::string& token) const { (void)token; }
  // map_token for the first token of a decode (kFirstToken components differ there).
  virtual void map_first_token(std::string& token) const { map_token(token); }
  // True when map_token leaves every token as it is (Fuse, Strip).
  virtual bool keeps_token() const { return false; }
  // A Replace of a literal: its pattern and content, for loops that inline it.
  virtual bool literal_replacement(std::string_view& from, std::string_view& to) const {
    (void)from, (void)to;
    return false;
  }
  // True when decoding is exactly: map_token on each token, concatenate, repair invalid UTF-8
  // as String::from_utf8_lossy does (ByteLevel). The tokenizer then decodes straight from its
  // precomputed token bytes, without building token strings.
  virtual bool is_bytewise() const { return false; }

  // What the tokenizer's fast decode path needs to know about a chain (see
  // Tokenizer::Impl::decode_fused): which components act on each token alone, which one turns
  // "<0xNN>" tokens into bytes, and where the tokens are fused into one string.
  // kFirstToken: per token, except that the first token is mapped by map_first_token
  // (Metaspace drops the replacement character there).
  enum class Kind { kOther, kPerToken, kFirstToken, kByteFallback, kFuse };
  virtual Kind kind() const { return Kind::kOther; }
  // The components of a Sequence, in order; nullptr for other decoders.
  virtual const std::vector<std::unique_ptr<Decoder>>* children() const { return nullptr; }
  // kByteFallback: the byte a token stands for, or -1.
  virtual int byte_value(std::string_view token) const { (void)token; return -1; }
  // Strip's parameters (for streaming, which applies them to the ends of the whole text).
  struct StripSpec {
    std::string content;
    std::size_t start = 0, stop = 0;
  };
  virtual const StripSpec* strip_spec() const { return nullptr; }
  virtual std::string describe() const = 0;
};

std::unique_ptr<Decoder> decoder_from_json(const Json& json);

}  // namespace textedge::detail
