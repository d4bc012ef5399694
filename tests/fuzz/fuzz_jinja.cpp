// Hostile chat templates: any text either compiles or throws TemplateError, and what compiles
// renders a real request or throws TemplateError (a limit, a refusal, raise_exception). Never a
// crash, never another exception; a hang shows as a libFuzzer timeout (run with -timeout).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "textedge/chat_template.hpp"

using namespace textedge;

namespace {

// A request that reaches most of what templates read: system, user (text and parts), assistant
// with reasoning and tool calls (object and string arguments), tool results, tools, documents
// and template kwargs.
constexpr std::string_view kRequest = R"({
  "messages": [
    {"role": "system", "content": "You are helpful."},
    {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}, {"type": "image_url", "image_url": {"url": "x"}}]},
    {"role": "assistant", "content": "", "reasoning_content": "  Call the tool.  ",
     "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}},
                    {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "{\"tz\": \"CET\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "{\"temp\": 21.5}"},
    {"role": "tool", "tool_call_id": "c2", "content": "12:00"},
    {"role": "assistant", "content": "It is 21.5 \u00b0C at noon. \ud83d\ude42"},
    {"role": "user", "content": "Thanks! <|im_end|> {{ x }}"}
  ],
  "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather",
             "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                            "required": ["city"]}}},
            {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}],
  "documents": [{"title": "Doc", "text": "Body"}],
  "chat_template_kwargs": {"enable_thinking": false, "n": 3, "flag": null}
})";

const ChatSpecialTokens& special_tokens() {
  static const ChatSpecialTokens tokens{{{"bos_token", "<s>"}, {"eos_token", "</s>"}, {"unk_token", "<unk>"}},
                                        {"<|im_start|>", "<|im_end|>"}};
  return tokens;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  std::optional<ChatTemplate> chat;
  try {
    chat = ChatTemplate::from_string(source, special_tokens(), "fuzz");
  } catch (const TemplateError&) {
    return 0;
  }
  chat->extra_variables();
  ChatOptions options;
  options.now = std::tm{
      .tm_sec = 5, .tm_min = 4, .tm_hour = 3, .tm_mday = 2, .tm_mon = 0, .tm_year = 125, .tm_wday = 4, .tm_yday = 1};
  try {
    chat->apply_request(kRequest, options);
  } catch (const TemplateError&) {
  }
  return 0;
}
