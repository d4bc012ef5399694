// granite: IBM Granite 3.x (vLLM's granite tool parser; llama.cpp's granite format; the models'
// chat templates, which ask for "<|tool_call|> followed by a JSON list of tools used"):
//   <|tool_call|>[{"name": "f", "arguments": {...}}, {...}]
// also after Granite 3.1's plain-text <tool_call>, and as a bare list at the start of the output
// (vLLM reads both); vLLM's example template writes one object per marker, <|tool_call|> {...}.
// granite4: IBM Granite 4.0 (vLLM's granite4 tool parser; its chat template), hermes' form
//   <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>
// with "arguments" also as a JSON string holding the object (as Granite 4 may write them; vLLM
// passes the string on as the arguments). Both families read all of these forms.
// granite_20b_fc: IBM granite-20b-functioncalling (vLLM's granite-20b-fc tool parser; vLLM's
// tool_chat_template_granite_20b_fc, which writes each past call so):
//   <function_call> {"name": "f", "arguments": {...}}
// several in a row (after whitespace or directly), no end marker.
#include "parsers/family.hpp"
#include "parsers/json_calls.hpp"

namespace textedge::detail {
namespace {

std::unique_ptr<ToolScanner> make_granite(Emitter& em, const OutputParserOptions& o) {
  return std::make_unique<JsonCalls>(em, o,
                                     std::vector<JsonCallsMarker>{
                                         {.open = "<|tool_call|>", .array = true, .object = true},
                                         {.open = "<tool_call>", .close = "</tool_call>", .array = true, .object = true},
                                         {.open = "[", .at_start_only = true},
                                     },
                                     /*string_args=*/true);
}

}  // namespace

extern const Family kGranite4, kGranite, kGranite20bFc;
constexpr Family kGranite4{
    .name = "granite4",
    .models = "IBM Granite 4.0",
    .example = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n"
        "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n</tool_call>",
    .make = make_granite,
    .markers = {"<|tool_call|>", "<tool_call>", "</tool_call>"},
    // Granite's roles (<|start_of_role|>) with hermes' <tool_call>.
    .detect = [](std::string_view t) { return contains(t, "<|start_of_role|>") && contains(t, "<tool_call>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "<tool_call>\\n\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}\\n</tool_call>";
        },
    .envelope = {"", "\\n", "", true},
};

constexpr Family kGranite{
    .name = "granite",
    .models = "IBM Granite 3.0 / 3.1 / 3.2 / 3.3",
    .example = "<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]",
    .reasoning = "think",  // Granite 3.2 / 3.3 thinking: <think>...</think> (then <response>...</response>)
    .make = make_granite,
    .markers = {"<|tool_call|>", "<tool_call>", "</tool_call>"},
    .detect = [](std::string_view t) { return contains(t, "<|tool_call|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"<\\|tool_call\\|>\\[", ", ?", "\\]", true},
};

constexpr Family kGranite20bFc{
    .name = "granite_20b_fc",
    .models = "IBM granite-20b-functioncalling",
    .example = "<function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n"
        "<function_call> {\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<JsonCalls>(em, o, std::vector<JsonCallsMarker>{{.open = "<function_call>", .array = false, .object = true}});
    },
    .markers = {"<function_call>"},
    .detect = [](std::string_view t) { return contains(t, "<function_call>") && contains(t, "<|function_call_library|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "<function_call> \\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"", "\\n", "", true},
};

}  // namespace textedge::detail
