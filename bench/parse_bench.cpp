// Output parser: one-character deltas over a realistic output (reasoning + two hermes calls),
// and every tool call format over the same reasoning and prose with two calls in its syntax
// (BM_ParseFamily/N: the Nth format of kFamilies).
#include <benchmark/benchmark.h>

#include "textedge/output_parser.hpp"

namespace {

std::string realistic_output() {
  std::string s = "<think>\n";
  for (int i = 0; i < 20; ++i)
    s += "The user wants the weather in Paris and in Tōkyō, so I should call get_weather twice, once per city. ";
  s += "\n</think>\n\nI'll look both up.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", "
       "\"unit\": \"celsius\", \"days\": 3, \"details\": {\"wind\": true, \"hours\": [6, 12, 18]}}}\n</tool_call>\n"
       "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"東京\", \"unit\": \"celsius\", \"days\": 3, "
       "\"note\": \"braces } { and \\\"quotes\\\" inside\"}}\n</tool_call>";
  return s;
}

// A fresh parser per iteration fed one character at a time; reports ns per byte.
void parse_one_char_deltas(benchmark::State& state, const std::string& text, const textedge::OutputParserOptions& o) {
  std::vector<textedge::ChatDelta> out;
  out.reserve(16);
  for (auto _ : state) {
    textedge::OutputParser parser(o);
    for (char c : text) {
      out.clear();
      parser.feed(std::string_view(&c, 1), out);
    }
    parser.finish(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ns_per_byte"] = benchmark::Counter(
      static_cast<double>(text.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_ParseOneCharDeltas(benchmark::State& state) {
  std::string text = realistic_output();
  textedge::OutputParserOptions o;
  o.format = "hermes";
  o.reasoning = "qwen3";
  o.partial_calls = state.range(0) != 0;
  o.id_seed = 1;
  parse_one_char_deltas(state, text, o);
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ParseOneCharDeltas)->Arg(1)->Arg(0);

// Each format's own example (two calls), after reasoning and content in the reasoning format its
// models pair with.
std::string family_output(const textedge::FormatInfo& f) {
  std::string prose;
  for (int i = 0; i < 20; ++i)
    prose += "The user wants the weather in Paris and the time in Tōkyō, so I should call two tools, one per question. ";
  const std::string& r = f.reasoning;
  if (r == "harmony") return "<|channel|>analysis<|message|>" + prose + "<|end|>" + f.example;
  if (r == "mistral") return "[THINK]" + prose + "[/THINK]" + f.example;
  if (r == "none") {  // calls only at the start (llama3_json, pythonic): the prose goes in an argument
    std::string calls = f.example;
    return calls.replace(calls.find("Paris"), 5, prose);
  }
  return "<think>\n" + prose + "\n</think>\n\nI'll look both up.\n" + f.example;
}

const std::vector<textedge::FormatInfo> kFamilies = [] {
  std::vector<textedge::FormatInfo> v = textedge::format_infos();
  v.erase(v.begin());  // "none"
  return v;
}();

void BM_ParseFamily(benchmark::State& state) {
  const textedge::FormatInfo& f = kFamilies[state.range(0)];
  std::string text = family_output(f);
  textedge::OutputParserOptions o;
  o.format = f.name;
  o.reasoning = f.reasoning;
  o.id_seed = 1;
  o.tools_json = R"([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties":
      {"city": {"type": "string"}, "days": {"type": "integer"}}}}}, {"type": "function", "function": {"name": "get_time",
      "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}}])";
  parse_one_char_deltas(state, text, o);
  state.SetLabel(f.name);
}
BENCHMARK(BM_ParseFamily)->DenseRange(0, static_cast<int>(std::size(kFamilies)) - 1);

}  // namespace
