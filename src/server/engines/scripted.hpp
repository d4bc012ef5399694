// scripted:FILE, the built-in test and benchmark engine: exact outputs, no model.
//
// FILE is JSONL, one answer per line (blank lines are skipped):
//   {"match": "weather", "text": "<tool_call>...</tool_call>"}
//   {"match": "", "text": "Hello!"}                                  the default answer
//   {"match": "raw", "ids": [151667, 198]}                           ids as they are, not text
//   {"match": "boom", "text": "Half an", "fail_after": 2, "error": "engine crashed"}
// "text" is encoded once, at load, with the model's tokenizer (no special tokens added, but the
// special tokens written in it, e.g. <think>, become their ids); "ids" gives the ids directly (for
// splits the tokenizer would not make). A line has exactly one of them. Any other key is an error.
//
// Which answer: the prompt ids are decoded (special tokens kept) and each non-empty "match" is
// looked up in that text; the answer is the line whose match's last occurrence ends latest in the
// prompt, i.e. the one mentioned most recently (for a chat prompt, normally in the last user
// message); equal ends go to the earlier line. When no match occurs, the first line with
// "match": "" answers; a file without one is refused.
//
// The stream: the answer's ids, then EOS (tokenizer_config's eos_token; none when the tokenizer
// has none), at EngineOptions::scripted_rate ids/s from generate() (one id per event), or at 0 as
// fast as possible, in events of up to 8 ids with a yield to the executor before each one. It
// stops with kEos after EOS, or kLength after max_tokens ids (EOS counts, as in llama.cpp).
// With ignore_eos it repeats the answer's ids (never EOS) until max_tokens (an empty answer
// stops at once). A fault line
// delivers its first fail_after ids (default 0), then an event with "error" set and done.
// Logprobs are synthetic and deterministic: the sampled id has log(1/2), and the top list is
// ids id, id+1, ... (modulo the vocabulary) with log(1/2), log(1/4), ...
// constraint_regex and the sampling fields are ignored.
// probe() is ok, with EngineOptions::scripted_context as the context and slots unknown.
//
// A stream's timer runs on the executor of the coroutine that called generate(); its next() and
// cancel() must be called from that executor (strand) or thread, as for any Asio I/O object.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "server/engine.hpp"

namespace textedge::server {

class ScriptedEngine final : public Engine {
 public:
  // Throws InputError naming the file, and the line (its byte offset too) of a bad one.
  ScriptedEngine(const std::string& file, const Tokenizer& tokenizer, const EngineOptions& options = {});
  ~ScriptedEngine() override;

  asio::awaitable<EngineStatus> probe() override;
  asio::awaitable<std::unique_ptr<EngineStream>> generate(GenerateRequest request) override;
  std::string describe() const override;

  // The 0-based index, among the file's answers, of the one a prompt gets.
  std::size_t pick(std::span<const TokenId> prompt) const;

  struct Script;

 private:
  std::shared_ptr<const Script> script_;
  EngineOptions options_;
};

}  // namespace textedge::server
