#include "server/engines/llamacpp.hpp"

#include <simdjson.h>

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>

#include "base/json_string.hpp"
#include "textedge/schema.hpp"

namespace textedge::server {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);

std::chrono::steady_clock::duration seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

void append_number(std::string& out, double v) {
  char buf[32];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// What llama-server's {"error": {"message": ...}} says, else the start of the body as it is.
std::string error_message(std::string_view body) {
  simdjson::dom::parser parser;
  std::string_view message;
  if (!parser.parse(body.data(), body.size())["error"]["message"].get(message)) return std::string(message);
  std::string text(body.substr(0, 200));
  return text.empty() ? "no message" : text;
}

// Connects to the engine within the connect timeout.
asio::awaitable<beast::tcp_stream> connect(const std::string& host, std::uint16_t port, double timeout,
                                           const std::string& where) {
  auto executor = co_await asio::this_coro::executor;
  tcp::resolver resolver(executor);
  auto [resolve_error, endpoints] = co_await resolver.async_resolve(host, std::to_string(port), kAwait);
  if (resolve_error) throw EngineError(where + ": cannot resolve " + host + ": " + resolve_error.message());
  beast::tcp_stream stream(executor);
  stream.expires_after(seconds(timeout));
  auto [connect_error, endpoint] = co_await stream.async_connect(endpoints, kAwait);
  if (connect_error)
    throw EngineError(where + ": cannot connect: " +
                      (connect_error == beast::error::timeout ? "no answer in " + std::to_string(timeout) + " s"
                                                              : connect_error.message()));
  stream.socket().set_option(tcp::no_delay(true));
  co_return stream;
}

http::request<http::string_body> make_request(http::verb verb, const std::string& target, const std::string& host,
                                              std::string body) {
  http::request<http::string_body> request(verb, target, 11);
  request.set(http::field::host, host);
  request.set(http::field::connection, "close");
  if (verb == http::verb::post) {
    request.set(http::field::content_type, "application/json");
    request.body() = std::move(body);
    request.prepare_payload();
  }
  return request;
}

class LlamaCppStream final : public EngineStream {
 public:
  LlamaCppStream(beast::tcp_stream stream, std::string where, const GenerateRequest& request, double stall_timeout)
      : stream_(std::move(stream)),
        where_(std::move(where)),
        max_tokens_(request.max_tokens),
        top_logprobs_(request.top_logprobs),
        stall_timeout_(stall_timeout) {
    parser_.body_limit(boost::none);  // a stream is as long as the generation
  }

  asio::awaitable<void> next(EngineEvent& event) override {
    event.clear();
    if (cancelled_) fail("");
    if (!done_ && !header_read_) co_await read_header();
    while (!done_) {
      // Every complete SSE event already here goes into this one engine event.
      std::size_t taken = 0, eol;
      while (!done_ && (eol = pending_.find('\n', taken)) != std::string::npos) {
        std::string_view line(pending_.data() + taken, eol - taken);
        taken = eol + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) {
          if (!data_.empty()) on_event(event);
          data_.clear();
        } else if (line.starts_with("data:")) {
          line.remove_prefix(5);
          if (line.starts_with(' ')) line.remove_prefix(1);
          if (!data_.empty()) data_ += '\n';
          data_ += line;
        }  // ":" comments (llama-server's pings) and other fields carry nothing for us
      }
      pending_.erase(0, taken);
      if (done_ || !event.ids.empty()) break;
      co_await read_some();
    }
    if (done_) {
      event.done = true;
      event.stop = stop_;
      if (event.error.empty()) event.error = error_;
      close();
    }
  }

  void cancel() override {
    if (done_) return;
    cancelled_ = true;
    close();
  }

 private:
  void fail(std::string message) {
    if (done_) return;
    done_ = true;
    stop_ = cancelled_ ? EngineStop::kAborted : EngineStop::kNone;
    if (!cancelled_) error_ = where_ + ": " + std::move(message);
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  std::string io_error(const beast::error_code& ec) const {
    if (ec == beast::error::timeout) return "sent nothing for " + std::to_string(stall_timeout_) + " s";
    if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == http::error::partial_message)
      return "closed the connection before the end of the stream";
    return ec.message();
  }

  asio::awaitable<void> read_header() {
    header_read_ = true;
    stream_.expires_after(seconds(stall_timeout_));
    auto [ec, n] = co_await http::async_read_header(stream_, buffer_, parser_, kAwait);
    if (ec) co_return fail(io_error(ec));
    const auto& header = parser_.get();
    if (header.result() != http::status::ok) {
      // The refusal's body is small: read it whole.
      std::string body;
      while (!parser_.is_done() && body.size() < 65536)
        if (!co_await read_body(body)) break;
      co_return fail("refused the request (HTTP " + std::to_string(header.result_int()) + "): " + error_message(body));
    }
    if (header[http::field::content_type].find("text/event-stream") == std::string_view::npos)
      co_return fail("answered with " + std::string(header[http::field::content_type]) + ", not an event stream");
  }

  // Appends what the next read brings to `out`; false on an error (the stream has failed).
  asio::awaitable<bool> read_body(std::string& out) {
    char chunk[8192];
    parser_.get().body().data = chunk;
    parser_.get().body().size = sizeof chunk;
    stream_.expires_after(seconds(stall_timeout_));
    auto [ec, n] = co_await http::async_read_some(stream_, buffer_, parser_, kAwait);
    out.append(chunk, sizeof chunk - parser_.get().body().size);
    if (ec && ec != http::error::need_buffer) {
      fail(io_error(ec));
      co_return false;
    }
    co_return true;
  }

  asio::awaitable<void> read_some() {
    if (parser_.is_done()) co_return fail("ended the stream without a final event");
    co_await read_body(pending_);
  }

  // One SSE event's JSON: new ids and logprobs into `event`, or the end.
  void on_event(EngineEvent& event) {
    auto garbage = [&](const char* what) { fail(std::string("sent ") + what + ": " + data_.substr(0, 200)); };
    simdjson::dom::element root;
    if (auto err = json_.parse(data_).get(root); err || !root.is_object()) return garbage("an event that is not JSON");
    if (simdjson::dom::element error; !root["error"].get(error)) {
      std::string_view message;
      return fail(error["message"].get(message) ? std::string("failed") : "failed: " + std::string(message));
    }
    simdjson::dom::array tokens;
    bool stop = false;
    if (root["tokens"].get(tokens) || root["stop"].get(stop))
      return garbage("an event without \"tokens\" and \"stop\"");
    std::vector<TokenId> ids;
    for (auto token : tokens) {
      std::int64_t id;
      if (token.get(id) || id < 0 || id > UINT32_MAX) return garbage("a token id that is not one");
      ids.push_back(static_cast<TokenId>(id));
    }
    // llama-server holds back a token whose text ends inside a UTF-8 character and never sends
    // its id (its text comes with the next token's): the ids would have a hole, so fail instead.
    if (std::uint64_t predicted; !root["tokens_predicted"].get(predicted) && predicted > delivered_ + ids.size())
      return fail("did not send the ids of " + std::to_string(predicted - delivered_ - ids.size()) + " of the " +
                  std::to_string(predicted) +
                  " tokens it generated (llama-server streams no id for a token that ends inside a UTF-8 character)");
    std::vector<TokenLogprob> logprobs;
    if (top_logprobs_ >= 0 && !ids.empty()) {
      simdjson::dom::array probs;
      if (root["completion_probabilities"].get(probs) || probs.size() != ids.size())
        return garbage("no logprob for each token");
      for (auto p : probs) {
        TokenLogprob& lp = logprobs.emplace_back();
        std::int64_t id;
        double logprob;
        simdjson::dom::array top;
        if (p["id"].get(id) || p["logprob"].get(logprob) || p["top_logprobs"].get(top))
          return garbage("a malformed logprob");
        lp.id = static_cast<TokenId>(id);
        lp.logprob = static_cast<float>(logprob);
        for (auto t : top) {
          if (lp.top.size() == static_cast<std::size_t>(top_logprobs_)) break;
          std::int64_t top_id;
          double top_logprob;
          if (t["id"].get(top_id) || t["logprob"].get(top_logprob)) return garbage("a malformed top logprob");
          lp.top.emplace_back(static_cast<TokenId>(top_id), static_cast<float>(top_logprob));
        }
      }
    }
    // llama-server generates one token even for n_predict 0: never more than max_tokens.
    std::size_t take = std::min(ids.size(), max_tokens_ - delivered_);
    event.ids.insert(event.ids.end(), ids.begin(), ids.begin() + take);
    if (!logprobs.empty()) event.logprobs.insert(event.logprobs.end(), logprobs.begin(), logprobs.begin() + take);
    delivered_ += take;
    if (take < ids.size()) {
      done_ = true;
      stop_ = EngineStop::kLength;
      return;
    }
    if (!stop) return;
    // "limit" is also a slot's context running full before n_predict.
    std::string_view type;
    if (root["stop_type"].get(type)) type = "";
    done_ = true;
    stop_ = type == "limit" ? EngineStop::kLength : EngineStop::kEos;
  }

  beast::tcp_stream stream_;
  std::string where_;
  std::size_t max_tokens_;
  int top_logprobs_;
  double stall_timeout_;
  beast::flat_buffer buffer_;
  http::response_parser<http::buffer_body> parser_;
  std::string pending_;  // body text not yet split into lines
  std::string data_;     // the data lines of the event being read
  simdjson::dom::parser json_;
  std::size_t delivered_ = 0;
  bool header_read_ = false, cancelled_ = false, done_ = false;
  EngineStop stop_ = EngineStop::kNone;
  std::string error_;
};

}  // namespace

LlamaCppEngine::LlamaCppEngine(std::string host, std::uint16_t port, const EngineOptions& options)
    : host_(std::move(host)), port_(port), options_(options) {}

// llama.cpp ends generation at any token with one of these texts, whatever the model's own EOS
// (llama-vocab.cpp, at this bundle's commit): e.g. Qwen3's ordinary token "</s>". Data about the
// engine, kept beside its adapter.
constexpr std::string_view kLlamaCppEndTexts[] = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>", "<end_of_turn>",
    "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]", "<|end_of_text|>",
    "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>", "<｜end▁of▁sentence｜>", "[e~["};

LlamaCppEngine::LlamaCppEngine(std::string host, std::uint16_t port, const Tokenizer& tokenizer, const EngineOptions& options)
    : LlamaCppEngine(std::move(host), port, options) {
  for (std::string_view text : kLlamaCppEndTexts) {
    if (auto id = tokenizer.token_to_id(text)) end_tokens_.push_back(*id);
  }
}

std::string LlamaCppEngine::describe() const {
  bool v6 = host_.find(':') != std::string::npos;
  return "llamacpp://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
}

std::string LlamaCppEngine::request_body(const GenerateRequest& request) {
  std::string body = "{\"prompt\":[";
  for (std::size_t i = 0; i < request.prompt.size(); ++i) {
    if (i) body += ',';
    body += std::to_string(request.prompt[i]);
  }
  body += "],\"stream\":true,\"return_tokens\":true,\"cache_prompt\":true,\"n_predict\":";
  body += std::to_string(std::min<std::size_t>(request.max_tokens, INT32_MAX));
  // Only the final event's fields the adapter reads (it would carry the prompt's text and the settings).
  body += ",\"response_fields\":[\"tokens\",\"stop\",\"stop_type\",\"tokens_predicted\"]";
  const Sampling& s = request.sampling;
  auto number = [&](const char* key, const std::optional<double>& v) {
    if (!v || !std::isfinite(*v)) return;
    body += ",\"";
    body += key;
    body += "\":";
    append_number(body, *v);
  };
  number("temperature", s.temperature);
  number("top_p", s.top_p);
  number("min_p", s.min_p);
  number("frequency_penalty", s.frequency_penalty);
  number("presence_penalty", s.presence_penalty);
  number("repeat_penalty", s.repetition_penalty);
  if (s.top_k)
    body += ",\"top_k\":" + std::to_string(std::clamp<std::int64_t>(*s.top_k, 0, INT32_MAX));  // -1 (off) is 0 here
  if (s.seed)
    body += ",\"seed\":" + std::to_string(static_cast<std::uint32_t>(*s.seed));  // llama.cpp's seed is 32 bits
  if (!s.logit_bias.empty()) {
    body += ",\"logit_bias\":[";
    bool first = true;
    for (auto [id, bias] : s.logit_bias) {
      if (std::isnan(bias)) continue;
      body += first ? "[" : ",[";
      first = false;
      body += std::to_string(id) + ",";
      if (std::isinf(bias))
        body += bias < 0 ? "false" : "1e30";  // false: banned
      else
        append_number(body, bias);
      body += ']';
    }
    body += ']';
  }
  if (request.ignore_eos) body += ",\"ignore_eos\":true";
  // n_probs 0 would send no logprobs at all, not even the sampled token's.
  if (request.top_logprobs >= 0) body += ",\"n_probs\":" + std::to_string(std::max(request.top_logprobs, 1));
  if (!request.constraint_regex.empty()) {
    body += ",\"grammar\":";
    detail::append_json_string(body, regex_to_gbnf(request.constraint_regex));
  }
  body += '}';
  return body;
}

asio::awaitable<std::unique_ptr<EngineStream>> LlamaCppEngine::generate(GenerateRequest request) {
  const std::string where = describe();
  auto http_request = make_request(http::verb::post, "/completion", host_, request_body(request));
  beast::tcp_stream stream = co_await connect(host_, port_, options_.connect_timeout, where);
  stream.expires_after(seconds(options_.connect_timeout));
  auto [ec, n] = co_await http::async_write(stream, http_request, kAwait);
  if (ec) throw EngineError(where + ": cannot send the request: " + ec.message());
  co_return std::make_unique<LlamaCppStream>(std::move(stream), where, request, options_.stall_timeout);
}

asio::awaitable<EngineStatus> LlamaCppEngine::probe() {
  EngineStatus status;
  const std::string where = describe();
  // One GET, its status and body; throws EngineError when the engine cannot be reached.
  auto get = [&](const std::string& target) -> asio::awaitable<http::response<http::string_body>> {
    beast::tcp_stream stream = co_await connect(host_, port_, options_.connect_timeout, where);
    stream.expires_after(seconds(std::max(options_.connect_timeout, 30.0)));
    auto [write_error, w] =
        co_await http::async_write(stream, make_request(http::verb::get, target, host_, {}), kAwait);
    if (write_error) throw EngineError(where + ": GET " + target + ": " + write_error.message());
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    auto [read_error, r] = co_await http::async_read(stream, buffer, response, kAwait);
    if (read_error) throw EngineError(where + ": GET " + target + ": " + read_error.message());
    co_return response;
  };
  try {
    auto health = co_await get("/health");
    if (health.result() != http::status::ok) {
      status.error =
          where + " is not ready (HTTP " + std::to_string(health.result_int()) + "): " + error_message(health.body());
      co_return status;
    }
    auto props = co_await get("/props");
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    std::uint64_t n_ctx = 0, slots = 0;
    if (props.result() != http::status::ok || parser.parse(props.body()).get(root) ||
        root["default_generation_settings"]["n_ctx"].get(n_ctx) || n_ctx == 0) {
      status.error = where + ": GET /props gave no default_generation_settings.n_ctx (HTTP " +
                     std::to_string(props.result_int()) + ")";
      co_return status;
    }
    if (root["total_slots"].get(slots)) slots = 0;
    status.ok = true;
    status.context = n_ctx;
    status.slots = slots;
  } catch (const EngineError& e) {
    status.error = e.what();
  }
  co_return status;
}

}  // namespace textedge::server
