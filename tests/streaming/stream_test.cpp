// Stop conditions on streamed text (TextStream) and many streams at once (StreamBatch).
#include "textedge/stream.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <thread>

#include "support/test_paths.hpp"

namespace textedge {
namespace {

const Tokenizer& tokenizer_of(const std::string& model) {
  static std::map<std::string, Tokenizer> cache;
  auto it = cache.find(model);
  if (it == cache.end()) it = cache.emplace(model, Tokenizer::load(model_path(model))).first;
  return it->second;
}

// The ids of each piece, encoded on its own, so each step's text is exactly that piece
// (ByteLevel decode is concatenation).
std::vector<std::vector<TokenId>> pieces(const Tokenizer& tok, const std::vector<std::string>& texts) {
  std::vector<std::vector<TokenId>> out;
  for (const auto& t : texts) out.push_back(tok.encode(t));
  return out;
}

struct StreamRun {
  std::vector<std::string> deltas;
  std::string text;
  FinishReason reason = FinishReason::kNone;
  std::variant<std::monostate, std::string, TokenId> stop_reason;
};

StreamRun run(const Tokenizer& tok, const std::vector<std::vector<TokenId>>& steps, StreamOptions options,
              std::span<const TokenId> prompt = {}) {
  TextStream stream(tok, prompt, std::move(options));
  StreamRun r;
  for (const auto& ids : steps) {
    StreamDelta d = stream.step(ids);
    r.deltas.push_back(d.text);
    r.text += d.text;
    if (stream.finished()) {
      r.reason = d.finish_reason;
      r.stop_reason = d.stop_reason;
      return r;
    }
  }
  StreamDelta d = stream.finish();
  r.deltas.push_back(d.text);
  r.text += d.text;
  r.reason = d.finish_reason;
  r.stop_reason = d.stop_reason;
  return r;
}

TEST(TextStream, StopStringSplitAcrossDeltasNeverReachesTheClient) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  StreamRun r = run(tok, pieces(tok, {"The answer is 42</ans", "wer> and more"}), {.stop = {"</answer>"}});
  ASSERT_EQ(r.deltas.size(), 2u);
  EXPECT_EQ(r.deltas[0], "The answer is 42");
  EXPECT_EQ(r.deltas[1], "");
  EXPECT_EQ(r.text, "The answer is 42");
  EXPECT_EQ(r.reason, FinishReason::kStop);
  EXPECT_EQ(std::get<std::string>(r.stop_reason), "</answer>");
}

TEST(TextStream, HeldTextIsReleasedWhenTheNextDeltaProvesOtherwise) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  StreamRun r = run(tok, pieces(tok, {"x </ans", "ia", " done"}), {.stop = {"</answer>"}});
  ASSERT_EQ(r.deltas.size(), 4u);
  EXPECT_EQ(r.deltas[0], "x ");
  EXPECT_EQ(r.deltas[1], "</ansia");
  EXPECT_EQ(r.text, "x </ansia done");
  EXPECT_EQ(r.reason, FinishReason::kNone);
  // Held at the end of generation: released by finish().
  StreamRun held = run(tok, pieces(tok, {"x </ans"}), {.stop = {"</answer>"}});
  EXPECT_EQ(held.deltas.back(), "</ans");
  EXPECT_EQ(held.text, "x </ans");
}

TEST(TextStream, EarliestStopWinsAndAMultiTokenStepEqualsOneAtATime) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  auto ids = tok.encode("the dog and the cat sat");
  StreamOptions options{.stop = {"cat", "dog", "the dog and"}};
  StreamRun together = run(tok, {ids}, options);
  std::vector<std::vector<TokenId>> single;
  for (TokenId id : ids) single.push_back({id});
  StreamRun apart = run(tok, single, options);
  EXPECT_EQ(together.text, "the ");
  EXPECT_EQ(std::get<std::string>(together.stop_reason), "dog");
  EXPECT_EQ(apart.text, together.text);
  EXPECT_EQ(apart.stop_reason, together.stop_reason);
  // At equal ends the longest stop string wins.
  StreamRun tie = run(tok, {tok.encode("say abc")}, {.stop = {"bc", "abc"}});
  EXPECT_EQ(tie.text, "say ");
  EXPECT_EQ(std::get<std::string>(tie.stop_reason), "abc");
}

TEST(TextStream, StopStringAcrossAMultiByteCharacterSpelledInBytes) {
  const Tokenizer& tok = tokenizer_of("llama2");
  auto byte = [&](int b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    return *tok.token_to_id(name);
  };
  std::vector<std::vector<TokenId>> steps = {tok.encode("caf"), {byte(0xC3)}, {byte(0xA9)}, {*tok.token_to_id("!")}};
  StreamRun r = run(tok, steps, {.stop = {"é!"}});
  EXPECT_EQ(r.text, "caf");
  EXPECT_EQ(r.reason, FinishReason::kStop);
  StreamRun kept = run(tok, steps, {.stop = {"é!"}, .include_stop_str_in_output = true});
  EXPECT_EQ(kept.text, "café!");
}

TEST(TextStream, StopTokensEosAndIgnoreEos) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  TokenId eos = *tok.token_to_id("<|im_end|>");  // Qwen3's tokenizer_config eos_token
  auto hello = tok.encode("Hello");
  StreamRun r = run(tok, {hello, {eos}, hello}, {});
  EXPECT_EQ(r.text, "Hello");
  EXPECT_EQ(std::get<TokenId>(r.stop_reason), eos);
  StreamRun shown = run(tok, {hello, {eos}}, {.skip_special_tokens = false, .include_stop_str_in_output = true});
  EXPECT_EQ(shown.text, "Hello<|im_end|>");
  StreamRun hidden = run(tok, {hello, {eos}}, {.skip_special_tokens = false});
  EXPECT_EQ(hidden.text, "Hello");
  StreamRun ignored = run(tok, {hello, {eos}, hello}, {.ignore_eos = true});
  EXPECT_EQ(ignored.text, "HelloHello");
  EXPECT_EQ(ignored.reason, FinishReason::kNone);
  TokenId other = tok.encode("!")[0];
  StreamRun custom = run(tok, {hello, {other}, hello}, {.stop_token_ids = {other}, .ignore_eos = true});
  EXPECT_EQ(custom.text, "Hello");
  EXPECT_EQ(std::get<TokenId>(custom.stop_reason), other);
}

TEST(TextStream, MinTokensAndMaxTokens) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  TokenId eos = *tok.token_to_id("<|im_end|>");
  auto a = tok.encode("a")[0];
  // EOS as token 2 of min 3: not a stop; as token 4: a stop.
  StreamRun r = run(tok, {{a}, {eos}, {a}, {eos}, {a}}, {.min_tokens = 3});
  EXPECT_EQ(r.text, "aa");
  EXPECT_EQ(r.reason, FinishReason::kStop);
  // A stop string completed before min_tokens does not count; one completed after does.
  auto stop_ids = tok.encode("STOP");
  std::vector<std::vector<TokenId>> steps;
  for (TokenId id : stop_ids) steps.push_back({id});
  for (TokenId id : tok.encode(" x STOP y")) steps.push_back({id});
  StreamRun s = run(tok, steps, {.stop = {"STOP"}, .min_tokens = stop_ids.size() + 1});
  EXPECT_EQ(s.text, "STOP x ");
  // max_tokens: length, and the held text is flushed.
  StreamRun m = run(tok, pieces(tok, {"one", " two", " three"}), {.max_tokens = 2});
  EXPECT_EQ(m.text, "one two");
  EXPECT_EQ(m.reason, FinishReason::kLength);
  // A stop on the last allowed token is a stop, not length.
  StreamRun both = run(tok, {{a}, {eos}}, {.max_tokens = 2});
  EXPECT_EQ(both.reason, FinishReason::kStop);
  // min_tokens above max_tokens: length wins, as no stop may happen yet.
  StreamRun capped = run(tok, {{a}, {eos}, {a}}, {.min_tokens = 5, .max_tokens = 2});
  EXPECT_EQ(capped.reason, FinishReason::kLength);
}

TEST(TextStream, EmptyStopStringIsAClearError) {
  EXPECT_THROW(TextStream(tokenizer_of("qwen3"), {}, {.stop = {"ok", ""}}), Error);
  TextStream stream(tokenizer_of("qwen3"), {}, {.stop = {"x"}});
  stream.step(tokenizer_of("qwen3").encode("x"));
  EXPECT_TRUE(stream.finished());
  EXPECT_THROW(stream.step(std::vector<TokenId>{1}), Error);
}

// Against a naive model of the contract: decode everything, cut at the earliest-ending stop
// (longest at equal ends); for any grouping of the ids.
TEST(TextStream, MatchesCuttingTheWholeTextAtTheEarliestStop) {
  for (const std::string model : {"qwen3", "gemma3", "llama2"}) {
    const Tokenizer& tok = tokenizer_of(model);
    std::mt19937 rng(11);
    const std::vector<std::string> words = {"ab", "a", "b", "c", "ba", "é", "🙂", "\n", " ", "abc", "<", "/", ">"};
    int mismatches = 0;
    for (int round = 0; round < 400; ++round) {
      std::string text;
      for (int i = 0; i < 30; ++i) text += words[rng() % words.size()];
      std::vector<std::string> stops;
      for (int i = 0, n = 1 + rng() % 4; i < n; ++i) {
        std::string s;
        for (int k = 0, m = 1 + rng() % 3; k < m; ++k) s += words[rng() % 8];
        stops.push_back(s);
      }
      auto ids = tok.encode(text);
      std::string decoded = tok.decode(ids, {.skip_special_tokens = true});
      std::size_t best_end = std::string::npos, best_len = 0;
      for (const auto& s : stops) {
        std::size_t at = decoded.find(s);
        if (at == std::string::npos) continue;
        std::size_t end = at + s.size();
        if (end < best_end || (end == best_end && s.size() > best_len)) best_end = end, best_len = s.size();
      }
      std::string want = best_end == std::string::npos ? decoded : decoded.substr(0, best_end - best_len);
      std::vector<std::vector<TokenId>> steps;
      for (std::size_t pos = 0; pos < ids.size();) {
        std::size_t n = std::min<std::size_t>(ids.size() - pos, 1 + rng() % 5);
        steps.emplace_back(ids.begin() + pos, ids.begin() + pos + n);
        pos += n;
      }
      StreamRun r = run(tok, steps, {.stop = stops});
      if (r.text != want && mismatches++ < 5)
        ADD_FAILURE() << model << ": " << text << "\n got " << r.text << "\nwant " << want;
      if ((r.reason == FinishReason::kStop) != (best_end != std::string::npos)) ++mismatches;
    }
    EXPECT_EQ(mismatches, 0) << model;
  }
}

TEST(StreamBatch, StepsManyStreamsLikeSeparateStreams) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  StreamBatch batch;
  std::vector<StreamBatch::Handle> handles;
  std::vector<std::vector<TokenId>> texts;
  for (int i = 0; i < 300; ++i) {
    texts.push_back(tok.encode("stream " + std::to_string(i) + ": naïve 🙂 END tail"));
    handles.push_back(batch.create(tok, {}, {.stop = {"END"}}));
  }
  EXPECT_EQ(batch.size(), 300u);
  std::vector<std::string> got(300);
  std::vector<StreamDelta> out;
  std::vector<bool> done(300, false);
  for (std::size_t pos = 0;; ++pos) {
    std::vector<StreamBatch::Step> steps;
    std::vector<std::size_t> who;
    for (std::size_t i = 0; i < 300; ++i)
      if (!done[i] && pos < texts[i].size()) {
        steps.push_back({handles[i], std::span(texts[i]).subspan(pos, 1), pos + 1 == texts[i].size()});
        who.push_back(i);
      }
    if (steps.empty()) break;
    batch.step(steps, out);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      got[who[k]] += out[k].text;
      if (out[k].finish_reason != FinishReason::kNone) done[who[k]] = true;
    }
  }
  for (std::size_t i = 0; i < 300; ++i) {
    EXPECT_EQ(got[i], "stream " + std::to_string(i) + ": naïve 🙂 ");
    EXPECT_TRUE(done[i]);
  }
  for (auto h : handles) batch.release(h);
  EXPECT_EQ(batch.size(), 0u);
  EXPECT_THROW(batch.release(handles[0]), Error);
  std::vector<StreamBatch::Step> stale = {{handles[1], {}, false}};
  EXPECT_THROW(batch.step(stale, out), Error);
  // Slots are reused, with new handles.
  auto h = batch.create(tok, {}, {});
  EXPECT_NE(h, handles.back());
  EXPECT_EQ(batch.size(), 1u);
}

TEST(StreamBatch, DisjointStreamsFromSeveralThreads) {
  const Tokenizer& tok = tokenizer_of("llama2");
  StreamBatch batch;
  auto ids = tok.encode("Ünïcödé text 🌶️ with bytes and words");
  std::string want = tok.decode(ids, {.skip_special_tokens = true});
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        std::vector<StreamBatch::Handle> mine;
        for (int i = 0; i < 8; ++i) mine.push_back(batch.create(tok, {}, {}));
        std::vector<std::string> text(mine.size());
        std::vector<StreamDelta> out;
        for (std::size_t pos = 0; pos < ids.size(); ++pos) {
          std::vector<StreamBatch::Step> steps;
          for (auto h : mine) steps.push_back({h, std::span(ids).subspan(pos, 1), pos + 1 == ids.size()});
          batch.step(steps, out);
          for (std::size_t k = 0; k < mine.size(); ++k) text[k] += out[k].text;
        }
        for (auto& s : text)
          if (s != want) ++mismatches;
        for (auto h : mine) batch.release(h);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(batch.size(), 0u);
}

TEST(StreamBatch, RefusesStreamsBeyondItsLimitUntilOneIsReleased) {
  const Tokenizer& tok = tokenizer_of("qwen3");
  StreamBatch batch(2);
  auto first = batch.create(tok, {}, {});
  batch.create(tok, {}, {});
  try {
    batch.create(tok, {}, {});
    FAIL() << "a third live stream was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at most 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(batch.size(), 2u);
  batch.release(first);
  batch.create(tok, {}, {});
  EXPECT_EQ(batch.size(), 2u);
  EXPECT_EQ(StreamBatch().size(), 0u);
  // The default is what the slot table holds; a larger request is held to it.
  EXPECT_EQ(StreamBatch::kMaxLiveStreams, std::size_t{1} << 24);
}

}  // namespace
}  // namespace textedge
