// Python <-> C++ at the module's edge: ids from lists or integer buffers (no copy when the
// buffer already holds contiguous uint32), Python values to JSON text, and the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "textedge/tokenizer.hpp"

namespace textedge::python {

namespace py = pybind11;

// Token ids as the caller passed them: a Python int, a sequence of ints, or a 1-D buffer of
// integers (array.array, numpy). `span` points either into `owned` or into the buffer, which
// `keep` keeps alive.
class Ids {
 public:
  explicit Ids(py::handle obj, const char* what = "ids");
  Ids(Ids&& o) noexcept
      : owned_(std::move(o.owned_)), keep_(std::move(o.keep_)), one_(o.one_),
        span_(o.span_.data() == &o.one_ ? std::span<const TokenId>(&one_, 1)
              : keep_ ? o.span_ : std::span<const TokenId>(owned_)) {}
  Ids(const Ids&) = delete;
  Ids& operator=(const Ids&) = delete;
  std::span<const TokenId> span() const { return span_; }

 private:
  // Performance note: a single id (StreamBatch.step's usual one per stream) is held inline; a
  // vector per stream per step cost ~20% of a 256-stream step.
  std::vector<TokenId> owned_;
  py::object keep_;
  TokenId one_ = 0;
  std::span<const TokenId> span_;
};

py::list to_list(std::span<const TokenId> ids);

// The UTF-8 of a str (Python caches it: no copy). Not a str: TypeError naming `what`; a str that
// has no UTF-8 (a lone surrogate): Python's UnicodeEncodeError, with its position.
std::string_view utf8_of(py::handle text, const char* what);

// JSON text of a Python value made of dicts (str keys), lists, tuples, str, int, float, bool
// and None: what the chat template and the parser read. `what` names the argument in errors.
std::string to_json(py::handle value, const char* what);
// A Python value, or JSON text given as str: the text as is.
std::string json_argument(py::handle value, const char* what);

}  // namespace textedge::python
