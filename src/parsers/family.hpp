// A tool call family as data: everything textedge knows about how one family of models writes
// tool calls, in the family's own file (src/parsers/<family>.cpp). Adding a family is one file
// plus one line in families.cpp; the parser, detect_format, parser_markers, tool-regex, the CLI,
// the server and the tests all read this table.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/core.hpp"
#include "schema/json_schema_regex.hpp"

namespace textedge::detail {

// One tool, as a family's forced-call regex writes it (tool_call_pattern.cpp).
class ToolRegex {
 public:
  ToolRegex(std::string name, std::optional<Json> parameters, Json at, const SchemaRegexOptions& options)
      : name_(std::move(name)), parameters_(std::move(parameters)), at_(std::move(at)), options_(options) {}
  const std::string& name() const { return name_; }
  std::string name_regex() const { return regex_literal(name_); }
  std::string json_name() const;  // "name": ?"f"
  std::string json_args() const;  // the arguments as one JSON object
  // The arguments one by one in `style` (no braces around them); "" for a tool without parameters.
  std::string members(const MemberStyle& style, Dialect dialect = Dialect::json) const;
  const std::optional<Json>& parameters() const { return parameters_; }
  const Json& at() const { return at_; }  // the tool's function object, for errors

 private:
  std::string name_;
  std::optional<Json> parameters_;
  Json at_;
  SchemaRegexOptions options_;
};

// How several calls are written (regexes): before the first, between two, after the last.
struct CallEnvelope {
  std::string_view open, separator, close;
  bool parallel = true;  // false: one call per message
};

// Constant-initialized (constexpr in each family's file), so the table is usable during static
// initialization too.
struct Family {
  std::string_view name;
  std::string_view models;  // who writes it, for --help and docs
  // Two calls as the models write them, get_weather {"city": "Paris", "days": 3} then get_time
  // {"tz": "Asia/Tokyo"} (one if the family has no parallel form): tests and benchmarks use it.
  std::string_view example = {};
  std::string_view reasoning = "none";  // the reasoning format its models pair with
  std::unique_ptr<ToolScanner> (*make)(Emitter&, const OutputParserOptions&) = nullptr;
  std::array<std::string_view, 12> markers = {};  // the text the scanner reads (special tokens kept for it)
  bool calls_in_reasoning = false;   // the model calls tools in the middle of its reasoning
  // A call's start (markers[0]) inside reasoning the prompt opened (starts_in_reasoning) ends the
  // reasoning: the model may call without closing it first (Qwen3.5 after a prefilled <think>,
  // as llama.cpp reads it).
  bool calls_end_reasoning = false;
  // Whether a chat template's source shows this family (families() is in detection order).
  bool (*detect)(std::string_view chat_template) = nullptr;
  // One forced call of a tool (tool-regex); nullptr: textedge cannot force this family's calls.
  std::string (*call_regex)(const ToolRegex& tool) = nullptr;
  CallEnvelope envelope = {};
};

// Every family, most specific detection first; "none" (no calls) is first.
const std::vector<const Family*>& families();
const Family* find_family(std::string_view name);  // nullptr when unknown
std::string family_names();                         // "none, hermes, ..." for messages

inline bool contains(std::string_view text, std::string_view s) { return text.find(s) != std::string_view::npos; }

}  // namespace textedge::detail
