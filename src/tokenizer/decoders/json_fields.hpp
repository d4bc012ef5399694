// Field readers shared by the decoders, with serde's strictness: a "char" is exactly one code
// point and a count is a non-negative integer literal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/json_dom.hpp"
#include "base/utf8.hpp"

namespace textedge::detail::decoders {

// A JSON string holding exactly one character; returned as its UTF-8 bytes.
inline std::string read_char(const Json& j) {
  std::string_view s = j.str();
  if (s.empty() || static_cast<std::size_t>(utf8_length(static_cast<unsigned char>(s[0]))) != s.size())
    j.fail("expected a single character, found \"" + std::string(s) + "\"");
  return std::string(s);
}

// A count: a non-negative integer (an integral float such as 1.0 is accepted, as serde does).
inline std::size_t read_count(const Json& j) {
  std::uint64_t v;
  if (!j.raw().get_uint64().get(v)) return static_cast<std::size_t>(v);
  std::int64_t i = j.integer();
  if (i < 0) j.fail("expected a non-negative integer");
  return static_cast<std::size_t>(i);
}

// A member that has a default: absent gives nullopt, but an explicit null is refused, as serde
// does for fields that are not Option.
inline std::optional<Json> member_with_default(const Json& object, std::string_view key) {
  if (auto v = object.find(key)) return v;
  simdjson::dom::element e;
  if (!object.raw().get_object().at_key(key).get(e)) object.get(key).fail("expected a value, found null");
  return std::nullopt;
}

// An Option<bool> member: absent or null leaves `value` unchanged.
inline void read_optional_bool(const Json& object, std::string_view key, bool& value) {
  if (auto v = object.find(key)) value = v->boolean();
}

}  // namespace textedge::detail::decoders
