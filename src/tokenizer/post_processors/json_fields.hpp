// Field readers shared by the post-processors.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "base/json_dom.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::detail::post_processors {

// A non-negative integer that fits in 32 bits (a token id or a type id). An integral float such
// as 2.0 is accepted, as the reference does.
inline std::uint32_t read_u32(const Json& j) {
  std::uint64_t v;
  if (j.raw().get_uint64().get(v)) {
    std::int64_t i = j.integer();
    if (i < 0) j.fail("expected an integer in [0, 4294967295]");
    v = static_cast<std::uint64_t>(i);
  }
  if (v > std::numeric_limits<std::uint32_t>::max()) j.fail("expected an integer in [0, 4294967295]");
  return static_cast<std::uint32_t>(v);
}

// A ["token", id] pair, as BertProcessing and RobertaProcessing store cls and sep.
inline TokenId read_token_pair(const Json& j) {
  auto items = j.array();
  if (items.size() != 2) j.fail("expected a [token, id] pair");
  items[0].str();
  return read_u32(items[1]);
}

// A boolean member that has a default: absent is fine, anything else must be a boolean.
inline void check_bool_with_default(const Json& object, std::string_view key) {
  simdjson::dom::element e;
  if (!object.raw().get_object().at_key(key).get(e)) object.get(key).boolean();
}

}  // namespace textedge::detail::post_processors
