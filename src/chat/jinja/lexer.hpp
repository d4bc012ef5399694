// Splits a template into data and tag tokens exactly as Jinja2's lexer does with trim_blocks and
// lstrip_blocks on: whitespace control (-, +), comments, raw blocks, newline normalization.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace textedge::detail::jinja {

enum class Tok : std::uint8_t {
  Data,
  VariableBegin,
  VariableEnd,
  BlockBegin,
  BlockEnd,
  Name,
  String,
  Integer,
  Float,
  Operator,
  Eof,
};

struct Token {
  Tok type;
  std::string text;  // data, name, operator, or the unescaped string literal
  std::int64_t int_value = 0;
  double float_value = 0;
  std::size_t line = 1;
  std::size_t column = 1;
};

// Jinja2 first turns "\r\n" and "\r" into "\n" and drops one trailing newline.
std::string normalize_newlines(std::string_view source);

// Throws TemplateError (TemplateSyntaxError) with line and column. `source` must be normalized.
std::vector<Token> tokenize(const std::string& source);

}  // namespace textedge::detail::jinja
