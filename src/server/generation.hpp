// One choice of one request, from engine ids to OpenAI JSON: the TextStream (detokenization,
// stop strings, stop ids, min/max tokens), the OutputParser (reasoning, tool calls) and
// logprobs. No I/O: the server feeds it engine events and sends what it writes. The streamed
// chunks and the non-streamed answer come from the same deltas, so they always agree.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "server/engine.hpp"
#include "server/openai_request.hpp"
#include "textedge/output_parser.hpp"
#include "textedge/stream.hpp"

namespace textedge::server {

enum class Endpoint { kChat, kCompletion };

// What every chunk of a response repeats.
struct ResponseHead {
  Endpoint endpoint = Endpoint::kChat;
  std::string id;       // chatcmpl-... / cmpl-...
  std::int64_t created = 0;
  std::string model;
  bool include_usage = false;
};

class Choice {
 public:
  // `parser` is null for completions. `forced_name`: a named tool_choice (finish_reason "stop",
  // as OpenAI gives for a forced function).
  Choice(const Tokenizer& tokenizer, std::span<const TokenId> prompt, const GenerationParams& params,
         const OutputParserOptions* parser, std::vector<TokenId> keep_special, int index, bool forced_name);

  // The chat stream's first chunk (the role).
  void start(const ResponseHead& head, std::string& sse) const;
  // Takes one engine event. When `sse` is given, appends the chunks it makes ("data: ...\n\n").
  // Returns true when the choice has ended: then the engine stream must be cancelled (it may
  // still be generating, e.g. after a stop string).
  bool on_event(const EngineEvent& event, const ResponseHead& head, std::string* sse);
  // Ends a choice whose engine stream was lost (client gone, shutdown).
  void abort(const std::string& reason);

  bool ended() const { return ended_; }
  const std::string& error() const { return error_; }
  const std::string& finish_reason() const { return finish_reason_; }
  std::size_t completion_tokens() const { return stream_.generated_tokens() + extra_tokens_; }
  // The choice object of a non-streamed answer.
  void append_choice_json(const ResponseHead& head, std::string& out) const;

 private:
  void emit(const ResponseHead& head, std::string& sse, const ChatDelta* delta, std::string_view text, bool final);
  void take_logprobs(const EngineEvent& event, std::size_t consumed);
  void append_logprobs_json(std::string& out, std::size_t begin, std::size_t end) const;

  const Tokenizer& tokenizer_;
  TextStream stream_;
  std::optional<OutputParser> parser_;
  int index_;
  bool forced_name_;
  bool want_logprobs_;
  int top_logprobs_;
  StreamDelta delta_;
  std::vector<ChatDelta> deltas_;
  ParsedMessage message_;  // chat: what the deltas add up to
  std::string text_;       // completions: the text
  std::vector<TokenLogprob> logprobs_;
  std::size_t logprobs_sent_ = 0;  // streamed so far
  std::size_t extra_tokens_ = 0;   // the engine's own end token, counted but not streamed
  bool ended_ = false;
  std::string finish_reason_, error_;
};

// Full-response pieces for the server.
void append_usage_json(std::string& out, std::size_t prompt_tokens, std::size_t completion_tokens);
void append_final_sse(const ResponseHead& head, std::size_t prompt_tokens, std::size_t completion_tokens, std::string& sse);

}  // namespace textedge::server
