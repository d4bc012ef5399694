// JSON writing for the CLI: strings (the library's writer, as json.dumps(ensure_ascii=False)) and
// id arrays.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json_string.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::cli {

using detail::append_json_string;

inline void append_json_ids(std::string& out, const std::vector<TokenId>& ids) {
  out += '[';
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(ids[i]);
  }
  out += ']';
}

}  // namespace textedge::cli
