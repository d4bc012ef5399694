// What filters, tests, methods and globals need from the renderer, plus Python operators.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/small_vector.hpp"
#include "chat/jinja/value.hpp"
#include "textedge/error.hpp"

namespace textedge::detail::jinja {

// Throws a TemplateError without a location; the renderer adds the current line and column.
[[noreturn]] void raise(const char* kind, const std::string& message);

// The name a filter, test or method is called by, as their dispatch chains compare it with each
// name they know: inline, where string_view's == called memcmp whenever the lengths were equal.
struct CalledName {
  std::string_view text;
  template <std::size_t N>
  bool operator==(const char (&known)[N]) const noexcept {
    return same_text(text, std::string_view(known, N - 1));
  }
  operator std::string_view() const noexcept { return text; }
};

// Call arguments after evaluation.
struct Args {
  SmallVector<Value, 4> pos;
  std::vector<std::pair<std::string, Value>> kw;

  // Binds positional and keyword arguments to `names` (Python-style); unknown keywords or too many
  // positionals raise TypeError. `out` gets one pointer per name (nullptr when not given).
  void bind(std::string_view function, std::initializer_list<const char*> names, const Value** out) const {
    std::size_t n = names.size();
    if (!kw.empty() || pos.size() > n) return bind_keywords(function, names, out);
    for (std::size_t i = 0; i < n; ++i) out[i] = i < pos.size() ? &pos[i] : nullptr;
  }
  bool empty() const { return pos.empty() && kw.empty(); }

 private:
  // bind() with keywords or too many positionals.
  void bind_keywords(std::string_view function, std::initializer_list<const char*> names, const Value** out) const;
};

class Renderer;

// items[i] with Python's negative indexes; nullptr when out of range.
inline const Value* item_at(std::span<const Value> items, std::int64_t i) {
  auto n = static_cast<std::int64_t>(items.size());
  if (i < 0) i += n;
  return i >= 0 && i < n ? &items[static_cast<std::size_t>(i)] : nullptr;
}

// Jinja2's environment.getattr / getitem in the immutable sandbox.
Value get_attribute(const Value& obj, std::string_view attr);
Value get_item(const Value& obj, const Value& key);

// Python operators.
Value op_add(const Value& a, const Value& b);
Value op_sub(const Value& a, const Value& b);
Value op_mul(const Value& a, const Value& b);
Value op_div(const Value& a, const Value& b);
Value op_floordiv(const Value& a, const Value& b);
Value op_mod(const Value& a, const Value& b);
Value op_pow(const Value& a, const Value& b);
Value op_neg(const Value& a);
Value op_pos(const Value& a);
// Python <, for comparisons and sorting; raises TypeError for unorderable types.
bool op_less(const Value& a, const Value& b);
bool op_contains(const Value& container, const Value& item);  // item in container
// Slicing with Python semantics (lists, tuples, strings).
Value op_slice(const Value& obj, const Value& start, const Value& stop, const Value& step);
// str % args
Value string_format_percent(const std::string& format, const Value& args);

// The items a for loop, list() or a filter iterates: list items, dict keys, string characters.
// Undefined iterates as empty; other types raise TypeError.
std::vector<Value> iterate(const Value& v);
// Strings built by filters and methods stop at this size with MemoryError (Python would build
// them; a render has a step budget, not a memory one, so each builder checks as it grows).
inline constexpr std::size_t kMaxBuiltString = std::size_t{1} << 28;
void check_built(std::size_t size);
// Python str.format.
std::string python_format(const std::string& format, const Args& args);

// Filters, tests and methods (filters.cpp, tests.cpp, methods.cpp, builtins.cpp).
bool call_filter(Renderer& r, std::string_view name, const Value& input, Args& args, Value& out);  // false: unknown
bool call_test(Renderer& r, std::string_view name, const Value& input, Args& args, bool& out);     // false: unknown
// A method of str/list/dict; false when there is no such (safe) method.
bool call_method(Renderer& r, const Value& self, std::string_view name, Args& args, Value& out);
bool has_method(const Value& self, std::string_view name);
// str.strip() without arguments (Python's whitespace), as the trim filter applies it.
std::string_view strip_whitespace_at_ends(std::string_view s);
// Text that starts and ends with a printable ASCII character (none is whitespace, and no longer
// character ends in one) is returned whole without strip()'s decoding: most message content is.
// Per render (callgrind, apply_request, six messages and two tools): Llama 3.1 22.27k -> 21.97k
// (six `message['content'] | trim`), DeepSeek V3 and Qwen3 unchanged (28.29k, 60.10k).
[[gnu::always_inline]] inline std::string_view strip_whitespace(std::string_view s) {
  auto printable = [](char c) { return static_cast<unsigned char>(c) - 0x21u < 0x5fu; };  // '!' to DEL
  if (s.empty() || (printable(s.front()) && printable(s.back()))) return s;
  return strip_whitespace_at_ends(s);
}
bool is_unsafe_method(const Value& self, std::string_view name);  // mutating list/dict methods
// A name that getattr resolves on a dict before its keys (a method or a dunder).
bool names_dict_attribute(std::string_view name);
// A bound method value (for `x.items` without a call).
Value bound_method(const Value& self, std::string_view name);

// json.dumps as transformers' tojson filter calls it, appended to out (unchanged on an error).
void append_json(std::string& out, const Value& v, const Value& indent, bool sort_keys, bool ensure_ascii,
                 const std::string* item_separator, const std::string* key_separator);
// The tojson filter of v with its arguments, appended to out (unchanged on an error).
void append_tojson(std::string& out, const Value& v, const Args& args);

// Escaping as markupsafe.escape does.
std::string html_escape(std::string_view s);

}  // namespace textedge::detail::jinja
