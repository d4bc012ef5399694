// Attribute and item lookup in the immutable sandbox, and the str / list / dict methods templates call.
#include <algorithm>

#include "chat/jinja/code_points.hpp"
#include "chat/jinja/objects.hpp"
#include "chat/jinja/runtime.hpp"

namespace textedge::detail::jinja {

namespace {

bool is_dunder(std::string_view a) { return a.size() >= 4 && a.substr(0, 2) == "__" && a.substr(a.size() - 2) == "__"; }

constexpr std::string_view kStrMethods[] = {
    "strip", "lstrip", "rstrip", "startswith", "endswith", "split", "rsplit", "replace", "upper", "lower", "title",
    "capitalize", "find", "rfind", "index", "rindex", "count", "join", "format", "splitlines", "isdigit", "isalpha",
    "isalnum", "isspace", "isupper", "islower", "istitle", "isdecimal", "isnumeric", "isidentifier", "isprintable",
    "isascii", "zfill", "center", "ljust", "rjust", "swapcase", "casefold", "partition", "rpartition",
    "removeprefix", "removesuffix", "expandtabs", "format_map", "encode", "translate", "maketrans"};
constexpr std::string_view kListMethods[] = {"index", "count", "copy"};
constexpr std::string_view kListUnsafe[] = {"append", "clear", "pop", "reverse", "insert", "sort", "extend", "remove"};
constexpr std::string_view kDictMethods[] = {"items", "keys", "values", "get", "copy", "fromkeys"};
constexpr std::string_view kDictUnsafe[] = {"clear", "pop", "popitem", "setdefault", "update"};

template <std::size_t N>
bool in(const std::string_view (&names)[N], std::string_view name) {
  for (auto n : names)
    if (same_text(name, n)) return true;
  return false;
}

Value unsafe_attribute(const Value& obj, std::string_view attr) {
  return Value::unsafe("access to attribute '" + std::string(attr) + "' of '" + obj.type_name() + "' object is unsafe.");
}

}  // namespace

bool has_method(const Value& self, std::string_view name) {
  // Every method name is 3 to 12 lowercase letters (plus '_'); most attribute reads (message.role,
  // tool.function) are dict keys that are not methods, so reject cheaply before scanning.
  if (name.size() < 3 || name.size() > 12) return false;
  if (self.is_dict() && std::string_view("ikvgcfpsu").find(name[0]) == std::string_view::npos) return false;
  if (self.is_string()) return in(kStrMethods, name);
  if (self.is_list()) return in(kListMethods, name) || (!self.is_tuple() && in(kListUnsafe, name));
  if (self.is_dict()) return in(kDictMethods, name) || in(kDictUnsafe, name);
  return false;
}

bool names_dict_attribute(std::string_view name) {
  return is_dunder(name) || in(kDictMethods, name) || in(kDictUnsafe, name);
}

bool is_unsafe_method(const Value& self, std::string_view name) {
  if (self.is_list() && !self.is_tuple()) return in(kListUnsafe, name);
  if (self.is_dict()) return in(kDictUnsafe, name);
  return false;
}

Value bound_method(const Value& self, std::string_view name) {
  return Value(Type::Object, new FunctionObject(Builtin::BoundMethod, self, std::string(name)));
}

Value get_attribute(const Value& obj, std::string_view attr) {
  if (is_dunder(attr)) return unsafe_attribute(obj, attr);
  switch (obj.type()) {
    case Type::List:
      if (obj.list().group) {  // groupby's (grouper, list) named tuples
        if (attr == "grouper") return obj.items()[0];
        if (attr == "list") return obj.items()[1];
      }
      [[fallthrough]];
    case Type::String:
      if (has_method(obj, attr)) return is_unsafe_method(obj, attr) ? unsafe_attribute(obj, attr) : bound_method(obj, attr);
      return Value::undefined();
    case Type::Dict: {
      if (has_method(obj, attr)) return is_unsafe_method(obj, attr) ? unsafe_attribute(obj, attr) : bound_method(obj, attr);
      if (const Value* v = obj.dict().find(attr)) return *v;
      return Value::undefined();
    }
    case Type::Object: {
      const BoxObject* b = box_of(obj);
      switch (b->kind) {
        case ObjectKind::Namespace:
          if (const Value* v = static_cast<const NamespaceObject*>(b)->find(attr)) return *v;
          return Value::undefined();
        case ObjectKind::Loop: {
          bool found = false;
          Value v = loop_attribute(*static_cast<const LoopObject*>(b), attr, found);
          if (found) return v;
          return Value::undefined();
        }
        case ObjectKind::Cycler: {
          auto* c = static_cast<const CyclerObject*>(b);
          if (attr == "current") return c->items.empty() ? Value::undefined() : c->items[c->pos];
          if (attr == "next" || attr == "reset") return bound_method(obj, attr);
          if (attr == "items") return Value::list(c->items);
          return Value::undefined();
        }
        case ObjectKind::Macro: {
          auto* m = static_cast<const MacroObject*>(b);
          if (attr == "name") return Value(m->def->name);
          if (attr == "arguments") {
            std::vector<Value> names;
            for (auto& n : m->def->param_names) names.emplace_back(n);
            return Value::list(std::move(names), true);
          }
          if (attr == "caller") return Value(m->def->uses_caller);
          if (attr == "catch_kwargs") return Value(m->def->uses_kwargs);
          if (attr == "catch_varargs") return Value(m->def->uses_varargs);
          return Value::undefined();
        }
        default:
          return Value::undefined();
      }
    }
    default:
      return Value::undefined();
  }
}

Value get_item(const Value& obj, const Value& key) {
  switch (obj.type()) {
    case Type::List:
      if (key.is_integral()) {
        const Value* item = item_at(obj.items(), key.as_int());
        return item ? *item : Value::undefined();
      }
      break;
    case Type::String:
      if (key.is_integral()) {
        std::string_view s = obj.str();
        std::int64_t i = key.as_int();
        if (is_ascii(s)) {
          std::int64_t n = static_cast<std::int64_t>(s.size());
          if (i < 0) i += n;
          if (i < 0 || i >= n) return Value::undefined();
          return Value(std::string(1, s[static_cast<std::size_t>(i)]));
        }
        std::vector<std::size_t> off;
        code_point_offsets(s, off);
        std::int64_t n = static_cast<std::int64_t>(off.size()) - 1;
        if (i < 0) i += n;
        if (i < 0 || i >= n) return Value::undefined();
        auto k = static_cast<std::size_t>(i);
        return Value(s.substr(off[k], off[k + 1] - off[k]));
      }
      break;
    case Type::Dict:
      if (key.hashable()) {
        if (const Value* v = obj.dict().find(key)) return *v;
      }
      break;
    default:
      break;
  }
  if (key.is_string()) {
    if (key.str().size() >= 1 && key.str()[0] == '_' && !is_dunder(key.str())) return Value::undefined();
    return get_attribute(obj, key.str());
  }
  return Value::undefined();
}

// ---- str helpers

namespace {

// Title-case letters (category Lt) make isupper()/islower() false.
bool utf8proc_like_titlecase(char32_t c) { return to_title_cp(c) == c && to_upper_cp(c) != c && to_lower_cp(c) != c; }

using Str = std::string_view;

std::size_t cp_count(Str s) { return utf8_length(s); }

// Byte offset of code point index `cp` (clamped).
std::size_t byte_of(Str s, std::size_t cp) {
  if (is_ascii(s)) return std::min(cp, s.size());
  std::size_t i = 0, n = 0;
  while (i < s.size() && n < cp) {
    decode_utf8(s, i);
    ++n;
  }
  return i;
}

std::size_t cp_of(Str s, std::size_t byte) { return utf8_length(s.substr(0, byte)); }

// Python's start/end arguments of find/count/startswith: slice indices over code points.
void bounds(Str s, const Value* start, const Value* end, std::size_t& b0, std::size_t& b1, bool& empty) {
  if ((!start || start->is_none()) && (!end || end->is_none())) {  // the whole string: no code points to count
    b0 = 0;
    b1 = s.size();
    empty = false;
    return;
  }
  std::int64_t len = static_cast<std::int64_t>(cp_count(s));
  auto norm = [&](const Value* v, std::int64_t def) {
    if (!v || v->is_none()) return def;
    if (!v->is_integral()) raise("TypeError", "slice indices must be integers or None or have an __index__ method");
    std::int64_t i = v->as_int();
    if (i < 0) i = std::max<std::int64_t>(0, i + len);
    return std::min(i, len);
  };
  std::int64_t a = norm(start, 0), b = norm(end, len);
  empty = a > b;
  if (start && !start->is_none() && start->as_int() > len) empty = true;
  b0 = byte_of(s, static_cast<std::size_t>(a));
  b1 = empty ? b0 : byte_of(s, static_cast<std::size_t>(b));
}

bool is_ws_at(Str s, std::size_t i, std::size_t& len) {
  if (auto c = static_cast<unsigned char>(s[i]); c < 0x80) {  // str.isspace(): \t-\r, 0x1c-0x1f, ' '
    len = 1;
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
  }
  std::size_t j = i;
  char32_t cp = decode_utf8(s, j);
  len = j - i;
  return is_space(cp);
}

std::vector<char32_t> cps(Str s) {
  std::vector<char32_t> out;
  std::size_t i = 0;
  while (i < s.size()) out.push_back(decode_utf8(s, i));
  return out;
}

std::string_view strip(Str s, const Value* chars, bool left, bool right) {
  std::size_t b = 0, e = s.size();
  if (chars && !chars->is_none()) {
    if (!chars->is_string()) raise("TypeError", "strip arg must be None or str");
    if (std::string_view set = chars->str(); is_ascii(set)) {
      // An ASCII set (the common strip('\n')) matches bytes: a byte of a longer character never
      // matches it.
      if (left)
        while (b < e && set.find(s[b]) != std::string_view::npos) ++b;
      if (right)
        while (e > b && set.find(s[e - 1]) != std::string_view::npos) --e;
      return s.substr(b, e - b);
    }
    std::vector<char32_t> set = cps(chars->str());
    auto member = [&](char32_t c) { return std::find(set.begin(), set.end(), c) != set.end(); };
    if (left)
      while (b < e) {
        std::size_t j = b;
        if (!member(decode_utf8(s, j))) break;
        b = j;
      }
    if (right)
      while (e > b) {
        std::size_t k = e - 1;
        while (k > b && (static_cast<unsigned char>(s[k]) & 0xc0) == 0x80) --k;
        std::size_t j = k;
        if (!member(decode_utf8(s, j))) break;
        e = k;
      }
    return s.substr(b, e - b);
  }
  std::size_t n;
  if (left)
    while (b < e && is_ws_at(s, b, n)) b += n;
  if (right)
    while (e > b) {
      std::size_t k = e - 1;
      while (k > b && (static_cast<unsigned char>(s[k]) & 0xc0) == 0x80) --k;
      if (!is_ws_at(s, k, n)) break;
      e = k;
    }
  return s.substr(b, e - b);
}

Value split(Str s, const Value* sep, const Value* maxsplit_v, bool from_right) {
  std::int64_t maxsplit = -1;
  if (maxsplit_v && !maxsplit_v->is_none()) {
    if (!maxsplit_v->is_integral()) raise("TypeError", "'maxsplit' must be an integer");
    maxsplit = maxsplit_v->as_int();
  }
  std::vector<Value> parts;
  if (!sep || sep->is_none()) {
    // Whitespace split: runs of whitespace, no empty strings.
    std::vector<std::pair<std::size_t, std::size_t>> words;  // byte ranges
    std::size_t i = 0, n;
    while (i < s.size()) {
      while (i < s.size() && is_ws_at(s, i, n)) i += n;
      if (i >= s.size()) break;
      std::size_t start = i;
      while (i < s.size() && !is_ws_at(s, i, n)) i += n;
      words.emplace_back(start, i);
    }
    // At most maxsplit splits; the remainder keeps its whitespace on the far side.
    if (maxsplit < 0 || static_cast<std::size_t>(maxsplit) >= words.size()) {
      for (auto& [a, b] : words) parts.emplace_back(std::string(s.substr(a, b - a)));
      return Value::list(std::move(parts));
    }
    std::size_t m = static_cast<std::size_t>(maxsplit);
    if (!from_right) {
      for (std::size_t k = 0; k < m; ++k) parts.emplace_back(std::string(s.substr(words[k].first, words[k].second - words[k].first)));
      parts.emplace_back(std::string(s.substr(words[m].first)));
      return Value::list(std::move(parts));
    }
    std::size_t first = words.size() - m;
    parts.emplace_back(std::string(s.substr(0, words[first - 1].second)));
    for (std::size_t k = first; k < words.size(); ++k)
      parts.emplace_back(std::string(s.substr(words[k].first, words[k].second - words[k].first)));
    return Value::list(std::move(parts));
  }
  if (!sep->is_string()) raise("TypeError", std::string("must be str or None, not ") + sep->type_name());
  std::string_view d = sep->str();
  if (d.empty()) raise("ValueError", "empty separator");
  if (!from_right) {
    std::size_t start = 0;
    std::int64_t count = 0;
    while (maxsplit < 0 || count < maxsplit) {
      std::size_t p = s.find(d, start);
      if (p == Str::npos) break;
      parts.emplace_back(std::string(s.substr(start, p - start)));
      start = p + d.size();
      ++count;
    }
    parts.emplace_back(std::string(s.substr(start)));
    return Value::list(std::move(parts));
  }
  std::vector<Value> rev;
  std::size_t end = s.size();
  std::int64_t count = 0;
  while (maxsplit < 0 || count < maxsplit) {
    if (end < d.size()) break;
    std::size_t p = s.rfind(d, end - d.size());
    if (p == Str::npos) break;
    rev.emplace_back(std::string(s.substr(p + d.size(), end - p - d.size())));
    end = p;
    ++count;
  }
  rev.emplace_back(std::string(s.substr(0, end)));
  std::reverse(rev.begin(), rev.end());
  return Value::list(std::move(rev));
}

std::string replace(Str s, Str old, Str repl, std::int64_t count) {
  std::string out;
  if (old.empty()) {
    // Inserts repl before every code point and at the end (up to count times).
    std::size_t i = 0;
    std::int64_t n = 0;
    while (true) {
      if (count >= 0 && n >= count) {
        out.append(s.substr(i));
        break;
      }
      out.append(repl);
      check_built(out.size());
      ++n;
      if (i >= s.size()) break;
      std::size_t j = i;
      decode_utf8(s, j);
      out.append(s.substr(i, j - i));
      i = j;
    }
    return out;
  }
  std::size_t start = 0;
  std::int64_t n = 0;
  while (count < 0 || n < count) {
    std::size_t p = s.find(old, start);
    if (p == Str::npos) break;
    out.append(s.substr(start, p - start));
    out.append(repl);
    check_built(out.size());
    start = p + old.size();
    ++n;
  }
  out.append(s.substr(start));
  return out;
}

std::string title(Str s) {
  std::string out;
  bool prev_cased = false;
  std::size_t i = 0;
  while (i < s.size()) {
    char32_t c = decode_utf8(s, i);
    if (is_cased(c)) {
      if (c == 0xdf && !prev_cased)
        out += "Ss";  // Python's full title-case mapping
      else
        append_utf8(out, prev_cased ? to_lower_cp(c) : to_title_cp(c));
      prev_cased = true;
    } else {
      append_utf8(out, c);
      prev_cased = false;
    }
  }
  return out;
}

std::string capitalize(Str s) {
  std::string out;
  std::size_t i = 0;
  bool first = true;
  while (i < s.size()) {
    char32_t c = decode_utf8(s, i);
    if (first && c == 0xdf)
      out += "Ss";  // Python's full title-case mapping
    else
      append_utf8(out, first ? to_title_cp(c) : to_lower_cp(c));
    first = false;
  }
  return out;
}

template <class Pred>
bool all_of_cps(Str s, Pred p) {
  if (s.empty()) return false;
  std::size_t i = 0;
  while (i < s.size())
    if (!p(decode_utf8(s, i))) return false;
  return true;
}

std::vector<std::string> splitlines(Str s, bool keepends) {
  std::vector<std::string> lines;
  std::size_t start = 0, i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    char32_t c = decode_utf8(s, j);
    bool brk = c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e || c == 0x85 ||
               c == 0x2028 || c == 0x2029;
    if (!brk) {
      i = j;
      continue;
    }
    if (c == '\r' && j < s.size() && s[j] == '\n') ++j;
    lines.emplace_back(s.substr(start, (keepends ? j : i) - start));
    start = i = j;
  }
  if (start < s.size()) lines.emplace_back(s.substr(start));
  return lines;
}

std::string pad_to(Str s, std::int64_t width, Str fill, int align) {
  std::int64_t len = static_cast<std::int64_t>(cp_count(s));
  if (width <= len) return std::string(s);
  std::int64_t n = width - len;
  std::int64_t left = align < 0 ? 0 : align > 0 ? n : n / 2 + (n & width & 1);
  std::string out;
  for (std::int64_t k = 0; k < left; ++k) out.append(fill);
  out.append(s);
  for (std::int64_t k = 0; k < n - left; ++k) out.append(fill);
  return out;
}

const Value& require_str(const Value* v, const char* what) {
  if (!v) raise("TypeError", std::string(what) + "() takes at least 1 argument (0 given)");
  if (!v->is_string()) raise("TypeError", std::string(what) + "() argument must be str, not " + v->type_name());
  return *v;
}

std::int64_t require_int(const Value* v, const char* what) {
  if (!v || !v->is_integral()) raise("TypeError", std::string(what) + "() argument must be int");
  return v->as_int();
}

bool affix_match(Str s, const Value& affix, std::size_t b0, std::size_t b1, bool empty, bool suffix, const char* what) {
  auto one = [&](const Value& a) {
    if (!a.is_string())
      raise("TypeError", std::string(what) + " first arg must be str or a tuple of str, not " + a.type_name());
    if (empty) return false;
    Str window = s.substr(b0, b1 - b0);
    std::string_view x = a.str();
    if (x.size() > window.size()) return false;
    return suffix ? window.substr(window.size() - x.size()) == x : window.substr(0, x.size()) == x;
  };
  if (affix.is_tuple()) {
    for (auto& a : affix.items())
      if (one(a)) return true;
    return false;
  }
  return one(affix);
}

bool str_method(Renderer& r, const Value& self, std::string_view method_name, Args& args, Value& out) {
  const CalledName name{method_name};
  (void)r;
  Str s = self.str();
  const Value* a[4] = {nullptr, nullptr, nullptr, nullptr};
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    args.bind(name, {"chars"}, a);
    out = self.substring(strip(s, a[0], name != "rstrip", name != "lstrip"));
  } else if (name == "upper") {
    args.bind("upper", {}, a);
    out = Value(to_upper(s));
  } else if (name == "lower" || name == "casefold") {
    args.bind("lower", {}, a);
    out = Value(to_lower(s));
  } else if (name == "title") {
    args.bind("title", {}, a);
    out = Value(title(s));
  } else if (name == "capitalize") {
    args.bind("capitalize", {}, a);
    out = Value(capitalize(s));
  } else if (name == "swapcase") {
    args.bind("swapcase", {}, a);
    std::string o;
    std::size_t i = 0;
    while (i < s.size()) {
      char32_t c = decode_utf8(s, i);
      append_utf8(o, is_upper(c) ? to_lower_cp(c) : is_lower(c) ? to_upper_cp(c) : c);
    }
    out = Value(std::move(o));
  } else if (name == "startswith" || name == "endswith") {
    args.bind(name, {"prefix", "start", "end"}, a);
    if (!a[0]) raise("TypeError", std::string(name) + "() takes at least 1 argument (0 given)");
    std::size_t b0, b1;
    bool empty;
    bounds(s, a[1], a[2], b0, b1, empty);
    out = Value(affix_match(s, *a[0], b0, b1, empty, name == "endswith", method_name.data()));
  } else if (name == "split" || name == "rsplit") {
    args.bind(name, {"sep", "maxsplit"}, a);
    out = split(s, a[0], a[1], name == "rsplit");
  } else if (name == "splitlines") {
    args.bind("splitlines", {"keepends"}, a);
    std::vector<Value> v;
    for (auto& l : splitlines(s, a[0] && a[0]->truthy())) v.emplace_back(std::move(l));
    out = Value::list(std::move(v));
  } else if (name == "replace") {
    args.bind("replace", {"old", "new", "count"}, a);
    const Value& o = require_str(a[0], "replace");
    const Value& n = require_str(a[1], "replace");
    std::int64_t count = a[2] ? require_int(a[2], "replace") : -1;
    out = Value(replace(s, o.str(), n.str(), count));
  } else if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count") {
    args.bind(name, {"sub", "start", "end"}, a);
    const Value& sub = require_str(a[0], method_name.data());
    std::size_t b0, b1;
    bool empty;
    bounds(s, a[1], a[2], b0, b1, empty);
    Str window = s.substr(b0, b1 - b0);
    std::string_view x = sub.str();
    if (name == "count") {
      std::int64_t n = 0;
      if (empty) {
        n = 0;
      } else if (x.empty()) {
        n = static_cast<std::int64_t>(cp_count(window)) + 1;
      } else {
        for (std::size_t p = window.find(x); p != Str::npos; p = window.find(x, p + x.size())) ++n;
      }
      out = Value(n);
      return true;
    }
    std::size_t p = empty ? Str::npos : (method_name[0] == 'r' ? window.rfind(x) : window.find(x));
    if (p == Str::npos) {
      if (name == "index" || name == "rindex") raise("ValueError", "substring not found");
      out = Value(std::int64_t{-1});
    } else {
      out = Value(static_cast<std::int64_t>(cp_of(s, b0 + p)));
    }
  } else if (name == "join") {
    args.bind("join", {"iterable"}, a);
    if (!a[0]) raise("TypeError", "join() takes exactly one argument (0 given)");
    std::string o;
    bool first = true;
    for (auto& v : iterate(*a[0])) {
      if (!v.is_string()) raise("TypeError", std::string("sequence item: expected str instance, ") + v.type_name() + " found");
      if (!first) o.append(s);
      first = false;
      o.append(v.str());
      check_built(o.size());
    }
    out = Value(std::move(o));
  } else if (name == "format") {
    out = Value(python_format(std::string(s), args));
  } else if (name == "format_map") {
    args.bind("format_map", {"mapping"}, a);
    if (!a[0] || !a[0]->is_dict()) raise("TypeError", "format_map() argument must be a mapping");
    Args kw;
    for (auto& [k, v] : a[0]->dict().entries())
      if (k.is_string()) kw.kw.emplace_back(k.str(), v);
    out = Value(python_format(std::string(s), kw));
  } else if (name == "isdigit" || name == "isalpha" || name == "isalnum" || name == "isspace" || name == "isdecimal" ||
             name == "isnumeric" || name == "isascii" || name == "isprintable") {
    args.bind(name, {}, a);
    bool r2;
    if (name == "isdigit")
      r2 = all_of_cps(s, is_digit);
    else if (name == "isalpha")
      r2 = all_of_cps(s, is_alpha);
    else if (name == "isalnum")
      r2 = all_of_cps(s, [](char32_t c) { return is_alpha(c) || is_numeric(c); });
    else if (name == "isspace")
      r2 = all_of_cps(s, is_space);
    else if (name == "isdecimal")
      r2 = all_of_cps(s, is_decimal);
    else if (name == "isnumeric")
      r2 = all_of_cps(s, is_numeric);
    else if (name == "isascii")
      r2 = is_ascii(s);
    else
      r2 = s.empty() || all_of_cps(s, is_printable);
    out = Value(r2);
  } else if (name == "isupper" || name == "islower") {
    args.bind(name, {}, a);
    bool any_cased = false, ok = true;
    std::size_t i = 0;
    while (i < s.size()) {
      char32_t c = decode_utf8(s, i);
      if (name == "isupper" ? is_lower(c) : is_upper(c)) ok = false;
      if (name == "isupper" ? is_upper(c) : is_lower(c)) any_cased = true;
      if (is_cased(c) && utf8proc_like_titlecase(c)) ok = false;
    }
    out = Value(ok && any_cased);
  } else if (name == "istitle") {
    args.bind("istitle", {}, a);
    out = Value(!s.empty() && title(s) == s && all_of_cps(s, [](char32_t) { return true; }) &&
                [&] {
                  std::size_t i = 0;
                  while (i < s.size())
                    if (is_cased(decode_utf8(s, i))) return true;
                  return false;
                }());
  } else if (name == "isidentifier") {
    args.bind("isidentifier", {}, a);
    bool ok = !s.empty();
    std::size_t i = 0;
    bool first = true;
    while (ok && i < s.size()) {
      char32_t c = decode_utf8(s, i);
      ok = c == '_' || is_alpha(c) || (!first && (is_decimal(c) || c == '_'));
      first = false;
    }
    out = Value(ok);
  } else if (name == "zfill") {
    args.bind("zfill", {"width"}, a);
    std::int64_t w = require_int(a[0], "zfill");
    if (w > (1 << 24)) raise("MemoryError", "width too large");  // as center, ljust and rjust
    std::int64_t len = static_cast<std::int64_t>(cp_count(s));
    if (w <= len) {
      out = Value(std::string(s));
    } else {
      std::string o;
      std::size_t body = 0;
      if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        o += s[0];
        body = 1;
      }
      o.append(static_cast<std::size_t>(w - len), '0');
      o.append(s.substr(body));
      out = Value(std::move(o));
    }
  } else if (name == "center" || name == "ljust" || name == "rjust") {
    args.bind(name, {"width", "fillchar"}, a);
    std::int64_t w = require_int(a[0], method_name.data());
    if (w > (1 << 24)) raise("MemoryError", "width too large");
    std::string fill = " ";
    if (a[1]) {
      if (!a[1]->is_string() || cp_count(a[1]->str()) != 1) raise("TypeError", "The fill character must be exactly one character long");
      fill = a[1]->str();
    }
    out = Value(pad_to(s, w, fill, name == "ljust" ? -1 : name == "rjust" ? 1 : 0));
  } else if (name == "partition" || name == "rpartition") {
    args.bind(name, {"sep"}, a);
    const Value& sep = require_str(a[0], method_name.data());
    if (sep.str().empty()) raise("ValueError", "empty separator");
    std::size_t p = name == "partition" ? s.find(sep.str()) : s.rfind(sep.str());
    std::vector<Value> v;
    if (p == Str::npos) {
      if (name == "partition")
        v = {Value(std::string(s)), Value(""), Value("")};
      else
        v = {Value(""), Value(""), Value(std::string(s))};
    } else {
      v = {Value(std::string(s.substr(0, p))), sep, Value(std::string(s.substr(p + sep.str().size())))};
    }
    out = Value::list(std::move(v), true);
  } else if (name == "removeprefix" || name == "removesuffix") {
    args.bind(name, {"fix"}, a);
    std::string_view x = require_str(a[0], method_name.data()).str();
    if (name == "removeprefix")
      out = Value(std::string(s.substr(0, x.size()) == x ? s.substr(x.size()) : s));
    else
      out = Value(std::string(s.size() >= x.size() && s.substr(s.size() - x.size()) == x ? s.substr(0, s.size() - x.size()) : s));
  } else if (name == "expandtabs") {
    args.bind("expandtabs", {"tabsize"}, a);
    std::int64_t tab = a[0] ? require_int(a[0], "expandtabs") : 8;
    std::string o;
    std::int64_t col = 0;
    std::size_t i = 0;
    while (i < s.size()) {
      std::size_t j = i;
      char32_t c = decode_utf8(s, j);
      if (c == '\t') {
        if (tab > 0) {
          std::int64_t n = tab - col % tab;
          if (o.size() + static_cast<std::uint64_t>(n) > (std::size_t{1} << 28)) raise("MemoryError", "string too large");
          o.append(static_cast<std::size_t>(n), ' ');
          col += n;
        }
      } else {
        o.append(s.substr(i, j - i));
        col = (c == '\n' || c == '\r') ? 0 : col + 1;
      }
      i = j;
    }
    out = Value(std::move(o));
  } else {
    raise("TypeError", "str." + std::string(name) + "() is not supported");
  }
  return true;
}

}  // namespace

std::string_view strip_whitespace_at_ends(std::string_view s) { return strip(s, nullptr, true, true); }

bool call_method(Renderer& r, const Value& self, std::string_view name, Args& args, Value& out) {
  if (is_unsafe_method(self, name))
    raise("SecurityError", "access to attribute '" + std::string(name) + "' of '" + self.type_name() + "' object is unsafe.");
  if (!has_method(self, name)) return false;
  const Value* a[3] = {nullptr, nullptr, nullptr};
  if (self.is_string()) return str_method(r, self, name, args, out);
  if (self.is_list()) {
    auto items = self.items();
    if (name == "copy") {
      args.bind("copy", {}, a);
      out = Value::list({items.begin(), items.end()}, self.is_tuple());
      return true;
    }
    args.bind(name, {"value", "start", "stop"}, a);
    if (!a[0]) raise("TypeError", std::string(name) + "() takes at least 1 argument (0 given)");
    if (name == "count") {
      std::int64_t n = 0;
      for (auto& v : items)
        if (v.equals(*a[0])) ++n;
      out = Value(n);
      return true;
    }
    std::int64_t len = static_cast<std::int64_t>(items.size());
    auto norm = [&](const Value* v, std::int64_t def) {
      if (!v) return def;
      std::int64_t i = v->as_int();
      if (i < 0) i = std::max<std::int64_t>(0, i + len);
      return std::min(i, len);
    };
    for (std::int64_t i = norm(a[1], 0), e = norm(a[2], len); i < e; ++i)
      if (items[static_cast<std::size_t>(i)].equals(*a[0])) {
        out = Value(i);
        return true;
      }
    raise("ValueError", a[0]->repr() + " is not in list");
  }
  // dict
  const DictObject& d = self.dict();
  if (name == "items") {
    args.bind("items", {}, a);
    std::vector<Value> v;
    v.reserve(d.size());
    for (auto& [k, x] : d.entries()) v.push_back(Value::list({k, x}, true));
    out = Value::list(std::move(v));
  } else if (name == "keys") {
    args.bind("keys", {}, a);
    std::vector<Value> v;
    for (auto& e : d.entries()) v.push_back(e.first);
    out = Value::list(std::move(v));
  } else if (name == "values") {
    args.bind("values", {}, a);
    std::vector<Value> v;
    for (auto& e : d.entries()) v.push_back(e.second);
    out = Value::list(std::move(v));
  } else if (name == "get") {
    args.bind("get", {"key", "default"}, a);
    if (!a[0]) raise("TypeError", "get expected at least 1 argument, got 0");
    if (!a[0]->hashable()) raise("TypeError", std::string("unhashable type: '") + a[0]->type_name() + "'");
    const Value* v = d.find(*a[0]);
    out = v ? *v : a[1] ? *a[1] : Value::none();
  } else if (name == "copy") {
    args.bind("copy", {}, a);
    out = self;
  } else {
    raise("TypeError", "dict." + std::string(name) + "() is not supported");
  }
  return true;
}

void Args::bind_keywords(std::string_view function, std::initializer_list<const char*> names, const Value** out) const {
  std::size_t n = names.size();
  if (pos.size() > n)
    raise("TypeError", std::string(function) + "() takes at most " + std::to_string(n) + " argument(s) (" +
                           std::to_string(pos.size()) + " given)");
  for (std::size_t i = 0; i < n; ++i) out[i] = i < pos.size() ? &pos[i] : nullptr;
  for (auto& [k, v] : kw) {
    std::size_t i = 0;
    for (auto* name : names) {
      if (k == name) break;
      ++i;
    }
    if (i == n) raise("TypeError", std::string(function) + "() got an unexpected keyword argument '" + k + "'");
    if (out[i]) raise("TypeError", std::string(function) + "() got multiple values for argument '" + k + "'");
    out[i] = &v;
  }
}

}  // namespace textedge::detail::jinja
