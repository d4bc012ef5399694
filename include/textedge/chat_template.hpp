// textedge::ChatTemplate: messages -> prompt, exactly as transformers' apply_chat_template.
#pragma once

#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/error.hpp"

namespace textedge {

struct ChatOptions {
  // Append the assistant turn's opening (vLLM's default, unlike transformers' false).
  bool add_generation_prompt = true;
  // Leave the last message open, so the model continues it (transformers' semantics: the prompt
  // ends right after that message's text). Not together with add_generation_prompt.
  bool continue_final_message = false;
  std::string tools;                 // JSON array of OpenAI tools, or empty
  std::string documents;             // JSON array, or empty
  std::string chat_template_kwargs;  // JSON object of extra template variables, e.g. {"enable_thinking": false}
  // For tokenizer_configs with several named templates; otherwise transformers' choice:
  // "tool_use" when tools are given and it exists, else "default".
  std::optional<std::string> template_name;
  // The local time strftime_now() formats (default: now); pin it for reproducible prompts.
  std::optional<std::tm> now;
};

// Template variables transformers passes from tokenizer_config.json: bos_token, eos_token,
// unk_token, sep_token, pad_token, cls_token, mask_token (when set), and
// additional_special_tokens.
struct ChatSpecialTokens {
  std::map<std::string, std::string> tokens;
  std::vector<std::string> additional_special_tokens;
};

// A compiled chat template: immutable, cheap to copy, safe to render from many threads.
//
// The prompt already holds every special token the template writes (e.g. <bos>): tokenize it
// with EncodeOptions{.add_special_tokens = false}, or the model sees a second BOS.
class TEXTEDGE_API ChatTemplate {
 public:
  // From a model directory: its chat_template.jinja, else tokenizer_config.json's chat_template
  // (a string, or a list of named templates), else textedge's default (ChatML with tools and
  // switchable thinking, in the style of Qwen3's). Special tokens come from tokenizer_config.
  // Throws LoadError (file, JSON path) or TemplateError (line, column).
  static ChatTemplate load(const std::string& model_dir);
  // From template source. Throws TemplateError.
  static ChatTemplate from_string(std::string_view source, ChatSpecialTokens special_tokens = {},
                                  const std::string& name = "<template>");
  // textedge's default template.
  static std::string_view default_source();

  // `messages_json` is a JSON array of OpenAI chat messages. Throws InputError for bad JSON or
  // options, TemplateError when the template raises (with its message) or fails.
  std::string apply(std::string_view messages_json, const ChatOptions& options = {}) const;
  // An OpenAI chat request body: messages, tools, documents, add_generation_prompt,
  // continue_final_message, chat_template_kwargs (other fields are ignored); `defaults` gives
  // what the request does not say.
  std::string apply_request(std::string_view request_json, const ChatOptions& defaults = {}) const;

  // Top-level variables the template reads that apply() never sets: what chat_template_kwargs
  // can usefully carry (e.g. "enable_thinking"), so a server can keep only those.
  std::vector<std::string> extra_variables() const;
  // The source of the template called `name` (empty: the first). Throws Error for an unknown name.
  const std::string& source(const std::string& name = "") const;
  // Names of the templates (one "default" for a single template).
  std::vector<std::string> names() const;
  const ChatSpecialTokens& special_tokens() const;

  // The implementation is internal; this lets textedge's own components reach it.
  struct Impl;
  const Impl* impl() const noexcept { return impl_.get(); }

 private:
  explicit ChatTemplate(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace textedge
