// The XML-style families added with minimax_m2 (and after it): whole and streamed parses,
// typed values, broken and cut-off calls, content around calls, detection from the real chat
// templates (tests/data/parsers/templates_xml/, sources in its SOURCES.md).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <random>
#include <sstream>

#include "support/parse_stream.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;

namespace {

OutputParserOptions opts(std::string format, std::string reasoning = "none", bool partial = true, std::string tools = "") {
  OutputParserOptions o;
  o.format = std::move(format);
  o.reasoning = std::move(reasoning);
  o.partial_calls = partial;
  o.id_seed = 42;
  o.tools_json = std::move(tools);
  return o;
}

bool valid_json(const std::string& s) {
  simdjson::dom::parser p;
  return p.parse(simdjson::padded_string(s)).error() == simdjson::SUCCESS;
}

// One feed, one byte at a time and random splits all give the same message; a call's first
// fragment carries its id and name.
ParsedMessage check(std::string_view text, const OutputParserOptions& o) {
  ParsedMessage whole = streamed(text, o, {});
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < text.size(); ++i) cuts.push_back(i);
  EXPECT_TRUE(same_message(streamed(text, o, cuts), whole)) << "one byte at a time: " << text;
  std::mt19937 rng(7);
  for (int round = 0; round < 100; ++round) {
    std::vector<std::size_t> c;
    for (std::size_t i = 1; i < text.size(); ++i)
      if (rng() % 7 == 0) c.push_back(i);
    EXPECT_TRUE(same_message(streamed(text, o, c), whole)) << "random split " << round << ": " << text;
  }
  OutputParser p(o);
  std::vector<ChatDelta> deltas;
  for (std::size_t i = 0; i < text.size(); ++i) p.feed(text.substr(i, 1), deltas);
  p.finish(deltas);
  std::vector<bool> seen;
  for (auto& d : deltas)
    if (d.kind == ChatDelta::Kind::tool_call) {
      if (d.index >= static_cast<int>(seen.size())) seen.resize(d.index + 1);
      EXPECT_EQ(!seen[d.index], !d.id.empty());
      EXPECT_EQ(!seen[d.index], !d.name.empty());
      seen[d.index] = true;
    }
  return whole;
}

struct Call {
  std::string name, args;
};

void expect_calls(const ParsedMessage& m, const std::vector<Call>& calls) {
  ASSERT_EQ(m.tool_calls.size(), calls.size()) << to_json(m);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(m.tool_calls[i].name, calls[i].name);
    EXPECT_EQ(m.tool_calls[i].arguments, calls[i].args);
    EXPECT_TRUE(valid_json(m.tool_calls[i].arguments)) << m.tool_calls[i].arguments;
  }
  EXPECT_EQ(m.finish_reason, calls.empty() ? "stop" : "tool_calls");
}

// A well-formed output: both call policies, whole and streamed, give the same message.
ParsedMessage both(std::string_view text, const std::string& format, const std::string& tools = "",
                   const std::string& reasoning = "none") {
  ParsedMessage a = check(text, opts(format, reasoning, true, tools));
  ParsedMessage b = check(text, opts(format, reasoning, false, tools));
  ParsedMessage w = parse_output(text, opts(format, reasoning, true, tools));
  EXPECT_TRUE(same_message(a, b)) << text;
  EXPECT_TRUE(same_message(a, w)) << text;
  return a;
}

// A template of tests/data/parsers/templates_xml/, or of tests/data/chat_templates/ ("corpus:NAME").
std::string read_template(const std::string& name) {
  std::string path = name.starts_with("corpus:") ? "/tests/data/chat_templates/" + name.substr(7) : "/tests/data/parsers/templates_xml/" + name;
  std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

}  // namespace

// ---- minimax_m2 ----

namespace {
const std::string kMinimaxTools = R"([{"type": "function", "function": {"name": "edit", "parameters": {"type": "object", "properties": {
    "path": {"type": "string"}, "line": {"type": "integer"}, "ratio": {"type": "number"}, "force": {"type": "boolean"},
    "opts": {"type": "object"}, "nick": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "config": {"anyOf": [{"type": "object"}, {"type": "null"}]}, "mode": {"enum": [1, 2]}, "tags": {"type": "array"}}}}},
  {"type": "function", "function": {"name": "ls", "parameters": {"type": "object", "properties": {}}}}])";
}  // namespace

TEST(MinimaxM2, TwoCallsInOneBlock) {
  std::string text =
      "I'll check.\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n"
      "<parameter name=\"days\">3</parameter>\n</invoke>\n<invoke name=\"get_time\">\n<parameter name=\"tz\">Asia/Tokyo"
      "</parameter>\n</invoke>\n</minimax:tool_call>";
  auto m = both(text, "minimax_m2");
  EXPECT_EQ(m.content, "I'll check.\n");
  // No tools: every value is a string, as in vLLM.
  expect_calls(m, {{"get_weather", "{\"city\": \"Paris\", \"days\": \"3\"}"}, {"get_time", "{\"tz\": \"Asia/Tokyo\"}"}});
}

TEST(MinimaxM2, TypedValues) {
  std::string text =
      "<minimax:tool_call>\n<invoke name=\"edit\">\n<parameter name=\"path\">\n  src/a \"b\".cpp\n</parameter>\n"
      "<parameter name=\"line\"> 042 </parameter>\n<parameter name=\"ratio\">2.50</parameter>\n"
      "<parameter name=\"force\">Yes</parameter>\n<parameter name=\"opts\">{\"a\": [1, \"}\"]}</parameter>\n"
      "<parameter name=\"nick\">null</parameter>\n<parameter name=\"config\">{\"theme\": \"dark\"}</parameter>\n"
      "<parameter name=\"mode\">2</parameter>\n<parameter name=\"tags\">[\"x\"]</parameter>\n</invoke>\n"
      "<invoke name='ls'>\n</invoke>\n</minimax:tool_call>";
  auto m = both(text, "minimax_m2", kMinimaxTools);
  EXPECT_EQ(m.content, "");
  expect_calls(m, {{"edit", "{\"path\": \"src/a \\\"b\\\".cpp\", \"line\": 42, \"ratio\": 2.5, \"force\": true, \"opts\": {\"a\": [1, \"}\"]}, "
                            "\"nick\": null, \"config\": {\"theme\": \"dark\"}, \"mode\": 2, \"tags\": [\"x\"]}"},
                   {"ls", "{}"}});
}

TEST(MinimaxM2, ValueConversions) {
  auto one = [](const std::string& param, const std::string& value) {
    std::string text = "<minimax:tool_call><invoke name=\"edit\"><parameter name=\"" + param + "\">" + value +
                       "</parameter></invoke></minimax:tool_call>";
    auto m = both(text, "minimax_m2", kMinimaxTools);
    return m.tool_calls.size() == 1 ? m.tool_calls[0].arguments : "<no call>";
  };
  EXPECT_EQ(one("line", "1_000"), "{\"line\": 1000}");
  EXPECT_EQ(one("line", "-0"), "{\"line\": 0}");
  EXPECT_EQ(one("line", "12x"), "{\"line\": \"12x\"}");  // not an integer: a string
  EXPECT_EQ(one("ratio", "3.0"), "{\"ratio\": 3}");      // integral floats are integers (vLLM)
  EXPECT_EQ(one("ratio", "1e-5"), "{\"ratio\": 1e-05}");
  EXPECT_EQ(one("ratio", "0.0001"), "{\"ratio\": 0.0001}");
  EXPECT_EQ(one("force", "off"), "{\"force\": false}");
  EXPECT_EQ(one("force", "maybe"), "{\"force\": \"maybe\"}");
  EXPECT_EQ(one("opts", "{bad"), "{\"opts\": \"{bad\"}");
  EXPECT_EQ(one("line", "None"), "{\"line\": null}");
  EXPECT_EQ(one("path", "nil"), "{\"path\": null}");  // vLLM: a null word is null whatever the type
  EXPECT_EQ(one("path", "nile"), "{\"path\": \"nile\"}");
  EXPECT_EQ(one("path", " no  pe \n"), "{\"path\": \"no  pe\"}");
  EXPECT_EQ(one("path", ""), "{\"path\": \"\"}");
  EXPECT_EQ(one("path", "a < b </param c"), "{\"path\": \"a < b </param c\"}");
  EXPECT_EQ(one("other", "5"), "{\"other\": \"5\"}");  // not in the schema: a string
}

TEST(MinimaxM2, StringsStreamAsWritten) {
  std::string text = "<minimax:tool_call>\n<invoke name=\"edit\">\n<parameter name=\"path\">  a b  ";
  auto o = opts("minimax_m2", "none", true, kMinimaxTools);
  OutputParser p(o);
  std::vector<ChatDelta> deltas;
  p.feed(text, deltas);
  ParsedMessage m;
  merge_deltas(deltas, m);
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{\"path\": \"a b");  // trailing spaces held
}

TEST(MinimaxM2, BrokenAndCutOffCalls) {
  // Cut off: a whole message gives it back as content as written.
  std::string cut = "Hi <minimax:tool_call>\n<invoke name=\"edit\">\n<parameter name=\"path\">a";
  auto w = parse_output(cut, opts("minimax_m2"));
  EXPECT_EQ(w.content, cut);
  expect_calls(w, {});
  // A stream keeps what it sent and finishes with stop.
  auto s = check(cut, opts("minimax_m2"));
  ASSERT_EQ(s.tool_calls.size(), 1u);
  EXPECT_EQ(s.tool_calls[0].arguments, "{\"path\": \"a");
  EXPECT_EQ(s.finish_reason, "tool_calls");  // merge_deltas counts the started call; the server counts completed ones
  // Broken after a complete call: the first call stays, the rest is content.
  std::string broken = "<minimax:tool_call>\n<invoke name=\"ls\">\n</invoke>\n<invoke nam=\"x\"></invoke>\n</minimax:tool_call>";
  for (bool partial : {true, false}) {
    auto m = check(broken, opts("minimax_m2", "none", partial));
    expect_calls(m, {{"ls", "{}"}});
    EXPECT_EQ(m.content, "\n<invoke nam=\"x\"></invoke>\n</minimax:tool_call>");  // text follows: the newline is content
  }
  // Unquoted name: not a call.
  std::string unquoted = "<minimax:tool_call><invoke name=ls></invoke></minimax:tool_call>";
  auto u = parse_output(unquoted, opts("minimax_m2"));
  EXPECT_EQ(u.content, unquoted);
  // An empty block is text.
  auto e = both("<minimax:tool_call>\n</minimax:tool_call>", "minimax_m2");
  EXPECT_EQ(e.content, "<minimax:tool_call>\n</minimax:tool_call>");
  // A complete invoke whose block end is missing is complete.
  auto n = both("<minimax:tool_call>\n<invoke name=\"ls\">\n</invoke>\n", "minimax_m2");
  expect_calls(n, {{"ls", "{}"}});
  EXPECT_EQ(n.content, "");
}

TEST(MinimaxM2, ContentAroundAndReasoning) {
  std::string text = "Let me think.\n</think>\n\nSure.\n<minimax:tool_call>\n<invoke name=\"ls\">\n</invoke>\n</minimax:tool_call>\nDone.";
  auto o = opts("minimax_m2", "think", true);
  o.starts_in_reasoning = true;
  auto m = check(text, o);
  EXPECT_EQ(m.reasoning_content, "Let me think.\n");
  EXPECT_EQ(m.content, "\n\nSure.\n\nDone.");
  expect_calls(m, {{"ls", "{}"}});
}

TEST(MinimaxM2, DetectsItsTemplate) {
  auto d = detect_format(read_template("llamacpp__unsloth-MiniMax-M2.jinja"));
  EXPECT_EQ(d.format, "minimax_m2");
  // As vLLM and MiniMax advise: the reasoning stays in the content (with the prompt's <think>
  // put back), so clients send it back in the history as the model needs.
  EXPECT_EQ(d.reasoning, "minimax_append_think");
}

// ---- seed_oss ----

namespace {
const std::string kSeedTools = R"([{"type": "function", "function": {"name": "edit", "parameters": {"type": "object", "properties": {
    "path": {"type": "string"}, "line": {"type": "integer"}, "opts": {"type": "object"}}}}}])";
}  // namespace

TEST(SeedOss, CallsAfterReasoning) {
  std::string text =
      "<seed:think>Use edit. Format: <seed:tool_call>\n<function=x>\n</function>\n</seed:tool_call></seed:think>Editing.\n"
      "<seed:tool_call>\n<function=edit>\n<parameter=path>a \"b\".cpp</parameter>\n<parameter=line>42</parameter>\n"
      "<parameter=opts>{'a': True}</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=edit>\n"
      "<parameter=path>\nmulti\nline\n</parameter>\n</function>\n</seed:tool_call>";
  auto m = both(text, "seed_oss", kSeedTools, "seed_oss");
  EXPECT_EQ(m.reasoning_content, "Use edit. Format: <seed:tool_call>\n<function=x>\n</function>\n</seed:tool_call>");
  EXPECT_EQ(m.content, "Editing.\n");
  expect_calls(m, {{"edit", "{\"path\": \"a \\\"b\\\".cpp\", \"line\": 42, \"opts\": {\"a\": true}}"},
                   {"edit", "{\"path\": \"multi\\nline\"}"}});
}

TEST(SeedOss, BrokenAndCutOff) {
  std::string cut = "Hi <seed:tool_call>\n<function=edit>\n<parameter=path>abc";
  auto w = parse_output(cut, opts("seed_oss", "seed_oss", true, kSeedTools));
  EXPECT_EQ(w.content, cut);
  EXPECT_TRUE(w.tool_calls.empty());
  // The Qwen3-Coder wrapper is not Seed-OSS's: text.
  std::string other = "<tool_call>\n<function=edit>\n</function>\n</tool_call>";
  auto o = both(other, "seed_oss", kSeedTools, "seed_oss");
  EXPECT_EQ(o.content, other);
  EXPECT_TRUE(o.tool_calls.empty());
}

TEST(SeedOss, DetectsItsTemplate) {
  auto d = detect_format(read_template("llamacpp__ByteDance-Seed-OSS.jinja"));
  EXPECT_EQ(d.format, "seed_oss");
  EXPECT_EQ(d.reasoning, "seed_oss");
  EXPECT_FALSE(d.starts_in_reasoning);
  EXPECT_EQ(parser_markers(opts("seed_oss", "seed_oss")),
            (std::vector<std::string>{"<seed:tool_call>", "</seed:tool_call>", "<function=", "</function>", "<parameter=",
                                      "</parameter>", "<seed:think>", "</seed:think>"}));
}

// ---- glm47 ----

TEST(Glm47, CallsWithoutNewlines) {
  const std::string tools = R"([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
      "city": {"type": "string"}, "days": {"type": "integer"}}}}}])";
  std::string text =
      "Checking.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value><arg_key>days</arg_key>"
      "<arg_value>3</arg_value></tool_call><tool_call>get_current_date</tool_call>";
  auto m = both(text, "glm47", tools, "think");
  EXPECT_EQ(m.content, "Checking.");
  expect_calls(m, {{"get_weather", "{\"city\": \"Beijing\", \"days\": 3}"}, {"get_current_date", "{}"}});
  // GLM-4.5's newlines are read too (the same scanner).
  auto n = both("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>", "glm47", tools);
  expect_calls(n, {{"get_weather", "{\"city\": \"Beijing\"}"}});
}

TEST(Glm47, DetectsItsTemplateAndGlm46Stays) {
  auto d = detect_format(read_template("llamacpp__GLM-4.7-Flash.jinja"));
  EXPECT_EQ(d.format, "glm47");
  EXPECT_TRUE(d.starts_in_reasoning);  // the generation prompt ends with <think>
  auto g = detect_format(read_template("llamacpp__GLM-4.6.jinja"));
  EXPECT_EQ(g.format, "glm45");
  EXPECT_FALSE(g.starts_in_reasoning);
}

// ---- deepseek_v32 ----

namespace {
std::string dsml_param(const std::string& k, bool str, const std::string& v) {
  return "<｜DSML｜parameter name=\"" + k + "\" string=\"" + (str ? "true" : "false") + "\">" + v + "</｜DSML｜parameter>\n";
}
std::string dsml_call(const std::string& name, const std::string& params) {
  return "<｜DSML｜invoke name=\"" + name + "\">\n" + params + "</｜DSML｜invoke>\n";
}
std::string dsml_block(const std::string& calls) { return "<｜DSML｜function_calls>\n" + calls + "</｜DSML｜function_calls>"; }
const std::string kDsmlTools = R"([{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
    "s": {"type": "string"}, "n": {"type": "integer"}, "x": {"type": "number"}, "o": {"anyOf": [{"type": "object"}, {"type": "null"}]},
    "ns": {"type": ["null", "string"]}, "b": {"type": "boolean"}}}}}])";
}  // namespace

TEST(DeepSeekV32, TwoCallsTyped) {
  std::string text = "Sure.\n\n" + dsml_block(dsml_call("f", dsml_param("s", true, " a \"b\"\n") + dsml_param("n", false, "42") +
                                                            dsml_param("x", false, "3.0") + dsml_param("o", true, "{\"k\": [1]}") +
                                                            dsml_param("ns", false, "null") + dsml_param("b", false, "true")) +
                                             dsml_call("g", dsml_param("q", false, "[1, 2]") + dsml_param("r", true, "[1]")));
  auto m = both("Hmm.</think>" + text, "deepseek_v32", kDsmlTools, "deepseek_r1");  // deepseek_r1 starts in reasoning
  EXPECT_EQ(m.reasoning_content, "Hmm.");
  EXPECT_EQ(m.tool_calls.size(), 2u);
  auto c = both(text, "deepseek_v32", kDsmlTools);
  EXPECT_EQ(c.content, "Sure.\n\n");
  expect_calls(c, {{"f", "{\"s\": \" a \\\"b\\\"\\n\", \"n\": 42, \"x\": 3, \"o\": {\"k\": [1]}, \"ns\": null, \"b\": true}"},
                   {"g", "{\"q\": [1, 2], \"r\": \"[1]\"}"}});
}

TEST(DeepSeekV32, SchemaCoercions) {
  auto one = [](const std::string& k, bool str, const std::string& v) {
    auto m = both(dsml_block(dsml_call("f", dsml_param(k, str, v))), "deepseek_v32", kDsmlTools);
    return m.tool_calls.size() == 1 ? m.tool_calls[0].arguments : "<no call>";
  };
  EXPECT_EQ(one("n", true, "42"), "{\"n\": 42}");      // string="true", integer schema
  EXPECT_EQ(one("n", false, "abc"), "{\"n\": \"abc\"}");
  EXPECT_EQ(one("s", false, "null"), "{\"s\": \"null\"}");  // a string schema keeps the text
  EXPECT_EQ(one("s", false, "12"), "{\"s\": \"12\"}");
  EXPECT_EQ(one("ns", false, "hello"), "{\"ns\": \"hello\"}");
  EXPECT_EQ(one("z", false, "{\"a\": 1}"), "{\"z\": {\"a\": 1}}");  // not in the schema: JSON as read
  EXPECT_EQ(one("z", true, "{\"a\": 1}"), "{\"z\": \"{\\\"a\\\": 1}\"}");
}

TEST(DeepSeekV32, BrokenAndDetection) {
  std::string bad = dsml_block(dsml_call("f", "<｜DSML｜parameter name=\"s\" string=\"maybe\">x</｜DSML｜parameter>\n"));
  auto m = parse_output(bad, opts("deepseek_v32", "none", true, kDsmlTools));
  EXPECT_EQ(m.content, bad);
  EXPECT_TRUE(m.tool_calls.empty());
  auto d = detect_format(read_template("llamacpp__DeepSeek-V3.2.jinja"));
  EXPECT_EQ(d.format, "deepseek_v32");
  EXPECT_EQ(d.reasoning, "deepseek_r1");
}

// ---- step3 ----

namespace {
const std::string kStepTools = R"([{"type": "function", "function": {"name": "edit", "parameters": {"type": "object", "properties": {
    "s": {"type": "string"}, "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"}, "o": {"type": "object"}}}}}])";
std::string step_call(const std::string& params, bool sep = true) {
  return std::string("<｜tool_call_begin｜>") + (sep ? "function<｜tool_sep｜>" : "") + "<steptml:invoke name=\"edit\">" + params +
         "</steptml:invoke><｜tool_call_end｜>";
}
}  // namespace

TEST(Step3, TypedValuesKeepStringWhitespace) {
  std::string text = "Editing.\n<｜tool_calls_begin｜>" +
                     step_call("<steptml:parameter name=\"s\">  if x:\n</steptml:parameter><steptml:parameter name=\"n\"> 4 </steptml:parameter>"
                               "<steptml:parameter name=\"x\">2</steptml:parameter><steptml:parameter name=\"b\"> True </steptml:parameter>"
                               "<steptml:parameter name=\"o\">{\"a\": 1}</steptml:parameter>") +
                     "\n" + step_call("", false) + "<｜tool_calls_end｜>";
  auto m = both(text, "step3", kStepTools, "think");
  EXPECT_EQ(m.content, "Editing.\n");
  expect_calls(m, {{"edit", "{\"s\": \"  if x:\\n\", \"n\": 4, \"x\": 2.0, \"b\": true, \"o\": \"{\\\"a\\\": 1}\"}"}, {"edit", "{}"}});
}

TEST(Step3, BrokenAndDetection) {
  std::string cut = "<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"edit\">";
  auto m = parse_output(cut, opts("step3", "none", true, kStepTools));
  EXPECT_EQ(m.content, cut);
  EXPECT_TRUE(m.tool_calls.empty());
  // No real Step-3 template is at hand: the markers its template writes.
  EXPECT_EQ(detect_format("<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"{{ name }}\">").format,
            "step3");
}

// ---- kimi_k3 ----

namespace {
std::string k3_arg(const std::string& k, const std::string& type, const std::string& v) {
  return "<|open|>argument key=\"" + k + "\" type=\"" + type + "\"<|sep|>" + v + "<|close|>argument<|sep|>";
}
}  // namespace

TEST(KimiK3, ChannelsAndTypedArguments) {
  std::string text =
      "Let me look.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|><|open|>tools<|sep|>"
      "<|open|>call tool=\"py&quot;thon\" index=\"1\"<|sep|>" + k3_arg("code", "string", "if a < b:\n  print(\"<|close|>\")") +
      k3_arg("opts", "object", "{\"a\": 1}") + k3_arg("n", "number", "2.5") + k3_arg("bad", "number", "two") +
      "<|close|>call<|sep|><|open|>call tool=\"ls\" index=\"2\"<|sep|><|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>";
  auto o = opts("kimi_k3", "kimi_k3", true);
  o.starts_in_reasoning = true;
  auto m = check(text, o);
  o.partial_calls = false;
  EXPECT_TRUE(same_message(check(text, o), m));
  EXPECT_EQ(m.reasoning_content, "Let me look.");
  EXPECT_EQ(m.content, "Checking.");
  expect_calls(m, {{"py\"thon", "{\"code\": \"if a < b:\\n  print(\\\"<|close|>\\\")\", \"opts\": {\"a\": 1}, \"n\": 2.5, \"bad\": \"two\"}"},
                   {"ls", "{}"}});
}

TEST(KimiK3, ResponseWithoutOpenAndBroken) {
  auto m = both("Hello<|close|>message<|sep|>", "kimi_k3");
  EXPECT_EQ(m.content, "Hello");
  std::string cut = "Hi<|open|>tools<|sep|><|open|>call tool=\"f\" index=\"1\"<|sep|>" + k3_arg("a", "string", "x");
  auto w = parse_output(cut, opts("kimi_k3"));
  EXPECT_EQ(w.content, cut);
  EXPECT_TRUE(w.tool_calls.empty());
}

TEST(KimiK3, DetectsItsTemplate) {
  auto d = detect_format(read_template("llamacpp__Kimi-K3.jinja"));
  EXPECT_EQ(d.format, "kimi_k3");
  EXPECT_EQ(d.reasoning, "kimi_k3");
  EXPECT_TRUE(d.starts_in_reasoning);
}

// ---- qwen3_coder (Qwen3.5): a call ends the reasoning the prompt opened ----

TEST(Qwen35, CallEndsPrefilledReasoning) {
  const std::string tools = R"([{"type": "function", "function": {"name": "run", "parameters": {"type": "object", "properties": {
      "command": {"type": "string"}}}}}])";
  std::string call = "<tool_call>\n<function=run>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>";
  for (bool partial : {true, false}) {
    auto o = opts("qwen3_coder", "qwen3", partial, tools);
    o.starts_in_reasoning = true;
    auto m = check("Let me run pwd.\n" + call, o);
    EXPECT_EQ(m.reasoning_content, "Let me run pwd.\n");
    EXPECT_EQ(m.content, "");
    expect_calls(m, {{"run", "{\"command\": \"pwd\"}"}});
    // Reasoning the model opened itself keeps the calls written in it.
    o.starts_in_reasoning = false;
    auto r = check("<think>Maybe " + call + "</think>ok", o);
    EXPECT_EQ(r.reasoning_content, "Maybe " + call);
    EXPECT_EQ(r.content, "ok");
  }
}

// A value with escaped quotes is read once unescaped; a "\u" there without four hex digits
// stays as written (it threw std::invalid_argument: fuzz_parse_qwen3_coder).
TEST(Qwen35, EscapedValuesWithABrokenUnicodeEscape) {
  const std::string tools = R"([{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
      "c": {"type": "object"}}}}}])";
  auto arguments = [&](const std::string& value) {
    auto m = check("<tool_call>\n<function=f>\n<parameter=c>\n" + value + "\n</parameter>\n</function>\n</tool_call>",
                   opts("qwen3_coder", "none", true, tools));
    return m.tool_calls.size() == 1 ? m.tool_calls[0].arguments : "<no call>";
  };
  EXPECT_EQ(arguments(R"({\"a\": \"\u00e9\"})"), "{\"c\": {\"a\": \"\xC3\xA9\"}}");
  // Not JSON once unescaped: the value as written, a string.
  EXPECT_EQ(arguments(R"({\"a\": \unction})"), R"({"c": "{\\\"a\\\": \\unction}"})");
  EXPECT_EQ(arguments(R"({\"a\": \u12})"), R"({"c": "{\\\"a\\\": \\u12}"})");
}

// ---- minimax (MiniMax-M1) ----

TEST(Minimax, JsonLinesBlock) {
  std::string text = "Sure. <tool_calls>\n{\"name\": \"a\", \"arguments\": {\"x\": 1}}\n{\"name\": \"b\", \"arguments\": {}}\n</tool_calls>";
  auto m = both(text, "minimax");
  EXPECT_EQ(m.content, "Sure. ");
  expect_calls(m, {{"a", "{\"x\": 1}"}, {"b", "{}"}});
  // A block that breaks keeps the calls before the break; the rest is content as written.
  auto b = check("<tool_calls>\n{\"name\": \"a\", \"arguments\": {}}\noops\n</tool_calls>", opts("minimax"));
  expect_calls(b, {{"a", "{}"}});
  EXPECT_EQ(b.content, "\noops\n</tool_calls>");
  auto d = detect_format(read_template("corpus:vllm__tool_chat_template_minimax_m1.jinja"));
  EXPECT_EQ(d.format, "minimax");
}
