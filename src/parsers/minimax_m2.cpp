// minimax_m2: MiniMax-M2 / M2.1 (their chat template; vLLM's minimax_m2 tool parser, SGLang's
// MinimaxM2Detector, llama.cpp's MiniMax-M2 format):
//   <minimax:tool_call>\n<invoke name="f">\n<parameter name="k">v</parameter>\n...</invoke>\n
//   <invoke name="g">...</invoke>\n</minimax:tool_call>
// One block holds every call of the message. Names may be quoted with ' as well as " (as vLLM
// reads them). Values are raw text with surrounding whitespace stripped, typed by the tool's
// JSON schema as vLLM's minimax_m2 parser types them (xml_typing.hpp, vLLM rules): values of
// string-only parameters (and of parameters the schema does not type) stream as written; others
// are held to </parameter> and converted.
#include "parsers/family.hpp"
#include "parsers/xml_typing.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kInvoke = "<invoke name=", kEndInvoke = "</invoke>", kParameter = "<parameter name=",
                           kEndParameter = "</parameter>", kEndBlock = "</minimax:tool_call>";

class MinimaxM2 final : public ToolScanner {
 public:
  MinimaxM2(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<minimax:tool_call>"}), types_(o.tools_json) {}

 private:
  enum class St : unsigned char { between, between_tag, quote, name, gt, body, body_tag, value };
  void begin(std::uint32_t) override {
    st_ = St::between;
    in_param_ = false;
  }
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
          case 0: in_param_ = false; st_ = St::quote; return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
      case St::quote:
        if (c != '"' && c != '\'') return Step::fail;
        name_.clear();
        st_ = St::name;
        return Step::more;
      case St::name:
        if (c == '"' || c == '\'') {
          std::string name(py_strip(name_));
          if (name.empty()) return Step::fail;
          name_ = std::move(name);
          st_ = St::gt;
          return Step::more;
        }
        if (c == '<' || c == '>') return Step::fail;
        name_ += static_cast<char>(c);
        return Step::more;
      case St::gt:
        if (c != '>') return Step::fail;
        if (in_param_) {
          std::string head = first_ ? "{" : ", ";
          head += json_quote(name_);
          head += ": ";
          first_ = false;
          value_.begin(types_.types(tool_, name_));
          add_args(head);
          st_ = St::value;
        } else {
          tool_ = std::move(name_);
          set_name(tool_);
          first_ = true;
          st_ = St::body;
        }
        return Step::more;
      case St::body:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::body_tag;
        [[fallthrough]];
      case St::body_tag:
        switch (match_tag(buf_, c, {kParameter, kEndInvoke})) {
          case -1: return Step::more;
          case 0: in_param_ = true; st_ = St::quote; return Step::more;
          case 1:
            add_args(first_ ? "{}" : "}");
            end_call();
            st_ = St::between;
            return Step::more;
          default: return Step::fail;
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
  std::string buf_, name_, tool_;
  bool in_param_ = false, first_ = true;
};

}  // namespace

extern const Family kMinimaxM2;
constexpr Family kMinimaxM2{
    .name = "minimax_m2",
    .models = "MiniMax-M2, MiniMax-M2.1",
    .example = "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n"
        "<parameter name=\"days\">3</parameter>\n</invoke>\n<invoke name=\"get_time\">\n<parameter name=\"tz\">Asia/Tokyo"
        "</parameter>\n</invoke>\n</minimax:tool_call>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<MinimaxM2>(em, o); },
    .markers = {"<minimax:tool_call>", "</minimax:tool_call>", "<invoke name=", "</invoke>", "<parameter name=", "</parameter>"},
    .detect = [](std::string_view t) { return contains(t, "<minimax:tool_call>") && contains(t, "<invoke name="); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<parameter name=\"" + regex_literal(k) + "\">"; }, "</parameter>\\n", "",
                            "</parameter>"};
          return "<invoke name=\"" + tool.name_regex() + "\">\\n" + tool.members(style) + "</invoke>\\n";
        },
    .envelope = {"<minimax:tool_call>\\n", "", "</minimax:tool_call>", true},
};

}  // namespace textedge::detail
