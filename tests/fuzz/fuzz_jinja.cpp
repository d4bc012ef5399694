// Hostile chat templates: any text either compiles or throws TemplateError, and what compiles
// renders a real request or throws TemplateError (a limit, a refusal, raise_exception). Never a
// crash, never another exception; a hang shows as a libFuzzer timeout (run with -timeout).
//
// The chat API renders with the default limits (100M steps, 64 MiB), which take a minute here
// under the sanitizers. So each template is rendered first by the engine itself with small limits
// (100k steps, 64 KiB: far above what a real template needs for this request; at
// 1M steps and 1 MiB the runaway templates the fuzzer grows cut it to 600 executions a second)
// and the same variables the chat API passes; only when no limit trips there is
// it rendered again through ChatTemplate::apply_request, and both must give the same prompt or
// the same error.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chat/jinja/template.hpp"
#include "textedge/chat_template.hpp"

using namespace textedge;
namespace jinja = textedge::detail::jinja;

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

constexpr std::tm kNow{
    .tm_sec = 5, .tm_min = 4, .tm_hour = 3, .tm_mday = 2, .tm_mon = 0, .tm_year = 125, .tm_wday = 4, .tm_yday = 1};

// The variables ChatTemplate::apply_request passes for kRequest, in its order (later ones win):
// the special tokens, chat_template_kwargs, then the conversation's own.
const std::vector<jinja::Variable>& variables() {
  static const jinja::Value request = jinja::read_json(kRequest, nullptr);
  static const std::vector<jinja::Variable> vars = [] {
    std::vector<jinja::Variable> v;
    for (const auto& [name, token] : special_tokens().tokens) v.emplace_back(name, jinja::Value(token));
    std::vector<jinja::Value> additional;
    for (const auto& token : special_tokens().additional_special_tokens) additional.emplace_back(token);
    v.emplace_back("additional_special_tokens", jinja::Value::list(std::move(additional)));
    const auto& parts = request.dict();
    for (const auto& [key, value] : parts.find(std::string_view("chat_template_kwargs"))->dict().entries())
      v.emplace_back(key.str(), value);
    for (const char* name : {"messages", "tools", "documents"})
      v.emplace_back(name, *parts.find(std::string_view(name)));
    v.emplace_back("add_generation_prompt", jinja::Value(true));
    return v;
  }();
  return vars;
}

[[noreturn]] void fail(const char* what, std::string_view engine, std::string_view chat) {
  std::fprintf(stderr, "%s\n  engine: %.*s\n  chat:   %.*s\n", what, static_cast<int>(engine.size()), engine.data(),
               static_cast<int>(chat.size()), chat.data());
  std::abort();
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

  // Compiling again gives the engine's template (ChatTemplate keeps its own inside).
  auto engine_template = jinja::Template::compile(source, "fuzz");
  std::string engine, engine_error;
  try {
    engine = engine_template->render(variables(), {.max_output_bytes = 1 << 16, .max_steps = 100'000, .now = kNow});
  } catch (const TemplateError& e) {
    if (e.kind() == "LimitError") return 0;
    engine_error = e.what();
  }

  ChatOptions options;
  options.now = kNow;
  std::string prompt, chat_error;
  try {
    prompt = chat->apply_request(kRequest, options);
  } catch (const TemplateError& e) {
    chat_error = e.what();
  }
  if (engine_error != chat_error) fail("the chat API and the engine fail differently", engine_error, chat_error);
  if (prompt != engine) fail("the chat API and the engine render differently", engine, prompt);
  return 0;
}
