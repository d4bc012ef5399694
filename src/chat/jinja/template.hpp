// A sandboxed Jinja engine that renders chat templates exactly as Python Jinja2 does in Hugging Face
// transformers' environment (ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loop
// controls, {% generation %}, tojson / raise_exception / strftime_now).
#pragma once

#include <atomic>
#include <cstddef>
#include <ctime>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chat/jinja/value.hpp"
#include "textedge/error.hpp"

namespace textedge::detail::jinja {

// JSON text that is not valid: what is wrong, and the byte offset where it was found.
class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(const std::string& what, std::size_t offset);
  const std::string& reason() const noexcept { return reason_; }
  std::size_t offset() const noexcept { return offset_; }

 private:
  std::string reason_;
  std::size_t offset_;
};

// Values from JSON text as Python's json.loads reads it: ints stay ints (refused beyond 64 bits),
// floats floats, key order kept, a later duplicate key replaces the earlier value. Throws
// JsonSyntaxError. Without an arena the values own everything. With one (the chat API, for one
// render), lists, dicts and unescaped strings are placed in `arena` and other strings view
// `json`: both must outlive the value and its copies, which cost no reference counting.
Value read_json(std::string_view json, ValueArena* arena);
// read_json of an object whose members other than `read` are checked (the same errors at the
// same offsets) but not built: each becomes undefined in the dict.
Value read_json_members(std::string_view json, ValueArena& arena, std::span<const std::string_view> read);
// read_json's checks and errors, nothing built.
void check_json(std::string_view json);
// read_json without an arena; throws TemplateError (ValueError) on bad JSON.
Value value_from_json(std::string_view json);

struct RenderLimits {
  std::size_t max_output_bytes = std::size_t{64} << 20;
  std::size_t max_steps = 100'000'000;
  std::size_t max_recursion_depth = 500;
  // The time strftime_now() formats; the local time when unset (tests pin it).
  std::optional<std::tm> now;
};

struct ParsedTemplate;

// A template variable: its name need only outlive the render call; later ones win.
using Variable = std::pair<std::string_view, Value>;

class Template {
 public:
  // Throws TemplateError (with line and column).
  static std::shared_ptr<const Template> compile(std::string_view source, std::string name = "<template>");
  // Thread-safe. Throws TemplateError (with the template's line and column where known;
  // raise_exception's message as is in message()).
  std::string render(std::span<const Variable> variables, const RenderLimits& limits = {}) const;
  // Top-level names the template reads without setting them (like jinja2.meta.find_undeclared_variables).
  std::vector<std::string> undeclared_variables() const;
  // Whether `name` occurs in the template at all: a variable it never names is never read.
  bool mentions(std::string_view name) const;
  const std::string& name() const { return name_; }

  ~Template();
  Template(const Template&) = delete;
  Template& operator=(const Template&) = delete;

 private:
  Template() = default;
  std::string name_;
  std::unique_ptr<ParsedTemplate> parsed_;
  // The last render's output size: the next one reserves it instead of growing from empty.
  mutable std::atomic<std::size_t> output_size_hint_{0};
  bool writes_json_ = false;  // the source names tojson
};

}  // namespace textedge::detail::jinja
