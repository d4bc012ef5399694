// textedge.OutputParser, schema_to_regex, tool_call_regex: model text -> OpenAI deltas, and the
// regexes that force valid output.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "module.hpp"
#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"

namespace textedge::python {

namespace {

// One OpenAI delta as a dict, as a client reads it from a chunk's choices[0].delta.
py::dict delta_dict(const ChatDelta& d) {
  py::dict out;
  if (d.kind == ChatDelta::Kind::content) {
    out["content"] = py::str(d.text);
  } else if (d.kind == ChatDelta::Kind::reasoning) {
    out["reasoning_content"] = py::str(d.text);
  } else {
    py::dict call, function;
    call["index"] = d.index;
    if (!d.id.empty()) {
      call["id"] = d.id;
      call["type"] = "function";
    }
    if (!d.name.empty()) function["name"] = d.name;
    function["arguments"] = py::str(d.text);
    call["function"] = function;
    py::list calls;
    calls.append(call);
    out["tool_calls"] = calls;
  }
  return out;
}

py::list delta_list(const std::vector<ChatDelta>& deltas) {
  py::list out;
  for (auto& d : deltas) out.append(delta_dict(d));
  return out;
}

}  // namespace

void bind_parsers(py::module_& m) {
  py::class_<OutputParser>(m, "OutputParser",
                           "Streamed model text -> OpenAI deltas (reasoning_content, content, tool_calls). The result "
                           "does not depend on how the text is split into feed() calls.")
      .def(py::init([](const std::string& format, std::optional<std::string> reasoning, py::handle tools,
                       bool starts_in_reasoning, bool partial_calls) {
             OutputParserOptions o;
             o.format = format;
             o.reasoning = reasoning.value_or("none");
             if (!tools.is_none()) o.tools_json = json_argument(tools, "tools");
             o.starts_in_reasoning = starts_in_reasoning;
             o.partial_calls = partial_calls;
             return std::make_unique<OutputParser>(o);
           }),
           py::arg("format") = "none", py::arg("reasoning") = py::none(), py::arg("tools") = py::none(),
           py::arg("starts_in_reasoning") = false, py::arg("partial_calls") = true,
           "format: a tool call format of list_formats() (\"none\": no calls); reasoning: a reasoning format or None; "
           "tools: the request's OpenAI tools (types XML-style parameter values).")
      .def(
          "feed",
          [](OutputParser& p, py::handle text) {
            std::string_view delta = utf8_of(text, "feed: delta");
            std::vector<ChatDelta> out;
            {
              py::gil_scoped_release release;
              p.feed(delta, out);
            }
            return delta_list(out);
          },
          py::arg("delta"), "Adds text; returns the OpenAI delta dicts it makes final.")
      .def(
          "finish",
          [](OutputParser& p) {
            std::vector<ChatDelta> out;
            p.finish(out);
            return delta_list(out);
          },
          "The output ended: returns the deltas of what was held back.")
      .def_property_readonly("made_calls", &OutputParser::made_calls, "A call completed (finish_reason \"tool_calls\").");

  m.def("list_formats", &list_formats, "The tool call formats.");
  m.def("list_reasoning_formats", &list_reasoning_formats, "The reasoning formats.");
  m.def(
      "detect_format",
      [](std::string_view source) {
        DetectedFormat d = detect_format(source);
        return py::make_tuple(d.format, d.reasoning, d.starts_in_reasoning);
      },
      py::arg("chat_template"), "(tool call format, reasoning format, starts_in_reasoning) that a chat template shows.");
  m.def(
      "schema_to_regex",
      [](py::handle schema) {
        std::string json = json_argument(schema, "schema");
        py::gil_scoped_release release;
        return json_schema_regex(json);
      },
      py::arg("schema"), "The regex whose matches are exactly the JSON texts valid under a JSON Schema (dict or JSON text).");
  m.def(
      "tool_call_regex",
      [](py::handle tools, const std::string& format, std::optional<std::string> name, bool parallel) {
        std::string json = json_argument(tools, "tools");
        py::gil_scoped_release release;
        return tool_call_pattern(json, format, name.value_or(""), parallel);
      },
      py::arg("tools"), py::arg("format"), py::arg("name") = py::none(), py::arg("parallel") = false,
      "The regex that forces a tool call in a format's syntax (one of the tools, or the one named).");
}

}  // namespace textedge::python
