// JSON Schema -> regular expression, for constrained decoding; the regex that forces a tool call
// in a model's own wrapper syntax; and such regexes as llama.cpp GBNF grammars. See
// docs/schema.md for the supported keywords and the whitespace policy. The regexes use no
// lookaround, backreference or lazy quantifier (a DFA can run them) and are written over Unicode
// code points (compile them in UTF mode, e.g. PCRE2_UTF).
#pragma once

#include <string>

#include "textedge/error.hpp"

namespace textedge {

struct SchemaRegexOptions {
  // Treat an object schema without "additionalProperties" as if it said false (JSON Schema's
  // default is true). tool_call_pattern always uses strict objects.
  bool strict = false;
  // How many times a recursive "$ref" is expanded within itself.
  int max_depth = 3;
  // How deeply an unconstrained value ({}, true, absent "items") may nest arrays and objects:
  // 0 allows scalars only. The regex grows about fourfold per level (about 25 KB at 2, the most
  // PCRE2 compiles with its default link size).
  int any_depth = 2;
};

// The regex that fully matches the JSON texts (in the whitespace policy's form) valid under the
// JSON Schema `schema_json`. Throws SchemaError naming an unsupported keyword and its JSON path.
TEXTEDGE_API std::string json_schema_regex(const std::string& schema_json, const SchemaRegexOptions& options = {});

// The regex that forces a tool call. `tools_json` is an OpenAI "tools" array
// ([{"type": "function", "function": {"name", "parameters"}}]). `format` is one of hermes,
// llama3_json, mistral, qwen3_coder, deepseek_v3, deepseek_v31, kimi_k2, glm45, harmony,
// pythonic. With `name` empty: any one tool; with `parallel` also true: one or more calls where
// the format has a way to write several (hermes, llama3_json, mistral, qwen3_coder, deepseek_v3,
// deepseek_v31, kimi_k2, glm45, pythonic). With `name`: that tool only.
TEXTEDGE_API std::string tool_call_pattern(const std::string& tools_json, const std::string& format, const std::string& name = "",
                              bool parallel = false, const SchemaRegexOptions& options = {});

// The GBNF grammar (llama.cpp's `grammar` field) whose rule `root` derives exactly the texts the
// whole of `regex` matches, for regexes in the dialect the two functions above write (see
// docs/schema.md). Throws SchemaError naming anything outside it and its byte offset in `regex`.
TEXTEDGE_API std::string regex_to_gbnf(const std::string& regex);

}  // namespace textedge
