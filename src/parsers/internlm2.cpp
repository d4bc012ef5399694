// internlm2: InternLM2 / InternLM2.5 chat (vLLM's internlm2 tool parser; vLLM's
// tool_chat_template_internlm2_tool, which writes each past call so):
//   <|action_start|><|plugin|>\n{"name": "f", "parameters": {...}}<|action_end|>
// ("arguments" also names the arguments: the template writes it, vLLM reads both); several calls
// in a row are read one after another (vLLM reads one per message). Whitespace may come between
// the two tokens, as SGLang's InternlmDetector reads them ("<|action_start|> <|plugin|>", as text
// decoded with spaces between special tokens has it).
#include "parsers/family.hpp"
#include "parsers/json_calls.hpp"

namespace textedge::detail {

extern const Family kInternLm2;
constexpr Family kInternLm2{
    .name = "internlm2",
    .models = "InternLM2, InternLM2.5",
    .example = "<|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}<|action_end|>"
        "<|action_start|><|plugin|>\n{\"name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}<|action_end|>",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<JsonCalls>(
          em, o,
          std::vector<JsonCallsMarker>{
              {.open = "<|action_start|>", .tag = "<|plugin|>", .close = "<|action_end|>", .array = false, .object = true}});
    },
    .markers = {"<|action_start|>", "<|plugin|>", "<|action_end|>"},
    .detect = [](std::string_view t) { return contains(t, "<|action_start|>") && contains(t, "<|plugin|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "<\\|action_start\\|><\\|plugin\\|>\\n\\{" + tool.json_name() + ", ?\"parameters\": ?" + tool.json_args() +
                 "\\}<\\|action_end\\|>";
        },
    .envelope = {"", "", "", true},
};

}  // namespace textedge::detail
