// xlam: Salesforce xLAM-2 (Llama-xLAM-2, xLAM-2-*-fc-r; vLLM's xlam tool parser; vLLM's
// tool_chat_template_xlam_llama / _qwen, which ask to "make calls in a single JSON array"):
//   [{"name": "f", "arguments": {...}}, {...}]
// at the start of the output, or anywhere after the wrappers vLLM's parser looks for: a
// ```json (or bare ```) fence closed by ```, [TOOL_CALLS], and <tool_call>...</tool_call>.
// "arguments" may also be a JSON string holding the object (the Qwen template writes each past
// call's function object with tojson, whose arguments are a string).
#include "parsers/family.hpp"
#include "parsers/json_calls.hpp"

namespace textedge::detail {

extern const Family kXlam;
constexpr Family kXlam{
    .name = "xlam",
    .models = "Salesforce xLAM-2 (Llama-xLAM-2, xLAM-2-fc-r)",
    .example = "[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<JsonCalls>(em, o,
                                         std::vector<JsonCallsMarker>{
                                             {.open = "[", .at_start_only = true},
                                             {.open = "```json", .close = "```"},
                                             {.open = "```\n", .close = "```"},
                                             {.open = "[TOOL_CALLS]"},
                                             {.open = "<tool_call>", .close = "</tool_call>", .array = true, .object = true},
                                         },
                                         /*string_args=*/true);
    },
    .markers = {"[TOOL_CALLS]", "<tool_call>", "</tool_call>", "```json", "```"},
    .detect = [](std::string_view t) { return contains(t, "make calls in a single JSON array"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"\\[", ", ?", "\\]", true},
};

}  // namespace textedge::detail
