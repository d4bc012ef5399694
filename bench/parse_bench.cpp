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

struct Family {
  const char* format;
  const char* reasoning;
  const char* calls;  // two calls in the format's syntax
};
const Family kFamilies[] = {
    {"hermes", "qwen3", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n"
                        "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n</tool_call>"},
    {"llama3_json", "none", "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"PROSE\", \"days\": 3}}; "
                            "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}"},
    {"mistral", "mistral", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}[TOOL_CALLS]get_time[ARGS]{\"tz\": \"Asia/Tokyo\"}"},
    {"qwen3_coder", "qwen3", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
                             "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=tz>\nAsia/Tokyo\n"
                             "</parameter>\n</function>\n</tool_call>"},
    {"deepseek_v3", "deepseek_r1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\", \"days\": 3}\n```"
                                   "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{\"tz\": \"Asia/Tokyo\"}\n```"
                                   "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
    {"deepseek_v31", "deepseek_r1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\", \"days\": 3}<｜tool▁call▁end｜>"
                                    "<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"Asia/Tokyo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
    {"kimi_k2", "think", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", "
                         "\"days\": 3}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{\"tz\": "
                         "\"Asia/Tokyo\"}<|tool_call_end|><|tool_calls_section_end|>"},
    {"glm45", "think", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n"
                       "<arg_value>3</arg_value>\n</tool_call><tool_call>get_time\n<arg_key>tz</arg_key>\n<arg_value>Asia/Tokyo</arg_value>\n</tool_call>"},
    {"harmony", "harmony", "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\", \"days\": 3}<|call|>"
                           "<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\"tz\": \"Asia/Tokyo\"}<|call|>"},
    {"pythonic", "none", "[get_weather(city='PROSE', days=3), get_time(tz='Asia/Tokyo')]"},
};

std::string family_output(const Family& f) {
  std::string prose;
  for (int i = 0; i < 20; ++i)
    prose += "The user wants the weather in Paris and the time in Tōkyō, so I should call two tools, one per question. ";
  std::string r = f.reasoning;
  if (r == "harmony") return "<|channel|>analysis<|message|>" + prose + "<|end|>" + f.calls;
  if (r == "mistral") return "[THINK]" + prose + "[/THINK]" + f.calls;
  if (r == "none") {  // calls only at the start (llama3_json, pythonic): the prose goes in an argument
    std::string calls = f.calls;
    return calls.replace(calls.find("PROSE"), 5, prose);
  }
  return "<think>\n" + prose + "\n</think>\n\nI'll look both up.\n" + f.calls;
}

void BM_ParseFamily(benchmark::State& state) {
  const Family& f = kFamilies[state.range(0)];
  std::string text = family_output(f);
  textedge::OutputParserOptions o;
  o.format = f.format;
  o.reasoning = f.reasoning;
  o.id_seed = 1;
  o.tools_json = R"([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties":
      {"city": {"type": "string"}, "days": {"type": "integer"}}}}}, {"type": "function", "function": {"name": "get_time",
      "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}}])";
  parse_one_char_deltas(state, text, o);
  state.SetLabel(f.format);
}
BENCHMARK(BM_ParseFamily)->DenseRange(0, static_cast<int>(std::size(kFamilies)) - 1);

}  // namespace
