// textedge::Detokenizer: streaming decode of one request, exact to the byte.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "textedge/tokenizer.hpp"

namespace textedge {

struct DetokenizeOptions {
  bool skip_special_tokens = false;
  // With skip_special_tokens, these special tokens are kept all the same: the markers an output
  // parser needs (e.g. <think>, <tool_call>, <|channel|> when they are special tokens). The
  // text is then decode's with exactly the other special tokens removed.
  std::vector<TokenId> keep_special_tokens;
  // Byte-fallback tokenizers (Llama 2, Gemma 3): release each character of a run of "<0xNN>"
  // tokens as soon as it is complete, as tokenizers' DecodeStream does, instead of holding the
  // run until a later token proves it valid. Exact unless a later byte of the run is invalid:
  // decode then turns the whole run into U+FFFD (DecodeStream fails there with "Invalid
  // prefix"); this stream replaces only the invalid bytes and goes on.
  bool eager_byte_runs = false;
};

// Turns generated ids into text as they arrive. The contract: for any ids and
// any grouping of them into steps, the concatenation of every step's text and
// finish()'s text equals decode(prompt + generated) without the prompt's text
// in front (with no prompt: decode(generated)), under the same
// skip_special_tokens setting.
//
// Text is emitted as soon as it is certain. Held back until the next ids prove
// it: the first bytes of a character that is not complete yet, and on
// byte-fallback tokenizers (Llama 2, Gemma 3) a character spelled in "<0xNN>"
// tokens until a token that is not a byte token follows, because the reference
// turns the whole byte run into U+FFFD when any later byte in the run is
// invalid. When the prompt itself ends inside such a character, that character
// comes out whole with the first text after it.
//
// Priming from the prompt reads only its first and last few ids (the context
// the decoder's rules need), whatever its length. A Detokenizer is a small
// value: copy it to branch a stream (e.g. to look at what finish() would give).
class TEXTEDGE_API Detokenizer {
 public:
  // Throws Error when the tokenizer's decoder cannot be streamed (supported: ByteLevel,
  // SentencePiece chains of per-token Replace, ByteFallback, Fuse and Strip, and chains of
  // Replace and Metaspace).
  explicit Detokenizer(Tokenizer tokenizer, std::span<const TokenId> prompt = {}, DetokenizeOptions options = {});

  // Appends the text that the new ids make certain. Ids outside the vocabulary
  // are skipped, as decode skips them.
  void step(std::span<const TokenId> ids, std::string &out);
  void step(TokenId id, std::string &out);
  std::string step(std::span<const TokenId> ids) {
    std::string out;
    step(ids, out);
    return out;
  }
  // Appends what is still held (an incomplete character becomes U+FFFD, as
  // decode does) and resets the stream to the state of a text end. Steps may
  // follow; they continue the text.
  void finish(std::string &out);
  std::string finish() {
    std::string out;
    finish(out);
    return out;
  }

  const Tokenizer &tokenizer() const { return tokenizer_; }
  const DetokenizeOptions &options() const { return options_; }

 private:
  void emit(std::string_view text, std::string &out);
  void end_byte_run(std::string &out);

  Tokenizer tokenizer_;
  const Tokenizer::Impl *impl_;
  DetokenizeOptions options_;
  // ByteLevel: the first bytes of an incomplete character. Byte fallback: the
  // open run's bytes.
  std::string pending_;
  std::uint32_t run_tokens_ = 0;  // byte fallback: tokens in the open run
  bool run_invalid_ = false;      // byte fallback: the open run can no longer be valid UTF-8
  std::uint32_t strip_left_ = 0;  // Strip: leading copies still to remove (0 once text began)
  std::string held_end_;          // Strip: trailing copies that the end of text would remove
  bool first_pending_ = false;    // Metaspace: the first token (mapped by its own rule) is to come
};

// OpenAI logprobs' "token" and "bytes" for one token, without position rules
// (as a token in the middle of the text): bytes are what the token contributes
// (a special token's content), and the text is those bytes, with each byte that
// is not part of a valid UTF-8 character written as \xNN (as OpenAI shows a
// token that ends inside a character).
struct LogprobToken {
  std::string token;
  std::vector<std::uint8_t> bytes;
};
TEXTEDGE_API LogprobToken logprob_token(const Tokenizer &tokenizer, TokenId id);

}  // namespace textedge
