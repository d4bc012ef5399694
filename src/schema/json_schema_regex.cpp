// JSON Schema -> regex. The language produced, and where it is narrower than the schema, is
// documented in docs/schema.md; the tests check it against python3-jsonschema.
#include "schema/json_schema_regex.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>

#include "base/json_string.hpp"
#include "base/utf8.hpp"

namespace textedge::detail {

namespace {

// Keywords that only annotate; they never change which values are valid.
const std::set<std::string_view> kAnnotations = {
    "title", "description", "default", "examples", "$schema", "$id", "$comment", "deprecated",
    "readOnly", "writeOnly", "$defs", "definitions", "contentEncoding", "contentMediaType", "$anchor"};
const std::set<std::string_view> kSupported = {
    "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "properties", "required",
    "additionalProperties", "items", "prefixItems", "additionalItems", "minItems", "maxItems", "minLength",
    "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"};
const std::set<std::string_view> kObjectKeywords = {"properties", "required", "additionalProperties"};
const std::set<std::string_view> kArrayKeywords = {"items", "prefixItems", "additionalItems", "minItems", "maxItems"};
const std::set<std::string_view> kStringKeywords = {"minLength", "maxLength", "pattern", "format"};
const std::set<std::string_view> kNumberKeywords = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"};

bool is_annotation(std::string_view key) { return kAnnotations.count(key) || key.starts_with("x-"); }

// The keywords of `schema` that constrain values (not annotations), failing on unknown ones.
std::vector<std::string_view> constraint_keywords(const Json& schema) {
  std::vector<std::string_view> out;
  for (auto& [key, value] : schema.members()) {
    if (is_annotation(key)) continue;
    if (!kSupported.count(key)) SchemaCompiler::fail(value, "unsupported keyword \"" + std::string(key) + "\"");
    out.push_back(key);
  }
  return out;
}

std::string group(const std::string& s) { return "(?:" + s + ")"; }

Re never() { return Re{"", true}; }

Re alternation(const std::vector<Re>& parts) {
  std::vector<const std::string*> live;
  for (auto& p : parts)
    if (!p.never && std::find_if(live.begin(), live.end(), [&](auto* s) { return *s == p.s; }) == live.end())
      live.push_back(&p.s);
  if (live.empty()) return never();
  if (live.size() == 1) return Re{*live[0]};
  std::string out = "(?:";
  for (std::size_t i = 0; i < live.size(); ++i) out += (i ? "|" : "") + *live[i];
  return Re{out + ")"};
}

std::string repeat(std::uint64_t min, std::optional<std::uint64_t> max) {
  if (max && *max == min) return min == 1 ? "" : "{" + std::to_string(min) + "}";
  if (!max) return min == 0 ? "*" : min == 1 ? "+" : "{" + std::to_string(min) + ",}";
  if (min == 0 && *max == 1) return "?";
  return "{" + std::to_string(min) + "," + std::to_string(*max) + "}";
}

std::optional<std::uint64_t> count_keyword(const Json& schema, std::string_view key) {
  auto v = schema.find(key);
  if (!v) return std::nullopt;
  std::int64_t n = v->integer();
  if (n < 0) SchemaCompiler::fail(*v, "must be a non-negative integer");
  return static_cast<std::uint64_t>(n);
}

// ---- numeric ranges ---------------------------------------------------------------------------
// Bounds are exact decimals and values are compared on their written digits, so a range is exact
// at any length (no rounding through double). Numbers in a range are written I(.F)? without an
// exponent (docs/schema.md).

std::string digits(std::size_t n) { return n == 0 ? "" : n == 1 ? "[0-9]" : "[0-9]{" + std::to_string(n) + "}"; }
std::string digit_class(char a, char b) {
  if (a == b) return std::string(1, a);
  return std::string("[") + a + (b == a + 1 ? "" : "-") + b + "]";
}
std::string join_alternatives(const std::vector<std::string>& alts) {
  std::string out;
  for (auto& a : alts) out += (out.empty() ? "" : "|") + a;
  return alts.size() == 1 ? out : group(out);
}

// Decimal strings of lo's length between lo and hi (same length, lo <= hi).
std::string same_length_range(const std::string& lo, const std::string& hi) {
  if (lo.empty()) return "";
  if (lo[0] == hi[0]) return lo.substr(0, 1) + same_length_range(lo.substr(1), hi.substr(1));
  std::size_t rest = lo.size() - 1;
  bool lo_min = lo.find_first_not_of('0', 1) == std::string::npos;
  bool hi_max = hi.find_first_not_of('9', 1) == std::string::npos;
  std::vector<std::string> alts;
  char first = lo[0], last = hi[0];
  if (!lo_min) alts.push_back(lo.substr(0, 1) + same_length_range(lo.substr(1), std::string(rest, '9'))), ++first;
  if (!hi_max) --last;
  if (first <= last) alts.push_back(digit_class(first, last) + digits(rest));
  if (!hi_max) alts.push_back(hi.substr(0, 1) + same_length_range(std::string(rest, '0'), hi.substr(1)));
  return join_alternatives(alts);
}

bool whole_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}
std::string power_of_ten(std::size_t digits_count) {
  std::string p(digits_count, '0');
  p[0] = '1';
  return p;
}
std::string whole_increment(std::string s) {
  std::size_t i = s.size();
  while (i > 0 && s[i - 1] == '9') s[--i] = '0';
  if (i == 0) return power_of_ten(s.size() + 1);
  ++s[i - 1];
  return s;
}
std::string whole_decrement(std::string s) {  // s > 0
  std::size_t i = s.size();
  while (s[i - 1] == '0') s[--i] = '9';
  --s[i - 1];
  if (s.size() > 1 && s[0] == '0') s.erase(0, 1);
  return s;
}

// Integer digit strings without leading zeros in [lo, hi] (hi absent: unbounded), lo <= hi.
std::vector<std::string> whole_range(const std::string& lo, const std::optional<std::string>& hi) {
  std::vector<std::string> alts;
  std::size_t last_len = hi ? hi->size() : lo.size();
  std::size_t full_from = 0, full_to = 0;  // a run of lengths written as [1-9][0-9]{m,n}
  auto flush_full = [&] {
    if (full_from == 0) return;
    std::string tail = full_from == full_to
                           ? digits(full_from - 1)
                           : "[0-9]{" + std::to_string(full_from - 1) + "," + std::to_string(full_to - 1) + "}";
    alts.push_back("[1-9]" + tail);
    full_from = 0;
  };
  for (std::size_t len = lo.size(); len <= last_len; ++len) {
    std::string a = len == lo.size() ? lo : power_of_ten(len);
    std::string b = hi && len == last_len ? *hi : std::string(len, '9');
    if (a == power_of_ten(len) && b == std::string(len, '9')) {
      if (full_from == 0) full_from = len;
      full_to = len;
      continue;
    }
    flush_full();
    alts.push_back(same_length_range(a, b));
  }
  if (!hi) {
    std::size_t from = full_from ? full_from : lo.size() + 1;
    full_from = 0;
    alts.push_back("[1-9][0-9]" + (from - 1 == 0 ? std::string("*") : "{" + std::to_string(from - 1) + ",}"));
  }
  flush_full();
  return alts;
}

// Fraction digit strings F (possibly empty; value 0.F) within the bounds 0.lo and 0.hi, inclusive
// or not; an absent bound does not constrain. Bound digits have no trailing zeros.
struct FractionSet {
  std::vector<std::string> alts;  // each matches at least one digit
  bool empty_ok = false;          // the empty string (value 0) is in the set
  bool none() const { return alts.empty() && !empty_ok; }
  std::string regex() const {  // over possibly-empty digit strings
    if (alts.empty()) return "";
    std::string a = join_alternatives(alts);
    if (!empty_ok) return a;
    return (alts.size() == 1 ? group(a) : a) + "?";
  }
};

// One side of a fraction range: absent (no constraint), or 0.digits, inclusive or not.
struct FractionBound {
  bool present = false;
  std::string_view digits;
  bool inclusive = true;
};

FractionSet fraction_range(FractionBound lo, FractionBound hi) {
  if (lo.present && lo.digits.empty() && lo.inclusive) lo.present = false;  // >= 0 always holds
  if (hi.present && hi.digits.empty()) {  // <= 0: only zeros, and only if 0 is allowed
    if (!hi.inclusive || lo.present) return {};
    return {{"0+"}, true};
  }
  if (!lo.present && !hi.present) return {{"[0-9]+"}, true};
  if (lo.present && lo.digits.empty() && !hi.present) return {{"0*[1-9][0-9]*"}, false};  // > 0
  FractionSet out;
  out.empty_ok = !lo.present;  // hi is not empty here, so 0 is below it
  // The digits equal to a bound's next digit continue under the rest of that bound; those
  // strictly between are free. An empty exclusive lower bound (> 0) stays as it is under '0'.
  char lo_digit = lo.present ? (lo.digits.empty() ? '0' : lo.digits[0]) : '0';
  char hi_digit = hi.present ? hi.digits[0] : '9';
  char free_first = lo.present ? static_cast<char>(lo_digit + 1) : '0';
  char free_last = hi.present ? static_cast<char>(hi_digit - 1) : '9';
  std::vector<char> special;
  if (lo.present) special.push_back(lo_digit);
  if (hi.present && (!lo.present || hi_digit != lo_digit)) special.push_back(hi_digit);
  for (char d : special) {
    FractionBound sub_lo, sub_hi;
    if (lo.present && d == lo_digit) sub_lo = {true, lo.digits.empty() ? lo.digits : lo.digits.substr(1), lo.inclusive};
    if (hi.present && d == hi_digit) sub_hi = {true, hi.digits.substr(1), hi.inclusive};
    FractionSet sub = fraction_range(sub_lo, sub_hi);
    if (!sub.none()) out.alts.push_back(std::string(1, d) + sub.regex());
  }
  if (free_first <= free_last) out.alts.insert(out.alts.begin(), digit_class(free_first, free_last) + "[0-9]*");
  return out;
}

// An exact decimal: integer digits without leading zeros ("0" for zero), fraction digits without
// trailing zeros.
struct Decimal {
  bool negative = false;
  std::string whole = "0";
  std::string fraction;
  bool is_zero() const { return whole == "0" && fraction.empty(); }
};

// Reads a JSON number's text ("-1.5e-07").
Decimal parse_decimal(std::string_view text) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') d.negative = true, ++i;
  std::string mantissa;
  std::optional<std::size_t> point;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.')
      point = mantissa.size();
    else
      mantissa += text[i];
  }
  long long whole_len = static_cast<long long>(point.value_or(mantissa.size()));
  if (i < text.size()) whole_len += std::strtoll(std::string(text.substr(i + 1)).c_str(), nullptr, 10);
  long long n = static_cast<long long>(mantissa.size());
  if (whole_len <= 0) {
    d.whole = "";
    d.fraction = std::string(static_cast<std::size_t>(-whole_len), '0') + mantissa;
  } else if (whole_len >= n) {
    d.whole = mantissa + std::string(static_cast<std::size_t>(whole_len - n), '0');
    d.fraction.clear();
  } else {
    d.whole = mantissa.substr(0, static_cast<std::size_t>(whole_len));
    d.fraction = mantissa.substr(static_cast<std::size_t>(whole_len));
  }
  d.whole.erase(0, std::min(d.whole.find_first_not_of('0'), d.whole.size()));
  if (d.whole.empty()) d.whole = "0";
  d.fraction.erase(std::min(d.fraction.find_last_not_of('0') + 1, d.fraction.size()));
  if (d.is_zero()) d.negative = false;
  return d;
}

int compare_magnitude(const Decimal& a, const Decimal& b) {
  if (a.whole != b.whole) return whole_less(a.whole, b.whole) ? -1 : 1;
  int c = a.fraction.compare(b.fraction);  // without trailing zeros, string order is numeric order
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}
int compare(const Decimal& a, const Decimal& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c = compare_magnitude(a, b);
  return a.negative ? -c : c;
}

struct Bound {
  Decimal value;
  bool inclusive = true;
};

// Non-negative numbers written I(.F)? (integral: I alone) between lower and upper (absent: none).
std::vector<std::string> nonnegative_range(const Decimal& lower, bool lower_inclusive,
                                           const std::optional<Decimal>& upper, bool upper_inclusive, bool integral) {
  std::vector<std::string> alts;
  if (integral) {  // the whole numbers from ceil(lower) (or the next one) to floor(upper) (or the one before)
    std::string first = lower.fraction.empty() && lower_inclusive ? lower.whole : whole_increment(lower.whole);
    std::optional<std::string> last;
    if (upper) {
      if (!upper->fraction.empty() || upper_inclusive)
        last = upper->whole;
      else if (upper->whole == "0")
        return alts;
      else
        last = whole_decrement(upper->whole);
      if (whole_less(*last, first)) return alts;
    }
    return whole_range(first, last);
  }
  auto add = [&](const std::string& whole, const FractionSet& f) {
    if (f.none()) return;
    if (f.alts.empty()) return alts.push_back(whole);
    alts.push_back(whole + "(?:\\." + join_alternatives(f.alts) + ")" + (f.empty_ok ? "?" : ""));
  };
  std::string any_fraction = "(?:\\.[0-9]+)?";
  const std::string& a = lower.whole;
  if (upper && upper->whole == a) {
    add(a, fraction_range({true, lower.fraction, lower_inclusive}, {true, upper->fraction, upper_inclusive}));
    return alts;
  }
  add(a, fraction_range({true, lower.fraction, lower_inclusive}, {}));
  std::string after = whole_increment(a);
  std::optional<std::string> before;
  if (upper) before = upper->whole == "0" ? "" : whole_decrement(upper->whole);
  if (!upper || (!before->empty() && !whole_less(*before, after))) {
    auto middle = whole_range(after, before);
    alts.push_back((middle.size() == 1 ? middle[0] : join_alternatives(middle)) + any_fraction);
  }
  if (upper) add(upper->whole, fraction_range({}, {true, upper->fraction, upper_inclusive}));
  return alts;
}

// Numbers x with lo <= x <= hi (strict where a bound is exclusive). Non-negative values are
// written without '-', non-positive ones with it ("-0" is zero).
Re decimal_range(const std::optional<Bound>& lo, const std::optional<Bound>& hi, bool integral) {
  if (lo && hi) {
    int c = compare(lo->value, hi->value);
    if (c > 0 || (c == 0 && !(lo->inclusive && hi->inclusive))) return never();
  }
  std::vector<std::string> alts;
  if (!hi || (!hi->value.negative && (!hi->value.is_zero() || hi->inclusive))) {
    Decimal lower;
    bool lower_inclusive = true;
    if (lo && !lo->value.negative) lower = lo->value, lower_inclusive = lo->inclusive;
    std::optional<Decimal> upper;
    if (hi) upper = hi->value;
    for (auto& s : nonnegative_range(lower, lower_inclusive, upper, hi ? hi->inclusive : true, integral))
      alts.push_back(s);
  }
  // -y with y >= 0: x >= lo <=> y <= |lo|, x <= hi <=> y >= |hi| (when hi <= 0).
  if (!lo || lo->value.negative || (lo->value.is_zero() && lo->inclusive)) {
    Decimal lower;
    bool lower_inclusive = true;
    if (hi && (hi->value.negative || hi->value.is_zero())) lower = hi->value, lower_inclusive = hi->inclusive;
    lower.negative = false;
    std::optional<Decimal> upper;
    bool upper_inclusive = true;
    if (lo) upper = lo->value, upper->negative = false, upper_inclusive = lo->inclusive;
    auto negative = nonnegative_range(lower, lower_inclusive, upper, upper_inclusive, integral);
    if (!negative.empty()) alts.push_back("-" + join_alternatives(negative));
  }
  if (alts.empty()) return never();
  return Re{join_alternatives(alts)};
}

struct Bounds {
  std::optional<Bound> lo, hi;
};

// The range regex nests a group per digit of a bound, so bound expansions are limited: an outer
// bound (an upper bound above 10^100, a lower bound below -10^100) is dropped, another refused.
constexpr std::size_t kMaxBoundDigits = 100;

// The bounds of a number or integer schema; the tighter of minimum/exclusiveMinimum (and of the
// maxima) wins.
Bounds bounds(const Json& schema) {
  Bounds out;
  struct Keyword {
    const char* name;
    bool lower, inclusive;
  };
  for (auto [key, lower, inclusive] : {Keyword{"minimum", true, true}, Keyword{"exclusiveMinimum", true, false},
                                       Keyword{"maximum", false, true}, Keyword{"exclusiveMaximum", false, false}}) {
    auto v = schema.find(key);
    if (!v) continue;
    if (v->is_bool()) SchemaCompiler::fail(*v, "boolean exclusiveMinimum/exclusiveMaximum (draft 4) is unsupported");
    double d = v->number();  // fails on a non-number
    std::int64_t i;
    std::uint64_t u;
    std::string text;
    if (!v->raw().get_int64().get(i)) {
      text = std::to_string(i);
    } else if (!v->raw().get_uint64().get(u)) {
      text = std::to_string(u);
    } else {
      char buf[64];
      text.assign(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);  // shortest round trip
    }
    Bound b{parse_decimal(text), inclusive};
    if (b.value.whole.size() > kMaxBoundDigits && b.value.negative == lower)
      continue;  // beyond every number written in full: dropped
    if (b.value.whole.size() > kMaxBoundDigits || b.value.fraction.size() > kMaxBoundDigits)
      SchemaCompiler::fail(*v, "bound " + text + " is unsupported: exact ranges take bounds of at most " +
                                   std::to_string(kMaxBoundDigits) + " digits before and after the point");
    auto& slot = lower ? out.lo : out.hi;
    if (!slot) {
      slot = b;
      continue;
    }
    int c = compare(b.value, slot->value);
    if (lower ? c > 0 : c < 0)
      slot = b;
    else if (c == 0 && !b.inclusive)
      slot->inclusive = false;
  }
  return out;
}

// ---- strings ----------------------------------------------------------------------------------

// One JSON string character, as written inside the quotes: an unescaped code point (not '"',
// '\' or a control character), a short escape, \uXXXX of a non-surrogate, or a surrogate pair.
constexpr const char* kHex = "[0-9A-Fa-f]";
std::string json_char(bool python) {
  std::string h = kHex;
  return std::string("(?:[^\"\\\\\\x00-\\x1F]|\\\\(?:[\"\\\\") + (python ? "" : "/") + "bfnrt]|u(?:[0-9A-Ca-cEeFf]" + h +
         "{3}|[Dd][0-7]" + h + "{2}|[Dd][89ABab]" + h + "{2}\\\\u[Dd][C-Fc-f]" + h + "{2})))";
}

// Canonical JSON string body for `s` (what JSON.stringify / json.dumps(ensure_ascii=False) write).
std::string json_escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) append_json_char(out, c);
  return out;
}

// Formats (docs/schema.md lists the exact subsets of RFC 3339 / RFC 5322 accepted).
const std::string kYear = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)";
const std::string kLeapYear = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][48]|[13579][26]|[2468]0)00)";
const std::string kDate = "(?:" + kYear +
                          "-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-"
                          "(?:0[1-9]|1[0-9]|2[0-8]))|" +
                          kLeapYear + "-02-29)";
const std::string kTime = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";
const std::string kUuid = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}";
const std::string kAtom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const std::string kLabel = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const std::string kEmail = kAtom + "(?:\\." + kAtom + ")*@" + kLabel + "(?:\\." + kLabel + ")*";

// A JSON Schema "pattern" (ECMA-262 syntax, unanchored search) as a regex over the string's
// JSON text. Literal characters match their unescaped form; '.', negated classes and \D \W \S
// never match a character JSON must escape. Refuses lookaround, backreferences, lazy and
// possessive quantifiers, and anchors other than a leading ^ and a trailing $.
std::string translate_pattern(const Json& at, std::string_view p, const std::string& any_char) {
  bool start = !p.empty() && p.front() == '^';
  bool end = false;
  if (!p.empty() && p.back() == '$') {
    std::size_t backslashes = 0;
    for (std::size_t i = p.size() - 1; i > 0 && p[i - 1] == '\\'; --i) ++backslashes;
    end = backslashes % 2 == 0;
  }
  std::string_view body = p.substr(start, p.size() - start - end);
  const std::string plain = "[^\"\\\\\\x00-\\x1F\\x{2028}\\x{2029}]";
  auto refuse = [&](const std::string& what) { SchemaCompiler::fail(at, "pattern uses " + what + ", which is unsupported"); };
  std::string out;
  int depth = 0;
  bool top_level_bar = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    auto lazy_check = [&] {
      if (i + 1 < body.size() && (body[i + 1] == '?' || body[i + 1] == '+')) refuse("a lazy or possessive quantifier");
    };
    switch (c) {
      case '\\': {
        if (++i >= body.size()) refuse("a trailing backslash");
        char e = body[i];
        if (e == 'd') out += "[0-9]";
        else if (e == 'D') out += "[^0-9\"\\\\\\x00-\\x1F]";
        else if (e == 'w') out += "[A-Za-z0-9_]";
        else if (e == 'W') out += "[^A-Za-z0-9_\"\\\\\\x00-\\x1F]";
        else if (e == 's') out += "(?: |\\\\[tnrf])";
        else if (e == 'S') out += "[^ \"\\\\\\x00-\\x1F]";
        else if (e == 'n') out += "\\\\n";
        else if (e == 't') out += "\\\\t";
        else if (e == 'r') out += "\\\\r";
        else if (e == 'f') out += "\\\\f";
        else if (e == '\\') out += "\\\\\\\\";
        else if (e == '"') out += "\\\\\"";
        else if (e == 'b' || e == 'B') refuse("a word boundary (\\b)");
        else if ((e >= '1' && e <= '9') || e == 'k') refuse("a backreference");
        else if (std::isalnum(static_cast<unsigned char>(e)) && e != 'p' && e != 'P') refuse(std::string("the escape \\") + e);
        else out += std::string("\\") + e;
        break;
      }
      case '.': out += plain; break;
      case '"': out += "\\\\\""; break;
      case '[': {
        std::string cls = "[";
        std::size_t j = i + 1;
        if (j < body.size() && body[j] == '^') cls += "^\"\\\\\\x00-\\x1F", ++j;
        bool closed = false;
        for (; j < body.size(); ++j) {
          char k = body[j];
          if (k == ']') { closed = true; break; }
          if (k == '\\' && j + 1 < body.size()) {
            char e = body[++j];
            if (e == 'd' || e == 'w') cls += std::string("\\") + e;
            else if (e == 's') cls += ' ';
            else if (e == 'D' || e == 'W' || e == 'S' || e == 'b' || std::isalpha(static_cast<unsigned char>(e)))
              refuse(std::string("\\") + e + " inside a class");
            else if (e != '"' && e != '\\') cls += std::string("\\") + e;  // '"' and '\' need JSON escapes: dropped
          } else if (k == '"') {
            // dropped: an unescaped quote never appears in a JSON string
          } else if (static_cast<unsigned char>(k) < 0x20) {
            refuse("a control character");
          } else {
            cls += k;
          }
        }
        if (!closed) refuse("an unterminated class");
        out += cls + "]";
        i = j;
        break;
      }
      case '(':
        if (i + 1 < body.size() && body[i + 1] == '?') {
          if (i + 2 < body.size() && body[i + 2] == ':') {
            i += 2;
          } else if (i + 2 < body.size() && body[i + 2] == '<' && i + 3 < body.size() && body[i + 3] != '=' &&
                     body[i + 3] != '!') {
            std::size_t close = body.find('>', i);
            if (close == std::string_view::npos) refuse("an unterminated group name");
            i = close;
          } else {
            refuse("a lookaround or group option");
          }
        }
        out += "(?:";
        ++depth;
        break;
      case ')':
        --depth;
        out += ')';
        break;
      case '*': case '+': case '?': case '}':
        out += c;
        lazy_check();
        break;
      case '|':
        if (depth == 0) top_level_bar = true;
        out += c;
        break;
      case '^': case '$': refuse("an anchor that is not at the start or the end"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) refuse("a control character");
        out += c;
    }
  }
  if (top_level_bar && (start || end)) refuse("anchors with a top-level '|'");
  // The translation passes quantifiers, groups and class ranges on as written: a pattern that is
  // not a regex (an unbalanced parenthesis, {2,0}, [z-a]) is refused here, not handed on.
  int error = 0;
  PCRE2_SIZE offset = 0;
  if (pcre2_code* code =
          pcre2_compile(reinterpret_cast<PCRE2_SPTR>(out.data()), out.size(), PCRE2_UTF, &error, &offset, nullptr)) {
    pcre2_code_free(code);
  } else {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    SchemaCompiler::fail(
        at, "pattern is not a valid regular expression (" + std::string(reinterpret_cast<char*>(message)) + ")");
  }
  return (start ? "" : any_char + "*") + group(out) + (end ? "" : any_char + "*");
}

// Strings (raw, not JSON) that never contain `word`, whose first character occurs in it once:
// each occurrence of that character is followed by a proper prefix of the rest and then a
// character that breaks it (or by another start, or the end).
std::string not_containing(std::string_view word) {
  std::string first = regex_literal(word.substr(0, 1));
  std::string first_class = word[0] == ']' || word[0] == '\\' || word[0] == '^' || word[0] == '-'
                                ? std::string("\\") + word[0] : std::string(1, word[0]);
  // partial: word[0] followed by a proper prefix of word[1..len-1)
  std::string partial;
  for (std::size_t k = word.size() - 1; k-- > 1;) partial = group(regex_literal(word.substr(k, 1)) + partial) + "?";
  partial = first + partial;
  // broken: word[0] word[1..j) then a character other than word[j] and word[0]
  std::string broken;
  for (std::size_t j = word.size() - 1; j >= 1; --j) {
    std::string next = word[j] == ']' || word[j] == '\\' || word[j] == '^' || word[j] == '-'
                           ? std::string("\\") + word[j] : std::string(1, word[j]);
    std::string alt = "[^" + first_class + next + "]";
    broken = broken.empty() ? alt : group(alt + "|" + regex_literal(word.substr(j, 1)) + broken);
  }
  return "(?:[^" + first_class + "]|" + group(partial) + "*" + first + broken + ")*" + group(partial) + "*";
}

}  // namespace

bool is_string_typed(const Json& schema) {
  if (!schema.is_object()) return false;
  auto t = schema.find("type");
  return t && t->is_string() && t->str() == "string";
}

std::string regex_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}/-").find(c) != std::string_view::npos) out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

void SchemaCompiler::fail(const Json& at, const std::string& message) { throw SchemaError(at.path(), message); }

SchemaCompiler::SchemaCompiler(Json root, SchemaRegexOptions options, Dialect dialect)
    : root_(std::move(root)), options_(options), dialect_(dialect) {
  if (options_.max_depth < 0) options_.max_depth = 0;
}

std::string SchemaCompiler::string_char() const { return json_char(dialect_ == Dialect::python); }

namespace {
constexpr std::string_view kGemma4Quote = "<|\"|>";
}

std::string SchemaCompiler::key(std::string_view name) const {
  if (dialect_ == Dialect::gemma4) {
    // Bare as the template writes them, unless the name would not read back bare (Gemma 4's
    // parser ends a bare key at one of :,{}[] and trims whitespace): then quoted, which it reads too.
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    bool bare = !name.empty() && name.find_first_of(":,{}[]") == std::string_view::npos && name[0] != '<' &&
                !space(name.front()) && !space(name.back());
    if (bare) return regex_literal(name) + colon();
    if (name.find(kGemma4Quote) != std::string_view::npos)
      throw SchemaError("$", "the name \"" + std::string(name) + "\" holds <|\"|>, which Gemma 4 cannot write in a key");
    return regex_literal(std::string(kGemma4Quote) + std::string(name) + std::string(kGemma4Quote)) + colon();
  }
  return "\"" + regex_literal(json_escape(name)) + "\"" + colon();
}

Re SchemaCompiler::value(const Json& schema) { return value_at_depth(schema); }

Json SchemaCompiler::resolve(const Json& holder) {
  Json ref = holder.get("$ref");
  std::string_view r = ref.str();
  if (r.empty() || r[0] != '#') fail(ref, "only local references (\"#...\") are supported");
  if (r.size() > 1 && r[1] != '/') fail(ref, "anchor references are unsupported; use \"#/$defs/NAME\"");
  Json at = root_;
  std::size_t pos = 1;
  while (pos < r.size()) {
    std::size_t next = r.find('/', pos + 1);
    std::string token(r.substr(pos + 1, (next == std::string_view::npos ? r.size() : next) - pos - 1));
    std::string key;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size()) key += token[++i] == '1' ? '/' : '~';
      else if (token[i] == '%') fail(ref, "percent-encoded references are unsupported");
      else key += token[i];
    }
    if (at.is_array()) {
      auto items = at.array();
      std::size_t index = std::strtoull(key.c_str(), nullptr, 10);
      if (index >= items.size()) fail(ref, "reference \"" + std::string(r) + "\" does not resolve");
      at = items[index];
    } else if (at.is_object() && at.find(key)) {
      at = *at.find(key);
    } else {
      fail(ref, "reference \"" + std::string(r) + "\" does not resolve");
    }
    pos = next == std::string_view::npos ? r.size() : next;
  }
  return at;
}

Re SchemaCompiler::value_at_depth(const Json& schema) {
  if (schema.is_bool()) return schema.boolean() ? any(options_.any_depth) : never();
  if (!schema.is_object()) fail(schema, "a schema must be an object or a boolean");
  auto keys = constraint_keywords(schema);
  if (keys.empty()) return any(options_.any_depth);
  auto has = [&](std::string_view k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };

  if (has("$ref")) {
    if (keys.size() > 1) fail(schema, "\"$ref\" beside other constraint keywords is unsupported");
    std::string ref(schema.get("$ref").str());
    int& active = active_refs_[ref];
    if (active >= options_.max_depth) return never();  // recursion cut here (docs/schema.md)
    Json target = resolve(schema);
    ++active;
    Re out = value_at_depth(target);
    --active_refs_[ref];
    return out;
  }
  if (has("enum") || has("const")) return enumeration(schema);
  for (const char* combinator : {"anyOf", "oneOf"}) {
    if (!has(combinator)) continue;
    if (keys.size() > 1)
      fail(schema, std::string("\"") + combinator + "\" beside other constraint keywords is unsupported");
    std::vector<Re> alts;
    for (auto& sub : schema.get(combinator).array()) alts.push_back(value_at_depth(sub));
    return alternation(alts);
  }
  if (has("allOf")) {
    auto parts = schema.get("allOf").array();
    if (parts.size() == 1 && keys.size() == 1) return value_at_depth(parts[0]);
    return object(schema);  // merged (object() checks the parts are objects)
  }

  std::vector<std::string> types;
  if (auto t = schema.find("type")) {
    if (t->is_string()) {
      types.emplace_back(t->str());
    } else {
      for (auto& e : t->array()) types.emplace_back(e.str());
    }
  } else {
    types = {"null", "boolean", "object", "array", "string", "number"};
  }
  std::vector<Re> alts;
  for (auto& type : types) alts.push_back(typed(schema, type));
  return alternation(alts);
}

Re SchemaCompiler::typed(const Json& schema, std::string_view type) {
  bool python = dialect_ == Dialect::python;
  if (type == "null") return Re{python ? "None" : "null"};
  if (type == "boolean") return Re{python ? "(?:True|False)" : "(?:true|false)"};
  if (type == "object") return object(schema);
  if (type == "array") return array(schema);
  if (type == "string") {
    if (dialect_ != Dialect::gemma4) return string(schema, false, "");
    Re raw = raw_string(schema, std::string(kGemma4Quote));
    if (raw.never) return raw;
    std::string quote = regex_literal(kGemma4Quote);
    return Re{quote + raw.s + quote};
  }
  if (type == "integer") return integer(schema);
  if (type == "number") return number(schema);
  fail(schema.get("type"), "unknown type \"" + std::string(type) + "\"");
}

Re SchemaCompiler::enumeration(const Json& schema) {
  std::optional<std::set<std::string>> types;
  for (auto& [key, value] : schema.members()) {
    if (is_annotation(key) || key == "enum" || key == "const") continue;
    if (key != "type") fail(value, "\"" + std::string(key) + "\" beside \"enum\" or \"const\" is unsupported");
    types.emplace();
    if (value.is_string()) types->insert(std::string(value.str()));
    else for (auto& t : value.array()) types->insert(std::string(t.str()));
  }
  std::vector<Json> values;
  for (auto& [key, value] : schema.members()) {
    if (key == "const") values.push_back(value);
    if (key == "enum") values = value.array();
  }
  if (schema.find("const") && schema.find("enum")) fail(schema, "both \"enum\" and \"const\" is unsupported");
  std::vector<Re> alts;
  for (auto& v : values) {
    if (types) {
      std::string t = v.is_null() ? "null" : v.is_bool() ? "boolean" : v.is_string() ? "string" : v.is_array() ? "array"
                      : v.is_object() ? "object" : "number";
      bool integral = v.is_number() && std::floor(v.number()) == v.number();
      if (!types->count(t) && !(t == "number" && integral && types->count("integer"))) continue;
    }
    alts.push_back(literal(v));
  }
  return alternation(alts);
}

Re SchemaCompiler::literal(const Json& v) {
  bool python = dialect_ == Dialect::python;
  if (v.is_null()) return Re{python ? "None" : "null"};
  if (v.is_bool()) return Re{v.boolean() ? (python ? "True" : "true") : (python ? "False" : "false")};
  if (v.is_string()) {
    if (dialect_ == Dialect::gemma4) return Re{regex_literal(std::string(kGemma4Quote) + std::string(v.str()) + std::string(kGemma4Quote))};
    return Re{"\"" + regex_literal(json_escape(v.str())) + "\""};
  }
  if (v.is_number()) {
    std::int64_t i;
    if (!v.raw().get_int64().get(i)) return Re{regex_literal(std::to_string(i))};
    double d = v.number();
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string text(buf, r.ptr);
    if (std::floor(d) == d && std::abs(d) < 1e16) text = std::to_string(static_cast<std::int64_t>(d)) + "(?:\\.0)?";
    else text = regex_literal(text);
    return Re{text};
  }
  if (v.is_array()) {
    std::string out = "\\[";
    bool first = true;
    for (auto& e : v.array()) {
      out += (first ? "" : comma()) + literal(e).s;
      first = false;
    }
    return Re{out + "\\]"};
  }
  std::string out = "\\{";
  bool first = true;
  for (auto& [key, e] : v.members()) {
    out += (first ? "" : comma()) + this->key(key) + literal(e).s;
    first = false;
  }
  return Re{out + "\\}"};
}

Re SchemaCompiler::any(int depth) {
  if (auto it = any_cache_.find(depth); it != any_cache_.end()) return it->second;
  bool python = dialect_ == Dialect::python;
  bool gemma4 = dialect_ == Dialect::gemma4;
  std::string quote = gemma4 ? regex_literal(kGemma4Quote) : "\"";
  std::string text = gemma4 ? not_containing(kGemma4Quote) : string_char() + "*";
  std::string scalar = std::string("(?:") + (python ? "None|True|False" : "null|true|false") + "|" + quote + text + quote +
                       "|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";
  if (depth <= 0) return any_cache_[depth] = Re{scalar + ")"};
  std::string inner = any(depth - 1).s;
  std::string key = (gemma4 ? std::string("[A-Za-z_][A-Za-z0-9_]*") : "\"" + string_char() + "*\"") + colon();
  std::string out = scalar + "|\\[(?:" + inner + "(?:" + comma() + inner + ")*)?\\]|\\{(?:" + key + inner + "(?:" +
                    comma() + key + inner + ")*)?\\})";
  return any_cache_[depth] = Re{out};
}

// ---- objects ----------------------------------------------------------------------------------

SchemaCompiler::ObjectShape SchemaCompiler::shape(const Json& schema) {
  ObjectShape out;
  std::vector<Json> parts{schema};
  std::set<std::string> required;
  auto add_required = [&](const Json& part) {
    if (auto r = part.find("required"))
      for (auto& name : r->array()) required.insert(std::string(name.str()));
  };
  if (auto all = schema.find("allOf")) {
    for (auto& part : all->array()) {
      Json p = part;
      while (p.is_object() && p.find("$ref")) p = resolve(p);
      if (!p.is_object()) fail(part, "allOf parts must be object schemas");
      for (auto key : constraint_keywords(p)) {
        if (key == "type" && p.get("type").is_string() && p.get("type").str() == "object") continue;
        if (key == "additionalProperties" && p.get(key).is_bool() && p.get(key).boolean()) continue;
        if (key != "properties" && key != "required")
          fail(p.get(key), "\"" + std::string(key) + "\" in an allOf part is unsupported (only object properties and required merge)");
      }
      parts.push_back(p);
    }
  }
  std::set<std::string> seen;
  for (auto& part : parts) {
    add_required(part);
    if (auto props = part.find("properties")) {
      for (auto& [name, sub] : props->members()) {
        if (!seen.insert(std::string(name)).second) fail(sub, "property \"" + std::string(name) + "\" is defined twice in allOf");
        out.members.push_back(Member{std::string(name), sub, false});
      }
    }
  }
  for (auto& m : out.members) m.required = required.count(m.name) > 0;
  // Required names without a property schema come after the declared ones, in order, with the
  // additionalProperties schema (absent: any value; false: no valid object).
  auto extra_schema = schema.find("additionalProperties");
  for (auto& part : parts)
    if (auto r = part.find("required"))
      for (auto& name : r->array())
        if (seen.insert(std::string(name.str())).second)
          out.members.push_back(Member{std::string(name.str()), extra_schema, true});
  auto extra = schema.find("additionalProperties");
  if (!extra) {
    out.extras_allowed = !options_.strict;
  } else if (extra->is_bool()) {
    out.extras_allowed = extra->boolean();
  } else {
    out.extras_allowed = true;
    out.extras = *extra;
  }
  return out;
}

Re SchemaCompiler::member_list(const std::vector<Re>& members, const std::vector<bool>& required, const Re& extra,
                               const std::string& sep) {
  std::vector<std::string> m;
  std::vector<bool> req;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].never) {
      if (required[i]) return never();
      continue;
    }
    m.push_back(members[i].s);
    req.push_back(required[i]);
  }
  // P: a non-empty run of the optional members before the first required one, separated, in
  // order; P_k = (P_{k-1}(sep m_k)? | m_k) keeps the regex linear in the member count.
  std::string p;
  std::size_t i = 0;
  for (; i < m.size() && !req[i]; ++i) p = p.empty() ? m[i] : group(p + group(sep + m[i]) + "?|" + m[i]);
  std::string extras = extra.never ? "" : group(sep + extra.s) + "*";
  if (i < m.size()) {
    std::string out = (p.empty() ? "" : group(p + sep) + "?") + m[i];
    for (std::size_t j = i + 1; j < m.size(); ++j) out += req[j] ? sep + m[j] : group(sep + m[j]) + "?";
    return Re{out + extras};
  }
  std::string body = p;
  if (!extra.never) body = p.empty() ? extra.s + extras : group(p + extras + "|" + extra.s + extras);
  return Re{body.empty() ? "" : group(body) + "?"};
}

Re SchemaCompiler::object(const Json& schema) {
  MemberStyle style{nullptr, "", comma(), ""};
  Re inner = members(schema, style);
  if (inner.never) return inner;
  return Re{"\\{" + inner.s + "\\}"};
}

Re SchemaCompiler::members(const Json& schema, const MemberStyle& style) {
  ObjectShape sh = shape(schema);
  if (dialect_ == Dialect::gemma4)  // Jinja2's dictsort: by name, case-insensitively
    std::stable_sort(sh.members.begin(), sh.members.end(), [](const Member& a, const Member& b) {
      auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        return s;
      };
      return lower(a.name) < lower(b.name);
    });
  std::vector<Re> values;
  std::vector<bool> required;
  std::vector<std::string> names;
  for (auto& m : sh.members) {
    Re v;
    if (!m.schema) {
      v = any(options_.any_depth);
    } else if (!style.raw_terminator.empty() && is_string_typed(*m.schema)) {
      v = raw_string(*m.schema, style.raw_terminator);
    } else {
      v = value_at_depth(*m.schema);
    }
    if (!v.never) v.s = (style.before ? style.before(m.name) : key(m.name)) + v.s + style.after;
    values.push_back(v);
    required.push_back(m.required);
    names.push_back(m.name);
  }
  Re extra = never();
  if (sh.extras_allowed && style.separator == comma() && style.raw_terminator.empty() &&
      dialect_ == Dialect::json) {
    // A name other than the declared ones (trie complement), then any value.
    Re v = sh.extras ? value_at_depth(*sh.extras) : any(options_.any_depth);
    if (!v.never) {
      // The trie's edges are whole characters: a class or a literal never holds part of one.
      struct Node { std::map<std::string, int> next; bool end = false; };
      std::vector<Node> trie(1);
      for (auto& n : names) {
        std::string e = json_escape(n);
        int at = 0;
        for (std::size_t i = 0; i < e.size();) {
          std::size_t length = std::min<std::size_t>(utf8_length(static_cast<unsigned char>(e[i])), e.size() - i);
          std::string c = e.substr(i, length);
          i += length;
          auto it = trie[at].next.find(c);
          if (it == trie[at].next.end()) {
            trie[at].next[c] = static_cast<int>(trie.size());
            trie.emplace_back();
            at = static_cast<int>(trie.size()) - 1;
          } else {
            at = it->second;
          }
        }
        trie[at].end = true;
      }
      std::string any_char = string_char();
      // The name characters after each trie node such that the name is not a declared one: a
      // group of alternatives, "" (when no name ends there), each next character followed by its
      // node's group, and any other character followed by anything. Escapes (other than those the
      // names themselves use) are not allowed here, so "\u0061" cannot spell a declared "a"
      // (docs/schema.md). Written depth first into one string without recursion: a name may be
      // long, and each of its characters nests one group deeper.
      std::string key = "\"";
      if (names.empty()) key += any_char + "*";
      struct Open {
        int node;
        std::map<std::string, int>::const_iterator next;  // the next child to write
        int alternatives;                                 // written so far
        std::string last;                                 // the other-character alternative
      };
      std::vector<Open> open;
      auto enter = [&](int at) {
        std::string excluded = "\"\\\\\\x00-\\x1F";
        for (auto& [c, child] : trie[at].next)
          if (c != "\\") excluded += regex_literal(c);
        key += "(?:";
        open.push_back({at, trie[at].next.begin(), trie[at].end ? 0 : 1, "[^" + excluded + "][^\"\\\\\\x00-\\x1F]*"});
      };
      if (!names.empty()) enter(0);
      while (!open.empty()) {
        Open& o = open.back();
        if (o.alternatives++) key += '|';
        if (o.next == trie[o.node].next.end()) {
          key += o.last + ")";
          open.pop_back();
        } else {
          auto [c, child] = *o.next++;
          key += regex_literal(c);
          enter(child);
        }
      }
      key += "\"";
      extra = Re{key + colon() + v.s};
    }
  }
  return member_list(values, required, extra, style.separator);
}

// ---- arrays -----------------------------------------------------------------------------------

Re SchemaCompiler::array(const Json& schema) {
  std::vector<Re> prefix;
  std::optional<Json> items_schema;
  bool items_given = false;
  if (auto p = schema.find("prefixItems")) {
    for (auto& e : p->array()) prefix.push_back(value_at_depth(e));
    if (auto it = schema.find("items")) items_schema = *it, items_given = true;
  } else if (auto it = schema.find("items")) {
    if (it->is_array()) {  // draft 4-7 tuple form
      for (auto& e : it->array()) prefix.push_back(value_at_depth(e));
      if (auto add = schema.find("additionalItems")) items_schema = *add, items_given = true;
    } else {
      items_schema = *it, items_given = true;
    }
  }
  Re item = items_given ? value_at_depth(*items_schema) : any(options_.any_depth);
  std::uint64_t min = count_keyword(schema, "minItems").value_or(0);
  std::optional<std::uint64_t> max = count_keyword(schema, "maxItems");
  // A never-matching prefix item caps the length before it.
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (prefix[i].never) {
      prefix.resize(i);
      item = never();
      break;
    }
  if (item.never) max = std::min<std::uint64_t>(max.value_or(prefix.size()), prefix.size());
  if (max && min > *max) return never();
  // tail(i): the elements after the first i, each preceded by a comma.
  std::function<std::string(std::size_t)> tail = [&](std::size_t i) -> std::string {
    if (max && i >= *max) return "";
    if (i < prefix.size()) {
      std::string more = group(comma() + prefix[i].s + tail(i + 1));
      return i >= min ? more + "?" : more;
    }
    std::uint64_t lo = min > i ? min - i : 0;
    std::optional<std::uint64_t> hi;
    if (max) hi = *max - i;
    return group(comma() + item.s) + repeat(lo, hi);
  };
  std::string body;
  if (max && *max == 0) return Re{"\\[\\]"};
  if (!prefix.empty()) body = prefix[0].s + tail(1);
  else body = item.s + tail(1);
  return Re{"\\[" + (min == 0 ? group(body) + "?" : body) + "\\]"};
}

// ---- strings and numbers ------------------------------------------------------------------------

Re SchemaCompiler::string(const Json& schema, bool raw, const std::string& terminator) {
  auto min = count_keyword(schema, "minLength");
  auto max = count_keyword(schema, "maxLength");
  auto pattern = schema.find("pattern");
  auto format = schema.find("format");
  std::string ch = string_char();
  if ((pattern || format) && (min || max))
    fail(schema, "\"minLength\"/\"maxLength\" together with \"pattern\" or \"format\" is unsupported");
  if (pattern && format) fail(schema, "\"pattern\" together with \"format\" is unsupported");
  std::string body;
  if (format) {
    std::string_view f = format->str();
    if (f == "date") body = kDate;
    else if (f == "time") body = kTime;
    else if (f == "date-time") body = kDate + "T" + kTime;
    else if (f == "uuid") body = kUuid;
    else if (f == "email") body = kEmail;
    else fail(*format, "unsupported format \"" + std::string(f) + "\" (supported: date, time, date-time, uuid, email)");
  } else if (pattern) {
    body = translate_pattern(*pattern, pattern->str(), ch);
  } else if (raw) {
    if (min || max) body = "[^<]" + repeat(min.value_or(0), max);
    else body = not_containing(terminator);
  } else {
    if (max && min.value_or(0) > *max) return never();
    body = ch + repeat(min.value_or(0), max);
  }
  return Re{raw ? body : "\"" + body + "\""};
}

Re SchemaCompiler::raw_string(const Json& schema, const std::string& terminator) {
  if (!schema.find("enum") && !schema.find("const")) return string(schema, true, terminator);
  std::vector<Re> alts;
  for (auto& [key, value] : schema.members()) {
    if (key == "const" && value.is_string()) alts.push_back(Re{regex_literal(value.str())});
    if (key == "enum")
      for (auto& v : value.array())
        if (v.is_string()) alts.push_back(Re{regex_literal(v.str())});
  }
  return alternation(alts);
}

Re SchemaCompiler::integer(const Json& schema) {
  Bounds b = bounds(schema);
  if (!b.lo && !b.hi) return Re{"-?(?:0|[1-9][0-9]*)"};
  return decimal_range(b.lo, b.hi, true);
}

Re SchemaCompiler::number(const Json& schema) {
  Bounds b = bounds(schema);
  if (!b.lo && !b.hi) return Re{"-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"};
  return decimal_range(b.lo, b.hi, false);  // no exponent within bounds (docs/schema.md)
}

// ---- public entry point ---------------------------------------------------------------------

// Runs `body` turning the JSON reader's LoadError (malformed JSON, a keyword of the wrong JSON
// type) into SchemaError with the same path.
template <class F>
auto as_schema_errors(F&& body) {
  try {
    return body();
  } catch (const LoadError& e) {
    std::string what = e.what();
    std::string prefix = e.file() + ": at " + (e.json_path().empty() ? "$" : e.json_path()) + ": ";
    if (what.starts_with(prefix)) what = what.substr(prefix.size());
    throw SchemaError(e.json_path(), what);
  }
}

}  // namespace textedge::detail

namespace textedge {

std::string json_schema_regex(const std::string& schema_json, const SchemaRegexOptions& options) {
  return detail::as_schema_errors([&] {
    detail::JsonDocument doc(std::string_view(schema_json), "schema");
    detail::SchemaCompiler compiler(doc.root(), options);
    detail::Re re = compiler.value(doc.root());
    if (re.never) throw SchemaError("$", "no value satisfies this schema");
    return re.s;
  });
}

}  // namespace textedge
