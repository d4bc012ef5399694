// tool_call_pattern: for every wrapper format, a call written the way the model writes it
// matches and parses back to the right name and arguments; chat, calls missing a required
// argument or with a wrongly typed one, and calls to another tool do not match.
#include <gtest/gtest.h>
#include <simdjson.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"

namespace {

bool full_match(const std::string& pattern, const std::string& text) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &error, &offset, nullptr);
  if (!code) {
    ADD_FAILURE() << "pattern does not compile (error " << error << " at " << offset << ")";
    return false;
  }
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(code, nullptr);
  int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data, nullptr);
  pcre2_match_data_free(data);
  pcre2_code_free(code);
  return rc >= 0;
}

const std::string kTools = R"([
  {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {
      "location": {"type": "string"},
      "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
      "days": {"type": "integer", "minimum": 1, "maximum": 14}},
     "required": ["location"]}}},
  {"type": "function", "function": {"name": "send_email",
    "parameters": {"type": "object", "properties": {
      "to": {"type": "string"}, "body": {"type": "string"}, "urgent": {"type": "boolean"}},
     "required": ["to", "body"], "additionalProperties": false}}}
])";

// Every tool call family with a forced-call syntax (a new one needs its rendering in render_call).
const std::vector<std::string> kFormats = [] {
  std::vector<std::string> v;  // the families tool_call_pattern can force
  for (auto& f : textedge::format_infos())
    if (f.forced) v.push_back(f.name);
  return v;
}();

using Args = std::vector<std::pair<std::string, std::string>>;  // name, JSON value text

// JSON text with object members sorted by name (gemma4 writes them sorted), minified.
std::string canonical(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json).get(root)) return "<bad JSON: " + json + ">";
  std::function<std::string(simdjson::dom::element)> write = [&](simdjson::dom::element e) -> std::string {
    if (e.is_object()) {
      std::vector<std::pair<std::string, std::string>> members;
      simdjson::dom::object object = e.get_object().value();
      for (auto [k, v] : object) members.emplace_back(std::string(k), write(v));
      std::sort(members.begin(), members.end());
      std::string out = "{";
      for (auto& [k, v] : members) out += (out.size() > 1 ? "," : "") + ("\"" + k + "\":" + v);
      return out + "}";
    }
    if (e.is_array()) {
      std::string out = "[";
      simdjson::dom::array array = e.get_array().value();
      for (auto v : array) out += (out.size() > 1 ? "," : "") + write(v);
      return out + "]";
    }
    return simdjson::minify(e);
  };
  return write(root);
}

std::string json_object(const Args& args) {
  std::string out = "{";
  for (auto& [k, v] : args) out += (out.size() > 1 ? ", " : "") + ("\"" + k + "\": " + v);
  return out + "}";
}
// Raw formats write string values unquoted (the test values need no escapes).
std::string raw(const std::string& v) { return v.size() >= 2 && v[0] == '"' ? v.substr(1, v.size() - 2) : v; }

// One call as the model writes it (the calls of one format, joined: the parallel form).
std::string render_call(const std::string& format, const std::string& name, const Args& args, int index = 0) {
  std::string obj = json_object(args);
  if (format == "hermes" || format == "granite4") return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + obj + "}\n</tool_call>";
  if (format == "granite_20b_fc") return "<function_call> {\"name\": \"" + name + "\", \"arguments\": " + obj + "}";
  if (format == "internlm2")
    return "<|action_start|><|plugin|>\n{\"name\": \"" + name + "\", \"parameters\": " + obj + "}<|action_end|>";
  if (format == "llama3_json") return "{\"name\": \"" + name + "\", \"parameters\": " + obj + "}";
  if (format == "mistral" || format == "granite" || format == "phi4_mini" || format == "hunyuan" || format == "jamba" ||
      format == "xlam" || format == "nemotron")
    return "{\"name\": \"" + name + "\", \"arguments\": " + obj + "}";
  if (format == "deepseek_v3")
    return "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + name + "\n```json\n" + obj + "\n```<｜tool▁call▁end｜>";
  if (format == "deepseek_v31") return "<｜tool▁call▁begin｜>" + name + "<｜tool▁sep｜>" + obj + "<｜tool▁call▁end｜>";
  if (format == "kimi_k2")
    return "<|tool_call_begin|>functions." + name + ":" + std::to_string(index) + "<|tool_call_argument_begin|>" + obj +
           "<|tool_call_end|>";
  if (format == "cohere")
    return "{\"tool_call_id\": \"" + std::to_string(index) + "\", \"tool_name\": \"" + name + "\", \"parameters\": " + obj + "}";
  if (format == "apertus") return "{\"" + name + "\": " + obj + "}";
  if (format == "gigachat3")
    return "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"" + name + "\", \"arguments\": " + obj + "}";
  if (format == "harmony")
    return "<|start|>assistant<|channel|>commentary to=functions." + name + " <|constrain|>json<|message|>" + obj + "<|call|>";
  if (format == "qwen3_coder") {
    std::string out = "<tool_call>\n<function=" + name + ">\n";
    for (auto& [k, v] : args) out += "<parameter=" + k + ">\n" + raw(v) + "\n</parameter>\n";
    return out + "</function>\n</tool_call>";
  }
  if (format == "glm45") {
    std::string out = "<tool_call>" + name + "\n";
    for (auto& [k, v] : args) out += "<arg_key>" + k + "</arg_key>\n<arg_value>" + raw(v) + "</arg_value>\n";
    return out + "</tool_call>";
  }
  if (format == "deepseek_v32") {
    std::string out = "<｜DSML｜invoke name=\"" + name + "\">\n";
    for (auto& [k, v] : args)
      out += "<｜DSML｜parameter name=\"" + k + "\" string=\"" + (v[0] == '"' ? "true" : "false") + "\">" + raw(v) + "</｜DSML｜parameter>\n";
    return out + "</｜DSML｜invoke>\n";
  }
  if (format == "minimax") return "{\"name\": \"" + name + "\", \"arguments\": " + obj + "}\n";
  if (format == "kimi_k3") {
    std::string out = "<|open|>call tool=\"" + name + "\" index=\"" + std::to_string(index + 1) + "\"<|sep|>";
    for (auto& [k, v] : args) {
      std::string type = v[0] == '"' ? "string" : (v == "true" || v == "false") ? "boolean" : "number";
      out += "<|open|>argument key=\"" + k + "\" type=\"" + type + "\"<|sep|>" + raw(v) + "<|close|>argument<|sep|>";
    }
    return out + "<|close|>call<|sep|>";
  }
  if (format == "step3") {
    std::string out = "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"" + name + "\">";
    for (auto& [k, v] : args) out += "<steptml:parameter name=\"" + k + "\">" + raw(v) + "</steptml:parameter>";
    return out + "</steptml:invoke><｜tool_call_end｜>";
  }
  if (format == "glm47") {
    std::string out = "<tool_call>" + name;
    for (auto& [k, v] : args) out += "<arg_key>" + k + "</arg_key><arg_value>" + raw(v) + "</arg_value>";
    return out + "</tool_call>";
  }
  if (format == "seed_oss") {
    std::string out = "<seed:tool_call>\n<function=" + name + ">\n";
    for (auto& [k, v] : args) out += "<parameter=" + k + ">" + raw(v) + "</parameter>\n";
    return out + "</function>\n</seed:tool_call>";
  }
  if (format == "minimax_m2") {
    std::string out = "<invoke name=\"" + name + "\">\n";
    for (auto& [k, v] : args) out += "<parameter name=\"" + k + "\">" + raw(v) + "</parameter>\n";
    return out + "</invoke>\n";
  }
  if (format == "gemma4") {  // the template's format_argument: keys sorted (dictsort), strings between <|"|>
    Args sorted = args;
    std::stable_sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::string out = "<|tool_call>call:" + name + "{";
    for (auto& [k, v] : sorted) out += (out.back() == '{' ? "" : ",") + k + ":" + (v[0] == '"' ? "<|\"|>" + raw(v) + "<|\"|>" : v);
    return out + "}<tool_call|>";
  }
  if (format == "pythonic" || format == "olmo3" || format == "lfm2") {
    std::string out = name + "(";
    for (auto& [k, v] : args) out += (out.back() == '(' ? "" : ", ") + k + "=" + (v == "true" ? "True" : v == "false" ? "False" : v);
    return out + ")";
  }
  ADD_FAILURE() << "no rendering for the format " << format;
  return "";
}

std::string render(const std::string& format, const std::vector<std::pair<std::string, Args>>& calls) {
  std::string out;
  const char* sep = format == "llama3_json"  ? "; "
                    : format == "cohere"     ? ",\n    "
                    : (format == "mistral" || format == "pythonic" || format == "granite" || format == "phi4_mini" ||
                       format == "hunyuan" || format == "jamba" || format == "xlam" || format == "lfm2" ||
                       format == "apertus" || format == "nemotron")
                        ? ", "
                    : (format == "deepseek_v31" || format == "kimi_k2" || format == "internlm2" || format == "minimax_m2" ||
                       format == "glm47" || format == "deepseek_v32" || format == "step3" || format == "kimi_k3" ||
                       format == "minimax" || format == "gemma4")
                        ? ""
                        : "\n";
  for (std::size_t i = 0; i < calls.size(); ++i)
    out += (i ? sep : "") + render_call(format, calls[i].first, calls[i].second, static_cast<int>(i));
  if (format == "mistral") return "[TOOL_CALLS][" + out + "]";
  if (format == "pythonic") return "[" + out + "]";
  if (format == "granite") return "<|tool_call|>[" + out + "]";
  if (format == "phi4_mini") return "functools[" + out + "]";
  if (format == "xlam") return "[" + out + "]";
  if (format == "olmo3") return "<function_calls>\n" + out + "\n</function_calls>";
  if (format == "hunyuan" || format == "jamba") return "<tool_calls>[" + out + "]</tool_calls>";
  if (format == "cohere") return "<|START_ACTION|>[\n    " + out + "\n]<|END_ACTION|>";
  if (format == "apertus") return "<|tools_prefix|>[" + out + "]<|tools_suffix|>";
  if (format == "nemotron") return "<TOOLCALL>[" + out + "]</TOOLCALL>";
  if (format == "lfm2") return "<|tool_call_start|>[" + out + "]<|tool_call_end|>";
  if (format == "deepseek_v3" || format == "deepseek_v31") return "<｜tool▁calls▁begin｜>" + out + "<｜tool▁calls▁end｜>";
  if (format == "kimi_k2") return "<|tool_calls_section_begin|>" + out + "<|tool_calls_section_end|>";
  if (format == "minimax_m2") return "<minimax:tool_call>\n" + out + "</minimax:tool_call>";
  if (format == "deepseek_v32") return "<｜DSML｜function_calls>\n" + out + "</｜DSML｜function_calls>";
  if (format == "step3") return "<｜tool_calls_begin｜>" + out + "<｜tool_calls_end｜>";
  if (format == "kimi_k3") return "<|open|>tools<|sep|>" + out + "<|close|>tools<|sep|>";
  if (format == "minimax") return "<tool_calls>\n" + out + "</tool_calls>";
  return out;
}

// Reads a call back with textedge's own parser for the format.
std::pair<std::string, std::string> parse_call(const std::string& format, const std::string& text) {
  textedge::OutputParserOptions o;
  o.format = format;
  o.tools_json = kTools;
  textedge::ParsedMessage m = textedge::parse_output(text, o);
  if (m.tool_calls.size() != 1) return {"", "<" + std::to_string(m.tool_calls.size()) + " calls in: " + text + ">"};
  return {m.tool_calls[0].name, canonical(m.tool_calls[0].arguments)};
}

const Args kParis = {{"location", "\"Paris\""}, {"days", "3"}};

TEST(ToolCallPattern, AWellFormedCallMatchesAndParsesBack) {
  for (auto& format : kFormats) {
    std::string pattern = textedge::tool_call_pattern(kTools, format);
    for (const Args& args : {kParis, Args{{"location", "\"Oslo\""}},
                             Args{{"location", "\"São Paulo\""}, {"unit", "\"celsius\""}, {"days", "14"}}}) {
      std::string text = render(format, {{"get_weather", args}});
      EXPECT_TRUE(full_match(pattern, text)) << format << ": " << text;
      auto [name, parsed] = parse_call(format, text);
      EXPECT_EQ(name, "get_weather") << format;
      EXPECT_EQ(parsed, canonical(json_object(args))) << format;
    }
    std::string email = render(format, {{"send_email", {{"to", "\"a@b.c\""}, {"body", "\"Hi\""}, {"urgent", "true"}}}});
    EXPECT_TRUE(full_match(pattern, email)) << format << ": " << email;
  }
}

TEST(ToolCallPattern, ChatAndBrokenCallsDoNotMatch) {
  for (auto& format : kFormats) {
    std::string pattern = textedge::tool_call_pattern(kTools, format);
    EXPECT_FALSE(full_match(pattern, "I think it will be sunny in Paris.")) << format;
    EXPECT_FALSE(full_match(pattern, "Sure! " + render(format, {{"get_weather", kParis}}))) << format;
    const std::vector<Args> broken = {
        {{"days", "3"}},                                  // missing the required location
        {{"location", "\"Paris\""}, {"days", "15"}},      // out of range
        {{"location", "\"Paris\""}, {"days", "\"3\""}},   // wrong type
        {{"location", "\"Paris\""}, {"unit", "\"kelvin\""}},
        {{"location", "\"Paris\""}, {"extra", "1"}},      // tool calls are strict
        {{"days", "3"}, {"location", "\"Paris\""}},       // schema order
    };
    for (auto& args : broken) {
      bool raw_format = format == "qwen3_coder" || format == "glm45" || format == "minimax_m2" || format == "seed_oss" || format == "glm47" ||
                        format == "deepseek_v32" || format == "step3";
      if (raw_format && args.size() > 1 && args[1].second == "\"3\"") continue;  // raw "3" is the integer 3 there
      if (format == "gemma4" && args.size() > 1 && args[0].first == "days") continue;  // gemma4 sorts by name
      std::string text = render(format, {{"get_weather", args}});
      EXPECT_FALSE(full_match(pattern, text)) << format << ": " << text;
    }
    EXPECT_FALSE(full_match(pattern, render(format, {{"send_email", {{"to", "\"a@b.c\""}}}}))) << format;
    EXPECT_FALSE(full_match(pattern, render(format, {{"get_time", {}}}))) << format;
  }
}

TEST(ToolCallPattern, NamedToolAndParallelCalls) {
  for (auto& format : kFormats) {
    std::string named = textedge::tool_call_pattern(kTools, format, "send_email");
    std::string email = render(format, {{"send_email", {{"to", "\"x@y.z\""}, {"body", "\"b\""}}}});
    EXPECT_TRUE(full_match(named, email)) << format;
    EXPECT_FALSE(full_match(named, render(format, {{"get_weather", kParis}}))) << format;

    std::string two = render(format, {{"get_weather", kParis}, {"send_email", {{"to", "\"x@y.z\""}, {"body", "\"b\""}}}});
    std::string single = textedge::tool_call_pattern(kTools, format);
    EXPECT_FALSE(full_match(single, two)) << format;
    if (format == "harmony" || format == "gigachat3") continue;  // one call per message
    std::string parallel = textedge::tool_call_pattern(kTools, format, "", true);
    EXPECT_TRUE(full_match(parallel, two)) << format << ": " << two;
    EXPECT_TRUE(full_match(parallel, render(format, {{"get_weather", kParis}}))) << format;
  }
}

TEST(ToolCallPattern, RawStringValuesCannotCloseTheirTag) {
  std::string qwen = textedge::tool_call_pattern(kTools, "qwen3_coder", "send_email");
  auto call = [](const std::string& body) {
    return "<tool_call>\n<function=send_email>\n<parameter=to>\na@b.c\n</parameter>\n<parameter=body>\n" + body +
           "\n</parameter>\n</function>\n</tool_call>";
  };
  EXPECT_TRUE(full_match(qwen, call("line one\nline <b>two</b> < </param")));
  EXPECT_TRUE(full_match(qwen, call("ends with <")));
  EXPECT_FALSE(full_match(qwen, call("x</parameter>y")));
}

// Gemma 4 writes arguments as its template's format_argument does: nested objects with bare
// keys, sorted; arrays; strings raw between <|"|> (any text but that token).
TEST(ToolCallPattern, Gemma4WritesArgumentsAsItsTemplate) {
  const std::string tools = R"([{"type": "function", "function": {"name": "plan", "parameters": {"type": "object",
    "properties": {"trip": {"type": "object", "properties": {"to": {"type": "string"}, "From": {"type": "string"},
      "stops": {"type": "array", "items": {"type": "integer"}}}, "required": ["to"]},
      "note": {"type": "string"}, "mode": {"enum": ["car", "train", null]}, "odd:key": {"type": "boolean"}, "odd key": {"type": "null"}},
    "required": ["trip"]}}}])";
  std::string pattern = textedge::tool_call_pattern(tools, "gemma4");
  const std::string q = "<|\"|>";
  auto call = [](const std::string& args) { return "<|tool_call>call:plan{" + args + "}<tool_call|>"; };
  for (const std::string& args : std::vector<std::string>{
           "trip:{to:" + q + "Oslo" + q + "}", "trip:{From:" + q + "Bergen" + q + ",stops:[1,2],to:" + q + "Oslo" + q + "}",
        "mode:" + q + "train" + q + ",note:" + q + "a \"quoted\" <b>note</b> <|\"| {x:1}" + q + ",trip:{to:" + q + q + "}",
        "mode:null,trip:{stops:[],to:" + q + "x" + q + "}",
           "odd key:null," + q + "odd:key" + q + ":true,trip:{to:" + q + "x" + q + "}"}) {  // quoted: a name with ':' 
    EXPECT_TRUE(full_match(pattern, call(args))) << args;
    textedge::OutputParserOptions o;
    o.format = "gemma4";
    o.tools_json = tools;
    textedge::ParsedMessage m = textedge::parse_output(call(args), o);
    ASSERT_EQ(m.tool_calls.size(), 1u) << args;
    EXPECT_EQ(m.tool_calls[0].name, "plan");
  }
  for (const std::string& args : std::vector<std::string>{"trip:{}",                                      // "to" is required
                                  "trip:{to:\"Oslo\"}",                           // a JSON string
                                  "trip:{to:" + q + "Oslo" + q + "},mode:null",   // not sorted
                                  "trip: {to:" + q + "Oslo" + q + "}",            // no spaces
                                  "trip:{to:" + q + "a" + q + "b" + q + "}",      // the token ends a string
                                  "mode:" + q + "bus" + q + ",trip:{to:" + q + "x" + q + "}"})
    EXPECT_FALSE(full_match(pattern, call(args))) << args;
}

TEST(ToolCallPattern, Errors) {
  auto error_of = [](const std::string& tools, const std::string& format, const std::string& name = "") {
    try {
      textedge::tool_call_pattern(tools, format, name);
    } catch (const textedge::SchemaError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(kTools, "chatml").find("unknown tool call format \"chatml\""), std::string::npos);
  EXPECT_NE(error_of(kTools, "hermes", "nope").find("no tool named \"nope\""), std::string::npos);
  EXPECT_NE(error_of(R"([{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"not":{}}}}}}])",
                     "hermes")
                .find("$[0].function.parameters.properties.a.not: unsupported keyword \"not\""),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"type":"function","function":{"name":"f-g"}}])", "pythonic").find("Python identifier"),
            std::string::npos);
  // Argument names from "required" or allOf too, not only "properties" (found by fuzz_schema: "cit(" went
  // into the regex as written, unbalancing it).
  for (const char* parameters : {R"({"type":"object","properties":{"city":{"type":"string"}},"required":["cit("]})",
                                 R"({"type":"object","allOf":[{"properties":{"a(":{"type":"integer"}}}]})"})
    EXPECT_NE(error_of(std::string(R"([{"type":"function","function":{"name":"f","parameters":)") + parameters + "}}]",
                       "pythonic")
                  .find("Python identifiers as argument names"),
              std::string::npos)
        << parameters;
  // No parameters: an empty argument object.
  EXPECT_TRUE(full_match(textedge::tool_call_pattern(R"([{"type":"function","function":{"name":"now"}}])", "hermes"),
                         "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"));
}

}  // namespace

// The output parser (include/textedge/output_parser.hpp) reads back exactly what the forcing
// pattern accepts: the same wrapper spellings, separators and envelopes.
TEST(ToolCallPattern, TheOutputParserReadsWhatThePatternForces) {
  for (auto& format : kFormats) {
    bool parallel = format != "harmony" && format != "gigachat3";
    std::vector<std::pair<std::string, Args>> calls = {{"get_weather", kParis}};
    if (parallel) calls.push_back({"send_email", {{"to", "\"x@y.z\""}, {"body", "\"b\""}, {"urgent", "true"}}});
    std::string text = render(format, calls);
    EXPECT_TRUE(full_match(textedge::tool_call_pattern(kTools, format, "", parallel), text)) << format;
    for (bool partial : {true, false}) {
      textedge::OutputParserOptions o;
      o.format = format;
      o.tools_json = kTools;
      o.partial_calls = partial;
      textedge::ParsedMessage m = textedge::parse_output(text, o);
      EXPECT_EQ(m.content, "") << format;
      ASSERT_EQ(m.tool_calls.size(), calls.size()) << format;
      for (std::size_t i = 0; i < calls.size(); ++i) {
        EXPECT_EQ(m.tool_calls[i].name, calls[i].first) << format;
        EXPECT_EQ(canonical(m.tool_calls[i].arguments), canonical(json_object(calls[i].second)))
            << format << ": " << m.tool_calls[i].arguments;
      }
    }
  }
}
