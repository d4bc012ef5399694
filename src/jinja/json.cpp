// tojson (Python's json.dumps as transformers calls it) and Values from JSON text.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "../json_string.hpp"
#include "runtime.hpp"
#include "template.hpp"
#include "unicode.hpp"

namespace textedge::detail::jinja {

namespace {

void json_float(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
  } else if (std::isinf(d)) {
    out += d < 0 ? "-Infinity" : "Infinity";
  } else {
    append_float_repr(out, d);
  }
}

struct JsonWriter {
  bool ensure_ascii;
  bool sort_keys;
  bool has_indent;
  std::string indent;
  std::string item_sep;
  std::string key_sep;
  std::string out;
  int depth = 0;

  void newline(int level) {
    out += '\n';
    for (int i = 0; i < level; ++i) out += indent;
  }

  std::string key_string(const Value& k) {
    if (k.is_string()) return std::string(k.str());
    if (k.is_bool()) return k.as_bool() ? "true" : "false";
    if (k.is_none()) return "null";
    if (k.is_int()) return std::to_string(k.as_int());
    if (k.is_float()) {
      std::string s;
      json_float(s, k.as_float());
      return s;
    }
    raise("TypeError", std::string("keys must be str, int, float, bool or None, not ") + k.type_name());
  }

  void write(const Value& v) {
    if (++depth > 900) raise("RecursionError", "maximum recursion depth exceeded while encoding a JSON object");
    switch (v.type()) {
      case Type::None:
        out += "null";
        break;
      case Type::Bool:
        out += v.as_bool() ? "true" : "false";
        break;
      case Type::Int:
        out += std::to_string(v.as_int());
        break;
      case Type::Float:
        json_float(out, v.as_float());
        break;
      case Type::String:
        append_json_string(out, v.str(), ensure_ascii);
        break;
      case Type::List: {
        auto& items = v.items();
        if (items.empty()) {
          out += "[]";
          break;
        }
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (i) out += item_sep;
          if (has_indent) newline(depth);
          write(items[i]);
        }
        if (has_indent) newline(depth - 1);
        out += ']';
        break;
      }
      case Type::Dict: {
        const auto& entries = v.dict().entries();
        if (entries.empty()) {
          out += "{}";
          break;
        }
        out += '{';
        bool first = true;
        auto entry = [&](const Value& k, const Value& x) {
          if (!first) out += item_sep;
          first = false;
          if (has_indent) newline(depth);
          if (k.is_string())
            append_json_string(out, k.str(), ensure_ascii);
          else
            append_json_string(out, key_string(k), ensure_ascii);
          out += key_sep;
          write(x);
        };
        if (sort_keys) {
          std::vector<const std::pair<Value, Value>*> order;
          for (auto& e : entries) order.push_back(&e);
          std::stable_sort(order.begin(), order.end(),
                           [](const auto* x, const auto* y) { return op_less(x->first, y->first); });
          for (const auto* e : order) entry(e->first, e->second);
        } else {
          for (auto& [k, x] : entries) entry(k, x);
        }
        if (has_indent) newline(depth - 1);
        out += '}';
        break;
      }
      default:
        raise("TypeError", std::string("Object of type ") + v.type_name() + " is not JSON serializable");
    }
    --depth;
  }
};

// With an owner, strings view the document's string buffer and containers go to the owner (the
// chat path, whose document and owner outlive the render); without, everything is owned by the
// values. Containers are built at their final size.
Value from_element(simdjson::dom::element e, BorrowedObjects* owner) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = e.get_array().value_unsafe();
      std::vector<Value> items;
      items.reserve(array.size());
      for (auto x : array) items.push_back(from_element(x, owner));
      if (!owner) return Value::list(std::move(items));
      owner->push_back(std::make_unique<ListObject>(std::move(items), false));
      return Value::borrowed(Type::List, owner->back().get());
    }
    case simdjson::dom::element_type::OBJECT: {
      simdjson::dom::object object = e.get_object().value_unsafe();
      std::vector<std::pair<Value, Value>> entries;
      entries.reserve(object.size());
      for (auto field : object)
        entries.emplace_back(owner ? Value::borrowed(field.key) : Value(field.key), from_element(field.value, owner));
      if (!owner) return Value::dict(std::move(entries));
      owner->push_back(std::make_unique<DictObject>(std::move(entries)));
      return Value::borrowed(Type::Dict, owner->back().get());
    }
    case simdjson::dom::element_type::INT64:
      return Value(e.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64:
      raise("OverflowError", "JSON integer does not fit in 64 bits");
    case simdjson::dom::element_type::DOUBLE:
      return Value(e.get_double().value_unsafe());
    case simdjson::dom::element_type::STRING:
      return owner ? Value::borrowed(e.get_string().value_unsafe()) : Value(e.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
      return Value(e.get_bool().value_unsafe());
    case simdjson::dom::element_type::NULL_VALUE:
      return Value::none();
    default:
      raise("ValueError", "unsupported JSON value");
  }
}

}  // namespace

Value value_from_json_element(simdjson::dom::element element, BorrowedObjects& owner) {
  return from_element(element, &owner);
}

std::string to_json(const Value& v, const Value& indent, bool sort_keys, bool ensure_ascii, const std::string* item_separator,
                    const std::string* key_separator) {
  JsonWriter w;
  w.out.reserve(256);  // a tool definition is a few hundred bytes; growing from empty copied it several times
  w.ensure_ascii = ensure_ascii;
  w.sort_keys = sort_keys;
  w.has_indent = !indent.is_none() && !indent.is_undefined();
  if (w.has_indent) {
    if (indent.is_string()) {
      w.indent = indent.str();
    } else if (indent.is_integral()) {
      w.indent.assign(static_cast<std::size_t>(std::clamp<std::int64_t>(indent.as_int(), 0, 1 << 16)), ' ');
    } else {
      raise("TypeError", "indent must be an int or a string");
    }
  }
  w.item_sep = item_separator ? *item_separator : (w.has_indent ? "," : ", ");
  w.key_sep = key_separator ? *key_separator : ": ";
  w.write(v);
  return std::move(w.out);
}

Value value_from_json(std::string_view json) {
  // One parser per thread: a new one allocates its buffers on every call (a third of a chat
  // render's time, by callgrind).
  thread_local simdjson::dom::parser parser;
  auto doc = parser.parse(json.data(), json.size());
  if (doc.error()) throw TemplateError("ValueError", std::string("invalid JSON: ") + simdjson::error_message(doc.error()), 0, 0);
  return from_element(doc.value_unsafe(), nullptr);
}

}  // namespace textedge::detail::jinja
