// `textedge render`: an OpenAI chat request -> the prompt (or its ids), as transformers renders it.
#pragma once

#include <string>

namespace textedge::cli {

struct RenderCommand {
  std::string model;          // -m: the model's template and special tokens (and tokenizer for --ids)
  std::string template_file;  // --template: overrides the template
  std::string request = "-";  // --request FILE, "-" for stdin
  bool ids = false;           // --ids: print token ids instead of the prompt
};

int run_render(const RenderCommand& command);

}  // namespace textedge::cli
