// The engine adapters (src/server/engines/): scripted:FILE on its own, and llamacpp://HOST:PORT
// against the real llama-server (LLAMA_SERVER, with the random-weight Qwen3 model ENGINE_MODEL;
// eval "$(scripts/engine.sh)" sets both), plus stand-in servers that misbehave on purpose.
// Each test runs an io_context on its own thread and co_spawns the engine calls.
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>
#include <utf8proc.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <thread>

#include "base/json_string.hpp"
#include "server/engine.hpp"
#include "server/engines/llamacpp.hpp"
#include "server/engines/scripted.hpp"
#include "support/llama_server.hpp"
#include "support/reference_util.hpp"
#include "support/test_paths.hpp"
#include "textedge/chat_template.hpp"
#include "tokenizer/normalizers/normal_forms.hpp"

namespace textedge::server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace http = boost::beast::http;

const Tokenizer& qwen3() {
  static const Tokenizer tokenizer = Tokenizer::load(model_path("qwen3"));
  return tokenizer;
}
TokenId eos_id() { return *qwen3().token_to_id("<|im_end|>"); }

// Runs `make()`'s coroutine on a fresh io_context and returns its result (or rethrows).
template <class Make>
auto run(Make make) {
  asio::io_context io;
  auto future = asio::co_spawn(io, make(), asio::use_future);
  io.run();
  return future.get();
}

struct Collected {
  std::vector<TokenId> ids;
  std::vector<TokenLogprob> logprobs;
  EngineStop stop = EngineStop::kNone;
  std::string error;
  std::size_t events = 0;
};

asio::awaitable<Collected> collect(EngineStream& stream) {
  Collected c;
  EngineEvent event;
  do {
    co_await stream.next(event);
    ++c.events;
    c.ids.insert(c.ids.end(), event.ids.begin(), event.ids.end());
    c.logprobs.insert(c.logprobs.end(), event.logprobs.begin(), event.logprobs.end());
    if (!event.logprobs.empty()) {
      EXPECT_EQ(event.logprobs.size(), event.ids.size());
    }
  } while (!event.done);
  c.stop = event.stop;
  c.error = event.error;
  co_return c;
}

asio::awaitable<Collected> generate_all(Engine& engine, GenerateRequest request) {
  auto stream = co_await engine.generate(std::move(request));
  co_return co_await collect(*stream);
}

std::vector<TokenId> encode(std::string_view text) { return qwen3().encode(text); }

std::vector<TokenId> with_eos(std::vector<TokenId> ids) {
  ids.push_back(eos_id());
  return ids;
}

// A file in the temporary directory with `text`, removed when the test program ends.
std::string temp_file(const std::string& name, const std::string& text) {
  static struct Files {
    std::set<std::string> paths;
    ~Files() {
      for (const auto& p : paths) std::filesystem::remove(p);
    }
  } files;
  auto path = std::filesystem::temp_directory_path() / ("textedge-engines-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary) << text;
  files.paths.insert(path.string());
  return path.string();
}

std::string jsonl_line(const std::string& match, const std::string& text, const std::string& extra = "") {
  std::string line = "{\"match\": ";
  detail::append_json_string(line, match);
  line += ", \"text\": ";
  detail::append_json_string(line, text);
  return line + extra + "}\n";
}

// ---- scripted: -----------------------------------------------------------------------------

const std::string kScript =
    jsonl_line("Paris", "About Paris.") + jsonl_line("weather", "Sunny, 21 degrees.") +
    jsonl_line("in Paris", "Never chosen: Paris ends at the same place and comes first.") +
    "\n" +  // blank lines are skipped
    jsonl_line("", "Hello! 👋 How can I help?") + jsonl_line("", "Never chosen: a second default.") +
    jsonl_line("boom", "one two three four five", ", \"fail_after\": 2, \"error\": \"simulated crash\"") +
    "{\"match\": \"raw\", \"ids\": [151667, 198, 151668]}\n" +
    jsonl_line("late", "short", ", \"fail_after\": 100, \"error\": \"never reached\"");

ScriptedEngine scripted(EngineOptions options = {}) {
  return ScriptedEngine(temp_file("script.jsonl", kScript), qwen3(), options);
}

GenerateRequest request_for(std::string_view user_text, std::size_t max_tokens = 1000) {
  GenerateRequest request;
  request.prompt = encode("<|im_start|>user\n" + std::string(user_text) + "<|im_end|>\n<|im_start|>assistant\n");
  request.max_tokens = max_tokens;
  return request;
}

TEST(ScriptedEngine, PicksTheLineWhoseMatchEndsLatestInThePrompt) {
  auto engine = scripted();
  auto pick = [&](std::string_view text) { return engine.pick(request_for(text).prompt); };
  EXPECT_EQ(pick("Tell me a joke"), 3u);              // no match: the first "match": "" (blank lines do not count)
  EXPECT_EQ(pick("How is the weather?"), 1u);         // weather
  EXPECT_EQ(pick("Paris: how is the weather?"), 1u);  // weather ends after Paris
  EXPECT_EQ(pick("The weather in Paris?"), 0u);       // Paris and in Paris end together: line 0 first
  EXPECT_EQ(pick("weather Paris weather"), 1u);       // the last occurrence counts
  EXPECT_EQ(pick("boom"), 5u);

  // A chat prompt: the user's message comes after the system message that mentions the weather.
  auto chat = ChatTemplate::load(model_path("qwen3"));
  std::string prompt = chat.apply(R"([{"role": "system", "content": "You report the weather."},
                                     {"role": "user", "content": "I am in Paris."}])");
  EXPECT_EQ(engine.pick(encode(prompt)), 0u);

  // The answer: the line's text encoded, then EOS.
  Collected c = run([&] { return generate_all(engine, request_for("weather?")); });
  EXPECT_EQ(c.ids, with_eos(encode("Sunny, 21 degrees.")));
  EXPECT_EQ(c.stop, EngineStop::kEos);
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(qwen3().decode(c.ids, {.skip_special_tokens = true}), "Sunny, 21 degrees.");

  // "ids" lines give their ids as they are.
  c = run([&] { return generate_all(engine, request_for("raw")); });
  EXPECT_EQ(c.ids, (std::vector<TokenId>{151667, 198, 151668, eos_id()}));
}

TEST(ScriptedEngine, ProbeIsOkWithTheConfiguredContext) {
  auto engine = scripted({.scripted_context = 4096});
  EngineStatus status = run([&] { return engine.probe(); });
  EXPECT_TRUE(status.ok);
  EXPECT_EQ(status.context, 4096u);
  EXPECT_EQ(status.slots, 0u);
  EXPECT_EQ(engine.describe().substr(0, 9), "scripted:");
}

TEST(ScriptedEngine, HonoursMaxTokensCountingEos) {
  auto engine = scripted();
  const auto answer = with_eos(encode("Sunny, 21 degrees."));
  for (std::size_t max : {std::size_t{0}, std::size_t{1}, std::size_t{3}, answer.size() - 1}) {
    Collected c = run([&] { return generate_all(engine, request_for("weather", max)); });
    EXPECT_EQ(c.ids, std::vector<TokenId>(answer.begin(), answer.begin() + max)) << max;
    EXPECT_EQ(c.stop, EngineStop::kLength) << max;
  }
  for (std::size_t max : {answer.size(), answer.size() + 5}) {  // EOS is the last token allowed
    Collected c = run([&] { return generate_all(engine, request_for("weather", max)); });
    EXPECT_EQ(c.ids, answer);
    EXPECT_EQ(c.stop, EngineStop::kEos);
  }
}

TEST(ScriptedEngine, IgnoreEosRepeatsTheAnswerUntilMaxTokens) {
  auto engine = scripted();
  const auto answer = encode("Sunny, 21 degrees.");
  auto request = request_for("weather", answer.size() * 2 + 3);
  request.ignore_eos = true;
  Collected c = run([&] { return generate_all(engine, request); });
  ASSERT_EQ(c.ids.size(), request.max_tokens);
  for (std::size_t i = 0; i < c.ids.size(); ++i) EXPECT_EQ(c.ids[i], answer[i % answer.size()]) << i;
  EXPECT_EQ(c.stop, EngineStop::kLength);
}

TEST(ScriptedEngine, KeepsItsRate) {
  // 50 ids/s: one id per event, the 20th at 0.4 s after generate().
  auto engine = scripted({.scripted_rate = 50});
  auto request = request_for("weather", 20);
  request.ignore_eos = true;
  auto start = Clock::now();
  Collected c = run([&] { return generate_all(engine, request); });
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(c.ids.size(), 20u);
  EXPECT_EQ(c.events, 20u);  // the last id comes with done
  EXPECT_GE(seconds, 0.39);
  EXPECT_LT(seconds, 5.0);  // loose: a loaded machine is slow, never faster

  // As fast as possible: events of several ids.
  auto fast = scripted();
  request.max_tokens = 1000;
  c = run([&] { return generate_all(fast, request); });
  EXPECT_EQ(c.ids.size(), 1000u);
  EXPECT_LT(c.events, 1000u / 4);
}

TEST(ScriptedEngine, AtFullSpeedStreamsTakeTurns) {
  // Two endless streams on one thread: each yields between events, so neither runs alone.
  auto engine = scripted();
  std::vector<int> order;
  auto drain = [&](int who) -> asio::awaitable<void> {
    auto request = request_for("weather", 2000);
    request.ignore_eos = true;
    auto stream = co_await engine.generate(request);
    EngineEvent event;
    do {
      co_await stream->next(event);
      order.push_back(who);
    } while (!event.done);
  };
  asio::io_context io;
  asio::co_spawn(io, drain(0), asio::detached);
  asio::co_spawn(io, drain(1), asio::detached);
  io.run();
  ASSERT_EQ(order.size(), 2 * 250u);
  std::size_t switches = 0;
  for (std::size_t i = 1; i < order.size(); ++i) switches += order[i] != order[i - 1];
  EXPECT_GT(switches, 400u);
}

TEST(ScriptedEngine, LogprobsAreSyntheticAndOnePerId) {
  auto engine = scripted();
  auto request = request_for("weather");
  request.top_logprobs = 3;
  Collected c = run([&] { return generate_all(engine, request); });
  ASSERT_EQ(c.logprobs.size(), c.ids.size());
  for (std::size_t i = 0; i < c.ids.size(); ++i) {
    const TokenLogprob& lp = c.logprobs[i];
    EXPECT_EQ(lp.id, c.ids[i]);
    EXPECT_FLOAT_EQ(lp.logprob, std::log(0.5f));
    ASSERT_EQ(lp.top.size(), 3u);
    EXPECT_EQ(lp.top[0].first, lp.id);
    EXPECT_FLOAT_EQ(lp.top[2].second, std::log(0.125f));
  }
  request.top_logprobs = -1;
  c = run([&] { return generate_all(engine, request); });
  EXPECT_TRUE(c.logprobs.empty());
}

TEST(ScriptedEngine, CancelEndsAPendingNextAtOnce) {
  auto engine = scripted({.scripted_rate = 2});  // an id every 500 ms
  Collected c = run([&]() -> asio::awaitable<Collected> {
    auto stream = co_await engine.generate(request_for("weather"));
    asio::steady_timer timer(co_await asio::this_coro::executor, 50ms);
    timer.async_wait([&](auto) { stream->cancel(); });
    Collected got = co_await collect(*stream);
    stream->cancel();  // again, after the end: nothing happens
    co_return got;
  });
  EXPECT_TRUE(c.ids.empty());
  EXPECT_EQ(c.stop, EngineStop::kAborted);
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.events, 1u);

  // Cancelled between two next(): the next one ends the stream.
  c = run([&]() -> asio::awaitable<Collected> {
    auto stream = co_await engine.generate(request_for("weather"));
    stream->cancel();
    co_return co_await collect(*stream);
  });
  EXPECT_EQ(c.stop, EngineStop::kAborted);
  EXPECT_TRUE(c.ids.empty());
}

TEST(ScriptedEngine, CancelIsPrompt) {
  auto engine = scripted({.scripted_rate = 1});
  double waited = run([&]() -> asio::awaitable<double> {
    auto stream = co_await engine.generate(request_for("weather"));
    asio::steady_timer timer(co_await asio::this_coro::executor, 20ms);
    Clock::time_point cancelled_at;
    timer.async_wait([&](auto) {
      cancelled_at = Clock::now();
      stream->cancel();
    });
    EngineEvent event;
    co_await stream->next(event);
    EXPECT_TRUE(event.done);
    EXPECT_EQ(event.stop, EngineStop::kAborted);
    co_return std::chrono::duration<double>(Clock::now() - cancelled_at).count();
  });
  EXPECT_LT(waited, 0.2);  // the timer of the next id (1 s away) does not hold it
}

TEST(ScriptedEngine, AFaultLineFailsAfterItsIds) {
  auto engine = scripted({.scripted_rate = 1000});
  Collected c = run([&] { return generate_all(engine, request_for("boom")); });
  auto answer = encode("one two three four five");
  EXPECT_EQ(c.ids, std::vector<TokenId>(answer.begin(), answer.begin() + 2));
  EXPECT_NE(c.error.find("simulated crash"), std::string::npos) << c.error;
  EXPECT_EQ(c.stop, EngineStop::kNone);

  // At full speed the ids come in one event and the error in the next.
  auto fast = scripted();
  c = run([&] { return generate_all(fast, request_for("boom")); });
  EXPECT_EQ(c.ids, std::vector<TokenId>(answer.begin(), answer.begin() + 2));
  EXPECT_EQ(c.events, 2u);
  EXPECT_NE(c.error.find("simulated crash"), std::string::npos) << c.error;

  // A fault beyond the end of the answer never comes.
  c = run([&] { return generate_all(fast, request_for("late")); });
  EXPECT_EQ(c.ids, with_eos(encode("short")));
  EXPECT_EQ(c.stop, EngineStop::kEos);
  EXPECT_EQ(c.error, "");
}

// The message of the InputError that loading `text` throws.
std::string load_error(const std::string& text) {
  try {
    ScriptedEngine(temp_file("bad.jsonl", text), qwen3());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ScriptedEngine, RefusesBadFilesNamingTheLine) {
  const std::string ok = jsonl_line("", "hi");
  EXPECT_NE(load_error(ok + "\n{\"match\": \"x\", \"text\": 3}\n").find("bad.jsonl:3: \"text\" must be a string"),
            std::string::npos)
      << load_error(ok + "\n{\"match\": \"x\", \"text\": 3}\n");
  EXPECT_NE(load_error(ok + "{\"match\": \"x\", \"text\": \"a\"\n").find("bad.jsonl:2: not a JSON object"),
            std::string::npos);
  EXPECT_NE(load_error(ok + "[1]\n").find(":2: not a JSON object"), std::string::npos);
  EXPECT_NE(load_error(ok + "{\"match\": \"x\", \"txt\": \"a\"}\n").find(":2: unknown key \"txt\""), std::string::npos);
  EXPECT_NE(load_error(ok + "{\"text\": \"a\"}\n").find(":2: no \"match\""), std::string::npos);
  EXPECT_NE(load_error(ok + "{\"match\": \"x\"}\n").find(":2: needs exactly one of"), std::string::npos);
  EXPECT_NE(load_error(ok + "{\"match\": \"x\", \"text\": \"a\", \"ids\": [1]}\n").find(":2: needs exactly one of"),
            std::string::npos);
  EXPECT_NE(load_error(ok + "{\"match\": \"x\", \"ids\": [99999999]}\n").find(":2: \"ids\" must hold ids below"),
            std::string::npos);
  EXPECT_NE(load_error(ok + jsonl_line("x", "a", ", \"fail_after\": 1")).find(":2: \"fail_after\" needs an \"error\""),
            std::string::npos);
  EXPECT_NE(
      load_error(ok + jsonl_line("x", "a", ", \"fail_after\": -1, \"error\": \"e\"")).find(":2: \"fail_after\" must"),
      std::string::npos);
  EXPECT_NE(load_error(jsonl_line("x", "a")).find("no line with \"match\": \"\""), std::string::npos);
  EXPECT_NE(load_error("").find("no line with \"match\": \"\""), std::string::npos);
  try {
    ScriptedEngine("/nonexistent/answers.jsonl", qwen3());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read /nonexistent/answers.jsonl"), std::string::npos) << e.what();
  }
  // The line's byte offset.
  try {
    ScriptedEngine(temp_file("bad.jsonl", ok + "{}\n"), qwen3());
  } catch (const InputError& e) {
    EXPECT_EQ(e.byte_offset(), ok.size());
  }
}

// ---- make_engine ---------------------------------------------------------------------------

TEST(MakeEngine, ParsesUrlsAndNamesABadOne) {
  asio::io_context io;
  auto file = temp_file("script.jsonl", kScript);
  EXPECT_EQ(make_engine("scripted:" + file, qwen3(), io.get_executor())->describe(), "scripted:" + file);
  EXPECT_EQ(make_engine("llamacpp://127.0.0.1:8080", qwen3(), io.get_executor())->describe(),
            "llamacpp://127.0.0.1:8080");
  EXPECT_EQ(make_engine("llamacpp://localhost:1/", qwen3(), io.get_executor())->describe(), "llamacpp://localhost:1");
  EXPECT_EQ(make_engine("llamacpp://[::1]:65535", qwen3(), io.get_executor())->describe(), "llamacpp://[::1]:65535");
  for (std::string url : {"http://127.0.0.1:8080", "llamacpp://", "llamacpp://host", "llamacpp://host:",
                          "llamacpp://:80", "llamacpp://host:0", "llamacpp://host:65536", "llamacpp://host:80x",
                          "llamacpp://[::1]80", "llamacpp://a/b:80", "scripted:", "scripted:/nonexistent.jsonl", ""}) {
    try {
      make_engine(url, qwen3(), io.get_executor());
      ADD_FAILURE() << url << ": no error";
    } catch (const InputError& e) {
      std::string what = e.what();
      if (url.starts_with("scripted:/"))
        EXPECT_NE(what.find("/nonexistent.jsonl"), std::string::npos) << what;
      else
        EXPECT_NE(what.find("\"" + url + "\""), std::string::npos) << what;
    }
  }
}

// ---- llamacpp:, against stand-in servers ---------------------------------------------------

// Accepts one connection on a free loopback port, reads one request and answers `response`
// (raw bytes), then closes, or with `hold` keeps the connection open until the io_context stops.
struct StandIn {
  asio::ip::tcp::acceptor acceptor;
  unsigned short port;
  std::string request;  // what the adapter sent
  StandIn(asio::io_context& io, std::string response, bool hold = false)
      : acceptor(io, {asio::ip::make_address("127.0.0.1"), 0}), port(acceptor.local_endpoint().port()) {
    asio::co_spawn(io, serve(std::move(response), hold), asio::detached);
  }
  asio::awaitable<void> serve(std::string response, bool hold) {
    auto socket = co_await acceptor.async_accept(asio::use_awaitable);
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> r;
    co_await http::async_read(socket, buffer, r, asio::use_awaitable);
    request = r.body();
    co_await asio::async_write(socket, asio::buffer(response), asio::use_awaitable);
    if (hold) {
      char byte;
      co_await socket.async_read_some(asio::buffer(&byte, 1), asio::as_tuple(asio::use_awaitable));
    }
  }
};

const std::string kSseHeader =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
std::string chunk(const std::string& s) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", s.size());
  return size + s + "\r\n";
}

// The stream a stand-in's answer gives.
Collected against(const std::string& response, EngineOptions options = {}, bool hold = false,
                  GenerateRequest request = request_for("hi", 10)) {
  asio::io_context io;
  StandIn server(io, response, hold);
  LlamaCppEngine engine("127.0.0.1", server.port, options);
  auto future = asio::co_spawn(
      io,
      [&]() -> asio::awaitable<Collected> {
        Collected c = co_await generate_all(engine, request);
        io.stop();  // also ends a held connection
        co_return c;
      },
      asio::use_future);
  io.run();
  return future.get();
}

TEST(LlamaCppStandIn, ReadsTokensAndStopFromTheEventStream) {
  std::string body = chunk("data: {\"tokens\":[11,12],\"stop\":false,\"content\":\"ignored\"}\n\n") +
                     chunk(": ping\n\n") +                                                  // a comment
                     chunk("data: {\"tokens\":[13],\"stop\":false}\r\n\r\ndata: {\"tok") +  // split anywhere
                     chunk("ens\":[],\"stop\":true,\"stop_type\":\"limit\"}\n\n") + chunk("");
  Collected c = against(kSseHeader + body);
  EXPECT_EQ(c.ids, (std::vector<TokenId>{11, 12, 13}));
  EXPECT_EQ(c.stop, EngineStop::kLength);
  EXPECT_EQ(c.error, "");

  c = against(kSseHeader +
              chunk("data: {\"tokens\":[5],\"stop\":false}\n\ndata: {\"tokens\":[],\"stop\":true,"
                    "\"stop_type\":\"eos\"}\n\n") +
              chunk(""));
  EXPECT_EQ(c.ids, (std::vector<TokenId>{5}));
  EXPECT_EQ(c.stop, EngineStop::kEos);
  EXPECT_EQ(c.events, 1u);  // both events were there: one engine event

  // Never more than max_tokens ids, whatever the engine sends.
  c = against(kSseHeader + chunk("data: {\"tokens\":[7,8],\"stop\":false}\n\n"), {}, /*hold=*/true,
              request_for("hi", 1));
  EXPECT_EQ(c.ids, (std::vector<TokenId>{7}));
  EXPECT_EQ(c.stop, EngineStop::kLength);
}

TEST(LlamaCppStandIn, SendsTokenIdsAndTheRequestFields) {
  asio::io_context io;
  StandIn server(io, kSseHeader + chunk("data: {\"tokens\":[],\"stop\":true,\"stop_type\":\"eos\"}\n\n") + chunk(""));
  LlamaCppEngine engine("127.0.0.1", server.port);
  GenerateRequest request;
  request.prompt = {1, 2, 3};
  request.max_tokens = 7;
  request.sampling.temperature = 0.5;
  request.sampling.top_k = -1;
  request.sampling.seed = 42;
  request.sampling.repetition_penalty = 1.1;
  request.sampling.logit_bias = {{5, -100}, {6, -INFINITY}, {7, 2.5}};
  request.ignore_eos = true;
  request.top_logprobs = 0;
  asio::co_spawn(io, generate_all(engine, request), asio::detached);
  io.run();
  EXPECT_EQ(server.request,
            "{\"prompt\":[1,2,3],\"stream\":true,\"return_tokens\":true,\"cache_prompt\":true,\"n_predict\":7,"
            "\"response_fields\":[\"tokens\",\"stop\",\"stop_type\",\"tokens_predicted\"],\"temperature\":0.5,"
            "\"repeat_penalty\":1.1,\"top_k\":0,\"seed\":42,\"logit_bias\":[[5,-100],[6,false],[7,2.5]],"
            "\"ignore_eos\":true,\"n_probs\":1}");
}

TEST(LlamaCppStandIn, ARefusalIsAnErrorEvent) {
  std::string body =
      R"({"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}})";
  Collected c = against("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_TRUE(c.ids.empty());
  EXPECT_NE(c.error.find("HTTP 400"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("the request exceeds the available context size"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("llamacpp://127.0.0.1:"), std::string::npos) << c.error;
}

TEST(LlamaCppStandIn, GarbageIsAnErrorEvent) {
  for (std::string bad : {"data: not json\n\n", "data: {\"content\":\"text only\",\"stop\":false}\n\n",
                          "data: {\"tokens\":[-1],\"stop\":false}\n\n", "data: [1,2]\n\n",
                          "data: {\"error\":{\"message\":\"decode failed\"}}\n\n"}) {
    Collected c = against(kSseHeader + chunk(bad) + chunk(""));
    EXPECT_FALSE(c.error.empty()) << bad;
    EXPECT_TRUE(c.ids.empty()) << bad;
  }
  Collected c = against("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_NE(c.error.find("not an event stream"), std::string::npos) << c.error;
  c = against("this is not HTTP\r\n\r\n");
  EXPECT_FALSE(c.error.empty());
}

TEST(LlamaCppStandIn, AStreamCutShortIsAnErrorEvent) {
  // Closed without the final event, inside a chunk, or after the last chunk.
  for (std::string body : {chunk("data: {\"tokens\":[4],\"stop\":false}\n\n"),
                           chunk("data: {\"tokens\":[4],\"stop\":false}\n\n") + "40\r\ndata: {\"to",
                           chunk("data: {\"tokens\":[4],\"stop\":false}\n\n") + chunk("")}) {
    Collected c = against(kSseHeader + body);
    EXPECT_EQ(c.ids, std::vector<TokenId>{4});
    EXPECT_FALSE(c.error.empty());
    EXPECT_EQ(c.stop, EngineStop::kNone);
  }
}

TEST(LlamaCppStandIn, ASilentStreamFailsAfterTheStallTimeout) {
  auto start = Clock::now();
  Collected c = against(kSseHeader + chunk("data: {\"tokens\":[4],\"stop\":false}\n\n"), {.stall_timeout = 0.3},
                        /*hold=*/true);
  EXPECT_EQ(c.ids, std::vector<TokenId>{4});
  EXPECT_NE(c.error.find("sent nothing for"), std::string::npos) << c.error;
  EXPECT_GE(Clock::now() - start, 290ms);
}

TEST(LlamaCppStandIn, CancelEndsAPendingNext) {
  asio::io_context io;
  StandIn server(io, kSseHeader, /*hold=*/true);
  LlamaCppEngine engine("127.0.0.1", server.port);
  auto future = asio::co_spawn(
      io,
      [&]() -> asio::awaitable<Collected> {
        auto stream = co_await engine.generate(request_for("hi"));
        asio::steady_timer timer(co_await asio::this_coro::executor, 50ms);
        timer.async_wait([&](auto) { stream->cancel(); });
        Collected c = co_await collect(*stream);
        stream->cancel();
        io.stop();
        co_return c;
      },
      asio::use_future);
  io.run();
  Collected c = future.get();
  EXPECT_EQ(c.stop, EngineStop::kAborted);
  EXPECT_EQ(c.error, "");
}

TEST(LlamaCppStandIn, NoEngineThereIsAnEngineErrorNamingTheAddress) {
  unsigned short port = test_support::free_loopback_port();
  LlamaCppEngine engine("127.0.0.1", port);
  try {
    run([&] { return generate_all(engine, request_for("hi")); });
    ADD_FAILURE() << "no error";
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("llamacpp://127.0.0.1:" + std::to_string(port)), std::string::npos)
        << e.what();
  }
  EngineStatus status = run([&] { return engine.probe(); });
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.error.find("cannot connect"), std::string::npos) << status.error;

  LlamaCppEngine nowhere("no-such-host.invalid", 8080);
  EXPECT_THROW(run([&] { return generate_all(nowhere, request_for("hi")); }), EngineError);
}

// ---- llamacpp:, against the real llama-server ------------------------------------------------

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// One llama-server for the suite: 4 slots of a 4096-token context.
class LlamaCpp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (env("LLAMA_SERVER").empty() || env("ENGINE_MODEL").empty()) return;
    server_ = new test_support::LlamaServer(env("LLAMA_SERVER"),
                                            {"-m", env("ENGINE_MODEL"), "-c", "4096", "-np", "4", "--no-warmup"});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(server_) << "LLAMA_SERVER and ENGINE_MODEL are not set: run eval \"$(scripts/engine.sh)\" first "
                            "(it builds llama-server and the random-weight Qwen3 model)";
  }
  LlamaCppEngine engine(EngineOptions options = {}) { return LlamaCppEngine("127.0.0.1", server_->port(), options); }

  // How many slots are processing, from GET /slots.
  static int busy_slots() {
    auto slots = server_->get("/slots", 10s);
    EXPECT_EQ(slots.status, 200) << slots.body;
    int busy = 0;
    for (std::size_t at = 0; (at = slots.body.find("\"is_processing\":", at)) != std::string::npos; ++at)
      busy += slots.body.compare(at + 16, 4, "true") == 0;
    return busy;
  }

  static inline test_support::LlamaServer* server_ = nullptr;
};

GenerateRequest chat_request(const std::string& user, std::size_t max_tokens) {
  static const auto chat = ChatTemplate::load(model_path("qwen3"));
  GenerateRequest request;
  std::string messages = "[{\"role\": \"user\", \"content\": ";
  detail::append_json_string(messages, user);
  request.prompt = encode(chat.apply(messages + "}]"));
  request.max_tokens = max_tokens;
  return request;
}

TEST_F(LlamaCpp, ProbeReadsContextAndSlots) {
  auto e = engine();
  EngineStatus status = run([&] { return e.probe(); });
  EXPECT_TRUE(status.ok) << status.error;
  EXPECT_GT(status.context, 0u);
  EXPECT_LE(status.context, 4096u);
  EXPECT_EQ(status.slots, 4u);
  std::printf("llama-server /props: context %zu per slot, %zu slots\n", status.context, status.slots);
}

TEST_F(LlamaCpp, StreamsIdsUntilMaxTokens) {
  auto e = engine();
  auto request = chat_request("Write a long story about a lighthouse.", 40);
  request.ignore_eos = true;
  request.sampling.temperature = 0;
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.stop, EngineStop::kLength);
  EXPECT_EQ(c.ids.size(), 40u) << "ids: " << ::testing::PrintToString(c.ids);
  for (TokenId id : c.ids) EXPECT_LT(id, qwen3().vocab_size());
  EXPECT_GT(c.events, 1u);

  request.max_tokens = 0;  // llama-server would make one
  c = run([&] { return generate_all(e, request); });
  EXPECT_TRUE(c.ids.empty());
  EXPECT_EQ(c.stop, EngineStop::kLength);
  EXPECT_EQ(busy_slots(), 0);

  // A slot's context (1024 here) ends a generation early, as "limit" too.
  request.prompt.resize(1000, request.prompt.back());
  request.max_tokens = 100;
  c = run([&] { return generate_all(e, request); });
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.stop, EngineStop::kLength);
  EXPECT_LT(c.ids.size(), 30u);
}

TEST_F(LlamaCpp, StopsAtEosWithTheEosIdLast) {
  // A bias makes EOS the likeliest token (random weights would rarely pick it).
  auto e = engine();
  auto request = chat_request("Say nothing.", 50);
  request.sampling.logit_bias = {{eos_id(), 100}};
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.stop, EngineStop::kEos);
  EXPECT_EQ(c.ids, std::vector<TokenId>{eos_id()});
}

TEST_F(LlamaCpp, LogprobsComeWithEachId) {
  auto e = engine();
  auto request = chat_request("Hello", 12);
  request.ignore_eos = true;
  request.top_logprobs = 3;
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_EQ(c.error, "");
  ASSERT_EQ(c.logprobs.size(), c.ids.size());
  for (std::size_t i = 0; i < c.ids.size(); ++i) {
    const TokenLogprob& lp = c.logprobs[i];
    EXPECT_EQ(lp.id, c.ids[i]);
    EXPECT_LE(lp.logprob, 0.0f);
    ASSERT_EQ(lp.top.size(), 3u);
    EXPECT_GE(lp.top[0].second, lp.top[1].second);
    EXPECT_GE(lp.top[0].second, lp.logprob);
  }
  request.top_logprobs = 0;  // the sampled id's alone
  c = run([&] { return generate_all(e, request); });
  ASSERT_EQ(c.logprobs.size(), c.ids.size());
  for (const auto& lp : c.logprobs) EXPECT_TRUE(lp.top.empty());
}

TEST_F(LlamaCpp, ASeedRepeatsTheSample) {
  auto e = engine();
  auto request = chat_request("Pick random words.", 24);
  request.ignore_eos = true;
  request.sampling.temperature = 1.5;
  request.sampling.top_k = 0;
  request.sampling.top_p = 1.0;
  request.sampling.min_p = 0.0;
  request.sampling.seed = 1234;
  Collected a = run([&] { return generate_all(e, request); });
  Collected b = run([&] { return generate_all(e, request); });
  EXPECT_EQ(a.ids, b.ids);
  request.sampling.seed = 4321;
  Collected other = run([&] { return generate_all(e, request); });
  EXPECT_NE(a.ids, other.ids);
}

TEST_F(LlamaCpp, AGrammarConstrainsTheOutput) {
  auto e = engine();
  auto request = chat_request("Answer yes or no.", 20);
  request.constraint_regex = "(?:yes|no)(?:, (?:yes|no)){0,2}";
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.stop, EngineStop::kEos) << qwen3().decode(c.ids);
  ASSERT_FALSE(c.ids.empty());
  // The model may end with any token llama.cpp counts as end of generation, "</s>" included.
  EXPECT_TRUE(std::set<TokenId>({151643, 151645, 151662, 151663, 151664, 128247}).count(c.ids.back())) << c.ids.back();
  std::string text = qwen3().decode(std::span(c.ids).first(c.ids.size() - 1));
  EXPECT_TRUE(std::set<std::string>({"yes", "no"}).count(text.substr(0, text.find(',')))) << text;
}

TEST_F(LlamaCpp, IgnoreEosWithACompletedGrammarIsAnErrorEvent) {
  auto e = engine();
  auto request = chat_request("Answer yes or no.", 20);
  request.constraint_regex = "yes|no";
  request.ignore_eos = true;
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_NE(c.error.find("failed"), std::string::npos) << c.error;
  std::printf("ignore_eos with a grammar: %s\n", c.error.c_str());
  EXPECT_EQ(busy_slots(), 0);
}

TEST_F(LlamaCpp, IdsLlamaServerDoesNotSendAreAnErrorNotAHole) {
  // Token 124026 is the first three bytes of the four of U+1D518: its text ends inside the
  // character, and llama-server sends no id for it while the character is incomplete.
  auto e = engine();
  auto request = chat_request("Hi", 5);
  request.ignore_eos = true;
  request.sampling.temperature = 0;
  request.sampling.logit_bias = {{124026, 100}};
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_TRUE(c.ids.empty());
  EXPECT_NE(c.error.find("did not send the ids of 5 of the 5 tokens"), std::string::npos) << c.error;
}

TEST_F(LlamaCpp, InvalidTokensAreRefused) {
  auto e = engine();
  GenerateRequest request;
  request.prompt = {1, 2, 100000000};
  Collected c = run([&] { return generate_all(e, request); });
  EXPECT_NE(c.error.find("HTTP 400"), std::string::npos) << c.error;
  std::printf("refusal: %s\n", c.error.c_str());
}

TEST_F(LlamaCpp, CancelFreesTheSlot) {
  ASSERT_EQ(busy_slots(), 0);
  auto e = engine();
  auto request = chat_request("Tell me everything.", 100000);
  request.ignore_eos = true;
  double freed_after = run([&]() -> asio::awaitable<double> {
    auto stream = co_await e.generate(request);
    EngineEvent event;
    std::size_t ids = 0;
    while (ids < 5) {
      co_await stream->next(event);
      EXPECT_FALSE(event.done) << event.error;
      if (event.done) co_return -1;
      ids += event.ids.size();
    }
    EXPECT_EQ(busy_slots(), 1);
    auto cancelled = Clock::now();
    stream->cancel();
    co_await stream->next(event);
    EXPECT_TRUE(event.done);
    EXPECT_EQ(event.stop, EngineStop::kAborted);
    while (busy_slots() != 0 && Clock::now() - cancelled < 10s) std::this_thread::sleep_for(1ms);
    co_return std::chrono::duration<double>(Clock::now() - cancelled).count();
  });
  EXPECT_EQ(busy_slots(), 0);
  EXPECT_GE(freed_after, 0);
  EXPECT_LT(freed_after, 1.0);
  std::printf("cancel to slot free: %.1f ms\n", freed_after * 1000);
}

TEST_F(LlamaCpp, AKilledServerEndsTheStreamWithAnError) {
  // A second server whose pid the shell writes down before it becomes llama-server.
  std::string pid_file = temp_file("llama.pid", "");
  test_support::LlamaServer victim("/bin/sh", {"-c", "echo $$ > \"$0\"; exec \"$@\"", pid_file, env("LLAMA_SERVER"),
                                               "-m", env("ENGINE_MODEL"), "-c", "1024", "-np", "1", "--no-warmup"});
  pid_t pid = 0;
  std::ifstream(pid_file) >> pid;
  ASSERT_GT(pid, 0);
  LlamaCppEngine e("127.0.0.1", victim.port());
  auto request = chat_request("Go on forever.", 100000);
  request.ignore_eos = true;
  auto start = Clock::now();
  Collected c = run([&]() -> asio::awaitable<Collected> {
    auto stream = co_await e.generate(request);
    EngineEvent event;
    co_await stream->next(event);  // it streams
    EXPECT_FALSE(event.done) << event.error;
    ::kill(pid, SIGKILL);
    Collected rest = co_await collect(*stream);
    rest.ids.insert(rest.ids.begin(), event.ids.begin(), event.ids.end());
    co_return rest;
  });
  EXPECT_FALSE(c.ids.empty());
  EXPECT_NE(c.error.find("closed the connection"), std::string::npos) << c.error;
  EXPECT_LT(Clock::now() - start, 30s);
}

// llama-server's own /tokenize of texts of many kinds must give textedge's ids: the GGUF carries
// the tokenizer faithfully. Every difference is listed.
TEST_F(LlamaCpp, TokenizesAsTextedge) {
  const std::vector<std::string> texts = {
      "Hello, world!",
      "  leading spaces, trailing spaces   ",
      "line one\nline two\r\n\ttabbed\n\n\n",
      "Ünïcödé façade, naïve café, Straße, ÆØÅ",
      "Привет, как дела? Добро пожаловать.",
      "Γειά σου Κόσμε",
      "日本語のテキストと漢字、カタカナ。",
      "中文分词测试：你好，世界！",
      "한국어 텍스트입니다",
      "مرحبا بالعالم",
      "שלום עולם",
      "हिन्दी में पाठ",
      "ภาษาไทย",
      "emoji: 👋🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ 🤖🚀",
      "numbers 1234567890 3.14159 -42 1e10 ١٢٣",
      "def f(x):\n    return x ** 2  # square\n",
      "int main() { std::vector<int> v{1, 2, 3}; return v[0]; }",
      "{\"key\": [1, 2, {\"nested\": null}], \"s\": \"\\u00e9\"}",
      "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n",
      "<think>\nreasoning\n</think>\n\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>",
      "<|endoftext|><|im_end|>text<|im_start|>",
      "don't won't I'm we'll they've ISN'T",
      "https://example.com/path?query=1&b=2#frag",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "  \u00a0 \u2003 \u3000 non-breaking and wide spaces",
      "zero\u200bwidth\u200djoiner",
      "",
  };
  std::string report;
  std::size_t differences = 0;
  for (const std::string& text : texts) {
    std::string body = "{\"content\": ";
    detail::append_json_string(body, text);
    body += ", \"add_special\": false, \"parse_special\": true}";
    auto response = server_->post_json("/tokenize", body, 30s);
    ASSERT_EQ(response.status, 200) << response.body;
    std::vector<TokenId> theirs;
    simdjson::dom::parser parser;
    simdjson::dom::array tokens;
    ASSERT_FALSE(parser.parse(response.body)["tokens"].get(tokens)) << response.body;
    for (auto t : tokens) theirs.push_back(static_cast<TokenId>(std::uint64_t(t)));
    std::vector<TokenId> ours = encode(text);
    if (theirs != ours) {
      ++differences;
      std::string escaped;
      detail::append_json_string(escaped, text);
      report += escaped + "\n  textedge:     " + ::testing::PrintToString(ours) +
                "\n  llama-server: " + ::testing::PrintToString(theirs) + "\n";
    }
  }
  EXPECT_EQ(differences, 0u) << report;
  if (differences) std::printf("tokenize differences:\n%s", report.c_str());
}

// llama-server's ids for llama-server's /tokenize of `text` (special tokens parsed, none added).
std::vector<TokenId> llama_tokenize(const test_support::LlamaServer& server, const std::string& text) {
  std::string body = "{\"content\": ";
  detail::append_json_string(body, text);
  body += ", \"add_special\": false, \"parse_special\": true}";
  auto response = server.post_json("/tokenize", body, 60s);
  std::vector<TokenId> ids;
  simdjson::dom::parser parser;
  simdjson::dom::array tokens;
  if (response.status != 200 || parser.parse(response.body)["tokens"].get(tokens))
    throw std::runtime_error("/tokenize: HTTP " + std::to_string(response.status) + ": " +
                             response.body.substr(0, 300));
  for (auto t : tokens) ids.push_back(static_cast<TokenId>(std::uint64_t(t)));
  return ids;
}

// Whether `text` has a code point that Unicode 15 (Debian's utf8proc) leaves unassigned: the
// reference's tables are Unicode 16's, llama.cpp's older, so a Unicode 16 letter or digit is not
// one there and the pre-tokenizer splits differently around it.
bool has_unicode16(const std::string& text) {
  auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  for (utf8proc_ssize_t at = 0, n; at < static_cast<utf8proc_ssize_t>(text.size()); at += n) {
    utf8proc_int32_t cp;
    n = utf8proc_iterate(p + at, static_cast<utf8proc_ssize_t>(text.size()) - at, &cp);
    if (n <= 0) return false;
    if (utf8proc_category(cp) == UTF8PROC_CATEGORY_CN) return true;
  }
  return false;
}

// The same over the whole reference corpus (the goldens of Hugging Face tokenizers that
// reference_test checks textedge against). llama.cpp's tokenizer has no normalizer (a GGUF cannot
// carry one), and Qwen3's tokenizer.json normalizes to NFC, so every text that is not in NFC may
// differ: those whose NFC form llama-server tokenizes as the reference are counted and shown as
// the known difference. So are texts with characters new in Unicode 16 (see has_unicode16), and
// "</s>": a plain token of Qwen3's vocabulary that the reference
// never makes from text (no merges reach it), which llama.cpp takes for an end-of-generation
// control token and cuts out whole. Any other difference fails.
TEST_F(LlamaCpp, TokenizesTheReferenceCorpusAsTheReference) {
  const std::string path = reference::goldens_dir() + "/qwen3.jsonl";
  ASSERT_TRUE(std::filesystem::exists(path))
      << "goldens missing: " << path << "\n  run scripts/goldens.sh (or `make test`) to generate them";
  auto goldens = reference::load_goldens(path);
  struct Kind {
    std::size_t count = 0;
    std::map<std::string, std::size_t> by_category;
    std::string examples;
  };
  std::map<std::string, Kind> kinds;  // by cause
  std::size_t checked = 0;
  auto token_of = [](std::uint32_t id) { return qwen3().id_to_token(id).value_or("?"); };
  for (const auto& c : goldens.cases) {
    if (!c.is_encode || c.error) continue;
    std::vector<TokenId> theirs = llama_tokenize(*server_, c.text);
    ++checked;
    if (theirs == c.ids) continue;
    // The two known causes, alone or together: the ids llama-server gives for the text in NFC,
    // against the reference's with each "</s>" cut out whole as its token.
    std::string nfc = c.text;
    detail::normalizers::apply_normal_form(nfc, detail::normalizers::NormalForm::kNfc);
    const bool not_nfc = nfc != c.text, eog = c.text.find("</s>") != std::string::npos;
    std::vector<TokenId> expected = c.ids;
    if (eog) {
      expected.clear();
      for (std::size_t start = 0;;) {
        std::size_t at = c.text.find("</s>", start);
        auto piece = encode(std::string_view(c.text).substr(start, at - start));
        expected.insert(expected.end(), piece.begin(), piece.end());
        if (at == std::string::npos) break;
        expected.push_back(128247);
        start = at + 4;
      }
    }
    std::string name = "other";
    if ((not_nfc || eog) && (not_nfc ? llama_tokenize(*server_, nfc) : theirs) == expected)
      name = not_nfc && eog ? "not NFC, and </s>" : not_nfc ? "not NFC" : "</s>";
    else if (has_unicode16(c.text))
      name = "Unicode 16";
    Kind& kind = kinds[name];
    ++kind.count;
    if (++kind.by_category[c.category] <= 2 || name == "other") {
      std::size_t at = reference::first_difference(theirs, c.ids);
      kind.examples += "    " + c.category + " line " + std::to_string(c.line) + ": " + reference::escape(c.text, 100) +
                       "\n      reference:    " + reference::ids_around(c.ids, at, token_of) +
                       "\n      llama-server: " + reference::ids_around(theirs, at, token_of) + "\n";
    }
  }
  std::string report;
  for (const auto& [name, kind] : kinds) {
    report += "  " + name + ": " + std::to_string(kind.count) + " texts (";
    for (const auto& [category, n] : kind.by_category) report += category + " " + std::to_string(n) + ", ";
    report.resize(report.size() - 2);
    report += ")\n" + kind.examples;
  }
  std::printf("llama-server /tokenize against the reference, %zu texts:\n%s", checked, report.c_str());
  EXPECT_GT(checked, 1000u);
  EXPECT_EQ(kinds["other"].count, 0u) << report;
}

}  // namespace
}  // namespace textedge::server
