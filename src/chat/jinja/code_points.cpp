#include "chat/jinja/code_points.hpp"

#include <utf8proc.h>

#include <cstdio>
#include <vector>

namespace textedge::detail::jinja {

char32_t decode_utf8(std::string_view s, std::size_t& i) noexcept {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  int n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
  if (n == 0 || i + static_cast<std::size_t>(n) >= s.size()) {
    ++i;
    return c;
  }
  char32_t cp = c & (0x3f >> n);
  for (int k = 1; k <= n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xc0) != 0x80) {
      ++i;
      return c;
    }
    cp = (cp << 6) | (d & 0x3f);
  }
  i += static_cast<std::size_t>(n) + 1;
  return cp;
}

void append_python_escape(std::string& out, char32_t cp) {
  char buf[16];
  if (cp <= 0xff)
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else if (cp <= 0xffff)
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else
    std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
  out += buf;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

static utf8proc_category_t category(char32_t cp) noexcept {
  return utf8proc_category(static_cast<utf8proc_int32_t>(cp));
}

bool is_printable(char32_t cp) noexcept {
  if (cp == ' ') return true;
  switch (category(cp)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_ZS:
      return false;
    default:
      return true;
  }
}

bool is_space(char32_t cp) noexcept {
  // Python: bidirectional type WS, B or S, or category Zs.
  switch (cp) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x1c:
    case 0x1d:
    case 0x1e:
    case 0x1f:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200a;
  }
}

bool is_alpha(char32_t cp) noexcept {
  switch (category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return true;
    default:
      return false;
  }
}

bool is_decimal(char32_t cp) noexcept { return category(cp) == UTF8PROC_CATEGORY_ND; }
bool is_digit(char32_t cp) noexcept {
  if (is_decimal(cp)) return true;
  // Superscript and circled digits carry a digit value in Python.
  return (cp >= 0xb2 && cp <= 0xb3) || cp == 0xb9 || (cp >= 0x2070 && cp <= 0x2079 && cp != 0x2071 && cp != 0x2072 && cp != 0x2073) ||
         (cp >= 0x2080 && cp <= 0x2089) || (cp >= 0x2460 && cp <= 0x2468) || (cp >= 0x2474 && cp <= 0x247c) ||
         (cp >= 0x2488 && cp <= 0x2490) || cp == 0x24ea || (cp >= 0x24f5 && cp <= 0x24fd) || cp == 0x24ff ||
         (cp >= 0x2776 && cp <= 0x277e) || (cp >= 0x2780 && cp <= 0x2788) || (cp >= 0x278a && cp <= 0x2792);
}
bool is_numeric(char32_t cp) noexcept {
  auto c = category(cp);
  return c == UTF8PROC_CATEGORY_ND || c == UTF8PROC_CATEGORY_NL || c == UTF8PROC_CATEGORY_NO || is_digit(cp);
}
bool is_lower(char32_t cp) noexcept { return category(cp) == UTF8PROC_CATEGORY_LL || (is_cased(cp) && utf8proc_toupper(cp) != static_cast<utf8proc_int32_t>(cp) && category(cp) != UTF8PROC_CATEGORY_LU && category(cp) != UTF8PROC_CATEGORY_LT); }
bool is_upper(char32_t cp) noexcept { return category(cp) == UTF8PROC_CATEGORY_LU || (is_cased(cp) && utf8proc_tolower(cp) != static_cast<utf8proc_int32_t>(cp) && category(cp) != UTF8PROC_CATEGORY_LL && category(cp) != UTF8PROC_CATEGORY_LT); }
bool is_cased(char32_t cp) noexcept {
  auto c = category(cp);
  return c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LL || c == UTF8PROC_CATEGORY_LT ||
         utf8proc_toupper(cp) != static_cast<utf8proc_int32_t>(cp) || utf8proc_tolower(cp) != static_cast<utf8proc_int32_t>(cp);
}

char32_t to_upper_cp(char32_t cp) noexcept { return static_cast<char32_t>(utf8proc_toupper(static_cast<utf8proc_int32_t>(cp))); }
char32_t to_lower_cp(char32_t cp) noexcept { return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp))); }
char32_t to_title_cp(char32_t cp) noexcept { return static_cast<char32_t>(utf8proc_totitle(static_cast<utf8proc_int32_t>(cp))); }

static std::string map_case(std::string_view s, bool upper) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c));
      ++i;
      continue;
    }
    char32_t cp = decode_utf8(s, i);
    if (upper && cp == 0xdf) {  // ß -> SS (Python's full case mapping)
      out += "SS";
      continue;
    }
    append_utf8(out, upper ? to_upper_cp(cp) : to_lower_cp(cp));
  }
  return out;
}

std::string to_upper(std::string_view s) { return map_case(s, true); }
std::string to_lower(std::string_view s) { return map_case(s, false); }

void code_point_offsets(std::string_view s, std::vector<std::size_t>& offsets) {
  offsets.clear();
  std::size_t i = 0;
  while (i < s.size()) {
    offsets.push_back(i);
    decode_utf8(s, i);
  }
  offsets.push_back(s.size());
}

}  // namespace textedge::detail::jinja
