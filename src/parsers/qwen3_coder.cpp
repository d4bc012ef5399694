// qwen3_coder: Qwen3-Coder, Qwen3-Next (their chat template; vLLM's qwen3_coder tool parser):
//   <tool_call>\n<function=f>\n<parameter=k>\nvalue\n</parameter>\n...</function>\n</tool_call>
// Values are raw text (one leading and one trailing newline dropped) typed by the tool's JSON
// schema: string parameters (and parameters the schema does not type) become JSON strings,
// streamed as written; other values are held until </parameter>, then written as JSON when they
// parse as JSON, else as a string. A value whose </parameter> is missing ends at the next
// <parameter= or </function> (as in vLLM).
#include "parsers/family.hpp"
#include "parsers/function_parameter.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kFunction = "<function=", kParameter = "<parameter=", kEndFunction = "</function>",
                           kEndParameter = "</parameter>", kEndCall = "</tool_call>";

class Qwen3Coder final : public ToolScanner {
 public:
  // start / end: the call's wrapper (<tool_call> for Qwen3-Coder, <seed:tool_call> for Seed-OSS).
  Qwen3Coder(Emitter& em, const OutputParserOptions& o, std::string_view start = "<tool_call>", std::string_view end = kEndCall)
      : ToolScanner(em, o, {std::string(start)}), types_(o.tools_json), end_(end) {}

 private:
  enum class St : unsigned char { pre, function_tag, name, body, tag, key, value, post };
  void begin(std::uint32_t) override {
    st_ = St::pre;
    name_.clear();
    first_ = true;
  }
  void value_out(std::string_view s) {
    if (is_string_) {
      std::string esc;
      for (unsigned char c : s) append_json_char(esc, c);
      add_args(esc);
    } else {
      value_ += s;
    }
  }
  void value_end() {
    if (is_string_) {
      add_args("\"");
      return;
    }
    add_args(typed_value(value_));
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::pre:
        if (json_ws(c)) return Step::more;
        st_ = St::function_tag;
        at_ = 0;
        [[fallthrough]];
      case St::function_tag:
        if (c != static_cast<unsigned char>(kFunction[at_])) return Step::fail;
        if (++at_ == kFunction.size()) st_ = St::name;
        return Step::more;
      case St::name:
        if (c == '>') {
          if (name_.empty()) return Step::fail;
          set_name(name_);
          st_ = St::body;
          return Step::more;
        }
        if (c == '<' || c == '\n') return Step::fail;
        name_ += static_cast<char>(c);
        return Step::more;
      case St::body:
        if (json_ws(c)) return Step::more;
        if (c != '<') return Step::fail;
        tag_.assign(1, '<');
        st_ = St::tag;
        return Step::more;
      case St::tag:
        tag_ += static_cast<char>(c);
        if (tag_ == kParameter) {
          tag_.clear();
          key_.clear();
          st_ = St::key;
          return Step::more;
        }
        if (tag_ == kEndFunction) {
          add_args(first_ ? "{}" : "}");
          st_ = St::post;
          at_ = 0;
          return Step::more;
        }
        if (!kParameter.starts_with(tag_) && !kEndFunction.starts_with(tag_)) return Step::fail;
        return Step::more;
      case St::key:
        if (c == '>') {
          if (key_.empty()) return Step::fail;
          std::string head = first_ ? "{" : ", ";
          head += json_quote(key_);
          head += ": ";
          add_args(head);
          first_ = false;
          is_string_ = types_.string_typed(name_, key_);
          if (is_string_) add_args("\"");
          value_.clear();
          value_start_ = true;
          nl_ = false;
          at_ = 0;
          st_ = St::value;
          return Step::more;
        }
        if (c == '<' || c == '\n') return Step::fail;
        key_ += static_cast<char>(c);
        return Step::more;
      case St::value:
        // Held back: a newline that may precede the value's end, and a prefix of a tag that ends
        // it. A missing </parameter> ends the value at the next <parameter= or </function>, as
        // vLLM recovers it.
        if (value_start_) {
          value_start_ = false;
          if (c == '\n') return Step::more;
        }
        if (!tag_.empty()) {
          int m = match_tag(tag_, c, {kEndParameter, kParameter, kEndFunction});
          if (m == -1) return Step::more;
          if (m >= 0) {
            tag_.clear();
            value_end();
            if (m == 0) {
              st_ = St::body;
            } else if (m == 1) {
              key_.clear();
              st_ = St::key;
            } else {
              add_args("}");
              st_ = St::post;
              at_ = 0;
            }
            return Step::more;
          }
          std::string held = std::move(tag_);
          tag_.clear();
          held.pop_back();
          if (nl_) value_out("\n");
          nl_ = false;
          value_out(held);
        }
        if (c == '<') {
          tag_.assign(1, '<');
          return Step::more;
        }
        if (nl_) value_out("\n");
        nl_ = c == '\n';
        if (!nl_) value_out(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
      case St::post:
        if (at_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(end_[at_])) return Step::fail;
        if (++at_ < end_.size()) return Step::more;
        end_call();
        return Step::end;
    }
    return Step::fail;
  }

  ToolTypes types_;
  std::string_view end_;
  St st_ = St::pre;
  std::size_t at_ = 0;
  std::string name_, tag_, key_, value_;
  bool first_ = true, is_string_ = true, value_start_ = false, nl_ = false;
};

}  // namespace

std::unique_ptr<ToolScanner> make_function_parameter_scanner(Emitter& em, const OutputParserOptions& o, std::string_view start,
                                                             std::string_view end) {
  return std::make_unique<Qwen3Coder>(em, o, start, end);
}

extern const Family kQwen3Coder;
constexpr Family kQwen3Coder{
    .name = "qwen3_coder",
    .models = "Qwen3-Coder, Qwen3-Next",
    .example = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
        "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=tz>\nAsia/Tokyo\n"
        "</parameter>\n</function>\n</tool_call>",
    .reasoning = "qwen3",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Qwen3Coder>(em, o); },
    .markers = {"<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"},
    .calls_end_reasoning = true,  // Qwen3.5 may call without closing its prefilled <think> (llama.cpp)
    .detect = [](std::string_view t) { return contains(t, "<tool_call>") && contains(t, "<function="); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<parameter=" + regex_literal(k) + ">\\n"; }, "\\n</parameter>\\n", "",
                            "</parameter>"};
          return "<tool_call>\\n<function=" + tool.name_regex() + ">\\n" + tool.members(style) + "</function>\\n</tool_call>";
        },
    .envelope = {"", "\\n", "", true},
};

}  // namespace textedge::detail
