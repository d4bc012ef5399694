// step3: StepFun Step-3 (vLLM's step3 tool parser, SGLang's Step3Detector):
//   <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f">
//   <steptml:parameter name="k">v</steptml:parameter>...</steptml:invoke><｜tool_call_end｜>...
//   <｜tool_calls_end｜>
// "function<｜tool_sep｜>" (and any text after it up to the invoke tag, as vLLM reads it) may be
// absent, as in vLLM's streaming tests. Values are typed by the parameter's own schema "type"
// as vLLM's step3 parser types them (xml_typing.hpp, step3_typed_value): integer, number,
// boolean and null values are stripped and converted, held to their end tag; all other values
// are strings as written (whitespace kept), streamed.
#include "parsers/family.hpp"
#include "parsers/xml_typing.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kCallBegin = "<｜tool_call_begin｜>", kCallEnd = "<｜tool_call_end｜>", kCallsEnd = "<｜tool_calls_end｜>",
                           kFunctionSep = "function<｜tool_sep｜>", kInvoke = "<steptml:invoke name=\"",
                           kEndInvoke = "</steptml:invoke>", kParameter = "<steptml:parameter name=\"",
                           kEndParameter = "</steptml:parameter>";

class Step3 final : public ToolScanner {
 public:
  Step3(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<｜tool_calls_begin｜>"}), types_(o.tools_json) {}

 private:
  enum class St : unsigned char { between, between_tag, head, head_tag, sep_text, name, gt, body, body_tag, key, key_gt, value, post, post_tag };
  void begin(std::uint32_t) override { st_ = St::between; }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::between_tag;
        [[fallthrough]];
      case St::between_tag:
        switch (match_tag(buf_, c, {kCallBegin, kCallsEnd})) {
          case -1: return Step::more;
          case 0: st_ = St::head; return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
      case St::head:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::head_tag;
        [[fallthrough]];
      case St::head_tag:
        switch (match_tag(buf_, c, {kFunctionSep, kInvoke})) {
          case -1: return Step::more;
          case 0: st_ = St::sep_text; return Step::more;
          case 1: name_.clear(); st_ = St::name; return Step::more;
          default: return Step::fail;
        }
      case St::sep_text:  // vLLM reads the invoke tag wherever it follows the separator
        if (c != '<') return Step::more;
        buf_.clear();
        st_ = St::head_tag;
        return step(c);
      case St::name:
        if (c == '"') {
          if (name_.empty()) return Step::fail;
          st_ = St::gt;
          return Step::more;
        }
        if (c == '<' || c == '>' || c == '\n') return Step::fail;
        name_ += static_cast<char>(c);
        return Step::more;
      case St::gt:
        if (c != '>') return Step::fail;
        tool_ = std::move(name_);
        set_name(tool_);
        first_ = true;
        st_ = St::body;
        return Step::more;
      case St::body:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::body_tag;
        [[fallthrough]];
      case St::body_tag:
        switch (match_tag(buf_, c, {kParameter, kEndInvoke})) {
          case -1: return Step::more;
          case 0: key_.clear(); st_ = St::key; return Step::more;
          case 1: add_args(first_ ? "{}" : "}"); st_ = St::post; return Step::more;
          default: return Step::fail;
        }
      case St::key:
        if (c == '"') {
          if (key_.empty()) return Step::fail;
          st_ = St::key_gt;
          return Step::more;
        }
        if (c == '<' || c == '>' || c == '\n') return Step::fail;
        key_ += static_cast<char>(c);
        return Step::more;
      case St::key_gt: {
        if (c != '>') return Step::fail;
        std::string head = first_ ? "{" : ", ";
        head += json_quote(key_);
        head += ": ";
        first_ = false;
        value_.begin({types_.direct_type(tool_, key_)}, XmlValue::Rules::step3);
        add_args(head);
        st_ = St::value;
        return Step::more;
      }
      case St::value:
        if (value_.step(c, kEndParameter, *this)) st_ = St::body;
        return Step::more;
      case St::post:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::post_tag;
        [[fallthrough]];
      case St::post_tag:
        switch (match_tag(buf_, c, {kCallEnd})) {
          case -1: return Step::more;
          case 0: end_call(); st_ = St::between; return Step::more;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }

  SchemaTypes types_;
  XmlValue value_;
  St st_ = St::between;
  std::string buf_, name_, tool_, key_;
  bool first_ = true;
};

}  // namespace

extern const Family kStep3;
constexpr Family kStep3{
    .name = "step3",
    .models = "Step-3",
    .example = "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter "
        "name=\"city\">Paris</steptml:parameter><steptml:parameter name=\"days\">3</steptml:parameter></steptml:invoke>"
        "<｜tool_call_end｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_time\"><steptml:parameter "
        "name=\"tz\">Asia/Tokyo</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Step3>(em, o); },
    .markers = {"<｜tool_calls_begin｜>", "<｜tool_calls_end｜>", "<｜tool_call_begin｜>", "<｜tool_call_end｜>", "<｜tool_sep｜>",
                "<steptml:invoke name=", "</steptml:invoke>", "<steptml:parameter name=", "</steptml:parameter>"},
    .detect = [](std::string_view t) { return contains(t, "<steptml:invoke") || contains(t, "steptml:invoke name="); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          // Raw values never contain "</" (vLLM and SGLang read no '<' in them at all).
          MemberStyle style{[](std::string_view k) { return "<steptml:parameter name=\"" + regex_literal(k) + "\">"; }, "</steptml:parameter>",
                            "", "</"};
          return "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"" + tool.name_regex() + "\">" + tool.members(style) +
                 "</steptml:invoke><｜tool_call_end｜>";
        },
    .envelope = {"<｜tool_calls_begin｜>", "", "<｜tool_calls_end｜>", true},
};

}  // namespace textedge::detail
