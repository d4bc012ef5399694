// The command-line contract other tools rely on (README): output formats, exit codes, errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "support/test_paths.hpp"

namespace {

struct Run {
  std::string out;
  int status;
};

// Runs the built CLI through the shell with `input` on stdin; stderr is folded into out.
Run run(const std::string& args, const std::string& input = "") {
  // A file of its own per call: ctest runs these tests in parallel processes.
  std::string in_path = testing::TempDir() + "textedge_cli_stdin_XXXXXX";
  int fd = mkstemp(in_path.data());
  if (fd >= 0) {
    if (FILE* f = fdopen(fd, "wb")) {
      std::fwrite(input.data(), 1, input.size(), f);
      std::fclose(f);
    }
  }
  std::string command = std::string(TEXTEDGE_BUILD_DIR) + "/textedge " + args + " < " + in_path + " 2>&1";
  Run r{"", -1};
  FILE* p = popen(command.c_str(), "r");
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  std::remove(in_path.c_str());
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::string kQwen = "-m " + model_path("qwen3");
const std::string kLlama2 = "-m " + model_path("llama2");

// Expected ids from Hugging Face tokenizers 0.23.2.
TEST(Cli, EncodeTextArgument) {
  auto r = run("encode " + kQwen + " 'Hello world! 你好'");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[9707,1879,0,220,108386]\n");
}

TEST(Cli, EncodeStdinWithSpecialTokens) {
  auto r = run("encode " + kLlama2 + " --add-special-tokens", "Hello world");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[1,22557,1526]\n");
}

TEST(Cli, EncodeJsonLines) {
  auto r = run("encode " + kQwen + " --jsonl", "\"Hello world\"\n\"\"\n\"a\\nb\"\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[9707,1879]\n[]\n[64,198,65]\n");
}

TEST(Cli, DecodeJsonLines) {
  auto r = run("decode " + kQwen + " --jsonl", "[9707,1879,151643]\n[]\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "\"Hello world<|endoftext|>\"\n\"\"\n");
  r = run("decode " + kQwen + " --skip-special-tokens", "[9707,1879,151643]");
  EXPECT_EQ(r.out, "\"Hello world\"\n");
}

TEST(Cli, InfoNamesThePipeline) {
  auto r = run("info " + kQwen);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\"model\":\"BPE\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"vocab_size\":151669"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"pre_tokenizer\":\"Sequence[Split, ByteLevel]\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<|im_start|>"), std::string::npos) << r.out;
}

TEST(Cli, BenchPrintsOneJsonLine) {
  std::string file = testing::TempDir() + "textedge_cli_bench_" + std::to_string(getpid()) + ".txt";
  if (FILE* f = std::fopen(file.c_str(), "wb")) {
    std::fputs("The quick brown fox jumps over the lazy dog.\n", f);
    std::fclose(f);
  }
  auto r = run("bench encode " + kQwen + " " + file + " --threads 2");
  EXPECT_EQ(r.status, 0);
  for (const char* key : {"\"MBps\":", "\"tokens\":10", "\"seconds\":", "\"load_ms\":"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
}

// Llama 3.1's tokenizer_config has an integer beyond 64 bits (model_max_length), which the
// benchmark once read with simdjson alone and refused.
TEST(Cli, BenchRenderReadsEveryModelsConfig) {
  std::string request = std::string(TEXTEDGE_SOURCE_DIR) + "/bench/data/chat_six_messages_two_tools.json";
  auto r = run("bench render -m " + model_path("llama3_1") + " " + request);
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* key : {"\"op\":\"render\"", "\"render_us\":", "\"compile_us\":", "\"bytes\":549"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
}

TEST(Cli, StreamPrintsOneObjectPerStepAndStops) {
  // "Hello" ", world" then <|im_end|> (Qwen3's eos): the stream ends there, unread input stays.
  auto r = run("stream " + kQwen, "[9707]\n[11, 1879]\n[151645]\n[9707]\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "{\"text\":\"Hello\",\"finish_reason\":null,\"stop_reason\":null}\n"
            "{\"text\":\", world\",\"finish_reason\":null,\"stop_reason\":null}\n"
            "{\"text\":\"\",\"finish_reason\":\"stop\",\"stop_reason\":151645}\n");
  // A stop string split across steps; the held part never shows.
  auto s = run("stream " + kQwen + " --stop ' wor' --stop never", "[9707, 11]\n[1879]\n");
  EXPECT_EQ(s.status, 0);
  EXPECT_EQ(s.out,
            "{\"text\":\"Hello,\",\"finish_reason\":null,\"stop_reason\":null}\n"
            "{\"text\":\"\",\"finish_reason\":\"stop\",\"stop_reason\":\" wor\"}\n");
  // End of input: a last object with the flushed text (token 11162 is a space and the first bytes of an emoji).
  auto e = run("stream " + kQwen + " --prompt-ids '[9707]' --max-tokens 9", "[11]\n[11162]\n");
  EXPECT_EQ(e.status, 0);
  EXPECT_EQ(e.out,
            "{\"text\":\",\",\"finish_reason\":null,\"stop_reason\":null}\n"
            "{\"text\":\" \",\"finish_reason\":null,\"stop_reason\":null}\n"
            "{\"text\":\"\xEF\xBF\xBD\",\"finish_reason\":null,\"stop_reason\":null}\n");
  auto l = run("stream " + kQwen + " --max-tokens 2", "[9707]\n[11, 1879, 11]\n");
  EXPECT_EQ(l.out.substr(l.out.rfind('{')), "{\"text\":\",\",\"finish_reason\":\"length\",\"stop_reason\":null}\n");
  auto bad = run("stream " + kQwen, "[9707]\n[1, -2]\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("stdin line 2"), std::string::npos) << bad.out;
}

TEST(Cli, RenderPrintsThePromptExactlyOrItsIds) {
  std::string request = R"({"messages": [{"role": "user", "content": "Hi!"}], "chat_template_kwargs": {"enable_thinking": false}})";
  auto r = run("render " + kQwen, request);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
  auto ids = run("render -m " + model_path("gemma3") + " --ids", R"({"messages": [{"role": "user", "content": "Hi!"}]})");
  EXPECT_EQ(ids.status, 0);
  EXPECT_EQ(ids.out, "[2,105,2364,107,10979,236888,106,107,105,4368,107]\n");  // one <bos> (2)
  auto raised = run("render --template " + std::string(TEXTEDGE_SOURCE_DIR) +
                        "/tests/data/chat_templates/chujiezheng__gemma-it.jinja",
                    R"({"messages": [{"role": "system", "content": "x"}]})");
  EXPECT_EQ(raised.status, 1);
  EXPECT_NE(raised.out.find("System role not supported"), std::string::npos) << raised.out;
}

TEST(Cli, ErrorsSayWhatAndWhere) {
  auto r = run("encode -m /nonexistent/model hi");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("/nonexistent/model"), std::string::npos) << r.out;
  r = run("encode " + kQwen, std::string("ok \xFF bad"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("byte offset 3"), std::string::npos) << r.out;
  r = run("encode " + kQwen + " --lossy-utf8", std::string("ok \xFF"));
  EXPECT_EQ(r.status, 0);
  r = run("decode " + kQwen + " --jsonl", "[1, \"x\"]\n");
  EXPECT_EQ(r.status, 1);
  r = run("frobnicate " + kQwen);
  EXPECT_EQ(r.status, 2);
}

TEST(Cli, SchemaRegexAndToolRegex) {
  std::string dir = testing::TempDir() + "textedge_cli_schema_" + std::to_string(getpid());
  auto write_file = [](const std::string& path, const char* text) {
    if (FILE* f = std::fopen(path.c_str(), "wb")) std::fputs(text, f), std::fclose(f);
  };
  write_file(dir + ".schema.json", R"({"type":"integer","minimum":-5,"maximum":1234})");
  write_file(dir + ".tools.json", R"([{"type":"function","function":{"name":"f","parameters":{"type":"object",
    "properties":{"a":{"type":"boolean"}},"required":["a"]}}}])");
  auto r = run("schema-regex " + dir + ".schema.json");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "(?:[0-9]|[1-9][0-9]{1,2}|1(?:[01][0-9]{2}|2(?:[0-2][0-9]|3[0-4]))|-[0-5])\n");
  r = run("tool-regex --tools " + dir + ".tools.json --format hermes --name f");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "<tool_call>\\n\\{\"name\": ?\"f\", ?\"arguments\": ?\\{\"a\": ?(?:true|false)\\}\\}\\n</tool_call>\n");
  r = run("tool-regex --tools " + dir + ".tools.json --format nope");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("unknown tool call format \"nope\""), std::string::npos) << r.out;
  write_file(dir + ".schema.json", R"({"type":"string","format":"hostname"})");
  r = run("schema-regex " + dir + ".schema.json");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("at $.format: unsupported format"), std::string::npos) << r.out;
  EXPECT_EQ(run("tool-regex --format hermes").status, 2);
  // The nesting of unconstrained values is an option: {"type":"array"} at depth 0 holds scalars only.
  write_file(dir + ".schema.json", R"({"type":"array"})");
  r = run("schema-regex --any-depth 0 " + dir + ".schema.json");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.find("\\["), 0u) << r.out;
  EXPECT_EQ(r.out.find("\\[", 1), std::string::npos) << r.out;
  EXPECT_GT(run("schema-regex " + dir + ".schema.json").out.size(), r.out.size());
  EXPECT_EQ(run("schema-regex --any-depth 9 " + dir + ".schema.json").status, 2);
  std::remove((dir + ".schema.json").c_str());
  std::remove((dir + ".tools.json").c_str());
}

}  // namespace

TEST(Cli, ParseStreamsDeltasAndWholeMessages) {
  std::string input = "\"<think>hm</thi\"\n\"nk>ok <tool_call>\\n{\\\"name\\\": \\\"f\\\", \\\"argu\"\n\"ments\\\": {\\\"a\\\": 1}}\\n</tool_call>\"\n";
  auto r = run("parse --format hermes --reasoning qwen3", input);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("[{\"reasoning_content\":\"hm\"}]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\": 1}\"}}]}]\n[]\n"), std::string::npos) << r.out;
  auto w = run("parse --format hermes --reasoning qwen3 --whole --no-partial-calls", input);
  EXPECT_EQ(w.status, 0) << w.out;
  EXPECT_NE(w.out.find("\"content\":\"ok \",\"reasoning_content\":\"hm\",\"tool_calls\":[{\"id\":\"call_"), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("\"finish_reason\":\"tool_calls\"}"), std::string::npos) << w.out;
  auto l = run("parse --list");
  EXPECT_NE(l.out.find("pythonic"), std::string::npos);
  auto e = run("parse --format nope");
  EXPECT_EQ(e.status, 1);
  EXPECT_NE(e.out.find("known: none, hermes"), std::string::npos) << e.out;
}
