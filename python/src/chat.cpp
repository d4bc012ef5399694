// textedge.ChatTemplate: transformers' apply_chat_template on textedge's Jinja engine.
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>

#include "convert.hpp"
#include "module.hpp"
#include "textedge/chat_template.hpp"

namespace textedge::python {

namespace {

// A template and, when the model directory has one, its tokenizer (for tokenize=True).
struct Chat {
  ChatTemplate chat;
  std::optional<Tokenizer> tokenizer;
};

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
            if (!tools.is_none()) o.tools = json_argument(tools, "tools");
            if (!documents.is_none()) o.documents = json_argument(documents, "documents");
            if (template_kwargs.size() > 0) o.chat_template_kwargs = to_json(template_kwargs, "template_kwargs");
            std::string messages_json = json_argument(messages, "conversation");
            if (tokenize && !c.tokenizer) throw py::value_error("apply_chat_template: tokenize=True needs a tokenizer (from_pretrained a directory with tokenizer.json)");
            std::string prompt;
            std::vector<TokenId> ids;
            {
              py::gil_scoped_release release;
              prompt = c.chat.apply(messages_json, o);
              if (tokenize) ids = c.tokenizer->encode(prompt);  // the template wrote the special tokens: no second BOS
            }
            if (tokenize) return to_list(ids);
            return py::str(prompt);
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
