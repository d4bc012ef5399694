// OpenAI request bodies read into plain structs, each field checked with an ApiError that names
// it (400). Fields OpenAI or vLLM define that textedge does not act on are accepted and ignored,
// as both servers do with unknown fields.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::server {

// What both endpoints share: sampling, stops, limits, output options.
struct GenerationParams {
  std::string model;
  std::optional<std::size_t> max_tokens;  // absent: up to the context
  std::size_t n = 1;
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  Sampling sampling;
  std::vector<std::string> stop;
  std::vector<TokenId> stop_token_ids;
  std::size_t min_tokens = 0;
  bool ignore_eos = false;
  bool skip_special_tokens = true;
  bool include_stop_str_in_output = false;
  int top_logprobs = -1;  // -1: no logprobs
};

enum class ToolChoice { kAuto, kNone, kRequired, kNamed };
enum class ResponseFormat { kText, kJsonObject, kJsonSchema };

struct ChatRequest {
  GenerationParams params;
  std::string messages_json;  // the messages, ready for the template (see read_chat_request)
  std::string tools_json;     // the tools array, or empty
  ToolChoice tool_choice = ToolChoice::kAuto;
  std::string tool_name;      // kNamed
  bool parallel_tool_calls = true;
  ResponseFormat response_format = ResponseFormat::kText;
  std::string schema_json;    // kJsonSchema
  std::string chat_template_kwargs;  // JSON object or empty
  std::string documents_json;
  bool add_generation_prompt = true;
  bool continue_final_message = false;
};

struct CompletionRequest {
  GenerationParams params;
  // One entry per prompt: text, or ids when the request gave ids.
  struct Prompt {
    std::string text;
    std::vector<TokenId> ids;
    bool is_ids = false;
  };
  std::vector<Prompt> prompts;
  bool echo = false;
};

// How a template wants message content that is a list of parts (vLLM's content format):
// kString joins the text parts with "\n" into a string; kOpenAI passes the list.
enum class ContentFormat { kString, kOpenAI };
ContentFormat detect_content_format(std::string_view template_source);

// Throws ApiError. Assistant tool calls' "arguments" strings become objects (as vLLM does, since
// templates index into them); list contents are joined when `format` is kString.
ChatRequest read_chat_request(std::string_view body, ContentFormat format, std::size_t vocab_size);
CompletionRequest read_completion_request(std::string_view body, std::size_t vocab_size);

// POST /tokenize and /detokenize (vLLM's shapes).
struct TokenizeRequest {
  std::string model;
  std::string prompt;          // or
  std::string messages_json;   // a chat to render first
  bool add_special_tokens = true;
  bool add_generation_prompt = true;
  bool continue_final_message = false;
  std::string chat_template_kwargs, tools_json;
  bool return_token_strs = false;
};
TokenizeRequest read_tokenize_request(std::string_view body, ContentFormat format);
struct DetokenizeRequest {
  std::string model;
  std::vector<TokenId> tokens;
};
DetokenizeRequest read_detokenize_request(std::string_view body, std::size_t vocab_size);

}  // namespace textedge::server
