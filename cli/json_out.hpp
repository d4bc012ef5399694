// Minimal JSON writing for the CLI: strings (UTF-8 kept as is, as json.dumps(ensure_ascii=False))
// and id arrays.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/tokenizer.hpp"

namespace textedge::cli {

inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

inline void append_json_ids(std::string& out, const std::vector<TokenId>& ids) {
  out += '[';
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(ids[i]);
  }
  out += ']';
}

}  // namespace textedge::cli
