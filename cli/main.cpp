// textedge command-line tool. Subcommands: encode, decode, info, bench encode|decode.
// Output formats are a contract other tools rely on; see README.md.
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "json_out.hpp"
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
  textedge info -m MODEL
  textedge bench encode -m MODEL FILE [--threads N] [--add-special-tokens]
  textedge bench decode -m MODEL FILE
      one JSON line: MBps, tokens, seconds, load_ms, ...
MODEL is a model directory (tokenizer.json [+ tokenizer_config.json]) or a tokenizer.json file.
)";

struct Args {
  std::string command, subcommand, model, file, text;
  bool add_special = false, skip_special = false, jsonl = false, lossy = false, has_text = false;
  unsigned threads = 1;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "textedge: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
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
    if (arg == "-m" || arg == "--model") a.model = value("-m");
    else if (arg == "--add-special-tokens") a.add_special = true;
    else if (arg == "--skip-special-tokens") a.skip_special = true;
    else if (arg == "--jsonl") a.jsonl = true;
    else if (arg == "--lossy-utf8") a.lossy = true;
    else if (arg == "--threads") {
      std::string v = value("--threads");
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (*end || n < 1 || n > 1024) usage_error("--threads needs a positive integer, got '" + v + "'");
      a.threads = static_cast<unsigned>(n);
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg.size() > 1 && arg[0] == '-' && arg != "--") usage_error("unknown option " + arg);
    else positional.push_back(arg);
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
  } else if (a.command == "encode" && positional.size() > next) {
    a.text = positional[next++];
    a.has_text = true;
  }
  if (positional.size() > next) usage_error("unexpected argument '" + positional[next] + "'");
  if (a.model.empty()) usage_error("missing -m MODEL");
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
  for (auto [name, value] : {std::pair{"bos_token", &info.bos_token}, {"eos_token", &info.eos_token},
                             {"pad_token", &info.pad_token}, {"unk_token", &info.unk_token}}) {
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
  usage_error("unknown bench '" + a.subcommand + "' (expected encode or decode)");
}

}  // namespace

int main(int argc, char** argv) {
  Args a = parse_args(argc, argv);
  try {
    auto t0 = std::chrono::steady_clock::now();
    Tokenizer tok = Tokenizer::load(a.model);
    double load_ms = seconds_since(t0) * 1e3;
    if (a.command == "encode") return run_encode(tok, a);
    if (a.command == "decode") return run_decode(tok, a);
    if (a.command == "info") return run_info(tok);
    if (a.command == "bench") return run_bench(a, load_ms, tok);
    usage_error("unknown command '" + a.command + "'");
  } catch (const textedge::Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
}
