// textedge.decoders.DecodeStream (tokenizers' signature), TextStream (one request) and
// StreamBatch (every stream of an engine step in one call).
#include <pybind11/stl.h>

#include <optional>

#include "convert.hpp"
#include "module.hpp"
#include "textedge/detokenizer.hpp"
#include "textedge/stream.hpp"

namespace textedge::python {

namespace {

// tokenizers.decoders.DecodeStream: step() gives the new text, or None while there is none yet
// (a character still incomplete, a skipped special token). The stream binds to the tokenizer of
// its first step; it has no failure state ("Invalid prefix" in tokenizers).
class DecodeStream {
 public:
  DecodeStream(std::optional<py::object> ids, bool skip_special_tokens) : skip_(skip_special_tokens) {
    if (ids && !ids->is_none()) {
      Ids in(*ids);
      prompt_.assign(in.span().begin(), in.span().end());
    }
  }
  py::object step(const Tokenizer& tokenizer, py::handle id_or_ids) {
    if (!detokenizer_) detokenizer_.emplace(tokenizer, prompt_, DetokenizeOptions{.skip_special_tokens = skip_, .keep_special_tokens = {}, .eager_byte_runs = true});
    text_.clear();
    if (PyLong_CheckExact(id_or_ids.ptr())) {  // the per-token call: no vector
      unsigned long long v = PyLong_AsUnsignedLongLong(id_or_ids.ptr());
      if (PyErr_Occurred() || v > 0xffffffffull) {
        PyErr_Clear();
        throw py::value_error("DecodeStream.step: token id " + py::repr(id_or_ids).cast<std::string>() + " is out of range");
      }
      detokenizer_->step(static_cast<TokenId>(v), text_);
    } else {
      Ids in(id_or_ids, "DecodeStream.step");
      detokenizer_->step(in.span(), text_);
    }
    if (text_.empty()) return py::none();
    return py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(text_.data(), static_cast<Py_ssize_t>(text_.size()), "replace"));
  }

 private:
  bool skip_;
  std::vector<TokenId> prompt_;
  std::optional<Detokenizer> detokenizer_;
  std::string text_;
};

StreamOptions stream_options(const Tokenizer& t, std::optional<std::vector<std::string>> stop,
                             std::optional<std::vector<TokenId>> stop_token_ids, bool skip_special_tokens,
                             bool include_stop_str_in_output, std::size_t min_tokens, std::optional<std::size_t> max_tokens,
                             bool ignore_eos, std::optional<std::vector<TokenId>> keep_special_tokens) {
  (void)t;
  StreamOptions o;
  if (stop) o.stop = std::move(*stop);
  if (stop_token_ids) o.stop_token_ids = std::move(*stop_token_ids);
  if (keep_special_tokens) o.keep_special_tokens = std::move(*keep_special_tokens);
  o.skip_special_tokens = skip_special_tokens;
  o.include_stop_str_in_output = include_stop_str_in_output;
  o.min_tokens = min_tokens;
  o.max_tokens = max_tokens;
  o.ignore_eos = ignore_eos;
  return o;
}

PyObject* text_object(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return o;
}

// (text, finish_reason, stop_reason): finish_reason None, "stop" or "length"; stop_reason the
// stop string or stop token id that ended the stream, else None (vLLM's fields).
py::tuple delta_tuple(const StreamDelta& d) {
  PyObject* t = PyTuple_New(3);
  if (!t) throw py::error_already_set();
  PyTuple_SET_ITEM(t, 0, text_object(d.text));
  PyObject* reason = Py_None;
  if (d.finish_reason == FinishReason::kStop) {
    static PyObject* stop = PyUnicode_InternFromString("stop");
    reason = stop;
  } else if (d.finish_reason == FinishReason::kLength) {
    static PyObject* length = PyUnicode_InternFromString("length");
    reason = length;
  }
  Py_INCREF(reason);
  PyTuple_SET_ITEM(t, 1, reason);
  PyObject* why = Py_None;
  if (auto* s = std::get_if<std::string>(&d.stop_reason))
    why = text_object(*s);
  else if (auto* id = std::get_if<TokenId>(&d.stop_reason))
    why = PyLong_FromUnsignedLong(*id);
  else
    Py_INCREF(why);
  PyTuple_SET_ITEM(t, 2, why);
  return py::reinterpret_steal<py::tuple>(t);
}

struct Batch {
  Batch(Tokenizer t, std::size_t max_live_streams) : tokenizer(std::move(t)), batch(max_live_streams) {}
  Tokenizer tokenizer;
  StreamBatch batch;
};

#define TEXTEDGE_STREAM_ARGS                                                                                       \
  py::kw_only(), py::arg("stop") = py::none(), py::arg("stop_token_ids") = py::none(),                             \
      py::arg("skip_special_tokens") = true, py::arg("include_stop_str_in_output") = false, py::arg("min_tokens") = 0, \
      py::arg("max_tokens") = py::none(), py::arg("ignore_eos") = false, py::arg("keep_special_tokens") = py::none()

}  // namespace

void bind_streaming(py::module_& m) {
  py::class_<DecodeStream>(m, "DecodeStream",
                           "tokenizers.decoders.DecodeStream: step(tokenizer, id) returns the new text, or None while a "
                           "character is incomplete. `ids` primes it with the prompt.")
      .def(py::init<std::optional<py::object>, bool>(), py::arg("ids") = py::none(), py::arg("skip_special_tokens") = false)
      .def("step", &DecodeStream::step, py::arg("tokenizer"), py::arg("id"),
           "Adds one id (or a list of ids); returns the text they complete, or None.");

  py::class_<TextStream>(m, "TextStream",
                         "One request's generated ids -> text, with stop strings, stop ids and token limits.")
      .def(py::init([](const Tokenizer& t, py::handle prompt, std::optional<std::vector<std::string>> stop,
                       std::optional<std::vector<TokenId>> stop_token_ids, bool skip, bool include, std::size_t min_tokens,
                       std::optional<std::size_t> max_tokens, bool ignore_eos, std::optional<std::vector<TokenId>> keep) {
             Ids in(prompt, "prompt_ids");
             return TextStream(t, in.span(),
                               stream_options(t, std::move(stop), std::move(stop_token_ids), skip, include, min_tokens,
                                              max_tokens, ignore_eos, std::move(keep)));
           }),
           py::arg("tokenizer"), py::arg("prompt_ids") = py::list(), TEXTEDGE_STREAM_ARGS)
      .def(
          "step",
          [](TextStream& s, py::handle ids) {
            Ids in(ids);
            StreamDelta d;
            {
              py::gil_scoped_release release;
              s.step(in.span(), d);
            }
            return delta_tuple(d);
          },
          py::arg("ids"), "Adds ids; returns (text, finish_reason, stop_reason).")
      .def(
          "finish",
          [](TextStream& s) {
            StreamDelta d;
            s.finish(d);
            return delta_tuple(d);
          },
          "The engine finished: flushes what is held; returns (text, finish_reason, stop_reason).")
      .def_property_readonly("finished", &TextStream::finished)
      .def_property_readonly("generated_tokens", &TextStream::generated_tokens);

  py::class_<Batch>(m, "StreamBatch",
                          "Every stream of an engine: create() one per request, step() all of them once per engine "
                          "step in one call, release() when done.")
      .def(py::init([](const Tokenizer& t, std::size_t max_live_streams) { return std::make_unique<Batch>(t, max_live_streams); }),
           py::arg("tokenizer"), py::arg("max_live_streams") = StreamBatch::kMaxLiveStreams)
      .def(
          "create",
          [](Batch& b, py::handle prompt, std::optional<std::vector<std::string>> stop,
             std::optional<std::vector<TokenId>> stop_token_ids, bool skip, bool include, std::size_t min_tokens,
             std::optional<std::size_t> max_tokens, bool ignore_eos, std::optional<std::vector<TokenId>> keep) {
            Ids in(prompt, "prompt_ids");
            StreamOptions o = stream_options(b.tokenizer, std::move(stop), std::move(stop_token_ids), skip, include, min_tokens,
                                             max_tokens, ignore_eos, std::move(keep));
            py::gil_scoped_release release;  // priming reads a few ids only; stop strings compile here
            return b.batch.create(b.tokenizer, in.span(), std::move(o));
          },
          py::arg("prompt_ids"), TEXTEDGE_STREAM_ARGS, "A new stream; returns its handle.")
      .def("release", [](Batch& b, StreamBatch::Handle h) { b.batch.release(h); }, py::arg("handle"), "Frees a stream.")
      .def(
          "step",
          [](Batch& b, py::handle steps_arg) {
            // [(handle, ids) or (handle, ids, finish)] -> [(text, finish_reason, stop_reason)]
            py::object steps = py::reinterpret_steal<py::object>(PySequence_Fast(steps_arg.ptr(), "StreamBatch.step takes a list"));
            if (!steps) throw py::error_already_set();
            std::size_t n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(steps.ptr()));
            std::vector<Ids> ids;
            ids.reserve(n);
            std::vector<StreamBatch::Step> in(n);
            for (std::size_t i = 0; i < n; ++i) {
              py::handle item = PySequence_Fast_GET_ITEM(steps.ptr(), static_cast<Py_ssize_t>(i));
              if (!PyTuple_Check(item.ptr()) || PyTuple_GET_SIZE(item.ptr()) < 2 || PyTuple_GET_SIZE(item.ptr()) > 3)
                throw py::type_error("StreamBatch.step: item " + std::to_string(i) + " must be (handle, ids) or (handle, ids, finish)");
              unsigned long long handle = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(item.ptr(), 0));
              if (handle == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw py::error_already_set();
              in[i].stream = handle;
              ids.emplace_back(PyTuple_GET_ITEM(item.ptr(), 1), "StreamBatch.step ids");
              in[i].ids = ids.back().span();
              if (PyTuple_GET_SIZE(item.ptr()) == 3) in[i].finish = PyObject_IsTrue(PyTuple_GET_ITEM(item.ptr(), 2)) == 1;
            }
            std::vector<StreamDelta> out;
            {
              py::gil_scoped_release release;
              b.batch.step(in, out);
            }
            PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
            if (!list) throw py::error_already_set();
            py::list result = py::reinterpret_steal<py::list>(list);
            for (std::size_t i = 0; i < n; ++i) PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), delta_tuple(out[i]).release().ptr());
            return result;
          },
          py::arg("steps"), "Steps streams: a list of (handle, new_ids[, finish]); returns a list of "
                            "(text, finish_reason, stop_reason) in the same order.")
      .def("__len__", [](const Batch& b) { return b.batch.size(); });
}

}  // namespace textedge::python
