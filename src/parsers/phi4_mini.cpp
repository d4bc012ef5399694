// phi4_mini: Phi-4-mini (vLLM's phi4_mini_json tool parser; vLLM's tool_chat_template_phi4_mini,
// which asks for "functools[...]" with no closing marker):
//   functools[{"name": "f", "arguments": {...}}, {...}]
// ("parameters" also names the arguments, as vLLM reads). llama.cpp's Phi-4-mini template
// (models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja) has the model write
// <|tool_call|>{"name": "f", "arguments": {...}}<|/tool_call|> instead: read too.
#include "parsers/family.hpp"
#include "parsers/json_calls.hpp"

namespace textedge::detail {

extern const Family kPhi4Mini;
constexpr Family kPhi4Mini{
    .name = "phi4_mini",
    .models = "Phi-4-mini",
    .example = "functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<JsonCalls>(em, o,
                                         std::vector<JsonCallsMarker>{
                                             {.open = "functools", .space = false},  // vLLM: functools\[
                                             {.open = "<|tool_call|>", .close = "<|/tool_call|>", .array = false, .object = true},
                                         });
    },
    .markers = {"functools", "<|tool_call|>", "<|/tool_call|>"},
    .detect = [](std::string_view t) { return contains(t, "functools[") || contains(t, "<|/tool_call|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"functools\\[", ", ?", "\\]", true},
};

}  // namespace textedge::detail
