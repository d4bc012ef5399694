// textedge command-line tool: encode, decode, stream, info, render, parse, schema-regex,
// tool-regex, serve, bench encode|decode|stream|render. Each command takes only its own flags (its
// table in kCommands says where each goes); anything else is a usage error (exit 2).
// Output formats are a contract other tools rely on; see README.md.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"
#include "base/utf8.hpp"
#include "json_out.hpp"
#include "parse_command.hpp"
#include "read_input.hpp"
#include "render_command.hpp"
#include "schema_commands.hpp"
#include "server/server.hpp"
#include "textedge/textedge.hpp"

namespace {

using textedge::TokenId;
using textedge::Tokenizer;
using textedge::cli::append_json_ids;
using textedge::cli::append_json_string;
using textedge::cli::read_input;

// Everything the flags and arguments of one command line set; each command reads its part.
struct Args {
  std::string model;                    // -m MODEL
  std::vector<std::string> positional;  // encode's TEXT, bench's FILE, schema-regex's FILE
  textedge::EncodeOptions encode;
  textedge::DecodeOptions decode;
  bool jsonl = false;
  bool prefix_cache = false;
  unsigned threads = 1;
  std::vector<TokenId> prompt_ids;
  textedge::StreamOptions stream{.skip_special_tokens = false};
  textedge::cli::SchemaCommand schema;
  textedge::cli::RenderCommand render;
  textedge::cli::ParseCommand parse;
  textedge::server::ServerOptions serve;
};

// A flag value that does not parse: the message says what was expected and what came.
struct BadValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A command line that cannot run: printed with the command's usage, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::size_t parse_count(const std::string& v, std::size_t max = SIZE_MAX, std::size_t min = 0) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end || v[0] == '-' || errno == ERANGE || n < min || n > max)
    throw BadValue((max == SIZE_MAX ? std::string("needs a non-negative integer")
                                    : "needs an integer from " + std::to_string(min) + " to " + std::to_string(max)) +
                   ", got '" + v + "'");
  return static_cast<std::size_t>(n);
}

// A JSON array of ids; false with `error` set (what and which element) when it is not one.
bool parse_ids(simdjson::dom::parser& parser, std::string_view json, std::vector<TokenId>& ids, std::string& error) {
  simdjson::dom::element e;
  simdjson::dom::array arr;
  if (parser.parse(json.data(), json.size()).get(e) || e.get_array().get(arr)) {
    error = "expected a JSON array of ids";
    return false;
  }
  ids.clear();
  for (auto v : arr) {
    std::int64_t id;
    if (v.get_int64().get(id) || id < 0 || id > 0xFFFFFFFFLL) {
      error = "element " + std::to_string(ids.size() + 1) + " is not an id (an integer in [0, 2^32))";
      return false;
    }
    ids.push_back(static_cast<TokenId>(id));
  }
  return true;
}

// One flag of one command: its name, whether a value follows it, and where it goes.
struct Flag {
  std::string_view name;
  bool takes_value;
  void (*set)(Args& a, const std::string& value);
};

using V = const std::string&;
const Flag kModel{"-m", true, [](Args& a, V v) { a.model = v; }};
const Flag kAddSpecial{"--add-special-tokens", false, [](Args& a, V) { a.encode.add_special_tokens = true; }};
const Flag kLossy{"--lossy-utf8", false, [](Args& a, V) { a.encode.lossy_utf8 = true; }};
const Flag kJsonl{"--jsonl", false, [](Args& a, V) { a.jsonl = true; }};
const Flag kThreads{"--threads", true,
                    [](Args& a, V v) { a.threads = static_cast<unsigned>(parse_count(v, 1024, 1)); }};
const Flag kPrefixCache{"--prefix-cache", false, [](Args& a, V) { a.prefix_cache = true; }};
const Flag kDecodeSkip{"--skip-special-tokens", false, [](Args& a, V) { a.decode.skip_special_tokens = true; }};
const Flag kStreamSkip{"--skip-special-tokens", false, [](Args& a, V) { a.stream.skip_special_tokens = true; }};
const Flag kPromptIds{"--prompt-ids", true, [](Args& a, V v) {
                        simdjson::dom::parser parser;
                        std::string error;
                        if (!parse_ids(parser, v, a.prompt_ids, error)) throw BadValue(error + ", got '" + v + "'");
                      }};
const Flag kStop{"--stop", true, [](Args& a, V v) { a.stream.stop.push_back(v); }};
const Flag kStopTokenId{"--stop-token-id", true, [](Args& a, V v) {
                          a.stream.stop_token_ids.push_back(static_cast<TokenId>(parse_count(v, 0xFFFFFFFFu)));
                        }};
const Flag kIncludeStop{"--include-stop-str", false, [](Args& a, V) { a.stream.include_stop_str_in_output = true; }};
const Flag kMinTokens{"--min-tokens", true, [](Args& a, V v) { a.stream.min_tokens = parse_count(v); }};
const Flag kMaxTokens{"--max-tokens", true, [](Args& a, V v) { a.stream.max_tokens = parse_count(v); }};
const Flag kIgnoreEos{"--ignore-eos", false, [](Args& a, V) { a.stream.ignore_eos = true; }};
const Flag kTemplate{"--template", true, [](Args& a, V v) { a.render.template_file = v; }};
const Flag kRequest{"--request", true, [](Args& a, V v) { a.render.request = v; }};
const Flag kIds{"--ids", false, [](Args& a, V) { a.render.ids = true; }};
// schema-regex and tool-regex
const Flag kStrict{"--strict", false, [](Args& a, V) { a.schema.strict = true; }};
const Flag kAnyDepth{"--any-depth", true, [](Args& a, V v) {
                       a.schema.any_depth = static_cast<int>(parse_count(v, 6));  // the regex grows fourfold per level
                     }};
const Flag kMaxDepth{"--max-depth", true,
                     [](Args& a, V v) { a.schema.max_depth = static_cast<int>(parse_count(v, 32)); }};
const Flag kToolsFile{"--tools", true, [](Args& a, V v) { a.schema.tools = v; }};
const Flag kToolFormat{"--format", true, [](Args& a, V v) { a.schema.format = v; }};
const Flag kToolName{"--name", true, [](Args& a, V v) { a.schema.name = v; }};
const Flag kParallel{"--parallel", false, [](Args& a, V) { a.schema.parallel = true; }};
// parse
const Flag kParseFormat{"--format", true, [](Args& a, V v) { a.parse.format = v; }};
const Flag kReasoning{"--reasoning", true, [](Args& a, V v) { a.parse.reasoning = v; }};
const Flag kStartsInReasoning{"--starts-in-reasoning", false, [](Args& a, V) { a.parse.starts_in_reasoning = true; }};
const Flag kParseTools{"--tools", true, [](Args& a, V v) { a.parse.tools = v; }};
const Flag kWhole{"--whole", false, [](Args& a, V) { a.parse.whole = true; }};
const Flag kNoPartialCalls{"--no-partial-calls", false, [](Args& a, V) { a.parse.no_partial_calls = true; }};
const Flag kList{"--list", false, [](Args& a, V) { a.parse.list = true; }};
// serve
double parse_rate(const std::string& v) {
  char* end = nullptr;
  double r = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(r >= 0 && r <= 1e9)) throw BadValue("needs a number >= 0, got '" + v + "'");
  return r;
}
const Flag kEngine{"--engine", true, [](Args& a, V v) { a.serve.engine = v; }};
const Flag kHost{"--host", true, [](Args& a, V v) { a.serve.host = v; }};
const Flag kPort{"--port", true, [](Args& a, V v) { a.serve.port = static_cast<unsigned short>(parse_count(v, 65535)); }};
const Flag kChatTemplate{"--chat-template", true, [](Args& a, V v) { a.serve.chat_template = v; }};
const Flag kServedName{"--served-model-name", true, [](Args& a, V v) { a.serve.served_model_name = v; }};
const Flag kToolParser{"--tool-call-parser", true, [](Args& a, V v) { a.serve.tool_call_parser = v; }};
const Flag kReasoningParser{"--reasoning-parser", true, [](Args& a, V v) { a.serve.reasoning_parser = v; }};
const Flag kApiKey{"--api-key", true, [](Args& a, V v) { a.serve.api_key = v; }};
const Flag kMaxConcurrent{"--max-concurrent", true, [](Args& a, V v) { a.serve.max_concurrent = parse_count(v, 1 << 20, 1); }};
const Flag kMaxQueue{"--max-queue", true, [](Args& a, V v) { a.serve.max_queue = parse_count(v, 1 << 24); }};
const Flag kMaxBody{"--max-body-bytes", true, [](Args& a, V v) { a.serve.max_body_bytes = parse_count(v, std::size_t{1} << 32, 1024); }};
const Flag kPromptCache{"--prompt-cache", true, [](Args& a, V v) { a.serve.prompt_cache = parse_count(v, 1u << 20); }};
const Flag kMaxBuffered{"--max-buffered-bytes", true,
                        [](Args& a, V v) { a.serve.max_buffered_bytes = parse_count(v, std::size_t{1} << 32, 1024); }};
const Flag kServeThreads{"--threads", true, [](Args& a, V v) { a.serve.threads = static_cast<unsigned>(parse_count(v, 256, 1)); }};
const Flag kScriptedRate{"--scripted-rate", true, [](Args& a, V v) { a.serve.scripted_rate = parse_rate(v); }};
const Flag kGrace{"--shutdown-grace", true, [](Args& a, V v) { a.serve.shutdown_grace_seconds = parse_rate(v); }};
const Flag kNoLog{"--no-request-log", false, [](Args& a, V) { a.serve.log_requests = false; }};

void write(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int run_serve(Args& a) {
  if (a.serve.engine.empty()) throw UsageError("serve needs --engine llamacpp://HOST:PORT or scripted:FILE");
  a.serve.model_dir = a.model;
  return textedge::server::run_server(a.serve);
}

int run_encode(Args& a) {
  Tokenizer tok = Tokenizer::load(a.model);
  std::string out;
  if (!a.jsonl) {
    std::string text = a.positional.empty() ? read_input("-") : a.positional[0];
    try {
      append_json_ids(out, tok.encode(text, a.encode));
    } catch (const textedge::InputError& e) {
      throw textedge::Error((a.positional.empty() ? "stdin: " : "TEXT: ") + std::string(e.what()));
    }
    out += '\n';
    write(out);
    return 0;
  }
  simdjson::dom::parser parser;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    std::string_view text;
    simdjson::dom::element e;
    if (parser.parse(line).get(e) || e.get_string().get(text)) {
      std::fprintf(stderr, "textedge: stdin line %zu: expected a JSON string\n", line_no);
      return 1;
    }
    out.clear();
    append_json_ids(out, tok.encode(text, a.encode));
    out += '\n';
    write(out);
  }
  return 0;
}

// stdin holds JSON id arrays separated by any whitespace (one per line, typically).
int run_decode(Args& a) {
  Tokenizer tok = Tokenizer::load(a.model);
  std::string input = read_input("-");
  simdjson::dom::parser parser;
  simdjson::dom::document_stream stream;
  // A batch as large as the input: parse_many refuses a document larger than its batch.
  if (parser.parse_many(input, std::max(input.size(), simdjson::dom::DEFAULT_BATCH_SIZE)).get(stream)) {
    std::fprintf(stderr, "textedge: stdin: expected JSON arrays of ids\n");
    return 1;
  }
  std::string out;
  std::vector<TokenId> ids;
  std::size_t n = 0;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    ++n;
    auto fail = [&](const std::string& what) {
      std::fprintf(stderr, "textedge: stdin value %zu (byte offset %zu): %s\n", n, it.current_index(), what.c_str());
      return 1;
    };
    simdjson::dom::array arr;
    if ((*it).get_array().get(arr)) return fail("expected a JSON array of ids");
    ids.clear();
    for (auto v : arr) {
      std::int64_t id;
      if (v.get_int64().get(id) || id < 0 || id > 0xFFFFFFFFLL)
        return fail("element " + std::to_string(ids.size() + 1) + " is not an id (an integer in [0, 2^32))");
      ids.push_back(static_cast<TokenId>(id));
    }
    out.clear();
    append_json_string(out, tok.decode(ids, a.decode));
    out += '\n';
    write(out);
  }
  if (stream.truncated_bytes()) {
    std::fprintf(stderr, "textedge: stdin ends inside a JSON value (its last %zu bytes)\n", stream.truncated_bytes());
    return 1;
  }
  return 0;
}

void append_delta(std::string& out, const textedge::StreamDelta& d) {
  out += "{\"text\":";
  append_json_string(out, d.text);
  out += ",\"finish_reason\":";
  if (d.finish_reason == textedge::FinishReason::kNone)
    out += "null";
  else
    append_json_string(out, textedge::to_string(d.finish_reason));
  out += ",\"stop_reason\":";
  if (auto* s = std::get_if<std::string>(&d.stop_reason))
    append_json_string(out, *s);
  else if (auto* id = std::get_if<TokenId>(&d.stop_reason))
    out += std::to_string(*id);
  else
    out += "null";
  out += "}\n";
}

int run_stream(Args& a) {
  Tokenizer tok = Tokenizer::load(a.model);
  textedge::TextStream stream(tok, a.prompt_ids, a.stream);
  simdjson::dom::parser parser;
  std::vector<TokenId> ids;
  std::string error;
  textedge::StreamDelta delta;
  std::string line, out;
  std::size_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    if (!parse_ids(parser, line, ids, error)) {
      std::fprintf(stderr, "textedge: stdin line %zu: %s\n", line_no, error.c_str());
      return 1;
    }
    delta = {};
    stream.step(ids, delta);
    out.clear();
    append_delta(out, delta);
    write(out);
    std::fflush(stdout);  // a client reads each step as it happens
    if (stream.finished()) return 0;
  }
  delta = {};
  stream.finish(delta);
  out.clear();
  append_delta(out, delta);
  write(out);
  return 0;
}

int run_info(Args& a) {
  auto info = Tokenizer::load(a.model).info();
  std::string out = "{\"model\":";
  append_json_string(out, info.model_type);
  out += ",\"vocab_size\":" + std::to_string(info.vocab_size);
  auto component = [&](const char* name, const std::string& value) {
    out += ",\"";
    out += name;
    out += "\":";
    append_json_string(out, value);
  };
  component("normalizer", info.normalizer);
  component("pre_tokenizer", info.pre_tokenizer);
  component("post_processor", info.post_processor);
  component("decoder", info.decoder);
  for (auto [name, value] : {std::pair{"bos_token", &info.bos_token},
                             {"eos_token", &info.eos_token},
                             {"pad_token", &info.pad_token},
                             {"unk_token", &info.unk_token}}) {
    if (value->has_value()) component(name, **value);
  }
  std::size_t specials = 0;
  for (auto& t : info.added_tokens) specials += t.special;
  out += ",\"added_tokens\":" + std::to_string(info.added_tokens.size());
  out += ",\"special_tokens\":[";
  std::size_t shown = 0;
  for (auto& t : info.added_tokens) {
    if (!t.special) continue;
    if (shown++) out += ',';
    out += "{\"id\":" + std::to_string(t.id) + ",\"content\":";
    append_json_string(out, t.content);
    out += '}';
  }
  out += "]}\n";
  write(out);
  return 0;
}

int run_render(Args& a) {
  if (a.model.empty() && a.render.template_file.empty()) throw UsageError("render needs -m MODEL or --template FILE");
  if (a.render.ids && a.model.empty()) throw UsageError("render --ids needs -m MODEL (its tokenizer)");
  a.render.model = a.model;
  return textedge::cli::run_render(a.render);
}

int run_schema_regex(Args& a) {
  a.schema.command = "schema-regex";
  a.schema.file = a.positional[0];
  return textedge::cli::run_schema_command(a.schema);
}

int run_tool_regex(Args& a) {
  if (a.schema.tools.empty() || a.schema.format.empty())
    throw UsageError("tool-regex needs --tools FILE and --format NAME");
  a.schema.command = "tool-regex";
  return textedge::cli::run_schema_command(a.schema);
}

int run_parse(Args& a) { return textedge::cli::run_parse_command(a.parse); }

// FNV-1a, 64 bits: the digest of what a bench command produced, printed so that the scripts can
// check that both sides produced the same ids and text (tools/reference/bench_common.js computes
// it the same way: a list of ids as its count and then its ids, 4 little-endian bytes each).
struct Fnv1a64 {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void bytes(std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  }
  void ids(std::span<const TokenId> ids) {
    u32(static_cast<std::uint32_t>(ids.size()));
    for (TokenId id : ids) u32(static_cast<std::uint32_t>(id));
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

// Splits text into ~4 KB chunks at line boundaries (as the reference benchmark does).
std::vector<std::string> chunk_text(const std::string& text, std::size_t target = 4096) {
  std::vector<std::string> chunks;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(text.size(), start + target);
    if (end < text.size()) {
      std::size_t nl = text.find('\n', end);
      end = nl == std::string::npos ? text.size() : nl + 1;
    }
    chunks.push_back(text.substr(start, end - start));
    start = end;
  }
  return chunks;
}

// Runs `body` (which does `per_round` units of work) until at least `min_seconds` passed;
// returns seconds per unit. The clock is read once a batch of calls, the batch doubling while
// one takes under a thousandth of min_seconds (as timeit's `number`): a read costs ~30 ns on
// this VM (kvm-clock), 2% of a 1.4 us chat render when read after each.
template <class Body>
double time_per_unit(double min_seconds, double per_round, Body&& body) {
  body();  // warm up
  std::size_t rounds = 0, batch = 1;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    for (std::size_t i = 0; i < batch; ++i) body();
    rounds += batch;
    const double before = elapsed;
    elapsed = seconds_since(start);
    if (elapsed - before < min_seconds / 1000) batch *= 2;
  } while (elapsed < min_seconds);
  return elapsed / rounds / per_round;
}

// The best of `windows` runs of time_per_unit over total_seconds / windows each: the shared
// machine's interference only adds time, so the fastest window is the closest to the cost (as
// Python's timeit advises; tools/reference/bench_render.py measures Jinja2 the same way).
template <class Body>
double best_time_per_unit(double total_seconds, int windows, Body&& body) {
  double best = time_per_unit(total_seconds / windows, 1, body);
  for (int i = 1; i < windows; ++i) best = std::min(best, time_per_unit(total_seconds / windows, 1, body));
  return best;
}

// What every bench over a text FILE starts from: the tokenizer (and how long it took to load),
// the file's text and its ~4 KB chunks.
struct BenchInput {
  Tokenizer tok;
  double load_ms;  // the best of kLoadRounds loads, each from the file
  std::string text;
  std::vector<std::string> chunks;
  double first_load_ms;  // the process's first load
};

// Loads are timed as the best of five, as tools/reference/bench.js times the reference's: a
// process's first load pays for its fresh memory as the machine provides it, which on the VMs
// here moves one load 3-10x from run to run (qwen3: 50-310 ms, the same instructions).
constexpr int kLoadRounds = 5;

BenchInput load_bench_input(const Args& a) {
  auto t0 = std::chrono::steady_clock::now();
  std::optional<Tokenizer> tok = Tokenizer::load(a.model);
  double first_load_ms = seconds_since(t0) * 1e3, load_ms = first_load_ms;
  for (int i = 1; i < kLoadRounds; ++i) {
    tok.reset();
    t0 = std::chrono::steady_clock::now();
    tok = Tokenizer::load(a.model);
    load_ms = std::min(load_ms, seconds_since(t0) * 1e3);
  }
  std::string text = read_input(a.positional[0]);
  // Said here, with the file's offset: encode_batch would name an offset within a chunk.
  if (!a.encode.lossy_utf8)
    if (std::size_t bad = textedge::detail::find_invalid_utf8(text); bad != std::string::npos)
      throw textedge::InputError(a.positional[0] + ": invalid UTF-8 (see --lossy-utf8)", bad);
  auto chunks = chunk_text(text);
  return {std::move(*tok), load_ms, std::move(text), std::move(chunks), first_load_ms};
}

// bench encode --prefix-cache: a conversation of 50 turns (25 user messages and 25 answers, cut
// from FILE) rendered by the model's chat template turn by turn, each prompt encoded whole and
// with a PromptCache that holds the previous turn's prompt. Each encode is timed alone, best of
// five (the cache copied from its state after the previous turn before each try).
int run_bench_prefix_cache(const Args& a, BenchInput& in) {
  auto chat = textedge::ChatTemplate::load(a.model);
  if (!a.serve.chat_template.empty())  // --chat-template: another template, with the model's special tokens
    chat = textedge::ChatTemplate::from_string(read_input(a.serve.chat_template), chat.special_tokens(), a.serve.chat_template);
  std::vector<std::string> turns = chunk_text(in.text, 2600);  // ~650 tokens: 50 turns make ~32k
  if (turns.size() < 50) throw UsageError("bench encode --prefix-cache needs a FILE of at least 130 KB");
  std::string messages = "[";
  textedge::PromptCache cache;
  double full_total = 0, cached_total = 0, full_last = 0, cached_last = 0;
  std::size_t tokens_last = 0, reused_last = 0, bytes_last = 0;
  Fnv1a64 ids_digest;
  auto best_of_five = [](auto&& timed) {  // `timed` returns the seconds of what it times
    double best = 1e30;
    for (int i = 0; i < 5; ++i) best = std::min(best, timed());
    return best;
  };
  for (std::size_t turn = 0; turn < 50; ++turn) {
    if (turn) messages += ',';
    messages += turn % 2 == 0 ? R"({"role":"user","content":)" : R"({"role":"assistant","content":)";
    append_json_string(messages, turns[turn]);
    messages += '}';
    if (turn % 2 == 1) continue;  // a prompt per user turn, and one with the last answer below
    std::string prompt = chat.apply(messages + "]", {.add_generation_prompt = true});
    std::vector<TokenId> full, cached;
    double f = best_of_five([&] {
      auto t0 = std::chrono::steady_clock::now();
      full = in.tok.encode(prompt, a.encode);
      return seconds_since(t0);
    });
    textedge::PromptCache before = cache;
    double c = best_of_five([&] {
      textedge::PromptCache trial = before;
      auto t0 = std::chrono::steady_clock::now();
      cached = in.tok.encode_cached(prompt, trial, a.encode);
      double s = seconds_since(t0);
      cache = std::move(trial);
      return s;
    });
    if (cached != full) {
      std::fprintf(stderr, "textedge: bench encode --prefix-cache: turn %zu: the cached ids differ from encode's\n", turn);
      return 1;
    }
    ids_digest.ids(full);
    full_total += f, cached_total += c, full_last = f, cached_last = c;
    tokens_last = full.size(), reused_last = cache.reused_bytes(), bytes_last = prompt.size();
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"op\":\"encode_prefix_cache\",\"turns\":50,\"prompts\":25,\"tokens_last\":%zu,\"bytes_last\":%zu,"
                "\"reused_bytes_last\":%zu,\"full_us_last\":%.1f,\"cached_us_last\":%.1f,\"speedup_last\":%.1f,"
                "\"full_ms_all\":%.3f,\"cached_ms_all\":%.3f,\"ids_fnv1a64\":\"%s\"}\n",
                tokens_last, bytes_last, reused_last, full_last * 1e6, cached_last * 1e6, full_last / cached_last,
                full_total * 1e3, cached_total * 1e3, ids_digest.hex().c_str());
  write(buf);
  return 0;
}

int run_bench_encode(Args& a) {
  BenchInput in = load_bench_input(a);
  if (a.prefix_cache) return run_bench_prefix_cache(a, in);
  // Warm up once (its ids are the output the script checks), then repeat for at least one second.
  // The warm-up is timed too: the first pass over the text, with caches that have seen none of it
  // (the repeated rounds find the text's rarer words in the word cache, as far as it holds them).
  std::size_t tokens = 0;
  Fnv1a64 ids_digest;
  auto first_start = std::chrono::steady_clock::now();
  auto first = in.tok.encode_batch(in.chunks, a.encode, a.threads);
  double first_seconds = seconds_since(first_start);
  for (auto& ids : first) tokens += ids.size(), ids_digest.ids(ids);
  std::size_t rounds = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    auto batch = in.tok.encode_batch(in.chunks, a.encode, a.threads);
    ++rounds;
    elapsed = seconds_since(start);
  } while (elapsed < 1.0);
  double seconds = elapsed / rounds;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"op\":\"encode\",\"MBps\":%.2f,\"first_MBps\":%.2f,\"tokens\":%zu,\"ids_fnv1a64\":\"%s\",\"bytes\":%zu,"
                "\"seconds\":%.6f,\"load_ms\":%.1f,\"first_load_ms\":%.1f,\"threads\":%u,\"rounds\":%zu}\n",
                in.text.size() / seconds / 1e6, in.text.size() / first_seconds / 1e6, tokens, ids_digest.hex().c_str(),
                in.text.size(), seconds, in.load_ms, in.first_load_ms,
                a.threads, rounds);
  write(buf);
  return 0;
}

int run_bench_decode(Args& a) {
  BenchInput in = load_bench_input(a);
  auto batch = in.tok.encode_batch(in.chunks, a.encode, 1);
  // The first pass is the warm-up; its text is the output the script checks.
  std::size_t tokens = 0, bytes = 0;
  Fnv1a64 text_digest;
  for (auto& ids : batch) {
    std::string text = in.tok.decode(ids, a.decode);
    bytes += text.size(), tokens += ids.size();
    text_digest.bytes(text);
  }
  std::size_t rounds = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    for (auto& ids : batch) bytes += in.tok.decode(ids, a.decode).size() * 0;
    ++rounds;
    elapsed = seconds_since(start);
  } while (elapsed < 1.0);
  double seconds = elapsed / rounds;
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "{\"op\":\"decode\",\"MBps\":%.2f,\"tokens\":%zu,\"bytes\":%zu,\"text_fnv1a64\":\"%s\",\"seconds\":%.6f,"
      "\"load_ms\":%.1f,\"tokens_per_s\":%.0f,\"rounds\":%zu}\n",
      bytes / seconds / 1e6, tokens, bytes, text_digest.hex().c_str(), seconds, in.load_ms, tokens / seconds, rounds);
  write(buf);
  return 0;
}

// The ids `bench stream` streams: FILE's ~4 KB chunks encoded without special tokens, cut at this
// count. tools/reference/bench_stream.js streams the same; scripts/bench_stream.sh checks it.
constexpr std::size_t kStreamTokens = 20'000;

// Streaming decode: one stream one id at a time (ns per token), one StreamBatch step of 256
// streams with one new id each (us per step), and priming from prompts of 1k, 32k and 1M
// tokens (us; must not grow with the prompt). Every stream skips special tokens or not as
// --skip-special-tokens says; "bytes" is the text the single stream gave. Fails when a stream's
// text is not decode's.
int run_bench_stream(Args& a) {
  BenchInput in = load_bench_input(a);
  const Tokenizer& tok = in.tok;
  const bool skip = a.stream.skip_special_tokens;
  std::vector<TokenId> ids;
  for (auto& chunk : in.chunks) {
    auto part = tok.encode(chunk);
    ids.insert(ids.end(), part.begin(), part.end());
    if (ids.size() >= kStreamTokens) break;
  }
  if (ids.size() > kStreamTokens) ids.resize(kStreamTokens);
  if (ids.empty()) throw UsageError("bench stream needs a non-empty FILE");
  const std::string decoded = tok.decode(ids, {.skip_special_tokens = skip});
  std::string out;
  out.reserve(decoded.size() + 16);
  double per_token = time_per_unit(1.0, static_cast<double>(ids.size()), [&] {
    textedge::Detokenizer stream(tok, {}, {.skip_special_tokens = skip});
    out.clear();
    for (TokenId id : ids) stream.step(id, out);
    stream.finish(out);
  });
  if (out != decoded) {
    std::fprintf(stderr, "textedge: bench stream: the streamed text differs from decode's\n");
    return 1;
  }
  std::size_t bytes = out.size();
  // The same through TextStream with stop strings (held-text bookkeeping on every token). No
  // stream below ends at an EOS in the text: each must take every id it is given.
  textedge::StreamOptions stop_options{
      .skip_special_tokens = skip, .stop = {"</answer>", "\n\nUser:", "<|stop|>"}, .ignore_eos = true};
  std::string stops_text;
  auto stream_with_stops = [&](bool keep_text) {
    textedge::TextStream stream(tok, {}, stop_options);
    textedge::StreamDelta d;
    for (TokenId id : ids) {
      d.text.clear();
      stream.step(std::span(&id, 1), d);
      if (keep_text) stops_text += d.text;
      if (stream.finished()) return true;
    }
    d.text.clear();
    stream.finish(d);
    if (keep_text) stops_text += d.text;
    return false;
  };
  double per_token_stops = time_per_unit(1.0, static_cast<double>(ids.size()), [&] { stream_with_stops(false); });
  // Untimed: a stop string in the text would end the timed pass early, so this must not stop, and
  // its text must be decode's.
  bool stopped = stream_with_stops(true);
  if (stopped || stops_text != decoded) {
    std::fprintf(stderr, "textedge: bench stream: the stream with stop strings %s\n",
                 stopped ? "stopped early (FILE holds one of its stop strings)" : "gave a text other than decode's");
    return 1;
  }
  // 256 streams, each at its own offset in the ids, one new id per stream per step.
  constexpr std::size_t kStreams = 256, kSteps = 256;
  textedge::StreamBatch batch;
  std::vector<textedge::StreamBatch::Handle> handles;
  for (std::size_t i = 0; i < kStreams; ++i)
    handles.push_back(batch.create(tok, {}, {.skip_special_tokens = skip, .ignore_eos = true}));
  std::vector<textedge::StreamBatch::Step> steps(kStreams);
  std::vector<textedge::StreamDelta> deltas;
  std::size_t step_no = 0;
  double per_step = time_per_unit(1.0, kSteps, [&] {
    for (std::size_t s = 0; s < kSteps; ++s, ++step_no) {
      for (std::size_t i = 0; i < kStreams; ++i)
        steps[i] = {handles[i], std::span(ids).subspan((i * 7919 + step_no) % ids.size(), 1), false};
      batch.step(steps, deltas);
    }
  });
  double prime[3];
  std::size_t lengths[3] = {1'000, 32'000, 1'000'000};
  for (int k = 0; k < 3; ++k) {
    std::vector<TokenId> prompt;
    prompt.reserve(lengths[k]);
    while (prompt.size() < lengths[k])
      prompt.insert(prompt.end(), ids.begin(), ids.begin() + std::min(ids.size(), lengths[k] - prompt.size()));
    prime[k] = time_per_unit(0.2, 1000, [&] {
      for (int r = 0; r < 1000; ++r) textedge::TextStream(tok, prompt, {.skip_special_tokens = skip});
    });
  }
  Fnv1a64 ids_digest, text_digest;
  ids_digest.ids(ids);
  text_digest.bytes(out);
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "{\"op\":\"stream\",\"tokens\":%zu,\"bytes\":%zu,\"ids_fnv1a64\":\"%s\",\"text_fnv1a64\":\"%s\","
                "\"ns_per_token\":%.1f,\"MBps\":%.2f,\"ns_per_token_with_stops\":%.1f,\"batch256_step_us\":%.2f,"
                "\"prime_us\":{\"1k\":%.3f,\"32k\":%.3f,\"1M\":%.3f},\"load_ms\":%.1f}\n",
                ids.size(), bytes, ids_digest.hex().c_str(), text_digest.hex().c_str(), per_token * 1e9,
                bytes / (per_token * ids.size()) / 1e6, per_token_stops * 1e9, per_step * 1e6, prime[0] * 1e6,
                prime[1] * 1e6, prime[2] * 1e6, in.load_ms);
  write(buf);
  return 0;
}

// Chat template rendering: the model's template compiled once and rendered repeatedly for the
// request in FILE (us per render), and the compile time (us).
int run_bench_render(Args& a) {
  const std::string& model = a.model;
  std::string request = read_input(a.positional[0]);
  auto chat = textedge::ChatTemplate::load(model);
  std::string prompt = chat.apply_request(request);
  double render = best_time_per_unit(1.0, 10, [&] { prompt = chat.apply_request(request); });
  // The library's reader: tokenizer_configs hold integers beyond 64 bits (Llama's model_max_length)
  // that simdjson alone refuses.
  auto config = textedge::detail::JsonDocument::load(model + "/tokenizer_config.json");
  auto chat_template = config.root().find("chat_template");
  if (!chat_template || !chat_template->is_string()) {
    std::fprintf(stderr, "textedge: %s/tokenizer_config.json has no chat_template string\n", model.c_str());
    return 1;
  }
  std::string source_copy(chat_template->str());
  double compile = best_time_per_unit(1.0, 10, [&] { textedge::ChatTemplate::from_string(source_copy); });
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "{\"op\":\"render\",\"render_us\":%.2f,\"compile_us\":%.1f,\"bytes\":%zu,\"prompt\":", render * 1e6,
                compile * 1e6, prompt.size());
  std::string line = buf;
  append_json_string(line, prompt);  // the last timed render's; scripts/bench_render.sh compares it with Jinja2's
  line += "}\n";
  write(line);
  return 0;
}

// One command: its usage lines, its flags, its positional arguments, and what runs it.
struct Command {
  std::string_view name;  // as typed: "encode", "bench encode"
  std::string_view usage;
  std::vector<Flag> flags;
  bool needs_model = false;
  std::size_t min_args = 0, max_args = 0;  // positional arguments after the name
  std::string_view arg_name;               // what they are, for "needs FILE"
  int (*run)(Args& a) = nullptr;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {.name = "encode",
       .usage = R"(  textedge encode -m MODEL [--add-special-tokens] [--lossy-utf8] [--jsonl] [TEXT]
      TEXT (or all of stdin) -> one JSON array of ids.
      --jsonl: each stdin line is a JSON string; each output line its id array.
)",
       .flags = {kModel, kAddSpecial, kLossy, kJsonl},
       .needs_model = true,
       .max_args = 1,
       .arg_name = "TEXT",
       .run = run_encode},
      {.name = "decode",
       .usage = R"(  textedge decode -m MODEL [--skip-special-tokens]
      stdin JSON id arrays (one per line, or separated by any whitespace) -> one JSON string per line.
)",
       .flags = {kModel, kDecodeSkip},
       .needs_model = true,
       .run = run_decode},
      {.name = "stream",
       .usage = R"(  textedge stream -m MODEL [--prompt-ids JSON] [--skip-special-tokens] [--stop STR]...
                  [--stop-token-id ID]... [--include-stop-str] [--min-tokens N] [--max-tokens N]
                  [--ignore-eos]
      each stdin line is a JSON array of the ids of one engine step; each output line is
      {"text": DELTA, "finish_reason": null|"stop"|"length", "stop_reason": null|STRING|ID}.
      Exits after the step that ends the stream; at end of input prints the flushed text.
)",
       .flags = {kModel, kPromptIds, kStreamSkip, kStop, kStopTokenId, kIncludeStop, kMinTokens, kMaxTokens,
                 kIgnoreEos},
       .needs_model = true,
       .run = run_stream},
      {.name = "info", .usage = "  textedge info -m MODEL\n", .flags = {kModel}, .needs_model = true, .run = run_info},
      {.name = "render",
       .usage = R"(  textedge render (-m MODEL | --template FILE [-m MODEL]) [--request FILE|-] [--ids]
      an OpenAI chat request (messages, tools, add_generation_prompt (default true),
      continue_final_message, chat_template_kwargs, documents; stdin without --request) ->
      the prompt exactly as transformers renders it (--ids: its token ids, without a second
      BOS). --template with -m: that template with the model's special tokens.
)",
       .flags = {kModel, kTemplate, kRequest, kIds},
       .run = run_render},
      {.name = "parse",
       .usage = R"(  textedge parse --format NAME [--reasoning NAME] [--starts-in-reasoning] [--tools FILE]
                 [--whole] [--no-partial-calls]
      each stdin line is a JSON string (a text delta); each output line the JSON array of
      OpenAI delta objects it produced; a last line for what finishing released. --whole: one
      JSON message object with finish_reason. `textedge parse --list` lists the names.
)",
       .flags = {kParseFormat, kReasoning, kStartsInReasoning, kParseTools, kWhole, kNoPartialCalls, kList},
       .run = run_parse},
      {.name = "schema-regex",
       .usage = R"(  textedge schema-regex [--strict] [--any-depth N] [--max-depth N] FILE
      the regex for the JSON Schema in FILE (docs/schema.md). --strict: objects without
      additionalProperties take no other members. --any-depth: how deeply an unconstrained
      value nests arrays/objects (default 2, at most 6); --max-depth: recursive $ref
      expansions (default 3, at most 32).
)",
       .flags = {kStrict, kAnyDepth, kMaxDepth},
       .min_args = 1,
       .max_args = 1,
       .arg_name = "FILE",
       .run = run_schema_regex},
      {.name = "tool-regex",
       .usage =
           R"(  textedge tool-regex --tools FILE --format NAME [--name TOOL] [--parallel] [--any-depth N] [--max-depth N]
      the regex that forces a tool call; FILE is an OpenAI tools array, NAME a tool call format
      (`textedge parse --list`).
)",
       .flags = {kToolsFile, kToolFormat, kToolName, kParallel, kAnyDepth, kMaxDepth},
       .run = run_tool_regex},
      {.name = "serve",
       .usage = R"(  textedge serve -m MODEL --engine ENGINE [--host 127.0.0.1] [--port 8000]
                 [--served-model-name NAME] [--chat-template FILE] [--tool-call-parser NAME|auto|none]
                 [--reasoning-parser NAME|auto|none] [--api-key KEY] [--max-concurrent N]
                 [--max-queue N] [--max-body-bytes N] [--max-buffered-bytes N] [--prompt-cache N]
                 [--threads N] [--scripted-rate TOKENS_PER_S] [--shutdown-grace SECONDS] [--no-request-log]
      an OpenAI-compatible server (docs/serving.md): /v1/chat/completions, /v1/completions,
      /v1/models, /tokenize, /detokenize, /health, /metrics. ENGINE is llamacpp://HOST:PORT
      (llama.cpp's llama-server, driven by token ids) or scripted:FILE (a built-in test engine
      answering from a JSONL file of {"match", "text"} at --scripted-rate tokens/s).
      --prompt-cache N: the last N prompts (default 32, 0: none) are kept, and a prompt that
      extends one of them (the next turn of a chat) encodes only what is new (docs/prompt_cache.md).
)",
       .flags = {kModel, kEngine, kHost, kPort, kServedName, kChatTemplate, kToolParser, kReasoningParser, kApiKey, kMaxConcurrent,
                 kMaxQueue, kMaxBody, kMaxBuffered, kPromptCache, kServeThreads, kScriptedRate, kGrace, kNoLog},
       .needs_model = true,
       .run = run_serve},
      {.name = "bench encode",
       .usage = R"(  textedge bench encode -m MODEL FILE [--threads N] [--add-special-tokens] [--lossy-utf8] [--prefix-cache]
      one JSON line: MBps, first_MBps (the first pass alone: caches cold), tokens, bytes,
      seconds per round, load_ms, threads, rounds.
      --prefix-cache: a 50-turn conversation cut from FILE, rendered by the model's chat template
      (or --chat-template FILE's) turn by turn and encoded whole and with a PromptCache: the last
      prompt's tokens, both times and the speedup, and the times summed over the conversation.
)",
       .flags = {kModel, kThreads, kAddSpecial, kLossy, kPrefixCache, kChatTemplate},
       .needs_model = true,
       .min_args = 1,
       .max_args = 1,
       .arg_name = "FILE",
       .run = run_bench_encode},
      {.name = "bench decode",
       .usage = R"(  textedge bench decode -m MODEL FILE [--add-special-tokens] [--skip-special-tokens]
      one JSON line: MBps, tokens, bytes, seconds per round, load_ms, tokens_per_s, rounds.
)",
       .flags = {kModel, kAddSpecial, kDecodeSkip},
       .needs_model = true,
       .min_args = 1,
       .max_args = 1,
       .arg_name = "FILE",
       .run = run_bench_decode},
      {.name = "bench stream",
       .usage = R"(  textedge bench stream -m MODEL FILE [--skip-special-tokens]
      one JSON line: ns per token, the same with three stop strings, a 256-stream step (us),
      priming for 1k/32k/1M-token prompts (us).
)",
       .flags = {kModel, kStreamSkip},
       .needs_model = true,
       .min_args = 1,
       .max_args = 1,
       .arg_name = "FILE",
       .run = run_bench_stream},
      {.name = "bench render",
       .usage = R"(  textedge bench render -m MODEL REQUEST.json
      one JSON line: us per render of the request, us per compile of the model's template.
)",
       .flags = {kModel},
       .needs_model = true,
       .min_args = 1,
       .max_args = 1,
       .arg_name = "REQUEST.json",
       .run = run_bench_render},
  };
  return table;
}

constexpr std::string_view kModelNote =
    "MODEL is a model directory (tokenizer.json [+ tokenizer_config.json]) or a tokenizer.json file.\n";

// The usage of one command, or of all of them.
std::string usage(const Command* command) {
  std::string text = "usage:\n";
  for (const Command& c : commands())
    if (!command || &c == command) text += c.usage;
  if (!command || command->needs_model || command->name == "render") text += kModelNote;
  return text;
}

[[noreturn]] void exit_with_usage(const std::string& message, const Command* command) {
  std::fprintf(stderr, "textedge: %s\n%s", message.c_str(), usage(command).c_str());
  std::exit(2);
}

const Command& find_command(int argc, char** argv, int& next) {
  if (argc < 2) exit_with_usage("missing command", nullptr);
  std::string name = argv[1];
  if (name == "-h" || name == "--help") {
    std::fputs(usage(nullptr).c_str(), stdout);
    std::exit(0);
  }
  if (name[0] == '-')
    exit_with_usage("the command comes first (textedge COMMAND [options]), got '" + name + "'", nullptr);
  next = 2;
  if (name == "bench") {
    if (argc < 3 || argv[2][0] == '-') exit_with_usage("bench needs encode, decode, stream or render", nullptr);
    name += std::string(" ") + argv[2];
    next = 3;
  }
  for (const Command& c : commands())
    if (c.name == name) return c;
  exit_with_usage("unknown command '" + name + "'", nullptr);
}

// Applies each flag where the command's table says; refuses flags the command does not take.
void parse_flags(const Command& c, int argc, char** argv, int next, Args& a) {
  bool options_ended = false;  // after "--" every argument is positional
  for (int i = next; i < argc; ++i) {
    std::string arg = argv[i];
    if (options_ended || arg == "-" || arg.empty() || arg[0] != '-') {
      a.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      std::fputs(usage(&c).c_str(), stdout);
      std::exit(0);
    }
    if (arg == "--model") arg = "-m";
    const Flag* flag = nullptr;
    for (const Flag& f : c.flags)
      if (f.name == arg) flag = &f;
    if (!flag) throw UsageError(std::string(c.name) + " does not take " + argv[i]);
    std::string value;
    if (flag->takes_value) {
      if (i + 1 >= argc) throw UsageError(std::string(c.name) + " " + argv[i] + " needs a value");
      value = argv[++i];
    }
    try {
      flag->set(a, value);
    } catch (const BadValue& e) {
      throw UsageError(std::string(c.name) + " " + argv[i - flag->takes_value] + " " + e.what());
    }
  }
  if (c.needs_model && a.model.empty()) throw UsageError(std::string(c.name) + " needs -m MODEL");
  if (a.positional.size() < c.min_args) throw UsageError(std::string(c.name) + " needs " + std::string(c.arg_name));
  if (a.positional.size() > c.max_args)
    throw UsageError(std::string(c.name) + ": unexpected argument '" + a.positional[c.max_args] + "'");
}

}  // namespace

int main(int argc, char** argv) {
  int next = 0;
  const Command& command = find_command(argc, argv, next);
  Args a;
  try {
    parse_flags(command, argc, argv, next, a);
    return command.run(a);
  } catch (const UsageError& e) {
    exit_with_usage(e.what(), &command);
  } catch (const textedge::Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
}
