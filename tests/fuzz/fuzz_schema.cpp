// The schema compiler: any text as a JSON Schema (json_schema_regex) or a tools array
// (tool_call_pattern) gives a regex or throws SchemaError, and every regex it gives compiles in
// PCRE2's UTF mode (only PCRE2's size limits may refuse it).
//
// Input: [0] bit 0 tools array or schema, bit 1 strict, bits 2-3 max_depth, bits 4-5 any_depth
// (0-2), bit 6 parallel, bit 7 the call of one tool by name; [1] the format; then the JSON.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"

using namespace textedge;

namespace {

const std::vector<std::string> kFormats = [] {
  std::vector<std::string> v;  // the families tool_call_pattern can force
  for (auto& f : format_infos())
    if (f.forced) v.push_back(f.name);
  return v;
}();

void check_compiles(const std::string& pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &error, &offset, nullptr);
  if (code) {
    pcre2_code_free(code);
    return;
  }
  // PCRE2's own size limits (a regex for a big schema, a deep one, a count like minItems 10^10
  // beyond its 65535 per quantifier) refuse valid regexes; other errors are textedge's.
  if (error == PCRE2_ERROR_PATTERN_TOO_LARGE || error == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP ||
      error == PCRE2_ERROR_HEAP_FAILED || error == PCRE2_ERROR_QUANTIFIER_TOO_BIG)
    return;
  PCRE2_UCHAR message[256];
  pcre2_get_error_message(error, message, sizeof message);
  std::fprintf(stderr, "the regex does not compile: %s at offset %zu\n%.*s\n", reinterpret_cast<char*>(message),
               static_cast<std::size_t>(offset), static_cast<int>(std::min<std::size_t>(pattern.size(), 4000)),
               pattern.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const unsigned flags = data[0];
  SchemaRegexOptions options{.strict = (flags & 2) != 0,
                             .max_depth = static_cast<int>((flags >> 2) & 3),
                             .any_depth = static_cast<int>(((flags >> 4) & 3) % 3)};
  std::string json(reinterpret_cast<const char*>(data + 2), size - 2);
  std::string pattern;
  try {
    if (flags & 1) {
      std::string format = kFormats[data[1] % kFormats.size()];
      pattern = tool_call_pattern(json, format, flags & 0x80 ? "get_weather" : "", flags & 0x40, options);
    } else {
      pattern = json_schema_regex(json, options);
    }
  } catch (const SchemaError&) {
    return 0;
  }
  check_compiles(pattern);
  return 0;
}
