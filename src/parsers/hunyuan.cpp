// hunyuan and jamba: Hunyuan-A13B (vLLM's hunyuan_a13b tool parser; its chat template, which
// asks for and writes <tool_calls>[...]</tool_calls>) and AI21 Jamba 1.5 / 1.6 (vLLM's jamba tool
// parser) write the same form:
//   <tool_calls>[{"name": "f", "arguments": {...}}, {...}]</tool_calls>
// one scanner (json_calls.hpp), two families (their models, detection and reasoning differ).
#include "parsers/family.hpp"
#include "parsers/json_calls.hpp"

namespace textedge::detail {
namespace {

std::unique_ptr<ToolScanner> make_tool_calls_array(Emitter& em, const OutputParserOptions& o) {
  return std::make_unique<JsonCalls>(em, o, std::vector<JsonCallsMarker>{{.open = "<tool_calls>", .close = "</tool_calls>"}});
}

std::string tool_calls_call(const ToolRegex& tool) {
  return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
}

constexpr std::string_view kExample =
    "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
    "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]</tool_calls>";

}  // namespace

extern const Family kHunyuan, kJamba;
constexpr Family kHunyuan{
    .name = "hunyuan",
    .models = "Hunyuan-A13B",
    .example = kExample,
    .reasoning = "think",  // <think>...</think> then <answer>...</answer>
    .make = make_tool_calls_array,
    .markers = {"<tool_calls>", "</tool_calls>"},
    // Hunyuan's own special tokens (<|extra_0|> ends a user turn) with <tool_calls>.
    .detect = [](std::string_view t) { return contains(t, "<tool_calls>") && contains(t, "<|extra_0|>"); },
    .call_regex = tool_calls_call,
    .envelope = {"<tool_calls>\\[", ", ?", "\\]</tool_calls>", true},
};

constexpr Family kJamba{
    .name = "jamba",
    .models = "AI21 Jamba 1.5 / 1.6 / 1.7",
    .example = kExample,
    .make = make_tool_calls_array,
    .markers = {"<tool_calls>", "</tool_calls>"},
    // Jamba's turn tokens (<|bom|> ... <|eom|>) with <tool_calls>.
    .detect = [](std::string_view t) { return contains(t, "<tool_calls>") && (contains(t, "<|bom|>") || contains(t, "<|eom|>")); },
    .call_regex = tool_calls_call,
    .envelope = {"<tool_calls>\\[", ", ?", "\\]</tool_calls>", true},
};

}  // namespace textedge::detail
