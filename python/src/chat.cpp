// textedge.ChatTemplate: transformers' apply_chat_template on textedge's Jinja engine.
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>

#include "chat/chat_values.hpp"
#include "convert.hpp"
#include "module.hpp"
#include "textedge/chat_template.hpp"

namespace textedge::python {

namespace {

namespace jinja = detail::jinja;

// A template and, when the model directory has one, its tokenizer (for tokenize=True).
struct Chat {
  ChatTemplate chat;
  std::optional<Tokenizer> tokenizer;
};

// Python values straight into the template's values, as Jinja2 sees them under transformers
// (a tuple stays a tuple), with every string copied into the arena: the render runs without the
// GIL, when another thread may change the caller's objects. False for what this does not take
// (an int beyond 64 bits, a float that is not finite, a key that is not str, other types, deep
// nesting): the caller then goes through JSON text, which reads the same or names the bad value.
//
// Performance note: writing the request as JSON text and reading it back cost ~2 us of the
// 8.7 us Python render of bench/python_bench.py's request (C++ from JSON text: 5.1 us).
bool to_template_value(PyObject* o, jinja::ValueArena& arena, jinja::Value& out, int depth) {
  if (depth > 256) return false;
  auto string_of = [&](PyObject* s, jinja::Value& v) {
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(s, &n);
    if (!p) throw py::error_already_set();  // a lone surrogate: UnicodeEncodeError
    if (static_cast<std::size_t>(n) > UINT32_MAX) return false;
    char* copy = static_cast<char*>(arena.allocate(static_cast<std::size_t>(n)));
    std::memcpy(copy, p, static_cast<std::size_t>(n));
    v = jinja::Value::borrowed(std::string_view(copy, static_cast<std::size_t>(n)));
    return true;
  };
  if (o == Py_None) {
    out = jinja::Value::none();
  } else if (o == Py_True || o == Py_False) {
    out = jinja::Value(o == Py_True);
  } else if (PyUnicode_Check(o)) {
    return string_of(o, out);
  } else if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    out = jinja::Value(static_cast<std::int64_t>(v));
  } else if (PyFloat_Check(o)) {
    double d = PyFloat_AS_DOUBLE(o);
    if (!std::isfinite(d)) return false;
    out = jinja::Value(d);
  } else if (PyDict_Check(o)) {
    using Entry = jinja::DictObject::Entry;
    auto n = static_cast<std::size_t>(PyDict_GET_SIZE(o));
    static_assert(sizeof(jinja::DictObject) % alignof(Entry) == 0);
    void* place = arena.allocate(sizeof(jinja::DictObject) + n * sizeof(Entry));
    Entry* entries = reinterpret_cast<Entry*>(static_cast<char*>(place) + sizeof(jinja::DictObject));
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    std::size_t i = 0;
    for (; i < n && PyDict_Next(o, &pos, &key, &value); ++i) {
      Entry* e = ::new (entries + i) Entry();
      if (!PyUnicode_Check(key) || !string_of(key, e->first) || !to_template_value(value, arena, e->second, depth + 1))
        return false;  // arena values are uncounted: nothing to release
    }
    if (i != n) return false;  // changed size while read
    // Python's str keys are distinct, and so is their UTF-8.
    out = jinja::Value::borrowed(jinja::Type::Dict,
                                 ::new (place) jinja::DictObject(std::span<Entry>(entries, n), arena, true));
  } else if (PyList_Check(o) || PyTuple_Check(o)) {
    auto n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(o));
    PyObject** items = PySequence_Fast_ITEMS(o);
    static_assert(sizeof(jinja::ListObject) % alignof(jinja::Value) == 0);
    void* place = arena.allocate(sizeof(jinja::ListObject) + n * sizeof(jinja::Value));
    auto* values = reinterpret_cast<jinja::Value*>(static_cast<char*>(place) + sizeof(jinja::ListObject));
    for (std::size_t i = 0; i < n; ++i)
      if (!to_template_value(items[i], arena, *::new (values + i) jinja::Value(), depth + 1)) return false;
    out = jinja::Value::borrowed(jinja::Type::List, ::new (place) jinja::ListObject(
                                                        std::span<const jinja::Value>(values, n), PyTuple_Check(o)));
  } else {
    return false;
  }
  return true;
}

}  // namespace

void bind_chat(py::module_& m) {
  py::class_<Chat>(m, "ChatTemplate",
                   "A compiled chat template: apply_chat_template renders exactly as transformers does. Immutable; "
                   "safe to render from many threads.")
      .def_static(
          "from_pretrained",
          [](const std::string& model_dir) {
            py::gil_scoped_release release;
            Chat c{ChatTemplate::load(model_dir), std::nullopt};
            if (std::filesystem::exists(std::filesystem::path(model_dir) / "tokenizer.json")) c.tokenizer = Tokenizer::load(model_dir);
            return c;
          },
          py::arg("model_dir"),
          "From a model directory: chat_template.jinja or tokenizer_config.json's chat_template (else textedge's "
          "default), with the special tokens of tokenizer_config.json and, when present, tokenizer.json for tokenize=True.")
      .def_static(
          "from_string",
          [](std::string_view source, std::optional<std::map<std::string, std::string>> special_tokens,
             std::optional<Tokenizer> tokenizer) {
            ChatSpecialTokens tokens;
            if (special_tokens) tokens.tokens = *special_tokens;
            return Chat{ChatTemplate::from_string(source, tokens), std::move(tokenizer)};
          },
          py::arg("source"), py::arg("special_tokens") = py::none(), py::arg("tokenizer") = py::none(),
          "From template source; special_tokens maps bos_token, eos_token, ... to their text.")
      .def(
          "apply_chat_template",
          [](const Chat& c, py::handle messages, py::handle tools, py::handle documents, bool add_generation_prompt,
             bool continue_final_message, bool tokenize, py::kwargs template_kwargs) -> py::object {
            ChatOptions o;
            o.add_generation_prompt = add_generation_prompt;
            o.continue_final_message = continue_final_message;
            if (tokenize && !c.tokenizer) throw py::value_error("apply_chat_template: tokenize=True needs a tokenizer (from_pretrained a directory with tokenizer.json)");
            auto finish = [&](auto&& render) -> py::object {
              std::string prompt;
              std::vector<TokenId> ids;
              {
                py::gil_scoped_release release;
                prompt = render();
                if (tokenize) ids = c.tokenizer->encode(prompt);  // the template wrote the special tokens: no second BOS
              }
              if (tokenize) return to_list(ids);
              return py::str(prompt);
            };
            // JSON text given as str goes the JSON way; so does what the direct reading refuses.
            detail::ChatValues values;
            auto read = [&](py::handle h, jinja::Value& v) {
              return !PyUnicode_Check(h.ptr()) && to_template_value(h.ptr(), values.arena, v, 0);
            };
            if (!messages.is_none() && read(messages, values.messages) && (tools.is_none() || read(tools, values.tools)) &&
                (documents.is_none() || read(documents, values.documents)) &&
                (template_kwargs.size() == 0 || read(template_kwargs, values.chat_template_kwargs)))
              return finish([&] { return detail::apply_values(c.chat, values, o); });
            if (!tools.is_none()) o.tools = json_argument(tools, "tools");
            if (!documents.is_none()) o.documents = json_argument(documents, "documents");
            if (template_kwargs.size() > 0) o.chat_template_kwargs = to_json(template_kwargs, "template_kwargs");
            std::string messages_json = json_argument(messages, "conversation");
            return finish([&] { return c.chat.apply(messages_json, o); });
          },
          py::arg("conversation"), py::arg("tools") = py::none(), py::arg("documents") = py::none(),
          py::arg("add_generation_prompt") = false, py::arg("continue_final_message") = false, py::arg("tokenize") = false,
          "Renders messages (a list of dicts, or their JSON text) into the prompt, or its ids with tokenize=True. "
          "Other keyword arguments are template variables (e.g. enable_thinking=False), as in transformers.")
      .def_property_readonly(
          "special_tokens", [](const Chat& c) { return c.chat.special_tokens().tokens; },
          "The special tokens the template sees (bos_token, eos_token, ... from tokenizer_config.json).")
      .def_property_readonly(
          "additional_special_tokens", [](const Chat& c) { return c.chat.special_tokens().additional_special_tokens; },
          "tokenizer_config.json's additional_special_tokens.")
      .def_property_readonly("source", [](const Chat& c) { return c.chat.source(); }, "The template's source.")
      .def_property_readonly("extra_variables", [](const Chat& c) { return c.chat.extra_variables(); },
                             "Top-level variables the template reads that apply_chat_template never sets.");
}

}  // namespace textedge::python
