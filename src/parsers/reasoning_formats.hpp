// A reasoning format as data: how one family of models marks its reasoning (the text before the
// answer), in the table of src/parsers/reasoning_formats.cpp. The reasoning layer of the output
// parser (output_parser.cpp, ParserCore), parser_markers, list_reasoning_formats and
// detect_format all read this table; adding a format is one entry there.
//
// The layer, byte-serial like the rest of the parser:
//   before any other content (whitespace aside), an `open` marker opens reasoning (or the output
//   starts in it: `starts_in_reasoning`, or the request's starts_in_reasoning); a `close` marker
//   ends it, and the rest is content. Reasoning not closed at the end is reasoning. Markers are
//   plain text (special tokens kept when decoding, or words as Granite's), matched through an
//   Aho-Corasick automaton, so only what could still begin a marker is held back.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace textedge::detail {

struct ReasoningFormat {
  std::string_view name;
  std::string_view models;  // who writes it, for docs and --list
  // Reasoning opens with any of these before other content, and closes at any of `close`.
  std::array<std::string_view, 2> open = {}, close = {};
  // The output starts inside reasoning whatever the request says (the template always opens it).
  bool starts_in_reasoning = false;
  // An `open` marker at the start of reasoning already open (only whitespace before it):
  // dropped (the model repeats the prompt's marker), or reasoning text (as the peers read it).
  enum class LeadingOpen : unsigned char { drop, text };
  LeadingOpen leading_open = LeadingOpen::drop;
  // A role label the model writes at the start of its reasoning, dropped (Gemma 4's "thought\n").
  std::string_view label = {};
  // A wrapper around the answer, dropped: `answer_open` before any other content (after the
  // reasoning, or at the start), then the first `answer_close` (Hunyuan's <answer>, ERNIE's
  // <response>, Command A's <|START_RESPONSE|>).
  std::array<std::string_view, 2> answer_open = {}, answer_close = {};
  // Written as content before the output (MiniMax-M2 "append think": the reasoning stays in the
  // content, with the <think> the prompt opened put back).
  std::string_view content_prefix = {};
  // The layer does nothing: "none", and "harmony" (the harmony tool format reads the channels).
  bool passive = false;
  std::string_view tool_format = {};  // the only tool call format it works with ("" any)
  // A tool call format that reads this reasoning itself (its family parses the same markers):
  // with it the layer does nothing, and detect_format pairs it with reasoning "none".
  std::string_view read_by_format = {};
  // Whether a chat template's source shows this format (reasoning_formats() is in detection
  // order, most specific first), and whether its generation prompt opens the reasoning.
  bool (*detect)(std::string_view chat_template) = nullptr;
  bool (*prompt_opens)(std::string_view chat_template) = nullptr;

  bool answer_tags() const { return !answer_open[0].empty(); }
};

// Every reasoning format ("none" first; list_reasoning_formats() order), and those detect_format
// tries, most specific first.
const std::vector<const ReasoningFormat*>& reasoning_formats();
const std::vector<const ReasoningFormat*>& reasoning_detection_order();
const ReasoningFormat* find_reasoning_format(std::string_view name);  // nullptr when unknown
std::string reasoning_format_names();                                  // "none, think, ..." for messages
// Every marker text of a format (open, close, answer wrapper, prefix), once each.
std::vector<std::string> reasoning_markers(const ReasoningFormat& f);

}  // namespace textedge::detail
