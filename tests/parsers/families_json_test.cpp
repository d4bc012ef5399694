// The families that write calls as JSON wrappers after a marker (src/parsers/json_calls.hpp):
// granite, granite4, phi4_mini, internlm2, hunyuan, jamba. Whole and streamed parses in every
// split, broken and cut-off calls, content around calls, and detection from real templates.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "support/parse_stream.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;

namespace {

OutputParserOptions opts(std::string format, bool partial = true, std::string reasoning = "none") {
  OutputParserOptions o;
  o.format = std::move(format);
  o.reasoning = std::move(reasoning);
  o.partial_calls = partial;
  o.id_seed = 42;
  return o;
}

// The parse of `text` streamed in one feed, after checking 1-byte and random splits give the
// same; `whole` also equals parse_output when partial is off.
ParsedMessage check(std::string_view text, const OutputParserOptions& o) {
  ParsedMessage one = streamed(text, o, {});
  std::vector<std::size_t> bytes;
  for (std::size_t i = 1; i < text.size(); ++i) bytes.push_back(i);
  EXPECT_TRUE(same_message(streamed(text, o, bytes), one)) << "1-byte splits: " << text;
  std::mt19937 rng(11);
  for (int round = 0; round < 100; ++round) {
    std::vector<std::size_t> c;
    for (std::size_t i = 1; i < text.size(); ++i)
      if (rng() % 5 == 0) c.push_back(i);
    EXPECT_TRUE(same_message(streamed(text, o, c), one)) << "random split " << round << ": " << text;
  }
  if (!o.partial_calls) EXPECT_TRUE(same_message(parse_output(text, o), one)) << text;
  return one;
}

struct Call {
  std::string name, arguments;
};

void expect_calls(const ParsedMessage& m, const std::vector<Call>& calls, const std::string& what) {
  ASSERT_EQ(m.tool_calls.size(), calls.size()) << what << "\n  content: " << m.content;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(m.tool_calls[i].name, calls[i].name) << what;
    EXPECT_EQ(m.tool_calls[i].arguments, calls[i].arguments) << what;
  }
}

// Both call modes: the calls and the content.
void expect_parse(const std::string& format, std::string_view text, const std::vector<Call>& calls, const std::string& content) {
  for (bool partial : {true, false}) {
    ParsedMessage m = check(text, opts(format, partial));
    expect_calls(m, calls, format + ": " + std::string(text));
    EXPECT_EQ(m.content, content) << format << ": " << text;
  }
}

// A broken call in a whole message: all of it is content, as written.
void expect_text(const std::string& format, std::string_view text) {
  ParsedMessage m = check(text, opts(format, false));
  EXPECT_TRUE(m.tool_calls.empty()) << format << ": " << text;
  EXPECT_EQ(m.content, text) << format;
  EXPECT_EQ(parse_output(text, opts(format)).content, text) << format;
}

std::string read_template(const std::string& name) {
  std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/parsers/templates/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string read_vllm_template(const std::string& name) {
  std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const Call kTokyo{"get_weather", R"({"city": "Tokyo"})"};
const Call kTime{"get_time", R"({"tz": "Asia/Tokyo"})"};

}  // namespace

// ---- granite ----

TEST(Granite, ListAfterTheTokenOrTheString) {
  expect_parse("granite", R"(<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", {kTokyo}, "");
  expect_parse("granite", R"(<|tool_call|> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {"name": "get_time", "arguments": {"tz": "Asia/Tokyo"}}])",
               {kTokyo, kTime}, "");
  expect_parse("granite", "<tool_call> [\n  {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n]", {kTokyo}, "");
  // A bare list at the start of the output (vLLM reads it).
  expect_parse("granite", R"([{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", {kTokyo}, "");
  // vLLM's example template writes one object per <|tool_call|>.
  expect_parse("granite", R"(<|tool_call|> {"name": "get_weather", "arguments": {"city": "Tokyo"}})", {kTokyo}, "");
}

TEST(Granite, ContentAroundCalls) {
  expect_parse("granite", "Let me check.\n<|tool_call|> [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]\nDone.", {kTokyo},
               "Let me check.\n\nDone.");
  // "[" after text is text.
  expect_parse("granite", R"(See [{"name": "get_weather", "arguments": {}}])", {}, R"(See [{"name": "get_weather", "arguments": {}}])");
  expect_parse("granite", "[1] is a citation", {}, "[1] is a citation");
}

TEST(Granite, BrokenCallsAreText) {
  expect_text("granite", R"(<|tool_call|> [{"name": "func", "arguments": {)");
  expect_text("granite", R"(<|tool_call|> [{"name": "func", "arguments": "not a dict"}])");
  expect_text("granite", R"(<|tool_call|>[])");
  expect_text("granite", R"(<|tool_call|>[{"arguments": {}}])");
  // The first call of a list is kept when the second breaks.
  for (bool partial : {true, false}) {
    auto m = check(R"(<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {"name": "x", "arguments": 5}])", opts("granite", partial));
    expect_calls(m, {kTokyo}, "second broken");
    EXPECT_EQ(m.content, R"(, {"name": "x", "arguments": 5}])");
  }
}

TEST(Granite, StreamsArgumentsAsWritten) {
  std::string text = R"(<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tok)";
  auto m = streamed(text, opts("granite"), {});
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Tok)");
  // Not streamed: the cut-off call is content.
  EXPECT_EQ(parse_output(text, opts("granite")).content, text);
}

TEST(Granite4, HermesFormWithStringArguments) {
  expect_parse("granite4", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>", {kTokyo}, "");
  // vLLM's granite4 test: arguments as a JSON string holding the object, text between calls.
  std::string text = "Here goes the bbox call: \n<tool_call> {\"name\": \"find_bbox\", \"arguments\": "
                     "\"{\\\"coordinates\\\": [[23.54, 43.1], [-12.2, 54.3], [4, 5]], \\\"coordinate_type\\\": \\\"latlong\\\"}\"} "
                     "</tool_call> Now the stock price call: \n <tool_call> {\"name\": \"get_stock_price\", \"arguments\": "
                     "{\"symbol\": \"AAPL\"}} </tool_call> See?";
  expect_parse("granite4", text,
               {{"find_bbox", R"({"coordinates": [[23.54, 43.1], [-12.2, 54.3], [4, 5]], "coordinate_type": "latlong"})"},
                {"get_stock_price", R"({"symbol": "AAPL"})"}},
               "Here goes the bbox call: \n Now the stock price call: \n  See?");
  // A string that does not hold an object breaks the call.
  expect_text("granite4", R"(<tool_call> {"name": "f", "arguments": "[1]"} </tool_call>)");
  expect_text("granite4", R"(<tool_call> {"name": "f", "arguments": "{\"a\": 1} x"} </tool_call>)");
  // Complete JSON at the end of the output: a call without </tool_call>.
  expect_parse("granite4", R"(<tool_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}})", {kTokyo}, "");
  // Broken end tag: content as written.
  expect_text("granite4", R"(<tool_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}} </tool_cal> x)");
}

TEST(Granite20bFc, FunctionCall) {
  expect_parse("granite_20b_fc", R"(<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}})", {kTokyo}, "");
  expect_parse("granite_20b_fc",
               "Sure.\n<function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n"
               "<function_call> {\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}<function_call> "
               "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}",
               {kTokyo, kTime, kTokyo}, "Sure.\n");
  expect_text("granite_20b_fc", R"(<function_call> [{"name": "func", "arguments": {}}])");
  expect_text("granite_20b_fc", R"(<function_call> {"name": 123})");
  expect_text("granite_20b_fc", R"(<function_call> {"name": "func", "arguments": {)");
  expect_parse("granite_20b_fc", R"({"name": "func", "arguments": {}})", {}, R"({"name": "func", "arguments": {}})");
}

// ---- phi4_mini ----

TEST(Phi4Mini, Functools) {
  expect_parse("phi4_mini", R"(functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", {kTokyo}, "");
  expect_parse("phi4_mini", "functools[\n  {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}},\n  {\"name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}\n]",
               {kTokyo, kTime}, "");
  expect_parse("phi4_mini", "Let me check the weather for you.\nfunctools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]\nWould you like to know more?",
               {kTokyo}, "Let me check the weather for you.\n\nWould you like to know more?");
  // llama.cpp's template form.
  expect_parse("phi4_mini", R"(<|tool_call|>{"name": "get_weather", "arguments": {"city": "Tokyo"}}<|/tool_call|>)", {kTokyo}, "");
  expect_text("phi4_mini", "functools[] This is just text");
  expect_text("phi4_mini", "functools[ This is just text ]");
  expect_text("phi4_mini", R"(functools{"name": "func"})");
  expect_text("phi4_mini", R"(functools [{"name": "func", "arguments": {}}])");
  expect_text("phi4_mini", "import functools\nfunctools.reduce(f, xs)");
}

// ---- internlm2 ----

TEST(InternLm2, ActionPlugin) {
  expect_parse("internlm2", R"(<|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>)", {kTokyo}, "");
  expect_parse("internlm2",
               "Let me check. <|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}<|action_end|>"
               "<|action_start|><|plugin|>\n{\"name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}<|action_end|>",
               {kTokyo, kTime}, "Let me check. ");
  // SGLang's form: text decoded with a space between the two special tokens.
  expect_parse("internlm2", "I'll look that up. <|action_start|> <|plugin|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}<|action_end|>",
               {kTokyo}, "I'll look that up. ");
  expect_text("internlm2", "<|action_start|> x <|plugin|>{}");
  expect_text("internlm2", "<|action_start|><|plugin|>not json<|action_end|>");
  expect_text("internlm2", R"(<|action_start|><|plugin|>{"name": "func", "parameters": "not a dict"}<|action_end|>)");
  expect_text("internlm2", R"(<|action_start|>{"name": "func"})");
  expect_text("internlm2", "<|action_start|><|plugin|>");
  // Complete at the end without <|action_end|>.
  expect_parse("internlm2", R"(<|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Tokyo"}})", {kTokyo}, "");
}

// ---- hunyuan, jamba ----

TEST(ToolCallsArray, HunyuanAndJamba) {
  for (std::string f : {"hunyuan", "jamba"}) {
    expect_parse(f, R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</tool_calls>)", {kTokyo}, "");
    expect_parse(f,
                 " Sure!<tool_calls>[\n    {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}},\n    "
                 "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n]</tool_calls>\nThank you!",
                 {kTokyo, kTime}, " Sure!\nThank you!");
    // The list ends the calls; a missing or broken end tag leaves them (the rest is text).
    expect_parse(f, R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", {kTokyo}, "");
    expect_parse(f, R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}] and</tool_calls>)", {kTokyo},
                 " and</tool_calls>");
    expect_text(f, R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": )");
    expect_text(f, "<tool_calls>[]</tool_calls>");
    expect_text(f, R"(<tool_calls>{"name": "get_weather", "arguments": {}}</tool_calls>)");
  }
  // Non-ASCII stays as written.
  expect_parse("hunyuan", R"(<tool_calls>[{"name": "get_weather", "arguments": {"city": "北京"}}]</tool_calls>)",
               {{"get_weather", R"({"city": "北京"})"}}, "");
}

TEST(ToolCallsArray, HunyuanReasoning) {
  auto m = check("<think>need weather</think>\n<answer><tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]</tool_calls></answer>",
                 opts("hunyuan", true, "think"));
  EXPECT_EQ(m.reasoning_content, "need weather");
  expect_calls(m, {kTokyo}, "hunyuan think");
  EXPECT_EQ(m.content, "\n<answer></answer>");
}

// ---- xlam ----

TEST(Xlam, ListsAndWrappers) {
  expect_parse("xlam", R"([{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {"name": "get_time", "arguments": {"tz": "Asia/Tokyo"}}])",
               {kTokyo, kTime}, "");
  expect_parse("xlam", "I'll help.\n```json\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]\n```", {kTokyo},
               "I'll help.\n");
  expect_parse("xlam", "```\n[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]\n``` ok", {kTokyo}, " ok");
  expect_parse("xlam", R"(I'll check.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", {kTokyo}, "I'll check.");
  expect_parse("xlam", R"(Sure.<tool_call>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</tool_call>)", {kTokyo}, "Sure.");
  expect_parse("xlam", R"([{"name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"}])", {kTokyo}, "");
  // A code block that holds no calls, and a list after text, are text.
  expect_text("xlam", "```json\n[1, 2]\n```");
  expect_text("xlam", "```python\nprint([1])\n```");
  expect_text("xlam", R"(Here: [{"name": "get_weather", "arguments": {}}])");
  // Reasoning first, then the list at the start of the answer.
  auto m = check(R"(<think>I'll help you with that.</think>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}])", opts("xlam", true, "think"));
  EXPECT_EQ(m.reasoning_content, "I'll help you with that.");
  expect_calls(m, {kTokyo}, "xlam after think");
}

// ---- olmo3 ----

TEST(Olmo3, FunctionCallsBlock) {
  expect_parse("olmo3", "<function_calls>\nget_weather(city='Tokyo')\nget_time(tz=\"Asia/Tokyo\")\n</function_calls>", {kTokyo, kTime}, "");
  expect_parse("olmo3", "Let me see. <function_calls>get_weather(city='Tokyo')</function_calls> Done.", {kTokyo}, "Let me see.  Done.");
  expect_parse("olmo3",
               "<function_calls>register_user(name='John Doe', age=37, address={'city': 'San Francisco'}, role=None, "
               "passed_test=True, aliases=('John', 'Johnny'))</function_calls>",
               {{"register_user", R"({"name": "John Doe", "age": 37, "address": {"city": "San Francisco"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]})"}},
               "");
  expect_parse("olmo3", "<function_calls>get_weather()</function_calls>", {{"get_weather", "{}"}}, "");
  // Complete calls are kept when the block ends early or breaks later.
  expect_parse("olmo3", "<function_calls>\nget_weather(city='Tokyo')\n", {kTokyo}, "");
  {
    auto m = check("<function_calls>get_weather(city='Tokyo')\nbad(x=b'z')</function_calls>", opts("olmo3", false));
    expect_calls(m, {kTokyo}, "olmo3 second broken");
    EXPECT_EQ(m.content, "\nbad(x=b'z')</function_calls>");
    // Streamed, the broken call's header and first fragment went out: the rest is content.
    m = check("<function_calls>get_weather(city='Tokyo')\nbad(x=b'z')</function_calls>", opts("olmo3", true));
    ASSERT_EQ(m.tool_calls.size(), 2u);
    EXPECT_EQ(m.tool_calls[1].name, "bad");
  }
  expect_text("olmo3", "<function_calls>foo(x=1])</function_calls>");
  expect_text("olmo3", "<function_calls>get_weather('Tokyo')</function_calls>");
  expect_parse("olmo3", "<function_calls>get_weather(city='Tokyo') x</function_calls>", {kTokyo}, " x</function_calls>");
}

// ---- detection ----

TEST(DetectJsonFamilies, RealTemplates) {
  // Granite 3.3 (llama.cpp's models/templates copy of the model's template) and vLLM's Granite 3 example.
  auto g33 = detect_format(read_template("ibm-granite-granite-3.3-2B-Instruct.jinja"));
  EXPECT_EQ(g33.format, "granite");
  EXPECT_EQ(g33.reasoning, "think");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_granite.jinja")).format, "granite");
  // Granite 4.0's template (llama.cpp's models/templates copy): Granite's roles, hermes' <tool_call>.
  EXPECT_EQ(detect_format(read_template("ibm-granite-granite-4.0.jinja")).format, "granite4");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_phi4_mini.jinja")).format, "phi4_mini");
  EXPECT_EQ(detect_format(read_template("llama-cpp-microsoft-Phi-4-mini-instruct.jinja")).format, "phi4_mini");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_internlm2_tool.jinja")).format, "internlm2");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_hunyuan_a13b.jinja")).format, "hunyuan");
  // vLLM's older granite example (the corpus copy) asks for granite-20b-functioncalling's <function_call>.
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_granite.jinja")).format, "granite_20b_fc");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_granite_20b_fc.jinja")).format, "granite_20b_fc");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_xlam_llama.jinja")).format, "xlam");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_xlam_qwen.jinja")).format, "xlam");
  EXPECT_EQ(detect_format(read_vllm_template("vllm__tool_chat_template_olmo3.jinja")).format, "olmo3");
}

TEST(DetectJsonFamilies, Fragments) {
  // Jamba: no template at hand; its turn tokens with <tool_calls>.
  EXPECT_EQ(detect_format("{{- '<|bom|><|system|>' }}{{ '<tool_calls>' + tool_calls | tojson + '</tool_calls>' }}<|eom|>").format, "jamba");
  // Hermes' own templates stay hermes.
  EXPECT_EQ(detect_format("<|im_start|>assistant\n<tool_call>\n{}\n</tool_call>").format, "hermes");
}
