// textedge.Tokenizer and Encoding: the signatures and defaults of Hugging Face tokenizers'
// Python Tokenizer (add_special_tokens=True to encode, skip_special_tokens=True to decode).
#include <pybind11/stl.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include "convert.hpp"
#include "tokenizer/tokenizer_impl.hpp"
#include "module.hpp"

namespace textedge::python {

namespace {

// HF's Encoding, for what engines read of it: ids, tokens, attention_mask, type_ids, len().
struct Encoding {
  Tokenizer tokenizer;
  std::vector<TokenId> ids;
};

py::list tokens_of(const Tokenizer& t, std::span<const TokenId> ids) {
  py::list out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto s = t.id_to_token(ids[i]);
    out[i] = s ? py::str(*s) : py::str("");
  }
  return out;
}

// A PromptCache with a lock: the C++ cache belongs to one thread at a time, and the GIL is
// released while it works.
struct LockedPromptCache {
  PromptCache cache;
  std::mutex mutex;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, "", "cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

void bind_tokenizer(py::module_& m) {
  py::class_<Encoding>(m, "Encoding", "The result of Tokenizer.encode (the part of tokenizers' Encoding engines read).")
      .def_property_readonly("ids", [](const Encoding& e) { return to_list(e.ids); }, "The token ids.")
      .def_property_readonly("tokens", [](const Encoding& e) { return tokens_of(e.tokenizer, e.ids); },
                             "The tokens as vocabulary strings.")
      .def_property_readonly("attention_mask", [](const Encoding& e) { return py::list(py::cast(std::vector<int>(e.ids.size(), 1))); },
                             "1 for every token.")
      .def_property_readonly("type_ids", [](const Encoding& e) { return py::list(py::cast(std::vector<int>(e.ids.size(), 0))); },
                             "0 for every token (one sequence).")
      .def("__len__", [](const Encoding& e) { return e.ids.size(); })
      .def("__repr__", [](const Encoding& e) { return "Encoding(num_tokens=" + std::to_string(e.ids.size()) + ")"; });

  py::class_<SpecialToken>(m, "AddedToken", "An added token: its content and whether it is special.")
      .def_readonly("content", &SpecialToken::content)
      .def_readonly("special", &SpecialToken::special)
      .def("__str__", [](const SpecialToken& t) { return t.content; })
      .def("__repr__", [](const SpecialToken& t) {
        return "AddedToken(" + py::repr(py::str(t.content)).cast<std::string>() + ", special=" + (t.special ? "True" : "False") + ")";
      });

  py::class_<LockedPromptCache>(m, "PromptCache",
                                "One conversation's last prompt and its ids, so that Tokenizer.encode_cached re-encodes "
                                "only what the next prompt adds (docs/prompt_cache.md). Calls on one cache take turns.")
      .def(py::init<>())
      .def("clear", [](LockedPromptCache& c) {
            std::lock_guard<std::mutex> lock(c.mutex);
            c.cache.clear();
          }, "Forgets the cached prompt.")
      .def_property_readonly("text", [](LockedPromptCache& c) {
            std::lock_guard<std::mutex> lock(c.mutex);
            return py::str(std::string(c.cache.text()));
          }, "The prompt the cache holds.")
      .def_property_readonly("reused_bytes", [](LockedPromptCache& c) {
            std::lock_guard<std::mutex> lock(c.mutex);
            return c.cache.reused_bytes();
          }, "Of the last encode_cached: UTF-8 bytes of the prompt whose ids came from the cache.")
      .def_property_readonly("encoded_bytes", [](LockedPromptCache& c) {
            std::lock_guard<std::mutex> lock(c.mutex);
            return c.cache.encoded_bytes();
          }, "Of the last encode_cached: UTF-8 bytes of the prompt encoded.");

  py::class_<Tokenizer>(m, "Tokenizer",
                        "A tokenizer.json tokenizer, id-exact with Hugging Face tokenizers. Immutable; safe to use from "
                        "many threads (the GIL is released while it works).")
      .def_static("from_file", [](const std::string& path) { return Tokenizer::from_json(read_file(path), path); },
                  py::arg("path"), py::call_guard<py::gil_scoped_release>(), "Loads a tokenizer.json file.")
      .def_static("from_pretrained", &Tokenizer::load, py::arg("model_dir"), py::call_guard<py::gil_scoped_release>(),
                  "Loads a model directory (tokenizer.json, and tokenizer_config.json for its special tokens). No "
                  "download: the directory must be local.")
      .def_static("from_str", [](std::string_view json) { return Tokenizer::from_json(json, "<str>"); }, py::arg("json"),
                  py::call_guard<py::gil_scoped_release>(), "Builds from tokenizer.json text.")
      .def(
          "encode",
          [](const Tokenizer& t, py::handle sequence, bool add_special_tokens) {
            std::string_view text = utf8_of(sequence, "encode: sequence");
            std::vector<TokenId> ids;
            {
              py::gil_scoped_release release;
              ids = t.encode(text, {.add_special_tokens = add_special_tokens});
            }
            return Encoding{t, std::move(ids)};
          },
          py::arg("sequence"), py::arg("add_special_tokens") = true, "Encodes one text.")
      .def(
          "encode_cached",
          [](const Tokenizer& t, py::handle sequence, LockedPromptCache& cache, bool add_special_tokens) {
            std::string_view text = utf8_of(sequence, "encode_cached: sequence");
            std::vector<TokenId> ids;
            {
              py::gil_scoped_release release;
              std::lock_guard<std::mutex> lock(cache.mutex);
              ids = t.encode_cached(text, cache.cache, {.add_special_tokens = add_special_tokens});
            }
            return Encoding{t, std::move(ids)};
          },
          py::arg("sequence"), py::arg("cache"), py::arg("add_special_tokens") = true,
          "encode(sequence), reusing the ids of the cache's prompt up to where the two texts can no longer differ "
          "in ids (the last shared added token that the texts agree on far enough beyond); the cache then holds "
          "this prompt. Always encode's ids.")
      .def(
          "encode_batch",
          [](const Tokenizer& t, std::vector<std::string> texts, bool add_special_tokens) {
            std::vector<std::vector<TokenId>> ids;
            {
              py::gil_scoped_release release;
              ids = t.encode_batch(texts, {.add_special_tokens = add_special_tokens});
            }
            py::list out(ids.size());
            for (std::size_t i = 0; i < ids.size(); ++i) out[i] = py::cast(Encoding{t, std::move(ids[i])});
            return out;
          },
          py::arg("input"), py::arg("add_special_tokens") = true, "Encodes many texts on textedge's thread pool; order is kept.")
      .def(
          "decode",
          [](const Tokenizer& t, py::handle ids, bool skip_special_tokens) {
            Ids in(ids);
            std::string text;
            {
              py::gil_scoped_release release;
              text = t.decode(in.span(), {.skip_special_tokens = skip_special_tokens});
            }
            return py::str(text);
          },
          py::arg("ids"), py::arg("skip_special_tokens") = true, "Decodes ids (a list or an integer buffer) to text.")
      .def(
          "decode_batch",
          [](const Tokenizer& t, py::sequence sequences, bool skip_special_tokens) {
            std::vector<Ids> all;
            all.reserve(sequences.size());
            for (auto s : sequences) all.emplace_back(s);
            std::vector<std::string> texts(all.size());
            {
              py::gil_scoped_release release;
              for (std::size_t i = 0; i < all.size(); ++i)
                texts[i] = t.decode(all[i].span(), {.skip_special_tokens = skip_special_tokens});
            }
            py::list out(texts.size());
            for (std::size_t i = 0; i < texts.size(); ++i) out[i] = py::str(texts[i]);
            return out;
          },
          py::arg("sequences"), py::arg("skip_special_tokens") = true, "Decodes several id sequences.")
      .def(
          "get_vocab",
          [](const Tokenizer& t, bool with_added_tokens) {
            // As tokenizers: the model's vocabulary, then the added tokens over it.
            py::dict vocab;
            for (TokenId id = 0; id < t.vocab_size(); ++id)
              if (auto s = t.impl()->model.token(id)) vocab[py::str(s->data(), s->size())] = id;
            if (with_added_tokens)
              for (auto& a : t.info().added_tokens) vocab[py::str(a.content)] = a.id;
            return vocab;
          },
          py::arg("with_added_tokens") = true, "Token string -> id.")
      .def(
          "get_vocab_size",
          [](const Tokenizer& t, bool with_added_tokens) {
            if (with_added_tokens) return t.vocab_size();
            std::size_t n = 0;
            for (TokenId id = 0; id < t.vocab_size(); ++id) n += t.impl()->model.token(id).has_value();
            return n;
          },
          py::arg("with_added_tokens") = true, "The vocabulary size (with the added tokens by default).")
      .def("id_to_token", &Tokenizer::id_to_token, py::arg("id"), "The vocabulary string of an id, or None.")
      .def("token_to_id", &Tokenizer::token_to_id, py::arg("token"), "The id of a vocabulary string, or None.")
      .def(
          "get_added_tokens_decoder",
          [](const Tokenizer& t) {
            py::dict out;
            for (auto& a : t.info().added_tokens) out[py::int_(a.id)] = py::cast(a);
            return out;
          },
          "Id -> AddedToken for every added token.")
      .def("is_special", &Tokenizer::is_special, py::arg("id"), "Whether an id is a special token.")
      .def_property_readonly(
          "special_tokens_map",
          [](const Tokenizer& t) {
            TokenizerInfo info = t.info();
            py::dict out;
            for (auto [key, value] : {std::pair{"bos_token", &info.bos_token}, {"eos_token", &info.eos_token},
                                      {"unk_token", &info.unk_token}, {"pad_token", &info.pad_token}})
              if (*value) out[key] = **value;
            return out;
          },
          "bos_token, eos_token, unk_token and pad_token from tokenizer_config.json (those it sets).")
      .def("__repr__", [](const Tokenizer& t) {
        return "Tokenizer(vocab_size=" + std::to_string(t.vocab_size()) + ", model=" + t.info().model_type + ")";
      });
}

}  // namespace textedge::python
