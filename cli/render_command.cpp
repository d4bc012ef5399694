#include "render_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "json_out.hpp"
#include "textedge/chat_template.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::cli {
namespace {
bool read_text(const std::string& path, std::string& out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}
}  // namespace

int run_render(const RenderCommand& c) {
  try {
    std::string request;
    if (!read_text(c.request, request)) {
      std::fprintf(stderr, "textedge: cannot read %s\n", c.request.c_str());
      return 1;
    }
    std::optional<ChatTemplate> chat;
    if (!c.template_file.empty()) {
      std::string source;
      if (!read_text(c.template_file, source)) {
        std::fprintf(stderr, "textedge: cannot read %s\n", c.template_file.c_str());
        return 1;
      }
      // The model's special tokens, with the given template.
      ChatSpecialTokens special;
      if (!c.model.empty()) special = ChatTemplate::load(c.model).special_tokens();
      chat = ChatTemplate::from_string(source, special, c.template_file);
    } else {
      chat = ChatTemplate::load(c.model);
    }
    std::string prompt = chat->apply_request(request);
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
