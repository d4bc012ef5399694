// textedge::TextStream and StreamBatch: the text of generating requests, with stop conditions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "textedge/detokenizer.hpp"

namespace textedge {

struct StreamOptions {
  bool skip_special_tokens = true;
  std::vector<TokenId> keep_special_tokens;  // see DetokenizeOptions
  // Stop strings: the stream ends where the first of them to complete begins (at equal ends,
  // the longest wins), and no part of one ever reaches the client: text that could still begin
  // one is held back until the next text proves otherwise, or released at the end.
  std::vector<std::string> stop;
  // Ids that end the stream, besides EOS (the tokenizer_config's eos_token) unless ignore_eos.
  std::vector<TokenId> stop_token_ids;
  bool ignore_eos = false;
  // Keep the stop string or the stop token's text at the end of the output.
  bool include_stop_str_in_output = false;
  // No stop of any kind before this many generated tokens.
  std::size_t min_tokens = 0;
  // The stream ends ("length") after this many generated tokens.
  std::optional<std::size_t> max_tokens;
};

enum class FinishReason { kNone, kStop, kLength };
TEXTEDGE_API const char* to_string(FinishReason reason);  // "null" (kNone), "stop", "length"

// What one step adds: the text the client may see now and, on the last step, why it ended.
struct StreamDelta {
  std::string text;
  FinishReason finish_reason = FinishReason::kNone;
  // The stop string or stop token id that ended the stream (OpenAI/vLLM's stop_reason).
  std::variant<std::monostate, std::string, TokenId> stop_reason;
};

// One request: a Detokenizer plus stop conditions. A multi-id step gives exactly what feeding
// its ids one at a time gives; ids after the one that ends the stream are ignored.
class TEXTEDGE_API TextStream {
 public:
  // Throws Error for an empty stop string or a tokenizer whose decoder cannot be streamed.
  TextStream(Tokenizer tokenizer, std::span<const TokenId> prompt, StreamOptions options);

  // Appends to delta.text and sets the finish fields when the stream ends. Throws Error when
  // the stream has already ended.
  void step(std::span<const TokenId> ids, StreamDelta& delta);
  StreamDelta step(std::span<const TokenId> ids) {
    StreamDelta d;
    step(ids, d);
    return d;
  }
  // The end of generation without a stop: flushes what is held (finish_reason stays kNone
  // unless the flushed text completes a stop string).
  void finish(StreamDelta& delta);
  StreamDelta finish() {
    StreamDelta d;
    finish(d);
    return d;
  }

  bool finished() const { return finished_; }
  std::size_t generated_tokens() const { return generated_; }

 private:
  struct Stops;
  // Passes new text through the stop strings; true when one completed (the stream has ended).
  bool scan(std::string_view text, StreamDelta& delta);
  void end(StreamDelta& delta, bool flush);

  Detokenizer detokenizer_;
  StreamOptions options_;
  std::shared_ptr<const Stops> stops_;  // null without stop strings
  std::uint32_t stop_state_ = 0;
  std::string held_;  // text that might begin a stop string
  std::string text_;  // scratch for one token's text
  std::optional<TokenId> eos_;
  std::size_t generated_ = 0;
  bool finished_ = false;
};

// Many streams stepped together, as a serving frontend does once per engine step. Streams are
// created and released explicitly; memory is bounded by the live streams. step() may run on
// several threads at once for disjoint streams; create() and release() may run concurrently
// with both.
class TEXTEDGE_API StreamBatch {
 public:
  using Handle = std::uint64_t;
  static constexpr std::size_t kMaxLiveStreams = std::size_t{1} << 24;  // what the slot table can hold
  // create() refuses a stream beyond `max_live_streams` live ones (at most kMaxLiveStreams).
  explicit StreamBatch(std::size_t max_live_streams = kMaxLiveStreams);
  ~StreamBatch();
  StreamBatch(const StreamBatch&) = delete;
  StreamBatch& operator=(const StreamBatch&) = delete;

  // Throws Error when max_live_streams are live.
  Handle create(Tokenizer tokenizer, std::span<const TokenId> prompt, StreamOptions options);
  // Frees the stream; its handle becomes invalid. Throws Error for an unknown handle.
  void release(Handle stream);

  struct Step {
    Handle stream;
    std::span<const TokenId> ids;
    bool finish = false;  // also flush it (the engine finished the request)
  };
  // out[i] receives the delta of steps[i] (out is resized; its strings keep their capacity).
  // Throws Error for an unknown handle or a stream that has ended, before stepping any stream.
  void step(std::span<const Step> steps, std::vector<StreamDelta>& out);

  std::size_t size() const;  // live streams

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace textedge
