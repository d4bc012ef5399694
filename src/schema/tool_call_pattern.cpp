// The regex that forces a tool call, in the wrapper syntax each model family was trained on.
// Sources for each format (the chat templates shipped with the models, and the parsers that
// read them back: vLLM's entrypoints/openai/tool_parsers, llama.cpp's common/chat.cpp):
//   hermes        Hermes 2/3, Qwen2.5, Qwen3 (chat template; vLLM hermes parser)
//                 <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>, calls joined by \n
//   llama3_json   Llama 3.1/3.2/3.3 JSON tool calls (vLLM llama3_json parser)
//                 {"name": "f", "parameters": {...}}, several joined by "; "
//   mistral       Mistral 7B v0.3, Mixtral 8x22B, Mistral Nemo/Small (pre-v11 tokenizer; vLLM
//                 mistral parser) [TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]
//   qwen3_coder   Qwen3-Coder, Qwen3-Next/3.5 (chat template; vLLM qwen3_coder parser): XML-ish
//                 <function=f>/<parameter=k> blocks; string values raw, others JSON
//   deepseek_v3   DeepSeek-V3 / V3-0324 / R1-0528 (chat template; vLLM deepseek_v3 parser):
//                 ...function<｜tool▁sep｜>f\n```json\n{...}\n```..., calls joined by \n
//   deepseek_v31  DeepSeek-V3.1 / V3.2 (chat template; vLLM deepseek_v31 parser): f<｜tool▁sep｜>{...}
//   kimi_k2       Kimi K2 (chat template; vLLM kimi_k2 parser): functions.f:INDEX ids
//   glm45         GLM-4.5 / 4.6 (chat template; vLLM glm45 parser): <arg_key>/<arg_value>
//                 pairs; string values raw, others JSON
//   harmony       gpt-oss (openai/harmony format docs): the commentary channel addressed to
//                 functions.f with <|constrain|>json; one call per message (no parallel form)
//   pythonic      Llama 3.2 / Llama 4 (vLLM pythonic parser, ast.literal_eval): [f(a=1, b="x")]
#include "schema/json_schema_regex.hpp"

#include <functional>

namespace textedge::detail {
namespace {

struct Tool {
  std::string name;
  std::optional<Json> parameters;
  Json at;
};

std::vector<Tool> read_tools(const Json& root) {
  std::vector<Tool> tools;
  for (auto& entry : root.array()) {
    Json fn = entry;
    if (auto f = entry.find("function")) fn = *f;
    if (auto t = entry.find("type"); t && t->str() != "function")
      SchemaCompiler::fail(*t, "only tools of type \"function\" are supported");
    tools.push_back(Tool{std::string(fn.get("name").str()), fn.find("parameters"), fn});
  }
  if (tools.empty()) SchemaCompiler::fail(root, "no tools");
  return tools;
}

bool identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

const std::string kJsonName = "\"name\": ?\"";

// One call of `tool` in `format`.
std::string one_call(const Tool& tool, const std::string& format, const SchemaRegexOptions& options) {
  std::string name = regex_literal(tool.name);
  std::string json_name = kJsonName + regex_literal([&] {
    std::string s;
    for (char c : tool.name) s += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return s;
  }()) + "\"";
  Json schema_root = tool.parameters ? *tool.parameters : tool.at;
  auto compile = [&](Dialect dialect, const MemberStyle* style) -> std::string {
    if (!tool.parameters) return style ? "" : "\\{\\}";
    SchemaCompiler compiler(*tool.parameters, options, dialect);
    Re re = style ? compiler.members(*tool.parameters, *style) : compiler.value(*tool.parameters);
    if (re.never) SchemaCompiler::fail(*tool.parameters, "no arguments satisfy these parameters");
    return re.s;
  };
  auto json_args = [&] { return compile(Dialect::json, nullptr); };

  if (format == "hermes") return "<tool_call>\\n\\{" + json_name + ", ?\"arguments\": ?" + json_args() + "\\}\\n</tool_call>";
  if (format == "llama3_json") return "\\{" + json_name + ", ?\"parameters\": ?" + json_args() + "\\}";
  if (format == "mistral") return "\\{" + json_name + ", ?\"arguments\": ?" + json_args() + "\\}";
  if (format == "deepseek_v3")
    return "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + name + "\\n```json\\n" + json_args() + "\\n```<｜tool▁call▁end｜>";
  if (format == "deepseek_v31") return "<｜tool▁call▁begin｜>" + name + "<｜tool▁sep｜>" + json_args() + "<｜tool▁call▁end｜>";
  if (format == "kimi_k2")
    return "<\\|tool_call_begin\\|>functions\\." + name + ":(?:0|[1-9][0-9]*)<\\|tool_call_argument_begin\\|>" + json_args() +
           "<\\|tool_call_end\\|>";
  if (format == "harmony")
    return "(?:<\\|start\\|>assistant)?<\\|channel\\|>commentary to=functions\\." + name +
           " <\\|constrain\\|>json<\\|message\\|>" + json_args() + "<\\|call\\|>";
  if (format == "qwen3_coder") {
    MemberStyle style{[](std::string_view k) { return "<parameter=" + regex_literal(k) + ">\\n"; }, "\\n</parameter>\\n", "",
                      "</parameter>"};
    return "<tool_call>\\n<function=" + name + ">\\n" + compile(Dialect::json, &style) + "</function>\\n</tool_call>";
  }
  if (format == "glm45") {
    MemberStyle style{[](std::string_view k) { return "<arg_key>" + regex_literal(k) + "</arg_key>\\n<arg_value>"; },
                      "</arg_value>\\n", "", "</arg_value>"};
    return "<tool_call>" + name + "\\n" + compile(Dialect::json, &style) + "</tool_call>";
  }
  if (format == "pythonic") {
    if (!identifier(tool.name)) SchemaCompiler::fail(tool.at.get("name"), "pythonic calls need a Python identifier as name");
    if (tool.parameters && tool.parameters->is_object())
      if (auto props = tool.parameters->find("properties"))
        for (auto& [k, v] : props->members())
          if (!identifier(k)) SchemaCompiler::fail(v, "pythonic calls need Python identifiers as argument names");
    // Names can also come from "required" or an allOf part: each is checked where it is written.
    auto argument = [&](std::string_view k) {
      if (!identifier(k))
        SchemaCompiler::fail(*tool.parameters, "pythonic calls need Python identifiers as argument names, not \"" +
                                                   std::string(k) + "\"");
      return std::string(k) + "=";
    };
    MemberStyle style{argument, "", ", ?", ""};
    return name + "\\(" + compile(Dialect::python, &style) + "\\)";
  }
  throw SchemaError("$", "unknown tool call format \"" + format +
                             "\" (expected hermes, llama3_json, mistral, qwen3_coder, deepseek_v3, deepseek_v31, "
                             "kimi_k2, glm45, harmony or pythonic)");
}

// How several calls are written: before the first, between two, after the last.
struct Envelope {
  std::string open, separator, close;
  bool parallel;
};

Envelope envelope(const std::string& format) {
  if (format == "hermes" || format == "qwen3_coder" || format == "glm45") return {"", "\\n", "", true};
  if (format == "llama3_json") return {"", "; ", "", true};
  if (format == "mistral") return {"\\[TOOL_CALLS\\] ?\\[", ", ?", "\\]", true};
  if (format == "deepseek_v3") return {"<｜tool▁calls▁begin｜>", "\\n", "<｜tool▁calls▁end｜>", true};
  if (format == "deepseek_v31") return {"<｜tool▁calls▁begin｜>", "", "<｜tool▁calls▁end｜>", true};
  if (format == "kimi_k2") return {"<\\|tool_calls_section_begin\\|>", "", "<\\|tool_calls_section_end\\|>", true};
  if (format == "pythonic") return {"\\[", ", ?", "\\]", true};
  return {"", "", "", false};  // harmony
}

}  // namespace

}  // namespace textedge::detail

namespace textedge {

std::string tool_call_pattern(const std::string& tools_json, const std::string& format, const std::string& name,
                              bool parallel, const SchemaRegexOptions& options) {
  try {
    detail::JsonDocument doc(std::string_view(tools_json), "tools");
    auto tools = detail::read_tools(doc.root());
    SchemaRegexOptions strict = options;
    strict.strict = true;
    std::vector<std::string> calls;
    for (auto& tool : tools)
      if (name.empty() || tool.name == name) calls.push_back(detail::one_call(tool, format, strict));
    if (calls.empty()) throw SchemaError("$", "no tool named \"" + name + "\"");
    std::string call;
    for (auto& c : calls) call += (call.empty() ? "" : "|") + c;
    if (calls.size() > 1) call = "(?:" + call + ")";
    detail::Envelope env = detail::envelope(format);
    std::string body = parallel && env.parallel ? call + "(?:" + env.separator + call + ")*" : call;
    return env.open + body + env.close;
  } catch (const LoadError& e) {
    std::string what = e.what();
    std::string prefix = e.file() + ": at " + (e.json_path().empty() ? "$" : e.json_path()) + ": ";
    if (what.starts_with(prefix)) what = what.substr(prefix.size());
    throw SchemaError(e.json_path(), what);
  }
}

}  // namespace textedge
