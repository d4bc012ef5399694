// Compact JSON re-indented as Python's json.dumps(indent=step) writes it: a line per member,
// `step` spaces a level, empty containers kept as {} and []. For the JSON reader's tests and the
// chat layer's profile training (tools/pgo/train_chat.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace test_support {

inline std::string pretty_printed(const std::string& compact, int step) {
  std::string out;
  int level = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < compact.size(); ++i) {
    char c = compact[i];
    out += c;
    if (in_string) {
      if (c == '\\') out += compact[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ':') out += ' ';
    auto line = [&] { out += '\n' + std::string(static_cast<std::size_t>(level * step), ' '); };
    if ((c == '{' || c == '[') && compact[i + 1] != (c == '{' ? '}' : ']')) ++level, line();
    if (c == ',') line();
    if (i + 1 < compact.size() && (compact[i + 1] == '}' || compact[i + 1] == ']') && c != '{' && c != '[')
      --level, line();
  }
  return out;
}

}  // namespace test_support
