// tojson (Python's json.dumps as transformers calls it).
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
        auto items = v.items();
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

}  // namespace

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

}  // namespace textedge::detail::jinja
