// tojson (Python's json.dumps as transformers calls it).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "base/json_string.hpp"
#include "chat/jinja/code_points.hpp"
#include "chat/jinja/runtime.hpp"
#include "chat/jinja/template.hpp"

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

// A separator; one of at most 8 bytes is written as one 8-byte store.
struct Separator {
  std::string_view text;
  std::uint64_t padded = 0;

  explicit Separator(std::string_view t) : text(t) {
    if (t.size() <= sizeof padded) std::memcpy(&padded, t.data(), t.size());
  }
};

struct JsonWriter {
  JsonSink out;
  bool ensure_ascii;
  bool sort_keys;
  bool has_indent;
  std::string indent;
  Separator item_sep;
  Separator key_sep;
  int depth = 0;  // containers open

  void put(const Separator& s) {
    if (s.text.size() > sizeof s.padded) return out.put(s.text);
    std::memcpy(out.room(sizeof s.padded), &s.padded, sizeof s.padded);
    out.advance(s.text.size());
  }

  void newline(int level) {
    out.put('\n');
    for (int i = 0; i < level; ++i) out.put(indent);
  }

  std::string key_string(const Value& k) {
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

  // json.dumps's recursion limit: reached by the 901st nested value (scalars included).
  void check_depth() const {
    if (depth >= 900) raise("RecursionError", "maximum recursion depth exceeded while encoding a JSON object");
  }

  // A small dispatcher that jumps to the writers, so a value costs no register saves of its own.
  void write(const Value& v) {
    switch (v.type()) {
      case Type::String:
        return out.string(v.str(), ensure_ascii);
      case Type::Dict:
        return write_dict(v.dict().entries());
      case Type::List:
        return write_list(v.items());
      default:
        return write_scalar(v);
    }
  }

  [[gnu::noinline]] void write_scalar(const Value& v) {
    switch (v.type()) {
      case Type::None:
        return out.put("null");
      case Type::Bool:
        return out.put(v.as_bool() ? std::string_view("true") : std::string_view("false"));
      case Type::Int: {
        constexpr std::size_t kMaxChars = 20;  // with the sign
        char* at = out.room(kMaxChars);
        return out.advance(static_cast<std::size_t>(std::to_chars(at, at + kMaxChars, v.as_int()).ptr - at));
      }
      case Type::Float: {
        std::string s;
        json_float(s, v.as_float());
        return out.put(s);
      }
      default:
        raise("TypeError", std::string("Object of type ") + v.type_name() + " is not JSON serializable");
    }
  }

  template <class Items>
  [[gnu::noinline]] void write_list(const Items& items) {
    if (items.empty()) return out.put("[]");
    ++depth;
    out.put('[');
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) put(item_sep);
      if (has_indent) newline(depth);
      check_depth();
      write(items[i]);
    }
    --depth;
    if (has_indent) newline(depth);
    out.put(']');
  }

  [[gnu::always_inline]] void entry(const Value& k, const Value& x) {
    if (has_indent) newline(depth);
    if (k.is_string())
      out.string(k.str(), ensure_ascii);
    else
      out.string(key_string(k), ensure_ascii);
    put(key_sep);
    check_depth();
    write(x);
  }

  template <class Entries>
  [[gnu::noinline]] void write_dict(const Entries& entries) {
    if (entries.empty()) return out.put("{}");
    ++depth;
    out.put('{');
    if (sort_keys) {
      std::vector<const std::pair<Value, Value>*> order;
      for (auto& e : entries) order.push_back(&e);
      std::stable_sort(order.begin(), order.end(),
                       [](const auto* x, const auto* y) { return op_less(x->first, y->first); });
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (i) put(item_sep);
        entry(order[i]->first, order[i]->second);
      }
    } else {
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i) put(item_sep);
        entry(entries[i].first, entries[i].second);
      }
    }
    --depth;
    if (has_indent) newline(depth);
    out.put('}');
  }
};

}  // namespace

void append_json(std::string& out, const Value& v, const Value& indent, bool sort_keys, bool ensure_ascii,
                 const std::string* item_separator, const std::string* key_separator) {
  const bool has_indent = !indent.is_none() && !indent.is_undefined();
  std::string indent_text;
  if (has_indent) {
    if (indent.is_string()) {
      indent_text = indent.str();
    } else if (indent.is_integral()) {
      indent_text.assign(static_cast<std::size_t>(std::clamp<std::int64_t>(indent.as_int(), 0, 1 << 16)), ' ');
    } else {
      raise("TypeError", "indent must be an int or a string");
    }
  }
  // A tool definition is a few hundred bytes: room for it up front saves growing step by step.
  JsonWriter w{JsonSink(out, 512),
               ensure_ascii,
               sort_keys,
               has_indent,
               std::move(indent_text),
               Separator(item_separator ? std::string_view(*item_separator) : (has_indent ? "," : ", ")),
               Separator(key_separator ? std::string_view(*key_separator) : ": ")};
  w.write(v);
  w.out.finish();
}

}  // namespace textedge::detail::jinja
