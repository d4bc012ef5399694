#include "textedge/stream.hpp"

#include <algorithm>
#include <mutex>

#include "streaming/stop_strings.hpp"
#include "tokenizer/tokenizer_impl.hpp"

namespace textedge {

const char* to_string(FinishReason reason) {
  switch (reason) {
    case FinishReason::kStop:
      return "stop";
    case FinishReason::kLength:
      return "length";
    case FinishReason::kNone:
      break;
  }
  return "null";
}

struct TextStream::Stops : detail::StopStrings {
  using StopStrings::StopStrings;
};

namespace {
std::optional<TokenId> eos_id(const Tokenizer& tokenizer) {
  const auto& eos = tokenizer.impl()->eos_token;
  return eos ? tokenizer.token_to_id(*eos) : std::nullopt;
}
}  // namespace

TextStream::TextStream(Tokenizer tokenizer, std::span<const TokenId> prompt, StreamOptions options)
    : detokenizer_(
          tokenizer, prompt,
          {.skip_special_tokens = options.skip_special_tokens, .keep_special_tokens = options.keep_special_tokens}),
      options_(std::move(options)),
      eos_(eos_id(tokenizer)) {
  for (std::size_t i = 0; i < options_.stop.size(); ++i)
    if (options_.stop[i].empty()) throw Error("stop string " + std::to_string(i) + " is empty");
  if (!options_.stop.empty()) stops_ = std::make_shared<const Stops>(options_.stop);
}

// Performance note: per token this is one Detokenizer step and, with stop strings, one
// automaton transition per byte; held_ is empty on almost every token, so nothing is copied.
bool TextStream::scan(std::string_view text, StreamDelta& delta) {
  if (!stops_) {
    delta.text += text;
    return false;
  }
  const bool allowed = generated_ >= options_.min_tokens;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto match = stops_->feed(stop_state_, text.substr(pos));
    if (!match) break;
    pos += match->end;
    if (!allowed) continue;  // completed before min_tokens: not a stop
    const std::string& stop = stops_->pattern(match->index);
    // The match may begin in held_ (it spans deltas); all of held_ + text[0, pos) is held or new.
    std::size_t total = held_.size() + pos;
    std::size_t keep = options_.include_stop_str_in_output ? total : total - stop.size();
    std::size_t from_held = std::min(keep, held_.size());
    delta.text.append(held_, 0, from_held);
    delta.text.append(text.substr(0, keep - from_held));
    held_.clear();
    finished_ = true;
    delta.finish_reason = FinishReason::kStop;
    delta.stop_reason = stop;
    return true;
  }
  // Release all but the tail that could still begin a stop string.
  std::size_t hold = stops_->held(stop_state_);
  std::size_t total = held_.size() + text.size();
  std::size_t release = total - hold;
  if (release >= held_.size()) {
    delta.text += held_;
    delta.text.append(text.substr(0, release - held_.size()));
    held_.assign(text.substr(release - held_.size()));
  } else {
    delta.text.append(held_, 0, release);
    held_.erase(0, release);
    held_.append(text);
  }
  return false;
}

void TextStream::end(StreamDelta& delta, bool flush) {
  if (flush) {
    text_.clear();
    detokenizer_.finish(text_);
    if (scan(text_, delta)) return;
  }
  delta.text += held_;
  held_.clear();
  finished_ = true;
}

void TextStream::step(std::span<const TokenId> ids, StreamDelta& delta) {
  if (finished_) throw Error("the stream has already ended; no more ids can be added");
  for (TokenId id : ids) {
    ++generated_;
    const bool allowed = generated_ >= options_.min_tokens;
    const bool stop_id =
        (eos_ && id == *eos_ && !options_.ignore_eos) ||
        std::find(options_.stop_token_ids.begin(), options_.stop_token_ids.end(), id) != options_.stop_token_ids.end();
    if (stop_id && allowed) {
      // The text before the stop token ends here; it may still complete a stop string first.
      text_.clear();
      detokenizer_.finish(text_);
      if (scan(text_, delta)) return;
      if (options_.include_stop_str_in_output) {
        detokenizer_.step(id, held_);
        detokenizer_.finish(held_);
      }
      end(delta, false);
      delta.finish_reason = FinishReason::kStop;
      delta.stop_reason = id;
      return;
    }
    text_.clear();
    detokenizer_.step(id, text_);
    if (scan(text_, delta)) return;
    if (options_.max_tokens && generated_ >= *options_.max_tokens) {
      end(delta, true);
      if (delta.finish_reason == FinishReason::kNone) delta.finish_reason = FinishReason::kLength;
      return;
    }
  }
}

void TextStream::finish(StreamDelta& delta) {
  if (finished_) throw Error("the stream has already ended");
  end(delta, true);
}

// ---- StreamBatch ----

namespace {
constexpr std::size_t kSlabBits = 10, kSlabSize = std::size_t{1} << kSlabBits, kMaxSlabs = 1 << 14;
static_assert(kSlabSize * kMaxSlabs == StreamBatch::kMaxLiveStreams);
}  // namespace

// Streams live in fixed-size slabs that never move, so step() reaches a stream without a lock;
// a handle is the slot index plus the slot's generation, so a released handle is refused.
struct StreamBatch::Impl {
  struct Slot {
    std::uint32_t generation = 0;
    std::optional<TextStream> stream;
  };
  std::unique_ptr<Slot[]> slabs[kMaxSlabs];
  std::mutex mutex;  // create and release
  std::vector<std::uint32_t> free_slots;
  std::uint32_t slots = 0;
  std::size_t live = 0;
  std::size_t max_live = 0;

  Slot& slot(Handle h) {
    std::uint64_t index = h & 0xffffffffu;
    std::uint32_t generation = static_cast<std::uint32_t>(h >> 32);
    if (index < kSlabSize * kMaxSlabs) {
      Slot* slab = slabs[index >> kSlabBits].get();
      if (slab) {
        Slot& s = slab[index & (kSlabSize - 1)];
        if (s.generation == generation && s.stream) return s;
      }
    }
    throw Error("unknown or released stream handle " + std::to_string(h));
  }
};

StreamBatch::StreamBatch(std::size_t max_live_streams) : impl_(std::make_unique<Impl>()) {
  impl_->max_live = std::min(max_live_streams, kMaxLiveStreams);
}
StreamBatch::~StreamBatch() = default;

StreamBatch::Handle StreamBatch::create(Tokenizer tokenizer, std::span<const TokenId> prompt, StreamOptions options) {
  TextStream stream(std::move(tokenizer), prompt, std::move(options));  // may throw: nothing taken yet
  std::lock_guard lock(impl_->mutex);
  if (impl_->live >= impl_->max_live)
    throw Error("too many live streams: this StreamBatch holds at most " + std::to_string(impl_->max_live) +
                " (release finished streams)");
  std::uint32_t index;
  if (!impl_->free_slots.empty()) {
    index = impl_->free_slots.back();
    impl_->free_slots.pop_back();
  } else {
    index = impl_->slots++;
    auto& slab = impl_->slabs[index >> kSlabBits];
    if (!slab) slab = std::make_unique<Impl::Slot[]>(kSlabSize);
  }
  Impl::Slot& s = impl_->slabs[index >> kSlabBits][index & (kSlabSize - 1)];
  s.stream.emplace(std::move(stream));
  ++impl_->live;
  return (static_cast<Handle>(s.generation) << 32) | index;
}

void StreamBatch::release(Handle h) {
  std::lock_guard lock(impl_->mutex);
  Impl::Slot& s = impl_->slot(h);
  s.stream.reset();
  ++s.generation;
  impl_->free_slots.push_back(static_cast<std::uint32_t>(h & 0xffffffffu));
  --impl_->live;
}

void StreamBatch::step(std::span<const Step> steps, std::vector<StreamDelta>& out) {
  for (const Step& st : steps)
    if (impl_->slot(st.stream).stream->finished())
      throw Error("stream " + std::to_string(st.stream) + " has already ended");
  out.resize(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    StreamDelta& d = out[i];
    d.text.clear();
    d.finish_reason = FinishReason::kNone;
    d.stop_reason = std::monostate{};
    TextStream& stream = *impl_->slot(steps[i].stream).stream;
    stream.step(steps[i].ids, d);
    if (steps[i].finish && !stream.finished()) stream.finish(d);
  }
}

std::size_t StreamBatch::size() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->live;
}

}  // namespace textedge
