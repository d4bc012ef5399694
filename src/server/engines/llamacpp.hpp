// llamacpp://HOST:PORT: llama.cpp's llama-server, through its token interface only.
//
// generate() sends POST /completion with the prompt as token ids, stream, return_tokens,
// cache_prompt, n_predict, the sampling fields, ignore_eos, n_probs (logprobs of the model's
// distribution, before sampling) and, for constraint_regex, a GBNF grammar; it never sends text
// and never reads the text llama-server sends back, only "tokens", "completion_probabilities",
// "stop" and "stop_type" of each SSE event. One connection per request (connecting on loopback
// costs tens of microseconds): cancel() closes it, and llama-server then frees the slot.
// generate() returns once the request is written; the answer's status is read by the first
// next(), so that a request waiting for a free slot can be cancelled too. A refusal (HTTP error
// with llama-server's {"error": {...}}), a body that is not the expected SSE, a connection closed
// mid-stream or a stream silent for longer than EngineOptions::stall_timeout ends the stream
// with an event whose error is set. stop_type "eos" is kEos, "limit" is kLength.
//
// What llama-server does that a frontend must know:
// - kEos: the last id is the end-of-generation token that stopped it, which is not always the
//   tokenizer's EOS: any of llama.cpp's EOG set (for Qwen3 <|im_end|>, <|endoftext|>, <|fim_pad|>,
//   <|repo_name|>, <|file_sep|>, and the ordinary token "</s>") ends a generation.
// - A grammar lets the model stop only once it is complete, so a completed grammar is kEos too;
//   ignore_eos with a grammar fails in llama-server when the grammar completes (an error event).
// - It streams no id for a token whose text ends inside a UTF-8 character (it holds the text back
//   and sends the next token's id with both texts). The adapter sees the hole in the counts
//   ("tokens_predicted") and ends the stream with an error event rather than a text with a hole.
//
// probe(): GET /health (200 once the model is loaded, 503 while loading), then GET /props for
// default_generation_settings.n_ctx (the context of one slot) and total_slots.
//
// A stream's socket runs on the executor of the coroutine that called generate(); its next() and
// cancel() must be called from that executor (strand) or thread, as for any Asio I/O object.
#pragma once

#include <cstdint>
#include <string>

#include "server/engine.hpp"

namespace textedge::server {

class LlamaCppEngine final : public Engine {
 public:
  LlamaCppEngine(std::string host, std::uint16_t port, const EngineOptions& options = {});
  // `tokenizer` gives end_tokens(): the ids of the texts llama.cpp ends generation at.
  LlamaCppEngine(std::string host, std::uint16_t port, const Tokenizer& tokenizer, const EngineOptions& options = {});

  asio::awaitable<EngineStatus> probe() override;
  // Throws EngineError naming the address when it cannot connect or send the request.
  asio::awaitable<std::unique_ptr<EngineStream>> generate(GenerateRequest request) override;
  std::string describe() const override;
  std::vector<TokenId> end_tokens() const override { return end_tokens_; }

  // The JSON body generate() sends (for tests and logs).
  static std::string request_body(const GenerateRequest& request);

 private:
  std::string host_;
  std::uint16_t port_;
  EngineOptions options_;
  std::vector<TokenId> end_tokens_;
};

}  // namespace textedge::server
