// Tool call families of the "more" group: gemma4, lfm2, cohere, apertus, nemotron, gigachat3 and
// (and the detection of Llama 4's JSON and pythonic templates). Whole and streamed
// parses (every split must give what one feed gives), values, reasoning blocks the formats read
// themselves, broken and cut-off calls, content around calls, and detection from the models' real
// chat templates.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/parse_stream.hpp"
#include "support/test_paths.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;

namespace {

OutputParserOptions opts(std::string format, bool partial = true) {
  OutputParserOptions o;
  o.format = std::move(format);
  o.partial_calls = partial;
  o.id_seed = 42;
  return o;
}

// The whole message, after checking that 1-byte and random splits give the same.
ParsedMessage check(std::string_view text, const OutputParserOptions& o) {
  ParsedMessage whole = streamed(text, o, {});
  std::vector<std::size_t> bytes;
  for (std::size_t i = 1; i < text.size(); ++i) bytes.push_back(i);
  EXPECT_TRUE(same_message(streamed(text, o, bytes), whole)) << "1-byte splits: " << text;
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < text.size(); ++i)
      if (rng() % 5 == 0) cuts.push_back(i);
    EXPECT_TRUE(same_message(streamed(text, o, cuts), whole)) << "random split " << round << ": " << text;
  }
  return whole;
}

// Both call modes and parse_output agree (for texts whose calls all complete).
ParsedMessage check_all(std::string_view text, const std::string& format) {
  ParsedMessage a = check(text, opts(format, true));
  ParsedMessage b = check(text, opts(format, false));
  EXPECT_TRUE(same_message(a, b)) << text;
  EXPECT_TRUE(same_message(a, parse_output(text, opts(format)))) << text;
  return a;
}

std::string read_template(const std::string& name) {
  // tests/data/parsers/templates (see its SOURCES.md), else the rendering corpus.
  std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/parsers/templates/" + name);
  if (!in) in.open(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The arguments streamed for call `index`, fragment by fragment, fed one byte at a time.
std::vector<std::string> fragments(std::string_view text, const OutputParserOptions& o, int index = 0) {
  OutputParser p(o);
  std::vector<std::string> out;
  auto take = [&](const std::vector<ChatDelta>& deltas) {
    for (auto& d : deltas)
      if (d.kind == ChatDelta::Kind::tool_call && d.index == index && !d.text.empty()) out.push_back(d.text);
  };
  for (char c : text) {
    std::vector<ChatDelta> deltas;  // one feed's deltas (a vector merges consecutive pieces)
    p.feed(std::string_view(&c, 1), deltas);
    take(deltas);
  }
  std::vector<ChatDelta> deltas;
  p.finish(deltas);
  take(deltas);
  return out;
}

}  // namespace

// ---- gemma4 ----

TEST(Gemma4, TwoCallsWithContentBefore) {
  auto m = check_all(
      "Let me check. <|tool_call>call:get_weather{city:<|\"|>Paris, \"France\"<|\"|>,days:3}<tool_call|>"
      "<|tool_call>call:get_time{tz:<|\"|>Asia/Tokyo<|\"|>}<tool_call|>",
      "gemma4");
  EXPECT_EQ(m.content, "Let me check. ");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].name, "get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris, \"France\"", "days": 3})");
  EXPECT_EQ(m.tool_calls[1].name, "get_time");
  EXPECT_EQ(m.tool_calls[1].arguments, R"({"tz": "Asia/Tokyo"})");
  EXPECT_EQ(m.finish_reason, "tool_calls");
}

TEST(Gemma4, Values) {
  auto m = check_all(
      "<|tool_call>call:f{s:<|\"|>a < b <| \"|> c\\n\n日本<|\"|>,i:-42,x:3.5e-2,t:true,f:false,n:null,none:None,"
      "word:hello world,o:{inner:<|\"|>v<|\"|>,<|\"|>3<|\"|>:{deep:[1,[2,3],{}]}},a:[<|\"|>x<|\"|>,true,{k:1}],e:[],eo:{}}"
      "<tool_call|>",
      "gemma4");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments,
            R"({"s": "a < b <| \"|> c\\n\n日本", "i": -42, "x": 3.5e-2, "t": true, "f": false, "n": null, "none": null, )"
            R"("word": "hello world", "o": {"inner": "v", "3": {"deep": [1, [2, 3], {}]}}, "a": ["x", true, {"k": 1}], "e": [], "eo": {}})");
  // Whitespace around keys and values, a trailing comma, and values that are not JSON numbers.
  m = check_all("<|tool_call>call:f{ a : 1 , b : <|\"|> x <|\"|> , c: 007, d: 1., e: +1,}<tool_call|>", "gemma4");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"a": 1, "b": " x ", "c": "007", "d": "1.", "e": "+1"})");
  m = check_all("<|tool_call>call:get_status{}<tool_call|>", "gemma4");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, "{}");
  m = check_all("<|tool_call>call:weather.get-now{}<tool_call|>", "gemma4");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "weather.get-now");
}

TEST(Gemma4, StringsStreamAsWrittenAndBareValuesAtTheirEnd) {
  std::string text = "<|tool_call>call:f{path:<|\"|>a<b<|\"|>,n:12,flag:true}<tool_call|>";
  auto frags = fragments(text, opts("gemma4"));
  std::string all;
  for (auto& f : frags) all += f;
  EXPECT_EQ(all, R"({"path": "a<b", "n": 12, "flag": true})");
  // "a" goes out before its string ends; "<" is held until "b" shows it is not the delimiter.
  ASSERT_GE(frags.size(), 6u);
  EXPECT_EQ(frags[0], "{");
  EXPECT_NE(std::find(frags.begin(), frags.end(), "a"), frags.end());
  EXPECT_NE(std::find(frags.begin(), frags.end(), "12"), frags.end());  // a number at once, at its end
  for (auto& f : frags) EXPECT_EQ(f.find("<|"), std::string::npos) << f;
}

TEST(Gemma4, BrokenAndCutOffCalls) {
  // Cut off inside a string: a whole message gives it back as written; a stream keeps what it sent.
  std::string cut = "Hi <|tool_call>call:get_weather{location:<|\"|>London";
  auto whole = parse_output(cut, opts("gemma4"));
  EXPECT_EQ(whole.content, cut);
  EXPECT_TRUE(whole.tool_calls.empty());
  EXPECT_EQ(whole.finish_reason, "stop");
  auto held = check(cut, opts("gemma4", false));
  EXPECT_EQ(held.content, cut);
  EXPECT_TRUE(held.tool_calls.empty());
  auto partial = check(cut, opts("gemma4", true));
  ASSERT_EQ(partial.tool_calls.size(), 1u);
  EXPECT_EQ(partial.tool_calls[0].arguments, R"({"location": "London)");
  // Malformed: no value, a bad close, a missing "call:", a name with a space; then a good call is read.
  for (std::string bad : {"<|tool_call>call:f{a:}<tool_call|>", "<|tool_call>call:f{a:1]<tool_call|>",
                          "<|tool_call>f{a:1}<tool_call|>", "<|tool_call>call:f g{a:1}<tool_call|>",
                          "<|tool_call>call:f{a:1}}<tool_call|>", "<|tool_call>call:f{a:1} x<tool_call|>"}) {
    std::string text = bad + " <|tool_call>call:g{b:2}<tool_call|>";
    auto m = parse_output(text, opts("gemma4"));
    EXPECT_EQ(m.content, bad + " ") << bad;
    ASSERT_EQ(m.tool_calls.size(), 1u) << bad;
    EXPECT_EQ(m.tool_calls[0].name, "g");
    check(text, opts("gemma4", false));
    check(text, opts("gemma4", true));
  }
  // Arguments complete when the output ends: a call without its <tool_call|>.
  auto m = check_all("<|tool_call>call:f{a:1}", "gemma4");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"a": 1})");
}

TEST(Gemma4, TextAroundCalls) {
  auto m = check_all("<|tool_call>call:f{a:1}<tool_call|>\n\nDone: <div> & <|tool_call", "gemma4");
  EXPECT_EQ(m.content, "\n\nDone: <div> & <|tool_call");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  m = check_all("<|tool_call>call:f{a:1}<tool_call|>\n<|tool_call>call:g{}<tool_call|>\n", "gemma4");
  EXPECT_EQ(m.content, "");
  EXPECT_EQ(m.tool_calls.size(), 2u);
}

TEST(Gemma4, ThinkingChannelIsReasoning) {
  auto m = check_all("<|channel>thought\nThe user wants <b>weather</b>.<channel|>Sure. <|tool_call>call:f{a:1}<tool_call|>", "gemma4");
  EXPECT_EQ(m.reasoning_content, "The user wants <b>weather</b>.");
  EXPECT_EQ(m.content, "Sure. ");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  m = check_all("<|channel>thousand reasons<channel|>Done", "gemma4");
  EXPECT_EQ(m.reasoning_content, "thousand reasons");
  EXPECT_EQ(m.content, "Done");
  m = check_all("<|channel>thought\n<channel|>", "gemma4");
  EXPECT_EQ(m.reasoning_content, "");
  EXPECT_EQ(m.content, "");
  m = check_all("<|channel>thought\nstill thinking <channel", "gemma4");
  EXPECT_EQ(m.reasoning_content, "still thinking <channel");
  m = check_all("<|channel>thou", "gemma4");
  EXPECT_EQ(m.reasoning_content, "thou");
}

TEST(Gemma4, Detect) {
  auto d = detect_format(read_template("vllm__tool_chat_template_gemma4.jinja"));
  EXPECT_EQ(d.format, "gemma4");
  // Gemma 3's templates write pythonic calls or none.
  EXPECT_NE(detect_format(read_template("chujiezheng__gemma-it.jinja")).format, "gemma4");
  auto markers = parser_markers(opts("gemma4"));
  EXPECT_NE(std::find(markers.begin(), markers.end(), "<|\"|>"), markers.end());
}

// ---- lfm2 ----

TEST(Lfm2, PythonicCallsWithContentAround) {
  auto m = check_all(
      "Let me check. <|tool_call_start|>[get_weather(city='Paris', days=3), get_time(tz=\"Asia/Tokyo\")]<|tool_call_end|>"
      "\nChecking the weather.",
      "lfm2");
  EXPECT_EQ(m.content, "Let me check. \nChecking the weather.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].name, "get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  EXPECT_EQ(m.tool_calls[1].arguments, R"({"tz": "Asia/Tokyo"})");
  m = check_all("<|tool_call_start|> [ grocery.order(items=[{'name': 'apple', 'n': 2}], rush=True, note=None) ] <|tool_call_end|>",
                "lfm2");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "grocery.order");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"items": [{"name": "apple", "n": 2}], "rush": true, "note": null})");
  EXPECT_EQ(m.content, "");
  // LFM2.5's template writes dict arguments as JSON (tojson): true, false and null are read too.
  m = check_all("<|tool_call_start|>[f(opts={\"a\": true, \"b\": [false, null]}, flag=True)]<|tool_call_end|>", "lfm2");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"opts": {"a": true, "b": [false, null]}, "flag": true})");
  // Pythonic itself stays Python: `true` is a name there.
  EXPECT_TRUE(parse_output("[f(a=true)]", opts("pythonic")).tool_calls.empty());
}

TEST(Lfm2, JsonCallsOfLfm2sTemplate) {
  std::string text =
      "<|tool_call_start|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}, \"id\": \"call_1\"}, "
      "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]<|tool_call_end|>Checking.";
  // The "id" after the arguments names a held call (a streamed call's header went out before it).
  auto held = check(text, opts("lfm2", false));
  ASSERT_EQ(held.tool_calls.size(), 2u);
  EXPECT_EQ(held.tool_calls[0].id, "call_1");
  auto m = check(text, opts("lfm2", true));
  EXPECT_EQ(m.content, "Checking.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  EXPECT_EQ(m.tool_calls[1].name, "get_time");
  // Both forms in one list.
  m = check_all("<|tool_call_start|>[f(a=1), {\"name\": \"g\", \"arguments\": {}}]<|tool_call_end|>", "lfm2");
  ASSERT_EQ(m.tool_calls.size(), 2u);
}

TEST(Lfm2, BrokenAndCutOffCalls) {
  // A call that breaks after a complete one: the complete one is kept, the rest is content.
  std::string text = "<|tool_call_start|>[f(a=1), bad(x=b'z')]<|tool_call_end|>";
  for (bool partial : {true, false}) {
    auto m = check(text, opts("lfm2", partial));
    // Streamed, the second call's header and `{"x": ` went out before the bytes literal broke it.
    ASSERT_EQ(m.tool_calls.size(), partial ? 2u : 1u);
    EXPECT_EQ(m.tool_calls[0].arguments, R"({"a": 1})");
    EXPECT_EQ(m.content, partial ? "b'z')]<|tool_call_end|>" : ", bad(x=b'z')]<|tool_call_end|>");
  }
  EXPECT_TRUE(same_message(parse_output(text, opts("lfm2")), check(text, opts("lfm2", false))));
  // Cut off inside the first call: content as written (whole, held), or the arguments sent (partial).
  std::string cut = "<|tool_call_start|>[f(a='abc";
  EXPECT_EQ(parse_output(cut, opts("lfm2")).content, cut);
  EXPECT_EQ(check(cut, opts("lfm2", false)).content, cut);
  auto partial = check(cut, opts("lfm2", true));
  ASSERT_EQ(partial.tool_calls.size(), 1u);
  EXPECT_EQ(partial.tool_calls[0].arguments, R"({"a": "abc)");
  // An empty list, and positional arguments, are not calls.
  for (std::string bad : {"<|tool_call_start|>[]<|tool_call_end|>", "<|tool_call_start|>[f(1)]<|tool_call_end|>"}) {
    auto m = check_all(bad, "lfm2");
    EXPECT_EQ(m.content, bad);
    EXPECT_TRUE(m.tool_calls.empty());
  }
  // The list closed when the output ends: complete without <|tool_call_end|>.
  auto m = check_all("<|tool_call_start|>[f(a=1)]", "lfm2");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.content, "");
  // Text between "]" and the end tag: the calls stay, the rest is content.
  m = check_all("<|tool_call_start|>[f(a=1)] oops", "lfm2");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.content, " oops");
}

TEST(Lfm2, Detect) {
  EXPECT_EQ(detect_format(read_template("llama.cpp__LFM2.5-8B-A1B.jinja")).format, "lfm2");
  EXPECT_EQ(detect_format(read_template("llama.cpp__LFM2.5-8B-A1B.jinja")).reasoning, "think");
  EXPECT_EQ(detect_format(read_template("llama.cpp__llama-cpp-lfm2.jinja")).format, "lfm2");
  EXPECT_NE(detect_format(read_template("vllm__tool_chat_template_minicpm3.jinja")).format, "lfm2");  // <|tool_call_start|> + ```python
}

// ---- cohere ----

TEST(Cohere, ThinkingActionResponse) {
  std::string text =
      "<|START_THINKING|>I will look up the weather.<|END_THINKING|><|START_ACTION|>[\n"
      "    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}},\n"
      "    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}\n"
      "]<|END_ACTION|>";
  auto m = check_all(text, "cohere");
  EXPECT_EQ(m.reasoning_content, "I will look up the weather.");
  EXPECT_EQ(m.content, "");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].name, "get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  EXPECT_NE(m.tool_calls[0].id, "0");  // generated ids, unique in the conversation
  EXPECT_EQ(m.tool_calls[1].arguments, R"({"tz": "Asia/Tokyo"})");
  EXPECT_EQ(m.finish_reason, "tool_calls");
  m = check_all("<|START_THINKING|>Easy.<|END_THINKING|><|START_RESPONSE|>It is <b>sunny</b> < 30°.<|END_RESPONSE|>", "cohere");
  EXPECT_EQ(m.reasoning_content, "Easy.");
  EXPECT_EQ(m.content, "It is <b>sunny</b> < 30°.");
  EXPECT_TRUE(m.tool_calls.empty());
  // Text outside blocks is content; empty blocks are nothing.
  m = check_all("Hi<|START_THINKING|><|END_THINKING|><|START_RESPONSE|><|END_RESPONSE|>", "cohere");
  EXPECT_EQ(m.content, "Hi");
  EXPECT_EQ(m.reasoning_content, "");
}

TEST(Cohere, CitationTagsAreDropped) {
  auto m = check_all(
      "<|START_THINKING|>A <co>rainbow</co: 0:[1]> emoji<|END_THINKING|>\n<|START_RESPONSE|>foo <co>bar</co: 0:[1,2],1:[3,4]>"
      " and <co>baz</co> but </co: x> and <cop> stay<|END_RESPONSE|>",
      "cohere");
  EXPECT_EQ(m.reasoning_content, "A rainbow emoji");
  EXPECT_EQ(m.content, "foo bar and baz but </co: x> and <cop> stay");  // whitespace between blocks is dropped
}

TEST(Cohere, BrokenAndCutOffCalls) {
  std::string cut = "<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"f\", \"parameters\": {\"q\": \"abc";
  EXPECT_EQ(parse_output(cut, opts("cohere")).content, cut);
  EXPECT_EQ(check(cut, opts("cohere", false)).content, cut);
  auto partial = check(cut, opts("cohere", true));
  ASSERT_EQ(partial.tool_calls.size(), 1u);
  EXPECT_EQ(partial.tool_calls[0].arguments, R"({"q": "abc)");
  // No tool name, arguments not an object: content as written.
  for (std::string bad : {"<|START_ACTION|>[{\"tool_call_id\": \"0\", \"parameters\": {}}]<|END_ACTION|>",
                          "<|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": [1]}]<|END_ACTION|>",
                          "<|START_ACTION|>{\"tool_name\": \"f\", \"parameters\": {}}<|END_ACTION|>"}) {
    auto m = check_all(bad, "cohere");
    EXPECT_EQ(m.content, bad);
    EXPECT_TRUE(m.tool_calls.empty());
  }
  // A closed list when the output ends: complete without <|END_ACTION|>. Unclosed thinking is reasoning.
  auto m = check_all("<|START_ACTION|>[{\"tool_name\": \"f\", \"parameters\": {}}]", "cohere");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  m = check_all("<|START_THINKING|>still thinking <co>x</co: 0:[", "cohere");
  EXPECT_EQ(m.reasoning_content, "still thinking x</co: 0:[");
}

TEST(Cohere, Detect) {
  EXPECT_EQ(detect_format(read_template("llama.cpp__CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja")).format, "cohere");
}

// ---- apertus ----

TEST(Apertus, CallsWithContentAround) {
  auto m = check_all(
      "Let me check. <|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3}}, {\"get_time\": {\"tz\": \"Asia/Tokyo\"}}]"
      "<|tools_suffix|> Done.",
      "apertus");
  EXPECT_EQ(m.content, "Let me check.  Done.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].name, "get_weather");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  EXPECT_EQ(m.tool_calls[1].arguments, R"({"tz": "Asia/Tokyo"})");
  m = check_all("<|tools_prefix|>[ {\"a\\\"b\" : {\"x\": [1, {\"y\": \"}\"}]} } ]<|tools_suffix|>", "apertus");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "a\"b");
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"x": [1, {"y": "}"}]})");
}

TEST(Apertus, BrokenAndCutOffCalls) {
  // Arguments complete when the output ends: a call, without the rest of the block.
  auto m = check_all("<|tools_prefix|>[{\"get_weather\": {\"location\": \"London\"}", "apertus");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"location": "London"})");
  EXPECT_EQ(m.content, "");
  m = check_all("<|tools_prefix|>[{\"f\": {}}]", "apertus");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.content, "");
  // Cut off inside the arguments.
  std::string cut = "<|tools_prefix|>[{\"f\": {\"q\": \"ab";
  EXPECT_EQ(parse_output(cut, opts("apertus")).content, cut);
  auto partial = check(cut, opts("apertus", true));
  ASSERT_EQ(partial.tool_calls.size(), 1u);
  EXPECT_EQ(partial.tool_calls[0].arguments, R"({"q": "ab)");
  // Two keys, arguments not an object, no list: content as written.
  for (std::string bad : {"<|tools_prefix|>[{\"f\": {}, \"g\": {}}]<|tools_suffix|>", "<|tools_prefix|>[{\"f\": [1]}]<|tools_suffix|>",
                          "<|tools_prefix|>{\"f\": {}}<|tools_suffix|>"}) {
    auto b = parse_output(bad, opts("apertus"));
    EXPECT_EQ(b.content, bad);
    EXPECT_TRUE(b.tool_calls.empty());
    check(bad, opts("apertus", false));
    check(bad, opts("apertus", true));
  }
}

TEST(Apertus, DeliberationIsReasoning) {
  auto m = check_all("<|inner_prefix|>Let me <think>.<|inner_suffix|>The answer", "apertus");
  EXPECT_EQ(m.reasoning_content, "Let me <think>.");
  EXPECT_EQ(m.content, "The answer");
  // Calls inside the deliberation end it.
  m = check_all("<|inner_prefix|>Need weather.<|tools_prefix|>[{\"f\": {\"a\": 1}}]<|tools_suffix|>", "apertus");
  EXPECT_EQ(m.reasoning_content, "Need weather.");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.content, "");
  m = check_all("<think>not a block</think>plain", "apertus");
  EXPECT_EQ(m.content, "<think>not a block</think>plain");
  m = check_all("<|inner_prefix|>cut <|inner_suf", "apertus");
  EXPECT_EQ(m.reasoning_content, "cut <|inner_suf");
}

TEST(Apertus, Detect) {
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_apertus.jinja")).format, "apertus");
}

// ---- nemotron ----

TEST(Nemotron, CallsWithContentAround) {
  auto m = check_all(
      "Let me check.<TOOLCALL>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
      "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]</TOOLCALL>\nDone.",
      "nemotron");
  EXPECT_EQ(m.content, "Let me check.\nDone.");
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  EXPECT_EQ(m.tool_calls[1].name, "get_time");
  // One object without the list.
  m = check_all("<TOOLCALL>{\"name\": \"lookup\", \"arguments\": {\"query\": \"vllm\"}}</TOOLCALL>", "nemotron");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"query": "vllm"})");
  // With reasoning (Nemotron Nano v2 thinks in <think>).
  auto o = opts("nemotron");
  o.reasoning = "qwen3";
  m = check("<think>\nNeed weather.\n</think>\n<TOOLCALL>[{\"name\": \"f\", \"arguments\": {}}]</TOOLCALL>", o);
  EXPECT_EQ(m.reasoning_content, "\nNeed weather.\n");
  ASSERT_EQ(m.tool_calls.size(), 1u);
}

TEST(Nemotron, BrokenAndCutOffCalls) {
  std::string bad = "<TOOLCALL>[{\"name\": \"broken\", \"arguments\": {}</TOOLCALL>";
  for (bool partial : {true, false}) {
    auto m = check(bad, opts("nemotron", partial));
    EXPECT_EQ(m.content, partial ? "</TOOLCALL>" : bad);
  }
  EXPECT_EQ(parse_output(bad, opts("nemotron")).content, bad);
  // String arguments are not an object: content as written.
  std::string str = "<TOOLCALL>[{\"name\": \"q\", \"arguments\": \"{}\"}]</TOOLCALL>";
  EXPECT_EQ(check_all(str, "nemotron").content, str);
  // A closed list when the output ends is complete.
  auto m = check_all("<TOOLCALL>[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]", "nemotron");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.content, "");
}

TEST(Nemotron, DetectAndLlama4Templates) {
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_nemotron_json.jinja")).format, "nemotron");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_nemotron_nano_v2.jinja")).format, "nemotron");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_nemotron_nano_v2.jinja")).reasoning, "qwen3");
  EXPECT_EQ(detect_format(read_template("llama.cpp__nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja")).format, "nemotron");
  // Llama 4's JSON template writes llama3_json's calls; its pythonic template (and Llama 3.2's) pythonic ones.
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_llama4_json.jinja")).format, "llama3_json");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_llama4_pythonic.jinja")).format, "pythonic");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_llama3.2_pythonic.jinja")).format, "pythonic");
  // Llama 4's JSON calls, one after another as its template writes them.
  auto m = check_all("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}{\"name\": \"get_time\", \"parameters\": {}}",
                     "llama3_json");
  EXPECT_EQ(m.tool_calls.size(), 2u);
}

// ---- gigachat3 ----

TEST(GigaChat3, CallAfterTheText) {
  std::string call = "function call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}";
  auto m = check_all("I'll check.<|message_sep|>\n\n" + call, "gigachat3");
  EXPECT_EQ(m.content, "I'll check.");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].arguments, R"({"city": "Paris", "days": 3})");
  m = check_all("I'll check.<|message_sep|>\n\n" + call + "</s>", "gigachat3");  // the end token in the text
  EXPECT_EQ(m.content, "I'll check.");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  // GigaChat 3.1.
  m = check_all("I'll check.<|function_call|>{\"name\": \"f\", \"arguments\": {}}<|message_sep|>", "gigachat3");
  EXPECT_EQ(m.content, "I'll check.");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  // A text that ends with its separator: the separator is the format's.
  m = check_all("Just text.<|message_sep|>\n\n", "gigachat3");
  EXPECT_EQ(m.content, "Just text.");
  EXPECT_TRUE(m.tool_calls.empty());
}

TEST(GigaChat3, BrokenAndCutOffCalls) {
  std::string other = "Text<|message_sep|>\n\nuser<|role_sep|>\nhi";
  EXPECT_EQ(check_all(other, "gigachat3").content, other);
  std::string cut = "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"f\", \"arguments\": {\"q\": \"ab";
  EXPECT_EQ(parse_output(cut, opts("gigachat3")).content, cut);
  auto partial = check(cut, opts("gigachat3", true));
  ASSERT_EQ(partial.tool_calls.size(), 1u);
  EXPECT_EQ(partial.tool_calls[0].arguments, R"({"q": "ab)");
  std::string bad = "<|function_call|>{\"name\": \"f\", \"arguments\": \"{}\"}";
  EXPECT_EQ(check_all(bad, "gigachat3").content, bad);
}

TEST(GigaChat3, Detect) {
  EXPECT_EQ(detect_format(read_template("llama.cpp__GigaChat3-10B-A1.8B.jinja")).format, "gigachat3");
}

