// JSON Schema -> regular expression (see docs/schema.md). The compiler is shared with the tool
// call patterns, which write a tool's arguments their own way (Python keyword arguments, XML-ish
// parameter tags); members() builds such argument lists with the same optional-member logic.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"
#include "textedge/schema.hpp"

namespace textedge::detail {

// A regex fragment, or the empty language (a branch that can never match, e.g. a recursive $ref
// cut at the depth limit): alternations drop such branches, sequences containing one vanish.
struct Re {
  std::string s;
  bool never = false;
};

enum class Dialect {
  json,    // JSON text
  python,  // Python literals, as ast.literal_eval reads them (True/False/None; no "\/" escape)
  // Gemma 4's call arguments (its template's format_argument): strings raw between <|"|>, bare
  // keys, no spaces, members in the template's order (sorted by name, case-insensitively).
  gemma4,
};

// How a tool call format writes an argument list.
struct MemberStyle {
  std::function<std::string(std::string_view name)> before;  // regex written before a value (none: the dialect's key)
  std::string after;                                         // regex written after a value
  std::string separator;                                     // regex between members
  // When not empty, string-typed values are written raw (not JSON-quoted) and must not contain
  // this text (the tag that ends the value).
  std::string raw_terminator;
};

// Escapes `text` so that it matches literally.
std::string regex_literal(std::string_view text);
// Whether `schema` is {"type": "string", ...}: the values some formats write raw.
bool is_string_typed(const Json& schema);

class SchemaCompiler {
 public:
  SchemaCompiler(Json root, SchemaRegexOptions options, Dialect dialect = Dialect::json);

  Re value(const Json& schema);
  // The members of object schema `schema` written with `style` (no braces around them).
  Re members(const Json& schema, const MemberStyle& style);
  // Throws SchemaError at `at`.
  [[noreturn]] static void fail(const Json& at, const std::string& message);

 private:
  struct Member {
    std::string name;
    std::optional<Json> schema;  // nullopt: a required name without a property schema (any value)
    bool required;
  };
  struct ObjectShape {
    std::vector<Member> members;
    bool extras_allowed = false;
    std::optional<Json> extras;  // schema of additional properties (nullopt: any value)
  };

  Re value_at_depth(const Json& schema);
  Re typed(const Json& schema, std::string_view type);
  Re object(const Json& schema);
  Re array(const Json& schema);
  Re string(const Json& schema, bool raw, const std::string& raw_terminator);
  // A string value written raw: no quotes, no escapes, never containing `terminator`.
  Re raw_string(const Json& schema, const std::string& terminator);
  Re integer(const Json& schema);
  Re number(const Json& schema);
  Re literal(const Json& value);
  Re any(int depth);
  Re enumeration(const Json& schema);
  Json resolve(const Json& ref_holder);
  ObjectShape shape(const Json& schema);
  Re member_list(const std::vector<Re>& members, const std::vector<bool>& required, const Re& extra,
                 const std::string& separator);
  std::string string_char() const;
  std::string colon() const { return dialect_ == Dialect::gemma4 ? ":" : ": ?"; }
  std::string comma() const { return dialect_ == Dialect::gemma4 ? "," : ", ?"; }
  std::string key(std::string_view name) const;  // a member's name, then the colon

  Json root_;
  SchemaRegexOptions options_;
  Dialect dialect_;
  std::map<std::string, int> active_refs_;
  std::map<int, Re> any_cache_;
};

}  // namespace textedge::detail
