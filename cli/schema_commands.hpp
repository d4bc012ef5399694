// `textedge schema-regex` and `textedge tool-regex`: the regexes of include/textedge/schema.hpp.
#pragma once

#include <string>

namespace textedge::cli {

struct SchemaCommand {
  std::string command;  // "schema-regex" or "tool-regex"
  std::string file;     // schema-regex: the JSON Schema file
  std::string tools, format, name;
  bool parallel = false;
  bool strict = false;
  int any_depth = 2;  // SchemaRegexOptions::any_depth
  int max_depth = 3;  // SchemaRegexOptions::max_depth
};

// Prints the regex and a newline; returns the exit status (1 on errors, printed to stderr).
int run_schema_command(const SchemaCommand& c);

}  // namespace textedge::cli
