// textedge command-line tool. Subcommands: encode, decode, stream, info, bench encode|decode|stream,
// schema-regex, tool-regex.
// Output formats are a contract other tools rely on; see README.md.
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "base/json_dom.hpp"
#include "json_out.hpp"
#include "parse_command.hpp"
#include "render_command.hpp"
#include "schema_commands.hpp"
#include "textedge/textedge.hpp"

namespace {

using textedge::TokenId;
using textedge::Tokenizer;
using textedge::cli::append_json_ids;
using textedge::cli::append_json_string;

constexpr const char* kUsage = R"(usage:
  textedge encode -m MODEL [--add-special-tokens] [--lossy-utf8] [--jsonl] [TEXT]
      TEXT (or all of stdin) -> one JSON array of ids.
      --jsonl: each stdin line is a JSON string; each output line its id array.
  textedge decode -m MODEL [--skip-special-tokens] [--jsonl]
      stdin JSON id arrays -> one JSON string per line.
  textedge stream -m MODEL [--prompt-ids JSON] [--skip-special-tokens] [--stop STR]...
                  [--stop-token-id ID]... [--include-stop-str] [--min-tokens N] [--max-tokens N]
                  [--ignore-eos]
      each stdin line is a JSON array of the ids of one engine step; each output line is
      {"text": DELTA, "finish_reason": null|"stop"|"length", "stop_reason": null|STRING|ID}.
      Exits after the step that ends the stream; at end of input prints the flushed text.
  textedge info -m MODEL
  textedge bench encode -m MODEL FILE [--threads N] [--add-special-tokens]
  textedge bench decode -m MODEL FILE
  textedge bench stream -m MODEL FILE
  textedge bench render -m MODEL REQUEST.json
      one JSON line: MBps, tokens, seconds, load_ms, ... (stream: ns per token, 256-stream
      step, priming for 1k/32k/1M-token prompts)
  textedge render (-m MODEL | --template FILE) [--request FILE|-] [--ids]
      an OpenAI chat request (messages, tools, add_generation_prompt (default true),
      continue_final_message, chat_template_kwargs, documents) -> the prompt exactly as
      transformers renders it (--ids: its token ids, without a second BOS).
  textedge schema-regex [--strict] [--any-depth N] [--max-depth N] FILE
      the regex for the JSON Schema in FILE (docs/schema.md). --any-depth: how deeply an
      unconstrained value nests arrays/objects (default 2); --max-depth: recursive $ref
      expansions (default 3).
  textedge tool-regex --tools FILE --format NAME [--name TOOL] [--parallel] [--any-depth N] [--max-depth N]
      the regex that forces a tool call; FILE is an OpenAI tools array, NAME one of hermes,
      llama3_json, mistral, qwen3_coder, deepseek_v3, deepseek_v31, kimi_k2, glm45, harmony, pythonic.
  textedge parse --format NAME [--reasoning NAME] [--starts-in-reasoning] [--tools FILE]
                 [--whole] [--no-partial-calls]
      each stdin line is a JSON string (a text delta); each output line the JSON array of
      OpenAI delta objects it produced; a last line for what finishing released. --whole: one
      JSON message object with finish_reason. `textedge parse --list` lists the names.
MODEL is a model directory (tokenizer.json [+ tokenizer_config.json]) or a tokenizer.json file.
)";

struct Args {
  std::string command, subcommand, model, file, text;
  bool add_special = false, skip_special = false, jsonl = false, lossy = false, has_text = false;
  unsigned threads = 1;
  // stream
  std::string prompt_ids;
  textedge::StreamOptions stream{.skip_special_tokens = false};
  textedge::cli::SchemaCommand schema;  // schema-regex, tool-regex
  textedge::cli::RenderCommand render;
  textedge::cli::ParseCommand parse;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "textedge: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

std::size_t parse_count(const std::string& name, const std::string& v) {
  char* end = nullptr;
  unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end || v[0] == '-') usage_error(name + " needs a non-negative integer, got '" + v + "'");
  return static_cast<std::size_t>(n);
}

Args parse_args(int argc, char** argv) {
  Args a;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc) usage_error(std::string(name) + " needs a value");
      return argv[++i];
    };
    if (arg == "-m" || arg == "--model")
      a.model = value("-m");
    else if (arg == "--add-special-tokens")
      a.add_special = true;
    else if (arg == "--skip-special-tokens")
      a.skip_special = true;
    else if (arg == "--jsonl")
      a.jsonl = true;
    else if (arg == "--lossy-utf8")
      a.lossy = true;
    else if (arg == "--prompt-ids")
      a.prompt_ids = value("--prompt-ids");
    else if (arg == "--stop")
      a.stream.stop.push_back(value("--stop"));
    else if (arg == "--stop-token-id") {
      std::size_t id = parse_count("--stop-token-id", value("--stop-token-id"));
      if (id > 0xFFFFFFFFu) usage_error("--stop-token-id must be below 2^32");
      a.stream.stop_token_ids.push_back(static_cast<TokenId>(id));
    } else if (arg == "--include-stop-str")
      a.stream.include_stop_str_in_output = true;
    else if (arg == "--min-tokens")
      a.stream.min_tokens = parse_count("--min-tokens", value("--min-tokens"));
    else if (arg == "--max-tokens")
      a.stream.max_tokens = parse_count("--max-tokens", value("--max-tokens"));
    else if (arg == "--tools")
      a.schema.tools = value("--tools");
    else if (arg == "--format")
      a.schema.format = value("--format");
    else if (arg == "--name")
      a.schema.name = value("--name");
    else if (arg == "--parallel")
      a.schema.parallel = true;
    else if (arg == "--strict")
      a.schema.strict = true;
    else if (arg == "--any-depth") {
      std::size_t depth = parse_count("--any-depth", value("--any-depth"));
      if (depth > 6) usage_error("--any-depth must be at most 6 (the regex grows fourfold per level)");
      a.schema.any_depth = static_cast<int>(depth);
    } else if (arg == "--max-depth") {
      std::size_t depth = parse_count("--max-depth", value("--max-depth"));
      if (depth > 32) usage_error("--max-depth must be at most 32");
      a.schema.max_depth = static_cast<int>(depth);
    } else if (arg == "--template")
      a.render.template_file = value("--template");
    else if (arg == "--request")
      a.render.request = value("--request");
    else if (arg == "--ids")
      a.render.ids = true;
    else if (arg == "--reasoning")
      a.parse.reasoning = value("--reasoning");
    else if (arg == "--starts-in-reasoning")
      a.parse.starts_in_reasoning = true;
    else if (arg == "--whole")
      a.parse.whole = true;
    else if (arg == "--no-partial-calls")
      a.parse.no_partial_calls = true;
    else if (arg == "--list")
      a.parse.list = true;
    else if (arg == "--ignore-eos")
      a.stream.ignore_eos = true;
    else if (arg == "--threads") {
      std::string v = value("--threads");
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (*end || n < 1 || n > 1024) usage_error("--threads needs a positive integer, got '" + v + "'");
      a.threads = static_cast<unsigned>(n);
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg.size() > 1 && arg[0] == '-' && arg != "--")
      usage_error("unknown option " + arg);
    else
      positional.push_back(arg);
  }
  if (positional.empty()) usage_error("missing command");
  a.command = positional[0];
  std::size_t next = 1;
  if (a.command == "bench") {
    if (positional.size() < 2) usage_error("bench needs 'encode' or 'decode'");
    a.subcommand = positional[1];
    next = 2;
    if (positional.size() <= next) usage_error("bench needs a FILE");
    a.file = positional[next++];
  } else if (a.command == "schema-regex" || a.command == "tool-regex") {
    a.schema.command = a.command;
    if (a.command == "schema-regex" && positional.size() > next) a.schema.file = positional[next++];
    if (a.command == "schema-regex" ? a.schema.file.empty() : a.schema.tools.empty() || a.schema.format.empty())
      usage_error(a.command == "schema-regex" ? "schema-regex needs a FILE" : "tool-regex needs --tools FILE and --format NAME");
  } else if (a.command == "render") {
    a.render.requested = true;
    a.render.model = a.model;
    if (a.model.empty() && a.render.template_file.empty()) usage_error("render needs -m MODEL or --template FILE");
    if (a.render.ids && a.model.empty()) usage_error("render --ids needs -m MODEL (its tokenizer)");
  } else if (a.command == "parse") {
    a.parse.active = true;
    if (!a.schema.format.empty()) a.parse.format = a.schema.format;
    a.parse.tools = a.schema.tools;
  } else if (a.command == "encode" && positional.size() > next) {
    a.text = positional[next++];
    a.has_text = true;
  }
  if (positional.size() > next) usage_error("unexpected argument '" + positional[next] + "'");
  if (a.model.empty() && a.schema.command.empty() && !a.render.requested && !a.parse.active)
    usage_error("missing -m MODEL");
  return a;
}

std::string read_all(std::FILE* f) {
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  return data;
}

void write(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

int run_encode(const Tokenizer& tok, const Args& a) {
  textedge::EncodeOptions options{a.add_special, a.lossy};
  std::string out;
  if (!a.jsonl) {
    std::string text = a.has_text ? a.text : read_all(stdin);
    append_json_ids(out, tok.encode(text, options));
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
    append_json_ids(out, tok.encode(text, options));
    out += '\n';
    write(out);
  }
  return 0;
}

int run_decode(const Tokenizer& tok, const Args& a) {
  std::string input = read_all(stdin);
  simdjson::dom::parser parser;
  simdjson::dom::document_stream stream;
  if (parser.parse_many(input).get(stream)) {
    std::fprintf(stderr, "textedge: stdin: expected JSON arrays of ids\n");
    return 1;
  }
  std::string out;
  std::vector<TokenId> ids;
  std::size_t n = 0;
  for (auto doc : stream) {
    ++n;
    simdjson::dom::array arr;
    if (doc.get_array().get(arr)) {
      std::fprintf(stderr, "textedge: stdin value %zu: expected a JSON array of ids\n", n);
      return 1;
    }
    ids.clear();
    for (auto v : arr) {
      std::int64_t id;
      if (v.get_int64().get(id) || id < 0 || id > 0xFFFFFFFFLL) {
        std::fprintf(stderr, "textedge: stdin value %zu: ids must be integers in [0, 2^32)\n", n);
        return 1;
      }
      ids.push_back(static_cast<TokenId>(id));
    }
    out.clear();
    append_json_string(out, tok.decode(ids, {a.skip_special}));
    out += '\n';
    write(out);
  }
  return 0;
}

// Parses a JSON array of ids; false (with `error` set) when it is not one.
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
      error = "ids must be integers in [0, 2^32)";
      return false;
    }
    ids.push_back(static_cast<TokenId>(id));
  }
  return true;
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

int run_stream(const Tokenizer& tok, const Args& a) {
  simdjson::dom::parser parser;
  std::vector<TokenId> prompt, ids;
  std::string error;
  if (!a.prompt_ids.empty() && !parse_ids(parser, a.prompt_ids, prompt, error)) {
    std::fprintf(stderr, "textedge: --prompt-ids: %s\n", error.c_str());
    return 1;
  }
  textedge::TextStream stream(tok, prompt, a.stream);
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

int run_info(const Tokenizer& tok) {
  auto info = tok.info();
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

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

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
// returns seconds per unit.
template <class Body>
double time_per_unit(double min_seconds, double per_round, Body&& body) {
  body();  // warm up
  std::size_t rounds = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    body();
    ++rounds;
    elapsed = seconds_since(start);
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

// Streaming decode: one stream one id at a time (ns per token), one StreamBatch step of 256
// streams with one new id each (us per step), and priming from prompts of 1k, 32k and 1M
// tokens (us; must not grow with the prompt).
int run_bench_stream(const Tokenizer& tok, const std::string& text, double load_ms) {
  std::vector<TokenId> ids;
  for (auto& chunk : chunk_text(text)) {
    auto part = tok.encode(chunk);
    ids.insert(ids.end(), part.begin(), part.end());
    if (ids.size() >= 200'000) break;
  }
  if (ids.empty()) usage_error("bench stream needs a non-empty FILE");
  std::size_t bytes = tok.decode(ids).size();
  std::string out;
  out.reserve(bytes + 16);
  double per_token = time_per_unit(1.0, static_cast<double>(ids.size()), [&] {
    textedge::Detokenizer stream(tok);
    out.clear();
    for (TokenId id : ids) stream.step(id, out);
    stream.finish(out);
  });
  // The same through TextStream with stop strings (held-text bookkeeping on every token).
  textedge::StreamOptions stop_options{.skip_special_tokens = false, .stop = {"</answer>", "\n\nUser:", "<|stop|>"}};
  double per_token_stops = time_per_unit(1.0, static_cast<double>(ids.size()), [&] {
    textedge::TextStream stream(tok, {}, stop_options);
    textedge::StreamDelta d;
    for (TokenId id : ids) {
      d.text.clear();
      stream.step(std::span(&id, 1), d);
      if (stream.finished()) break;
    }
  });
  // 256 streams, each at its own offset in the ids, one new id per stream per step.
  constexpr std::size_t kStreams = 256, kSteps = 256;
  textedge::StreamBatch batch;
  std::vector<textedge::StreamBatch::Handle> handles;
  for (std::size_t i = 0; i < kStreams; ++i) handles.push_back(batch.create(tok, {}, {.skip_special_tokens = true}));
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
      for (int r = 0; r < 1000; ++r) textedge::TextStream(tok, prompt, {.skip_special_tokens = true});
    });
  }
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "{\"op\":\"stream\",\"tokens\":%zu,\"bytes\":%zu,\"ns_per_token\":%.1f,\"MBps\":%.2f,"
                "\"ns_per_token_with_stops\":%.1f,\"batch256_step_us\":%.2f,\"prime_us\":{\"1k\":%.3f,\"32k\":%.3f,"
                "\"1M\":%.3f},\"load_ms\":%.1f}\n",
                ids.size(), bytes, per_token * 1e9, bytes / (per_token * ids.size()) / 1e6, per_token_stops * 1e9,
                per_step * 1e6, prime[0] * 1e6, prime[1] * 1e6, prime[2] * 1e6, load_ms);
  write(buf);
  return 0;
}

// Chat template rendering: the model's template compiled once and rendered repeatedly for the
// request in FILE (us per render), and the compile time (us).
int run_bench_render(const std::string& model, const std::string& request) {
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
  std::snprintf(buf, sizeof buf, "{\"op\":\"render\",\"render_us\":%.2f,\"compile_us\":%.1f,\"bytes\":%zu}\n",
                render * 1e6, compile * 1e6, prompt.size());
  write(buf);
  return 0;
}

int run_bench(const Args& a, double load_ms, const Tokenizer& tok) {
  std::FILE* f = std::fopen(a.file.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "textedge: cannot open %s: %s\n", a.file.c_str(), std::strerror(errno));
    return 1;
  }
  std::string text = read_all(f);
  std::fclose(f);
  auto chunks = chunk_text(text);
  textedge::EncodeOptions options{a.add_special, false};
  std::string out;
  if (a.subcommand == "encode") {
    // Warm up once, then repeat until at least one second has passed.
    std::size_t tokens = 0;
    for (auto& ids : tok.encode_batch(chunks, options, a.threads)) tokens += ids.size();
    std::size_t rounds = 0;
    auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    do {
      auto batch = tok.encode_batch(chunks, options, a.threads);
      ++rounds;
      elapsed = seconds_since(start);
    } while (elapsed < 1.0);
    double seconds = elapsed / rounds;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "{\"op\":\"encode\",\"MBps\":%.2f,\"tokens\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"load_ms\":%.1f,"
                  "\"threads\":%u,\"rounds\":%zu}\n",
                  text.size() / seconds / 1e6, tokens, text.size(), seconds, load_ms, a.threads, rounds);
    write(buf);
    return 0;
  }
  if (a.subcommand == "decode") {
    auto batch = tok.encode_batch(chunks, options, 1);
    std::size_t tokens = 0, bytes = 0;
    for (auto& ids : batch) bytes += tok.decode(ids).size(), tokens += ids.size();
    std::size_t rounds = 0;
    auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    do {
      for (auto& ids : batch) bytes += tok.decode(ids).size() * 0;
      ++rounds;
      elapsed = seconds_since(start);
    } while (elapsed < 1.0);
    double seconds = elapsed / rounds;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "{\"op\":\"decode\",\"MBps\":%.2f,\"tokens\":%zu,\"bytes\":%zu,\"seconds\":%.6f,\"load_ms\":%.1f,"
                  "\"tokens_per_s\":%.0f,\"rounds\":%zu}\n",
                  bytes / seconds / 1e6, tokens, bytes, seconds, load_ms, tokens / seconds, rounds);
    write(buf);
    return 0;
  }
  if (a.subcommand == "stream") return run_bench_stream(tok, text, load_ms);
  if (a.subcommand == "render") return run_bench_render(a.model, text);
  usage_error("unknown bench '" + a.subcommand + "' (expected encode, decode, stream or render)");
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse_args(argc, argv);
  if (!a.schema.command.empty()) return textedge::cli::run_schema_command(a.schema);
  if (a.render.requested) return textedge::cli::run_render(a.render);
  if (a.parse.active) return textedge::cli::run_parse_command(a.parse);
  try {
    auto t0 = std::chrono::steady_clock::now();
    Tokenizer tok = Tokenizer::load(a.model);
    double load_ms = seconds_since(t0) * 1e3;
    if (a.command == "encode") return run_encode(tok, a);
    if (a.command == "decode") return run_decode(tok, a);
    if (a.command == "stream") return run_stream(tok, a);
    if (a.command == "info") return run_info(tok);
    if (a.command == "bench") return run_bench(a, load_ms, tok);
    usage_error("unknown command '" + a.command + "'");
  } catch (const textedge::Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
}
