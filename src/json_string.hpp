// JSON string text as Python's json.dumps writes it: the one writer behind tojson, OpenAI deltas,
// parsed call arguments and the CLI, so all of them agree byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace textedge::detail {

// One byte of a string's text: \" \\ \n \r \t \b \f, \u00XX for the other control characters,
// every other byte as is (UTF-8 kept, DEL included, as json.dumps keeps them).
void append_json_char(std::string& out, unsigned char c);

// The quoted string. With ensure_ascii, non-ASCII is written as \uXXXX (surrogate pairs above
// U+FFFF); a byte that starts no valid UTF-8 sequence is written as the code point of its value.
void append_json_string(std::string& out, std::string_view s, bool ensure_ascii = false);

inline std::string json_quote(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace textedge::detail
