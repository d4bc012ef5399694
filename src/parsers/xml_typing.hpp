// Typing of raw XML-style parameter values by the tool's JSON schema, as vLLM's minimax_m2
// parser does it (the families whose peers type values this way: minimax_m2). Unlike ToolTypes
// (core.hpp: the schema's "type" only), a parameter's types come from "type" (a name or a
// list), the values of "enum", and the branches of "anyOf" / "oneOf" / "allOf"; a parameter
// the schema does not describe is a string.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/core.hpp"

namespace textedge::detail {

class SchemaTypes {
 public:
  explicit SchemaTypes(const std::string& tools_json);
  // The parameter's types, lower-case ({"string"} when the tools do not say).
  std::vector<std::string> types(const std::string& tool, const std::string& parameter) const;

 private:
  struct Tool {
    std::string name;
    std::vector<std::pair<std::string, std::vector<std::string>>> params;
    std::vector<std::string> direct;  // per parameter, as params
  };
  std::vector<Tool> tools_;

 public:
  bool describes(const std::string& tool, const std::string& parameter) const;  // the schema has this parameter
  // The parameter's "type" when it is a single name ("" when absent, a list, or not described).
  std::string direct_type(const std::string& tool, const std::string& parameter) const;
};

// A value stripped of surrounding whitespace (Python's str.strip()) and converted by its types:
// "null", "none" and "nil" (any case) are null; then, in this order, whichever the types allow
// and the text reads as: an integer (Python's int()), a number (float(); integral values are
// written as integers), a boolean (true/1/yes/on, false/0/no/off), an object or array (JSON),
// a string; else the text when it is JSON, else a string.
std::string minimax_typed_value(std::string_view stripped, const std::vector<std::string>& types);

// DeepSeek-V3.2's DSML parameter value (`raw` as written, `string_attr` its string="true|false"),
// as vLLM's deepseek_v32 parser reads it: string="true" is a string, string="false" is JSON
// (a string when it does not parse); then the schema's types (SchemaTypes) coerce it: a string
// where the schema has no string type is converted as minimax_typed_value converts it; null
// where the schema allows a string but not null is "null"; an integral number where the schema
// says number or integer is an integer; a non-string where the schema allows only strings is its
// text. `typed`: the schema describes the parameter (else the value stays as read).
std::string dsml_typed_value(std::string_view raw, bool string_attr, const std::vector<std::string>& types, bool typed);

// Step3's value of a parameter whose schema type is `type` (integer, number, boolean or null):
// stripped, then int() / float() (written as Python writes a float) / true|false / null when it
// reads as one, else the stripped text as a string.
std::string step3_typed_value(std::string_view raw, const std::string& type);

// Reads one value up to its end tag, byte by byte. The values of string-only parameters stream
// as written (surrounding whitespace held back and dropped; the first bytes held while they
// could still be a null word); the others are held to the end tag and converted.
class XmlValue {
 public:
  // step3: `types` holds the schema's own "type" when it is a name ({} otherwise); values of
  // integer, number, boolean and null parameters are stripped and converted (Step3's
  // _cast_arguments in vLLM), all others are strings as written.
  enum class Rules : unsigned char { minimax, dsml, step3 };
  // dsml: string_attr is the value's string="true|false"; typed: the schema describes it. DSML
  // values are not stripped; a string="true" value of a string (or undescribed) parameter streams.
  void begin(std::vector<std::string> types, Rules rules = Rules::minimax, bool string_attr = true, bool typed = true);
  bool streamed() const { return streamed_; }
  // True when `c` completes `end_tag` (which begins with '<'): the value's JSON is then complete
  // in the arguments.
  bool step(unsigned char c, std::string_view end_tag, ToolScanner& out);

 private:
  void text(unsigned char c, ToolScanner& out);
  void finish(ToolScanner& out);
  std::vector<std::string> types_;
  Rules rules_ = Rules::minimax;
  bool string_attr_ = true, typed_ = true;
  bool streamed_ = true, decided_ = false;
  std::string value_, ws_;
  std::size_t at_ = 0;
};

bool py_space(unsigned char c);  // what Python's str.strip() drops (ASCII)
std::string_view py_strip(std::string_view s);

}  // namespace textedge::detail
