#include "convert.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include "base/json_string.hpp"

namespace textedge::python {

namespace {

TokenId one_id(PyObject* o, const char* what) {
  if (!PyLong_Check(o) || PyBool_Check(o))
    throw py::type_error(std::string(what) + ": token ids are ints, not " + Py_TYPE(o)->tp_name);
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || v < 0 || v > static_cast<long long>(std::numeric_limits<TokenId>::max()))
    throw py::value_error(std::string(what) + ": token id " + py::repr(o).cast<std::string>() + " is out of range");
  return static_cast<TokenId>(v);
}

template <class T>
void copy_buffer(const py::buffer_info& b, std::vector<TokenId>& out, const char* what) {
  out.resize(static_cast<std::size_t>(b.shape[0]));
  const char* p = static_cast<const char*>(b.ptr);
  for (std::size_t i = 0; i < out.size(); ++i) {
    T v = *reinterpret_cast<const T*>(p + static_cast<py::ssize_t>(i) * b.strides[0]);
    if (v < 0 || static_cast<unsigned long long>(v) > std::numeric_limits<TokenId>::max())
      throw py::value_error(std::string(what) + ": token id " + std::to_string(v) + " at index " + std::to_string(i) +
                            " is out of range");
    out[i] = static_cast<TokenId>(v);
  }
}

}  // namespace

Ids::Ids(py::handle obj, const char* what) {
  PyObject* o = obj.ptr();
  if (PyLong_Check(o)) {
    one_ = one_id(o, what);
    span_ = {&one_, 1};
    return;
  } else if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject** items = PySequence_Fast_ITEMS(o);
    owned_.resize(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) owned_[static_cast<std::size_t>(i)] = one_id(items[i], what);
  } else if (PyObject_CheckBuffer(o)) {
    py::buffer buffer = py::reinterpret_borrow<py::buffer>(obj);
    py::buffer_info b = buffer.request();
    if (b.ndim != 1) throw py::value_error(std::string(what) + ": a buffer of ids must be 1-dimensional");
    const std::string& f = b.format;
    char code = f.empty() ? '?' : f.back();  // "<I", "=I", "I"
    bool contiguous = b.strides[0] == b.itemsize;
    if ((code == 'I' || code == 'L') && b.itemsize == 4 && contiguous) {  // as is: no copy
      keep_ = py::reinterpret_borrow<py::object>(obj);
      span_ = {static_cast<const TokenId*>(b.ptr), static_cast<std::size_t>(b.shape[0])};
      return;
    }
    switch (b.itemsize) {
      case 1: code == 'B' ? copy_buffer<std::uint8_t>(b, owned_, what) : copy_buffer<std::int8_t>(b, owned_, what); break;
      case 2: (code == 'H') ? copy_buffer<std::uint16_t>(b, owned_, what) : copy_buffer<std::int16_t>(b, owned_, what); break;
      case 4: (code == 'I' || code == 'L') ? copy_buffer<std::uint32_t>(b, owned_, what) : copy_buffer<std::int32_t>(b, owned_, what); break;
      case 8: (code == 'Q' || code == 'L') ? copy_buffer<std::uint64_t>(b, owned_, what) : copy_buffer<std::int64_t>(b, owned_, what); break;
      default: throw py::type_error(std::string(what) + ": a buffer of ids holds integers, not format \"" + f + "\"");
    }
    if (code != 'b' && code != 'B' && code != 'h' && code != 'H' && code != 'i' && code != 'I' && code != 'l' &&
        code != 'L' && code != 'q' && code != 'Q' && code != 'n' && code != 'N')
      throw py::type_error(std::string(what) + ": a buffer of ids holds integers, not format \"" + f + "\"");
  } else {
    py::object seq = py::reinterpret_steal<py::object>(PySequence_Fast(o, what));
    if (!seq) throw py::error_already_set();
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
    PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
    owned_.resize(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) owned_[static_cast<std::size_t>(i)] = one_id(items[i], what);
  }
  span_ = owned_;
}

std::string_view utf8_of(py::handle text, const char* what) {
  if (!PyUnicode_Check(text.ptr()))
    throw py::type_error(std::string(what) + " must be str, not " + Py_TYPE(text.ptr())->tp_name);
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(text.ptr(), &n);
  if (!p) throw py::error_already_set();
  return {p, static_cast<std::size_t>(n)};
}

py::list to_list(std::span<const TokenId> ids) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(ids.size()));
  if (!list) throw py::error_already_set();
  for (std::size_t i = 0; i < ids.size(); ++i) PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), PyLong_FromUnsignedLong(ids[i]));
  return py::reinterpret_steal<py::list>(list);
}

namespace {

struct PathWanted {};  // write_json<false> met a bad value: write again with the path

void append_str_raw(std::string& out, PyObject* s) {
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s, &n);
  if (!p) throw py::error_already_set();
  out.append(p, static_cast<std::size_t>(n));
}

void append_str(std::string& out, PyObject* s) {
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s, &n);
  if (!p) throw py::error_already_set();
  detail::append_json_string(out, std::string_view(p, static_cast<std::size_t>(n)));
}

void append_int(std::string& out, PyObject* o) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (!overflow && !(v == -1 && PyErr_Occurred())) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return;
  }
  PyErr_Clear();
  py::str s = py::reinterpret_steal<py::str>(PyLong_Type.tp_repr(o));  // beyond 64 bits (an IntEnum as its number)
  if (!s) throw py::error_already_set();
  append_str_raw(out, s.ptr());
}

// Writes `o` as JSON. The path of a bad value is only wanted in the error: the first pass keeps
// none (its appends were a third of apply_chat_template's conversion), and when it fails
// to_json writes again with kPath to name where (errors are rare; the result is the same).
template <bool kPath>
void write_json(std::string& out, PyObject* o, std::string& path, int depth) {
  auto fail = [&](auto&& error) {
    if constexpr (kPath) throw error;
    throw PathWanted{};
  };
  if (depth > 256) fail(py::value_error(path + ": nested too deeply"));
  if (o == Py_None) {
    out += "null";
  } else if (o == Py_True) {
    out += "true";
  } else if (o == Py_False) {
    out += "false";
  } else if (PyUnicode_Check(o)) {
    append_str(out, o);
  } else if (PyLong_Check(o)) {
    append_int(out, o);
  } else if (PyFloat_Check(o)) {
    double d = PyFloat_AS_DOUBLE(o);
    if (!std::isfinite(d)) fail(py::value_error(path + ": " + py::repr(o).cast<std::string>() + " is not JSON"));
    // json.dumps writes float.__repr__.
    char* repr = PyOS_double_to_string(d, 'r', 0, Py_DTSF_ADD_DOT_0, nullptr);
    if (!repr) throw py::error_already_set();
    out += repr;
    PyMem_Free(repr);
  } else if (PyDict_Check(o)) {
    out += '{';
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    bool first = true;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) fail(py::type_error(path + ": dict keys must be str, not " + Py_TYPE(key)->tp_name));
      if (!first) out += ',';
      first = false;
      append_str(out, key);
      out += ':';
      std::size_t at = path.size();
      if constexpr (kPath) {
        path += '.';
        path += PyUnicode_AsUTF8(key);
      }
      write_json<kPath>(out, value, path, depth + 1);
      path.resize(at);
    }
    out += '}';
  } else if (PyList_Check(o) || PyTuple_Check(o)) {
    out += '[';
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject** items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (i) out += ',';
      std::size_t at = path.size();
      if constexpr (kPath) path += '[' + std::to_string(i) + ']';
      write_json<kPath>(out, items[i], path, depth + 1);
      path.resize(at);
    }
    out += ']';
  } else {
    fail(py::type_error(path + ": " + Py_TYPE(o)->tp_name + " is not JSON data (dict, list, str, int, float, bool, None)"));
  }
}

}  // namespace

std::string to_json(py::handle value, const char* what) {
  std::string out, path;
  try {
    write_json<false>(out, value.ptr(), path, 0);
  } catch (const PathWanted&) {
    out.clear();
    path = what;
    write_json<true>(out, value.ptr(), path, 0);  // throws, naming the path
  }
  return out;
}

std::string json_argument(py::handle value, const char* what) {
  if (PyUnicode_Check(value.ptr())) return std::string(utf8_of(value, what));
  return to_json(value, what);
}

}  // namespace textedge::python
