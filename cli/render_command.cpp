#include "render_command.hpp"

#include <cstdio>
#include <optional>

#include "json_out.hpp"
#include "read_input.hpp"
#include "textedge/chat_template.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::cli {

int run_render(const RenderCommand& c) {
  // Errors name where they come from: the template's file, or the request's.
  const std::string template_name = c.template_file.empty() ? "the chat template of " + c.model : c.template_file;
  const std::string request_name = c.request == "-" ? "stdin" : c.request;
  try {
    std::string request = read_input(c.request);
    std::optional<ChatTemplate> chat;
    try {
      if (!c.template_file.empty()) {
        std::string source = read_input(c.template_file);
        // The model's special tokens, with the given template.
        ChatSpecialTokens special;
        if (!c.model.empty()) special = ChatTemplate::load(c.model).special_tokens();
        chat = ChatTemplate::from_string(source, special, c.template_file);
      } else {
        chat = ChatTemplate::load(c.model);
      }
    } catch (const TemplateError& e) {
      throw Error(template_name + ": " + e.what());
    }
    std::string prompt;
    try {
      prompt = chat->apply_request(request);
    } catch (const TemplateError& e) {
      throw Error(template_name + ": " + e.what());
    } catch (const Error& e) {
      throw Error(request_name + ": " + e.what());
    }
    if (!c.ids) {
      std::fwrite(prompt.data(), 1, prompt.size(), stdout);
      return 0;
    }
    // The template wrote every special token: no post-processor (no second BOS).
    auto ids = Tokenizer::load(c.model).encode(prompt, {.add_special_tokens = false});
    std::string out;
    append_json_ids(out, ids);
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
}

}  // namespace textedge::cli
