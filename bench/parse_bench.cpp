// Output parser: one-character deltas over a realistic output (reasoning + two hermes calls).
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

void BM_ParseOneCharDeltas(benchmark::State& state) {
  std::string text = realistic_output();
  textedge::OutputParserOptions o;
  o.format = "hermes";
  o.reasoning = "qwen3";
  o.partial_calls = state.range(0) != 0;
  o.id_seed = 1;
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
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ParseOneCharDeltas)->Arg(1)->Arg(0);

}  // namespace
