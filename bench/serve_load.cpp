// textedge_serve_load: a load generator for OpenAI-compatible streaming servers (textedge serve,
// llama-server's own /v1/chat/completions), run by scripts/bench_serve.sh.
//
// Stream mode (the default): N clients, each on its own keep-alive connection, send the request
// body of --body back to back (--requests-per-client and/or --duration; always bounded by
// --timeout too), read the SSE stream (Beast parses HTTP and chunked encoding; the `data:` lines
// are split here) and record, per content chunk, when it arrived; per request TTFT, total time,
// the assembled text, finish_reason and usage. Arrival times are the kernel's receive timestamps
// (SO_TIMESTAMPNS) of the read that completed the chunk, so the load generator's own scheduling
// delay (reported as client_lag_ms) does not count as the server's (a chunk that shares its read
// with a later one has no time of its own and no gap: chunks_read_together counts them); --user-timestamps uses the
// time the client got to the data instead. One JSON object goes to stdout; exit status 1 when a
// request failed or a text differed from --expect-text / --expect.
//
// Prompt mode (--mode prompt): times the prompt path, template plus tokenize, of one chat body,
// --repeat times over one keep-alive connection: --flavor textedge sends it to textedge serve's
// POST /tokenize (messages, vLLM's shape); --flavor llamacpp to llama-server's POST
// /apply-template and then its prompt to POST /tokenize (add_special false, parse_special true).
// Each repetition's time is the sum of its round trips (building the second body is not
// timed). --ids-out writes the ids, --prompt-out llama-server's rendered prompt.
#include <simdjson.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using asio::awaitable;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

// Every time is CLOCK_REALTIME in nanoseconds: the kernel's receive timestamps are on that clock.
std::int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
double ms(std::int64_t ns) { return double(ns) / 1e6; }

struct Options {
  std::string mode = "stream";
  std::string host = "127.0.0.1", port = "8000", target = "/v1/chat/completions";
  bool target_from_url = false;
  std::size_t concurrency = 1, requests_per_client = 0;
  double duration = 0, timeout = 0, stall = 60, ramp = 0, rate = 0;
  unsigned threads = 1;
  std::string body, body_file;
  std::optional<std::string> expect;
  bool user_timestamps = false;
  std::string label;
  // prompt mode
  std::string flavor = "textedge", ids_out, prompt_out;
  std::size_t repeat = 20, warmup = 2;
};

[[noreturn]] void usage(const std::string& why) {
  if (!why.empty()) std::cerr << "textedge_serve_load: " << why << "\n";
  std::cerr << R"(usage:
  textedge_serve_load --url http://HOST:PORT[/PATH] --body FILE [--concurrency N]
                      [--requests-per-client N] [--duration S] [--timeout S] [--stall S]
                      [--ramp S] [--rate TOKENS_PER_S] [--expect-text FILE | --expect STRING]
                      [--threads N] [--user-timestamps] [--label NAME]
  textedge_serve_load --mode prompt --flavor textedge|llamacpp --url http://HOST:PORT --body FILE
                      [--repeat N] [--warmup N] [--ids-out FILE] [--prompt-out FILE]
  PATH defaults to /v1/chat/completions. Without --requests-per-client or --duration each
  client sends one request; --timeout (default: duration + 120 s, or 600 s) ends the run.
  --ramp S starts client i at i*S/N seconds; --rate R is the engine's nominal tokens/s, for
  the added inter-chunk delay (gap between consecutive content chunks minus 1/R). A chunk
  read together with the next one has no arrival time of its own: its gaps are left out and it
  is counted in chunks_read_together.
)";
  std::exit(2);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) usage("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double to_number(const std::string& flag, const std::string& v) {
  try {
    std::size_t used = 0;
    double d = std::stod(v, &used);
    if (used != v.size() || !(d >= 0)) throw std::invalid_argument(v);
    return d;
  } catch (const std::exception&) {
    usage(flag + " needs a non-negative number, not \"" + v + "\"");
  }
}

Options parse_args(int argc, char** argv) {
  Options o;
  std::string url = "http://127.0.0.1:8000";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") usage("");
    if (a == "--user-timestamps") {
      o.user_timestamps = true;
      continue;
    }
    if (i + 1 >= argc) usage(a + " needs a value");
    std::string v = argv[++i];
    if (a == "--url") url = v;
    else if (a == "--mode") o.mode = v;
    else if (a == "--concurrency") o.concurrency = std::size_t(to_number(a, v));
    else if (a == "--requests-per-client") o.requests_per_client = std::size_t(to_number(a, v));
    else if (a == "--duration") o.duration = to_number(a, v);
    else if (a == "--timeout") o.timeout = to_number(a, v);
    else if (a == "--stall") o.stall = to_number(a, v);
    else if (a == "--ramp") o.ramp = to_number(a, v);
    else if (a == "--rate") o.rate = to_number(a, v);
    else if (a == "--threads") o.threads = unsigned(std::max(1.0, to_number(a, v)));
    else if (a == "--body") o.body_file = v;
    else if (a == "--expect-text") o.expect = read_file(v);
    else if (a == "--expect") o.expect = v;
    else if (a == "--label") o.label = v;
    else if (a == "--flavor") o.flavor = v;
    else if (a == "--repeat") o.repeat = std::max<std::size_t>(1, std::size_t(to_number(a, v)));
    else if (a == "--warmup") o.warmup = std::size_t(to_number(a, v));
    else if (a == "--ids-out") o.ids_out = v;
    else if (a == "--prompt-out") o.prompt_out = v;
    else usage("unknown flag " + a);
  }
  if (o.mode != "stream" && o.mode != "prompt") usage("--mode is stream or prompt");
  if (o.flavor != "textedge" && o.flavor != "llamacpp") usage("--flavor is textedge or llamacpp");
  if (o.body_file.empty()) usage("--body FILE is required");
  o.body = read_file(o.body_file);
  if (!url.starts_with("http://")) usage("--url must start with http://");
  std::string rest = url.substr(7);
  std::size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  if (slash != std::string::npos && slash + 1 < rest.size()) {
    o.target = rest.substr(slash);
    o.target_from_url = true;
  }
  std::size_t colon = hostport.rfind(':');
  if (colon == std::string::npos) {
    o.host = hostport;
    o.port = "80";
  } else {
    o.host = hostport.substr(0, colon);
    o.port = hostport.substr(colon + 1);
  }
  if (o.concurrency == 0) usage("--concurrency must be at least 1");
  if (o.requests_per_client == 0 && o.duration == 0) o.requests_per_client = 1;
  if (o.timeout == 0) o.timeout = o.duration > 0 ? o.duration + 120 : 600;
  return o;
}

// ---------------------------------------------------------------- statistics and JSON output

struct Summary {
  std::size_t n = 0;
  double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0, min = 0, mean = 0;
  std::vector<std::pair<double, double>> quantiles;  // (percent, value), for plots
};

// Nearest-rank percentiles of `v` (sorted here).
Summary summarize(std::vector<double>& v, bool with_quantiles) {
  Summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto at = [&](double p) {
    std::size_t k = std::size_t(std::ceil(p / 100.0 * double(v.size())));
    return v[std::min(v.size() - 1, k == 0 ? 0 : k - 1)];
  };
  s.p50 = at(50), s.p90 = at(90), s.p99 = at(99), s.p999 = at(99.9), s.max = v.back(), s.min = v.front();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  if (with_quantiles) {
    for (int p = 0; p <= 100; ++p) s.quantiles.emplace_back(p, p == 0 ? v.front() : at(p));
    for (double p : {99.5, 99.9, 99.99}) s.quantiles.emplace_back(p, at(p));
    std::sort(s.quantiles.begin(), s.quantiles.end());
  }
  return s;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  out += '"';
}

// At most `n` bytes of `s`, cut at a character boundary.
std::string utf8_prefix(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

// `s` with bytes outside ASCII written as \xNN (a snippet may start inside a character).
std::string ascii(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x80) {
      out += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string summary_json(const Summary& s) {
  std::string out = "{\"n\":" + std::to_string(s.n);
  if (s.n) {
    out += ",\"p50\":" + num(s.p50) + ",\"p90\":" + num(s.p90) + ",\"p99\":" + num(s.p99) + ",\"p99_9\":" + num(s.p999) +
           ",\"max\":" + num(s.max) + ",\"min\":" + num(s.min) + ",\"mean\":" + num(s.mean);
  }
  if (!s.quantiles.empty()) {
    out += ",\"quantiles\":[";
    for (std::size_t i = 0; i < s.quantiles.size(); ++i) {
      if (i) out += ',';
      out += "[" + num(s.quantiles[i].first) + "," + num(s.quantiles[i].second) + "]";
    }
    out += "]";
  }
  return out + "}";
}

// ---------------------------------------------------------------- one connection

// A client connection. Reads go through recvmsg so that each read carries the kernel's receive
// timestamp; HTTP parsing (headers, chunked bodies) is Beast's parser, fed from `in`.
struct Conn {
  explicit Conn(asio::any_io_executor ex) : sock(ex) {}
  tcp::socket sock;
  beast::flat_buffer in;
  std::int64_t last_kernel = 0, last_user = 0;  // of the last read
  std::uint64_t reads = 0;                       // reads so far, to tell chunks read together
  std::int64_t last_activity = 0;
  bool busy = false;  // a request is in flight (the stall watchdog looks at it)
  bool drained = false;  // the last read emptied the socket

  awaitable<beast::error_code> connect(const tcp::resolver::results_type& endpoints) {
    beast::error_code ec;
    close();
    auto [e, ep] = co_await asio::async_connect(sock, endpoints, kTuple);
    if (e) co_return e;
    sock.set_option(tcp::no_delay(true), ec);
    int one = 1;
    ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    sock.non_blocking(true, ec);
    co_return ec;
  }

  void close() {
    beast::error_code ignored;
    if (sock.is_open()) {
      sock.shutdown(tcp::socket::shutdown_both, ignored);
      sock.close(ignored);
    }
    in.clear();
    drained = false;
  }

  // Appends what the socket has to `in`, waiting for it when there is nothing yet. After a read
  // that did not fill the buffer the socket is most likely empty, so the next read waits for it
  // first instead of trying a recvmsg that fails with EAGAIN (one io_context thread per worker:
  // nothing runs the reactor between that read and this wait, so no readiness is missed).
  awaitable<beast::error_code> read_more() {
    if (drained && sock.is_open()) {
      drained = false;
      auto [ec] = co_await sock.async_wait(tcp::socket::wait_read, kTuple);
      if (ec) co_return ec;
    }
    for (;;) {
      if (!sock.is_open()) co_return asio::error::operation_aborted;
      auto buf = in.prepare(64 * 1024);
      iovec iov{buf.data(), buf.size()};
      alignas(cmsghdr) char control[256];
      msghdr msg{};
      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      ssize_t n = ::recvmsg(sock.native_handle(), &msg, MSG_DONTWAIT);
      if (n > 0) {
        last_user = now_ns();
        last_kernel = last_user;
        ++reads;
        for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
          if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
            timespec ts;
            std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
            last_kernel = std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
          }
        }
        last_activity = last_user;
        drained = std::size_t(n) < buf.size();
        in.commit(std::size_t(n));
        co_return beast::error_code{};
      }
      if (n == 0) co_return asio::error::eof;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) co_return beast::error_code(errno, boost::system::system_category());
      auto [ec] = co_await sock.async_wait(tcp::socket::wait_read, kTuple);
      if (ec) co_return ec;
    }
  }

  // Reads one response: `on_header(parser)` once the header is in, `on_body(bytes)` for each
  // piece of the (de-chunked) body. Returns the error, if any; `keep_alive` tells whether the
  // connection can carry the next request.
  template <class OnHeader, class OnBody>
  awaitable<beast::error_code> read_response(OnHeader on_header, OnBody on_body, bool& keep_alive) {
    http::response_parser<http::buffer_body> p;
    p.body_limit(boost::none);
    p.eager(true);
    char body[16 * 1024];
    bool header_seen = false;
    keep_alive = false;
    for (;;) {
      beast::error_code ec;
      p.get().body().data = body;
      p.get().body().size = sizeof body;
      std::size_t used = p.put(in.data(), ec);
      in.consume(used);
      if (p.is_header_done() && !header_seen) {
        header_seen = true;
        on_header(p);
      }
      std::size_t got = sizeof body - p.get().body().size;
      if (got) on_body(std::string_view(body, got));
      if (p.is_done()) {
        keep_alive = p.get().keep_alive();
        co_return beast::error_code{};
      }
      if (ec == http::error::need_buffer) continue;
      if (ec && ec != http::error::need_more) co_return ec;
      if (!ec && used > 0) continue;
      auto rec = co_await read_more();
      if (rec == asio::error::eof && p.is_header_done() && p.need_eof()) {
        p.put_eof(ec);
        if (ec) co_return ec;
        co_return beast::error_code{};
      }
      if (rec) co_return rec == asio::error::eof ? beast::error_code(http::error::end_of_stream) : rec;
    }
  }
};

// Splits an SSE body into events and hands each event's data (its data: lines joined by \n).
class SseSplitter {
 public:
  template <class OnEvent>
  void feed(std::string_view bytes, OnEvent&& on_event) {
    pending_.append(bytes);
    std::size_t start = 0, eol;
    while ((eol = pending_.find('\n', start)) != std::string::npos) {
      std::string_view line(pending_.data() + start, eol - start);
      start = eol + 1;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty()) {
        if (has_data_) on_event(std::string_view(data_));
        data_.clear();
        has_data_ = false;
      } else if (line.starts_with("data:")) {
        line.remove_prefix(5);
        if (line.starts_with(' ')) line.remove_prefix(1);
        if (has_data_) data_ += '\n';
        data_ += line;
        has_data_ = true;
      }  // comments (": ping") and other fields carry nothing here
    }
    pending_.erase(0, start);
  }
  void reset() {
    pending_.clear();
    data_.clear();
    has_data_ = false;
  }

 private:
  std::string pending_, data_;
  bool has_data_ = false;
};

// ---------------------------------------------------------------- stream mode

struct Request {
  std::int64_t sent = 0, first_event = 0, first_content = 0, end = 0;
  std::int64_t last_content_kernel = 0;
  std::uint64_t last_content_read = 0;
  std::optional<double> pending_gap;  // the last chunk's gap, kept until its time is known to be its own
  std::string content, reasoning, finish_reason, error;
  std::size_t tool_call_chunks = 0, content_chunks = 0;
  std::optional<std::uint64_t> completion_tokens, prompt_tokens;
  bool done = false;  // data: [DONE] seen
  int status = 0;
};

struct Worker {
  const Options& o;
  asio::io_context ioc{1};
  tcp::resolver::results_type endpoints;
  std::vector<Conn*> conns;
  std::int64_t run_start = 0;
  bool stopping = false;
  simdjson::dom::parser json;
  // Results.
  std::vector<double> ttft, first_event, total, gap, added, client_lag;
  std::size_t chunks_read_together = 0;  // content chunks whose own arrival time is unknown
  std::vector<std::int64_t> chunk_times;  // every content chunk's arrival, for the steady window
  std::vector<std::int64_t> client_first_content, client_last_end;  // per client of this worker
  std::size_t ok = 0, errors = 0, mismatches = 0, reconnects = 0, stale_retries = 0, tokens = 0, prompt_tokens = 0, usage_missing = 0;
  std::map<std::string, std::size_t> finish_reasons, error_kinds;
  std::vector<std::string> mismatch_samples;
  std::map<std::string, std::size_t> texts;  // distinct answers (the first 64 kept), for a look at determinism
  std::int64_t last_end = 0;

  explicit Worker(const Options& options) : o(options) {}

  void on_event(Request& r, std::string_view data, std::int64_t kernel, std::int64_t user, std::uint64_t read) {
    if (!r.first_event) r.first_event = kernel;
    if (data == "[DONE]") {
      r.done = true;
      return;
    }
    simdjson::dom::element root;
    if (json.parse(data.data(), data.size()).get(root)) {
      if (r.error.empty()) r.error = "an event that is not JSON";
      return;
    }
    simdjson::dom::object error;
    if (!root["error"].get(error)) {
      std::string_view m;
      if (error["message"].get(m)) m = "error event";
      if (r.error.empty()) r.error = "error event: " + std::string(m.substr(0, 200));
      return;
    }
    bool content = false;
    simdjson::dom::array choices;
    if (!root["choices"].get(choices)) {
      for (auto choice : choices) {
        simdjson::dom::object delta;
        if (!choice["delta"].get(delta)) {
          std::string_view s;
          if (!delta["content"].get(s) && !s.empty()) r.content += s, content = true;
          if (!delta["reasoning_content"].get(s) && !s.empty()) r.reasoning += s, content = true;
          simdjson::dom::array calls;
          if (!delta["tool_calls"].get(calls) && calls.size()) ++r.tool_call_chunks, content = true;
        } else {
          std::string_view s;  // /v1/completions' chunks
          if (!choice["text"].get(s) && !s.empty()) r.content += s, content = true;
        }
        std::string_view finish;
        if (!choice["finish_reason"].get(finish)) r.finish_reason = finish;
      }
    }
    simdjson::dom::object usage;
    if (!root["usage"].get(usage)) {
      std::uint64_t v;
      if (!usage["completion_tokens"].get(v)) r.completion_tokens = v;
      if (!usage["prompt_tokens"].get(v)) r.prompt_tokens = v;
    }
    if (!content) return;
    ++r.content_chunks;
    chunk_times.push_back(kernel);
    client_lag.push_back(ms(user - kernel));
    // A read's timestamp is the arrival of its last byte: a chunk read together with the next one
    // (the client fell behind) has no arrival time of its own, and neither gap beside it is known.
    // Counting them would turn a client's lag into a server's delay (+1/R, then -1/R).
    if (!r.first_content) {
      r.first_content = kernel;
    } else if (read == r.last_content_read) {
      ++chunks_read_together;
      r.pending_gap.reset();
    } else {
      push_gap(r);
      r.pending_gap = ms(kernel - r.last_content_kernel);
    }
    r.last_content_kernel = kernel;
    r.last_content_read = read;
  }

  void push_gap(Request& r) {
    if (!r.pending_gap) return;
    gap.push_back(*r.pending_gap);
    if (o.rate > 0) added.push_back(*r.pending_gap - 1000.0 / o.rate);
    r.pending_gap.reset();
  }

  // A whole (non-streamed) chat or text completion.
  void on_whole(Request& r, std::string_view body) {
    simdjson::dom::element root;
    if (json.parse(body.data(), body.size()).get(root)) {
      r.error = "a body that is not JSON";
      return;
    }
    simdjson::dom::array choices;
    if (!root["choices"].get(choices)) {
      for (auto choice : choices) {
        std::string_view s;
        if (!choice["message"]["content"].get(s)) r.content += s;
        if (!choice["message"]["reasoning_content"].get(s)) r.reasoning += s;
        if (!choice["text"].get(s)) r.content += s;
        if (!choice["finish_reason"].get(s)) r.finish_reason = s;
      }
    }
    std::uint64_t v;
    if (!root["usage"]["completion_tokens"].get(v)) r.completion_tokens = v;
    if (!root["usage"]["prompt_tokens"].get(v)) r.prompt_tokens = v;
    r.done = true;
    r.first_content = r.first_event = r.end;
  }

  void record(Request& r) {
    push_gap(r);
    if (r.error.empty() && r.status != 200) r.error = "HTTP " + std::to_string(r.status);
    if (r.error.empty() && !r.done) r.error = "the stream ended without data: [DONE]";
    if (r.error.empty() && r.finish_reason.empty()) r.error = "no finish_reason";
    last_end = std::max(last_end, r.end);
    if (!r.error.empty()) {
      ++errors;
      std::string kind = r.error.substr(0, 160);
      ++error_kinds[kind];
      return;
    }
    ++ok;
    ++finish_reasons[r.finish_reason];
    if (r.first_content) ttft.push_back(ms(r.first_content - r.sent));
    if (r.first_event) first_event.push_back(ms(r.first_event - r.sent));
    total.push_back(ms(r.end - r.sent));
    if (r.completion_tokens) tokens += *r.completion_tokens;
    else ++usage_missing;
    if (r.prompt_tokens) prompt_tokens += *r.prompt_tokens;
    if (auto it = texts.find(r.content); it != texts.end()) ++it->second;
    else if (texts.size() < 64) texts.emplace(r.content, 1);
    if (o.expect) {
      const std::string& want = *o.expect;
      bool same = r.content == want && r.reasoning.empty() && r.tool_call_chunks == 0;
      if (!same) {
        ++mismatches;
        if (mismatch_samples.size() < 3) {
          std::size_t at = 0;
          while (at < want.size() && at < r.content.size() && want[at] == r.content[at]) ++at;
          std::string s = "content of " + std::to_string(r.content.size()) + " bytes (expected " +
                          std::to_string(want.size()) + ") differs at byte " + std::to_string(at) + ": got \"" +
                          ascii(r.content.substr(at, 40)) + "\", expected \"" + ascii(want.substr(std::min(at, want.size()), 40)) +
                          "\"";
          if (!r.reasoning.empty()) s += "; reasoning_content of " + std::to_string(r.reasoning.size()) + " bytes";
          if (r.tool_call_chunks) s += "; tool call chunks";
          mismatch_samples.push_back(s);
        }
      }
    }
  }

  awaitable<void> client(std::size_t index, std::size_t slot) {
    auto ex = co_await asio::this_coro::executor;
    Conn c(ex);
    conns[slot] = &c;
    std::int64_t start_at = run_start + std::int64_t(o.ramp * 1e9 * double(index) / double(o.concurrency));
    if (std::int64_t wait = start_at - now_ns(); wait > 0) {
      asio::steady_timer t(ex, std::chrono::nanoseconds(wait));
      co_await t.async_wait(kTuple);
    }
    http::request<http::string_body> req{http::verb::post, o.target, 11};
    req.set(http::field::host, o.host + ":" + o.port);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "text/event-stream, application/json");
    req.keep_alive(true);
    req.body() = o.body;
    req.prepare_payload();
    const std::int64_t end_at = run_start + std::int64_t(o.duration * 1e9);
    SseSplitter sse;
    std::string whole;
    bool reused = false;
    for (std::size_t k = 0;; ++k) {
      if (stopping) break;
      if (o.requests_per_client && k >= o.requests_per_client) break;
      if (o.duration > 0 && now_ns() >= end_at) break;
      Request r;
      beast::error_code ec, wec;
      bool keep = false, streamed = false;
      // A server may close a kept-alive connection after a response without saying so
      // (llama-server does after a stream): a request that gets no byte of answer on a reused
      // connection is sent again once on a new one (counted in stale_retries).
      for (int attempt = 0; attempt < 2; ++attempt) {
        if (!c.sock.is_open()) {
          if (k || attempt) ++reconnects;
          c.last_activity = now_ns();
          c.busy = true;
          ec = co_await c.connect(endpoints);
          c.busy = false;
          reused = false;
          if (ec) {
            r.sent = r.end = now_ns();
            r.error = "connect: " + ec.message();
            break;
          }
        }
        sse.reset();
        whole.clear();
        r = Request{};
        streamed = false;
        r.sent = now_ns();
        c.last_activity = r.sent;
        c.busy = true;
        std::tie(wec, std::ignore) = co_await http::async_write(c.sock, req, kTuple);
        ec = wec;
        if (!ec) {
          ec = co_await c.read_response(
              [&](auto& parser) {
                r.status = int(parser.get().result_int());
                streamed = parser.get()[http::field::content_type].find("text/event-stream") != std::string_view::npos;
              },
              [&](std::string_view bytes) {
                if (!streamed) {
                  whole.append(bytes);
                  return;
                }
                sse.feed(bytes, [&](std::string_view data) {
                  on_event(r, data, o.user_timestamps ? c.last_user : c.last_kernel, c.last_user, c.reads);
                });
              },
              keep);
        }
        c.busy = false;
        if (ec && reused && r.status == 0 && !stopping) {
          ++stale_retries;
          c.close();
          continue;
        }
        break;
      }
      if (!r.error.empty()) {  // could not connect
        record(r);
        c.close();
        asio::steady_timer t(ex, std::chrono::milliseconds(50));
        co_await t.async_wait(kTuple);
        continue;
      }
      r.end = o.user_timestamps ? c.last_user : c.last_kernel;
      if (r.end < r.sent) r.end = now_ns();
      if (ec) {
        r.error = (stopping ? "stopped at --timeout: " : "") + std::string(wec ? "write: " : "read: ") + ec.message();
        keep = false;
      } else if (!streamed) {
        if (r.status == 200) on_whole(r, whole);
        else r.error = "HTTP " + std::to_string(r.status) + ": " + whole.substr(0, 200);
      }
      reused = keep;
      record(r);
      if (r.error.empty()) {
        if (!client_first_content[slot] && r.first_content) client_first_content[slot] = r.first_content;
        client_last_end[slot] = r.end;
      }
      if (!keep) c.close();
    }
    c.close();
    conns[slot] = nullptr;
  }

  // Closes a connection silent for --stall seconds in the middle of a request, and every
  // connection at --timeout.
  awaitable<void> watchdog(std::size_t* running) {
    asio::steady_timer t(co_await asio::this_coro::executor);
    const std::int64_t deadline = run_start + std::int64_t(o.timeout * 1e9);
    while (*running > 0) {
      t.expires_after(std::chrono::milliseconds(200));
      co_await t.async_wait(kTuple);
      std::int64_t now = now_ns();
      if (now >= deadline) stopping = true;
      for (Conn* c : conns) {
        if (!c) continue;
        if (stopping || (c->busy && now - c->last_activity > std::int64_t(o.stall * 1e9))) {
          beast::error_code ignored;
          c->sock.close(ignored);
        }
      }
    }
  }
};

int run_stream(const Options& o) {
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned t = 0; t < o.threads; ++t) workers.push_back(std::make_unique<Worker>(o));
  {
    tcp::resolver resolver(workers[0]->ioc);
    beast::error_code ec;
    auto endpoints = resolver.resolve(o.host, o.port, ec);
    if (ec) usage("cannot resolve " + o.host + ": " + ec.message());
    for (auto& w : workers) w->endpoints = endpoints;
  }
  rusage ru0;
  getrusage(RUSAGE_SELF, &ru0);
  const std::int64_t start = now_ns();
  std::vector<std::size_t> running(o.threads, 0);
  for (unsigned t = 0; t < o.threads; ++t) {
    Worker& w = *workers[t];
    w.run_start = start;
    std::size_t mine = 0;
    for (std::size_t i = t; i < o.concurrency; i += o.threads) ++mine;
    w.conns.assign(mine, nullptr);
    w.client_first_content.assign(mine, 0);
    w.client_last_end.assign(mine, 0);
    running[t] = mine;
    std::size_t slot = 0;
    for (std::size_t i = t; i < o.concurrency; i += o.threads, ++slot) {
      asio::co_spawn(w.ioc, w.client(i, slot), [&running, t](std::exception_ptr e) {
        if (e) {
          try {
            std::rethrow_exception(e);
          } catch (const std::exception& x) {
            std::cerr << "textedge_serve_load: client failed: " << x.what() << "\n";
          }
        }
        --running[t];
      });
    }
    asio::co_spawn(w.ioc, w.watchdog(&running[t]), asio::detached);
  }
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < o.threads; ++t) threads.emplace_back([&w = *workers[t]] { w.ioc.run(); });
  workers[0]->ioc.run();
  for (auto& th : threads) th.join();
  const std::int64_t end = now_ns();
  rusage ru1;
  getrusage(RUSAGE_SELF, &ru1);
  auto cpu = [](const rusage& r) {
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
  };

  // Merge.
  Worker& all = *workers[0];
  bool stopped = false;
  for (std::size_t t = 1; t < workers.size(); ++t) {
    Worker& w = *workers[t];
    auto move_into = [](auto& to, auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    move_into(all.ttft, w.ttft), move_into(all.first_event, w.first_event), move_into(all.total, w.total);
    move_into(all.gap, w.gap), move_into(all.added, w.added), move_into(all.client_lag, w.client_lag);
    move_into(all.chunk_times, w.chunk_times), move_into(all.client_first_content, w.client_first_content);
    move_into(all.client_last_end, w.client_last_end), move_into(all.mismatch_samples, w.mismatch_samples);
    all.ok += w.ok, all.errors += w.errors, all.mismatches += w.mismatches, all.reconnects += w.reconnects;
    all.chunks_read_together += w.chunks_read_together;
    all.stale_retries += w.stale_retries;
    all.tokens += w.tokens, all.prompt_tokens += w.prompt_tokens, all.usage_missing += w.usage_missing;
    for (auto& [k, v] : w.finish_reasons) all.finish_reasons[k] += v;
    for (auto& [k, v] : w.error_kinds) all.error_kinds[k] += v;
    for (auto& [k, v] : w.texts) all.texts[k] += v;
    all.last_end = std::max(all.last_end, w.last_end);
    stopped = stopped || w.stopping;
  }
  stopped = stopped || all.stopping;
  // The run's time: from the start to the end of the last response.
  const double wall = double(std::max(all.last_end, start + 1) - start) / 1e9;
  // The steady window: from when every client had its first content chunk to when the first
  // client finished its last request; every client streams throughout it.
  std::int64_t w0 = 0, w1 = INT64_MAX;
  bool every_client = true;
  for (std::size_t i = 0; i < all.client_first_content.size(); ++i) {
    if (!all.client_first_content[i]) every_client = false;
    w0 = std::max(w0, all.client_first_content[i]);
    w1 = std::min(w1, all.client_last_end[i]);
  }
  double steady_s = 0, steady_rate = 0;
  if (every_client && w1 > w0) {
    steady_s = double(w1 - w0) / 1e9;
    std::size_t in = 0;
    for (auto t : all.chunk_times) in += t >= w0 && t < w1;
    steady_rate = double(in) / steady_s;
  }
  std::size_t chunks = all.chunk_times.size();

  std::string out = "{";
  if (!o.label.empty()) {
    out += "\"label\":";
    json_string(out, o.label);
    out += ',';
  }
  out += "\"url\":";
  json_string(out, "http://" + o.host + ":" + o.port + o.target);
  out += ",\"concurrency\":" + std::to_string(o.concurrency) + ",\"requests_per_client\":" +
         std::to_string(o.requests_per_client) + ",\"duration_s\":" + num(o.duration) + ",\"ramp_s\":" + num(o.ramp) +
         ",\"rate\":" + num(o.rate) + ",\"threads\":" + std::to_string(o.threads) + ",\"timestamps\":\"" +
         (o.user_timestamps ? "user" : "kernel") + "\"";
  out += ",\"requests\":" + std::to_string(all.ok + all.errors) + ",\"ok\":" + std::to_string(all.ok) +
         ",\"errors\":" + std::to_string(all.errors) + ",\"mismatches\":" + std::to_string(all.mismatches) +
         ",\"checked_text\":" + (o.expect ? "true" : "false") + ",\"reconnects\":" + std::to_string(all.reconnects) +
         ",\"stale_retries\":" + std::to_string(all.stale_retries) +
         ",\"stopped_at_timeout\":" + (stopped ? "true" : "false");
  out += ",\"wall_s\":" + num(wall) + ",\"completion_tokens\":" + std::to_string(all.tokens) +
         ",\"prompt_tokens\":" + std::to_string(all.prompt_tokens) + ",\"usage_missing\":" +
         std::to_string(all.usage_missing) + ",\"content_chunks\":" + std::to_string(chunks);
  out += ",\"tokens_per_s\":" + num(double(all.tokens) / wall) + ",\"requests_per_s\":" + num(double(all.ok) / wall) +
         ",\"steady_window_s\":" + num(steady_s) + ",\"steady_chunks_per_s\":" + num(steady_rate);
  out += ",\"client_cpu_s\":" + num(cpu(ru1) - cpu(ru0)) + ",\"client_wall_s\":" + num(double(end - start) / 1e9);
  out += ",\"ttft_ms\":" + summary_json(summarize(all.ttft, true));
  out += ",\"first_event_ms\":" + summary_json(summarize(all.first_event, false));
  out += ",\"total_ms\":" + summary_json(summarize(all.total, false));
  out += ",\"gap_ms\":" + summary_json(summarize(all.gap, true));
  out += ",\"added_delay_ms\":" + summary_json(summarize(all.added, true));
  out += ",\"client_lag_ms\":" + summary_json(summarize(all.client_lag, false));
  out += ",\"chunks_read_together\":" + std::to_string(all.chunks_read_together);
  out += ",\"finish_reasons\":{";
  bool first = true;
  for (auto& [k, v] : all.finish_reasons) {
    if (!first) out += ',';
    first = false;
    json_string(out, k);
    out += ":" + std::to_string(v);
  }
  out += "},\"error_kinds\":{";
  first = true;
  for (auto& [k, v] : all.error_kinds) {
    if (!first) out += ',';
    first = false;
    json_string(out, k);
    out += ":" + std::to_string(v);
  }
  out += "},\"distinct_texts\":" + std::to_string(all.texts.size()) +
         ",\"distinct_texts_capped\":" + (all.texts.size() >= 64 ? "true" : "false");
  out += ",\"text_sample\":";
  std::string sample;
  std::size_t most = 0;
  for (auto& [k, v] : all.texts)
    if (v > most) most = v, sample = k;
  json_string(out, utf8_prefix(sample, 300));
  out += ",\"mismatch_samples\":[";
  for (std::size_t i = 0; i < all.mismatch_samples.size(); ++i) {
    if (i) out += ',';
    json_string(out, all.mismatch_samples[i]);
  }
  out += "]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return all.errors || all.mismatches || all.ok == 0 ? 1 : 0;
}

// ---------------------------------------------------------------- prompt mode

struct Timed {
  http::response<http::string_body> res;
  double ms = 0;
};

awaitable<Timed> post(beast::tcp_stream& s, beast::flat_buffer& buf, const Options& o, const std::string& target,
                      std::string body) {
  http::request<http::string_body> req{http::verb::post, target, 11};
  req.set(http::field::host, o.host + ":" + o.port);
  req.set(http::field::content_type, "application/json");
  req.keep_alive(true);
  req.body() = std::move(body);
  req.prepare_payload();
  Timed t;
  std::int64_t t0 = now_ns();
  auto [we, wn] = co_await http::async_write(s, req, kTuple);
  if (we) throw std::runtime_error("POST " + target + ": write: " + we.message());
  http::response_parser<http::string_body> p;
  p.body_limit(boost::none);
  auto [re, rn] = co_await http::async_read(s, buf, p, kTuple);
  t.ms = ms(now_ns() - t0);
  if (re) throw std::runtime_error("POST " + target + ": read: " + re.message());
  t.res = p.release();
  if (t.res.result_int() != 200)
    throw std::runtime_error("POST " + target + ": HTTP " + std::to_string(t.res.result_int()) + ": " +
                             t.res.body().substr(0, 300));
  co_return t;
}

std::vector<std::int64_t> read_ids(simdjson::dom::parser& json, const std::string& body) {
  simdjson::dom::array tokens;
  simdjson::dom::element root;
  if (json.parse(body).get(root) || root["tokens"].get(tokens))
    throw std::runtime_error("no \"tokens\" array in " + body.substr(0, 200));
  std::vector<std::int64_t> ids;
  ids.reserve(tokens.size());
  for (auto t : tokens) {
    std::int64_t id;
    if (t.get(id)) throw std::runtime_error("a token that is not an id");
    ids.push_back(id);
  }
  return ids;
}

int run_prompt(const Options& o) {
  asio::io_context ioc{1};
  std::string result;
  int status = 0;
  asio::co_spawn(
      ioc,
      [&]() -> awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        tcp::resolver resolver(ex);
        auto endpoints = co_await resolver.async_resolve(o.host, o.port, asio::use_awaitable);
        beast::tcp_stream s(ex);
        co_await s.async_connect(endpoints, asio::use_awaitable);
        s.socket().set_option(tcp::no_delay(true));
        beast::flat_buffer buf;
        simdjson::dom::parser json;
        std::vector<double> totals, step1, step2;
        std::vector<std::int64_t> ids;
        std::string prompt;
        std::size_t response_bytes = 0;
        for (std::size_t rep = 0; rep < o.warmup + o.repeat; ++rep) {
          double t = 0;
          if (o.flavor == "textedge") {
            Timed a = co_await post(s, buf, o, "/tokenize", o.body);
            t = a.ms;
            step1.push_back(a.ms);
            ids = read_ids(json, a.res.body());
            response_bytes = a.res.body().size();
          } else {
            Timed a = co_await post(s, buf, o, "/apply-template", o.body);
            simdjson::dom::element root;
            std::string_view p;
            if (json.parse(a.res.body()).get(root) || root["prompt"].get(p))
              throw std::runtime_error("/apply-template gave no prompt: " + a.res.body().substr(0, 200));
            prompt = std::string(p);
            std::string body = "{\"content\":";
            json_string(body, prompt);
            body += ",\"add_special\":false,\"parse_special\":true}";
            Timed b = co_await post(s, buf, o, "/tokenize", std::move(body));
            t = a.ms + b.ms;
            step1.push_back(a.ms);
            step2.push_back(b.ms);
            ids = read_ids(json, b.res.body());
            response_bytes = a.res.body().size() + b.res.body().size();
          }
          if (rep >= o.warmup) totals.push_back(t);
          else step1.pop_back(), (step2.empty() ? void() : step2.pop_back());
        }
        if (!o.ids_out.empty()) {
          std::ofstream f(o.ids_out);
          f << '[';
          for (std::size_t i = 0; i < ids.size(); ++i) f << (i ? "," : "") << ids[i];
          f << "]\n";
        }
        if (!o.prompt_out.empty() && !prompt.empty()) std::ofstream(o.prompt_out, std::ios::binary) << prompt;
        Summary st = summarize(totals, false), s1 = summarize(step1, false), s2 = summarize(step2, false);
        result = "{\"flavor\":\"" + o.flavor + "\",\"url\":";
        json_string(result, "http://" + o.host + ":" + o.port);
        result += ",\"repeat\":" + std::to_string(o.repeat) + ",\"warmup\":" + std::to_string(o.warmup) +
                  ",\"tokens\":" + std::to_string(ids.size()) + ",\"request_bytes\":" + std::to_string(o.body.size()) +
                  ",\"response_bytes\":" + std::to_string(response_bytes) + ",\"ms\":" + summary_json(st);
        if (o.flavor == "llamacpp")
          result += ",\"apply_template_ms\":" + summary_json(s1) + ",\"tokenize_ms\":" + summary_json(s2) +
                    ",\"prompt_bytes\":" + std::to_string(prompt.size());
        result += "}\n";
      },
      [&](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& x) {
          std::cerr << "textedge_serve_load: " << x.what() << "\n";
          status = 1;
        }
      });
  ioc.run();
  if (status) return status;
  std::fwrite(result.data(), 1, result.size(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return o.mode == "prompt" ? run_prompt(o) : run_stream(o);
  } catch (const std::exception& e) {
    std::cerr << "textedge_serve_load: " << e.what() << "\n";
    return 1;
  }
}
