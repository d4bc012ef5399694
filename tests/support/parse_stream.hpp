// What a client folds from an OutputParser's deltas when the text arrives cut at `cuts`, and
// whether two messages are the same: shared by the split-invariance checks of the parser tests
// and fuzzers.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "textedge/output_parser.hpp"

inline textedge::ParsedMessage streamed(std::string_view text, const textedge::OutputParserOptions& o,
                                        const std::vector<std::size_t>& cuts) {
  textedge::OutputParser p(o);
  std::vector<textedge::ChatDelta> deltas;
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    p.feed(text.substr(at, cut - at), deltas);
    at = cut;
  }
  p.feed(text.substr(at), deltas);
  p.finish(deltas);
  textedge::ParsedMessage m;
  merge_deltas(deltas, m);
  return m;
}

inline bool same_message(const textedge::ParsedMessage& a, const textedge::ParsedMessage& b) {
  if (a.content != b.content || a.reasoning_content != b.reasoning_content || a.tool_calls.size() != b.tool_calls.size())
    return false;
  for (std::size_t i = 0; i < a.tool_calls.size(); ++i)
    if (a.tool_calls[i].id != b.tool_calls[i].id || a.tool_calls[i].name != b.tool_calls[i].name ||
        a.tool_calls[i].arguments != b.tool_calls[i].arguments)
      return false;
  return true;
}
