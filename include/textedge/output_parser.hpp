// Model output -> OpenAI chat-completion deltas: reasoning, content and tool calls, streamed.
// docs/output_parsing.md describes the formats and the policy for malformed and cut-off calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/tokenizer.hpp"

namespace textedge {

struct OutputParserOptions {
  std::string format = "none";     // tool call format (list_formats()), "none" for no calls
  std::string reasoning = "none";  // list_reasoning_formats(): "none", "think", "qwen3", "deepseek_r1", ...
  bool starts_in_reasoning = false;  // the opening <think> is already in the prompt
  std::string tools_json;          // OpenAI tools array (qwen3_coder types values by it)
  // true: a call's header streams with its first fragment of arguments, then the rest of them;
  // a call that breaks later keeps what was streamed (and does not count in made_calls()).
  // false: calls are held until complete and valid. parse_output always holds them.
  bool partial_calls = true;
  std::uint64_t id_seed = 0;  // call ids are derived from it; 0 picks a random seed
};

// One OpenAI delta: reasoning_content, content, or one fragment of one tool call.
struct ChatDelta {
  enum class Kind { content, reasoning, tool_call };
  Kind kind = Kind::content;
  std::string text;  // content / reasoning_content, or the tool call's arguments fragment
  int index = -1;    // tool_call: the call's index
  std::string id, name;  // tool_call: set on a call's first fragment only
};

struct ParsedToolCall {
  std::string id, name, arguments;
};

struct ParsedMessage {
  std::string content, reasoning_content;
  std::vector<ParsedToolCall> tool_calls;
  std::string finish_reason = "stop";  // "tool_calls" when calls were made
};

namespace detail {
class ParserCore;
}

class TEXTEDGE_API OutputParser {
 public:
  explicit OutputParser(const OutputParserOptions& options);  // throws Error on unknown names
  ~OutputParser();
  OutputParser(OutputParser&&) noexcept;
  OutputParser& operator=(OutputParser&&) noexcept;
  // Appends the deltas that `delta` makes final (consecutive pieces of one kind merged).
  void feed(std::string_view delta, std::vector<ChatDelta>& out);
  // End of output: releases what was held back.
  void finish(std::vector<ChatDelta>& out);
  bool made_calls() const;  // a call completed (finish_reason "tool_calls")

 private:
  std::unique_ptr<detail::ParserCore> core_;
};

// The whole text at once: calls that did not complete are content as written (partial_calls is
// ignored).
TEXTEDGE_API ParsedMessage parse_output(std::string_view text, const OutputParserOptions& options);
// Folds deltas into a message (what a client does with a stream).
TEXTEDGE_API void merge_deltas(const std::vector<ChatDelta>& deltas, ParsedMessage& into);

TEXTEDGE_API std::vector<std::string> list_formats();  // tool call formats, "none" first

// What textedge knows about a tool call format, for help texts, tests and benchmarks.
struct FormatInfo {
  std::string name, models;  // models: who writes it
  // Two calls as the format's models write them: get_weather {"city": "Paris", "days": 3}, then
  // get_time {"tz": "Asia/Tokyo"} (one call for formats without parallel calls); "" for "none".
  std::string example;
  std::string reasoning;  // the reasoning format its models pair with ("none" if they do not reason)
  bool forced = false;    // tool_call_pattern can force its calls
};
TEXTEDGE_API std::vector<FormatInfo> format_infos();  // in list_formats() order
TEXTEDGE_API std::vector<std::string> list_reasoning_formats();

// The markers a parser reads (e.g. "<tool_call>", "<|channel|>", "[THINK]"). A parser works on
// text decoded with these kept: when some are special tokens of the model, decode with
// skip_special_tokens and keep_special_tokens = special_tokens_to_keep(...), so the other
// special tokens still go.
TEXTEDGE_API std::vector<std::string> parser_markers(const OutputParserOptions& options);
// The ids of those markers that are special tokens of `tokenizer`.
TEXTEDGE_API std::vector<TokenId> special_tokens_to_keep(const Tokenizer& tokenizer, const OutputParserOptions& options);

struct DetectedFormat {
  std::string format = "none", reasoning = "none";
  bool starts_in_reasoning = false;  // the generation prompt ends with <think>
};
// The tool call and reasoning formats whose markers a chat template's source contains.
TEXTEDGE_API DetectedFormat detect_format(std::string_view chat_template_source);

// JSON for the CLI: a delta as an OpenAI delta object, a message as an OpenAI message object
// plus "finish_reason".
TEXTEDGE_API std::string to_json(const ChatDelta& delta);
TEXTEDGE_API std::string to_json(const ParsedMessage& message);

}  // namespace textedge
