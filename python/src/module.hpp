// The pieces of textedge._core, one file per layer of the library.
#pragma once

#include <pybind11/pybind11.h>

namespace textedge::python {
namespace py = pybind11;
void bind_tokenizer(py::module_& m);
void bind_streaming(py::module_& m);
void bind_chat(py::module_& m);
void bind_parsers(py::module_& m);
}  // namespace textedge::python
