// tool_call_pattern: the regex that forces a tool call, in the syntax the model's family was
// trained on. Each family writes one call (Family::call_regex, in its own file) and says how
// several are joined (Family::envelope); this file reads the tools and puts them together.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

std::vector<ToolRegex> read_tools(const Json& root, const SchemaRegexOptions& options) {
  std::vector<ToolRegex> tools;
  for (auto& entry : root.array()) {
    Json fn = entry;
    if (auto f = entry.find("function")) fn = *f;
    if (auto t = entry.find("type"); t && t->str() != "function")
      SchemaCompiler::fail(*t, "only tools of type \"function\" are supported");
    tools.emplace_back(std::string(fn.get("name").str()), fn.find("parameters"), fn, options);
  }
  if (tools.empty()) SchemaCompiler::fail(root, "no tools");
  return tools;
}

}  // namespace

std::string ToolRegex::json_name() const {
  std::string quoted;
  for (char c : name_) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return "\"name\": ?\"" + regex_literal(quoted) + "\"";
}

std::string ToolRegex::json_args() const {
  if (!parameters_) return "\\{\\}";
  SchemaCompiler compiler(*parameters_, options_, Dialect::json);
  Re re = compiler.value(*parameters_);
  if (re.never) SchemaCompiler::fail(*parameters_, "no arguments satisfy these parameters");
  return re.s;
}

std::string ToolRegex::members(const MemberStyle& style, Dialect dialect) const {
  if (!parameters_) return "";
  SchemaCompiler compiler(*parameters_, options_, dialect);
  Re re = compiler.members(*parameters_, style);
  if (re.never) SchemaCompiler::fail(*parameters_, "no arguments satisfy these parameters");
  return re.s;
}

}  // namespace textedge::detail

namespace textedge {

std::string tool_call_pattern(const std::string& tools_json, const std::string& format, const std::string& name,
                              bool parallel, const SchemaRegexOptions& options) {
  const detail::Family* family = detail::find_family(format);
  if (!family || !family->call_regex) {
    std::string known;
    for (const detail::Family* f : detail::families())
      if (f->call_regex) known += (known.empty() ? "" : ", ") + std::string(f->name);
    throw SchemaError("$", "unknown tool call format \"" + format + "\" (expected one of " + known + ")");
  }
  try {
    detail::JsonDocument doc(std::string_view(tools_json), "tools");
    SchemaRegexOptions strict = options;
    strict.strict = true;
    std::vector<std::string> calls;
    for (auto& tool : detail::read_tools(doc.root(), strict))
      if (name.empty() || tool.name() == name) calls.push_back(family->call_regex(tool));
    if (calls.empty()) throw SchemaError("$", "no tool named \"" + name + "\"");
    std::string call;
    for (auto& c : calls) call += (call.empty() ? "" : "|") + c;
    if (calls.size() > 1) call = "(?:" + call + ")";
    const detail::CallEnvelope& env = family->envelope;
    std::string body = parallel && env.parallel ? call + "(?:" + std::string(env.separator) + call + ")*" : call;
    return std::string(env.open) + body + std::string(env.close);
  } catch (const LoadError& e) {
    std::string what = e.what();
    std::string prefix = e.file() + ": at " + (e.json_path().empty() ? "$" : e.json_path()) + ": ";
    if (what.starts_with(prefix)) what = what.substr(prefix.size());
    throw SchemaError(e.json_path(), what);
  }
}

}  // namespace textedge
