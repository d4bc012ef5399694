#include "schema_commands.hpp"

#include <cstdio>

#include "read_input.hpp"
#include "textedge/schema.hpp"

namespace textedge::cli {

int run_schema_command(const SchemaCommand& c) {
  const std::string& path = c.command == "schema-regex" ? c.file : c.tools;
  std::string text;
  try {
    text = read_input(path);
  } catch (const Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
  try {
    SchemaRegexOptions options;
    options.strict = c.strict;
    options.any_depth = c.any_depth;
    options.max_depth = c.max_depth;
    std::string re = c.command == "schema-regex" ? json_schema_regex(text, options)
                                                 : tool_call_pattern(text, c.format, c.name, c.parallel, options);
    re += '\n';
    std::fwrite(re.data(), 1, re.size(), stdout);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "textedge: %s: %s\n", path.c_str(), e.what());
    return 1;
  }
}

}  // namespace textedge::cli
