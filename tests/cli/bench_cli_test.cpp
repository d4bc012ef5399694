// `textedge bench` prints what it timed, so that scripts/bench_*.sh can check it against the
// reference: the ids and text digests of bench encode, decode and stream are those of the ids and
// text the plain commands give, bench render's prompt is render's, and bench stream refuses to
// time a pass that a stop string would cut short. Runs the command `make build` builds.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_paths.hpp"

namespace {

struct Output {
  std::string out;
  int status;
};

// Runs the built CLI through the shell; stderr goes to out too.
Output run(const std::string& args) {
  std::string command = std::string(TEXTEDGE_BUILD_DIR) + "/textedge " + args + " 2>&1";
  Output r{"", -1};
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "textedge_bench_cli_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// FNV-1a 64, written here independently of cli/main.cpp's: over bytes, and over a list of ids as
// its count and then its ids, 4 little-endian bytes each.
struct Digest {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void byte(unsigned char c) { h = (h ^ c) * 0x100000001b3ull; }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) byte(static_cast<unsigned char>(v >> (8 * i)));
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

std::string text_digest(const std::string& text) {
  Digest d;
  for (unsigned char c : text) d.byte(c);
  return d.hex();
}

std::string ids_digest(const std::vector<std::uint32_t>& ids) {
  Digest d;
  d.u32(static_cast<std::uint32_t>(ids.size()));
  for (auto id : ids) d.u32(id);
  return d.hex();
}

// One JSON object the CLI printed on one line.
simdjson::dom::element parse_line(simdjson::dom::parser& parser, const std::string& line) {
  simdjson::dom::element e;
  EXPECT_FALSE(parser.parse(line).get(e)) << line;
  return e;
}

std::string string_field(simdjson::dom::element e, const char* key) {
  std::string_view v;
  return e[key].get_string().get(v) ? "(no string " + std::string(key) + ")" : std::string(v);
}

std::uint64_t count_field(simdjson::dom::element e, const char* key) {
  std::uint64_t v = 0;
  return e[key].get_uint64().get(v) ? ~0ull : v;
}

const std::string kQwen = "-m " + model_path("qwen3");

// Under 4 KB (one chunk of the benches' ~4 KB cut) and well under bench stream's 20k ids; a
// character of several tokens, so the stream's held bytes count too.
const std::string kText =
    "The benchmark must time what it checks.\nSecond line: ids, text, and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪 emoji.\n"
    "def f(x):\n    return x * 2\n";

std::vector<std::uint32_t> encode_ids(const std::string& file) {
  Output r = run("encode " + kQwen + " < " + file);
  EXPECT_EQ(r.status, 0) << r.out;
  std::vector<std::uint32_t> ids;
  simdjson::dom::parser parser;
  simdjson::dom::array arr;
  EXPECT_FALSE(parser.parse(r.out).get_array().get(arr)) << r.out;
  for (auto v : arr) ids.push_back(static_cast<std::uint32_t>(std::uint64_t(v)));
  return ids;
}

TEST(BenchCli, EncodePrintsTheDigestOfTheIdsEncodeGives) {
  std::string file = temp_file("encode.txt", kText);
  auto ids = encode_ids(file);
  ASSERT_GT(ids.size(), 10u);
  Output r = run("bench encode " + kQwen + " " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  simdjson::dom::parser parser;
  auto e = parse_line(parser, r.out);
  EXPECT_EQ(count_field(e, "tokens"), ids.size());
  EXPECT_EQ(string_field(e, "ids_fnv1a64"), ids_digest(ids)) << r.out;
}

TEST(BenchCli, DecodePrintsTheDigestOfTheDecodedText) {
  std::string file = temp_file("decode.txt", kText);
  Output r = run("bench decode " + kQwen + " " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  simdjson::dom::parser parser;
  auto e = parse_line(parser, r.out);
  // Qwen3's byte-level decode gives the text back.
  EXPECT_EQ(count_field(e, "bytes"), kText.size());
  EXPECT_EQ(string_field(e, "text_fnv1a64"), text_digest(kText)) << r.out;
}

TEST(BenchCli, StreamPrintsTheDigestsOfWhatItStreamed) {
  std::string file = temp_file("stream.txt", kText);
  auto ids = encode_ids(file);
  Output r = run("bench stream " + kQwen + " " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  simdjson::dom::parser parser;
  auto e = parse_line(parser, r.out);
  EXPECT_EQ(count_field(e, "tokens"), ids.size());
  EXPECT_EQ(string_field(e, "ids_fnv1a64"), ids_digest(ids)) << r.out;
  EXPECT_EQ(string_field(e, "text_fnv1a64"), text_digest(kText)) << r.out;
}

TEST(BenchCli, StreamStreamsAtMostTwentyThousandIds) {
  // ~5 tokens a line, so well over 20k ids in several ~4 KB chunks.
  std::ostringstream text;
  for (int i = 0; i < 8000; ++i) text << "line " << i << " of the text\n";
  std::string file = temp_file("long.txt", text.str());
  Output r = run("bench stream " + kQwen + " " + file);
  ASSERT_EQ(r.status, 0) << r.out;
  simdjson::dom::parser parser;
  EXPECT_EQ(count_field(parse_line(parser, r.out), "tokens"), 20000u) << r.out;
}

TEST(BenchCli, StreamRefusesToTimeAPassAStopStringEnds) {
  std::string file = temp_file("stop.txt", "The answer is 4.</answer> And then more text follows.\n");
  Output r = run("bench stream " + kQwen + " " + file);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("stopped early"), std::string::npos) << r.out;
}

TEST(BenchCli, RenderPrintsThePromptRenderGives) {
  std::string request = std::string(TEXTEDGE_SOURCE_DIR) + "/bench/data/chat_six_messages_two_tools.json";
  Output rendered = run("render " + kQwen + " --request " + request);
  ASSERT_EQ(rendered.status, 0) << rendered.out;
  ASSERT_GT(rendered.out.size(), 1000u);
  Output r = run("bench render " + kQwen + " " + request);
  ASSERT_EQ(r.status, 0) << r.out;
  simdjson::dom::parser parser;
  auto e = parse_line(parser, r.out);
  EXPECT_EQ(string_field(e, "prompt"), rendered.out);
  EXPECT_EQ(count_field(e, "bytes"), rendered.out.size());
}

}  // namespace
