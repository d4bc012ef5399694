// glm45: GLM-4.5 / 4.6 (chat template; vLLM's glm45 parser):
//   <tool_call>f\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n...</tool_call>
// glm47: GLM-4.7 (its chat template; vLLM's glm47 parser, which is vLLM's glm45 parser with the
// newlines optional): the same without newlines, <tool_call>f<arg_key>k</arg_key><arg_value>v
// </arg_value>...</tool_call>, several calls directly in a row. One scanner reads both (below);
// the families differ in detection and in the forced-call regex.
// Values are raw text typed by the tools' JSON schema, as for qwen3_coder (core.hpp ToolTypes):
// strings stream as written, other values are held to </arg_value>. The newlines may be absent
// (GLM-4.7) or written as a literal backslash-n (GLM-4.6, in SGLang's tests): both separate.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kArgKey = "<arg_key>", kEndArgKey = "</arg_key>", kArgValue = "<arg_value>",
                           kEndArgValue = "</arg_value>", kEndCall = "</tool_call>";

class Glm45 final : public ToolScanner {
 public:
  Glm45(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<tool_call>"}), types_(o.tools_json) {}

 private:
  enum class St : unsigned char { name, body, body_tag, key, key_end, value_pre, value_tag, value };
  void begin(std::uint32_t) override {
    st_ = St::name;
    name_.clear();
    first_ = true;
    backslash_ = false;
  }
  Step step(unsigned char c) override {
    if (st_ == St::name || st_ == St::body || st_ == St::value_pre) {
      if (backslash_) {
        backslash_ = false;
        if (c == 'n') {
          c = '\n';  // a literal backslash-n
        } else if (st_ == St::name) {
          name_ += '\\';
        } else {
          return Step::fail;
        }
      } else if (c == '\\') {
        backslash_ = true;
        return Step::more;
      }
    }
    switch (st_) {
      case St::name:
        if (c == '\n' || c == '<') {
          if (name_.empty()) return Step::fail;
          set_name(name_);
          st_ = St::body;
          return c == '<' ? step(c) : Step::more;
        }
        if (json_ws(c)) return Step::fail;
        name_ += static_cast<char>(c);
        return Step::more;
      case St::body:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::body_tag;
        [[fallthrough]];
      case St::body_tag:
        switch (match_tag(buf_, c, {kArgKey, kEndCall})) {
          case -1: return Step::more;
          case 0: key_.clear(); st_ = St::key; return Step::more;
          case 1:
            add_args(first_ ? "{}" : "}");
            end_call();
            return Step::end;
          default: return Step::fail;
        }
      case St::key:
        if (c == '<') {
          if (key_.empty()) return Step::fail;
          buf_.clear();
          st_ = St::key_end;
          return step(c);
        }
        key_ += static_cast<char>(c);
        return Step::more;
      case St::key_end:
        switch (match_tag(buf_, c, {kEndArgKey})) {
          case -1: return Step::more;
          case 0: st_ = St::value_pre; return Step::more;
          default: return Step::fail;
        }
      case St::value_pre:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::value_tag;
        [[fallthrough]];
      case St::value_tag:
        switch (match_tag(buf_, c, {kArgValue})) {
          case -1: return Step::more;
          case 0: {
            std::string head = first_ ? "{" : ", ";
            head += json_quote(key_);
            head += ": ";
            first_ = false;
            is_string_ = types_.string_typed(name_, key_);
            if (is_string_) head += '"';
            add_args(head);
            value_.clear();
            at_ = 0;
            st_ = St::value;
            return Step::more;
          }
          default: return Step::fail;
        }
      case St::value:
        // Held back: a prefix of </arg_value> ('<' occurs once in it, at the start).
        if (at_ > 0) {
          if (c == static_cast<unsigned char>(kEndArgValue[at_])) {
            if (++at_ == kEndArgValue.size()) {
              add_args(is_string_ ? std::string("\"") : typed_value(value_));
              st_ = St::body;
            }
            return Step::more;
          }
          out(kEndArgValue.substr(0, at_));
          at_ = 0;
        }
        if (c == '<') {
          at_ = 1;
          return Step::more;
        }
        out(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
    }
    return Step::fail;
  }
  void out(std::string_view s) {
    if (!is_string_) {
      value_ += s;
      return;
    }
    std::string esc;
    for (unsigned char c : s) append_json_char(esc, c);
    add_args(esc);
  }

  ToolTypes types_;
  St st_ = St::name;
  std::string name_, buf_, key_, value_;
  std::size_t at_ = 0;
  bool first_ = true, is_string_ = true, backslash_ = false;
};

}  // namespace

extern const Family kGlm45;
constexpr Family kGlm45{
    .name = "glm45",
    .models = "GLM-4.5, GLM-4.6",
    .example = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n"
        "<arg_value>3</arg_value>\n</tool_call><tool_call>get_time\n<arg_key>tz</arg_key>\n<arg_value>Asia/Tokyo</arg_value>\n</tool_call>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Glm45>(em, o); },
    .markers = {"<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"},
    .detect = [](std::string_view t) { return contains(t, "<tool_call>") && contains(t, "<arg_key>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<arg_key>" + regex_literal(k) + "</arg_key>\\n<arg_value>"; },
                            "</arg_value>\\n", "", "</arg_value>"};
          return "<tool_call>" + tool.name_regex() + "\\n" + tool.members(style) + "</tool_call>";
        },
    .envelope = {"", "\\n", "", true},
};

}  // namespace textedge::detail

namespace textedge::detail {

extern const Family kGlm47;
constexpr Family kGlm47{
    .name = "glm47",
    .models = "GLM-4.7, GLM-4.7-Flash, GLM-5",
    .example = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key>"
        "<arg_value>3</arg_value></tool_call><tool_call>get_time<arg_key>tz</arg_key><arg_value>Asia/Tokyo</arg_value></tool_call>",
    .reasoning = "think",
    .make = kGlm45.make,
    .markers = kGlm45.markers,
    // The template's own instruction and its rendering of a call, both without newlines.
    .detect = [](std::string_view t) {
      return contains(t, "<tool_call>{function-name}<arg_key>") || contains(t, "'<tool_call>' + tc.name -}}");
    },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<arg_key>" + regex_literal(k) + "</arg_key><arg_value>"; },
                            "</arg_value>", "", "</arg_value>"};
          return "<tool_call>" + tool.name_regex() + tool.members(style) + "</tool_call>";
        },
    .envelope = {"", "", "", true},
};

}  // namespace textedge::detail
