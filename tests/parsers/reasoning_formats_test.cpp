// The reasoning formats of src/parsers/reasoning_formats.cpp: each new format whole and
// streamed (every case also in 1-byte and random splits), marker pieces split anywhere, the
// answer wrappers, Gemma 4's label, the content prefix, and detection from real chat templates.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/parse_stream.hpp"
#include "textedge/error.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;

namespace {

OutputParserOptions opts(const std::string& reasoning, bool starts = false, const std::string& format = "none") {
  OutputParserOptions o;
  o.format = format;
  o.reasoning = reasoning;
  o.starts_in_reasoning = starts;
  o.id_seed = 1;
  return o;
}

// parse_output, checked against one feed, 1-byte splits and random splits.
ParsedMessage check(std::string_view text, const OutputParserOptions& o) {
  ParsedMessage whole = parse_output(text, o);
  std::vector<std::size_t> bytes, random;
  std::mt19937 rng(static_cast<unsigned>(text.size()));
  for (std::size_t i = 1; i < text.size(); ++i) {
    bytes.push_back(i);
    if (rng() % 3 == 0) random.push_back(i);
  }
  for (bool partial : {true, false}) {
    OutputParserOptions so = o;
    so.partial_calls = partial;
    EXPECT_TRUE(same_message(streamed(text, so, {}), whole)) << text;
    EXPECT_TRUE(same_message(streamed(text, so, bytes), whole)) << text;
    EXPECT_TRUE(same_message(streamed(text, so, random), whole)) << text;
  }
  return whole;
}

void expect(std::string_view text, const OutputParserOptions& o, const std::string& reasoning, const std::string& content) {
  ParsedMessage m = check(text, o);
  EXPECT_EQ(m.reasoning_content, reasoning) << o.reasoning << ": " << text;
  EXPECT_EQ(m.content, content) << o.reasoning << ": " << text;
}

std::string read_template(const std::string& name) {
  std::ifstream in(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/" + name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

}  // namespace

TEST(ReasoningFormats, ListedAndChecked) {
  auto names = list_reasoning_formats();
  std::vector<std::string> first(names.begin(), names.begin() + 6);
  EXPECT_EQ(first, (std::vector<std::string>{"none", "think", "qwen3", "deepseek_r1", "mistral", "harmony"}));
  for (const char* n : {"step3", "granite", "kimi", "seed_oss", "cohere", "gemma4", "hunyuan", "ernie45", "minimax_append_think"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_THROW(OutputParser(opts("nope")), Error);
  EXPECT_THROW(OutputParser(opts("harmony")), Error);  // goes with the harmony tool format
  EXPECT_EQ(parser_markers(opts("granite")), (std::vector<std::string>{"Here is my thought process:", "Here's my thought process:",
                                                                       "Here is my response:", "Here's my response:"}));
  EXPECT_EQ(parser_markers(opts("cohere")),
            (std::vector<std::string>{"<|START_THINKING|>", "<|END_THINKING|>", "<|START_RESPONSE|>", "<|START_TEXT|>",
                                      "<|END_RESPONSE|>", "<|END_TEXT|>"}));
  EXPECT_EQ(parser_markers(opts("gemma4")), (std::vector<std::string>{"<|channel>", "<channel|>"}));
  EXPECT_EQ(parser_markers(opts("minimax_append_think")), (std::vector<std::string>{"</think>", "<think>"}));
}

TEST(ReasoningFormats, Granite) {
  auto o = opts("granite");
  expect("Here is my thought process:plan Here is my response: answer", o, "plan ", " answer");
  expect("Here's my thought process: plan\nHere's my response:\nanswer", o, " plan\n", "\nanswer");
  expect("Here is my thought process: a Here is my response: b", o, " a ", " b");
  // A marker broken off is text where it stands.
  expect("Here is my thought failure", o, "", "Here is my thought failure");
  expect("Here is my thought process: foo Here was Here is my response: bar", o, " foo Here was ", " bar");
  expect("Here is my thought process: cut Here is my resp", o, " cut Here is my resp", "");
  // Only before other content (whitespace aside).
  expect("\nHere is my thought process: a Here is my response: b", o, " a ", "\n b");
  expect("Sure. Here is my thought process: a", o, "", "Sure. Here is my thought process: a");
  expect("Here is my thought process:", o, "", "");
}

TEST(ReasoningFormats, Kimi) {
  auto o = opts("kimi");
  expect("◁think▷Let me see.◁/think▷42", o, "Let me see.", "42");
  expect("◁think▷cut off ◁/thi", o, "cut off ◁/thi", "");
  expect("No thinking ◁think▷ here", o, "", "No thinking ◁think▷ here");
  expect("◁/think▷ stray", o, "", "◁/think▷ stray");
}

TEST(ReasoningFormats, Step3StartsInReasoningAndKeepsALeadingThink) {
  auto o = opts("step3");
  expect("plan</think>answer", o, "plan", "answer");
  expect("all reasoning", o, "all reasoning", "");
  expect("<think>plan</think>answer", o, "<think>plan", "answer");  // as vLLM: before </think> is reasoning
  // deepseek_r1 drops it.
  expect("<think>plan</think>answer", opts("deepseek_r1"), "plan", "answer");
}

TEST(ReasoningFormats, SeedOss) {
  auto o = opts("seed_oss");
  expect("<seed:think>plan</seed:think>answer", o, "plan", "answer");
  expect("answer only", o, "", "answer only");
  expect("plan</seed:think>answer", opts("seed_oss", true), "plan", "answer");
  expect("<seed:think>plan</seed:think>answer", opts("seed_oss", true), "plan", "answer");  // the repeated opener dropped
  // Every opener before any reasoning text is dropped, however many (fuzz_parse_reasoning's
  // regression mistral_leading_openers_run); one after reasoning text is reasoning.
  expect("[THINK]\r\r[THINK]\r\n[THINK]plan[THINK]more[/THINK]ok", opts("mistral", true), "\r\r\r\nplan[THINK]more", "ok");
  expect("<seed:think>plan<seed:cot_budget_reflect>used 10</seed:cot_budget_reflect></seed:think>ok", o,
         "plan<seed:cot_budget_reflect>used 10</seed:cot_budget_reflect>", "ok");
}

TEST(ReasoningFormats, CohereDropsTheResponseWrapper) {
  auto o = opts("cohere");
  expect("<|START_THINKING|>plan<|END_THINKING|><|START_RESPONSE|>Hi there<|END_RESPONSE|>", o, "plan", "Hi there");
  expect("<|START_RESPONSE|>Hi<|END_RESPONSE|>", o, "", "Hi");
  expect("<|START_THINKING|>plan<|END_THINKING|>Hi", o, "plan", "Hi");
  expect("<|START_THINKING|>plan<|END_THINKING|>\n<|START_RESPONSE|>Hi<|END_RES", o, "plan", "\nHi<|END_RES");
  expect("Hi <|START_RESPONSE|>x<|END_RESPONSE|>", o, "", "Hi <|START_RESPONSE|>x<|END_RESPONSE|>");  // not at the start
  expect("<|START_RESPONSE|>a<|END_RESPONSE|>b<|END_RESPONSE|>", o, "", "ab<|END_RESPONSE|>");  // the first close only
  // Command 4: the prompt opens the thinking; the answer is in <|START_TEXT|>.
  expect("plan<|END_THINKING|><|START_TEXT|>Hi<|END_TEXT|>", opts("cohere", true), "plan", "Hi");
  expect("<|START_THINKING|>plan<|END_THINKING|><|START_TEXT|>Hi<|END_TEXT|>", opts("cohere", true), "plan", "Hi");
}

TEST(ReasoningFormats, Gemma4DropsTheThoughtLabel) {
  auto o = opts("gemma4");
  expect("<|channel>thought\nLet me see.<channel|>The answer.", o, "Let me see.", "The answer.");
  expect("<|channel>thoughtful<channel|>x", o, "thoughtful", "x");  // not the label: reasoning as written
  expect("<|channel>thou", o, "thou", "");                          // cut inside the label: reasoning
  expect("<|channel>thought\n", o, "", "");
  expect("<|channel>th<channel|>x", o, "th", "x");  // the label's bytes so far, then the close marker
  expect("<|channel>thought\n<|channel>a<channel|>b", o, "a", "b");  // a repeated opener dropped
  expect("Answer without thinking.", o, "", "Answer without thinking.");
}

// A tool call format that reads the reasoning itself (read_by_format) turns the layer off: the
// text reaches the format as written.
TEST(ReasoningFormats, ReadByItsToolFormat) {
  for (const char* name : {"gemma4", "cohere"}) {
    auto formats = list_formats();
    if (std::find(formats.begin(), formats.end(), name) == formats.end()) continue;
    std::string text = name == std::string("gemma4") ? "<|channel>thought\nplan<channel|>Hi" : "<|START_THINKING|>plan<|END_THINKING|><|START_RESPONSE|>Hi<|END_RESPONSE|>";
    ParsedMessage with = check(text, opts(name, false, name)), alone = check(text, opts("none", false, name));
    EXPECT_EQ(with.reasoning_content, alone.reasoning_content) << name;
    EXPECT_EQ(with.content, alone.content) << name;
  }
}

TEST(ReasoningFormats, HunyuanAnswerIsContentWithoutItsTags) {
  auto o = opts("hunyuan");
  expect("<think>\nplan\n</think>\n<answer>\nHi\n</answer>", o, "\nplan\n", "\n\nHi\n");
  expect("<answer>\nHi\n</answer>", o, "", "\nHi\n");  // enable_thinking off: the prompt closed the reasoning
  expect("<think>plan</think><answer>Hi</answer> tail", o, "plan", "Hi tail");
  expect("<think>plan</think>no wrapper <answer>", o, "plan", "no wrapper <answer>");
  expect("<think>plan</think><answer>cut", o, "plan", "cut");
}

TEST(ReasoningFormats, Ernie45) {
  auto o = opts("ernie45");
  expect("abc\n</think>\n\n<response>\ndef\n</response>\n", o, "abc\n", "\n\n\ndef\n\n");
  expect("abc\n</think>\ndef", o, "abc\n", "\ndef");
  expect("abc", o, "abc", "");
  expect("<think>abc</think>def", o, "abc", "def");
}

TEST(ReasoningFormats, MiniMaxAppendThinkKeepsTheReasoningInTheContent) {
  auto o = opts("minimax_append_think");
  expect("plan</think>answer", o, "", "<think>plan</think>answer");
  expect("", o, "", "<think>");
  // Through a tool format, the prefix is content ahead of the calls.
  auto h = opts("minimax_append_think", false, "hermes");
  ParsedMessage m = check("plan</think><tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", h);
  EXPECT_EQ(m.content, "<think>plan</think>");
  ASSERT_EQ(m.tool_calls.size(), 1u);
  EXPECT_EQ(m.tool_calls[0].name, "f");
}

// Every reasoning format on random texts made of its markers' pieces: split invariant, and no
// byte lost or repeated (content and reasoning are the text less the markers matched, plus the
// content prefix).
TEST(ReasoningFormats, RandomTextsAreSplitInvariant) {
  std::mt19937 rng(7);
  for (const std::string& name : list_reasoning_formats()) {
    if (name == "harmony") continue;
    for (bool starts : {false, true}) {
      auto o = opts(name, starts);
      std::vector<std::string> pieces = {"a", " ", "\n", "x y", "thought\n", "t"};
      for (auto& m : parser_markers(o)) {
        pieces.push_back(m);
        pieces.push_back(m.substr(0, m.size() / 2));
        pieces.push_back(m.substr(m.size() / 2));
      }
      for (int n = 0; n < 150; ++n) {
        std::string text;
        for (int k = rng() % 8; k >= 0; --k) text += pieces[rng() % pieces.size()];
        ParsedMessage m = check(text, o);
        std::size_t kept = m.content.size() + m.reasoning_content.size();
        std::size_t prefix = name == "minimax_append_think" ? 7 : 0;
        EXPECT_LE(kept, text.size() + prefix) << name << ": " << text;
        if (name == "none" || name == "minimax_append_think") EXPECT_EQ(kept, text.size() + prefix) << name << ": " << text;
      }
    }
  }
}

// detect_format on the models' real chat templates (tests/data/chat_templates/ and
// tests/data/parsers/chat_templates/, see their SOURCES.md) and, for templates not stored there,
// on their defining lines as the templates write them.
TEST(ReasoningFormats, DetectFromRealTemplates) {
  auto gemma4 = detect_format(read_template("vllm__tool_chat_template_gemma4.jinja"));
  // With a gemma4 tool call format (which reads the channel itself) the pair is gemma4 + none.
  EXPECT_EQ(gemma4.reasoning, gemma4.format == "gemma4" ? "none" : "gemma4");
  EXPECT_FALSE(gemma4.starts_in_reasoning);
  auto hunyuan = detect_format(read_template("vllm__tool_chat_template_hunyuan_a13b.jinja"));
  EXPECT_EQ(hunyuan.reasoning, "hunyuan");
  EXPECT_FALSE(hunyuan.starts_in_reasoning);
  // Nemotron Nano v2: <think> with an enable_thinking switch (qwen3, the same reading as think),
  // and its generation prompt opens the reasoning.
  auto nemotron = detect_format(read_template("vllm__tool_chat_template_nemotron_nano_v2.jinja"));
  EXPECT_EQ(nemotron.reasoning, "qwen3");
  EXPECT_TRUE(nemotron.starts_in_reasoning);
  // The earlier formats are unchanged.
  auto r1 = detect_format(read_template("vllm__tool_chat_template_deepseekr1.jinja"));
  EXPECT_EQ(r1.reasoning, "deepseek_r1");
  EXPECT_TRUE(r1.starts_in_reasoning);
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_hermes.jinja")).reasoning, "none");
  EXPECT_EQ(detect_format(read_template("vllm__tool_chat_template_granite.jinja")).reasoning, "none");  // Granite 3.1: no thinking

  // llama.cpp's models/templates/ (tests/data/parsers/chat_templates/SOURCES.md).
  auto seed = detect_format(read_template("../parsers/chat_templates/llama.cpp__ByteDance-Seed-OSS.jinja"));
  EXPECT_EQ(seed.reasoning, "seed_oss");
  EXPECT_FALSE(seed.starts_in_reasoning);  // Seed-OSS writes <seed:think> itself
  auto minimax = detect_format(read_template("../parsers/chat_templates/llama.cpp__unsloth-MiniMax-M2.jinja"));
  EXPECT_EQ(minimax.reasoning, "minimax_append_think");
  // Granite 3.2's template (its thinking system prompt).
  auto granite = detect_format(
      "{%- set system_message = system_message + \" ... The response should summarize the thought process. Write your "
      "thoughts after 'Here is my thought process:' and write your response after 'Here is my response:' for each user "
      "query.\" %}");
  EXPECT_EQ(granite.reasoning, "granite");
  // Command R7B / Command A: <|START_THINKING|> in the template.
  auto cohere = detect_format("{{ '<|START_THINKING|>' + message.tool_plan + '<|END_THINKING|>' }}");
  EXPECT_EQ(cohere.reasoning, cohere.format == "cohere" ? "none" : "cohere");
  EXPECT_EQ(detect_format("{{ '◁think▷' + reasoning + '◁/think▷' }}").reasoning, "kimi");
  // Step3 / Step-Audio-R1: the generation prompt of the template passed to vLLM with --reasoning-parser step3
  // (and vLLM's examples/offline_inference/vision_language.py Step3 prompt: `<|BOT|>assistant\n<think>\n`).
  auto step3 = detect_format(
      "{%- for message in messages -%}{%- if message[\"role\"] == \"user\" -%}{{- '<|BOT|>human\\n' + "
      "render_content(message[\"content\"]) + '<|EOT|>' -}}{%- endif -%}{%- endfor -%}"
      "{%- if add_generation_prompt -%}{{- '<|BOT|>assistant\\n<think>\\n' -}}{%- endif -%}");
  EXPECT_EQ(step3.reasoning, "step3");
  EXPECT_TRUE(step3.starts_in_reasoning);
  // StepFun 3.7 Flash (llama.cpp models/templates/StepFun3.7-Flash.jinja @ca13f4c0): think, opened by the prompt.
  auto step = detect_format("{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\\n<think>\\n' }}\n{%- endif %}");
  EXPECT_EQ(step.reasoning, "think");
  EXPECT_TRUE(step.starts_in_reasoning);
}
