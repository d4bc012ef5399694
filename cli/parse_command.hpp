// `textedge parse`: model output text -> OpenAI chat-completion deltas (docs/output_parsing.md).
#pragma once

#include <string>

namespace textedge::cli {

struct ParseCommand {
  bool list = false, whole = false, starts_in_reasoning = false, no_partial_calls = false;
  std::string format = "none", reasoning = "none", tools;
};

// Reads stdin, writes stdout; returns the exit status (1 on errors, printed to stderr).
int run_parse_command(const ParseCommand& c);

}  // namespace textedge::cli
