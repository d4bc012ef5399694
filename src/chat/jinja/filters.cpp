// Jinja2's builtin filters (and transformers' tojson), with Python semantics.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "chat/jinja/code_points.hpp"
#include "chat/jinja/objects.hpp"
#include "chat/jinja/parser.hpp"
#include "chat/jinja/render.hpp"
#include "chat/jinja/runtime.hpp"

namespace textedge::detail::jinja {

namespace {

const char* const kFilterNames[] = {
    "abs",     "attr",       "batch",     "capitalize", "center",     "count",  "d",          "default", "dictsort",
    "e",       "escape",     "filesizeformat", "first", "float",      "forceescape", "format", "groupby", "indent",
    "int",     "join",       "last",      "length",     "list",       "lower",  "items",      "map",     "min",
    "max",     "pprint",     "random",    "reject",     "rejectattr", "replace", "reverse",   "round",   "safe",
    "select",  "selectattr", "slice",     "sort",       "string",     "striptags", "sum",     "title",   "trim",
    "truncate", "unique",    "upper",     "urlencode",  "urlize",     "wordcount", "wordwrap", "xmlattr", "tojson"};

std::size_t py_len(const Value& v) {
  switch (v.type()) {
    case Type::String:
      return utf8_length(v.str());
    case Type::List:
      return v.items().size();
    case Type::Dict:
      return v.dict().size();
    case Type::Undefined:
      return 0;
    default:
      if (auto* ns = as<LoopObject>(v, ObjectKind::Loop)) return ns->items().size();
      raise("TypeError", std::string("object of type '") + v.type_name() + "' has no len()");
  }
}

std::string soft_str(const Value& v) { return v.to_str(); }

// Attribute paths as make_attrgetter splits them: "a.0.b" -> ["a", 0, "b"].
std::vector<Value> attribute_parts(const Value& attribute) {
  std::vector<Value> parts;
  if (attribute.is_none() || attribute.is_undefined()) return parts;
  if (!attribute.is_string()) {
    parts.push_back(attribute);
    return parts;
  }
  std::string_view s = attribute.str();
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    std::string part(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    bool digits = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits)
      parts.emplace_back(static_cast<std::int64_t>(std::strtoll(part.c_str(), nullptr, 10)));
    else
      parts.emplace_back(part);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

Value get_path(const Value& item, const std::vector<Value>& parts, const Value* default_value = nullptr) {
  Value v = item;
  for (auto& p : parts) {
    if (v.is_undefined()) raise("UndefinedError", "attribute of an undefined value");
    v = get_item(v, p);
    if (default_value && !default_value->is_none() && v.is_undefined()) v = *default_value;
  }
  return v;
}

Value ignore_case(const Value& v) { return v.is_string() ? Value(to_lower(v.str())) : v; }

const Value* arg(const Value* const* a, int i) { return a[i]; }
bool flag(const Value* v, bool def = false) { return v ? v->truthy() : def; }

void stable_sort(std::vector<Value>& items, std::vector<Value>& keys, bool reverse) {
  std::vector<std::size_t> idx(items.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  // Python's sort with reverse=True keeps equal elements in their original order.
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
    return reverse ? op_less(keys[y], keys[x]) : op_less(keys[x], keys[y]);
  });
  std::vector<Value> out;
  out.reserve(items.size());
  for (auto i : idx) out.push_back(items[i]);
  items = std::move(out);
}

// Python float(str).
bool parse_float(std::string s, double& out) {
  // strip whitespace
  std::size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return false;
  s = s.substr(b, e - b + 1);
  std::string t;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i - 1])) ||
          !std::isdigit(static_cast<unsigned char>(s[i + 1])))
        return false;
      continue;
    }
    t += s[i];
  }
  std::string lower = to_lower(t);
  std::string body = lower;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body = body.substr(1);
  if (body == "inf" || body == "infinity" || body == "nan") {
    out = body == "nan" ? std::nan("") : HUGE_VAL;
    if (lower[0] == '-') out = -out;
    return true;
  }
  // digits [. digits] [e [+-] digits]
  std::size_t i = 0;
  bool digits = false;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, digits = true;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, digits = true;
  }
  if (!digits) return false;
  if (i < body.size() && body[i] == 'e') {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    bool ed = false;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ed = true;
    if (!ed) return false;
  }
  if (i != body.size()) return false;
  out = std::strtod(t.c_str(), nullptr);
  return true;
}

// Python int(str, base).
bool parse_int(const std::string& str, std::int64_t base, std::int64_t& out) {
  std::size_t b = str.find_first_not_of(" \t\n\r\f\v"), e = str.find_last_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return false;
  std::string s = str.substr(b, e - b + 1);
  bool neg = false;
  std::size_t i = 0;
  if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
  auto prefix = [&](char p) {
    return i + 1 < s.size() && s[i] == '0' && (s[i + 1] | 0x20) == p;
  };
  if (base == 0) {
    base = prefix('x') ? 16 : prefix('o') ? 8 : prefix('b') ? 2 : 10;
    if (base != 10) i += 2;
  } else if ((base == 16 && prefix('x')) || (base == 8 && prefix('o')) || (base == 2 && prefix('b'))) {
    i += 2;
    if (i < s.size() && s[i] == '_') ++i;
  }
  if (base < 2 || base > 36) raise("ValueError", "int() base must be >= 2 and <= 36, or 0");
  if (i >= s.size()) return false;
  __int128 v = 0;
  bool prev_digit = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      if (!prev_digit || i + 1 >= s.size()) return false;
      prev_digit = false;
      continue;
    }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : std::isalpha(static_cast<unsigned char>(c)) ? (c | 0x20) - 'a' + 10
                                                          : 99;
    if (d >= base) return false;
    v = v * base + d;
    if (v > ((__int128)1 << 64)) raise("OverflowError", "integer too large");
    prev_digit = true;
  }
  if (!prev_digit) return false;
  if (neg) v = -v;
  if (v > INT64_MAX || v < INT64_MIN) raise("OverflowError", "integer too large");
  out = static_cast<std::int64_t>(v);
  return true;
}

// Python's round(v, precision) of an int for precision < 0: the nearest multiple of 10^-precision,
// ties to even, exactly (in 128 bits; a result beyond 64 bits is the engine's OverflowError).
std::int64_t round_int(std::int64_t v, std::int64_t precision) {
  if (precision < -19) return 0;  // |v| < 10^20 / 2
  __int128 m = 1;
  for (std::int64_t k = 0; k < -precision; ++k) m *= 10;
  __int128 x = v, rem = x % m;
  if (rem < 0) rem += m;
  __int128 r = x - rem;  // the multiple below x
  if (2 * rem > m || (2 * rem == m && (r / m) % 2 != 0)) r += m;
  if (r > INT64_MAX || r < INT64_MIN) raise("OverflowError", "integer too large");
  return static_cast<std::int64_t>(r);
}

Value python_round(double x, std::int64_t digits) {
  if (std::isnan(x) || std::isinf(x)) return Value(x);
  if (digits > 300) return Value(x);
  if (digits < -300) return Value(0.0 * x);
  if (digits >= 0) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(digits), x);
    double r = std::strtod(buf, nullptr);
    if (r == 0) r = std::copysign(0.0, x);
    return Value(r);
  }
  double p = std::pow(10.0, static_cast<double>(-digits));
  double y = x / p;
  double r = std::nearbyint(y);
  return Value(r * p);
}

std::string indent(const std::string& s0, const Value* width, bool first, bool blank) {
  std::string ind = width ? (width->is_string() ? std::string(width->str()) : std::string()) : "    ";
  if (width && !width->is_string()) {
    if (!width->is_integral()) raise("TypeError", "can't multiply sequence by non-int");
    // Refused beyond 2^24, as center's (it was capped at 2^20, silently).
    if (width->as_int() > (1 << 24)) raise("MemoryError", "width too large");
    ind.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, width->as_int())), ' ');
  }

  std::string s = s0 + "\n";
  // splitlines
  std::vector<std::string> lines;
  {
    Value sv(s);
    Args a;
    Value out;
    Renderer* none = nullptr;
    (void)none;
    std::size_t start = 0, i = 0;
    while (i < s.size()) {
      std::size_t j = i;
      char32_t c = decode_utf8(s, j);
      bool brk = c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e ||
                 c == 0x85 || c == 0x2028 || c == 0x2029;
      if (!brk) {
        i = j;
        continue;
      }
      if (c == '\r' && j < s.size() && s[j] == '\n') ++j;
      lines.emplace_back(s.substr(start, i - start));
      start = i = j;
    }
    if (start < s.size()) lines.emplace_back(s.substr(start));
  }
  // The indentation is written once per line: many lines times a wide indentation stop at the
  // built-string limit.
  std::string rv;
  auto check = [&] {
    if (rv.size() > (std::size_t{1} << 28)) raise("MemoryError", "string too large");
  };
  if (blank) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i) rv += "\n" + ind;
      rv += lines[i];
      check();
    }
  } else {
    rv = lines.empty() ? "" : lines[0];
    if (lines.size() > 1) {
      rv += "\n";
      for (std::size_t i = 1; i < lines.size(); ++i) {
        if (i > 1) rv += "\n";
        if (!lines[i].empty()) rv += ind;
        rv += lines[i];
        check();
      }
    }
  }
  if (first) rv = ind + rv;
  return rv;
}

bool is_word_char(char32_t c) { return c == '_' || is_alpha(c) || is_numeric(c); }

std::string title_filter(const std::string& s) {
  // Jinja2: split on runs of [-\s({\[<] and upper the first character of every other piece.
  std::string out;
  bool at_start = true;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    char32_t c = decode_utf8(s, j);
    bool sep = c == '-' || c == '(' || c == '{' || c == '[' || c == '<' || is_space(c);
    if (sep) {
      out.append(s, i, j - i);
      at_start = true;
    } else if (at_start) {
      if (c == 0xdf)
        out += "SS";
      else
        append_utf8(out, to_upper_cp(c));
      at_start = false;
    } else {
      append_utf8(out, to_lower_cp(c));
    }
    i = j;
  }
  return out;
}

Value select_or_reject(Renderer& r, const Value& value, Args& args, bool select, bool lookup_attr) {
  std::vector<Value> out;
  if (!value.truthy()) return Value::list({});
  std::size_t off = 0;
  std::vector<Value> attr_parts;
  if (lookup_attr) {
    if (args.pos.empty()) raise("FilterArgumentError", "Missing parameter for attribute name");
    attr_parts = attribute_parts(args.pos[0]);
    off = 1;
  }
  bool have_test = args.pos.size() > off;
  std::string test_name;
  Args test_args;
  if (have_test) {
    if (!args.pos[off].is_string()) raise("TypeError", "test name must be a string");
    test_name = args.pos[off].str();
    test_args.pos.assign(args.pos.begin() + static_cast<std::ptrdiff_t>(off + 1), args.pos.end());
    test_args.kw = args.kw;
  }
  for (auto& item : iterate(value)) {
    r.step();
    Value x = lookup_attr ? get_path(item, attr_parts) : item;
    bool ok;
    if (have_test) {
      Args a = test_args;
      ok = r.test(test_name, x, a);
    } else {
      ok = x.truthy();
    }
    if (ok == select) out.push_back(item);
  }
  return Value::list(std::move(out));
}

Value min_max(const Value& value, const Value* const* a, bool max) {
  std::vector<Value> items = iterate(value);
  if (items.empty()) return Value::undefined();
  bool case_sensitive = flag(a[0]);
  std::vector<Value> parts = a[1] ? attribute_parts(*a[1]) : std::vector<Value>{};
  auto key = [&](const Value& v) {
    Value k = get_path(v, parts);
    return case_sensitive ? k : ignore_case(k);
  };
  std::size_t best = 0;
  Value best_key = key(items[0]);
  for (std::size_t i = 1; i < items.size(); ++i) {
    Value k = key(items[i]);
    if (max ? op_less(best_key, k) : op_less(k, best_key)) {
      best = i;
      best_key = k;
    }
  }
  return items[best];
}

}  // namespace

bool is_known_filter(std::string_view name) {
  for (auto* n : kFilterNames)
    if (name == n) return true;
  return false;
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void append_tojson(std::string& out, const Value& v, const Args& args) {
  const Value* a[4] = {nullptr, nullptr, nullptr, nullptr};
  args.bind("tojson", {"ensure_ascii", "indent", "separators", "sort_keys"}, a);
  std::string item_sep, key_sep;
  const std::string *is = nullptr, *ks = nullptr;
  if (a[2] && !a[2]->is_none()) {
    std::vector<Value> seps = iterate(*a[2]);
    if (seps.size() != 2) raise("ValueError", "separators must be a pair");
    item_sep = seps[0].to_str();
    key_sep = seps[1].to_str();
    is = &item_sep;
    ks = &key_sep;
  }
  append_json(out, v, a[1] ? *a[1] : Value::none(), flag(a[3]), flag(a[0]), is, ks);
}

bool call_filter(Renderer& r, std::string_view filter_name, const Value& v, Args& args, Value& out) {
  const CalledName name{filter_name};
  const Value* a[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  auto bind = [&](std::initializer_list<const char*> names) { args.bind(name, names, a); };
  if (name == "tojson") {
    std::string json;
    append_tojson(json, v, args);
    out = Value(std::move(json));
  } else if (name == "trim") {
    bind({"chars"});
    Args m;
    if (a[0]) m.pos.push_back(*a[0]);
    if (v.is_string()) {  // no copy: a borrowed string's strip stays borrowed
      call_method(r, v, "strip", m, out);
      if (v.is_markup()) out = Value::markup(std::string(out.str()));  // soft_str keeps Markup
    } else {
      Value s(soft_str(v));
      call_method(r, s, "strip", m, out);
    }
  } else if (name == "length" || name == "count") {
    bind({});
    out = Value(static_cast<std::int64_t>(py_len(v)));
  } else if (name == "first") {
    bind({});
    if (v.is_list()) {
      out = v.items().empty() ? Value::undefined() : v.items()[0];
    } else {
      std::vector<Value> items = iterate(v);
      out = items.empty() ? Value::undefined() : items[0];
    }
  } else if (name == "last") {
    bind({});
    if (v.is_list()) {
      out = v.items().empty() ? Value::undefined() : v.items().back();
    } else {
      if (!v.is_string() && !v.is_dict() && !v.is_undefined())
        raise("TypeError", std::string("'") + v.type_name() + "' object is not reversible");
      std::vector<Value> items = iterate(v);
      out = items.empty() ? Value::undefined() : items.back();
    }
  } else if (name == "join") {
    bind({"d", "attribute"});
    std::string sep = a[0] ? soft_str(*a[0]) : "";
    std::vector<Value> parts = a[1] ? attribute_parts(*a[1]) : std::vector<Value>{};
    std::string s;
    bool firsti = true;
    for (auto& item : iterate(v)) {
      if (!firsti) s += sep;
      firsti = false;
      (a[1] ? get_path(item, parts) : item).append_str(s);
      r.check_size(s.size());
    }
    out = Value(std::move(s));
  } else if (name == "default" || name == "d") {
    bind({"default_value", "boolean"});
    if (v.is_undefined() || (flag(a[1]) && !v.truthy()))
      out = a[0] ? *a[0] : Value(std::string());
    else
      out = v;
  } else if (name == "lower") {
    bind({});
    out = Value(to_lower(soft_str(v)));
  } else if (name == "upper") {
    bind({});
    out = Value(to_upper(soft_str(v)));
  } else if (name == "title") {
    bind({});
    out = Value(title_filter(soft_str(v)));
  } else if (name == "capitalize") {
    bind({});
    Args m;
    call_method(r, Value(soft_str(v)), "capitalize", m, out);
  } else if (name == "replace") {
    bind({"old", "new", "count"});
    if (!a[0] || !a[1]) raise("TypeError", "replace() missing required arguments");
    Args m;
    m.pos = {Value(soft_str(*a[0])), Value(soft_str(*a[1]))};
    if (a[2] && !a[2]->is_none()) m.pos.push_back(*a[2]);
    call_method(r, Value(soft_str(v)), "replace", m, out);
  } else if (name == "string") {
    bind({});
    out = v.is_string() ? v : Value(soft_str(v));
  } else if (name == "int") {
    bind({"default", "base"});
    Value def = a[0] ? *a[0] : Value(std::int64_t{0});
    std::int64_t base = a[1] ? (a[1]->is_integral() ? a[1]->as_int() : 10) : 10;
    std::int64_t i;
    double d;
    if (v.is_integral()) {
      out = Value(v.as_int());
    } else if (v.is_float()) {
      if (std::isnan(v.as_float()) || std::isinf(v.as_float())) {
        out = def;
      } else {
        double t = std::trunc(v.as_float());
        if (std::fabs(t) >= 9.2e18) raise("OverflowError", "integer too large");
        out = Value(static_cast<std::int64_t>(t));
      }
    } else if (v.is_string() && parse_int(std::string(v.str()), base, i)) {
      out = Value(i);
    } else if (v.is_string() && parse_float(std::string(v.str()), d) && !std::isnan(d) && !std::isinf(d)) {
      if (std::fabs(d) >= 9.2e18) raise("OverflowError", "integer too large");
      out = Value(static_cast<std::int64_t>(std::trunc(d)));
    } else {
      out = def;
    }
  } else if (name == "float") {
    bind({"default"});
    double d;
    if (v.is_number())
      out = Value(v.as_number());
    else if (v.is_string() && parse_float(std::string(v.str()), d))
      out = Value(d);
    else
      out = a[0] ? *a[0] : Value(0.0);
  } else if (name == "list") {
    bind({});
    out = Value::list(iterate(v));
  } else if (name == "items") {
    bind({});
    if (v.is_undefined()) {
      out = Value::list({});
    } else {
      if (!v.is_dict()) raise("TypeError", "Can only get item pairs from a mapping.");
      std::vector<Value> items;
      for (auto& [k, x] : v.dict().entries()) items.push_back(Value::list({k, x}, true));
      out = Value::list(std::move(items));
    }
  } else if (name == "dictsort") {
    bind({"case_sensitive", "by", "reverse"});
    if (!v.is_dict()) raise("TypeError", std::string("'") + v.type_name() + "' object has no attribute 'items'");
    int pos = 0;
    if (a[1]) {
      std::string by = soft_str(*a[1]);
      if (by == "value")
        pos = 1;
      else if (by != "key")
        raise("FilterArgumentError", "You can only sort by either \"key\" or \"value\"");
    }
    std::vector<Value> items, keys;
    for (auto& [k, x] : v.dict().entries()) {
      items.push_back(Value::list({k, x}, true));
      const Value& key = pos ? x : k;
      keys.push_back(flag(a[0]) ? key : ignore_case(key));
    }
    stable_sort(items, keys, flag(a[2]));
    out = Value::list(std::move(items));
  } else if (name == "selectattr" || name == "rejectattr" || name == "select" || name == "reject") {
    out = select_or_reject(r, v, args, name == "select" || name == "selectattr", name.text.size() > 6);
  } else if (name == "map") {
    std::vector<Value> result;
    if (args.pos.empty()) {
      const Value* attribute = nullptr;
      const Value* def = nullptr;
      for (auto& [k, x] : args.kw) {
        if (k == "attribute")
          attribute = &x;
        else if (k == "default")
          def = &x;
        else
          raise("FilterArgumentError", "Unexpected keyword argument '" + k + "'");
      }
      if (!attribute) raise("FilterArgumentError", "map requires a filter argument");
      std::vector<Value> parts = attribute_parts(*attribute);
      for (auto& item : iterate(v)) result.push_back(get_path(item, parts, def));
    } else {
      if (!args.pos[0].is_string()) raise("TypeError", "filter name must be a string");
      std::string fname(args.pos[0].str());
      Args rest;
      rest.pos.assign(args.pos.begin() + 1, args.pos.end());
      rest.kw = args.kw;
      for (auto& item : iterate(v)) {
        Args a2 = rest;
        result.push_back(r.filter(fname, item, a2));
      }
    }
    out = Value::list(std::move(result));
  } else if (name == "unique") {
    bind({"case_sensitive", "attribute"});
    std::vector<Value> parts = a[1] ? attribute_parts(*a[1]) : std::vector<Value>{};
    // Seen keys by hash, as Jinja2's set: comparing each item with every key kept before was
    // quadratic, and one filter call is one step of the render's budget (fuzz_jinja found a
    // template whose unique took seconds within the limits).
    std::vector<Value> result, seen;
    std::unordered_multimap<std::size_t, std::size_t> seen_by_hash;
    for (auto& item : iterate(v)) {
      Value k = get_path(item, parts);
      if (!flag(a[0])) k = ignore_case(k);
      if (!k.hashable()) raise("TypeError", std::string("unhashable type: '") + k.type_name() + "'");
      std::size_t h = k.hash();
      auto [first, last] = seen_by_hash.equal_range(h);
      if (std::any_of(first, last, [&](const auto& e) { return seen[e.second].equals(k); })) continue;
      seen_by_hash.emplace(h, seen.size());
      seen.push_back(std::move(k));
      result.push_back(item);
    }
    out = Value::list(std::move(result));
  } else if (name == "sort") {
    bind({"reverse", "case_sensitive", "attribute"});
    std::vector<Value> items = iterate(v);
    std::vector<std::vector<Value>> attrs;
    if (a[2] && a[2]->is_string()) {
      std::string s(a[2]->str());
      std::size_t start = 0;
      while (true) {
        std::size_t c = s.find(',', start);
        attrs.push_back(attribute_parts(Value(s.substr(start, c == std::string::npos ? std::string::npos : c - start))));
        if (c == std::string::npos) break;
        start = c + 1;
      }
    } else if (a[2] && !a[2]->is_none()) {
      attrs.push_back(attribute_parts(*a[2]));
    } else {
      attrs.emplace_back();
    }
    std::vector<Value> keys;
    for (auto& item : items) {
      std::vector<Value> k;
      for (auto& parts : attrs) {
        Value x = get_path(item, parts);
        k.push_back(flag(a[1]) ? x : ignore_case(x));
      }
      keys.push_back(Value::list(std::move(k)));
    }
    stable_sort(items, keys, flag(a[0]));
    out = Value::list(std::move(items));
  } else if (name == "reverse") {
    bind({});
    if (v.is_string()) {
      std::vector<Value> chars = iterate(v);
      std::string s;
      for (auto it = chars.rbegin(); it != chars.rend(); ++it) s += it->str();
      out = Value(std::move(s));
    } else {
      std::vector<Value> items = iterate(v);
      std::reverse(items.begin(), items.end());
      out = Value::list(std::move(items));
    }
  } else if (name == "min" || name == "max") {
    bind({"case_sensitive", "attribute"});
    out = min_max(v, a, name == "max");
  } else if (name == "sum") {
    bind({"attribute", "start"});
    std::vector<Value> parts = a[0] ? attribute_parts(*a[0]) : std::vector<Value>{};
    Value total = a[1] ? *a[1] : Value(std::int64_t{0});
    for (auto& item : iterate(v)) total = op_add(total, a[0] ? get_path(item, parts) : item);
    out = total;
  } else if (name == "abs") {
    bind({});
    if (v.is_integral())
      out = v.as_int() < 0 ? op_neg(v) : Value(v.as_int());
    else if (v.is_float())
      out = Value(std::fabs(v.as_float()));
    else
      raise("TypeError", std::string("bad operand type for abs(): '") + v.type_name() + "'");
  } else if (name == "round") {
    bind({"precision", "method"});
    std::int64_t precision = a[0] ? (a[0]->is_integral() ? a[0]->as_int() : (raise("TypeError", "precision must be an integer"), 0)) : 0;
    std::string method = a[1] ? soft_str(*a[1]) : "common";
    if (method != "common" && method != "ceil" && method != "floor")
      raise("FilterArgumentError", "method must be common, ceil or floor");
    if (!v.is_number()) raise("TypeError", std::string("type ") + v.type_name() + " doesn't define __round__ method");
    if (method == "common") {
      if (v.is_integral()) {
        if (precision >= 0) {
          out = Value(v.as_int());
        } else {
          out = Value(round_int(v.as_int(), precision));
        }
      } else {
        out = python_round(v.as_float(), precision);
      }
    } else {
      double p = std::pow(10.0, static_cast<double>(precision));
      double x = v.as_number() * p;
      out = Value((method == "ceil" ? std::ceil(x) : std::floor(x)) / p);
    }
  } else if (name == "indent") {
    bind({"width", "first", "blank"});
    std::string res = indent(soft_str(v), a[0], flag(a[1]), flag(a[2]));
    out = v.is_markup() ? Value::markup(std::move(res)) : Value(std::move(res));
  } else if (name == "wordcount") {
    bind({});
    std::string s = soft_str(v);
    std::int64_t n = 0;
    bool in_word = false;
    std::size_t i = 0;
    while (i < s.size()) {
      bool w = is_word_char(decode_utf8(s, i));
      if (w && !in_word) ++n;
      in_word = w;
    }
    out = Value(n);
  } else if (name == "safe") {
    bind({});
    out = Value::markup(soft_str(v));
  } else if (name == "escape" || name == "e" || name == "forceescape") {
    bind({});
    if (v.is_markup() && name != "forceescape")
      out = v;
    else
      out = Value::markup(html_escape(soft_str(v)));
  } else if (name == "batch") {
    bind({"linecount", "fill_with"});
    if (!a[0] || !a[0]->is_integral()) raise("TypeError", "batch size must be an integer");
    // Jinja2's loop exactly: a size of 0 yields an empty batch first, a negative size never splits.
    std::int64_t n = a[0]->as_int();
    std::vector<Value> result, tmp;
    for (auto& item : iterate(v)) {
      if (static_cast<std::int64_t>(tmp.size()) == n) {
        result.push_back(Value::list(std::move(tmp)));
        tmp.clear();
      }
      tmp.push_back(item);
    }
    if (!tmp.empty()) {
      if (a[1] && !a[1]->is_none()) {
        r.charge(static_cast<std::size_t>(n) - tmp.size());  // the fill: batch(10**9, 0) would build a billion items
        while (static_cast<std::int64_t>(tmp.size()) < n) tmp.push_back(*a[1]);
      }
      result.push_back(Value::list(std::move(tmp)));
    }
    out = Value::list(std::move(result));
  } else if (name == "slice") {
    bind({"slices", "fill_with"});
    if (!a[0] || !a[0]->is_integral() || a[0]->as_int() <= 0) raise("ValueError", "slices must be a positive integer");
    std::vector<Value> seq = iterate(v);
    std::size_t slices = static_cast<std::size_t>(a[0]->as_int());
    r.charge(slices);  // one list per slice, however short the input
    std::size_t length = seq.size();
    std::size_t per = length / slices, extra = length % slices, offset = 0;
    std::vector<Value> result;
    for (std::size_t i = 0; i < slices; ++i) {
      std::size_t start = offset + i * per;
      if (i < extra) ++offset;
      std::size_t end = offset + (i + 1) * per;
      std::vector<Value> tmp(seq.begin() + static_cast<std::ptrdiff_t>(start), seq.begin() + static_cast<std::ptrdiff_t>(end));
      if (a[1] && !a[1]->is_none() && i >= extra) tmp.push_back(*a[1]);
      result.push_back(Value::list(std::move(tmp)));
    }
    out = Value::list(std::move(result));
  } else if (name == "center") {
    bind({"width"});
    Args m;
    m.pos.push_back(a[0] ? *a[0] : Value(std::int64_t{80}));
    call_method(r, Value(soft_str(v)), "center", m, out);
  } else if (name == "truncate") {
    bind({"length", "killwords", "end", "leeway"});
    std::string s = soft_str(v);
    std::int64_t length = a[0] ? a[0]->as_int() : 255;
    std::string end = a[2] ? soft_str(*a[2]) : "...";
    std::int64_t leeway = a[3] && !a[3]->is_none() ? a[3]->as_int() : 5;
    std::int64_t end_len = static_cast<std::int64_t>(utf8_length(end));
    if (length < end_len) raise("AssertionError", "expected length >= " + std::to_string(end_len) + ", got " + std::to_string(length));
    if (leeway < 0) raise("AssertionError", "expected leeway >= 0, got " + std::to_string(leeway));
    if (static_cast<std::int64_t>(utf8_length(s)) <= length + leeway) {
      out = Value(s);
    } else {
      Value cut = op_slice(Value(s), Value::none(), Value(length - end_len), Value::none());
      if (flag(a[1])) {
        out = Value(std::string(cut.str()) + end);
      } else {
        std::string_view c = cut.str();
        std::size_t sp = c.rfind(' ');
        out = Value(std::string(sp == std::string::npos ? c : c.substr(0, sp)) + end);
      }
    }
  } else if (name == "format") {
    if (!args.pos.empty() && !args.kw.empty())
      raise("FilterArgumentError", "can't handle positional and keyword arguments at the same time");
    Value fmt_args;
    if (!args.kw.empty()) {
      std::vector<std::pair<Value, Value>> e;
      for (auto& [k, x] : args.kw) e.emplace_back(Value(k), x);
      fmt_args = Value::dict(std::move(e));
    } else {
      fmt_args = Value::list(std::vector<Value>(args.pos.begin(), args.pos.end()), true);
    }
    out = string_format_percent(soft_str(v), fmt_args);
  } else if (name == "attr") {
    bind({"name"});
    if (!a[0] || !a[0]->is_string()) raise("TypeError", "attribute name must be a string");
    if (v.is_dict() && !has_method(v, a[0]->str()))
      out = Value::undefined();
    else
      out = get_attribute(v, a[0]->str());
  } else if (name == "groupby") {
    bind({"attribute", "default", "case_sensitive"});
    if (!a[0]) raise("TypeError", "groupby() missing 1 required positional argument: 'attribute'");
    std::vector<Value> parts = attribute_parts(*a[0]);
    std::vector<Value> items = iterate(v);
    std::vector<Value> keys;
    for (auto& item : items) {
      Value k = get_path(item, parts, a[1]);
      keys.push_back(flag(a[2]) ? k : ignore_case(k));
    }
    std::vector<Value> sorted_items = items, sorted_keys = keys;
    {
      std::vector<std::size_t> idx(items.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return op_less(keys[x], keys[y]); });
      for (std::size_t i = 0; i < idx.size(); ++i) {
        sorted_items[i] = items[idx[i]];
        sorted_keys[i] = keys[idx[i]];
      }
    }
    std::vector<Value> groups;
    for (std::size_t i = 0; i < sorted_items.size();) {
      std::size_t j = i;
      std::vector<Value> members;
      while (j < sorted_items.size() && sorted_keys[j].equals(sorted_keys[i])) members.push_back(sorted_items[j++]);
      Value grouper = get_path(sorted_items[i], parts, a[1]);
      Value group = Value::list({grouper, Value::list(std::move(members))}, true);
      const_cast<ListObject&>(group.list()).group = true;
      groups.push_back(std::move(group));
      i = j;
    }
    out = Value::list(std::move(groups));
  } else if (name == "pprint") {
    bind({});
    out = Value(v.repr());
  } else if (name == "striptags") {
    bind({});
    std::string s = soft_str(v), o;
    bool in_tag = false;
    for (char c : s) {
      if (c == '<')
        in_tag = true;
      else if (c == '>' && in_tag)
        in_tag = false;
      else if (!in_tag)
        o += c;
    }
    // Collapse whitespace like Markup.striptags.
    Args m;
    Value parts;
    call_method(r, Value(o), "split", m, parts);
    std::string joined;
    for (auto& p : parts.items()) {
      if (!joined.empty()) joined += ' ';
      joined += p.str();
    }
    out = Value(joined);
  } else if (is_known_filter(name)) {
    raise("TemplateRuntimeError", "filter '" + std::string(name) + "' is not supported");
  } else {
    return false;
  }
  (void)arg;
  return true;
}

}  // namespace textedge::detail::jinja
