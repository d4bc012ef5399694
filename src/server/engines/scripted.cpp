#include "server/engines/scripted.hpp"

#include <simdjson.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

namespace textedge::server {

struct ScriptedEngine::Script {
  struct Answer {
    std::string match;
    std::vector<TokenId> ids;               // without EOS
    std::optional<std::size_t> fail_after;  // set on a fault line
    std::string error;
  };
  std::string file;
  Tokenizer tokenizer;
  std::vector<Answer> answers;
  std::size_t fallback = 0;  // the first line with "match": ""
  std::optional<TokenId> eos;
};

namespace {

using Script = ScriptedEngine::Script;

std::shared_ptr<const Script> load_script(const std::string& file, const Tokenizer& tokenizer) {
  auto script = std::make_shared<Script>(Script{file, tokenizer, {}, 0, std::nullopt});
  if (auto eos = tokenizer.info().eos_token) script->eos = tokenizer.token_to_id(*eos);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError("scripted engine: cannot read " + file, 0);
  std::ostringstream all;
  all << in.rdbuf();
  if (in.bad()) throw InputError("scripted engine: cannot read " + file, 0);
  const std::string text = all.str();

  simdjson::dom::parser parser;
  std::optional<std::size_t> fallback;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    const std::size_t offset = start;
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto fail = [&](const std::string& why) -> void {
      throw InputError(file + ":" + std::to_string(line_number) + ": " + why, offset);
    };

    simdjson::dom::object object;
    if (auto error = parser.parse(line.data(), line.size()).get(object))
      fail(std::string("not a JSON object (") + simdjson::error_message(error) + ")");
    Script::Answer answer;
    bool has_match = false, has_text = false, has_ids = false;
    for (auto [key, value] : object) {
      if (key == "match" || key == "text" || key == "error") {
        std::string_view s;
        if (value.get(s)) fail("\"" + std::string(key) + "\" must be a string");
        if (key == "match") {
          answer.match = s;
          has_match = true;
        } else if (key == "text") {
          try {
            answer.ids = tokenizer.encode(s);
          } catch (const InputError& e) {
            fail(std::string("\"text\" cannot be encoded: ") + e.what());
          }
          has_text = true;
        } else {
          answer.error = s;
        }
      } else if (key == "ids") {
        simdjson::dom::array ids;
        if (value.get(ids)) fail("\"ids\" must be an array of token ids");
        for (auto id : ids) {
          std::uint64_t v;
          if (id.get(v) || v >= tokenizer.vocab_size()) fail("\"ids\" must hold ids below the vocabulary size");
          answer.ids.push_back(static_cast<TokenId>(v));
        }
        has_ids = true;
      } else if (key == "fail_after") {
        std::uint64_t v;
        if (value.get(v)) fail("\"fail_after\" must be a non-negative integer");
        answer.fail_after = static_cast<std::size_t>(v);
      } else {
        fail("unknown key \"" + std::string(key) + "\" (expected match, text or ids, fail_after, error)");
      }
    }
    if (!has_match) fail("no \"match\"");
    if (has_text == has_ids) fail("needs exactly one of \"text\" and \"ids\"");
    if (answer.fail_after && answer.error.empty()) fail("\"fail_after\" needs an \"error\" message");
    if (!answer.error.empty() && !answer.fail_after) answer.fail_after = 0;
    if (answer.match.empty() && !fallback) fallback = script->answers.size();
    script->answers.push_back(std::move(answer));
  }
  if (!fallback) throw InputError(file + ": no line with \"match\": \"\" (the default answer)", text.size());
  script->fallback = *fallback;
  return script;
}

std::size_t pick_answer(const Script& script, std::span<const TokenId> prompt) {
  const std::string text = script.tokenizer.decode(prompt, {.skip_special_tokens = false});
  std::size_t best = script.fallback, best_end = 0;
  bool found = false;
  for (std::size_t i = 0; i < script.answers.size(); ++i) {
    const std::string& match = script.answers[i].match;
    if (match.empty()) continue;
    std::size_t at = text.rfind(match);
    if (at == std::string::npos) continue;
    if (!found || at + match.size() > best_end) {
      best = i;
      best_end = at + match.size();
      found = true;
    }
  }
  return best;
}

class ScriptedStream final : public EngineStream {
 public:
  ScriptedStream(asio::any_io_executor executor, std::shared_ptr<const Script> script, std::size_t answer,
                 const GenerateRequest& request, double rate)
      : script_(std::move(script)),
        answer_(script_->answers[answer]),
        max_tokens_(request.max_tokens),
        ignore_eos_(request.ignore_eos),
        top_logprobs_(request.top_logprobs),
        rate_(rate),
        timer_(std::move(executor)),
        start_(std::chrono::steady_clock::now()) {}

  asio::awaitable<void> next(EngineEvent& event) override {
    event.clear();
    if (cancelled_ && !done_) end(EngineStop::kAborted);
    if (!done_) {
      if (rate_ > 0) {
        timer_.expires_at(on_step_grid(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                  std::chrono::duration<double>(static_cast<double>(generated_ + 1) / rate_))));
        co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
      } else {
        // Yield, so that a stream at full speed does not starve the others on this executor.
        co_await asio::post(co_await asio::this_coro::executor, asio::use_awaitable);
      }
      if (cancelled_) end(EngineStop::kAborted);
      step(event, rate_ > 0 ? 1 : kBatch);
    }
    if (done_) {
      event.done = true;
      event.stop = stop_;
      event.error = error_;
    }
  }

  void cancel() override {
    cancelled_ = true;
    timer_.cancel();
  }

 private:
  static constexpr std::size_t kBatch = 8;

  // Tokens are due on a 250 us grid, as an engine emits a step's tokens together: the streams due
  // on one grid point expire in one wake-up of the reactor. Measured at 1,000 streams x 50
  // tokens/s (perf stat on syscall tracepoints): timerfd_settime and epoll_wait per token went
  // from 0.13 to 0.07; perf put timerfd_settime at ~10% of the server's CPU before (each call
  // costs ~13 us on this VM). A rate whose interval is a multiple of the grid (50/s: 20 ms)
  // keeps its intervals exact; others vary by at most the grid.
  static std::chrono::steady_clock::time_point on_step_grid(std::chrono::steady_clock::time_point t) {
    constexpr auto kGrid = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::microseconds(250));
    auto since = t.time_since_epoch();
    return std::chrono::steady_clock::time_point((since + kGrid - std::chrono::steady_clock::duration(1)) / kGrid * kGrid);
  }

  void end(EngineStop stop) {
    stop_ = stop;
    done_ = true;
  }

  // Up to `count` ids into the event; ends the stream when it stops or fails.
  void step(EngineEvent& event, std::size_t count) {
    const std::vector<TokenId>& ids = answer_.ids;
    auto at_limit = [&] {
      if (generated_ == max_tokens_ || (ignore_eos_ && ids.empty())) end(EngineStop::kLength);
    };
    at_limit();
    while (!done_ && count-- > 0) {
      if (answer_.fail_after && generated_ == *answer_.fail_after) {
        if (!event.ids.empty()) return;  // the ids first, the error on its own in the next event
        error_ = "scripted engine: " + answer_.error;
        end(EngineStop::kNone);
        return;
      }
      const bool at_eos = !ignore_eos_ && generated_ >= ids.size();
      if (at_eos && !script_->eos) {
        end(EngineStop::kEos);  // no EOS token to send
        return;
      }
      const TokenId id = at_eos ? *script_->eos : ids[generated_ % ids.size()];
      event.ids.push_back(id);
      if (top_logprobs_ >= 0) event.logprobs.push_back(logprob(id));
      ++generated_;
      if (at_eos)
        end(EngineStop::kEos);  // EOS as the last token allowed is still EOS, as in llama.cpp
      else
        at_limit();
    }
  }

  TokenLogprob logprob(TokenId id) const {
    static const float kLn2 = std::log(2.0f);
    TokenLogprob lp{id, -kLn2, {}};
    const std::size_t vocab = script_->tokenizer.vocab_size();
    for (int i = 0; i < top_logprobs_; ++i)
      lp.top.emplace_back(static_cast<TokenId>((id + static_cast<std::size_t>(i)) % vocab), -kLn2 * (i + 1));
    return lp;
  }

  std::shared_ptr<const Script> script_;
  const Script::Answer& answer_;
  std::size_t max_tokens_;
  bool ignore_eos_;
  int top_logprobs_;
  double rate_;
  asio::steady_timer timer_;
  std::chrono::steady_clock::time_point start_;
  std::size_t generated_ = 0;
  bool cancelled_ = false, done_ = false;
  EngineStop stop_ = EngineStop::kNone;
  std::string error_;
};

}  // namespace

ScriptedEngine::ScriptedEngine(const std::string& file, const Tokenizer& tokenizer, const EngineOptions& options)
    : script_(load_script(file, tokenizer)), options_(options) {}

ScriptedEngine::~ScriptedEngine() = default;

asio::awaitable<EngineStatus> ScriptedEngine::probe() {
  co_return EngineStatus{.ok = true, .error = {}, .context = options_.scripted_context, .slots = 0};
}

asio::awaitable<std::unique_ptr<EngineStream>> ScriptedEngine::generate(GenerateRequest request) {
  std::size_t answer = pick(request.prompt);
  co_return std::make_unique<ScriptedStream>(co_await asio::this_coro::executor, script_, answer, request,
                                             options_.scripted_rate);
}

std::string ScriptedEngine::describe() const { return "scripted:" + script_->file; }

std::size_t ScriptedEngine::pick(std::span<const TokenId> prompt) const { return pick_answer(*script_, prompt); }

}  // namespace textedge::server
