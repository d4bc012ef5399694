#include "parsers/core.hpp"
#include "parsers/python_literal.hpp"

#include <simdjson.h>

#include <cstring>
#include <random>

#include "base/json_dom.hpp"

namespace textedge::detail {

void Emitter::text(ChatDelta::Kind kind, std::string_view s) {
  if (s.empty()) return;
  if (text_is_reasoning) kind = ChatDelta::Kind::reasoning;
  if (!out->empty() && out->back().kind == kind && kind != ChatDelta::Kind::tool_call) {
    out->back().text += s;
    return;
  }
  ChatDelta& d = out->emplace_back();
  d.kind = kind;
  d.text.assign(s);
}

void Emitter::call(int index, std::string id, std::string name, std::string_view args) {
  ChatDelta& d = out->emplace_back();
  d.kind = ChatDelta::Kind::tool_call;
  d.text.assign(args);
  d.index = index;
  d.id = std::move(id);
  d.name = std::move(name);
}

void Emitter::args(int index, std::string_view s) {
  if (s.empty()) return;
  if (!out->empty() && out->back().kind == ChatDelta::Kind::tool_call && out->back().index == index) {
    out->back().text += s;
    return;
  }
  // Built in place: a ChatDelta{...} temporary was zeroed with `rep stos` and then moved, 40% of
  // a one-character argument delta (perf, BM_ParseFamily llama3_json, 2026-12-03).
  ChatDelta& d = out->emplace_back();
  d.kind = ChatDelta::Kind::tool_call;
  d.text.assign(s);
  d.index = index;
}

bool json_ws(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// ---- JsonScan ----

enum : unsigned char { kMinus, kZero, kInt, kDot, kFrac, kE, kESign, kExp };

JsonScan::R JsonScan::begin_value(unsigned char c) {
  switch (c) {
    case '{': stack_ += '{'; st_ = St::key_or_close; return R::ok;
    case '[': stack_ += '['; st_ = St::value_or_close; return R::ok;
    case '"': in_key_ = false; st_ = St::str; return R::ok;
    case 't': lit_ = "true"; break;
    case 'f': lit_ = "false"; break;
    case 'n': lit_ = "null"; break;
    default:
      if (c == '-' || (c >= '0' && c <= '9')) {
        st_ = St::num;
        num_ = c == '-' ? kMinus : c == '0' ? kZero : kInt;
        return R::ok;
      }
      return R::error;
  }
  lit_pos_ = 1;
  st_ = St::lit;
  return R::ok;
}

JsonScan::R JsonScan::close(unsigned char c) {
  if (stack_.empty() || stack_.back() != (c == '}' ? '{' : '[')) return R::error;
  stack_.pop_back();
  return value_end();
}

JsonScan::R JsonScan::value_end() {
  if (stack_.empty()) {
    st_ = St::done;
    return R::done;
  }
  st_ = St::comma_or_close;
  return R::ok;
}

JsonScan::R JsonScan::step(unsigned char c) {
  for (;;) {
    switch (st_) {
      case St::value:
      case St::value_or_close:
        if (json_ws(c)) return R::ok;
        if (st_ == St::value_or_close && c == ']') return close(c);
        if (stack_.empty() && c != '{') return R::error;  // a top-level object only
        return begin_value(c);
      case St::key_or_close:
      case St::key:
        if (json_ws(c)) return R::ok;
        if (st_ == St::key_or_close && c == '}') return close(c);
        if (c != '"') return R::error;
        in_key_ = true;
        if (stack_.size() == 1) key_.clear();
        st_ = St::str;
        return R::ok;
      case St::colon:
        if (json_ws(c)) return R::ok;
        if (c != ':') return R::error;
        st_ = St::value;
        return R::ok;
      case St::comma_or_close:
        if (json_ws(c)) return R::ok;
        if (c == ',') {
          st_ = stack_.back() == '{' ? St::key : St::value;
          return R::ok;
        }
        if (c == '}' || c == ']') return close(c);
        return R::error;
      case St::str:
        if (c == '"') {
          if (in_key_) {
            in_key_ = false;
            st_ = St::colon;
            return R::ok;
          }
          return value_end();
        }
        if (c < 0x20) return R::error;
        if (c == '\\') st_ = St::esc;
        if (in_key_ && stack_.size() == 1) key_ += static_cast<char>(c);
        return R::ok;
      case St::esc:
        if (c == 'u') {
          hex_ = 4;
          st_ = St::hex;
        } else if (c && std::strchr("\"\\/bfnrt", c)) {
          st_ = St::str;
        } else {
          return R::error;
        }
        if (in_key_ && stack_.size() == 1) key_ += static_cast<char>(c);
        return R::ok;
      case St::hex:
        if (!std::isxdigit(c)) return R::error;
        if (--hex_ == 0) st_ = St::str;
        if (in_key_ && stack_.size() == 1) key_ += static_cast<char>(c);
        return R::ok;
      case St::num: {
        // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, strictly, so that every
        // streamed prefix can still become valid JSON.
        bool digit = c >= '0' && c <= '9';
        switch (num_) {
          case kMinus: if (!digit) return R::error; num_ = c == '0' ? kZero : kInt; return R::ok;
          case kInt: if (digit) return R::ok; [[fallthrough]];
          case kZero:
            if (c == '.') { num_ = kDot; return R::ok; }
            if (c == 'e' || c == 'E') { num_ = kE; return R::ok; }
            break;
          case kDot: if (!digit) return R::error; num_ = kFrac; return R::ok;
          case kFrac:
            if (digit) return R::ok;
            if (c == 'e' || c == 'E') { num_ = kE; return R::ok; }
            break;
          case kE:
            if (c == '+' || c == '-') { num_ = kESign; return R::ok; }
            [[fallthrough]];
          case kESign: if (!digit) return R::error; num_ = kExp; return R::ok;
          case kExp: if (digit) return R::ok; break;
        }
        if (digit) return R::error;  // a digit after a leading 0
        value_end();  // the number ended before this byte: read it again after the value
        continue;
      }
      case St::lit:
        if (c != static_cast<unsigned char>(lit_[lit_pos_])) return R::error;
        if (!lit_[++lit_pos_]) return value_end();
        return R::ok;
      case St::done:
        return json_ws(c) ? R::ok : R::error;
    }
  }
}

// ---- WrapperCall ----

WrapperCall::R WrapperCall::step(unsigned char c, ToolScanner& s) {
  bool value_start = p_.depth() == 1 && p_.expecting_value() && !json_ws(c);
  JsonScan::R r = p_.step(c);
  if (r == JsonScan::R::error) return R::error;
  if (value_start) {
    const std::string& key = p_.key();
    if (key == keys_.name) {
      if (c != '"' || have_name_) return R::error;
      region_ = Region::name;
      return R::more;
    }
    if (!keys_.id.empty() && key == keys_.id && c == '"') {  // mistral-common writes {"id": ..., "name": ...}, Nemo's template the id last
      region_ = Region::id;
      id_raw_.clear();
      return R::more;
    }
    if (key == "arguments" || key == "parameters") {
      if (c == '"' && string_args_ && !have_args_) {
        region_ = Region::args_string;
        return R::more;
      }
      if (c != '{' || have_args_) return R::error;
      region_ = Region::args;
      s.add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
      return R::more;
    }
  } else if (region_ == Region::name || region_ == Region::id) {
    std::string& raw = region_ == Region::name ? name_raw_ : id_raw_;
    if (p_.in_string()) {
      raw += static_cast<char>(c);
    } else if (region_ == Region::id) {
      region_ = Region::none;
      if (have_name_) s.late_id(json_unescape(id_raw_));
    } else {
      region_ = Region::none;
      have_name_ = true;
      s.set_name(json_unescape(name_raw_), json_unescape(id_raw_));
    }
  } else if (region_ == Region::args_string) {
    if (p_.in_string()) {
      args_raw_ += static_cast<char>(c);
    } else {  // the string ended: it must hold one JSON object
      region_ = Region::none;
      std::string args = json_unescape(args_raw_);
      args_raw_.clear();
      JsonScan inner;
      bool done = false;
      for (unsigned char b : args) {
        JsonScan::R ir = inner.step(b);
        if (ir == JsonScan::R::error) return R::error;
        done |= ir == JsonScan::R::done;
      }
      if (!done) return R::error;
      args.erase(args.find_last_not_of(" \t\r\n") + 1);  // the object alone, as written
      args.erase(0, args.find('{'));
      s.add_args(args);
      have_args_ = true;
    }
  } else if (region_ == Region::args) {
    s.add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
    if (p_.depth() == 1) {
      region_ = Region::none;
      have_args_ = true;
    }
  }
  if (r == JsonScan::R::done) {
    if (!have_name_) return R::error;
    if (!have_args_) s.add_args("{}");
    return R::done;
  }
  return R::more;
}

namespace {
void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}
// The four hex digits at the start of s, or -1 (fewer, or not hex).
long hex4(std::string_view s) {
  if (s.size() < 4) return -1;
  long v = 0;
  for (char c : s.substr(0, 4)) {
    char l = static_cast<char>(c | 0x20);
    int d = c >= '0' && c <= '9' ? c - '0' : l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    if (d < 0) return -1;
    v = v << 4 | d;
  }
  return v;
}
}  // namespace

// The contents of a JSON string checked by JsonScan, or any text (typed_value): a "\u" without
// four hex digits after it stays as written (fuzz_parse_qwen3_coder: std::stoul threw on it).
std::string json_unescape(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 >= raw.size()) {
      out += raw[i];
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        long code = hex4(raw.substr(i + 1));
        if (code < 0) {
          out += "\\u";
          break;
        }
        auto cp = static_cast<std::uint32_t>(code);
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u') {
          long lo = hex4(raw.substr(i + 3));
          if (lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        append_utf8(out, cp);
        break;
      }
      default: out += e;
    }
  }
  return out;
}

// ---- ToolScanner ----

ToolScanner::ToolScanner(Emitter& em, const OutputParserOptions& options, std::vector<std::string> markers)
    : em_(em), markers_(shared_stop_strings(markers)), partial_(options.partial_calls), seed_(options.id_seed) {}

void ToolScanner::content(std::string_view s) {
  if (s.empty()) return;
  if (!gap_.empty()) {
    em_.text(ChatDelta::Kind::content, gap_);
    gap_.clear();
  }
  if (!content_started_)
    for (unsigned char c : s)
      if (!json_ws(c)) content_started_ = true;
  em_.text(ChatDelta::Kind::content, s);
}

// Performance note: one automaton transition per byte; at the root (ordinary text) a byte
// is released at once without touching held_.
void ToolScanner::outside(unsigned char c) {
  if (after_call_) {
    if (json_ws(c) && held_.empty()) {
      gap_ += static_cast<char>(c);
      return;
    }
    after_call_ = false;
  }
  std::optional<StopStrings::Match> m = markers_->feed(ac_, std::string_view(reinterpret_cast<const char*>(&c), 1));
  std::size_t keep = markers_->held(ac_);
  if (keep == 0 && held_.empty() && !m) {
    content(std::string_view(reinterpret_cast<const char*>(&c), 1));
    return;
  }
  held_ += static_cast<char>(c);
  if (m && marker_allowed(m->index)) {
    marker_len_ = markers_->pattern(m->index).size();
    content(std::string_view(held_).substr(0, held_.size() - marker_len_));
    raw_.assign(held_, held_.size() - marker_len_);
    held_.clear();
    gap_.clear();
    ac_ = 0;
    in_session_ = true;
    session_output_ = false;
    committed_ = 0;
    begin(m->index);
    return;
  }
  if (held_.size() > keep) {
    content(std::string_view(held_).substr(0, held_.size() - keep));
    held_.erase(0, held_.size() - keep);
  }
}

void ToolScanner::byte(unsigned char c) {
  if (!in_session_) return outside(c);
  raw_ += static_cast<char>(c);
  Step s = step(c);
  if (s == Step::end) {
    in_session_ = false;
    if (session_output_) {
      after_call_ = true;
    } else {
      content(raw_);  // a section that made no call (`<begin><end>`) is text as written
    }
    raw_.clear();
  } else if (s == Step::fail) {
    // The byte that broke the session is not part of it, even when the step that read it
    // released earlier held bytes (a number ended by it) and so committed up to it.
    if (committed_ == raw_.size()) --committed_;
    resolve();
  }
}

void ToolScanner::resolve() {
  std::string raw = std::move(raw_);
  raw_.clear();
  in_session_ = false;
  std::size_t from = committed_;
  if (from == 0) {
    from = marker_len_;
    content(std::string_view(raw).substr(0, from));
  } else {
    after_call_ = true;
  }
  header_sent_ = have_name_ = false;
  name_.clear();
  args_.clear();
  for (std::size_t i = from; i < raw.size(); ++i) byte(static_cast<unsigned char>(raw[i]));
}

void ToolScanner::finish() {
  if (in_session_) at_finish();
  while (in_session_) {
    if (committed_ == raw_.size()) {
      in_session_ = false;
      raw_.clear();
    } else {
      resolve();
    }
  }
  content(held_);
  held_.clear();
  gap_.clear();  // whitespace after the last call
  ac_ = 0;
}

std::string ToolScanner::next_id() {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  if (seed_ == 0) {
    std::random_device rd;
    seed_ = (std::uint64_t(rd()) << 32 | rd()) | 1;
  }
  std::string id = id_prefix_;
  std::uint64_t x = seed_ + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(em_.next_call + 1);
  for (int i = 0; i < id_length_; ++i) {
    if (i % 8 == 0) {  // splitmix64
      x += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x ^= z ^ (z >> 31);
    }
    id += kAlphabet[(x >> (6 * (i % 8))) % 62];
  }
  return id;
}

int match_tag(std::string& buf, unsigned char c, std::initializer_list<std::string_view> tags) {
  buf += static_cast<char>(c);
  bool prefix = false;
  int i = 0;
  for (std::string_view t : tags) {
    if (t == buf) return i;
    prefix |= t.starts_with(buf);
    ++i;
  }
  return prefix ? -1 : -2;
}

void ToolScanner::set_id_style(std::string prefix, int length) {
  id_prefix_ = std::move(prefix);
  id_length_ = length;
}

void ToolScanner::set_name(std::string name, std::string own_id) {
  name_ = std::move(name);
  id_ = std::move(own_id);
  have_name_ = true;
  if (partial_ && !args_.empty()) send_header();  // the arguments came first
}

// A streamed call's header goes out with its first fragment of arguments: a call that breaks
// before its arguments begin is content as written, never a call without arguments.
void ToolScanner::send_header() {
  index_ = em_.next_call;
  if (id_.empty()) id_ = next_id();
  std::string id = std::move(id_);
  ++em_.next_call;
  em_.call(index_, std::move(id), name_, args_);
  args_.clear();
  header_sent_ = true;
  session_output_ = true;
  commit();
}

void ToolScanner::late_id(std::string id) {
  if (!header_sent_) id_ = std::move(id);
}

void ToolScanner::add_args(std::string_view s) {
  if (s.empty()) return;  // nothing released: the bytes read so far stay uncommitted
  if (partial_ && header_sent_) {
    em_.args(index_, s);
    commit();
    return;
  }
  args_ += s;
  if (partial_ && have_name_) send_header();
}

void ToolScanner::end_call() {
  if (!partial_) {
    int index = em_.next_call;
    std::string id = id_.empty() ? next_id() : std::move(id_);
    ++em_.next_call;
    em_.call(index, std::move(id), std::move(name_), args_);
  }
  ++completed_;
  session_output_ = true;
  commit();
  header_sent_ = have_name_ = false;
  id_.clear();
  name_.clear();
  args_.clear();
}

void ToolScanner::commit() { committed_ = raw_.size(); }

void ToolScanner::emit_text(ChatDelta::Kind kind, std::string_view s) {
  session_output_ = true;
  if (kind == ChatDelta::Kind::content)
    content(s);
  else
    em_.text(kind, s);
  commit();
}

// ---- raw values typed by the tools ----

ToolTypes::ToolTypes(const std::string& tools_json) {
  if (tools_json.empty()) return;
  JsonDocument doc(std::string_view(tools_json), "tools");
  for (auto& entry : doc.root().array()) {
    Json fn = entry;
    if (auto f = entry.find("function")) fn = *f;
    auto& tool = tools_.emplace_back(std::string(fn.get("name").str()), std::vector<std::pair<std::string, std::string>>{});
    auto p = fn.find("parameters");
    if (!p || !p->is_object()) continue;
    auto props = p->find("properties");
    if (!props || !props->is_object()) continue;
    for (auto& [k, v] : props->members()) {
      std::string type = "string";
      if (v.is_object())
        if (auto t = v.find("type")) {
          if (t->is_string()) {
            type = t->str();
          } else if (t->is_array()) {
            for (auto& x : t->array())
              if (x.is_string() && x.str() != "null") {
                type = x.str();
                break;
              }
          }
        }
      tool.second.emplace_back(std::string(k), type);
    }
  }
}

bool ToolTypes::string_typed(const std::string& tool, const std::string& parameter) const {
  for (auto& [name, params] : tools_)
    if (name == tool)
      for (auto& [k, type] : params)
        if (k == parameter) return type == "string";
  return true;
}

// A value that is not JSON is read as a Python literal (`{'key': 'value'}`, as vLLM falls back
// to ast.literal_eval); a value the model wrote with its quotes escaped (`[{\"id\": 1}]`,
// GLM-4.6 in SGLang's tests) is read once unescaped; anything else is a string.
std::string typed_value(const std::string& raw) {
  simdjson::dom::parser p;
  if (p.parse(simdjson::padded_string(raw)).error() == simdjson::SUCCESS) return raw;
  std::string json;
  if (python_literal_to_json(raw, json)) return json;
  if (raw.find("\\\"") != std::string::npos) {
    std::string unescaped = json_unescape(raw);
    if (p.parse(simdjson::padded_string(unescaped)).error() == simdjson::SUCCESS) return unescaped;
  }
  return json_quote(raw);
}

}  // namespace textedge::detail
