#include "textedge/output_parser.hpp"

#include <gtest/gtest.h>

#include "support/test_paths.hpp"
#include "textedge/detokenizer.hpp"
#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "textedge/error.hpp"

using namespace textedge;

namespace {

OutputParserOptions opts(std::string format, std::string reasoning = "none", bool partial = true) {
  OutputParserOptions o;
  o.format = std::move(format);
  o.reasoning = std::move(reasoning);
  o.partial_calls = partial;
  o.id_seed = 42;
  return o;
}

bool valid_json(const std::string& s) {
  simdjson::dom::parser p;
  simdjson::padded_string ps(s);
  return p.parse(ps).error() == simdjson::SUCCESS;
}

// The same JSON text once minified (key order counts: the parsers keep the model's order).
bool same_json_text(const std::string& a, const std::string& b) {
  simdjson::dom::parser p, q;
  simdjson::dom::element x, y;
  if (p.parse(a).get(x) || q.parse(b).get(y)) return false;
  return simdjson::minify(x) == simdjson::minify(y);
}

ParsedMessage stream(std::string_view text, const OutputParserOptions& o, const std::vector<std::size_t>& cuts,
                     std::vector<ChatDelta>* all = nullptr) {
  OutputParser p(o);
  std::vector<ChatDelta> deltas;
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    p.feed(text.substr(at, cut - at), deltas);
    at = cut;
  }
  p.feed(text.substr(at), deltas);
  p.finish(deltas);
  ParsedMessage m;
  merge_deltas(deltas, m);
  if (all) *all = deltas;
  return m;
}

void expect_same(const ParsedMessage& a, const ParsedMessage& b, const std::string& what) {
  EXPECT_EQ(a.content, b.content) << what;
  EXPECT_EQ(a.reasoning_content, b.reasoning_content) << what;
  ASSERT_EQ(a.tool_calls.size(), b.tool_calls.size()) << what;
  for (std::size_t i = 0; i < a.tool_calls.size(); ++i) {
    EXPECT_EQ(a.tool_calls[i].id, b.tool_calls[i].id) << what;
    EXPECT_EQ(a.tool_calls[i].name, b.tool_calls[i].name) << what;
    EXPECT_EQ(a.tool_calls[i].arguments, b.tool_calls[i].arguments) << what;
  }
  EXPECT_EQ(a.finish_reason, b.finish_reason) << what;
}

// A whole message (parse_output) never carries a call whose arguments are not a JSON object.
void expect_whole_calls_valid(std::string_view text, const OutputParserOptions& o) {
  for (auto& call : parse_output(text, o).tool_calls)
    EXPECT_TRUE(valid_json(call.arguments) && call.arguments.front() == '{') << call.arguments << " from " << text;
}

// Every split gives what one feed of the whole text gives: one byte at a time, random chunks;
// also checks each call's first fragment carries id and name, ids are unique, and the whole
// message's calls are valid.
ParsedMessage check(std::string_view text, const OutputParserOptions& o) {
  ParsedMessage whole = stream(text, o, {});
  expect_whole_calls_valid(text, o);
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < text.size(); ++i) cuts.push_back(i);
  std::vector<ChatDelta> deltas;
  expect_same(stream(text, o, cuts, &deltas), whole, "one byte at a time: " + std::string(text));
  std::vector<bool> seen;
  for (auto& d : deltas)
    if (d.kind == ChatDelta::Kind::tool_call) {
      if (d.index >= static_cast<int>(seen.size())) seen.resize(d.index + 1);
      EXPECT_EQ(!seen[d.index], !d.id.empty());
      EXPECT_EQ(!seen[d.index], !d.name.empty());
      seen[d.index] = true;
    }
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::size_t> c;
    for (std::size_t i = 1; i < text.size(); ++i)
      if (rng() % 7 == 0) c.push_back(i);
    expect_same(stream(text, o, c), whole, "random split " + std::to_string(round));
  }
  for (std::size_t i = 0; i < whole.tool_calls.size(); ++i)
    for (std::size_t j = i + 1; j < whole.tool_calls.size(); ++j) EXPECT_NE(whole.tool_calls[i].id, whole.tool_calls[j].id);
  return whole;
}

std::string json_quote_for_test(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c < 0x20) out += "\\u00" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

struct Call {
  std::string name, args;
};

void expect_calls(const ParsedMessage& m, const std::vector<Call>& calls) {
  ASSERT_EQ(m.tool_calls.size(), calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(m.tool_calls[i].name, calls[i].name);
    EXPECT_EQ(m.tool_calls[i].arguments, calls[i].args);
    EXPECT_TRUE(valid_json(m.tool_calls[i].arguments)) << m.tool_calls[i].arguments;
    const std::string& id = m.tool_calls[i].id;
    bool alnum = !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isalnum(c); });
    // generated (call_ + 24, or Mistral's 9 alphanumerics) or the model's own (Kimi's functions.f:0, Mistral's [CALL_ID])
    EXPECT_TRUE((id.starts_with("call_") && id.size() == 29) || id.starts_with("functions.") || alnum) << id;
  }
  EXPECT_EQ(m.finish_reason, calls.empty() ? "stop" : "tool_calls");
}

// Both policies, for a well-formed output: the same message.
ParsedMessage both(std::string_view text, const std::string& format, const std::string& reasoning = "none") {
  ParsedMessage a = check(text, opts(format, reasoning, true));
  ParsedMessage b = check(text, opts(format, reasoning, false));
  EXPECT_EQ(a.content, b.content);
  EXPECT_EQ(a.tool_calls.size(), b.tool_calls.size());
  return a;
}

}  // namespace

TEST(OutputParser, UnknownNamesListKnownOnes) {
  try {
    OutputParser p(opts("nope"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hermes"), std::string::npos);
  }
  EXPECT_THROW(OutputParser(opts("hermes", "nope")), Error);
}

// ---- reasoning ----

TEST(Reasoning, Think) {
  auto m = both("<think>Let me see: <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call></think>The answer.", "hermes", "think");
  EXPECT_EQ(m.reasoning_content, "Let me see: <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
  EXPECT_EQ(m.content, "The answer.");
  expect_calls(m, {});
}

TEST(Reasoning, StartsInReasoning) {
  auto o = opts("none", "think");
  o.starts_in_reasoning = true;
  auto m = check("abc</thi</think>\n\nhi <think>", o);
  EXPECT_EQ(m.reasoning_content, "abc</thi");
  EXPECT_EQ(m.content, "\n\nhi <think>");
}

TEST(Reasoning, Qwen3ThinkingOffIsContent) {
  auto m = check("The answer is 4.", opts("hermes", "qwen3"));
  EXPECT_EQ(m.content, "The answer is 4.");
  EXPECT_EQ(m.reasoning_content, "");
  m = check("<think>\nhmm\n</think>\n\nFour.", opts("hermes", "qwen3"));
  EXPECT_EQ(m.reasoning_content, "\nhmm\n");
  EXPECT_EQ(m.content, "\n\nFour.");
  m = check("I think <think> is a tag", opts("hermes", "qwen3"));
  EXPECT_EQ(m.content, "I think <think> is a tag");
}

TEST(Reasoning, UnterminatedIsReasoning) {
  auto m = check("<think>still thinking <tool_call>{\"name\"", opts("hermes", "qwen3"));
  EXPECT_EQ(m.reasoning_content, "still thinking <tool_call>{\"name\"");
  EXPECT_EQ(m.content, "");
  m = check("<think>cut </thin", opts("hermes", "qwen3"));
  EXPECT_EQ(m.reasoning_content, "cut </thin");
}

TEST(Reasoning, DeepSeekR1) {
  auto m = check("<think>\nfirst</think>answer", opts("none", "deepseek_r1"));
  EXPECT_EQ(m.reasoning_content, "\nfirst");
  EXPECT_EQ(m.content, "answer");
  m = check("no tag here</think>answer", opts("none", "deepseek_r1"));
  EXPECT_EQ(m.reasoning_content, "no tag here");
  EXPECT_EQ(m.content, "answer");
  m = check("all reasoning, cut off", opts("none", "deepseek_r1"));
  EXPECT_EQ(m.reasoning_content, "all reasoning, cut off");
}

TEST(Reasoning, MistralThink) {  // Magistral
  auto m = both("[THINK]Check [TOOL_CALLS] inside[/THINK]Done.[TOOL_CALLS]f[ARGS]{\"a\": 1}", "mistral", "mistral");
  EXPECT_EQ(m.reasoning_content, "Check [TOOL_CALLS] inside");
  EXPECT_EQ(m.content, "Done.");
  expect_calls(m, {{"f", "{\"a\": 1}"}});
  m = check("No thinking [THINK here", opts("none", "mistral"));
  EXPECT_EQ(m.content, "No thinking [THINK here");
}

// End to end on gpt-oss: its Harmony markers are special tokens, so a stream that skips special
// tokens must keep exactly these for the parser.
TEST(Markers, SpecialTokensAParserNeedsSurviveSkipping) {
  auto tok = Tokenizer::load(model_path("gptoss"));
  auto o = opts("harmony", "harmony");
  auto keep = special_tokens_to_keep(tok, o);
  EXPECT_GE(keep.size(), 6u);
  for (TokenId id : keep) EXPECT_TRUE(tok.is_special(id));
  std::string text =
      "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather "
      "<|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>";
  auto ids = tok.encode(text);
  ids.push_back(*tok.token_to_id("<|endoftext|>"));  // a special token the parser does not need
  Detokenizer stream(tok, {}, {.skip_special_tokens = true, .keep_special_tokens = keep});
  std::string streamed = stream.step(ids) + stream.finish();
  EXPECT_EQ(streamed, text);
  auto m = parse_output(streamed, o);
  EXPECT_EQ(m.reasoning_content, "Need weather.");
  expect_calls(m, {{"get_weather", "{\"city\": \"Paris\"}"}});
  // Qwen3's markers are not special tokens there: nothing to keep, and they survive skipping.
  auto qwen3 = Tokenizer::load(model_path("qwen3"));
  EXPECT_TRUE(special_tokens_to_keep(qwen3, opts("hermes", "qwen3")).empty());
  EXPECT_EQ(parser_markers(opts("pythonic")), (std::vector<std::string>{"<|python_start|>", "<|python_end|>"}));
  EXPECT_EQ(parser_markers(opts("mistral", "mistral")),
            (std::vector<std::string>{"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]"}));
  EXPECT_EQ(parser_markers(opts("hermes", "qwen3")),
            (std::vector<std::string>{"<tool_call>", "</tool_call>", "<think>", "</think>"}));
}

TEST(Reasoning, HarmonyGoesWithTheHarmonyFormat) {
  auto m = check("<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>Hi<|return|>",
                 opts("harmony", "harmony"));
  EXPECT_EQ(m.reasoning_content, "think");
  EXPECT_EQ(m.content, "Hi");
  EXPECT_THROW(OutputParser(opts("hermes", "harmony")), Error);
}

// ---- hermes ----

TEST(Hermes, NoCall) {
  auto m = both("Just text with <tool_ and {braces} and </tool_call>.", "hermes");
  EXPECT_EQ(m.content, "Just text with <tool_ and {braces} and </tool_call>.");
  expect_calls(m, {});
}

TEST(Hermes, OneCallWithText) {
  auto m = both("Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\nDone.", "hermes");
  EXPECT_EQ(m.content, "Let me check.\n\nDone.");
  expect_calls(m, {{"get_weather", "{\"city\": \"Paris\"}"}});
}

TEST(Hermes, ParallelCallsAndReasoning) {
  std::string text =
      "<think>I need two calls.</think><tool_call>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n</tool_call>\n<tool_call>\n{\"name\": "
      "\"b\", \"arguments\": {}}\n</tool_call>";
  auto m = both(text, "hermes", "qwen3");
  EXPECT_EQ(m.reasoning_content, "I need two calls.");
  EXPECT_EQ(m.content, "");  // whitespace between and after calls is dropped
  expect_calls(m, {{"a", "{\"x\": 1}"}, {"b", "{}"}});
}

TEST(Hermes, NestedEscapedBracesNonAscii) {
  std::string args = R"({"q": "a } b { \" \\ \u00e9", "n": [1, {"d": [true, null, -2.5e3]}], "s": "日本語 ✓"})";
  auto m = both("<tool_call>\n{\"arguments\": " + args + ", \"name\": \"s\\u00e9arch\"}\n</tool_call>", "hermes");
  expect_calls(m, {{"séarch", args}});
  EXPECT_EQ(m.content, "");
}

TEST(Hermes, MissingArgumentsIsEmptyObject) {
  auto m = both("<tool_call>{\"name\": \"ping\"}</tool_call>", "hermes");
  expect_calls(m, {{"ping", "{}"}});
}

TEST(Hermes, MalformedBeforeNameIsContent) {
  for (bool partial : {true, false}) {
    auto m = check("<tool_call>\n{\"nam: 1}</tool_call> ok", opts("hermes", "none", partial));
    EXPECT_EQ(m.content, "<tool_call>\n{\"nam: 1}</tool_call> ok");
    expect_calls(m, {});
    m = check("x <tool_call>\n{\"name\": \"f", opts("hermes", "none", partial));
    EXPECT_EQ(m.content, "x <tool_call>\n{\"name\": \"f");
    expect_calls(m, {});
  }
}

TEST(Hermes, CutOffAfterName) {
  std::string text = "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": [1, 2";
  auto m = check(text, opts("hermes", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "f");
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": [1, 2");  // kept: a stream cannot take it back
  EXPECT_EQ(m.content, "");
  m = check(text, opts("hermes", "none", false));
  EXPECT_EQ(m.content, text);
  expect_calls(m, {});
}

TEST(Hermes, BrokenAfterNameThenAnotherCall) {
  std::string text = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\" 1}}</tool_call><tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call>";
  auto m = check(text, opts("hermes", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\" ");  // whitespace may still precede the colon
  EXPECT_EQ(m.content, "1}}</tool_call>");
  EXPECT_EQ(m.tool_calls[1].name, "g");
  m = check(text, opts("hermes", "none", false));
  EXPECT_EQ(m.content, "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\" 1}}</tool_call>");
  expect_calls(m, {{"g", "{}"}});
}

TEST(Hermes, ArgumentsStreamIncrementally) {
  OutputParser p(opts("hermes"));
  std::vector<ChatDelta> out;
  p.feed("<tool_call>\n{\"name\": \"f\", \"arguments\": ", out);
  EXPECT_TRUE(out.empty());  // the header waits for the arguments to begin
  p.feed("{\"a\": ", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "f");
  EXPECT_EQ(out[0].text, "{\"a\": ");
  out.clear();
  p.feed("\"x", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].text, "\"x");
  EXPECT_EQ(out[0].index, 0);
  EXPECT_TRUE(out[0].id.empty());
  out.clear();
  p.feed("\"}}\n</tool_call>", out);  // the last } arrives with the wrapper's own
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].text, "\"}");
}

TEST(Hermes, NoPartialCallsOneFragment) {
  OutputParser p(opts("hermes", "none", false));
  std::vector<ChatDelta> out;
  p.feed("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call", out);
  EXPECT_TRUE(out.empty());
  p.feed(">", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "f");
  EXPECT_EQ(out[0].text, "{\"a\": 1}");
}

// ---- llama3_json ----

TEST(Llama3Json, Calls) {
  auto m = both("<|python_tag|>{\"name\": \"a\", \"parameters\": {\"x\": \"é\"}}; {\"name\": \"b\", \"arguments\": {}}", "llama3_json");
  expect_calls(m, {{"a", "{\"x\": \"é\"}"}, {"b", "{}"}});
  EXPECT_EQ(m.content, "");
  m = both("{\"name\": \"a\", \"parameters\": {\"s\": \"}{\"}}", "llama3_json");
  expect_calls(m, {{"a", "{\"s\": \"}{\"}"}});
}

TEST(Llama3Json, TextIsContent) {
  auto m = both("Here is JSON: {\"name\": \"a\", \"parameters\": {}}", "llama3_json");
  EXPECT_EQ(m.content, "Here is JSON: {\"name\": \"a\", \"parameters\": {}}");
  expect_calls(m, {});
  m = both("{\"name\": \"a\", \"parameters\": {}} and then text", "llama3_json");
  expect_calls(m, {{"a", "{}"}});
  EXPECT_EQ(m.content, " and then text");
}

TEST(Llama3Json, Malformed) {
  std::string text = "{\"x\": 1}";
  for (bool partial : {true, false}) {
    auto m = check(text, opts("llama3_json", "none", partial));
    EXPECT_EQ(m.content, text);
    expect_calls(m, {});
  }
  text = "{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"q\": tru";
  auto m = check(text, opts("llama3_json", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[1].arguments, "{\"q\": tru");
  m = check(text, opts("llama3_json", "none", false));
  expect_calls(m, {{"a", "{}"}});
  EXPECT_EQ(m.content, "; {\"name\": \"b\", \"parameters\": {\"q\": tru");
}

// ---- mistral ----

TEST(Mistral, ArrayForm) {
  auto m = both("[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {\"k\": [1]}}, {\"name\": \"b\", \"arguments\": {}}]", "mistral");
  expect_calls(m, {{"a", "{\"k\": [1]}"}, {"b", "{}"}});
  EXPECT_EQ(m.content, "");
  m = both("Sure. [TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {}}]", "mistral");
  expect_calls(m, {{"a", "{}"}});
  EXPECT_EQ(m.content, "Sure. ");
}

TEST(Mistral, ArgsForm) {
  auto m = both("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Zürich\"}[TOOL_CALLS]b[ARGS]{}", "mistral");
  expect_calls(m, {{"get_weather", "{\"city\": \"Zürich\"}"}, {"b", "{}"}});
  EXPECT_EQ(m.content, "");
}

TEST(Mistral, Malformed) {
  for (bool partial : {true, false}) {
    auto m = check("[TOOL_CALLS] oops", opts("mistral", "none", partial));
    EXPECT_EQ(m.content, "[TOOL_CALLS] oops");
    expect_calls(m, {});
  }
  auto m = check("[TOOL_CALLS]f[ARGS]{\"a\": ", opts("mistral", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": ");
  m = check("[TOOL_CALLS]f[ARGS]{\"a\": ", opts("mistral", "none", false));
  EXPECT_EQ(m.content, "[TOOL_CALLS]f[ARGS]{\"a\": ");
}

// A lone surrogate escape is JSON (any four hex digits are; Python's json.loads and JavaScript's
// JSON.parse read it), so the call stands with its arguments as written (found by
// fuzz_parse_mistral, whose check read it as not JSON: tests/fuzz/regressions/fuzz_parse_mistral).
// (check() and expect_calls() test arguments with simdjson, which refuses a lone surrogate.)
TEST(Mistral, LoneSurrogateEscapeInArguments) {
  const std::string text = "[TOOL_CALLS]dd{\"k\\ud8CA\": 1} LI";
  for (bool partial : {true, false}) {
    OutputParserOptions o = opts("mistral", "none", partial);
    ParsedMessage m = parse_output(text, o);
    ASSERT_EQ(m.tool_calls.size(), 1u);
    EXPECT_EQ(m.tool_calls[0].name, "dd");
    EXPECT_EQ(m.tool_calls[0].arguments, "{\"k\\ud8CA\": 1}");
    EXPECT_EQ(m.content, " LI");
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < text.size(); ++i) cuts.push_back(i);
    expect_same(stream(text, o, cuts), stream(text, o, {}), "one byte at a time");
  }
}

// ---- detection ----

TEST(Detect, Templates) {
  EXPECT_EQ(detect_format("{% if enable_thinking %}<think>{% endif %}<tool_call>").format, "hermes");
  EXPECT_EQ(detect_format("{% if enable_thinking %}<think>{% endif %}<tool_call>").reasoning, "qwen3");
  EXPECT_EQ(detect_format("[TOOL_CALLS]").format, "mistral");
  EXPECT_EQ(detect_format("<|python_tag|>").format, "llama3_json");
  EXPECT_EQ(detect_format("plain").format, "none");
  auto qwq = detect_format("{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n<think>\\n' }}{%- endif %}<tool_call>");
  EXPECT_EQ(qwq.reasoning, "think");
  EXPECT_TRUE(qwq.starts_in_reasoning);
  EXPECT_FALSE(detect_format("{% if enable_thinking %}<think>{% endif %}").starts_in_reasoning);
}

TEST(Detect, RealTemplates) {
  auto read = [](const std::string& name) {
    std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_hermes.jinja")).format, "hermes");
  EXPECT_EQ(detect_format(read("chujiezheng__qwen2.5-instruct.jinja")).format, "hermes");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_llama3.1_json.jinja")).format, "llama3_json");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_mistral.jinja")).format, "mistral");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_mistral3.jinja")).format, "mistral");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_qwen3coder.jinja")).format, "qwen3_coder");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_deepseekv3.jinja")).format, "deepseek_v3");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_deepseekv31.jinja")).format, "deepseek_v31");
  EXPECT_EQ(detect_format(read("vllm__tool_chat_template_deepseekr1.jinja")).reasoning, "deepseek_r1");
  EXPECT_EQ(detect_format(read("chujiezheng__llama-2-chat.jinja")).format, "none");
}

// ---- qwen3_coder ----

namespace {
OutputParserOptions coder(bool partial = true) {
  auto o = opts("qwen3_coder", "none", partial);
  o.tools_json = R"([{"type": "function", "function": {"name": "edit", "parameters": {"type": "object", "properties": {
      "path": {"type": "string"}, "line": {"type": "integer"}, "force": {"type": ["boolean", "null"]},
      "opts": {"type": "object"}, "text": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "ls", "parameters": {"type": "object", "properties": {}}}}])";
  return o;
}
}  // namespace

TEST(Qwen3Coder, TypedValues) {
  std::string text =
      "I'll edit it.\n<tool_call>\n<function=edit>\n<parameter=path>\nsrc/a \"b\".cpp\n</parameter>\n<parameter=line>\n42\n</parameter>\n"
      "<parameter=force>\ntrue\n</parameter>\n<parameter=opts>\n{\"a\": [1, \"}\"]}\n</parameter>\n<parameter=text>\nline1\n\nline 2 < 3 </param\n"
      "日本\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=ls>\n</function>\n</tool_call>";
  for (bool partial : {true, false}) {
    auto m = check(text, coder(partial));
    EXPECT_EQ(m.content, "I'll edit it.\n");
    expect_calls(m, {{"edit", "{\"path\": \"src/a \\\"b\\\".cpp\", \"line\": 42, \"force\": true, \"opts\": {\"a\": [1, \"}\"]}, "
                              "\"text\": \"line1\\n\\nline 2 < 3 </param\\n日本\"}"},
                     {"ls", "{}"}});
  }
}

TEST(Qwen3Coder, UntypedAndInvalidValues) {
  auto m = check("<tool_call>\n<function=other>\n<parameter=n>\n5\n</parameter>\n</function>\n</tool_call>", coder());
  expect_calls(m, {{"other", "{\"n\": \"5\"}"}});  // no schema: a string, as in vLLM
  m = check("<tool_call>\n<function=edit>\n<parameter=line>\nforty\n</parameter>\n</function>\n</tool_call>", coder());
  expect_calls(m, {{"edit", "{\"line\": \"forty\"}"}});
}

TEST(Qwen3Coder, StreamsStringValues) {
  OutputParser p(coder());
  std::vector<ChatDelta> out;
  p.feed("<tool_call>\n<function=edit>\n<parameter=text>\nab\n</para", out);
  std::string args;
  for (auto& d : out) args += d.text;
  EXPECT_EQ(args, "{\"text\": \"ab");  // the newline and the partial end tag are held
}

TEST(Qwen3Coder, MalformedAndCutOff) {
  for (bool partial : {true, false}) {
    auto m = check("<tool_call>\n<functio=edit>\n</tool_call>", coder(partial));
    EXPECT_EQ(m.content, "<tool_call>\n<functio=edit>\n</tool_call>");
    expect_calls(m, {});
  }
  std::string cut = "<tool_call>\n<function=edit>\n<parameter=path>\nsrc/";
  auto m = check(cut, coder(true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"path\": \"src/");
  m = check(cut, coder(false));
  EXPECT_EQ(m.content, cut);
  expect_calls(m, {});
}

TEST(Qwen3Coder, CallInsideReasoning) {
  auto o = coder();
  o.reasoning = "qwen3";
  auto m = check("<think><tool_call>\n<function=ls>\n</function>\n</tool_call></think>ok", o);
  EXPECT_EQ(m.reasoning_content, "<tool_call>\n<function=ls>\n</function>\n</tool_call>");
  EXPECT_EQ(m.content, "ok");
  expect_calls(m, {});
}

// ---- deepseek_v3, deepseek_v31 ----

TEST(DeepSeekV3, Calls) {
  std::string text =
      "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"北京\"}\n```<｜tool▁call▁end｜>\n"
      "<｜tool▁call▁begin｜>function<｜tool▁sep｜>ping\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
  auto m = both(text, "deepseek_v3", "deepseek_r1");
  EXPECT_EQ(m.reasoning_content, "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"北京\"}\n```<｜tool▁call▁end｜>\n"
      "<｜tool▁call▁begin｜>function<｜tool▁sep｜>ping\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>");  // no </think>: all reasoning
  m = both("<think>hm</think>" + text, "deepseek_v3", "deepseek_r1");
  EXPECT_EQ(m.reasoning_content, "hm");
  EXPECT_EQ(m.content, "Checking.");
  expect_calls(m, {{"get_weather", "{\"city\": \"北京\"}"}, {"ping", "{}"}});
}

TEST(DeepSeekV3, CutOff) {
  std::string text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": \"b";
  auto m = check(text, opts("deepseek_v3", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": \"b");
  m = check(text, opts("deepseek_v3", "none", false));
  EXPECT_EQ(m.content, text);
  m = check("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁s", opts("deepseek_v3", "none", true));
  EXPECT_EQ(m.content, "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁s");
}

TEST(DeepSeekV31, Calls) {
  std::string text =
      "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{\"x\": [1, {\"y\": \"}\"}]}<｜tool▁call▁end｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{}"
      "<｜tool▁call▁end｜><｜tool▁calls▁end｜> after";
  auto m = both(text, "deepseek_v31");
  expect_calls(m, {{"a", "{\"x\": [1, {\"y\": \"}\"}]}"}, {"b", "{}"}});
  EXPECT_EQ(m.content, " after");
}

// ---- kimi_k2 ----

TEST(KimiK2, Calls) {
  std::string text =
      "Let me look.<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\": \"ü\"}<|tool_call_end|>"
      "<|tool_call_begin|>functions.open:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
  auto m = both(text, "kimi_k2");
  expect_calls(m, {{"search", "{\"q\": \"ü\"}"}, {"open", "{}"}});
  EXPECT_EQ(m.tool_calls[0].id, "functions.search:0");
  EXPECT_EQ(m.content, "Let me look.");
  m = both("<|tool_call_section_begin|> <|tool_call_begin|> functions.a.b:3 <|tool_call_argument_begin|> {} <|tool_call_end|> <|tool_calls_section_end|>", "kimi_k2");
  expect_calls(m, {{"a.b", "{}"}});
  m = check("<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\"", opts("kimi_k2", "none", false));
  EXPECT_EQ(m.content, "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{\"q\"");
}

// ---- glm45 ----

TEST(Glm45, Calls) {
  auto o = coder();
  o.format = "glm45";
  o.reasoning = "think";
  std::string text =
      "<think>plan</think>Editing.<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>a/b \"c\" </arg</arg_value>\n<arg_key>line</arg_key>\n"
      "<arg_value>7</arg_value>\n<arg_key>opts</arg_key>\n<arg_value>{\"k\": [\"ä\"]}</arg_value>\n</tool_call>\n<tool_call>ls\n</tool_call>"
      "<tool_call>ls</tool_call>";
  for (bool partial : {true, false}) {
    o.partial_calls = partial;
    auto m = check(text, o);
    EXPECT_EQ(m.reasoning_content, "plan");
    EXPECT_EQ(m.content, "Editing.");
    expect_calls(m, {{"edit", "{\"path\": \"a/b \\\"c\\\" </arg\", \"line\": 7, \"opts\": {\"k\": [\"ä\"]}}"}, {"ls", "{}"}, {"ls", "{}"}});
  }
  o.partial_calls = false;
  auto m = check("<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>x", o);
  EXPECT_EQ(m.content, "<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>x");
  o.partial_calls = true;
  m = check("<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>x</arg_v", o);
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"path\": \"x");
  EXPECT_EQ(m.content, "</arg_v");
}

// ---- harmony ----

TEST(Harmony, ChannelsAndCalls) {
  std::string text =
      "<|channel|>analysis<|message|>Need weather; maybe <|channel|> text.<|end|><|start|>assistant<|channel|>commentary<|message|>Checking "
      "now.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Zürich\"}<|call|>"
      "<|start|>assistant to=functions.ping<|channel|>commentary json<|message|>{}<|call|>";
  auto m = both(text, "harmony");
  EXPECT_EQ(m.reasoning_content, "Need weather; maybe <|channel|> text.");
  EXPECT_EQ(m.content, "Checking now.");
  expect_calls(m, {{"get_weather", "{\"city\": \"Zürich\"}"}, {"ping", "{}"}});
  m = both("<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>The answer <is> 4.<|return|>", "harmony");
  EXPECT_EQ(m.reasoning_content, "think");
  EXPECT_EQ(m.content, "The answer <is> 4.");
  expect_calls(m, {});
}

TEST(Harmony, CutOff) {
  auto m = check("<|channel|>analysis<|message|>still thinking <|en", opts("harmony"));
  EXPECT_EQ(m.reasoning_content, "still thinking <|en");
  EXPECT_EQ(m.content, "");
  std::string call = "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": ";
  m = check(call, opts("harmony", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": ");
  m = check(call, opts("harmony", "none", false));
  EXPECT_EQ(m.content, call);
  m = check("<|channel|>commentary to=functions.f <|constr", opts("harmony", "none", true));
  EXPECT_EQ(m.content, "<|channel|>commentary to=functions.f <|constr");
}

// ---- broken calls (issue 13, section 1) ----

namespace {
// What a stream gives for `text`, fed one byte at a time, and its finish_reason as the server
// reports it (made_calls: calls that completed).
std::pair<ParsedMessage, bool> stream_one_byte(std::string_view text, const OutputParserOptions& o) {
  OutputParser p(o);
  std::vector<ChatDelta> deltas;
  for (char c : text) p.feed(std::string_view(&c, 1), deltas);
  p.finish(deltas);
  ParsedMessage m;
  merge_deltas(deltas, m);
  return {m, p.made_calls()};
}
}  // namespace

// A whole message never carries a call that did not complete: the model's text is content, as
// written, markers and all (kimi_k2 used to return {"a":  as a call and its end markers as content).
TEST(BrokenCalls, AWholeMessageReturnsThemAsContentAsWritten) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hermes", "<tool_call>\n{\"name\": \"f\", \"arguments\": {</tool_call>"},
      {"hermes", "<tool_call>\n{\"name\": \"f\", \"arguments\": \"\"}\n</tool_call>"},
      {"hermes", "Sure. <tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"unterminated"},
      {"kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>{\"a\": "
                  "<|tool_call_end|><|tool_calls_section_end|>"},
      {"harmony", "<|channel|>commentary to=functions.f <|constrain|>json<|message|>not json<|call|>"},
      {"glm45", "<tool_call>f<oops"},
      {"glm45", "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value><oops"},
      {"qwen3_coder", "<tool_call>\n<function=edit>\n<parameter=path>\nsrc/"},
  };
  for (auto& [format, text] : cases) {
    auto o = opts(format);
    o.tools_json = coder().tools_json;
    ParsedMessage m = parse_output(text, o);
    EXPECT_EQ(m.content, text) << format;
    EXPECT_TRUE(m.tool_calls.empty()) << format << ": " << text;
    EXPECT_EQ(m.finish_reason, "stop") << format;
  }
}

// A stream sends a call's header with its first fragment of arguments, so a call that breaks
// before its arguments begin is content as written, never a call without arguments (harmony
// used to send f with "" and put <|call|> in the content; glm45 lost the '<' after the name).
// A call that breaks after that keeps the arguments streamed (a stream cannot take them back),
// the rest is content, and the stream finishes with "stop", not "tool_calls".
TEST(BrokenCalls, AStreamSendsAHeaderOnlyWithArguments) {
  for (std::string text : {"<|channel|>commentary to=functions.f <|constrain|>json<|message|>not json<|call|>"}) {
    auto [m, made] = stream_one_byte(text, opts("harmony"));
    EXPECT_EQ(m.content, text);
    EXPECT_TRUE(m.tool_calls.empty());
    EXPECT_FALSE(made);
  }
  auto [g, made_g] = stream_one_byte("<tool_call>f<oops", opts("glm45"));
  EXPECT_EQ(g.content, "<tool_call>f<oops");
  EXPECT_TRUE(g.tool_calls.empty());
  auto [k, made_k] = stream_one_byte(
      "<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>{\"a\": "
      "<|tool_call_end|><|tool_calls_section_end|>",
      opts("kimi_k2"));
  ASSERT_EQ(k.tool_calls.size(), 1u);
  EXPECT_EQ(k.tool_calls[0].arguments, "{\"a\": ");
  EXPECT_EQ(k.content, "<|tool_call_end|><|tool_calls_section_end|>");
  EXPECT_FALSE(made_k);
  auto [ok, made_ok] = stream_one_byte("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", opts("hermes"));
  EXPECT_TRUE(made_ok);
}

// glm45 without newlines after the name (GLM-4.7), and with a literal backslash-n (GLM-4.6 as
// SGLang's tests write it): both separate the name from its arguments.
TEST(Glm45, NameEndsAtATagOrALiteralNewline) {
  auto o = coder();
  o.format = "glm45";
  for (bool partial : {true, false}) {
    o.partial_calls = partial;
    expect_calls(check("<tool_call>edit<arg_key>line</arg_key><arg_value>3</arg_value></tool_call>", o), {{"edit", "{\"line\": 3}"}});
    expect_calls(check("<tool_call>edit\\n<arg_key>line</arg_key>\\n<arg_value>3</arg_value>\\n</tool_call>", o),
                 {{"edit", "{\"line\": 3}"}});
    expect_calls(check("<tool_call>a\\b\n</tool_call>", o), {{"a\\b", "{}"}});
    // A value written with escaped quotes is read once unescaped when its type is not string.
    expect_calls(check("<tool_call>edit\\n<arg_key>opts</arg_key>\\n<arg_value>{\\\"k\\\": 1}</arg_value></tool_call>", o),
                 {{"edit", "{\"opts\": {\"k\": 1}}"}});
  }
}

// Arguments that are not a JSON object break the call; arguments complete when the output ends
// make a call without its end markers (hermes as vLLM, kimi_k2 as llama.cpp's tests).
TEST(BrokenCalls, ArgumentsMustBeAnObjectAndMayEndTheOutput) {
  for (bool partial : {true, false}) {
    auto m = check("<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>\"x\"<|tool_call_end|>", opts("kimi_k2", "none", partial));
    EXPECT_EQ(m.content, "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>\"x\"<|tool_call_end|>");
    expect_calls(m, {});
    m = check("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>[1]<｜tool▁call▁end｜><｜tool▁calls▁end｜>", opts("deepseek_v31", "none", partial));
    expect_calls(m, {});
    expect_calls(check("<|tool_call_begin|>functions.run:0<|tool_call_argument_begin|>{\"cmd\": \"ls\"}", opts("kimi_k2", "none", partial)),
                 {{"run", "{\"cmd\": \"ls\"}"}});
    expect_calls(check("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_", opts("hermes", "none", partial)),
                 {{"f", "{\"a\": 1}"}});
  }
}

// Found by fuzz_parse_deepseek_v3: a calls section that makes no call swallowed its markers.
// It is text as written; an empty harmony message still reads as an (empty) message.
TEST(BrokenCalls, ASectionWithoutCallsIsTextAsWritten) {
  for (bool partial : {true, false}) {
    auto m = check("<｜tool▁calls▁begin｜><｜tool▁calls▁end｜>x", opts("deepseek_v3", "none", partial));
    EXPECT_EQ(m.content, "<｜tool▁calls▁begin｜><｜tool▁calls▁end｜>x");
    m = check("<|tool_calls_section_begin|> <|tool_calls_section_end|>", opts("kimi_k2", "none", partial));
    EXPECT_EQ(m.content, "<|tool_calls_section_begin|> <|tool_calls_section_end|>");
    m = check("<|channel|>final<|message|><|end|>x", opts("harmony", "harmony", partial));
    EXPECT_EQ(m.content, "x");
  }
}

// Kimi-K2-Thinking calls tools in the middle of its reasoning: those calls are calls, and the
// reasoning goes on around them.
TEST(KimiK2, CallsInsideReasoning) {
  std::string text =
      "<think>I need two calls<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": 1}"
      "<|tool_call_end|><|tool_calls_section_end|> then answer</think>Done.<|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{}"
      "<|tool_call_end|>";
  for (bool partial : {true, false}) {
    auto m = check(text, opts("kimi_k2", "think", partial));
    EXPECT_EQ(m.reasoning_content, "I need two calls then answer");
    EXPECT_EQ(m.content, "Done.");
    expect_calls(m, {{"f", "{\"a\": 1}"}, {"g", "{}"}});
    EXPECT_EQ(m.tool_calls[0].id, "functions.f:0");
  }
  // Other formats keep calls written inside reasoning as reasoning.
  auto m = check("<think><tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call></think>", opts("hermes", "qwen3"));
  EXPECT_EQ(m.reasoning_content, "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>");
  expect_calls(m, {});
}

// qwen3_coder: a value whose </parameter> is missing ends at the next <parameter= or
// </function>, as vLLM recovers it.
TEST(Qwen3Coder, AMissingEndParameterEndsAtTheNextTag) {
  for (bool partial : {true, false}) {
    auto o = coder(partial);
    expect_calls(check("<tool_call>\n<function=edit>\n<parameter=path>\na<b\n<parameter=line>\n4\n</parameter>\n</function>\n</tool_call>", o),
                 {{"edit", "{\"path\": \"a<b\", \"line\": 4}"}});
    expect_calls(check("<tool_call>\n<function=edit>\n<parameter=line>\n4\n</function>\n</tool_call>", o), {{"edit", "{\"line\": 4}"}});
  }
}

// ---- pythonic ----

TEST(Pythonic, Calls) {
  std::string text =
      "[get_weather(city='San \"Fran\"', days=3, units=None), search(q=\"it's ü\", tags=['a', \"b\"], opts={'deep': True, 'n': -1.5}, "
      "pair=(1, 2),), ping()]";
  auto m = both(text, "pythonic");
  expect_calls(m, {{"get_weather", "{\"city\": \"San \\\"Fran\\\"\", \"days\": 3, \"units\": null}"},
                   {"search", "{\"q\": \"it's ü\", \"tags\": [\"a\", \"b\"], \"opts\": {\"deep\": true, \"n\": -1.5}, \"pair\": [1, 2]}"},
                   {"ping", "{}"}});
  EXPECT_EQ(m.content, "");
  m = both("<|python_start|>[f(x='\\\\n\\'')]<|python_end|>", "pythonic");
  expect_calls(m, {{"f", "{\"x\": \"\\\\n'\"}"}});
  EXPECT_EQ(m.content, "");
}

TEST(Pythonic, TextIsContent) {
  for (std::string text : {"[1] is a citation", "[Note](http://x) f(a=1)", "Call [f(a=1)] later", "[f(a=unknown)]"}) {
    auto m = check(text, opts("pythonic", "none", false));
    EXPECT_EQ(m.content, text);
    expect_calls(m, {});
  }
  // Calls are complete at their ")": a broken list keeps them (with either policy).
  auto m = check("[f(a=1) ; g()]", opts("pythonic", "none", false));
  expect_calls(m, {{"f", "{\"a\": 1}"}});
  EXPECT_EQ(m.content, " ; g()]");
  m = check("[f(a=[1, 2", opts("pythonic", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"a\": [1, ");  // a number is held to its end (2 could become 2j)
}

// ---- every format: random texts built from marker pieces ----

TEST(AllFormats, RandomTextsAreSplitInvariant) {
  const std::vector<std::string> pieces = {
      "<tool_call>", "</tool_call>", "[CALL_ID]", "abc123XYZ", "\n", " ", "{", "}", "[", "]", "(", ")", "\"", "'", ":", ",", ";", "\\", "=",
      "{\"name\": \"f\", \"arguments\": {\"a\": 1}}", "{\"name\": \"g\", \"parameters\": {}}", "\"name\"", "\"arguments\"",
      "<think>", "</think>", "<thi", "</tool", "[TOOL_CALLS]", "[ARGS]", "f", "x", "é", "日", "1", "true", "True", "None",
      "<|python_tag|>", "<function=f>", "<parameter=path>", "</parameter>", "</function>", "<arg_key>", "</arg_key>",
      "<arg_value>", "</arg_value>", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "function<｜tool▁sep｜>", "```json\n",
      "```", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", "<|tool_calls_section_begin|>", "<|tool_call_begin|>",
      "functions.f:0", "<|tool_call_argument_begin|>", "<|tool_call_end|>", "<|tool_calls_section_end|>", "<|start|>assistant",
      "<|channel|>", "analysis", "final", "commentary to=functions.f ", "<|constrain|>json", "<|message|>", "<|end|>", "<|call|>",
      "<|return|>", "f(a=1)", "<|python_start|>", "<|python_end|>"};
  std::mt19937 rng(123);
  for (auto& format : list_formats()) {
    for (const char* reasoning : {"none", "qwen3"}) {
      std::vector<std::string> all = pieces;  // and the family's own markers
      for (auto& m : parser_markers(opts(format, reasoning))) all.push_back(m);
      for (int n = 0; n < 150; ++n) {
        std::string text;
        int len = 1 + static_cast<int>(rng() % 24);
        for (int i = 0; i < len; ++i) text += all[rng() % all.size()];
        for (bool partial : {true, false}) {
          auto o = opts(format, reasoning, partial);
          if (format == "qwen3_coder" || format == "glm45") o.tools_json = coder().tools_json;
          ParsedMessage whole = stream(text, o, {});
          expect_whole_calls_valid(text, o);
          std::vector<std::size_t> one;
          for (std::size_t i = 1; i < text.size(); ++i) one.push_back(i);
          expect_same(stream(text, o, one), whole, format + " one byte: " + text);
          std::vector<std::size_t> cuts;
          for (std::size_t i = 1; i < text.size(); ++i)
            if (rng() % 5 == 0) cuts.push_back(i);
          expect_same(stream(text, o, cuts), whole, format + " random: " + text);
          if (!partial)
            for (auto& call : whole.tool_calls) EXPECT_TRUE(valid_json(call.arguments)) << format << ": " << text;
          if (HasFailure()) return;
        }
      }
    }
  }
}

TEST(AllFormats, MutatedCallsAreSplitInvariant) {
  const std::vector<std::pair<std::string, std::string>> samples = {
      {"hermes", "Hi <tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": [1, \"}\"]}}\n</tool_call>\n<tool_call>\n{\"name\": \"g\", \"arguments\": {}}\n</tool_call>"},
      {"llama3_json", "<|python_tag|>{\"name\": \"f\", \"parameters\": {\"a\": \"é\"}}; {\"name\": \"g\", \"parameters\": {}}"},
      {"llama3_json", "<|python_tag|>brave_search.call(query='a \\'b\\'', n=[1, (2, 3)])"},
      {"mistral", "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"a\": 1}}, {\"name\": \"g\", \"arguments\": {}}]"},
      {"mistral", "[TOOL_CALLS]f[ARGS]{\"a\": 1}[TOOL_CALLS]g[ARGS]{}"},
      {"mistral", "x[TOOL_CALLS]f[CALL_ID]a1B2c3D4e[ARGS]{\"a\": 1}[TOOL_CALLS]g{}"},
      {"pythonic", R"py([f(a='''x\'y''' "z", b=-0x_1f, c=(1, (2)), d=1_0.5e-1)])py"},
      {"qwen3_coder", "ok\n<tool_call>\n<function=edit>\n<parameter=path>\na\n</parameter>\n<parameter=line>\n4\n</parameter>\n</function>\n</tool_call>"},
      {"deepseek_v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>g\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
      {"deepseek_v31", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{\"a\": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
      {"kimi_k2", "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\": 1}<|tool_call_end|><|tool_calls_section_end|>"},
      {"glm45", "<tool_call>edit\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n<arg_key>line</arg_key>\n<arg_value>4</arg_value>\n</tool_call>"},
      {"harmony", "<|channel|>analysis<|message|>hm<|end|><|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1}<|call|>"},
      {"pythonic", "[f(a=1, b='x', c=[True, None], d={'k': (1, 2)}), g()]"},
  };
  std::vector<std::pair<std::string, std::string>> all = samples;  // and every family's example
  for (auto& f : format_infos())
    if (!f.example.empty()) all.emplace_back(f.name, f.example);
  std::mt19937 rng(99);
  for (auto& [format, sample] : all) {
    for (int n = 0; n < 300; ++n) {
      std::string text = sample;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        std::size_t at = rng() % text.size();
        switch (rng() % 4) {
          case 0: text.resize(at); break;                                      // cut off
          case 1: text.erase(at, 1); break;                                     // a byte lost
          case 2: text.insert(at, text.substr(at, rng() % 8)); break;           // a span repeated
          default: text.insert(at, std::string(1, "{}[]\"'<>|,:\n x"[rng() % 15]));  // a stray byte
        }
      }
      for (bool partial : {true, false}) {
        auto o = opts(format, "none", partial);
        o.tools_json = coder().tools_json;
        ParsedMessage whole = stream(text, o, {});
        std::vector<std::size_t> one;
        for (std::size_t i = 1; i < text.size(); ++i) one.push_back(i);
        expect_same(stream(text, o, one), whole, format + " one byte: " + text);
        std::vector<std::size_t> cuts;
        for (std::size_t i = 1; i < text.size(); ++i)
          if (rng() % 4 == 0) cuts.push_back(i);
        expect_same(stream(text, o, cuts), whole, format + " random: " + text);
        if (valid_json(json_quote_for_test(text)))  // the text is UTF-8 (a cut may split a character)
          expect_whole_calls_valid(text, o);
        if (HasFailure()) return;
      }
    }
  }
}

// Each family's example (format_infos) is two calls, or one where the family has no parallel
// form: get_weather {"city": "Paris", "days": 3}, then get_time {"tz": "Asia/Tokyo"}; streamed
// one byte at a time it gives the same.
TEST(AllFormats, EachExampleParsesToItsCalls) {
  const std::string tools = R"([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
      "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}, {"type": "function", "function":
      {"name": "get_time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}}])";
  for (auto& f : format_infos()) {
    if (f.name == "none") continue;
    EXPECT_FALSE(f.example.empty()) << f.name;
    EXPECT_FALSE(f.models.empty()) << f.name;
    for (bool partial : {true, false}) {
      auto o = opts(f.name, "none", partial);
      o.tools_json = tools;
      ParsedMessage m = parse_output(f.example, o);
      EXPECT_EQ(m.content, "") << f.name;
      ASSERT_GE(m.tool_calls.size(), 1u) << f.name << ": " << f.example;
      EXPECT_LE(m.tool_calls.size(), 2u) << f.name;
      EXPECT_EQ(m.tool_calls[0].name, "get_weather") << f.name;
      EXPECT_TRUE(same_json_text(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})")) << f.name << ": " << m.tool_calls[0].arguments;
      if (m.tool_calls.size() == 2) {
        EXPECT_EQ(m.tool_calls[1].name, "get_time") << f.name;
        EXPECT_TRUE(same_json_text(m.tool_calls[1].arguments, R"({"tz": "Asia/Tokyo"})")) << f.name;
      }
      std::vector<std::size_t> one;
      for (std::size_t i = 1; i < f.example.size(); ++i) one.push_back(i);
      expect_same(stream(f.example, o, one), m, f.name + " one byte");
    }
  }
}

TEST(OutputParser, RandomIdsAreUnique) {
  auto o = opts("hermes");
  o.id_seed = 0;
  std::string text = "<tool_call>{\"name\": \"a\"}</tool_call><tool_call>{\"name\": \"a\"}</tool_call>";
  auto m1 = parse_output(text, o), m2 = parse_output(text, o);
  ASSERT_EQ(m1.tool_calls.size(), 2u);
  EXPECT_NE(m1.tool_calls[0].id, m1.tool_calls[1].id);
  EXPECT_NE(m1.tool_calls[0].id, m2.tool_calls[0].id);
  EXPECT_EQ(m1.tool_calls[0].id.size(), 29u);
}

TEST(Hermes, NumbersAreCheckedStrictly) {
  auto m = both("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": -1.5e-3, \"b\": 0, \"c\": [10, 0.25E+2]}}</tool_call>", "hermes");
  expect_calls(m, {{"f", "{\"a\": -1.5e-3, \"b\": 0, \"c\": [10, 0.25E+2]}"}});
  for (std::string bad : {"01", "-", "1.", "1e", "1-2", "+1", ".5"}) {
    std::string text = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": " + bad + "}}</tool_call>";
    auto held = check(text, opts("hermes", "none", false));
    EXPECT_EQ(held.content, text) << bad;
    expect_calls(held, {});
    auto streamed = check(text, opts("hermes", "none", true));
    ASSERT_EQ(streamed.tool_calls.size(), 1u) << bad;
    EXPECT_FALSE(valid_json(streamed.tool_calls[0].arguments)) << bad;  // kept as streamed: a valid prefix
  }
}

// ---- pythonic: vLLM's pythonic and llama4_pythonic parser tests (their inputs and expected calls) ----

TEST(Pythonic, VllmReferenceCases) {
  const std::string weather = "get_weather(city='San Francisco', metric='celsius')";
  const std::string weather_json = R"({"city": "San Francisco", "metric": "celsius"})";
  const std::string user =
      "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, "
      "passed_test=True, aliases=['John', 'Johnny'])";
  const std::string user_json =
      R"({"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, )"
      R"("passed_test": true, "aliases": ["John", "Johnny"]})";
  auto m = both("How can I help you today?", "pythonic");
  EXPECT_EQ(m.content, "How can I help you today?");
  expect_calls(m, {});
  expect_calls(both("[" + weather + "]", "pythonic"), {{"get_weather", weather_json}});
  expect_calls(both("[" + user + "]", "pythonic"), {{"register_user", user_json}});
  expect_calls(both("[get_weather()]", "pythonic"), {{"get_weather", "{}"}});
  expect_calls(both("[do_something_cool(additional_data={})]", "pythonic"),
               {{"do_something_cool", R"({"additional_data": {}})"}});
  expect_calls(both("[do_something_cool(steps=[])]", "pythonic"), {{"do_something_cool", R"({"steps": []})"}});
  expect_calls(both(R"py([get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')])py", "pythonic"),
               {{"get_weather", R"({"city": "Martha's Vineyard", "metric": "\"cool units\""})"}});
  m = both("[" + weather + ", " + user + "]", "pythonic");
  expect_calls(m, {{"get_weather", weather_json}, {"register_user", user_json}});
  EXPECT_EQ(m.content, "");
  expect_calls(both("[" + weather + ", get_weather(), do_something_cool(steps=[])]", "pythonic"),
               {{"get_weather", weather_json}, {"get_weather", "{}"}, {"do_something_cool", R"({"steps": []})"}});
  // llama4_pythonic: the list inside <|python_start|> ... <|python_end|>, with or without the end tag.
  const std::string la = R"({"city": "LA", "metric": "C"})", doe = R"({"name": "Doe", "age": 9})";
  expect_calls(both("<|python_start|>[get_weather(city='LA', metric='C')]<|python_end|>", "pythonic"),
               {{"get_weather", la}});
  expect_calls(both("[get_weather(city='LA',metric='C'),register_user(name='Doe',age=9)]", "pythonic"),
               {{"get_weather", la}, {"register_user", doe}});
  expect_calls(
      both("<|python_start|>[get_weather(city='LA', metric='C'),register_user(name='Doe', age=9)]", "pythonic"),
      {{"get_weather", la}, {"register_user", doe}});
  // vLLM's regex-timeout input: text, never a call.
  std::string odd = "hello world[A(A=\t)A(A=,\t\t)A(A=,\t";
  m = both(odd, "pythonic");
  EXPECT_EQ(m.content, odd);
  expect_calls(m, {});
}

// Values as Python's ast.literal_eval reads them (each expected JSON checked against
// json.dumps(ast.literal_eval(value)) when written).
TEST(Pythonic, LiteralsAsPythonReadsThem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"py('''a'b''c''')py", R"("a'b''c")"},
      {R"py("""x\ny""")py", R"("x\ny")"},
      {"'''l1\nl2'''", R"("l1\nl2")"},
      {"'''a\r\nb\rc'''", R"("a\nb\nc")"},  // newlines in the source read as \n
      {R"py('\x41\101\u00e9\U0001F600')py", "\"AAé😀\""},
      {R"py('\777')py", "\"ǿ\""},
      {R"py('\d\8')py", R"("\\d\\8")"},  // unknown escapes keep their backslash
      {R"py(r'\n\'')py", R"("\\n\\'")"},
      {R"py(R'a\\b')py", R"("a\\\\b")"},
      {"u'x'", R"("x")"},
      {"'a' 'b'", R"("ab")"},
      {R"py('a' r'\n' u'c')py", R"("a\\nc")"},
      {"'a'\n  \"b\"", R"("ab")"},
      {R"py('tab\there')py", R"("tab\there")"},
      {R"py('\a\b\f\v\0')py", R"("\u0007\b\f\u000b\u0000")"},
      {"'\\\nx'", R"("x")"},  // backslash-newline continues the line
      {"''", R"("")"},
      {"''''''", R"("")"},
      {"'' 'x'", R"("x")"},
      {"'é日本'", "\"é日本\""},
      {"1_000", "1000"},
      {"-5", "-5"},
      {"+5", "5"},
      {"- 5", "-5"},
      {"-0", "0"},
      {"-0.0", "-0.0"},
      {"0x_1f", "31"},
      {"0XFF", "255"},
      {"0o17", "15"},
      {"0b1010", "10"},
      {"0xFFFFFFFFFFFFFFFF", "18446744073709551615"},
      {"1.", "1.0"},
      {".5", "0.5"},
      {"-.5", "-0.5"},
      {"1.e5", "1.0e5"},
      {"1e-3", "1e-3"},
      {"1E+05", "1e05"},
      {"00", "0"},
      {"0_0", "0"},
      {"007.5", "7.5"},
      {"00e1", "0e1"},
      {"1_0.0_1", "10.01"},
      {"True", "true"},
      {"False", "false"},
      {"None", "null"},
      {"()", "[]"},
      {"(1)", "1"},
      {"((1))", "1"},
      {"(1,)", "[1]"},
      {"(  )", "[]"},
      {"((1, 2), 3)", "[[1, 2], 3]"},
      {"([1], (2,))", "[[1], [2]]"},
      {"{'a': (1)}", R"({"a": 1})"},
      {"{'a': [1, {'b': None}], \"c\": ()}", R"({"a": [1, {"b": null}], "c": []})"},
      {"[1, 2,]", "[1, 2]"},
      {"{'k': 1,}", R"({"k": 1})"},
  };
  for (auto& [value, json] : cases) {
    std::string text = "[f(x=" + value + ")]";
    auto m = both(text, "pythonic");
    expect_calls(m, {{"f", "{\"x\": " + json + "}"}});
    EXPECT_EQ(m.content, "") << value;
  }
  // Integers have no bound in Python (nor in JSON's grammar).
  auto big = parse_output("[f(x=0xFFFFFFFFFFFFFFFFFFFFFFFF)]", opts("pythonic"));
  ASSERT_EQ(big.tool_calls.size(), 1u);
  EXPECT_EQ(big.tool_calls[0].arguments, "{\"x\": 79228162514264337593543950335}");
  // What Python would not read, or reads as a value JSON has no form for: a malformed call.
  // (-(1) and {1: 2} are read by Python; see docs/output_parsing.md.)
  for (std::string value :
       {"01",    "1__0",  "1_",     "0x",    "1j",    "1e",          "1e+",      "b'x'",          "f'x'",
        "--1",   "-(1)",  "{1: 2}", "{'a'}", "inf",   "'\\N{DASH}'", "'\\x4'",   "'\\U00110000'", "'a\nb'",
        "[1 2]", "(1 2)", "1.2.3",  "0x1.5", "set()", "...",         "'a' b'c'", "'a' 1",         "()()",
        "1..2",  "0b102", "0o8",    "'open"}) {
    std::string text = "[f(x=" + value + ")]";
    auto m = check(text, opts("pythonic", "none", false));
    EXPECT_EQ(m.content, text) << value;
    expect_calls(m, {});
  }
  // Keyword arguments: Python's reserved words and repeated names are not calls.
  for (std::string text : {"[f(class=1)]", "[f(a=1, a=2)]", "[None()]", "[f(1)]"}) {
    auto m = check(text, opts("pythonic", "none", false));
    EXPECT_EQ(m.content, text);
    expect_calls(m, {});
  }
}

TEST(Pythonic, TuplesStreamOnceKnown) {
  OutputParser p(opts("pythonic"));
  std::vector<ChatDelta> out;
  p.feed("[f(x=(1", out);
  std::string args;
  for (auto& d : out) args += d.text;
  EXPECT_EQ(args, "{\"x\": ");  // (1 ... may be 1 or a tuple
  out.clear();
  p.feed(", 2", out);
  args.clear();
  for (auto& d : out) args += d.text;
  EXPECT_EQ(args, "[1, ");
}

// ---- mistral: vLLM's mistral tool parser tests (pre-v11 and v11 tokenizers) and mistral-common's forms ----

TEST(Mistral, VllmReferenceCases) {
  const std::string weather = R"({"city": "San Francisco", "state": "CA", "unit": "celsius"})";
  auto m = both("This is a test", "mistral");
  EXPECT_EQ(m.content, "This is a test");
  expect_calls(m, {});
  expect_calls(both(R"([TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}])", "mistral"),
               {{"add", R"({"a": 3.5, "b": 4})"}});
  expect_calls(both(R"([TOOL_CALLS] [{"name": "get_current_weather", "arguments":)" + weather + "}]", "mistral"),
               {{"get_current_weather", weather}});
  expect_calls(both(R"([TOOL_CALLS] [{"arguments":)" + weather + R"(, "name": "get_current_weather"}])", "mistral"),
               {{"get_current_weather", weather}});  // arguments before the name
  expect_calls(both(R"([TOOL_CALLS] [{"arguments":{"name": "John Doe"}, "name": "get_age"}])", "mistral"),
               {{"get_age", R"({"name": "John Doe"})"}});  // "name" inside the arguments
  expect_calls(both(R"([TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ])", "mistral"),
               {{"add", R"({"a": 3, "b": 4})"}});
  expect_calls(both(R"([TOOL_CALLS] [{"name": "add", "arguments":{"a": "3", "b": "4"}}])", "mistral"),
               {{"add", R"({"a": "3", "b": "4"})"}});
  m = both(R"([TOOL_CALLS] [{"arguments": {"a": 3.5, "b": 4}, "name": "add"}, {"arguments":)" + weather +
               R"(, "name": "get_current_weather"}])",
           "mistral");
  expect_calls(m, {{"add", R"({"a": 3.5, "b": 4})"}, {"get_current_weather", weather}});
  EXPECT_EQ(m.content, "");
  // v11: the text as vLLM's tests write it, [ARGS] already dropped with the special tokens.
  expect_calls(both(R"([TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4})", "mistral"),
               {{"add_this_and_that", R"({"a": 3.5, "b": 4})"}});
  expect_calls(both("[TOOL_CALLS]get_current_weather" + weather, "mistral"), {{"get_current_weather", weather}});
  m = both(R"([TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6})", "mistral");
  expect_calls(m, {{"add", R"({"a": 3.5, "b": 4})"}, {"multiply", R"({"a": 3, "b": 6})"}});
  m = both(R"(bla[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4})", "mistral");
  EXPECT_EQ(m.content, "bla");
  expect_calls(m, {{"add_this_and_that", R"({"a": 3.5, "b": 4})"}});
  // vLLM's "multiple_tools" streaming case lacks the second call's closing brace; vLLM's partial
  // JSON completion hides that. Here the call is complete at its arguments' "}" and the stray "]"
  // is content (with partial calls); held calls keep the first.
  std::string missing_brace =
      R"([TOOL_CALLS][{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", "arguments":)" +
      weather + "]";
  m = check(missing_brace, opts("mistral", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[1].arguments, weather);
  EXPECT_EQ(m.content, "]");
  m = check(missing_brace, opts("mistral", "none", false));
  expect_calls(m, {{"add", R"({"a": 3.5, "b": 4})"}});
}

TEST(Mistral, CallIdFromTheText) {
  // mistral-common: [TOOL_CALLS]name[CALL_ID]id[ARGS]{...}
  auto m = both(
      "Sure.[TOOL_CALLS]get_weather[CALL_ID]abc123xyz[ARGS]{\"city\": "
      "\"Paris\"}[TOOL_CALLS]ping[CALL_ID]Q9w8E7r6T[ARGS]{}",
      "mistral");
  expect_calls(m, {{"get_weather", R"({"city": "Paris"})"}, {"ping", "{}"}});
  EXPECT_EQ(m.tool_calls[0].id, "abc123xyz");
  EXPECT_EQ(m.tool_calls[1].id, "Q9w8E7r6T");
  EXPECT_EQ(m.content, "Sure.");
  // The id streams with the header, once [ARGS] has ended it.
  OutputParser p(opts("mistral"));
  std::vector<ChatDelta> out;
  p.feed("[TOOL_CALLS]f[CALL_ID]abc123xyz[ARG", out);
  EXPECT_TRUE(out.empty());
  p.feed("S]{\"a\"", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, "abc123xyz");
  EXPECT_EQ(out[0].name, "f");
  EXPECT_EQ(out[0].text, "{\"a\"");
  // The array form's "id": mistral-common writes it first; Nemo's template (and llama.cpp's test)
  // last, which comes too late for a streamed header: held calls take it.
  std::string ids =
      R"([TOOL_CALLS][{"id": "a1b2c3d4e", "name": "f", "arguments": {}}, {"name": "g", "arguments": {}, "id": "z9y8x7w6v"}])";
  m = both(ids, "mistral");
  expect_calls(m, {{"f", "{}"}, {"g", "{}"}});
  EXPECT_EQ(m.tool_calls[0].id, "a1b2c3d4e");
  EXPECT_NE(m.tool_calls[1].id, "z9y8x7w6v");
  auto held = check(ids, opts("mistral", "none", false));
  EXPECT_EQ(held.tool_calls[0].id, "a1b2c3d4e");
  EXPECT_EQ(held.tool_calls[1].id, "z9y8x7w6v");
  held = check(R"([TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}])",
               opts("mistral", "none", false));
  expect_calls(held, {{"special_function", R"({"arg1": 1})"}});
  EXPECT_EQ(held.tool_calls[0].id, "123456789");
  // Generated ids: 9 letters and digits, which Mistral's templates require of the history.
  EXPECT_EQ(m.tool_calls[1].id.size(), 9u);
  // Malformed: an empty id, a missing [ARGS].
  for (std::string text :
       {"[TOOL_CALLS]f[CALL_ID][ARGS]{}", "[TOOL_CALLS]f[CALL_ID]abc{}", "[TOOL_CALLS]f[CALL_ID]ab c[ARGS]{}"}) {
    m = check(text, opts("mistral", "none", false));
    EXPECT_EQ(m.content, text);
    expect_calls(m, {});
  }
}

// ---- reasoning: vLLM's deepseek_r1, qwen3 and mistral reasoning parser tests; llama.cpp's ----

namespace {
struct ReasoningCase {
  std::string output, reasoning, content;
};
void expect_reasoning(const std::vector<ReasoningCase>& cases, const OutputParserOptions& o) {
  for (auto& c : cases) {
    auto m = check(c.output, o);
    EXPECT_EQ(m.reasoning_content, c.reasoning) << c.output;
    EXPECT_EQ(m.content, c.content) << c.output;
  }
}
}  // namespace

TEST(Reasoning, VllmDeepSeekR1Cases) {
  expect_reasoning(
      {{"This is a reasoning section</think>This is the rest", "This is a reasoning section", "This is the rest"},
       {"This is a reasoning section</think>", "This is a reasoning section", ""},
       {"This is content", "This is content", ""},  // no </think> yet: all reasoning
       {"This\nThat</think>This is the rest\nThat", "This\nThat", "This is the rest\nThat"},
       {"</think>This is the rest", "", "This is the rest"},
       {"<think>This is a reasoning section</think>This is the rest", "This is a reasoning section",
        "This is the rest"},
       {"<think>This is a reasoning section</think>", "This is a reasoning section", ""},
       {"<think>This\nThat</think>This is the rest\nThat", "This\nThat", "This is the rest\nThat"},
       {"<think>This is a reasoning section", "This is a reasoning section", ""},
       {"", "", ""},
       // vLLM's streaming result; its non-streaming one drops the newline before <think>.
       {"\n<think>This is a reasoning section</think>\nThis is the rest", "\nThis is a reasoning section",
        "\nThis is the rest"},
       // llama.cpp (DeepSeek-R1 distills, DeepSeek-V3.1 with thinking): it also trims whitespace.
       {"I'm\nthinking</think>Hello, world!\nWhat's up?", "I'm\nthinking", "Hello, world!\nWhat's up?"}},
      opts("none", "deepseek_r1"));
}

TEST(Reasoning, VllmQwen3Cases) {
  expect_reasoning({{"<think>This is a reasoning section</think>This is the rest", "This is a reasoning section",
                     "This is the rest"},
                    {"This is the rest", "", "This is the rest"},
                    {"<think>This is a reasoning section</think>", "This is a reasoning section", ""},
                    {"<think>This is a reasoning\nsection</think>This is the rest\nThat",
                     "This is a reasoning\nsection", "This is the rest\nThat"},
                    // vLLM: reasoning when streamed, content when not; here reasoning either way.
                    {"<think>This is a reasoning section", "This is a reasoning section", ""}},
                   opts("hermes", "qwen3"));
  // Qwen3 Thinking models open <think> in the prompt: vLLM infers it from a lone </think> (not
  // when streaming); here the template says so (detect_format's starts_in_reasoning).
  auto o = opts("hermes", "qwen3");
  o.starts_in_reasoning = true;
  expect_reasoning(
      {{"This is a reasoning section</think>This is the rest", "This is a reasoning section", "This is the rest"},
       {"This is a reasoning section</think>", "This is a reasoning section", ""},
       {"This is a reasoning\nsection</think>This is the rest\nThat", "This is a reasoning\nsection",
        "This is the rest\nThat"}},
      o);
  // llama.cpp: QwQ-32B and Nemotron-3 Nano open <think> in the prompt (llama.cpp trims the
  // whitespace around both parts; here it stays as written).
  auto m = check("Let me think about this...\n</think>\nThe answer is 42.", o);
  EXPECT_EQ(m.reasoning_content, "Let me think about this...\n");
  EXPECT_EQ(m.content, "\nThe answer is 42.");
  m = check(
      "I should use a tool\n</think>\n<tool_call>\n{\"name\": \"special_function\", \"arguments\": {\"arg1\": "
      "1}}\n</tool_call>",
      o);
  EXPECT_EQ(m.reasoning_content, "I should use a tool\n");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}});
  m = check("I'm\nthinking\n</think>\nHello, world!\nWhat's up?", o);
  EXPECT_EQ(m.reasoning_content, "I'm\nthinking\n");
  EXPECT_EQ(m.content, "\nHello, world!\nWhat's up?");
}

TEST(Reasoning, VllmMistralCases) {
  expect_reasoning({{"[THINK]This is a reasoning section[/THINK]This is the rest", "This is a reasoning section",
                     "This is the rest"},
                    {"[THINK]This is a reasoning section[/THINK]", "This is a reasoning section", ""},
                    {"[THINK]This\nThat[/THINK]This is the rest\nThat", "This\nThat", "This is the rest\nThat"},
                    {"[THINK]This is a reasoning section", "This is a reasoning section", ""},
                    {"", "", ""},
                    // vLLM drops (non-streaming) or moves into reasoning (streaming) the leading newline.
                    {"\n[THINK]This is a reasoning section[/THINK]\nThis is the rest", "This is a reasoning section",
                     "\n\nThis is the rest"},
                    // Magistral writes [THINK] itself: without it the answer is content (vLLM reads
                    // it as reasoning, as if the prompt had opened [THINK]).
                    {"This is content", "", "This is content"}},
                   opts("mistral", "mistral"));
  auto o = opts("mistral", "mistral");
  o.starts_in_reasoning = true;  // vLLM's reading: text before [/THINK] is reasoning
  expect_reasoning(
      {{"This is a reasoning section[/THINK]This is the rest", "This is a reasoning section", "This is the rest"},
       {"This\nThat[/THINK]This is the rest\nThat", "This\nThat", "This is the rest\nThat"},
       {"[/THINK]This is the rest", "", "This is the rest"},
       {"This is content", "This is content", ""}},
      o);
  // llama.cpp (Ministral-3 Reasoning): reasoning, then a v11 call.
  auto m = both("[THINK]I'm\nthinking[/THINK][TOOL_CALLS]special_function[ARGS]{\"arg1\":1}", "mistral", "mistral");
  EXPECT_EQ(m.reasoning_content, "I'm\nthinking");
  EXPECT_EQ(m.content, "");
  expect_calls(m, {{"special_function", R"({"arg1":1})"}});
}

// ---- hermes: vLLM's hermes parser test (QwQ-32B), llama.cpp's and SGLang's ----

TEST(Hermes, ReferenceCases) {
  // vLLM: QwQ-32B thinks (its prompt opens <think>), then calls; Chinese arguments stay as written,
  // the whitespace after the call is dropped. Streamed in vLLM's own token pieces, and every split.
  const std::string reasoning =
      "好的，用户现在要研发一个5MW的燃气轮机，需要确定总体参数。\n\n首先，燃气轮机的功率主要由热力学循环参数决定。\n";
  const std::vector<std::string> pieces = {"<tool_call>",
                                           "\n",
                                           "{\"",
                                           "name",
                                           "\":",
                                           " \"",
                                           "internet",
                                           "_search",
                                           "\",",
                                           " \"",
                                           "arguments",
                                           "\":",
                                           " {\"",
                                           "question",
                                           "\":",
                                           " \"",
                                           "5",
                                           "MW",
                                           "燃气",
                                           "轮",
                                           "机",
                                           "设计",
                                           "参数",
                                           "",
                                           "",
                                           " 空",
                                           "气",
                                           "流量",
                                           "",
                                           "",
                                           " 压",
                                           "气",
                                           "机",
                                           "压",
                                           "比",
                                           "",
                                           "",
                                           " 转",
                                           "速",
                                           "",
                                           "",
                                           " 燃",
                                           "烧",
                                           "室",
                                           "出口",
                                           "温度",
                                           "",
                                           "",
                                           " 压",
                                           "气",
                                           "机",
                                           "级",
                                           "数",
                                           "",
                                           " 支",
                                           "点",
                                           "布局",
                                           "\"}",
                                           "}\n",
                                           "</tool_call>",
                                           ""};
  std::string calls;
  for (auto& p : pieces) calls += p;
  const std::string args =
      R"({"question": "5MW燃气轮机设计参数 空气流量 压气机压比 转速 燃烧室出口温度 压气机级数 支点布局"})";
  auto o = opts("hermes", "qwen3");
  o.starts_in_reasoning = true;
  std::string text = reasoning + "</think>\n\n" + calls + "\n\n ";
  auto m = check(text, o);
  EXPECT_EQ(m.reasoning_content, reasoning);
  EXPECT_EQ(m.content, "\n\n");
  expect_calls(m, {{"internet_search", args}});
  OutputParser p(opts("hermes"));
  std::vector<ChatDelta> deltas;
  for (auto& piece : pieces) p.feed(piece, deltas);
  p.finish(deltas);
  ParsedMessage streamed;
  merge_deltas(deltas, streamed);
  expect_calls(streamed, {{"internet_search", args}});
  EXPECT_EQ(streamed.content, "");
  // llama.cpp (Hermes 2 Pro / 3, Qwen2.5, MiMo-VL), SGLang (Qwen2.5).
  expect_calls(
      both("<tool_call>\n{\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}\n</tool_call>", "hermes"),
      {{"special_function", R"({"arg1": 1})"}});
  m = both(
      "Hello, world!\nWhat's up?<tool_call>\n{\"name\": \"special_function\", \"arguments\": {\"arg1\": "
      "1}}\n</tool_call>",
      "hermes");
  EXPECT_EQ(m.content, "Hello, world!\nWhat's up?");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}});
  expect_calls(both(R"(<tool_call>{"name": "get_time", "arguments": {"timezone": "UTC"}}</tool_call>)", "hermes"),
               {{"get_time", R"({"timezone": "UTC"})"}});
  m = both("Hello, world!\nWhat's up?", "hermes");
  EXPECT_EQ(m.content, "Hello, world!\nWhat's up?");
  expect_calls(m, {});
}

// ---- llama3_json: vLLM's llama3_json parser tests, SGLang's llama32 detector tests, llama.cpp's ----

TEST(Llama3Json, ReferenceCases) {
  auto m = both(R"({"name": "searchTool", "parameters": {"query": "test query", "limit": 10}})", "llama3_json");
  expect_calls(m, {{"searchTool", R"({"query": "test query", "limit": 10})"}});
  m = both("This is just some text without any tool calls", "llama3_json");
  EXPECT_EQ(m.content, "This is just some text without any tool calls");
  expect_calls(both(R"({"name": "searchTool", "arguments": {"query": "test"}})", "llama3_json"),
               {{"searchTool", R"({"query": "test"})"}});
  // Parallel calls: vLLM joins them with "; " (its streaming skips exactly two bytes; its
  // non-streaming reading allows any whitespace around ";"), SGLang with ";". Llama's own
  // templates allow one call per message; llama.cpp reads one.
  for (std::string sep : {"; ", " ; ", ";", "\n", ";\n"}) {
    m = both(R"({"name": "searchTool", "parameters": {"query": "test1"}})" + sep +
                 R"({"name": "getOpenIncidentsTool", "parameters": {}})" + sep +
                 R"({"name": "searchTool", "parameters": {"query": "test2"}})",
             "llama3_json");
    expect_calls(m, {{"searchTool", R"({"query": "test1"})"},
                     {"getOpenIncidentsTool", "{}"},
                     {"searchTool", R"({"query": "test2"})"}});
    EXPECT_EQ(m.content, "");
  }
  expect_calls(
      both(
          R"({"name": "complexTool", "parameters": {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}}})",
          "llama3_json"),
      {{"complexTool", R"({"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}})"}});
  expect_calls(
      both(
          R"({"name": "simpleTool", "parameters": {"value": "test"}}; {"name": "complexTool", "parameters": {"config": {"database": {"connection": {"pool": {"size": 10}}}}}})",
          "llama3_json"),
      {{"simpleTool", R"({"value": "test"})"},
       {"complexTool", R"({"config": {"database": {"connection": {"pool": {"size": 10}}}}})"}});
  expect_calls(
      both(
          R"({"name": "searchTool", "parameters": {"query": "test {value} [complex]","nested": {"inner": "more {brackets}"}}})",
          "llama3_json"),
      {{"searchTool", R"({"query": "test {value} [complex]","nested": {"inner": "more {brackets}"}})"}});
  expect_calls(both(R"({"name": "parserTool", "parameters": {"text": "He said \"Hello {world}\""}})", "llama3_json"),
               {{"parserTool", R"({"text": "He said \"Hello {world}\""})"}});
  // vLLM's invalid JSON: held calls give it back as content; streamed ones keep the header and
  // the arguments' valid prefix.
  std::string invalid = R"({"name": "invalidTool", "parameters": {invalid json})";
  m = check(invalid, opts("llama3_json", "none", false));
  EXPECT_EQ(m.content, invalid);
  expect_calls(m, {});
  m = check(invalid, opts("llama3_json", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{");
  EXPECT_EQ(m.content, "invalid json}");
  // vLLM's non-streaming reading finds JSON after text (its streaming does not): here a bare "{"
  // opens calls only at the start of the output, so text that shows JSON stays text.
  std::string after_text =
      R"(Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?)";
  m = both(after_text, "llama3_json");
  EXPECT_EQ(m.content, after_text);
  expect_calls(m, {});
  // SGLang: <|python_tag|> after text; ";" without a space.
  m = both(R"(Let me check. <|python_tag|>{"name": "get_weather", "arguments": {"city": "Tokyo"}})", "llama3_json");
  EXPECT_EQ(m.content, "Let me check. ");
  expect_calls(m, {{"get_weather", R"({"city": "Tokyo"})"}});
  expect_calls(
      both(
          R"(<|python_tag|>{"name": "get_weather", "arguments": {"city": "Beijing"}};{"name": "search", "arguments": {"query": "restaurants"}})",
          "llama3_json"),
      {{"get_weather", R"({"city": "Beijing"})"}, {"search", R"({"query": "restaurants"})"}});
  // llama.cpp: Llama 3.x may write "type": "function" before the name.
  expect_calls(both(R"({"type": "function", "name": "special_function", "parameters": {"arg1": 1}})", "llama3_json"),
               {{"special_function", R"({"arg1": 1})"}});
}

// ---- kimi_k2: vLLM's kimi_k2 parser tests, llama.cpp's ----

TEST(KimiK2, ReferenceCases) {
  const std::string intro = "I'll help you check the weather. ";
  auto m = both(intro +
                    "<|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.get_weather:0 "
                    "<|tool_call_argument_begin|> {\"city\": "
                    "\"Beijing\"} <|tool_call_end|> <|tool_calls_section_end|>",
                "kimi_k2");
  EXPECT_EQ(m.content, intro);
  expect_calls(m, {{"get_weather", R"({"city": "Beijing"})"}});
  EXPECT_EQ(m.tool_calls[0].id, "functions.get_weather:0");
  m = both(intro +
               "<|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.get_weather:0 <|tool_call_argument_begin|> "
               "{\"city\": "
               "\"Beijing\"} <|tool_call_end|> <|tool_call_begin|>\nfunctions.get_weather:1 "
               "<|tool_call_argument_begin|> {\"city\": "
               "\"Shanghai\"} <|tool_call_end|> <|tool_calls_section_end|>",
           "kimi_k2");
  EXPECT_EQ(m.content, intro);
  expect_calls(m, {{"get_weather", R"({"city": "Beijing"})"}, {"get_weather", R"({"city": "Shanghai"})"}});
  EXPECT_EQ(m.tool_calls[1].id, "functions.get_weather:1");
  m = both(
      "First the weather, then the news. "
      "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
      "{\"latitude\": 34.0522, \"longitude\": "
      "-118.2437}<|tool_call_end|><|tool_call_begin|>functions.get_news:1<|tool_call_argument_begin|>"
      "{\"content\": \"Los Angeles today\"}<|tool_call_end|><|tool_calls_section_end|>",
      "kimi_k2");
  expect_calls(m, {{"get_weather", R"({"latitude": 34.0522, "longitude": -118.2437})"},
                   {"get_news", R"({"content": "Los Angeles today"})"}});
  m = both(
      "I'll help you with multiple tasks. "
      "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
      "{\"city\": \"New "
      "York\"}<|tool_call_end|><|tool_call_begin|>functions.get_news:1<|tool_call_argument_begin|>{\"topic\": "
      "\"technology\"}<|tool_call_end|><|tool_call_begin|>functions.send_email:2<|tool_call_argument_begin|>{\"to\": "
      "\"user@example.com\", \"subject\": \"Daily Update\"}<|tool_call_end|><|tool_calls_section_end|>",
      "kimi_k2");
  expect_calls(m, {{"get_weather", R"({"city": "New York"})"},
                   {"get_news", R"({"topic": "technology"})"},
                   {"send_email", R"({"to": "user@example.com", "subject": "Daily Update"})"}});
  EXPECT_EQ(m.tool_calls[2].id, "functions.send_email:2");
  m = both(
      "Mixed spacing test. <|tool_calls_section_begin|> <|tool_call_begin|> functions.test:0 "
      "<|tool_call_argument_begin|> {} "
      "<|tool_call_end|><|tool_call_begin|>functions.test2:1<|tool_call_argument_begin|>{}<|tool_call_end|> "
      "<|tool_calls_section_end|>",
      "kimi_k2");
  EXPECT_EQ(m.content, "Mixed spacing test. ");
  expect_calls(m, {{"test", "{}"}, {"test2", "{}"}});
  m = both(
      "I need to process HTML content. "
      "<|tool_calls_section_begin|><|tool_call_begin|>functions.process_html:0<|tool_call_argument_begin|>"
      "{\"html\": \"<div>content</div>\", \"text\": \"normal text\"}<|tool_call_end|><|tool_calls_section_end|>",
      "kimi_k2");
  expect_calls(m, {{"process_html", R"({"html": "<div>content</div>", "text": "normal text"})"}});
  m = both(
      "I need to process formatted JSON. "
      "<|tool_calls_section_begin|><|tool_call_begin|>functions.process_data:0<|tool_call_argument_begin|>"
      "{\n  \"name\": \"test\",\n  \"value\": 123,\n  \"nested\": {\n    \"key\": \"value\"\n  "
      "}\n}<|tool_call_end|><|tool_calls_section_end|>",
      "kimi_k2");
  expect_calls(m, {{"process_data",
                    "{\n  \"name\": \"test\",\n  \"value\": 123,\n  \"nested\": {\n    \"key\": \"value\"\n  }\n}"}});
  // vLLM returns both calls of a section whose first call's JSON is broken; so do streamed calls
  // here (the first with its arguments' valid prefix). Held calls keep only the valid one.
  std::string broken_json =
      intro +
      "<|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.invalid_get_weather:0 <|tool_call_argument_begin|> "
      "{\"city\": \"Beijing\" <|tool_call_end|> <|tool_call_begin|>\nfunctions.valid_get_weather:1 "
      "<|tool_call_argument_begin|> {\"city\": \"Shanghai\"} <|tool_call_end|> <|tool_calls_section_end|>";
  m = check(broken_json, opts("kimi_k2", "none", true));
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].name, "invalid_get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"city\": \"Beijing\" ");
  EXPECT_EQ(m.tool_calls[1].arguments, R"({"city": "Shanghai"})");
  EXPECT_EQ(m.content, intro + "<|tool_call_end|> ");
  m = check(broken_json, opts("kimi_k2", "none", false));
  expect_calls(m, {{"valid_get_weather", R"({"city": "Shanghai"})"}});
  // vLLM skips a call whose id is malformed and keeps the next; the malformed text is content here.
  std::string broken_id =
      intro +
      "<|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.invalid_get_weather.0 <|tool_call_argument_begin|> "
      "{\"city\": \"Beijing\"} <|tool_call_end|> <|tool_call_begin|>\nfunctions.valid_get_weather:1 "
      "<|tool_call_argument_begin|> {\"city\": \"Shanghai\"} <|tool_call_end|> <|tool_calls_section_end|>";
  m = both(broken_id, "kimi_k2");
  expect_calls(m, {{"valid_get_weather", R"({"city": "Shanghai"})"}});
  EXPECT_EQ(m.content, intro +
                           "<|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.invalid_get_weather.0 "
                           "<|tool_call_argument_begin|> "
                           "{\"city\": \"Beijing\"} <|tool_call_end|> ");
  m = both("This is a test", "kimi_k2");
  EXPECT_EQ(m.content, "This is a test");
  // llama.cpp (Kimi-K2, Kimi-K2-Instruct, Kimi-K2-Thinking).
  expect_calls(both("<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_"
                    "begin|>{\"arg1\": 1}"
                    "<|tool_call_end|><|tool_calls_section_end|>",
                    "kimi_k2"),
               {{"special_function", R"({"arg1": 1})"}});
}

// ---- glm45: vLLM's glm4_moe parser tests, llama.cpp's ----

TEST(Glm45, ReferenceCases) {
  auto o = opts("glm45");
  const std::string dallas = R"({"city": "Dallas", "state": "TX", "unit": "fahrenheit"})";
  std::string one =
      "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    "
      "<arg_key>state</arg_key>\n"
      "    <arg_value>TX</arg_value>\n    <arg_key>unit</arg_key>\n    <arg_value>fahrenheit</arg_value>\n    "
      "</tool_call>";
  auto m = both(one, "glm45");
  expect_calls(m, {{"get_current_weather", dallas}});
  EXPECT_EQ(m.content, "");
  m = both(one + "\n    " +
               "<tool_call>get_current_weather\n    <arg_key>city</arg_key>\n    <arg_value>Orlando</arg_value>\n    "
               "<arg_key>state"
               "</arg_key>\n    <arg_value>FL</arg_value>\n    <arg_key>unit</arg_key>\n    "
               "<arg_value>fahrenheit</arg_value>\n    </tool_call>",
           "glm45");
  expect_calls(m, {{"get_current_weather", dallas},
                   {"get_current_weather", R"({"city": "Orlando", "state": "FL", "unit": "fahrenheit"})"}});
  EXPECT_EQ(m.content, "");
  // vLLM strips the content before a call ("I'll help you check the weather."); here it is kept as written.
  m = both("I'll help you check the weather. " + one, "glm45");
  EXPECT_EQ(m.content, "I'll help you check the weather. ");
  m = both(
      "I will help you get the weather.<tool_call>get_weather\n    <arg_key>city</arg_key>\n    "
      "<arg_value>Beijing</arg_value>\n"
      "    <arg_key>date</arg_key>\n    <arg_value>2025-08-01</arg_value>\n    </tool_call>",
      "glm45");
  EXPECT_EQ(m.content, "I will help you get the weather.");
  expect_calls(m, {{"get_weather", R"({"city": "Beijing", "date": "2025-08-01"})"}});
  // With thinking: vLLM's tool parser leaves the <think> part in content; the reasoning layer takes it here.
  m = both(
      "<think>I want to get the weather.</think>\n\nI will help you get the "
      "weather.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
      "<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>",
      "glm45", "think");
  EXPECT_EQ(m.reasoning_content, "I want to get the weather.");
  EXPECT_EQ(m.content, "\n\nI will help you get the weather.\n");
  expect_calls(m, {{"get_weather", R"({"city": "Beijing", "date": "2025-08-01"})"}});
  expect_calls(both("<tool_call>get_current_time\n</tool_call>", "glm45"), {{"get_current_time", "{}"}});
  // vLLM keeps only the content before the first call and drops the text between calls; here it is content.
  m = both(
      "I will help you get the weather "
      "info.\n\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n"
      "<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>\n\nmeaningwhile, I will also check the "
      "weather in Shanghai.\n\n"
      "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Shanghai</arg_value>\n<arg_key>date</"
      "arg_key>\n<arg_value>2025-08-01"
      "</arg_value>\n</tool_call>",
      "glm45");
  EXPECT_EQ(
      m.content,
      "I will help you get the weather info.\n\n\n\nmeaningwhile, I will also check the weather in Shanghai.\n\n");
  expect_calls(m, {{"get_weather", R"({"city": "Beijing", "date": "2025-08-01"})"},
                   {"get_weather", R"({"city": "Shanghai", "date": "2025-08-01"})"}});
  expect_calls(both("<tool_call>send_message\n<arg_key>recipient</arg_key>\n<arg_value>Amy</"
                    "arg_value>\n<arg_key>message</arg_key>\n"
                    "<arg_value>It is a nice "
                    "day</arg_value>\n<arg_key>priority</arg_key>\n<arg_value>high</arg_value>\n</tool_call>",
                    "glm45"),
               {{"send_message", R"({"recipient": "Amy", "message": "It is a nice day", "priority": "high"})"}});
  // Malformed: a key without its end tag. vLLM's result is unspecified; held calls give the text back.
  std::string malformed =
      "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seattle</arg_value>\n<arg_key>incomplete_arg\n"
      "<arg_value>value</arg_value>\n</tool_call>";
  m = check(malformed, opts("glm45", "none", false));
  EXPECT_EQ(m.content, malformed);
  expect_calls(m, {});
  // Cut off (no </tool_call>): vLLM gives no call; held calls give the text back, streamed ones
  // keep what was streamed.
  std::string cut =
      "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n"
      "<arg_value>2025-08-01</arg_value>";
  m = check(cut, opts("glm45", "none", false));
  EXPECT_EQ(m.content, cut);
  expect_calls(m, {});
  m = check(cut, o);
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Beijing", "date": "2025-08-01")");
  // llama.cpp (GLM-4.6), typed by the tools as for qwen3_coder.
  auto typed = coder();
  typed.format = "glm45";
  typed.tools_json =
      R"([{"type": "function", "function": {"name": "special_function", "parameters": {"type": "object", "properties": {"arg1": {"type": "integer"}}}}}])";
  expect_calls(
      check("<tool_call>special_function\n<arg_key>arg1</arg_key>\n<arg_value>1</arg_value>\n</tool_call>", typed),
      {{"special_function", R"({"arg1": 1})"}});
}

// ---- deepseek_v3, deepseek_v31: vLLM's parser tests, llama.cpp's ----

TEST(DeepSeek, ReferenceCases) {
  const std::string b = "<｜tool▁calls▁begin｜>", cb = "<｜tool▁call▁begin｜>", sep = "<｜tool▁sep｜>",
                    ce = "<｜tool▁call▁end｜>", e = "<｜tool▁calls▁end｜>";
  auto m = both("How can I help you today? I can check weather for you.", "deepseek_v3");
  EXPECT_EQ(m.content, "How can I help you today? I can check weather for you.");
  expect_calls(m, {});
  expect_calls(both(b + cb + "function" + sep +
                        "get_weather\n```json\n{\"city\": \"Tokyo\", \"unit\": \"celsius\"}\n```" + ce + e,
                    "deepseek_v3"),
               {{"get_weather", R"({"city": "Tokyo", "unit": "celsius"})"}});
  // Parallel calls with no newline between them.
  expect_calls(
      both(b + cb + "function" + sep + "get_weather\n```json\n{\"city\": \"Tokyo\", \"unit\": \"celsius\"}\n```" + ce +
               cb + "function" + sep +
               "search_hotels\n```json\n{\"location\": \"Tokyo\", \"check_in\": \"2025-01-15\"}\n```" + ce + e,
           "deepseek_v3"),
      {{"get_weather", R"({"city": "Tokyo", "unit": "celsius"})"},
       {"search_hotels", R"({"location": "Tokyo", "check_in": "2025-01-15"})"}});
  std::string types =
      R"({"string_field": "hello", "int_field": 42, "float_field": 3.14, "bool_field": true, "null_field": null, )"
      R"("array_field": ["a", "b", "c"], "object_field": {"nested": "value"}, "empty_array": [], "empty_object": {}})";
  expect_calls(both(b + cb + "function" + sep + "test_function\n```json\n" + types + "\n```" + ce + e, "deepseek_v3"),
               {{"test_function", types}});
  expect_calls(both(b + cb + "function" + sep + "get_current_time\n```json\n{}\n```" + ce + e, "deepseek_v3"),
               {{"get_current_time", "{}"}});
  m = both("Let me check the weather for you." + b + cb + "function" + sep +
               "get_weather\n```json\n{\"city\": \"Paris\"}\n```" + ce + e,
           "deepseek_v3");
  EXPECT_EQ(m.content, "Let me check the weather for you.");
  expect_calls(m, {{"get_weather", R"({"city": "Paris"})"}});
  std::string escaped = R"({"text": "He said \"hello\"", "path": "C:\\Users\\file", "newline": "line1\nline2"})";
  expect_calls(both(b + cb + "function" + sep + "send_message\n```json\n" + escaped + "\n```" + ce + e, "deepseek_v3"),
               {{"send_message", escaped}});
  // vLLM's malformed inputs: no call, the text back as content (held calls); a streamed call keeps
  // its valid prefix.
  std::string unclosed = b + cb + "function" + sep + "get_weather\n```json\n{\"city\": \"Tokyo\"\n```" + ce + e;
  m = check(unclosed, opts("deepseek_v3", "none", false));
  EXPECT_EQ(m.content, unclosed);
  expect_calls(m, {});
  std::string no_call_begin = b + "function" + sep + "get_weather\n```json\n{\"city\": \"Tokyo\"}\n```" + e;
  for (bool partial : {true, false}) {
    m = check(no_call_begin, opts("deepseek_v3", "none", partial));
    EXPECT_EQ(m.content, no_call_begin);
    expect_calls(m, {});
  }
  // DeepSeek-V3.1.
  m = both("normal text" + b + cb + "foo" + sep + "{\"x\":1}" + ce + e, "deepseek_v31");
  EXPECT_EQ(m.content, "normal text");
  expect_calls(m, {{"foo", R"({"x":1})"}});
  m = both("some prefix text" + b + cb + "foo" + sep + "{\"x\":1}" + ce + cb + "bar" + sep + "{\"y\":2}" + ce + e +
               " some suffix text",
           "deepseek_v31");
  EXPECT_EQ(m.content, "some prefix text some suffix text");
  expect_calls(m, {{"foo", R"({"x":1})"}, {"bar", R"({"y":2})"}});
  // llama.cpp (DeepSeek-R1 distills, with reasoning).
  m = both(
      "I'm\nthinking</think>" + b + cb + "function" + sep + "special_function\n```json\n{\"arg1\": 1}\n```" + ce + e,
      "deepseek_v3", "deepseek_r1");
  EXPECT_EQ(m.reasoning_content, "I'm\nthinking");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}});
}

// ---- qwen3_coder: vLLM's qwen3coder parser tests, llama.cpp's ----

TEST(Qwen3Coder, ReferenceCases) {
  auto o = opts("qwen3_coder");
  o.tools_json =
      R"([{"type": "function", "function": {"name": "get_current_weather", "parameters": {"type": "object", "properties": {
      "city": {"type": "string"}, "state": {"type": "string"}, "unit": {"type": "string", "enum": ["fahrenheit", "celsius"]}}}}},
    {"type": "function", "function": {"name": "calculate_area", "parameters": {"type": "object", "properties": {
      "shape": {"type": "string"}, "dimensions": {"type": "object"}, "precision": {"type": "integer"}}}}},
    {"type": "function", "function": {"name": "test_types", "parameters": {"type": "object", "properties": {
      "int_param": {"type": "integer"}, "float_param": {"type": "float"}, "bool_param": {"type": "boolean"},
      "str_param": {"type": "string"}, "obj_param": {"type": "object"}}}}},
    {"type": "function", "function": {"name": "special_function", "parameters": {"type": "object", "properties": {"arg1": {"type": "integer"}}}}},
    {"type": "function", "function": {"name": "special_function_with_opt", "parameters": {"type": "object", "properties": {
      "arg1": {"type": "integer"}, "arg2": {"type": "integer"}}}}},
    {"type": "function", "function": {"name": "python", "parameters": {"type": "object", "properties": {"code": {"type": "string"}}}}}])";
  auto run = [&](const std::string& text) {
    auto streamed = check(text, o);
    auto held = o;
    held.partial_calls = false;
    auto whole = check(text, held);
    EXPECT_EQ(streamed.content, whole.content);
    EXPECT_EQ(streamed.tool_calls.size(), whole.tool_calls.size());
    return streamed;
  };
  const std::string dallas_call =
      "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n"
      "</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>";
  const std::string dallas = R"({"city": "Dallas", "state": "TX", "unit": "fahrenheit"})";
  auto m = run("This is a test response without any tool calls");
  EXPECT_EQ(m.content, "This is a test response without any tool calls");
  expect_calls(m, {});
  expect_calls(run(dallas_call), {{"get_current_weather", dallas}});
  m = run("Sure! Let me check the weather for you." + dallas_call);
  EXPECT_EQ(m.content, "Sure! Let me check the weather for you.");
  expect_calls(m, {{"get_current_weather", dallas}});
  // Multi-line JSON in an object parameter is written as the model wrote it.
  expect_calls(run("<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</"
                   "parameter>\n<parameter=dimensions>\n{\"width\": 10, \n"
                   " \"height\": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>"),
               {{"calculate_area",
                 "{\"shape\": \"rectangle\", \"dimensions\": {\"width\": 10, \n \"height\": 20}, \"precision\": 2}"}});
  m = run(dallas_call +
          "\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nOrlando\n</"
          "parameter>\n<parameter=state>\nFL\n</parameter>\n"
          "<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>");
  expect_calls(m, {{"get_current_weather", dallas},
                   {"get_current_weather", R"({"city": "Orlando", "state": "FL", "unit": "fahrenheit"})"}});
  EXPECT_EQ(m.content, "");
  m = run(
      "Let me calculate that area for "
      "you.<tool_call>\n<function=calculate_area>\n<parameter=shape>\ncircle\n</parameter>\n<parameter=dimensions>\n"
      "{\"radius\": 15.5}\n</parameter>\n<parameter=precision>\n3\n</parameter>\n</function>\n</tool_call>");
  expect_calls(m, {{"calculate_area", R"({"shape": "circle", "dimensions": {"radius": 15.5}, "precision": 3})"}});
  // Types from the schema, "float" included (not a JSON Schema type, but vLLM reads it).
  expect_calls(
      run("<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</"
          "parameter>\n<parameter=float_param>\n3.14\n</parameter>\n"
          "<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello "
          "world\n</parameter>\n<parameter=obj_param>\n{\"key\": "
          "\"value\"}\n</parameter>\n</function>\n</tool_call>"),
      {{"test_types",
        R"({"int_param": 42, "float_param": 3.14, "bool_param": true, "str_param": "hello world", "obj_param": {"key": "value"}})"}});
  // vLLM also reads a <function=...> block without <tool_call> (non-streaming only); here it is text.
  std::string bare = "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n</function>";
  m = run(bare);
  EXPECT_EQ(m.content, bare);
  expect_calls(m, {});
  // llama.cpp (Qwen3-Coder, Nemotron-3 Nano): values on one line or several; code kept as written.
  expect_calls(
      run("<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>"),
      {{"special_function", R"({"arg1": 1})"}});
  expect_calls(run("<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</"
                   "tool_call>\n<tool_call>\n"
                   "<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n</"
                   "parameter>\n</function>\n</tool_call>"),
               {{"special_function", R"({"arg1": 1})"}, {"special_function_with_opt", R"({"arg1": 1, "arg2": 2})"}});
  expect_calls(run("<tool_call>\n<function=python>\n<parameter=code>\ndef hello():\n    print(\"Hello, "
                   "world!\")\n\nhello()\n</parameter>\n</function>\n"
                   "</tool_call>"),
               {{"python", "{\"code\": \"def hello():\\n    print(\\\"Hello, world!\\\")\\n\\nhello()\"}"}});
}

// ---- harmony: llama.cpp's gpt-oss cases ----

TEST(Harmony, ReferenceCases) {
  // <|call|> and <|return|> are stop tokens: the text may end without them.
  auto m = both(
      "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>commentary "
      "to=functions.special_function "
      "<|constrain|>json<|message|>{\"arg1\": 1}",
      "harmony");
  EXPECT_EQ(m.reasoning_content, "I'm\nthinking");
  EXPECT_EQ(m.content, "");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}});
  m = both(
      "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello, "
      "world!\nWhat's up?",
      "harmony");
  EXPECT_EQ(m.reasoning_content, "I'm\nthinking");
  EXPECT_EQ(m.content, "Hello, world!\nWhat's up?");
  // A call cut off inside its arguments is still not a call for held calls.
  m = check("<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1",
            opts("harmony", "none", false));
  expect_calls(m, {});
}

// ---- pythonic: SGLang's pythonic detector tests ----

TEST(Pythonic, SglangCases) {
  // SGLang reads a [...] list anywhere in the text; vLLM (and this parser) only at the start of
  // the output, or after <|python_start|>: "[" is too common in prose ([1], [link](...)).
  auto m = both("This is just normal text without any tool calls.", "pythonic");
  EXPECT_EQ(m.content, "This is just normal text without any tool calls.");
  std::string mid = "Here's a tool call: [get_weather(location='New York', unit='celsius')]";
  m = both(mid, "pythonic");
  EXPECT_EQ(m.content, mid);
  expect_calls(m, {});
  m = both("[search(query='python programming')]", "pythonic");
  expect_calls(m, {{"search", R"({"query": "python programming"})"}});
  m = both("[get_weather(location='Tokyo')] Here's the forecast:", "pythonic");
  expect_calls(m, {{"get_weather", R"({"location": "Tokyo"})"}});
  EXPECT_EQ(m.content, " Here's the forecast:");
  expect_calls(both("[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]", "pythonic"),
               {{"get_weather", R"({"location": "New York", "unit": "celsius", "data": [1, 2, 3]})"}});
  expect_calls(both("[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]", "pythonic"),
               {{"search", R"({"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}})"}});
  expect_calls(
      both("[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]", "pythonic"),
      {{"get_weather", R"({"location": "Paris", "data": [10, 20]})"},
       {"search", R"({"query": "test", "filters": ["a", "b"]})"}});
  // <|python_start|> opens calls after text, in SGLang's chunks and every split.
  const std::vector<std::string> chunks = {
      "Here's a call: ", "<|python_", "start|>[get_weather(location=", "'Tokyo', data=[1, 2", ", 3])]<|python_end|>"};
  std::string text;
  for (auto& c : chunks) text += c;
  m = both(text, "pythonic");
  EXPECT_EQ(m.content, "Here's a call: ");
  expect_calls(m, {{"get_weather", R"({"location": "Tokyo", "data": [1, 2, 3]})"}});
  m = both(
      "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', "
      "unit='celsius')]<|python_end|> In this way we "
      "will get the weather in Mars.",
      "pythonic");
  EXPECT_EQ(m.content, "User wants to get the weather in Mars.  In this way we will get the weather in Mars.");
  expect_calls(m, {{"get_weather", R"({"location": "Mars", "unit": "celsius"})"}});
}

// ---- mistral: SGLang's mistral detector tests, llama.cpp's ----

TEST(Mistral, SglangAndLlamaCppCases) {
  std::string nested_brackets =
      R"([TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"```\nTOOL: Access a weather API or service\n)"
      R"(OBSERVATION: Retrieve the current weather data for the top 5 populated cities in the US\nANSWER: The weather in the top 5 populated )"
      R"(cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n```"}}])";
  auto m = both(nested_brackets, "mistral");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "make_next_step_decision");
  EXPECT_NE(m.tool_calls[0].arguments.find("[City Name] - [Weather Conditions] - [Temperature]"), std::string::npos);
  EXPECT_EQ(m.content, "");
  // SGLang strips the text before the call ("...tool call:"); here it stays as written.
  m = both(
      R"(Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"ANSWER", "content":"The answer is 42"}}])",
      "mistral");
  EXPECT_EQ(m.content, "Here is some text before the tool call: ");
  expect_calls(m, {{"make_next_step_decision", R"({"decision":"ANSWER", "content":"The answer is 42"})"}});
  // llama.cpp: Mistral Small 3.2 ([CALL_ID]), Devstral ([ARGS] only).
  m = both(R"([TOOL_CALLS]special_function[CALL_ID]123456789[ARGS]{"arg1": 1})", "mistral");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}});
  EXPECT_EQ(m.tool_calls[0].id, "123456789");
  m = both(
      R"([TOOL_CALLS]special_function[CALL_ID]000000001[ARGS]{"arg1": 1}[TOOL_CALLS]special_function_with_opt[CALL_ID]000000002[ARGS]{"arg1": 1, "arg2": 2})",
      "mistral");
  expect_calls(m, {{"special_function", R"({"arg1": 1})"}, {"special_function_with_opt", R"({"arg1": 1, "arg2": 2})"}});
  EXPECT_EQ(m.tool_calls[0].id, "000000001");
  EXPECT_EQ(m.tool_calls[1].id, "000000002");
  expect_calls(both(R"([TOOL_CALLS]special_function[ARGS]{"arg1": 1})", "mistral"),
               {{"special_function", R"({"arg1": 1})"}});
  m = both("Hello, world!\nWhat's up?", "mistral");
  EXPECT_EQ(m.content, "Hello, world!\nWhat's up?");
}

// llama.cpp: Llama 3.1's built-in tools, Python after <|python_tag|>.
TEST(Llama3Json, BuiltInToolsAsPython) {
  expect_calls(both(R"py(<|python_tag|>code_interpreter.call(code="print('hey')"))py", "llama3_json"),
               {{"code_interpreter", R"j({"code": "print('hey')"})j"}});
  expect_calls(both(R"py(<|python_tag|>python.call(code="print('hey')"))py", "llama3_json"), {{"python", R"j({"code": "print('hey')"})j"}});
  auto m = both(R"py(Let me search. <|python_tag|>brave_search.call(query="weather in SF"))py", "llama3_json");
  EXPECT_EQ(m.content, "Let me search. ");
  expect_calls(m, {{"brave_search", R"({"query": "weather in SF"})"}});
  m = both("<|python_tag|>wolfram_alpha.call(query='solve x^2 = 4', n=2) ", "llama3_json");
  expect_calls(m, {{"wolfram_alpha", R"({"query": "solve x^2 = 4", "n": 2})"}});
  EXPECT_EQ(m.content, "");
  // Raw code (code_interpreter without .call) and a bare name.call( without the tag are text.
  for (std::string text : {"<|python_tag|>print('hi')", "brave_search.call(query='x')", "<|python_tag|>f.call(1)"}) {
    m = check(text, opts("llama3_json", "none", false));
    EXPECT_EQ(m.content, text);
    expect_calls(m, {});
  }
}
