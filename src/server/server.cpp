#include "server/server.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "base/json_dom.hpp"
#include "base/json_string.hpp"
#include "server/api_error.hpp"
#include "server/engine.hpp"
#include "server/generation.hpp"
#include "server/metrics.hpp"
#include "server/openai_request.hpp"
#include "server/prompt_cache_pool.hpp"
#include "textedge/chat_template.hpp"
#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using asio::awaitable;
using Clock = std::chrono::steady_clock;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The model: immutable after start, shared by every thread.
struct Model {
  Tokenizer tokenizer;
  ChatTemplate chat;
  std::string name;
  OutputParserOptions parser;  // format and reasoning chosen at start
  std::string reasoning_open;  // e.g. "<think>": a prompt ending with it starts in reasoning
  ContentFormat content_format = ContentFormat::kString;
  std::size_t context = 0;
  bool has_template = true;  // false: the model has none and none was given
};

// Requests generating at once, and a bounded queue of those waiting.
class Gate {
 public:
  Gate(std::size_t max_running, std::size_t max_waiting, Metrics& m) : max_running_(max_running), max_waiting_(max_waiting), m_(m) {}
  // False when the queue is full.
  awaitable<bool> acquire() {
    auto ex = co_await asio::this_coro::executor;
    std::shared_ptr<asio::steady_timer> timer;
    {
      std::lock_guard lock(mu_);
      if (running_ < max_running_) {
        ++running_;
        m_.running = static_cast<std::int64_t>(running_);
        co_return true;
      }
      if (queue_.size() >= max_waiting_) co_return false;
      timer = std::make_shared<asio::steady_timer>(ex, Clock::time_point::max());
      queue_.push_back(timer);
      m_.waiting = static_cast<std::int64_t>(queue_.size());
    }
    co_await timer->async_wait(kTuple);  // woken by release(), which hands over its slot
    co_return true;
  }
  void release() {
    std::lock_guard lock(mu_);
    if (!queue_.empty()) {
      auto timer = queue_.front();
      queue_.pop_front();
      m_.waiting = static_cast<std::int64_t>(queue_.size());
      asio::post(timer->get_executor(), [timer] { timer->cancel(); });
      return;
    }
    --running_;
    m_.running = static_cast<std::int64_t>(running_);
  }

 private:
  std::mutex mu_;
  std::size_t running_ = 0, max_running_, max_waiting_;
  std::deque<std::shared_ptr<asio::steady_timer>> queue_;
  Metrics& m_;
};

// One request's generation: its choices, their engine streams, and the output not yet sent.
struct Run {
  explicit Run(asio::any_io_executor ex) : wake(ex, Clock::time_point::max()) {}
  ResponseHead head;
  bool stream = false;
  std::vector<std::unique_ptr<Choice>> choices;
  std::vector<std::unique_ptr<EngineStream>> engines;
  std::string pending;  // SSE text not yet written
  std::string unsent;   // the rest of a chunk a direct write sent only in part (already framed)
  bool head_sent = false, writer_busy = false;
  asio::steady_timer wake;
  std::size_t live = 0;
  bool finished = false, disconnected = false, overflow = false;
  std::string engine_error;
  Clock::time_point arrived;
  std::optional<double> ttft;
  void cancel_all() {
    for (auto& e : engines)
      if (e) e->cancel();
  }
};

struct RequestLog {
  std::string id = "-";
  int status = 200;
  std::size_t prompt_tokens = 0, completion_tokens = 0;
  std::optional<double> ttft;
};

std::string random_hex(std::size_t n) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char* digits = "0123456789abcdef";
  std::string s(n, '0');
  for (auto& c : s) c = digits[rng() & 15];
  return s;
}

class Server {
 public:
  Server(const ServerOptions& o, Model model)
      : o_(o), model_(std::move(model)), ioc_(1), gate_(o.max_concurrent, o.max_queue, metrics_) {
    for (unsigned i = 1; i < threads(); ++i) workers_.push_back(std::make_unique<asio::io_context>(1));
    EngineOptions eo;
    eo.scripted_rate = o.scripted_rate;
    engine_ = make_engine(o.engine, model_.tokenizer, ioc_.get_executor(), eo);
  }

  unsigned threads() const { return o_.threads ? o_.threads : std::max(1u, std::thread::hardware_concurrency()); }

  int run() {
    // The engine must answer before the port opens (llama-server loads its model first).
    auto status = asio::co_spawn(ioc_, wait_for_engine(), asio::use_future);
    ioc_.run();
    ioc_.restart();
    EngineStatus s = status.get();
    if (!s.ok) throw EngineError("engine " + engine_->describe() + " did not become ready: " + s.error);
    engine_healthy_ = true;
    if (s.context) model_.context = s.context;

    tcp::endpoint endpoint(asio::ip::make_address(o_.host), o_.port);
    acceptor_.emplace(ioc_, endpoint);
    std::printf("textedge serve: listening on http://%s:%u (model %s, engine %s, context %zu, tool calls %s, reasoning %s, I/O threads %u)\n",
                o_.host.c_str(), acceptor_->local_endpoint().port(), model_.name.c_str(), engine_->describe().c_str(),
                model_.context, model_.parser.format.c_str(), model_.parser.reasoning.c_str(), threads());
    std::fflush(stdout);
    asio::co_spawn(ioc_, accept_loop(), asio::detached);
    asio::signal_set signals(ioc_, SIGINT, SIGTERM);
    signals.async_wait([this](auto ec, int) {
      if (!ec) asio::co_spawn(ioc_, shut_down(), asio::detached);
    });
    // One io_context per I/O thread, each connection on one of them: a connection's handlers
    // never cross threads, so no strand is needed (its dispatch, lock and executor copies were
    // ~4% of the CPU at 1,000 streams, and with Boost 1.81 a strand freed while its handlers ran:
    // heap-use-after-free under ASan with --threads 2).
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep;
    std::vector<std::thread> pool;
    for (auto& w : workers_) {
      keep.push_back(asio::make_work_guard(*w));
      pool.emplace_back([&w] { w->run(); });
    }
    ioc_.run();
    for (auto& w : workers_) w->stop();
    for (auto& t : pool) t.join();
    return 0;
  }

 private:
  awaitable<EngineStatus> wait_for_engine() {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    EngineStatus s;
    for (int attempt = 0; attempt < 600; ++attempt) {  // up to about 5 minutes
      s = co_await engine_->probe();
      if (s.ok) co_return s;
      timer.expires_after(std::chrono::milliseconds(attempt < 20 ? 50 : 500));
      co_await timer.async_wait(kTuple);
    }
    co_return s;
  }

  awaitable<void> accept_loop() {
    for (;;) {
      std::size_t k = accepted_++ % (workers_.size() + 1);
      asio::io_context& ctx = k == 0 ? ioc_ : *workers_[k - 1];
      auto [ec, socket] = co_await acceptor_->async_accept(asio::any_io_executor(ctx.get_executor()), kTuple);
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_->is_open()) co_return;
        continue;  // e.g. too many open files: keep serving the others
      }
      socket.set_option(tcp::no_delay(true));
      auto ex = socket.get_executor();
      asio::co_spawn(ex, session(std::move(socket)), asio::detached);
    }
  }

  awaitable<void> shut_down() {
    draining_ = true;
    boost::system::error_code ec;
    acceptor_->close(ec);
    std::fprintf(stderr, "textedge serve: stopping: %zu requests in flight, %.0f s grace\n", in_flight(), o_.shutdown_grace_seconds);
    asio::steady_timer timer(co_await asio::this_coro::executor);
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.shutdown_grace_seconds));
    bool cancelled = false;
    while (in_flight() > 0) {
      if (!cancelled && Clock::now() >= deadline) {
        std::lock_guard lock(runs_mu_);
        for (Run* r : runs_) asio::post(r->wake.get_executor(), [this, r] {
          std::lock_guard l(runs_mu_);
          if (runs_.count(r)) r->cancel_all();
        });
        cancelled = true;
      }
      timer.expires_after(std::chrono::milliseconds(20));
      co_await timer.async_wait(kTuple);
    }
    ioc_.stop();
  }

  std::size_t in_flight() {
    std::lock_guard lock(runs_mu_);
    return runs_.size();
  }

  awaitable<void> session(tcp::socket socket) {
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    buffer.reserve(64 * 1024);  // Beast reads at most the free capacity: 512-byte reads otherwise
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(16 * 1024);
      parser.body_limit(o_.max_body_bytes);
      stream.expires_after(std::chrono::seconds(30));  // slow or stalled headers and bodies
      auto [ec, n] = co_await http::async_read(stream, buffer, parser, kTuple);
      if (ec) {
        if (ec == http::error::body_limit) {
          co_await send_error(stream, 11, false,
                              ApiError(413, "The request body is larger than --max-body-bytes (" + std::to_string(o_.max_body_bytes) + " bytes).",
                                       "", "request_too_large"));
        } else if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
                   ec != http::error::end_of_stream && ec != http::error::partial_message) {
          co_await send_error(stream, 11, false, ApiError(400, std::string("Malformed HTTP request: ") + ec.message(), "", "bad_http"));
        }
        break;
      }
      stream.expires_never();
      auto request = parser.release();
      bool keep = co_await handle(stream, request);
      if (!keep || draining_) break;
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  }

  template <class Body>
  awaitable<bool> send(beast::tcp_stream& stream, http::response<Body>& res) {
    res.prepare_payload();
    stream.expires_after(std::chrono::seconds(60));
    auto [ec, n] = co_await http::async_write(stream, res, kTuple);
    stream.expires_never();
    co_return !ec && res.keep_alive();
  }

  awaitable<bool> send_json(beast::tcp_stream& stream, unsigned version, bool keep, int status, std::string body,
                            const char* content_type = "application/json") {
    http::response<http::string_body> res{static_cast<http::status>(status), version};
    res.set(http::field::server, "textedge");
    res.set(http::field::content_type, content_type);
    res.keep_alive(keep);
    res.body() = std::move(body);
    co_return co_await send(stream, res);
  }

  awaitable<bool> send_error(beast::tcp_stream& stream, unsigned version, bool keep, const ApiError& e) {
    http::response<http::string_body> res{static_cast<http::status>(e.status()), version};
    res.set(http::field::server, "textedge");
    res.set(http::field::content_type, "application/json");
    if (e.status() == 429) res.set(http::field::retry_after, "1");
    if (e.status() == 401) res.set(http::field::www_authenticate, "Bearer");
    res.keep_alive(keep);
    res.body() = e.to_json();
    co_return co_await send(stream, res);
  }

  void log(const RequestLog& l, std::string_view method, std::string_view target, Clock::time_point arrived) {
    if (l.status < 400) ++metrics_.requests_ok;
    else if (l.status < 500) ++metrics_.requests_client_error;
    else ++metrics_.requests_server_error;
    if (!o_.log_requests) return;
    char ttft[32] = "-";
    if (l.ttft) std::snprintf(ttft, sizeof ttft, "%.1fms", *l.ttft * 1e3);
    std::fprintf(stderr, "%s %.*s %.*s %d prompt=%zu completion=%zu ttft=%s total=%.1fms\n", l.id.c_str(), static_cast<int>(method.size()),
                 method.data(), static_cast<int>(target.size()), target.data(), l.status, l.prompt_tokens, l.completion_tokens, ttft,
                 seconds_since(arrived) * 1e3);
  }

  awaitable<bool> handle(beast::tcp_stream& stream, http::request<http::string_body>& req) {
    Clock::time_point arrived = Clock::now();
    std::string_view target(req.target().data(), req.target().size());
    if (auto q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
    std::string_view method(req.method_string().data(), req.method_string().size());
    bool keep = req.keep_alive();
    unsigned version = req.version();
    RequestLog l;
    std::optional<ApiError> error;
    try {
      if (target == "/health") {
        bool ok = engine_healthy_ && !draining_;
        l.status = ok ? 200 : 503;
        keep = co_await send_json(stream, version, keep, l.status, ok ? "{}" : R"({"error":{"message":"not ready","type":"server_error","param":null,"code":503}})");
        co_return keep;  // not logged: probes
      }
      if (target == "/metrics") {
        keep = co_await send_json(stream, version, keep, 200, metrics_.text(engine_healthy_), "text/plain; version=0.0.4");
        co_return keep;
      }
      bool v1 = target.starts_with("/v1/");
      if (v1 && !o_.api_key.empty()) {
        auto auth = req[http::field::authorization];
        if (std::string_view(auth.data(), auth.size()) != "Bearer " + o_.api_key) {
          throw ApiError(401, "Incorrect API key provided.", "", "invalid_api_key");
        }
      }
      auto post_only = [&] {
        if (req.method() != http::verb::post) throw ApiError(405, "Use POST for " + std::string(target) + ".", "", "method_not_allowed");
      };
      if (target == "/v1/models") {
        std::string body = R"({"object":"list","data":[{"id":)";
        detail::append_json_string(body, model_.name);
        body += R"(,"object":"model","created":)" + std::to_string(started_) + R"(,"owned_by":"textedge","max_model_len":)" +
                std::to_string(model_.context) + "}]}";
        keep = co_await send_json(stream, version, keep, 200, std::move(body));
      } else if (target == "/v1/chat/completions") {
        post_only();
        keep = co_await chat_completions(stream, req, l, arrived);
      } else if (target == "/v1/completions") {
        post_only();
        keep = co_await completions(stream, req, l, arrived);
      } else if (target == "/tokenize") {
        post_only();
        keep = co_await send_json(stream, version, keep, 200, tokenize(req.body()));
      } else if (target == "/detokenize") {
        post_only();
        keep = co_await send_json(stream, version, keep, 200, detokenize(req.body()));
      } else {
        throw ApiError(404, "Not found: " + std::string(method) + " " + std::string(target), "", "not_found");
      }
    } catch (const ApiError& e) {
      error.emplace(e);
    } catch (const SchemaError& e) {  // a constraint the engine's grammar form cannot express
      error.emplace(400, std::string("The requested output constraint is not supported: ") + e.what(), "", "unsupported_constraint");
    } catch (const EngineError& e) {
      ++metrics_.engine_errors;
      error.emplace(502, std::string("The engine failed: ") + e.what(), "", "engine_error");
    } catch (const std::exception& e) {
      error.emplace(500, std::string("Internal error: ") + e.what(), "", "internal_error");
      keep = false;
    }
    if (error) {  // (no co_await inside a handler)
      l.status = error->status();
      keep = co_await send_error(stream, version, keep, *error);
    }
    log(l, method, target, arrived);
    co_return keep;
  }

  void check_model(const std::string& name) const {
    if (!name.empty() && name != model_.name) {
      throw ApiError(404, "The model `" + name + "` does not exist.", "model", "model_not_found");
    }
  }

  void require_template() const {
    // As vLLM (and transformers since 4.44): no default template, which would give the model a
    // prompt in a format it was never trained on.
    if (!model_.has_template) {
      throw ApiError(400, "The model has no chat template (tokenizer_config.json or chat_template.jinja); start the server with "
                          "--chat-template FILE, or use /v1/completions.", "messages", "no_chat_template");
    }
  }

  std::vector<TokenId> encode_prompt(std::string_view text, bool add_special) {
    auto t0 = Clock::now();
    EncodeOptions eo;
    eo.add_special_tokens = add_special;
    std::size_t reused = 0;
    auto ids = prompt_caches_.encode(model_.tokenizer, text, eo, reused);
    metrics_.tokenize_time.observe(seconds_since(t0));
    metrics_.prompt_bytes += text.size();
    if (reused) ++metrics_.prompt_cache_hits, metrics_.prompt_cache_reused_bytes += reused;
    return ids;
  }

  std::string render(const std::string& messages, ChatOptions options) {
    auto t0 = Clock::now();
    try {
      std::string prompt = model_.chat.apply(messages, options);
      metrics_.template_time.observe(seconds_since(t0));
      return prompt;
    } catch (const TemplateError& e) {
      throw ApiError(400, std::string("The chat template failed: ") + e.what(), "messages", "template_error");
    } catch (const InputError& e) {
      throw ApiError(400, e.what(), "messages", "invalid_value");
    }
  }

  // Completion tokens the request may have, checked against the context as vLLM words it.
  std::size_t completion_budget(std::size_t prompt_tokens, std::optional<std::size_t> max_tokens, const char* what) const {
    std::size_t ctx = model_.context;
    if (prompt_tokens >= ctx || (max_tokens && prompt_tokens + *max_tokens > ctx)) {
      std::size_t asked = prompt_tokens + max_tokens.value_or(0);
      throw ApiError(400,
                     "This model's maximum context length is " + std::to_string(ctx) + " tokens. However, you requested " +
                         std::to_string(asked) + " tokens (" + std::to_string(prompt_tokens) + " in the " + what + ", " +
                         std::to_string(max_tokens.value_or(0)) + " in the completion). Please reduce the length of the " + what +
                         " or completion.",
                     "messages", "context_length_exceeded");
    }
    return max_tokens.value_or(ctx - prompt_tokens);
  }

  awaitable<bool> chat_completions(beast::tcp_stream& stream, http::request<http::string_body>& req, RequestLog& l,
                                   Clock::time_point arrived) {
    ChatRequest r = read_chat_request(req.body(), model_.content_format, model_.tokenizer.vocab_size());
    check_model(r.params.model);
    require_template();
    ChatOptions co;
    co.add_generation_prompt = r.add_generation_prompt;
    co.continue_final_message = r.continue_final_message;
    if (r.tool_choice != ToolChoice::kNone) co.tools = r.tools_json;
    co.documents = r.documents_json;
    co.chat_template_kwargs = r.chat_template_kwargs;
    std::string prompt = render(r.messages_json, co);
    std::vector<TokenId> ids = encode_prompt(prompt, false);
    r.params.max_tokens = completion_budget(ids.size(), r.params.max_tokens, "messages");

    OutputParserOptions po = model_.parser;
    bool calls = r.tool_choice != ToolChoice::kNone && !r.tools_json.empty();
    if (!calls) po.format = "none";
    po.tools_json = calls ? r.tools_json : "";
    if (!r.params.stream) po.partial_calls = false;  // a whole message never carries a call that broke
    if (po.reasoning != "none" && !model_.reasoning_open.empty()) {
      std::string_view p = prompt;
      while (!p.empty() && (p.back() == '\n' || p.back() == ' ')) p.remove_suffix(1);
      po.starts_in_reasoning = p.ends_with(model_.reasoning_open);
    }
    GenerateRequest g;
    g.prompt = ids;
    if (r.tool_choice == ToolChoice::kRequired || r.tool_choice == ToolChoice::kNamed) {
      if (model_.parser.format == "none") {
        throw invalid_value("tool_choice", "this model's tool call format is unknown; start the server with --tool-call-parser.");
      }
      try {
        g.constraint_regex = tool_call_pattern(r.tools_json, model_.parser.format, r.tool_name, r.parallel_tool_calls);
      } catch (const SchemaError& e) {
        throw invalid_value("tools", e.what());
      }
    } else if (r.response_format == ResponseFormat::kJsonObject || r.response_format == ResponseFormat::kJsonSchema) {
      try {
        g.constraint_regex = json_schema_regex(r.response_format == ResponseFormat::kJsonObject ? R"({"type":"object"})" : r.schema_json);
      } catch (const SchemaError& e) {
        throw invalid_value("response_format.json_schema.schema", e.what());
      }
    }
    co_return co_await generate(stream, req, l, arrived, Endpoint::kChat, r.params, std::move(ids), &po, std::move(g),
                                r.tool_choice == ToolChoice::kNamed);
  }

  awaitable<bool> completions(beast::tcp_stream& stream, http::request<http::string_body>& req, RequestLog& l,
                              Clock::time_point arrived) {
    CompletionRequest r = read_completion_request(req.body(), model_.tokenizer.vocab_size());
    check_model(r.params.model);
    if (r.prompts.size() != 1) throw invalid_value("prompt", "one prompt per request is supported; send the others separately.");
    if (r.echo) throw invalid_value("echo", "echo is not supported.");
    auto& p = r.prompts[0];
    std::vector<TokenId> ids = p.is_ids ? p.ids : encode_prompt(p.text, true);
    r.params.max_tokens = completion_budget(ids.size(), r.params.max_tokens, "prompt");
    GenerateRequest g;
    g.prompt = ids;
    co_return co_await generate(stream, req, l, arrived, Endpoint::kCompletion, r.params, std::move(ids), nullptr, std::move(g), false);
  }

  // Runs the choices of one request on the engine and sends the answer, streamed or whole.
  awaitable<bool> generate(beast::tcp_stream& stream, http::request<http::string_body>& req, RequestLog& l, Clock::time_point arrived,
                           Endpoint endpoint, const GenerationParams& params, std::vector<TokenId> prompt,
                           const OutputParserOptions* parser, GenerateRequest g, bool forced_name) {
    auto ex = co_await asio::this_coro::executor;
    auto run = std::make_shared<Run>(ex);
    run->arrived = arrived;
    run->stream = params.stream;
    run->head.endpoint = endpoint;
    run->head.id = (endpoint == Endpoint::kChat ? "chatcmpl-" : "cmpl-") + random_hex(24);
    run->head.created = static_cast<std::int64_t>(std::time(nullptr));
    run->head.model = model_.name;
    run->head.include_usage = params.include_usage;
    l.id = run->head.id;
    l.prompt_tokens = prompt.size();

    GenerationParams with_end = params;
    if (!params.ignore_eos) {
      for (TokenId id : engine_->end_tokens()) with_end.stop_token_ids.push_back(id);
    }
    g.max_tokens = *params.max_tokens;
    g.sampling = params.sampling;
    // A grammar ends at an end token: llama-server fails when that is banned (ignore_eos).
    g.ignore_eos = params.ignore_eos && g.constraint_regex.empty();
    g.top_logprobs = params.top_logprobs;
    std::vector<TokenId> kept = parser ? special_tokens_to_keep(model_.tokenizer, *parser) : std::vector<TokenId>{};
    for (std::size_t i = 0; i < params.n; ++i) {
      run->choices.push_back(std::make_unique<Choice>(model_.tokenizer, prompt, with_end, parser, kept, static_cast<int>(i), forced_name));
    }

    // The client going away (EOF on its socket) aborts the engine requests at once.
    watch_disconnect(stream, run);
    if (!co_await gate_.acquire()) {
      ++metrics_.rejected_busy;
      finish_watch(stream, run);
      throw ApiError(429, "The server is busy: " + std::to_string(o_.max_concurrent) + " requests are running and " +
                              std::to_string(o_.max_queue) + " waiting. Retry later.",
                     "", "rate_limit_exceeded");
    }
    struct Release {
      Gate& g;
      ~Release() { g.release(); }
    } release{gate_};
    {
      std::lock_guard lock(runs_mu_);
      runs_.insert(run.get());
    }
    struct Unregister {
      Server& s;
      Run* r;
      ~Unregister() {
        std::lock_guard lock(s.runs_mu_);
        s.runs_.erase(r);
      }
    } unregister{*this, run.get()};

    try {
      for (std::size_t i = 0; i < params.n && !run->disconnected; ++i) {
        GenerateRequest gi = g;
        if (gi.sampling.seed && i) *gi.sampling.seed += static_cast<std::int64_t>(i);  // n different samples
        run->engines.push_back(co_await engine_->generate(std::move(gi)));
      }
    } catch (...) {
      run->cancel_all();
      finish_watch(stream, run);
      engine_healthy_ = false;
      recheck_engine();
      throw;
    }
    metrics_.prompt_tokens += prompt.size() * run->engines.size();

    bool keep = req.keep_alive();
    std::optional<http::response_serializer<http::empty_body>> sr;
    http::response<http::empty_body> head{http::status::ok, req.version()};
    bool write_failed = false;
    if (run->stream) {
      head.set(http::field::server, "textedge");
      head.set(http::field::content_type, "text/event-stream");
      head.set(http::field::cache_control, "no-cache");
      head.keep_alive(keep);
      head.chunked(true);
      sr.emplace(head);
      if (endpoint == Endpoint::kChat)
        for (auto& c : run->choices) c->start(run->head, run->pending);
    }
    run->live = run->engines.size();
    for (std::size_t i = 0; i < run->engines.size(); ++i) {
      asio::co_spawn(ex, run_choice(run, i, stream), [run](std::exception_ptr e) {
        if (e) {
          try {
            std::rethrow_exception(e);
          } catch (const std::exception& x) {
            run->engine_error = x.what();
          }
          run->cancel_all();
        }
        --run->live;
        run->wake.cancel();
      });
    }
    if (run->stream) {
      run->writer_busy = true;
      auto [ec, n] = co_await http::async_write_header(stream, *sr, kTuple);
      run->writer_busy = false;
      write_failed = bool(ec);
      run->head_sent = !ec;
      if (!ec) stream.socket().non_blocking(true, ec);  // for write_now()
    }
    // Write what the choices produce (streaming) or wait for them. The choices write their chunks
    // themselves while the socket takes them (write_now); this loop writes what it did not take.
    std::string writing;
    Clock::time_point armed{};
    for (;;) {
      if (run->stream && !write_failed && (!run->pending.empty() || !run->unsent.empty())) {
        // A client that takes 60 s to accept a chunk is gone. The deadline is re-armed at most
        // once a second: a timer update per chunk was a measurable part of the per-token cost.
        if (auto now = Clock::now(); now - armed > std::chrono::seconds(1)) {
          stream.expires_after(std::chrono::seconds(60));
          armed = now;
        }
        writing.clear();
        run->writer_busy = true;
        boost::system::error_code ec;
        if (!run->unsent.empty()) {
          std::swap(writing, run->unsent);
          std::tie(ec, std::ignore) = co_await asio::async_write(stream, asio::buffer(writing), kTuple);
        } else {
          std::swap(writing, run->pending);
          std::tie(ec, std::ignore) = co_await asio::async_write(stream, http::make_chunk(asio::buffer(writing)), kTuple);
        }
        run->writer_busy = false;
        if (ec) {
          write_failed = true;
          if (!run->overflow) run->disconnected = true;
          run->cancel_all();
        }
        continue;
      }
      if (run->live == 0) break;
      run->wake.expires_at(Clock::time_point::max());
      co_await run->wake.async_wait(kTuple);
    }
    stream.expires_never();
    finish_watch(stream, run);

    std::size_t completion = 0;
    for (auto& c : run->choices) completion += c->completion_tokens();
    l.completion_tokens = completion;
    l.ttft = run->ttft;
    metrics_.generation_tokens += completion;
    metrics_.request_duration.observe(seconds_since(arrived));
    if (run->overflow) {
      ++metrics_.slow_client_aborts;
      l.status = 499;
      co_return false;
    }
    if (run->disconnected) {
      ++metrics_.client_disconnects;
      l.status = 499;
      co_return false;
    }
    std::string error = run->engine_error;
    for (auto& c : run->choices)
      if (error.empty() && !c->error().empty()) error = c->error();
    if (!error.empty()) {
      ++metrics_.engine_errors;
      engine_healthy_ = false;
      recheck_engine();
    }
    if (run->stream) {
      if (write_failed) co_return false;
      if (!error.empty()) {
        run->pending += "data: " + ApiError(502, "The engine failed: " + error, "", "engine_error").to_json() + "\n\n";
      }
      append_final_sse(run->head, prompt.size(), completion, run->pending);
      auto [ec1, n1] = co_await asio::async_write(stream, http::make_chunk(asio::buffer(run->pending)), kTuple);
      auto [ec2, n2] = co_await asio::async_write(stream, http::make_chunk_last(), kTuple);
      co_return !ec1 && !ec2 && keep;
    }
    if (!error.empty()) throw ApiError(502, "The engine failed: " + error, "", "engine_error");
    std::string body;
    body.reserve(512);
    body += "{\"id\":";
    detail::append_json_string(body, run->head.id);
    body += endpoint == Endpoint::kChat ? ",\"object\":\"chat.completion\"" : ",\"object\":\"text_completion\"";
    body += ",\"created\":" + std::to_string(run->head.created) + ",\"model\":";
    detail::append_json_string(body, model_.name);
    body += ",\"choices\":[";
    for (std::size_t i = 0; i < run->choices.size(); ++i) {
      if (i) body += ',';
      run->choices[i]->append_choice_json(run->head, body);
    }
    body += "],\"usage\":";
    append_usage_json(body, prompt.size(), completion);
    body += '}';
    co_return co_await send_json(stream, req.version(), keep, 200, std::move(body));
  }

  awaitable<void> run_choice(std::shared_ptr<Run> run, std::size_t i, beast::tcp_stream& stream) {
    EngineStream& engine = *run->engines[i];
    Choice& choice = *run->choices[i];
    EngineEvent event;
    Clock::time_point last = Clock::now();
    for (;;) {
      event.clear();
      co_await engine.next(event);
      auto now = Clock::now();
      if (!event.ids.empty()) {
        if (!run->ttft) {
          run->ttft = std::chrono::duration<double>(now - run->arrived).count();
          metrics_.ttft.observe(*run->ttft);
        } else {
          metrics_.inter_token.observe(std::chrono::duration<double>(now - last).count());
        }
        last = now;
      }
      if (event.done && event.stop == EngineStop::kAborted && !run->disconnected && !run->overflow) {
        event.error = draining_ ? "the server is shutting down" : "the engine aborted the request";
      }
      bool ended = choice.on_event(event, run->head, run->stream ? &run->pending : nullptr);
      metrics_.detokenize_parse_time.observe(seconds_since(now));
      bool written = run->stream && write_now(*run, stream.socket());
      if (run->stream && run->pending.size() + run->unsent.size() > o_.max_buffered_bytes && !run->overflow) {
        run->overflow = true;  // the client reads too slowly: stop, rather than buffer without bound
        run->cancel_all();
        boost::system::error_code ec;
        stream.socket().cancel(ec);
      }
      if (!written) run->wake.cancel();
      if (ended) {
        if (!event.done) engine.cancel();  // a stop string or stop id: free the engine's slot now
        co_return;
      }
    }
  }

  // Writes the pending chunk at once when the socket takes it without waiting, as it does for a
  // client that keeps up: true when nothing is left for the writer loop. Anything it cannot
  // write (a full socket buffer, an error) is left to the loop's asynchronous write.
  // Performance note (2026-12-02, 1,000 streams over the scripted engine, perf): the loop's
  // write per chunk cost three handler dispatches (the wake, the write's completion, Beast's
  // operation wrappers) besides the send itself; writing here leaves one send per chunk.
  static bool write_now(Run& run, tcp::socket& socket) {
    if (run.pending.empty() && run.unsent.empty()) return true;
    if (!run.head_sent || run.writer_busy || !run.unsent.empty() || run.disconnected || run.overflow) return false;
    auto chunk = http::make_chunk(asio::buffer(run.pending));
    boost::system::error_code ec;
    std::size_t sent = socket.write_some(chunk, ec);  // the socket is non-blocking: never waits
    std::size_t total = asio::buffer_size(chunk);
    if (ec && sent == 0) return false;  // would block, or an error the loop's write will report
    if (sent < total) {
      beast::buffers_suffix<decltype(chunk)> rest(chunk);
      rest.consume(sent);
      run.unsent.resize(total - sent);
      asio::buffer_copy(asio::buffer(run.unsent), rest);
    }
    run.pending.clear();
    return run.unsent.empty();
  }

  void watch_disconnect(beast::tcp_stream& stream, const std::shared_ptr<Run>& run) {
    stream.socket().async_wait(tcp::socket::wait_read, [this, run, &stream](boost::system::error_code ec) {
      // The request ended (the socket may be gone), or the wait was cancelled with the socket's
      // other operations (a slow client cut off): not a disconnect.
      if (run->finished || ec == asio::error::operation_aborted) return;
      if (!ec) {
        // Readiness can be stale (epoll reports edges): only a peek that reads 0 bytes is the
        // client's end; no data yet means wait again, data means a pipelined request.
        char byte;
        ssize_t n = ::recv(stream.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
          watch_disconnect(stream, run);
          return;
        }
        if (n > 0) return;
      }
      run->disconnected = true;
      run->cancel_all();
      run->wake.cancel();
    });
  }

  void finish_watch(beast::tcp_stream& stream, const std::shared_ptr<Run>& run) {
    run->finished = true;
    boost::system::error_code ec;
    // Cancels the pending wait_read only: no write is pending here.
    stream.socket().cancel(ec);
  }

  void recheck_engine() {
    if (rechecking_.exchange(true)) return;
    asio::co_spawn(ioc_, [this]() -> awaitable<void> {
      asio::steady_timer timer(co_await asio::this_coro::executor);
      while (!draining_) {
        EngineStatus s = co_await engine_->probe();
        if (s.ok) break;
        timer.expires_after(std::chrono::milliseconds(500));
        co_await timer.async_wait(kTuple);
      }
      engine_healthy_ = true;
      rechecking_ = false;
    }, asio::detached);
  }

  std::string tokenize(std::string_view body) {
    TokenizeRequest r = read_tokenize_request(body, model_.content_format);
    check_model(r.model);
    std::string text = r.prompt;
    if (!r.messages_json.empty()) {
      require_template();
      ChatOptions co;
      co.add_generation_prompt = r.add_generation_prompt;
      co.continue_final_message = r.continue_final_message;
      co.tools = r.tools_json;
      co.chat_template_kwargs = r.chat_template_kwargs;
      text = render(r.messages_json, co);
    }
    std::vector<TokenId> ids = encode_prompt(text, r.add_special_tokens);
    std::string out = "{\"count\":" + std::to_string(ids.size()) + ",\"max_model_len\":" + std::to_string(model_.context) + ",\"tokens\":[";
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i) out += ',';
      out += std::to_string(ids[i]);
    }
    out += ']';
    if (r.return_token_strs) {
      out += ",\"token_strs\":[";
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i) out += ',';
        detail::append_json_string(out, model_.tokenizer.id_to_token(ids[i]).value_or(""));
      }
      out += ']';
    }
    return out + "}";
  }

  std::string detokenize(std::string_view body) {
    DetokenizeRequest r = read_detokenize_request(body, model_.tokenizer.vocab_size());
    check_model(r.model);
    DecodeOptions d;
    d.skip_special_tokens = false;  // vLLM's /detokenize keeps them
    std::string out = "{\"prompt\":";
    detail::append_json_string(out, model_.tokenizer.decode(r.tokens, d));
    return out + "}";
  }

  const ServerOptions& o_;
  Model model_;
  asio::io_context ioc_;
  Metrics metrics_;
  Gate gate_;
  PromptCachePool prompt_caches_{o_.prompt_cache};
  std::unique_ptr<Engine> engine_;
  std::optional<tcp::acceptor> acceptor_;
  std::atomic<bool> engine_healthy_{false}, draining_{false}, rechecking_{false};
  std::int64_t started_ = static_cast<std::int64_t>(std::time(nullptr));
  std::mutex runs_mu_;
  std::set<Run*> runs_;
  std::vector<std::unique_ptr<asio::io_context>> workers_;  // the I/O threads after the first
  std::size_t accepted_ = 0;
};

Model load_model(const ServerOptions& o) {
  Model m{Tokenizer::load(o.model_dir), ChatTemplate::load(o.model_dir), o.served_model_name, {}, {}, {}, 0};
  if (!o.chat_template.empty()) {
    m.chat = ChatTemplate::from_string(detail::read_file(o.chat_template), m.chat.special_tokens(), o.chat_template);
  } else if (m.chat.source() == ChatTemplate::default_source()) {
    m.has_template = false;
    std::fprintf(stderr, "textedge serve: %s has no chat template: chat requests get 400 until one is given with --chat-template\n",
                 o.model_dir.c_str());
  }
  if (m.name.empty()) {
    std::filesystem::path p = std::filesystem::weakly_canonical(o.model_dir);
    m.name = p.filename().empty() ? p.parent_path().filename().string() : p.filename().string();
  }
  DetectedFormat detected = m.has_template ? detect_format(m.chat.source()) : DetectedFormat{};
  auto known = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  m.parser.format = o.tool_call_parser == "auto" ? detected.format : o.tool_call_parser;
  m.parser.reasoning = o.reasoning_parser == "auto" ? detected.reasoning : o.reasoning_parser;
  if (m.parser.format != "none" && !known(list_formats(), m.parser.format)) {
    throw InputError("unknown --tool-call-parser \"" + m.parser.format + "\"", 0);
  }
  if (m.parser.reasoning != "none" && !known(list_reasoning_formats(), m.parser.reasoning)) {
    throw InputError("unknown --reasoning-parser \"" + m.parser.reasoning + "\"", 0);
  }
  if (m.parser.reasoning != "none") {
    OutputParserOptions only_reasoning;
    only_reasoning.reasoning = m.parser.reasoning;
    auto markers = parser_markers(only_reasoning);
    if (!markers.empty()) m.reasoning_open = markers.front();
  }
  m.content_format = detect_content_format(m.chat.source());
  m.context = 4096;  // until the engine says
  return m;
}

}  // namespace

int run_server(const ServerOptions& options) {
  Server server(options, load_model(options));
  return server.run();
}

}  // namespace textedge::server
