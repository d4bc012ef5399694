// The engine interface: what textedge serve needs from a token-level engine. An engine takes
// prompt ids and streams generated ids (with logprobs when asked); it never sees text, and
// textedge never reads the engine's text. Stop strings and stop token ids are decided by the
// server, which cancels the stream at once; the engine only stops by itself at EOS (unless
// ignore_eos), at max_tokens, or when its grammar completes.
//
// Adapters live in engines/, one file each (llamacpp, scripted). An SGLang (/generate with
// input_ids) or vLLM (/inference/v1/generate with token_ids) adapter, or a router over several
// engines, is one more class implementing Engine; nothing else changes.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "textedge/error.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::server {

namespace asio = boost::asio;

struct Sampling {
  std::optional<double> temperature, top_p, min_p, frequency_penalty, presence_penalty, repetition_penalty;
  std::optional<std::int64_t> top_k, seed;
  std::vector<std::pair<TokenId, double>> logit_bias;
};

struct GenerateRequest {
  std::vector<TokenId> prompt;
  std::size_t max_tokens = 16;  // the engine stops ("length") after this many
  Sampling sampling;
  bool ignore_eos = false;
  // A regex (textedge's schema dialect, docs/schema.md) the whole output must match; empty: none.
  // Each adapter turns it into what its engine takes (llama.cpp: GBNF).
  std::string constraint_regex;
  int top_logprobs = -1;  // -1: no logprobs; 0..20: the sampled token's, plus that many others
};

struct TokenLogprob {
  TokenId id = 0;
  float logprob = 0;
  std::vector<std::pair<TokenId, float>> top;
};

enum class EngineStop { kNone, kEos, kLength, kGrammar, kAborted };

// One read from an engine stream: zero or more new ids, then, on the last read, why it ended
// or what went wrong.
struct EngineEvent {
  std::vector<TokenId> ids;
  std::vector<TokenLogprob> logprobs;  // one per id when logprobs were asked for
  bool done = false;
  EngineStop stop = EngineStop::kNone;
  std::string error;  // non-empty: the engine failed; done is true
  void clear() {
    ids.clear();
    logprobs.clear();
    done = false;
    stop = EngineStop::kNone;
    error.clear();
  }
};

class EngineStream {
 public:
  virtual ~EngineStream() = default;
  // The next ids. After an event with done set, next() must not be called again.
  virtual asio::awaitable<void> next(EngineEvent& event) = 0;
  // Stops generation now: the engine frees the request's slot. A pending next() completes
  // (done, kAborted). Safe to call more than once, and after the end.
  virtual void cancel() = 0;
};

struct EngineStatus {
  bool ok = false;
  std::string error;         // why not, when !ok
  std::size_t context = 0;   // tokens per sequence (prompt + completion)
  std::size_t slots = 0;     // requests it runs at once (0: unknown)
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Asks the engine whether it serves (llama.cpp: GET /health and GET /props).
  virtual asio::awaitable<EngineStatus> probe() = 0;
  // Starts generating. Throws EngineError when the request cannot be started.
  virtual asio::awaitable<std::unique_ptr<EngineStream>> generate(GenerateRequest request) = 0;
  virtual std::string describe() const = 0;  // for logs: "llamacpp://127.0.0.1:8080"
  // Ids the engine ends generation at besides the tokenizer's EOS (unless ignore_eos). The
  // server stops the text there too, so such a token never reaches the client, although it
  // arrives before the engine says it stopped.
  virtual std::vector<TokenId> end_tokens() const { return {}; }
};

// The engine cannot be reached or refused to start a request.
class EngineError : public Error {
 public:
  using Error::Error;
};

struct EngineOptions {
  double scripted_rate = 0;  // tokens/s per request for scripted:, 0 = as fast as possible
  std::size_t scripted_context = 32768;  // what scripted:'s probe() reports
  double connect_timeout = 5;  // seconds to connect to a network engine
  // Seconds a network engine's stream may stay silent before the request fails with an error
  // event (llama-server pings a silent stream every 30 s, but a request waiting for a free slot
  // hears nothing until it starts).
  double stall_timeout = 600;
};

// "llamacpp://HOST:PORT" or "scripted:FILE". Throws InputError for an unknown scheme or a bad
// address or file. `executor` runs the engine's I/O.
std::unique_ptr<Engine> make_engine(const std::string& url, const Tokenizer& tokenizer, asio::any_io_executor executor,
                                    const EngineOptions& options = {});

}  // namespace textedge::server
