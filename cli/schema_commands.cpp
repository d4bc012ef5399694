#include "schema_commands.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "textedge/schema.hpp"

namespace textedge::cli {

namespace {
bool read_text(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}
}  // namespace

int run_schema_command(const SchemaCommand& c) {
  const std::string& path = c.command == "schema-regex" ? c.file : c.tools;
  std::string text;
  if (!read_text(path, text)) {
    std::fprintf(stderr, "textedge: %s: cannot open\n", path.c_str());
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
