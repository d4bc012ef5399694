// textedge._core: the C++ library for Python (python/textedge/__init__.py re-exports it).
// Errors arrive as Python exceptions named after textedge's (ValueError subclasses), with the
// same messages; every call that does real work releases the GIL.
#include "module.hpp"

#include "textedge/error.hpp"
#include "textedge/version.hpp"

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  m.doc() = "textedge: tokenizer, streaming detokenizer, chat templates and output parsing for LLM serving.";
  m.attr("__version__") = TEXTEDGE_VERSION_STRING;
  // Registered base first: pybind11 tries translators from the last registered.
  static py::exception<textedge::Error> error(m, "Error", PyExc_ValueError);
  static py::exception<textedge::LoadError> load_error(m, "LoadError", error.ptr());
  static py::exception<textedge::InputError> input_error(m, "InputError", error.ptr());
  static py::exception<textedge::SchemaError> schema_error(m, "SchemaError", error.ptr());
  static py::exception<textedge::TemplateError> template_error(m, "TemplateError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const textedge::LoadError& e) {
      load_error(e.what());
    } catch (const textedge::InputError& e) {
      input_error(e.what());
    } catch (const textedge::SchemaError& e) {
      schema_error(e.what());
    } catch (const textedge::TemplateError& e) {
      template_error(e.what());
    } catch (const textedge::Error& e) {
      error(e.what());
    }
  });
  textedge::python::bind_tokenizer(m);
  textedge::python::bind_streaming(m);
  textedge::python::bind_chat(m);
  textedge::python::bind_parsers(m);
}
