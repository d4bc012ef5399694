// gemma4: Google Gemma 4 (its chat template's format_argument; vLLM's gemma4 tool parser):
//   <|tool_call>call:f{city:<|"|>Paris<|"|>,days:3}<tool_call|>
// one block per call, several in a row. The arguments are not JSON: keys are bare (or, in the
// template's tool declarations, <|"|>-quoted), strings are written raw between <|"|> (a special
// token of Gemma 4, so a string holds any text and has no escapes), objects {k:v,...} and arrays
// [v,...] nest, and other values are bare: true, false, null (vLLM also reads none and nil), and
// numbers. They are written as JSON as they stream: strings as they come, bare values at their
// end (a bare value that is not one of these, or not a JSON number, is a string, as in vLLM).
// Gemma 4 thinks in a channel, <|channel>thought\n...<channel|>, which this format reads as
// reasoning itself (vLLM's gemma4 reasoning parser; the "thought\n" that opens it is dropped), so it
// goes with reasoning "none"; with thinking off the template closes an empty channel in the prompt.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kQuote = "<|\"|>", kCall = "call:", kEnd = "<tool_call|>";
constexpr std::string_view kThought = "thought\n", kChannelEnd = "<channel|>";

bool name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
         c >= 0x80;
}

// A JSON number, exactly: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool json_number(std::string_view s) {
  std::size_t i = 0, n = s.size();
  auto digits = [&] {
    std::size_t from = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') ++i;
  else if (!digits()) return false;
  if (i < n && s[i] == '.' && (++i, !digits())) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

// A bare value as JSON.
std::string bare_json(std::string_view v) {
  if (v == "true" || v == "false") return std::string(v);
  std::string lower;
  for (char c : v) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "null" || lower == "none" || lower == "nil") return "null";
  if (json_number(v)) return std::string(v);
  return json_quote(v);
}

class Gemma4 final : public ToolScanner {
 public:
  Gemma4(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|tool_call>", "<|channel>"}) {}

 private:
  enum class St : unsigned char { thought_prefix, thought, call, name, key_pre, key_open, key_bare, key_quoted, key_colon, elem_pre, val_pre, val_open, str, bare, after_val, end_tag };
  void begin(std::uint32_t marker) override {
    st_ = marker == 1 ? St::thought_prefix : St::call;
    at_ = 0;
    name_.clear();
    stack_.clear();
    tag_.clear();
    if (marker == 1) thought({});  // a channel, even an empty one, is output: its markers are the format's
  }
  void thought(std::string_view s) { emit_text(ChatDelta::Kind::reasoning, s); }
  void separator() {
    if (!first_) add_args(", ");
    first_ = false;
  }
  Step open(unsigned char c) {
    add_args(c == '{' ? "{" : "[");
    stack_ += static_cast<char>(c);
    first_ = true;
    st_ = c == '{' ? St::key_pre : St::elem_pre;
    return Step::more;
  }
  Step close(unsigned char c) {
    if (stack_.empty() || stack_.back() != (c == '}' ? '{' : '[')) return Step::fail;
    add_args(c == '}' ? "}" : "]");
    stack_.pop_back();
    first_ = false;
    st_ = stack_.empty() ? St::end_tag : St::after_val;
    at_ = 0;
    return Step::more;
  }
  void key_done() {
    separator();
    add_args(json_quote(key_));
    add_args(": ");
    st_ = St::val_pre;
  }
  // Inside a <|"|>-quoted text: true when `c` was taken (text or part of a possible <|"|>),
  // false when the closing <|"|> is complete.
  bool quoted(unsigned char c, std::string& text) {
    if (tag_.empty() && c != '<') {
      text += static_cast<char>(c);
      return true;
    }
    tag_ += static_cast<char>(c);
    if (tag_ == kQuote) {
      tag_.clear();
      return false;
    }
    if (kQuote.starts_with(tag_)) return true;
    // Not the delimiter: the held bytes are text; the last one may begin it again.
    std::string held = std::move(tag_);
    tag_.clear();
    held.pop_back();
    text += held;
    return quoted(c, text);
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::thought_prefix:
        tag_ += static_cast<char>(c);
        if (tag_ == kThought) {
          tag_.clear();
          st_ = St::thought;
          return Step::more;
        }
        if (kThought.starts_with(tag_)) return Step::more;
        {
          std::string held = std::move(tag_);  // not "thought\n": reasoning text
          tag_.clear();
          held.pop_back();
          st_ = St::thought;
          thought(held);
          return step(c);
        }
      case St::thought:
        if (!tag_.empty() || c == '<') {  // held back: a tail that could begin <channel|>
          switch (match_tag(tag_, c, {kChannelEnd})) {
            case -1: return Step::more;
            case 0: commit(); return Step::end;
            default: {
              std::string held = std::move(tag_);
              tag_.clear();
              held.pop_back();
              thought(held);
              return step(c);
            }
          }
        }
        thought(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
      case St::call:
        if (at_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(kCall[at_])) return Step::fail;
        if (++at_ == kCall.size()) st_ = St::name;
        return Step::more;
      case St::name:
        if (c == '{' && !name_.empty()) {
          set_name(name_);
          return open(c);
        }
        if (!name_char(c)) return Step::fail;
        name_ += static_cast<char>(c);
        return Step::more;
      case St::key_pre:
        if (json_ws(c)) return Step::more;
        if (c == '}') return close(c);
        if (c == '<') {
          tag_.assign(1, '<');
          st_ = St::key_open;
          return Step::more;
        }
        key_.clear();
        st_ = St::key_bare;
        [[fallthrough]];
      case St::key_bare:
        if (c == ':') {
          while (!key_.empty() && json_ws(static_cast<unsigned char>(key_.back()))) key_.pop_back();
          if (key_.empty()) return Step::fail;
          key_done();
          return Step::more;
        }
        if (c == ',' || c == '{' || c == '}' || c == '[' || c == ']') return Step::fail;
        key_ += static_cast<char>(c);
        return Step::more;
      case St::key_open:
        tag_ += static_cast<char>(c);
        if (tag_ == kQuote) {
          tag_.clear();
          key_.clear();
          st_ = St::key_quoted;
          return Step::more;
        }
        if (kQuote.starts_with(tag_)) return Step::more;
        key_ = tag_.substr(0, tag_.size() - 1);  // a bare key that begins with '<'
        tag_.clear();
        st_ = St::key_bare;
        return step(c);
      case St::key_quoted:
        if (!quoted(c, key_)) st_ = St::key_colon;
        return Step::more;
      case St::key_colon:
        if (json_ws(c)) return Step::more;
        if (c != ':') return Step::fail;
        key_done();
        return Step::more;
      case St::elem_pre:
        if (json_ws(c)) return Step::more;
        if (c == ']') return close(c);
        separator();
        st_ = St::val_pre;
        [[fallthrough]];
      case St::val_pre:
        if (json_ws(c)) return Step::more;
        if (c == '{' || c == '[') return open(c);
        if (c == ',' || c == '}' || c == ']') return Step::fail;  // no value
        if (c == '<') {
          tag_.assign(1, '<');
          st_ = St::val_open;
          return Step::more;
        }
        value_.assign(1, static_cast<char>(c));
        st_ = St::bare;
        return Step::more;
      case St::val_open:
        tag_ += static_cast<char>(c);
        if (tag_ == kQuote) {
          tag_.clear();
          add_args("\"");
          st_ = St::str;
          return Step::more;
        }
        if (kQuote.starts_with(tag_)) return Step::more;
        value_ = tag_.substr(0, tag_.size() - 1);  // a bare value that begins with '<'
        tag_.clear();
        st_ = St::bare;
        return step(c);
      case St::str: {
        std::string text;
        bool more = quoted(c, text);
        if (!text.empty()) {
          std::string esc;
          for (unsigned char b : text) append_json_char(esc, b);
          add_args(esc);
        }
        if (!more) {
          add_args("\"");
          st_ = St::after_val;
        }
        return Step::more;
      }
      case St::bare:
        if (c != ',' && c != '}' && c != ']') {
          value_ += static_cast<char>(c);
          return Step::more;
        }
        while (!value_.empty() && json_ws(static_cast<unsigned char>(value_.back()))) value_.pop_back();
        add_args(bare_json(value_));
        st_ = St::after_val;
        [[fallthrough]];
      case St::after_val:
        if (json_ws(c)) return Step::more;
        if (c == '}' || c == ']') return close(c);
        if (c != ',') return Step::fail;
        st_ = stack_.back() == '{' ? St::key_pre : St::elem_pre;
        return Step::more;
      case St::end_tag:
        if (at_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(kEnd[at_])) return Step::fail;
        if (++at_ < kEnd.size()) return Step::more;
        end_call();
        return Step::end;
    }
    return Step::fail;
  }
  // Arguments complete when the output ends: the call is complete without its <tool_call|>
  // (an engine may stop on it).
  void at_finish() override {
    if (st_ == St::end_tag) end_call();
    if (st_ == St::thought) thought(tag_);  // an unterminated channel is reasoning
    if (st_ == St::thought_prefix) thought(tag_);  // a cut-off "thought" prefix is text
  }

  St st_ = St::call;
  std::size_t at_ = 0;
  std::string name_, key_, value_, tag_;
  std::string stack_;  // the open '{' and '[' of the arguments
  bool first_ = true;
};

}  // namespace

extern const Family kGemma4;
constexpr Family kGemma4{
    .name = "gemma4",
    .models = "Gemma 4",
    .example = "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>"
        "<|tool_call>call:get_time{tz:<|\"|>Asia/Tokyo<|\"|>}<tool_call|>",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Gemma4>(em, o); },
    .markers = {"<|tool_call>", "<tool_call|>", "<|\"|>", "<|channel>", "<channel|>"},  // special tokens of Gemma 4
    .detect = [](std::string_view t) { return contains(t, "<|tool_call>call:"); },
    // The arguments as the template's format_argument writes them (Dialect::gemma4).
    .call_regex = [](const ToolRegex& tool) -> std::string {
      for (char c : tool.name())
        if (!name_char(static_cast<unsigned char>(c)))
          SchemaCompiler::fail(tool.at().get("name"), "Gemma 4 calls need a name of letters, digits, _, - and .");
      if (tool.name().empty()) SchemaCompiler::fail(tool.at().get("name"), "Gemma 4 calls need a name");
      std::string members = tool.members(MemberStyle{nullptr, "", ",", ""}, Dialect::gemma4);
      return "<\\|tool_call>call:" + tool.name_regex() + "\\{" + members + "\\}<tool_call\\|>";
    },
    .envelope = {"", "", "", true},
};

}  // namespace textedge::detail
