// deepseek_v32: DeepSeek-V3.2 "DSML" (its encoding, as llama.cpp's DeepSeek-V3.2 template writes
// it; vLLM's deepseek_v32 parser, SGLang's DeepSeekV32Detector):
//   <｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="k" string="true">v
//   </｜DSML｜parameter>\n...</｜DSML｜invoke>\n...</｜DSML｜function_calls>
// One block holds every call of the message. string="true" values are strings, string="false"
// values JSON; the tool's schema then coerces them as vLLM does (xml_typing.hpp,
// dsml_typed_value). Values are taken as written (not stripped); string="true" values of string
// parameters (or of parameters the schema does not describe) stream as written, the others are
// held to their end tag.
#include "parsers/family.hpp"
#include "parsers/xml_typing.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kInvoke = "<｜DSML｜invoke name=\"", kEndInvoke = "</｜DSML｜invoke>",
                           kParameter = "<｜DSML｜parameter name=\"", kEndParameter = "</｜DSML｜parameter>",
                           kEndBlock = "</｜DSML｜function_calls>", kStringAttr = " string=\"";

class DeepSeekV32 final : public ToolScanner {
 public:
  DeepSeekV32(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<｜DSML｜function_calls>"}), types_(o.tools_json) {}

 private:
  enum class St : unsigned char { between, between_tag, name, gt, body, body_tag, key, attr, attr_value, attr_gt, value };
  void begin(std::uint32_t) override { st_ = St::between; }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::between_tag;
        [[fallthrough]];
      case St::between_tag:
        switch (match_tag(buf_, c, {kInvoke, kEndBlock})) {
          case -1: return Step::more;
          case 0: name_.clear(); st_ = St::name; return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
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
          case 1:
            add_args(first_ ? "{}" : "}");
            end_call();
            st_ = St::between;
            return Step::more;
          default: return Step::fail;
        }
      case St::key:
        if (c == '"') {
          if (key_.empty()) return Step::fail;
          buf_.clear();
          st_ = St::attr;
          return Step::more;
        }
        if (c == '<' || c == '>' || c == '\n') return Step::fail;
        key_ += static_cast<char>(c);
        return Step::more;
      case St::attr:
        switch (match_tag(buf_, c, {kStringAttr})) {
          case -1: return Step::more;
          case 0: buf_.clear(); st_ = St::attr_value; return Step::more;
          default: return Step::fail;
        }
      case St::attr_value:
        switch (match_tag(buf_, c, {"true\"", "false\""})) {
          case -1: return Step::more;
          case 0:
          case 1: string_attr_ = buf_[0] == 't'; st_ = St::attr_gt; return Step::more;
          default: return Step::fail;
        }
      case St::attr_gt: {
        if (c != '>') return Step::fail;
        std::string head = first_ ? "{" : ", ";
        head += json_quote(key_);
        head += ": ";
        first_ = false;
        value_.begin(types_.types(tool_, key_), XmlValue::Rules::dsml, string_attr_, types_.describes(tool_, key_));
        add_args(head);
        st_ = St::value;
        return Step::more;
      }
      case St::value:
        if (value_.step(c, kEndParameter, *this)) st_ = St::body;
        return Step::more;
    }
    return Step::fail;
  }

  SchemaTypes types_;
  XmlValue value_;
  St st_ = St::between;
  std::string buf_, name_, tool_, key_;
  bool first_ = true, string_attr_ = true;
};

}  // namespace

extern const Family kDeepSeekV32;
constexpr Family kDeepSeekV32{
    .name = "deepseek_v32",
    .models = "DeepSeek-V3.2 (DSML)",
    .example = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris"
        "</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
        "<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"tz\" string=\"true\">Asia/Tokyo</｜DSML｜parameter>\n"
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
    .reasoning = "deepseek_r1",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<DeepSeekV32>(em, o); },
    .markers = {"<｜DSML｜function_calls>", "</｜DSML｜function_calls>", "<｜DSML｜invoke name=", "</｜DSML｜invoke>",
                "<｜DSML｜parameter name=", "</｜DSML｜parameter>", "｜DSML｜"},
    // llama.cpp's template spells the tags through a variable holding "｜DSML｜".
    .detect = [](std::string_view t) { return contains(t, "｜DSML｜"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<｜DSML｜parameter name=\"" + regex_literal(k) + "\" string=\"(?:true|false)\">"; },
                            "</｜DSML｜parameter>\\n", "",
                            "</"};  // (an ASCII stand-in for the end tag: the regex layer excludes words byte by byte)
          return "<｜DSML｜invoke name=\"" + tool.name_regex() + "\">\\n" + tool.members(style) + "</｜DSML｜invoke>\\n";
        },
    .envelope = {"<｜DSML｜function_calls>\\n", "", "</｜DSML｜function_calls>", true},
};

}  // namespace textedge::detail
