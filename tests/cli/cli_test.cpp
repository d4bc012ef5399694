// The command-line contract other tools rely on (README): output formats, exit codes, errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

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
const std::string kLlama31 = "-m " + model_path("llama3_1");

// A file of this test process holding `text`; its path.
std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "textedge_cli_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A flag that reaches the library changes the output: the runs with and without it are both
// checked exactly, so a flag the command drops fails here.
void expect_flag_changes(const std::string& command, const std::string& flag, const std::string& input,
                         const std::string& without, const std::string& with) {
  auto off = run(command, input);
  EXPECT_EQ(off.status, 0) << command << "\n" << off.out;
  EXPECT_EQ(off.out, without) << command;
  auto on = run(command + " " + flag, input);
  EXPECT_EQ(on.status, 0) << command << " " << flag << "\n" << on.out;
  EXPECT_EQ(on.out, with) << command << " " << flag;
}

// The value of `"key":` in a one-line JSON object the CLI printed (numbers and strings as written).
std::string field(const std::string& json, const std::string& key) {
  std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "(no " + key + " in " + json + ")";
  at += key.size() + 3;
  return json.substr(at, json.find_first_of(",}", at) - at);
}

// An error: exit status and the text that says what and where.
void expect_error(const std::string& args, const std::string& input, int status, const std::string& says) {
  auto r = run(args, input);
  EXPECT_EQ(r.status, status) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(says), std::string::npos) << args << "\nwanted: " << says << "\ngot: " << r.out;
}

std::string stream_line(const std::string& text, const std::string& finish = "null", const std::string& stop = "null") {
  return "{\"text\":\"" + text + "\",\"finish_reason\":" + finish + ",\"stop_reason\":" + stop + "}\n";
}

// Expected ids from Hugging Face tokenizers 0.23.2.
TEST(Cli, EncodeTextArgument) {
  auto r = run("encode " + kQwen + " 'Hello world! 你好'");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[9707,1879,0,220,108386]\n");
  // After "--" an argument is TEXT even when it begins with a dash.
  r = run("encode " + kQwen + " -- -m");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "[1448]\n");
}

TEST(Cli, EncodeJsonLines) {
  auto r = run("encode " + kQwen + " --jsonl", "\"Hello world\"\n\"\"\n\"a\\nb\"\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[9707,1879]\n[]\n[64,198,65]\n");
}

TEST(Cli, DecodeReadsIdArraysSeparatedByWhitespace) {
  auto r = run("decode " + kQwen, "[9707,1879,151643]\n[]\n[9707] [11]");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "\"Hello world<|endoftext|>\"\n\"\"\n\"Hello\"\n\",\"\n");
}

// simdjson's parse_many reads documents of at most its batch size (1 MB by default).
TEST(Cli, DecodeReadsAnIdArrayLargerThanAMegabyte) {
  std::string ids = "[9707";
  for (int i = 0; i < 400000; ++i) ids += ",1879";  // " world" 400k times, 2 MB of JSON
  ids += "]\n[9707]";
  auto r = run("decode " + kQwen, ids);
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 200);
  std::string want = "\"Hello";
  for (int i = 0; i < 400000; ++i) want += " world";
  want += "\"\n\"Hello\"\n";
  EXPECT_EQ(r.out, want);
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
  std::string file = temp_file("bench.txt", "The quick brown fox jumps over the lazy dog.\n");
  auto r = run("bench encode " + kQwen + " " + file);
  EXPECT_EQ(r.status, 0);
  for (const char* key : {"\"MBps\":", "\"tokens\":10", "\"seconds\":", "\"load_ms\":"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
  std::remove(file.c_str());
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
  EXPECT_EQ(r.out, stream_line("Hello") + stream_line(", world") + stream_line("", "\"stop\"", "151645"));
  // End of input: a last object with the flushed text (token 11162 is a space and the first bytes of an emoji).
  auto e = run("stream " + kQwen, "[11]\n[11162]\n");
  EXPECT_EQ(e.status, 0);
  EXPECT_EQ(e.out, stream_line(",") + stream_line(" ") + stream_line("\xEF\xBF\xBD"));
}

TEST(Cli, RenderPrintsThePromptExactlyOrItsIds) {
  std::string request =
      R"({"messages": [{"role": "user", "content": "Hi!"}], "chat_template_kwargs": {"enable_thinking": false}})";
  auto r = run("render " + kQwen, request);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

TEST(Cli, SchemaRegexAndToolRegex) {
  std::string schema = temp_file("integer.schema.json", R"({"type":"integer","minimum":-5,"maximum":1234})");
  std::string tools =
      temp_file("f.tools.json", R"([{"type":"function","function":{"name":"f","parameters":{"type":"object",
    "properties":{"a":{"type":"boolean"}},"required":["a"]}}}])");
  auto r = run("schema-regex " + schema);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "(?:[0-9]|[1-9][0-9]{1,2}|1(?:[01][0-9]{2}|2(?:[0-2][0-9]|3[0-4]))|-[0-5])\n");
  r = run("tool-regex --tools " + tools + " --format hermes");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "<tool_call>\\n\\{\"name\": ?\"f\", ?\"arguments\": ?\\{\"a\": ?(?:true|false)\\}\\}\\n</tool_call>\n");
  expect_error("tool-regex --tools " + tools + " --format nope", "", 1, "unknown tool call format \"nope\"");
  std::string hostname = temp_file("hostname.schema.json", R"({"type":"string","format":"hostname"})");
  expect_error("schema-regex " + hostname, "", 1, hostname + ": JSON Schema at $.format: unsupported format");
  for (const std::string& f : {schema, tools, hostname}) std::remove(f.c_str());
}

TEST(Cli, ParseStreamsDeltasAndWholeMessages) {
  std::string input =
      "\"<think>hm</thi\"\n\"nk>ok <tool_call>\\n{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\"\n\"\\\": "
      "1}}\\n</tool_call>\"\n";
  auto r = run("parse --format hermes --reasoning qwen3", input);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("[{\"reasoning_content\":\"hm\"}]\n"), std::string::npos) << r.out;
  // The header goes out with the first fragment of arguments.
  EXPECT_NE(r.out.find("\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\"}}]}]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\": 1}\"}}]}]\n[]\n"),
            std::string::npos)
      << r.out;
  auto w = run("parse --format hermes --reasoning qwen3 --whole --no-partial-calls", input);
  EXPECT_EQ(w.status, 0) << w.out;
  EXPECT_NE(w.out.find("\"content\":\"ok \",\"reasoning_content\":\"hm\",\"tool_calls\":[{\"id\":\"call_"),
            std::string::npos)
      << w.out;
  EXPECT_NE(w.out.find("\"finish_reason\":\"tool_calls\"}"), std::string::npos) << w.out;
  expect_error("parse --format nope", "", 1, "known: none, qwen3_coder, glm47, glm45, xlam");
}

// Every flag of every command reaches the library: each changes the output.

TEST(CliFlags, EncodeAddSpecialTokens) {
  expect_flag_changes("encode " + kLlama2, "--add-special-tokens", "Hello world", "[22557,1526]\n", "[1,22557,1526]\n");
}

TEST(CliFlags, EncodeLossyUtf8) {
  expect_error("encode " + kQwen, "ok \xFF", 1, "stdin: text is not valid UTF-8 at byte offset 3");
  expect_error("encode " + kQwen + " \"$(printf 'ok \\377')\"", "", 1,
               "TEXT: text is not valid UTF-8 at byte offset 3");
  auto r = run("encode " + kQwen + " --lossy-utf8", "ok \xFF");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "[562,29333]\n");  // "ok", " \uFFFD"
}

TEST(CliFlags, EncodeJsonl) {
  expect_flag_changes("encode " + kQwen, "--jsonl", "\"a\"\n\"b\"\n", "[56693,698,1,65,698]\n", "[64]\n[65]\n");
}

TEST(CliFlags, DecodeSkipSpecialTokens) {
  expect_flag_changes("decode " + kQwen, "--skip-special-tokens", "[9707,1879,151643]",
                      "\"Hello world<|endoftext|>\"\n", "\"Hello world\"\n");
}

// Llama 3.1's <|begin_of_text|> then ".fi": the stream once printed the special token whatever the flag said.
TEST(CliFlags, StreamSkipSpecialTokens) {
  expect_flag_changes("stream " + kLlama31, "--skip-special-tokens", "[128000, 62886]\n",
                      stream_line("<|begin_of_text|>.fi") + stream_line(""), stream_line(".fi") + stream_line(""));
}

// Llama 2 drops the leading space of the first token of a text; after a prompt it stays.
TEST(CliFlags, StreamPromptIds) {
  expect_flag_changes("stream " + kLlama2, "--prompt-ids '[22557]'", "[1526]\n", stream_line("world") + stream_line(""),
                      stream_line(" world") + stream_line(""));
}

TEST(CliFlags, StreamStop) {
  expect_flag_changes("stream " + kQwen, "--stop ' wor' --stop never", "[9707, 11]\n[1879]\n",
                      stream_line("Hello,") + stream_line(" world") + stream_line(""),
                      stream_line("Hello,") + stream_line("", "\"stop\"", "\" wor\""));
}

TEST(CliFlags, StreamStopTokenId) {
  expect_flag_changes("stream " + kQwen, "--stop-token-id 11", "[9707, 11, 1879]\n",
                      stream_line("Hello, world") + stream_line(""), stream_line("Hello", "\"stop\"", "11"));
}

TEST(CliFlags, StreamIncludeStopStr) {
  expect_flag_changes("stream " + kQwen + " --stop ' wor'", "--include-stop-str", "[9707, 11]\n[1879]\n",
                      stream_line("Hello,") + stream_line("", "\"stop\"", "\" wor\""),
                      stream_line("Hello,") + stream_line(" wor", "\"stop\"", "\" wor\""));
}

TEST(CliFlags, StreamMinTokens) {
  expect_flag_changes("stream " + kQwen, "--min-tokens 3", "[9707]\n[151645]\n[11]\n",
                      stream_line("Hello") + stream_line("", "\"stop\"", "151645"),
                      stream_line("Hello") + stream_line("<|im_end|>") + stream_line(",") + stream_line(""));
}

TEST(CliFlags, StreamMaxTokens) {
  expect_flag_changes("stream " + kQwen, "--max-tokens 2", "[9707]\n[11, 1879, 11]\n",
                      stream_line("Hello") + stream_line(", world,") + stream_line(""),
                      stream_line("Hello") + stream_line(",", "\"length\""));
}

TEST(CliFlags, StreamIgnoreEos) {
  expect_flag_changes("stream " + kQwen, "--ignore-eos", "[9707]\n[151645]\n",
                      stream_line("Hello") + stream_line("", "\"stop\"", "151645"),
                      stream_line("Hello") + stream_line("<|im_end|>") + stream_line(""));
}

const std::string kHiRequest = R"({"messages": [{"role": "user", "content": "Hi!"}]})";

TEST(CliFlags, RenderRequest) {
  std::string file = temp_file("request.json", R"({"messages": [{"role": "user", "content": "From a file"}]})");
  expect_flag_changes("render " + kLlama2, "--request " + file, kHiRequest,
                      "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n",
                      "<|im_start|>user\nFrom a file<|im_end|>\n<|im_start|>assistant\n");
  std::remove(file.c_str());
}

TEST(CliFlags, RenderIds) {
  expect_flag_changes("render -m " + model_path("gemma3"), "--ids", kHiRequest,
                      "<bos><start_of_turn>user\nHi!<end_of_turn>\n<start_of_turn>model\n",
                      "[2,105,2364,107,10979,236888,106,107,105,4368,107]\n");  // one <bos> (2)
}

// --template with -m: the model's special tokens in the given template.
TEST(CliFlags, RenderTemplateWithModel) {
  std::string tmpl = temp_file("bos.jinja", "{{ bos_token }}|{{ messages | length }}");
  expect_flag_changes("render --template " + tmpl, kLlama31, kHiRequest, "|1", "<|begin_of_text|>|1");
  expect_flag_changes("render " + kLlama31, "--template " + tmpl, kHiRequest,
                      "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>"
                      "<|start_header_id|>assistant<|end_header_id|>\n\n",
                      "<|begin_of_text|>|1");
  std::remove(tmpl.c_str());
}

const std::string kSplitHermesCall =
    "\"<tool_call>\\n{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\"\n\"\\\": 1}}\\n</tool_call>\"\n";

TEST(CliFlags, ParseFormat) {
  auto none = run("parse", kSplitHermesCall);
  EXPECT_EQ(none.out,
            "[{\"content\":\"<tool_call>\\n{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\"}]\n"
            "[{\"content\":\"\\\": 1}}\\n</tool_call>\"}]\n[]\n");
  auto hermes = run("parse --format hermes", kSplitHermesCall);
  EXPECT_NE(hermes.out.find("\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\"}"), std::string::npos) << hermes.out;
}

TEST(CliFlags, ParseReasoning) {
  expect_flag_changes("parse", "--reasoning qwen3", "\"<think>hm</think>ok\"\n",
                      "[{\"content\":\"<think>hm</think>ok\"}]\n[]\n",
                      "[{\"reasoning_content\":\"hm\"},{\"content\":\"ok\"}]\n[]\n");
}

TEST(CliFlags, ParseStartsInReasoning) {
  expect_flag_changes("parse --reasoning qwen3", "--starts-in-reasoning", "\"hm</think>ok\"\n",
                      "[{\"content\":\"hm</think>ok\"}]\n[]\n",
                      "[{\"reasoning_content\":\"hm\"},{\"content\":\"ok\"}]\n[]\n");
}

// qwen3_coder writes parameter values as text; the tools' schemas type them.
TEST(CliFlags, ParseTools) {
  std::string tools = temp_file("int.tools.json", R"([{"type":"function","function":{"name":"f","parameters":{
    "type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}}])");
  std::string call = "\"<tool_call>\\n<function=f>\\n<parameter=a>\\n1\\n</parameter>\\n</function>\\n</tool_call>\"\n";
  auto untyped = run("parse --format qwen3_coder", call);
  EXPECT_NE(untyped.out.find("\"arguments\":\"{\\\"a\\\": \\\"1\\\"}\""), std::string::npos) << untyped.out;
  auto typed = run("parse --format qwen3_coder --tools " + tools, call);
  EXPECT_NE(typed.out.find("\"arguments\":\"{\\\"a\\\": 1}\""), std::string::npos) << typed.out;
  std::remove(tools.c_str());
}

TEST(CliFlags, ParseWhole) {
  expect_flag_changes(
      "parse --reasoning qwen3", "--whole", "\"<think>hm</think>ok\"\n",
      "[{\"reasoning_content\":\"hm\"},{\"content\":\"ok\"}]\n[]\n",
      "{\"role\":\"assistant\",\"content\":\"ok\",\"reasoning_content\":\"hm\",\"finish_reason\":\"stop\"}\n");
}

// Without --whole: the call arrives in one delta once complete instead of its header first.
TEST(CliFlags, ParseNoPartialCalls) {
  auto partial = run("parse --format hermes", kSplitHermesCall);
  EXPECT_EQ(partial.out.find("[{\"tool_calls\":[{\"index\":0,\"id\":\"call_"), 0u) << partial.out;
  auto whole_calls = run("parse --format hermes --no-partial-calls", kSplitHermesCall);
  EXPECT_EQ(whole_calls.out.find("[]\n[{\"tool_calls\":[{\"index\":0,\"id\":\"call_"), 0u) << whole_calls.out;
  EXPECT_NE(whole_calls.out.find("\"name\":\"f\",\"arguments\":\"{\\\"a\\\": 1}\""), std::string::npos)
      << whole_calls.out;
}

TEST(CliFlags, ParseList) {
  auto r = run("parse --list");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.find("formats: none qwen3_coder glm47 glm45 xlam"), 0u) << r.out;
  EXPECT_NE(r.out.find("pythonic"), std::string::npos) << r.out;
}

TEST(CliFlags, SchemaRegexStrict) {
  std::string schema = temp_file("object.schema.json", R"({"type":"object","properties":{"a":{"type":"boolean"}}})");
  auto loose = run("schema-regex " + schema);
  EXPECT_EQ(loose.status, 0);
  EXPECT_GT(loose.out.size(), 1000u) << loose.out;  // other members of any value may follow
  auto strict = run("schema-regex --strict " + schema);
  EXPECT_EQ(strict.out, "\\{(?:\"a\": ?(?:true|false))?\\}\n");
  std::remove(schema.c_str());
}

// {"type":"array"} at depth 0 holds scalars only.
TEST(CliFlags, SchemaRegexAnyDepth) {
  std::string schema = temp_file("array.schema.json", R"({"type":"array"})");
  auto deep = run("schema-regex " + schema);
  auto flat = run("schema-regex --any-depth 0 " + schema);
  EXPECT_EQ(flat.status, 0);
  EXPECT_EQ(flat.out.find("\\["), 0u) << flat.out;
  EXPECT_EQ(flat.out.find("\\[", 1), std::string::npos) << flat.out;
  EXPECT_NE(deep.out.find("\\[", 1), std::string::npos) << deep.out;
  std::remove(schema.c_str());
}

const char* kRecursiveObject =
    R"({"$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"})";

TEST(CliFlags, SchemaRegexMaxDepth) {
  std::string schema = temp_file("recursive.schema.json", kRecursiveObject);
  expect_flag_changes("schema-regex --strict " + schema, "--max-depth 1", "",
                      "\\{(?:\"c\": ?\\{(?:\"c\": ?\\{\\})?\\})?\\}\n", "\\{\\}\n");
  std::remove(schema.c_str());
}

const char* kTwoTools = R"([{"type":"function","function":{"name":"f","parameters":{"type":"object",
  "properties":{"a":{"type":"boolean"}},"required":["a"]}}},
  {"type":"function","function":{"name":"g","parameters":{"type":"object","properties":{}}}}])";

TEST(CliFlags, ToolRegexName) {
  std::string tools = temp_file("two.tools.json", kTwoTools);
  expect_flag_changes("tool-regex --format hermes --tools " + tools, "--name g", "",
                      "(?:<tool_call>\\n\\{\"name\": ?\"f\", ?\"arguments\": ?\\{\"a\": ?(?:true|false)\\}\\}\\n"
                      "</tool_call>|<tool_call>\\n\\{\"name\": ?\"g\", ?\"arguments\": ?\\{\\}\\}\\n</tool_call>)\n",
                      "<tool_call>\\n\\{\"name\": ?\"g\", ?\"arguments\": ?\\{\\}\\}\\n</tool_call>\n");
  std::remove(tools.c_str());
}

TEST(CliFlags, ToolRegexParallel) {
  std::string tools = temp_file("two.tools.json", kTwoTools);
  std::string one = "<tool_call>\\n\\{\"name\": ?\"g\", ?\"arguments\": ?\\{\\}\\}\\n</tool_call>";
  expect_flag_changes("tool-regex --format hermes --name g --tools " + tools, "--parallel", "", one + "\n",
                      one + "(?:\\n" + one + ")*\n");
  std::remove(tools.c_str());
}

TEST(CliFlags, ToolRegexAnyDepthAndMaxDepth) {
  std::string tools = temp_file("nested.tools.json", R"([{"type":"function","function":{"name":"f","parameters":{
    "type":"object","$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#/$defs/n"}}}},
    "properties":{"a":{"type":"array"},"r":{"$ref":"#/$defs/n"}},"required":["a","r"]}}}])");
  auto plain = run("tool-regex --format hermes --tools " + tools);
  EXPECT_EQ(plain.status, 0) << plain.out;
  auto shallow = run("tool-regex --format hermes --any-depth 0 --tools " + tools);
  EXPECT_EQ(shallow.status, 0) << shallow.out;
  EXPECT_LT(shallow.out.size(), plain.out.size());
  auto short_refs = run("tool-regex --format hermes --max-depth 1 --tools " + tools);
  EXPECT_EQ(short_refs.status, 0) << short_refs.out;
  EXPECT_LT(short_refs.out.size(), plain.out.size());
  EXPECT_NE(short_refs.out, shallow.out);
  std::remove(tools.c_str());
}

const std::string kBenchText = "The quick brown fox jumps over the lazy dog.\n";

TEST(CliFlags, BenchEncodeThreadsAndAddSpecialTokens) {
  std::string file = temp_file("bench_encode.txt", kBenchText);
  auto plain = run("bench encode " + kLlama2 + " " + file);
  EXPECT_EQ(field(plain.out, "threads"), "1");
  EXPECT_EQ(field(plain.out, "tokens"), "13");
  auto threads = run("bench encode " + kLlama2 + " " + file + " --threads 2");
  EXPECT_EQ(field(threads.out, "threads"), "2");
  auto special = run("bench encode " + kLlama2 + " " + file + " --add-special-tokens");
  EXPECT_EQ(field(special.out, "tokens"), "14");  // <s> per chunk
  std::remove(file.c_str());
}

TEST(CliFlags, BenchEncodeLossyUtf8) {
  std::string file = temp_file("bench_lossy.txt", "ok \xFF ok\n");
  expect_error("bench encode " + kQwen + " " + file, "", 1,
               file + ": invalid UTF-8 (see --lossy-utf8) at byte offset 3");
  auto r = run("bench encode " + kQwen + " " + file + " --lossy-utf8");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(field(r.out, "tokens"), "4");
  std::remove(file.c_str());
}

// With <s> in the ids, skipping special tokens changes the decoded bytes.
TEST(CliFlags, BenchDecodeAddAndSkipSpecialTokens) {
  std::string file = temp_file("bench_decode.txt", kBenchText);
  auto plain = run("bench decode " + kLlama2 + " " + file);
  EXPECT_EQ(field(plain.out, "tokens"), "13");
  EXPECT_EQ(field(plain.out, "bytes"), "45");
  auto special = run("bench decode " + kLlama2 + " " + file + " --add-special-tokens");
  EXPECT_EQ(field(special.out, "tokens"), "14");
  EXPECT_EQ(field(special.out, "bytes"), "49");  // "<s> The quick ..."
  auto skipped = run("bench decode " + kLlama2 + " " + file + " --add-special-tokens --skip-special-tokens");
  EXPECT_EQ(field(skipped.out, "tokens"), "14");
  EXPECT_EQ(field(skipped.out, "bytes"), "45");
  std::remove(file.c_str());
}

// "bytes" is the text the timed stream gave: <|im_end|> is in it or not.
TEST(CliFlags, BenchStreamSkipSpecialTokens) {
  std::string file = temp_file("bench_stream.txt", "Hello<|im_end|> world\n");
  auto kept = run("bench stream " + kQwen + " " + file);
  EXPECT_EQ(kept.status, 0) << kept.out;
  EXPECT_EQ(field(kept.out, "bytes"), "22");
  auto skipped = run("bench stream " + kQwen + " " + file + " --skip-special-tokens");
  EXPECT_EQ(field(skipped.out, "bytes"), "12");
  std::remove(file.c_str());
}

// Usage errors (exit 2) name the flag and the command and print the command's usage.

TEST(CliErrors, EachCommandRefusesTheFlagsOfOthers) {
  std::string file = temp_file("refused.txt", kBenchText);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"encode " + kQwen + " --stop x", "encode does not take --stop"},
      {"encode " + kQwen + " --skip-special-tokens", "encode does not take --skip-special-tokens"},
      {"decode " + kQwen + " --add-special-tokens", "decode does not take --add-special-tokens"},
      {"decode " + kQwen + " --jsonl", "decode does not take --jsonl"},
      {"stream " + kQwen + " --lossy-utf8", "stream does not take --lossy-utf8"},
      {"info " + kQwen + " --skip-special-tokens", "info does not take --skip-special-tokens"},
      {"render " + kQwen + " --format hermes", "render does not take --format"},
      {"parse -m X --format hermes", "parse does not take -m"},
      {"parse --format hermes --ids", "parse does not take --ids"},
      {"schema-regex --tools " + file + " " + file, "schema-regex does not take --tools"},
      {"tool-regex --tools " + file + " --format hermes --strict", "tool-regex does not take --strict"},
      {"bench encode " + kQwen + " " + file + " --skip-special-tokens",
       "bench encode does not take --skip-special-tokens"},
      {"bench decode " + kQwen + " " + file + " --threads 2", "bench decode does not take --threads"},
      {"bench stream " + kQwen + " " + file + " --stop x", "bench stream does not take --stop"},
      {"bench render " + kQwen + " " + file + " --ids", "bench render does not take --ids"},
  };
  for (const auto& [args, says] : cases) {
    expect_error(args, "", 2, says);
    std::string command = says.substr(0, says.find(" does"));
    expect_error(args, "", 2, "usage:\n  textedge " + command + " ");
  }
  std::remove(file.c_str());
}

TEST(CliErrors, UnknownFlagsMissingValuesAndBadValues) {
  expect_error("encode " + kQwen + " --frobnicate", "", 2, "encode does not take --frobnicate");
  expect_error("stream " + kQwen + " --stop", "", 2, "stream --stop needs a value");
  expect_error("stream " + kQwen + " --max-tokens ten", "", 2,
               "stream --max-tokens needs a non-negative integer, got 'ten'");
  expect_error("stream " + kQwen + " --stop-token-id 4294967296", "", 2,
               "stream --stop-token-id needs an integer from 0 to 4294967295, got '4294967296'");
  expect_error("bench encode " + kQwen + " x --threads 0", "", 2,
               "bench encode --threads needs an integer from 1 to 1024, got '0'");
  expect_error("schema-regex --any-depth 9 x", "", 2, "schema-regex --any-depth needs an integer from 0 to 6, got '9'");
  expect_error("encode hi", "", 2, "encode needs -m MODEL");
  expect_error("decode " + kQwen + " extra", "", 2, "decode: unexpected argument 'extra'");
  expect_error("schema-regex", "", 2, "schema-regex needs FILE");
  expect_error("tool-regex --format hermes", "", 2, "tool-regex needs --tools FILE and --format NAME");
  expect_error("render", "", 2, "render needs -m MODEL or --template FILE");
  expect_error("frobnicate " + kQwen, "", 2, "unknown command 'frobnicate'");
  expect_error("bench", "", 2, "bench needs encode, decode, stream or render");
  expect_error("", "", 2, "missing command");
  expect_error(kQwen + " encode", "", 2, "the command comes first");
}

TEST(CliErrors, BadPromptIds) {
  expect_error("stream " + kQwen + " --prompt-ids '[1, -2]'", "", 2,
               "stream --prompt-ids element 2 is not an id (an integer in [0, 2^32)), got '[1, -2]'");
  expect_error("stream " + kQwen + " --prompt-ids 7", "", 2,
               "stream --prompt-ids expected a JSON array of ids, got '7'");
}

TEST(CliErrors, BadInputLinesSayWhichLine) {
  expect_error("stream " + kQwen, "[9707]\n[1, -2]\n", 1, "stdin line 2: element 2 is not an id");
  expect_error("stream " + kQwen, "[9707]\nhello\n", 1, "stdin line 2: expected a JSON array of ids");
  expect_error("decode " + kQwen, "[1]\n[1, \"x\"]\n", 1, "stdin value 2 (byte offset 4): element 2 is not an id");
  expect_error("decode " + kQwen, "[1]\n{}\n", 1, "stdin value 2 (byte offset 4): expected a JSON array of ids");
  expect_error("decode " + kQwen, "[1, 2]\n[3", 1, "stdin ends inside a JSON value");
  expect_error("encode " + kQwen + " --jsonl", "\"a\"\n[1]\n", 1, "stdin line 2: expected a JSON string");
  expect_error("parse --format hermes", "\"a\"\n\"b\"\nc\n", 1, "stdin line 3: expected a JSON string");
}

TEST(CliErrors, MissingOrUnreadableFilesAreNamed) {
  std::string dir = testing::TempDir();  // a directory opens but cannot be read as a file
  std::string missing = "/nonexistent/textedge_cli_file";
  expect_error("encode -m /nonexistent/model hi", "", 1, "/nonexistent/model");
  expect_error("render " + kQwen + " --request " + missing, "", 1, "cannot read " + missing + ": No such file");
  expect_error("render " + kQwen + " --request " + dir, "", 1, "cannot read " + dir + ": Is a directory");
  expect_error("render --template " + missing, kHiRequest, 1, "cannot read " + missing + ": No such file");
  expect_error("parse --format hermes --tools " + missing, "", 1, "cannot read " + missing + ": No such file");
  expect_error("tool-regex --format hermes --tools " + missing, "", 1, "cannot read " + missing + ": No such file");
  expect_error("schema-regex " + missing, "", 1, "cannot read " + missing + ": No such file");
  expect_error("schema-regex " + dir, "", 1, "cannot read " + dir + ": Is a directory");
  expect_error("bench encode " + kQwen + " " + missing, "", 1, "cannot read " + missing + ": No such file");
}

// A request the chat API refuses: the error names the request's source, what and where.
TEST(CliErrors, RenderNamesTheRequest) {
  std::string file = temp_file("bad_request.json", R"({"messages": {}})");
  expect_error("render " + kQwen + " --request " + file, "", 1,
               file + ": messages must be a JSON array, got an object at byte offset 13");
  expect_error("render " + kQwen, R"({"messages": [], "add_generation_prompt": "yes"})", 1,
               "stdin: add_generation_prompt must be true or false, got a string at byte offset 42");
  std::remove(file.c_str());
}

// A template that fails to compile or raises: the error names its file, line and column.
TEST(CliErrors, RenderNamesTheTemplate) {
  std::string unclosed = temp_file("unclosed.jinja", "{{ x");
  expect_error("render --template " + unclosed, kHiRequest, 1,
               unclosed + ": unexpected end of template, expected 'end of print statement'. (line 1, column 5)");
  std::string undefined = temp_file("undefined.jinja", "{{ x(1) }}");
  expect_error("render --template " + undefined, kHiRequest, 1, undefined + ": 'x' is undefined (line 1, column 5)");
  std::string gemma_it = std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/chujiezheng__gemma-it.jinja";
  expect_error("render --template " + gemma_it, R"({"messages": [{"role": "system", "content": "x"}]})", 1,
               gemma_it + ": System role not supported");
  expect_error("render " + kQwen, R"({"messages": [{"role": "user"}]})", 1,
               "the chat template of " + model_path("qwen3") + ": ");
  std::remove(unclosed.c_str());
  std::remove(undefined.c_str());
}

}  // namespace
