#include "parsers/xml_typing.hpp"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/json_dom.hpp"

namespace textedge::detail {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

void add_type(std::vector<std::string>& types, std::string t) {
  for (auto& x : types)
    if (x == t) return;
  types.push_back(std::move(t));
}

void collect_types(const Json& schema, std::vector<std::string>& types) {
  if (!schema.is_object()) return;
  if (auto t = schema.find("type")) {
    if (t->is_string()) {
      add_type(types, lower(t->str()));
    } else if (t->is_array()) {
      for (auto& x : t->array())
        if (x.is_string()) add_type(types, lower(x.str()));
    }
  }
  if (auto e = schema.find("enum"); e && e->is_array()) {
    for (auto& v : e->array()) {
      switch (v.raw().type()) {
        case simdjson::dom::element_type::NULL_VALUE: add_type(types, "null"); break;
        case simdjson::dom::element_type::BOOL: add_type(types, "boolean"); break;
        case simdjson::dom::element_type::INT64:
        case simdjson::dom::element_type::UINT64: add_type(types, "integer"); break;
        case simdjson::dom::element_type::DOUBLE: add_type(types, "number"); break;
        case simdjson::dom::element_type::STRING: add_type(types, "string"); break;
        case simdjson::dom::element_type::ARRAY: add_type(types, "array"); break;
        case simdjson::dom::element_type::OBJECT: add_type(types, "object"); break;
        default: break;
      }
    }
  }
  for (std::string_view key : {"anyOf", "oneOf", "allOf"})
    if (auto list = schema.find(key); list && list->is_array())
      for (auto& branch : list->array()) {
        std::vector<std::string> sub;
        collect_types(branch, sub);
        if (sub.empty()) sub.push_back("string");  // a branch without types counts as a string
        for (auto& t : sub) add_type(types, t);
      }
}

bool is_json(std::string_view s) {
  simdjson::dom::parser p;
  return p.parse(simdjson::padded_string(s)).error() == simdjson::SUCCESS;
}

bool digit(char c) { return c >= '0' && c <= '9'; }

// Digits with single underscores between them (Python's digitpart), from `i`; false if none.
bool digit_part(std::string_view s, std::size_t& i, std::string& out) {
  if (i >= s.size() || !digit(s[i])) return false;
  while (i < s.size()) {
    if (digit(s[i])) {
      out += s[i++];
    } else if (s[i] == '_' && i + 1 < s.size() && digit(s[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  return true;
}

// Python's int(s) for a stripped s, written as JSON.
bool py_int(std::string_view s, std::string& out) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  std::string digits;
  if (!digit_part(s, i, digits) || i != s.size()) return false;
  std::size_t nz = digits.find_first_not_of('0');
  out.clear();
  if (nz == std::string::npos) {
    out.push_back('0');
    return true;
  }
  if (neg) out.push_back('-');
  out.append(digits, nz, std::string::npos);
  return true;
}

// Python's float(s) for a stripped s, integral values as int(): written as JSON. Infinities and
// NaN are not values JSON can carry (vLLM fails on them): not a number here.
bool py_float(std::string_view s, std::string& out, bool keep_float = false) {
  std::size_t i = 0;
  std::string text;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) text += s[i++];
  bool whole = digit_part(s, i, text);
  bool frac = false;
  if (i < s.size() && s[i] == '.') {
    text += s[i++];
    frac = digit_part(s, i, text);
  }
  if (!whole && !frac) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    text += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) text += s[i++];
    if (!digit_part(s, i, text)) return false;
  }
  if (i != s.size()) return false;
  double v = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(v)) return false;
  char buf[400];
  if (v == std::trunc(v) && keep_float && std::fabs(v) < 1e16) {  // Python's repr of an integral float: "3.0"
    std::snprintf(buf, sizeof buf, "%.1f", v);
    out = buf;
  } else if (v == std::trunc(v) && !keep_float) {
    std::snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);
    out = buf;
  } else {
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general);
    out.assign(buf, r.ptr);
    // Python writes a float exponent with at least two digits and a sign, as to_chars does.
  }
  return true;
}

bool has(const std::vector<std::string>& types, std::string_view t) {
  for (auto& x : types)
    if (x == t) return true;
  return false;
}

bool string_only(const std::vector<std::string>& types) {
  for (auto& t : types)
    if (t != "string" && t != "str" && t != "text") return false;
  return true;
}

bool null_word(std::string_view s) {
  std::string l = lower(s);
  return l == "null" || l == "none" || l == "nil";
}

bool null_word_prefix(std::string_view s) {
  std::string l = lower(s);
  for (std::string_view w : {"null", "none", "nil"})
    if (w.starts_with(l)) return true;
  return false;
}

void escaped(std::string_view s, ToolScanner& out) {
  std::string esc;
  for (unsigned char c : s) append_json_char(esc, c);
  out.add_args(esc);
}

}  // namespace

bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

std::string_view py_strip(std::string_view s) {
  while (!s.empty() && py_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && py_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

SchemaTypes::SchemaTypes(const std::string& tools_json) {
  if (tools_json.empty()) return;
  JsonDocument doc(std::string_view(tools_json), "tools");
  for (auto& entry : doc.root().array()) {
    Json fn = entry;
    if (auto f = entry.find("function")) fn = *f;
    Tool& tool = tools_.emplace_back();
    tool.name = std::string(fn.get("name").str());
    auto p = fn.find("parameters");
    if (!p || !p->is_object()) continue;
    auto props = p->find("properties");
    if (!props || !props->is_object()) continue;
    for (auto& [k, v] : props->members()) {
      std::vector<std::string> types;
      collect_types(v, types);
      if (types.empty()) types.push_back("string");
      tool.params.emplace_back(std::string(k), std::move(types));
      std::string direct;
      if (v.is_object())
        if (auto t = v.find("type"); t && t->is_string()) direct = std::string(t->str());
      tool.direct.push_back(std::move(direct));
    }
  }
}

std::vector<std::string> SchemaTypes::types(const std::string& tool, const std::string& parameter) const {
  for (auto& t : tools_)
    if (t.name == tool) {
      for (auto& [k, types] : t.params)
        if (k == parameter) return types;
      break;
    }
  return {"string"};
}

std::string SchemaTypes::direct_type(const std::string& tool, const std::string& parameter) const {
  for (auto& t : tools_)
    if (t.name == tool) {
      for (std::size_t i = 0; i < t.params.size(); ++i)
        if (t.params[i].first == parameter) return t.direct[i];
      return "";
    }
  return "";
}

std::string step3_typed_value(std::string_view raw, const std::string& type) {
  std::string_view v = py_strip(raw);
  std::string out;
  if (type == "integer" && py_int(v, out)) return out;
  if (type == "number" && py_float(v, out, true)) return out;
  if (type == "boolean") {
    std::string l = lower(v);
    if (l == "true" || l == "false") return l;
  }
  if (type == "null" && lower(v) == "null") return "null";
  return json_quote(v);
}

bool SchemaTypes::describes(const std::string& tool, const std::string& parameter) const {
  for (auto& t : tools_)
    if (t.name == tool) {
      for (auto& [k, types] : t.params)
        if (k == parameter) return true;
      return false;
    }
  return false;
}

std::string dsml_typed_value(std::string_view raw, bool string_attr, const std::vector<std::string>& types, bool typed) {
  bool json = !string_attr && is_json(raw);
  if (!typed) return json ? std::string(raw) : json_quote(raw);
  bool allows_string = has(types, "string") || has(types, "str") || has(types, "text");
  if (!json) return allows_string ? json_quote(raw) : minimax_typed_value(py_strip(raw), types);
  simdjson::dom::parser p;
  simdjson::dom::element e = p.parse(simdjson::padded_string(raw)).value();
  using T = simdjson::dom::element_type;
  bool only_string = allows_string;
  for (auto& t : types) only_string = only_string && (t == "string" || t == "str" || t == "text");
  switch (e.type()) {
    case T::STRING: return std::string(raw);
    case T::NULL_VALUE: return allows_string && !has(types, "null") ? json_quote(py_strip(raw)) : std::string("null");
    case T::INT64:
    case T::UINT64:
    case T::DOUBLE: {
      if (has(types, "integer") || has(types, "number")) {
        std::string out;
        if (py_float(py_strip(raw), out)) return out;
        return std::string(raw);
      }
      return only_string ? json_quote(raw) : std::string(raw);
    }
    case T::BOOL: return only_string ? json_quote(raw) : std::string(raw);
    default: return only_string ? json_quote(raw) : std::string(raw);
  }
}

std::string minimax_typed_value(std::string_view v, const std::vector<std::string>& types) {
  if (null_word(v)) return "null";
  std::string out;
  for (std::string_view t : {"integer", "int", "number", "float", "boolean", "bool", "object", "array", "string", "str", "text"}) {
    if (!has(types, t)) continue;
    if (t == "string" || t == "str" || t == "text") return json_quote(v);
    if (t == "integer" || t == "int") {
      if (py_int(v, out)) return out;
    } else if (t == "number" || t == "float") {
      if (py_float(v, out)) return out;
    } else if (t == "boolean" || t == "bool") {
      std::string l = lower(v);
      if (l == "true" || l == "1" || l == "yes" || l == "on") return "true";
      if (l == "false" || l == "0" || l == "no" || l == "off") return "false";
    } else if (is_json(v)) {
      return std::string(v);
    }
  }
  if (is_json(v)) return std::string(v);
  return json_quote(v);
}

void XmlValue::begin(std::vector<std::string> types, Rules rules, bool string_attr, bool typed) {
  types_ = std::move(types);
  rules_ = rules;
  string_attr_ = string_attr;
  typed_ = typed;
  if (rules == Rules::step3) {
    const std::string& t = types_.empty() ? std::string() : types_[0];
    streamed_ = t != "integer" && t != "number" && t != "boolean" && t != "null";
  } else {
    streamed_ = rules == Rules::minimax ? string_only(types_) : string_attr && (!typed || string_only(types_));
  }
  decided_ = false;
  value_.clear();
  ws_.clear();
  at_ = 0;
}

bool XmlValue::step(unsigned char c, std::string_view end_tag, ToolScanner& out) {
  if (at_ > 0) {
    if (c == static_cast<unsigned char>(end_tag[at_])) {
      if (++at_ < end_tag.size()) return false;
      finish(out);
      return true;
    }
    // The held prefix is text from its first byte; the rest (and c) may begin the tag again
    // (an end tag with another '<' in it: Kimi K3's <|close|>argument<|sep|>).
    std::string rest(end_tag.substr(1, at_ - 1));
    rest += static_cast<char>(c);
    text(static_cast<unsigned char>(end_tag[0]), out);
    at_ = 0;
    for (unsigned char r : rest) step(r, end_tag, out);  // shorter than the tag: cannot complete it
    return false;
  }
  if (c == '<') {
    at_ = 1;
    return false;
  }
  text(c, out);
  return false;
}

void XmlValue::text(unsigned char c, ToolScanner& out) {
  if (!streamed_) {
    value_ += static_cast<char>(c);
    return;
  }
  if (rules_ != Rules::minimax) {  // as written
    if (!decided_) out.add_args("\"");
    decided_ = true;
    escaped(std::string_view(reinterpret_cast<const char*>(&c), 1), out);
    return;
  }
  if (decided_) {
    if (py_space(c)) {
      ws_ += static_cast<char>(c);
      return;
    }
    ws_ += static_cast<char>(c);
    escaped(ws_, out);
    ws_.clear();
    return;
  }
  // Not yet decided: the value so far is whitespace or could be a null word.
  value_ += static_cast<char>(c);
  if (py_space(c)) return;
  std::string_view v = py_strip(value_);
  if (null_word_prefix(v)) return;
  decided_ = true;
  out.add_args("\"");
  escaped(v, out);
  value_.clear();
}

void XmlValue::finish(ToolScanner& out) {
  if (rules_ == Rules::step3 && !streamed_) {
    out.add_args(step3_typed_value(value_, types_[0]));
  } else if (rules_ != Rules::minimax) {
    if (!streamed_) out.add_args(dsml_typed_value(value_, string_attr_, types_, typed_));
    else out.add_args(decided_ ? "\"" : "\"\"");
  } else if (!streamed_) {
    out.add_args(minimax_typed_value(py_strip(value_), types_));
  } else if (decided_) {
    out.add_args("\"");
  } else {
    std::string_view v = py_strip(value_);
    out.add_args(null_word(v) ? std::string("null") : json_quote(v));
  }
  value_.clear();
  ws_.clear();
}

}  // namespace textedge::detail
