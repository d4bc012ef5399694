// Python operator semantics: arithmetic with int64 overflow errors, comparisons, membership,
// slicing, iteration, and the % and str.format string formatting.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "chat/jinja/code_points.hpp"
#include "chat/jinja/objects.hpp"
#include "chat/jinja/runtime.hpp"

namespace textedge::detail::jinja {

namespace {

constexpr std::size_t kMaxBuilt = std::size_t{1} << 28;  // a string or list built by * beyond this fails

[[noreturn]] void undefined_error(const Value& v) {
  if (const std::string* m = v.unsafe_message()) raise("SecurityError", *m);
  if (const std::string* n = v.undefined_name()) raise("UndefinedError", "'" + *n + "' is undefined");
  raise("UndefinedError", "'Undefined' is undefined");
}

[[noreturn]] void unsupported(const char* op, const Value& a, const Value& b) {
  if (a.is_undefined()) undefined_error(a);
  if (b.is_undefined()) undefined_error(b);
  raise("TypeError", std::string("unsupported operand type(s) for ") + op + ": '" + a.type_name() + "' and '" +
                         b.type_name() + "'");
}

[[noreturn]] void overflow() { raise("OverflowError", "integer result does not fit in 64 bits"); }

Value repeat(const Value& seq, std::int64_t n) {
  if (n < 0) n = 0;
  if (seq.is_string()) {
    std::string_view s = seq.str();
    if (!s.empty() && static_cast<std::uint64_t>(n) > kMaxBuilt / s.size()) raise("MemoryError", "string too large");
    std::string out;
    out.reserve(s.size() * static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) out += s;
    return Value(std::move(out));
  }
  auto items = seq.items();
  if (!items.empty() && static_cast<std::uint64_t>(n) > kMaxBuilt / 16 / items.size()) raise("MemoryError", "list too large");
  std::vector<Value> out;
  out.reserve(items.size() * static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
  return Value::list(std::move(out), seq.is_tuple());
}

double python_fmod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(0.0, b);
  }
  return m;
}

}  // namespace

Value op_add(const Value& a, const Value& b) {
  if (a.is_integral() && b.is_integral()) {
    std::int64_t r;
    if (__builtin_add_overflow(a.as_int(), b.as_int(), &r)) overflow();
    return Value(r);
  }
  if (a.is_number() && b.is_number()) return Value(a.as_number() + b.as_number());
  if (a.is_string() && b.is_string()) {
    if (a.str().size() + b.str().size() > kMaxBuilt) raise("MemoryError", "string too large");
    if (a.is_markup() || b.is_markup()) {  // Markup + str escapes the plain side
      std::string s = a.is_markup() ? std::string(a.str()) : html_escape(a.str());
      s += b.is_markup() ? b.str() : html_escape(b.str());
      return Value::markup(std::move(s));
    }
    std::string s(a.str());
    s += b.str();
    return Value(std::move(s));
  }
  if (a.is_list() && b.is_list() && a.is_tuple() == b.is_tuple()) {
    if (a.items().size() + b.items().size() > kMaxBuilt / 16) raise("MemoryError", "list too large");
    std::vector<Value> v(a.items().begin(), a.items().end());
    v.insert(v.end(), b.items().begin(), b.items().end());
    return Value::list(std::move(v), a.is_tuple());
  }
  unsupported("+", a, b);
}

Value op_sub(const Value& a, const Value& b) {
  if (a.is_integral() && b.is_integral()) {
    std::int64_t r;
    if (__builtin_sub_overflow(a.as_int(), b.as_int(), &r)) overflow();
    return Value(r);
  }
  if (a.is_number() && b.is_number()) return Value(a.as_number() - b.as_number());
  unsupported("-", a, b);
}

Value op_mul(const Value& a, const Value& b) {
  if (a.is_integral() && b.is_integral()) {
    std::int64_t r;
    if (__builtin_mul_overflow(a.as_int(), b.as_int(), &r)) overflow();
    return Value(r);
  }
  if (a.is_number() && b.is_number()) return Value(a.as_number() * b.as_number());
  if ((a.is_string() || a.is_list()) && b.is_integral()) return repeat(a, b.as_int());
  if ((b.is_string() || b.is_list()) && a.is_integral()) return repeat(b, a.as_int());
  unsupported("*", a, b);
}

Value op_div(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (b.as_number() == 0) raise("ZeroDivisionError", "division by zero");
    return Value(a.as_number() / b.as_number());
  }
  unsupported("/", a, b);
}

Value op_floordiv(const Value& a, const Value& b) {
  if (a.is_integral() && b.is_integral()) {
    std::int64_t x = a.as_int(), y = b.as_int();
    if (y == 0) raise("ZeroDivisionError", "integer division or modulo by zero");
    if (x == std::numeric_limits<std::int64_t>::min() && y == -1) overflow();
    std::int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
    return Value(q);
  }
  if (a.is_number() && b.is_number()) {
    double x = a.as_number(), y = b.as_number();
    if (y == 0) raise("ZeroDivisionError", "float floor division by zero");
    double m = python_fmod(x, y);
    double d = (x - m) / y;
    double f = std::floor(d);
    if (d - f > 0.5) f += 1;
    if (d == 0) f = std::copysign(0.0, x / y);
    return Value(f);
  }
  unsupported("//", a, b);
}

Value op_mod(const Value& a, const Value& b) {
  if (a.is_string()) return string_format_percent(std::string(a.str()), b);
  if (a.is_integral() && b.is_integral()) {
    std::int64_t x = a.as_int(), y = b.as_int();
    if (y == 0) raise("ZeroDivisionError", "integer division or modulo by zero");
    if (y == -1) return Value(std::int64_t{0});
    std::int64_t m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) m += y;
    return Value(m);
  }
  if (a.is_number() && b.is_number()) {
    if (b.as_number() == 0) raise("ZeroDivisionError", "float modulo");
    return Value(python_fmod(a.as_number(), b.as_number()));
  }
  unsupported("%", a, b);
}

Value op_pow(const Value& a, const Value& b) {
  if (a.is_integral() && b.is_integral() && b.as_int() >= 0) {
    std::int64_t base = a.as_int(), e = b.as_int(), r = 1;
    while (e > 0) {
      if (e & 1)
        if (__builtin_mul_overflow(r, base, &r)) overflow();
      e >>= 1;
      if (e > 0 && __builtin_mul_overflow(base, base, &base)) {
        // Only an error if the result would need it: |base| > 1 and more factors follow.
        overflow();
      }
    }
    return Value(r);
  }
  if (a.is_number() && b.is_number()) {
    double x = a.as_number(), y = b.as_number();
    if (x == 0 && y < 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    if (x < 0 && std::floor(y) != y) raise("ValueError", "complex result not supported");
    double r = std::pow(x, y);
    if (std::isinf(r) && !std::isinf(x)) raise("OverflowError", "(34, 'Numerical result out of range')");
    return Value(r);
  }
  unsupported("** or pow()", a, b);
}

Value op_neg(const Value& a) {
  if (a.is_integral()) {
    if (a.as_int() == std::numeric_limits<std::int64_t>::min()) overflow();
    return Value(-a.as_int());
  }
  if (a.is_float()) return Value(-a.as_float());
  if (a.is_undefined()) undefined_error(a);
  raise("TypeError", std::string("bad operand type for unary -: '") + a.type_name() + "'");
}

Value op_pos(const Value& a) {
  if (a.is_integral()) return Value(a.as_int());
  if (a.is_float()) return a;
  if (a.is_undefined()) undefined_error(a);
  raise("TypeError", std::string("bad operand type for unary +: '") + a.type_name() + "'");
}

bool op_less(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.as_number() < b.as_number();
    return a.as_int() < b.as_int();
  }
  if (a.is_string() && b.is_string()) return a.str() < b.str();
  if (a.is_list() && b.is_list() && a.is_tuple() == b.is_tuple()) {
    auto x = a.items();
    auto y = b.items();
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (x[i].equals(y[i])) continue;
      return op_less(x[i], y[i]);
    }
    return x.size() < y.size();
  }
  if (a.is_undefined()) undefined_error(a);
  if (b.is_undefined()) undefined_error(b);
  raise("TypeError", std::string("'<' not supported between instances of '") + a.type_name() + "' and '" +
                         b.type_name() + "'");
}

bool op_contains(const Value& container, const Value& item) {
  switch (container.type()) {
    case Type::String:
      if (!item.is_string())
        raise("TypeError", std::string("'in <string>' requires string as left operand, not ") + item.type_name());
      return container.str().find(item.str()) != std::string::npos;
    case Type::List:
      for (auto& v : container.items())
        if (v.equals(item)) return true;
      return false;
    case Type::Dict:
      if (!item.hashable()) raise("TypeError", std::string("unhashable type: '") + item.type_name() + "'");
      return container.dict().find(item) != nullptr;
    case Type::Undefined:
      if (container.unsafe_message()) return false;
      return false;
    default:
      raise("TypeError", std::string("argument of type '") + container.type_name() + "' is not iterable");
  }
}

void check_built(std::size_t size) {
  if (size > kMaxBuiltString) raise("MemoryError", "string too large");
}

std::vector<Value> iterate(const Value& v) {
  switch (v.type()) {
    case Type::List:
      return {v.items().begin(), v.items().end()};
    case Type::Dict: {
      std::vector<Value> keys;
      keys.reserve(v.dict().size());
      for (auto& e : v.dict().entries()) keys.push_back(e.first);
      return keys;
    }
    case Type::String: {
      std::vector<Value> chars;
      std::string_view s = v.str();
      // A Value per code point: 'x' * 2**28 would make 268M of them.
      if (s.size() > (std::size_t{1} << 24)) raise("MemoryError", "string too long to iterate");
      std::size_t i = 0;
      while (i < s.size()) {
        std::size_t start = i;
        decode_utf8(s, i);
        chars.emplace_back(std::string(s, start, i - start));
      }
      return chars;
    }
    case Type::Undefined:
      return {};
    case Type::Object:
      if (auto* ns = as<NamespaceObject>(v, ObjectKind::Namespace)) {
        (void)ns;
      }
      [[fallthrough]];
    default:
      raise("TypeError", std::string("'") + v.type_name() + "' object is not iterable");
  }
}

namespace {

std::int64_t slice_index(const Value& v) {
  if (v.is_integral()) return v.as_int();
  raise("TypeError", "slice indices must be integers or None or have an __index__ method");
}

// The positions a slice selects: Python's slice.indices(length), then `count` positions from
// `start` by `step` (computed, not listed).
struct SliceRange {
  std::int64_t start = 0, step = 1;
  std::size_t count = 0;
  std::size_t operator[](std::size_t k) const {
    return static_cast<std::size_t>(start + static_cast<std::int64_t>(k) * step);
  }
};

SliceRange slice_range(std::size_t length, const Value& start_v, const Value& stop_v, const Value& step_v) {
  std::int64_t len = static_cast<std::int64_t>(length);
  SliceRange r;
  r.step = step_v.is_none() ? 1 : slice_index(step_v);
  if (r.step == 0) raise("ValueError", "slice step cannot be zero");
  auto clamp = [&](std::int64_t i, std::int64_t lower, std::int64_t upper) {
    if (i < 0) {
      i += len;
      if (i < lower) i = lower;
    } else if (i > upper) {
      i = upper;
    }
    return i;
  };
  if (r.step > 0) {
    r.start = start_v.is_none() ? 0 : clamp(slice_index(start_v), 0, len);
    std::int64_t stop = stop_v.is_none() ? len : clamp(slice_index(stop_v), 0, len);
    if (r.start < stop)
      r.count = static_cast<std::size_t>((static_cast<std::uint64_t>(stop - r.start) - 1) / static_cast<std::uint64_t>(r.step) + 1);
  } else {
    r.start = start_v.is_none() ? len - 1 : clamp(slice_index(start_v), -1, len - 1);
    std::int64_t stop = stop_v.is_none() ? -1 : clamp(slice_index(stop_v), -1, len - 1);
    if (r.start > stop)
      r.count = static_cast<std::size_t>((static_cast<std::uint64_t>(r.start - stop) - 1) / (0 - static_cast<std::uint64_t>(r.step)) + 1);
  }
  return r;
}

}  // namespace

Value op_slice(const Value& obj, const Value& start, const Value& stop, const Value& step) {
  if (obj.is_list()) {
    auto items = obj.items();
    SliceRange r = slice_range(items.size(), start, stop, step);
    std::vector<Value> out;
    out.reserve(r.count);
    for (std::size_t k = 0; k < r.count; ++k) out.push_back(items[r[k]]);
    return Value::list(std::move(out), obj.is_tuple());
  }
  if (obj.is_string()) {
    std::string_view s = obj.str();
    if (is_ascii(s)) {
      SliceRange r = slice_range(s.size(), start, stop, step);
      if (r.count && r.step == 1) return Value(s.substr(r[0], r.count));
      std::string out;
      out.reserve(r.count);
      for (std::size_t k = 0; k < r.count; ++k) out += s[r[k]];
      return Value(std::move(out));
    }
    std::vector<std::size_t> offsets;
    code_point_offsets(s, offsets);
    SliceRange r = slice_range(offsets.size() - 1, start, stop, step);
    std::string out;
    for (std::size_t k = 0; k < r.count; ++k) out.append(s, offsets[r[k]], offsets[r[k] + 1] - offsets[r[k]]);
    return Value(std::move(out));
  }
  if (obj.is_undefined()) undefined_error(obj);
  if (obj.is_dict()) raise("TypeError", "unhashable type: 'slice'");
  return Value::undefined();
}

// ---- formatting

namespace {

struct Spec {
  char fill = ' ';
  char align = 0;  // < > ^ =
  char sign = '-';
  bool alternate = false;
  bool zero = false;
  int width = -1;
  bool grouping = false;
  int precision = -1;
  char type = 0;
};

// A run of decimal digits in a format string, as Python reads it: a number too long for a
// machine integer is a ValueError (std::stoi would throw out_of_range past the renderer).
std::int64_t format_digits(std::string_view digits) {
  if (digits.size() > 18) raise("ValueError", "Too many decimal digits in format string");
  std::int64_t n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  return n;
}

Spec parse_spec(std::string_view s) {
  Spec sp;
  std::size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1])) {
    sp.fill = s[0];
    sp.align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    sp.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    sp.alternate = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    sp.zero = true;
    ++i;
  }
  std::size_t w = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i > w) sp.width = static_cast<int>(std::min<std::int64_t>(format_digits(s.substr(w, i - w)), 1 << 30));
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) {
    sp.grouping = true;
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t p = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == p) raise("ValueError", "Format specifier missing precision");
    sp.precision = static_cast<int>(std::min<std::int64_t>(format_digits(s.substr(p, i - p)), 1 << 30));
  }
  if (i < s.size()) sp.type = s[i++];
  if (i < s.size()) raise("ValueError", "Invalid format specifier");
  if (sp.width > 10000 || sp.precision > 10000) raise("ValueError", "format width too large");
  return sp;
}

std::string float_format(double d, char type, int precision, bool alternate) {
  if (std::isnan(d)) return type >= 'A' && type <= 'Z' ? "NAN" : "nan";
  if (std::isinf(d)) return std::string(d < 0 ? "-" : "") + (type >= 'A' && type <= 'Z' ? "INF" : "inf");
  char fmt[16];
  std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", alternate ? "#" : "", precision, type);
  int n = std::snprintf(nullptr, 0, fmt, d);
  std::string out(static_cast<std::size_t>(n), '\0');
  std::snprintf(out.data(), out.size() + 1, fmt, d);
  return out;
}

void group_thousands(std::string& digits, char sep) {
  // digits: integer part only (no sign)
  std::string out;
  int count = 0;
  for (std::size_t i = digits.size(); i-- > 0;) {
    out += digits[i];
    if (++count % 3 == 0 && i > 0) out += sep;
  }
  digits.assign(out.rbegin(), out.rend());
}

std::string pad(std::string body, const Spec& sp, char default_align, std::string sign_prefix = {}) {
  std::size_t len = utf8_length(body) + sign_prefix.size();
  if (sp.width < 0 || len >= static_cast<std::size_t>(sp.width)) return sign_prefix + body;
  std::size_t n = static_cast<std::size_t>(sp.width) - len;
  char align = sp.align ? sp.align : default_align;
  char fill = sp.fill;
  if (sp.zero && !sp.align) {
    align = '=';
    fill = '0';
  }
  switch (align) {
    case '<':
      return sign_prefix + body + std::string(n, fill);
    case '^':
      return std::string(n / 2, fill) + sign_prefix + body + std::string(n - n / 2, fill);
    case '=':
      return sign_prefix + std::string(n, fill) + body;
    default:
      return std::string(n, fill) + sign_prefix + body;
  }
}

std::string format_number(const Value& v, const Spec& sp) {
  char type = sp.type;
  if (v.is_integral() && (type == 0 || type == 'd' || type == 'n' || type == 'x' || type == 'X' || type == 'o' ||
                          type == 'b' || type == 'c')) {
    std::int64_t i = v.as_int();
    if (type == 'c') return pad(std::string(1, static_cast<char>(i)), sp, '<');
    std::uint64_t mag = i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    int base = type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' ? 2 : 10;
    char buf[72];
    auto r = std::to_chars(buf, buf + sizeof buf, mag, base);
    std::string digits(buf, r.ptr);
    if (type == 'X')
      for (auto& c : digits) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (sp.grouping) group_thousands(digits, ',');
    std::string prefix = i < 0 ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
    if (sp.alternate && base != 10) prefix += base == 16 ? (type == 'X' ? "0X" : "0x") : base == 8 ? "0o" : "0b";
    return pad(digits, sp, '>', prefix);
  }
  if (!v.is_number()) raise("ValueError", std::string("Unknown format code '") + type + "' for object of type '" + v.type_name() + "'");
  double d = v.as_number();
  std::string body;
  if (type == 0) {
    if (sp.precision < 0) {
      std::string s;
      append_float_repr(s, d);
      body = s;
    } else {
      body = float_format(d, 'g', sp.precision == 0 ? 1 : sp.precision, false);
      if (body.find_first_of(".en") == std::string::npos) body += ".0";
    }
  } else if (type == '%') {
    body = float_format(d * 100, 'f', sp.precision < 0 ? 6 : sp.precision, sp.alternate) + "%";
  } else if (type == 'f' || type == 'F' || type == 'e' || type == 'E' || type == 'g' || type == 'G') {
    body = float_format(d, type, sp.precision < 0 ? 6 : sp.precision, sp.alternate);
  } else if (type == 'd' || type == 'n') {
    raise("ValueError", "Unknown format code 'd' for object of type 'float'");
  } else {
    raise("ValueError", std::string("Unknown format code '") + type + "' for object of type 'float'");
  }
  std::string prefix;
  if (!body.empty() && body[0] == '-') {
    prefix = "-";
    body.erase(0, 1);
  } else if (sp.sign == '+') {
    prefix = "+";
  } else if (sp.sign == ' ') {
    prefix = " ";
  }
  if (sp.grouping) {
    std::size_t end = body.find_first_not_of("0123456789");
    std::string ip = body.substr(0, end);
    group_thousands(ip, ',');
    body = ip + (end == std::string::npos ? "" : body.substr(end));
  }
  return pad(body, sp, '>', prefix);
}

std::string format_value(const Value& v, std::string_view spec_text) {
  if (spec_text.empty()) return v.to_str();
  Spec sp = parse_spec(spec_text);
  if (v.is_number()) {
    if (v.is_bool() && sp.type == 0) return pad(v.to_str(), sp, '<');
    return format_number(v, sp);
  }
  if (sp.type != 0 && sp.type != 's') raise("ValueError", std::string("Unknown format code '") + sp.type + "' for object of type '" + v.type_name() + "'");
  if (!v.is_string() && !v.is_undefined()) raise("TypeError", std::string("unsupported format string passed to ") + v.type_name() + ".__format__");
  std::string s = v.to_str();
  if (sp.precision >= 0) {
    std::vector<std::size_t> off;
    code_point_offsets(s, off);
    if (static_cast<std::size_t>(sp.precision) < off.size() - 1) s.resize(off[static_cast<std::size_t>(sp.precision)]);
  }
  return pad(s, sp, '<');
}

}  // namespace

std::string python_format(const std::string& f, const Args& args) {
  std::string out;
  std::size_t auto_index = 0;
  bool used_auto = false, used_manual = false;
  std::size_t i = 0;
  while (i < f.size()) {
    char c = f[i];
    if (c == '}') {
      if (i + 1 < f.size() && f[i + 1] == '}') {
        out += '}';
        i += 2;
        continue;
      }
      raise("ValueError", "Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '{') {
      out += '{';
      i += 2;
      continue;
    }
    std::size_t end = i + 1;
    int nesting = 1;
    while (end < f.size()) {
      if (f[end] == '{') ++nesting;
      if (f[end] == '}' && --nesting == 0) break;
      ++end;
    }
    if (end >= f.size()) raise("ValueError", "expected '}' before end of string");
    std::string field(f, i + 1, end - i - 1);
    i = end + 1;
    std::string spec;
    char conversion = 0;
    std::size_t colon = field.find(':');
    std::size_t bang = field.find('!');
    if (bang != std::string::npos && (colon == std::string::npos || bang < colon)) {
      if (bang + 1 >= field.size()) raise("ValueError", "end of string while looking for conversion specifier");
      conversion = field[bang + 1];
      if (colon != std::string::npos) spec = field.substr(colon + 1);
      field.resize(bang);
    } else if (colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.resize(colon);
    }
    // The argument: index, name or automatic, then .attr / [key] parts.
    std::size_t part = field.find_first_of(".[");
    std::string head = field.substr(0, part);
    Value v;
    if (head.empty()) {
      if (used_manual) raise("ValueError", "cannot switch from manual field specification to automatic field numbering");
      used_auto = true;
      if (auto_index >= args.pos.size()) raise("IndexError", "Replacement index " + std::to_string(auto_index) + " out of range for positional args tuple");
      v = args.pos[auto_index++];
    } else if (head.find_first_not_of("0123456789") == std::string::npos) {
      if (used_auto) raise("ValueError", "cannot switch from automatic field numbering to manual field specification");
      used_manual = true;
      std::size_t k = static_cast<std::size_t>(format_digits(head));
      if (k >= args.pos.size()) raise("IndexError", "Replacement index " + head + " out of range for positional args tuple");
      v = args.pos[k];
    } else {
      bool found = false;
      for (auto& [name, x] : args.kw)
        if (name == head) {
          v = x;
          found = true;
        }
      if (!found) raise("KeyError", "'" + head + "'");
    }
    while (part != std::string::npos && part < field.size()) {
      if (field[part] == '.') {
        std::size_t next = field.find_first_of(".[", part + 1);
        std::string attr = field.substr(part + 1, next == std::string::npos ? std::string::npos : next - part - 1);
        if (!attr.empty() && attr[0] == '_') raise("SecurityError", "access to attribute '" + attr + "' is unsafe.");
        v = get_attribute(v, attr);
        part = next;
      } else {
        std::size_t close = field.find(']', part);
        if (close == std::string::npos) raise("ValueError", "Missing ']' in format string");
        std::string key = field.substr(part + 1, close - part - 1);
        if (!key.empty() && key.find_first_not_of("0123456789") == std::string::npos)
          v = get_item(v, Value(format_digits(key)));
        else
          v = get_item(v, Value(key));
        part = close + 1 < field.size() ? close + 1 : std::string::npos;
      }
    }
    if (conversion == 'r' || conversion == 'a') {
      v = Value(v.repr());
    } else if (conversion == 's') {
      v = Value(v.to_str());
    } else if (conversion) {
      raise("ValueError", std::string("Unknown conversion specifier ") + conversion);
    }
    if (spec.find('{') != std::string::npos) spec = python_format(spec, args);
    out += format_value(v, spec);
    check_built(out.size());
  }
  return out;
}

namespace {
// int(x) for %d of a float: NaN and infinities fail as in Python; beyond 64 bits is the engine's
// OverflowError (the cast would be undefined).
std::int64_t float_to_int(double x) {
  if (std::isnan(x)) raise("ValueError", "cannot convert float NaN to integer");
  if (std::isinf(x)) raise("OverflowError", "cannot convert float infinity to integer");
  double t = std::trunc(x);
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) raise("OverflowError", "integer too large");
  return static_cast<std::int64_t>(t);
}
}  // namespace

Value string_format_percent(const std::string& f, const Value& arg) {
  std::vector<Value> positional;
  const Value* mapping = nullptr;
  if (arg.is_tuple()) {
    positional.assign(arg.items().begin(), arg.items().end());
  } else {
    positional.push_back(arg);
    if (arg.is_dict()) mapping = &arg;
  }
  std::size_t next = 0;
  std::string out;
  std::size_t i = 0;
  bool used_mapping = false;
  while (i < f.size()) {
    if (f[i] != '%') {
      out += f[i++];
      continue;
    }
    ++i;
    if (i >= f.size()) raise("ValueError", "incomplete format");
    Value v;
    bool have = false;
    if (f[i] == '(') {
      if (!mapping) raise("TypeError", "format requires a mapping");
      std::size_t close = f.find(')', i);
      if (close == std::string::npos) raise("ValueError", "incomplete format key");
      std::string key = f.substr(i + 1, close - i - 1);
      const Value* x = mapping->dict().find(std::string_view(key));
      if (!x) raise("KeyError", "'" + key + "'");
      v = *x;
      have = true;
      used_mapping = true;
      i = close + 1;
    }
    Spec sp;
    sp.sign = '-';
    bool left = false;
    while (i < f.size() && (f[i] == '-' || f[i] == '+' || f[i] == ' ' || f[i] == '#' || f[i] == '0')) {
      if (f[i] == '-') left = true;
      if (f[i] == '+') sp.sign = '+';
      if (f[i] == ' ' && sp.sign != '+') sp.sign = ' ';
      if (f[i] == '#') sp.alternate = true;
      if (f[i] == '0') sp.zero = true;
      ++i;
    }
    // A width or precision is read whole (six digits used to be kept: '%2000000000d' padded to
    // 200000); beyond 2^24 it is refused rather than built (Python would build it).
    auto number = [&](int& target) {
      constexpr std::int64_t kMaxWidth = std::int64_t{1} << 24;
      if (i < f.size() && f[i] == '*') {
        if (next >= positional.size() || !positional[next].is_integral()) raise("TypeError", "* wants int");
        std::int64_t n = positional[next++].as_int();
        if (n > kMaxWidth || n < -kMaxWidth) raise("ValueError", "format width too large");
        target = static_cast<int>(n);
        ++i;
        return;
      }
      std::size_t s = i;
      std::int64_t n = 0;
      for (; i < f.size() && f[i] >= '0' && f[i] <= '9'; ++i) {
        n = n * 10 + (f[i] - '0');
        if (n > kMaxWidth) raise("ValueError", "format width too large");
      }
      if (i > s) target = static_cast<int>(n);
    };
    number(sp.width);
    if (i < f.size() && f[i] == '.') {
      ++i;
      sp.precision = 0;
      number(sp.precision);
    }
    while (i < f.size() && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L')) ++i;
    if (i >= f.size()) raise("ValueError", "incomplete format");
    char type = f[i++];
    if (type == '%') {
      out += '%';
      continue;
    }
    if (!have) {
      if (next >= positional.size()) raise("TypeError", "not enough arguments for format string");
      v = positional[next++];
    }
    if (left) sp.align = '<';
    if (left) sp.zero = false;
    std::string body;
    switch (type) {
      case 's':
      case 'r':
      case 'a': {
        body = type == 's' ? v.to_str() : v.repr();
        if (sp.precision >= 0) {
          std::vector<std::size_t> off;
          code_point_offsets(body, off);
          if (static_cast<std::size_t>(sp.precision) < off.size() - 1) body.resize(off[static_cast<std::size_t>(sp.precision)]);
        }
        sp.zero = false;
        if (!sp.align) sp.align = '>';
        out += pad(body, sp, '>');
        break;
      }
      case 'd':
      case 'i':
      case 'u': {
        if (!v.is_number()) raise("TypeError", std::string("%") + type + " format: a real number is required, not " + v.type_name());
        Value iv = v.is_float() ? Value(float_to_int(v.as_float())) : Value(v.as_int());
        Spec s2 = sp;
        s2.type = 'd';
        s2.precision = -1;
        out += format_number(iv, s2);
        break;
      }
      case 'x':
      case 'X':
      case 'o': {
        if (!v.is_integral()) raise("TypeError", std::string("%") + type + " format: an integer is required, not " + v.type_name());
        Spec s2 = sp;
        s2.type = type;
        s2.precision = -1;
        out += format_number(v, s2);
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        if (!v.is_number()) raise("TypeError", std::string("must be real number, not ") + v.type_name());
        Spec s2 = sp;
        s2.type = type;
        if (s2.precision < 0) s2.precision = 6;
        out += format_number(Value(v.as_number()), s2);
        break;
      }
      case 'c':
        if (v.is_string()) {
          out += v.str();
        } else if (v.is_integral()) {
          append_utf8(out, static_cast<char32_t>(v.as_int()));
        } else {
          raise("TypeError", "%c requires int or char");
        }
        break;
      default:
        raise("ValueError", std::string("unsupported format character '") + type + "'");
    }
  }
  if (!used_mapping && !mapping && next < positional.size())
    raise("TypeError", "not all arguments converted during string formatting");
  return Value(std::move(out));
}

std::size_t utf8_length(std::string_view s) noexcept {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
  return n;
}

bool is_ascii(std::string_view s) noexcept {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace textedge::detail::jinja
