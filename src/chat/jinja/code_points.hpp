// Code point helpers for Python's str semantics over UTF-8 (lengths, slicing, case, classes).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace textedge::detail::jinja {

// Decodes the code point at s[i] and advances i; invalid bytes decode as themselves (one byte).
char32_t decode_utf8(std::string_view s, std::size_t& i) noexcept;
void append_utf8(std::string& out, char32_t cp);
// Python's backslash escape of a code point, as repr() writes it: \xNN, \uNNNN or \UNNNNNNNN.
void append_python_escape(std::string& out, char32_t cp);

bool is_printable(char32_t cp) noexcept;  // str.isprintable for one code point
bool is_space(char32_t cp) noexcept;      // str.isspace
bool is_alpha(char32_t cp) noexcept;
bool is_decimal(char32_t cp) noexcept;
bool is_digit(char32_t cp) noexcept;
bool is_numeric(char32_t cp) noexcept;
bool is_lower(char32_t cp) noexcept;
bool is_upper(char32_t cp) noexcept;
bool is_cased(char32_t cp) noexcept;
std::string to_upper(std::string_view s);
std::string to_lower(std::string_view s);
char32_t to_title_cp(char32_t cp) noexcept;
char32_t to_upper_cp(char32_t cp) noexcept;
char32_t to_lower_cp(char32_t cp) noexcept;

// Byte offsets of each code point start (plus the end), for slicing non-ASCII strings.
void code_point_offsets(std::string_view s, std::vector<std::size_t>& offsets);

}  // namespace textedge::detail::jinja
