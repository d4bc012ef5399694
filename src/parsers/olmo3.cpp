// olmo3: OLMo 3 (vLLM's olmo3 tool parser; vLLM's tool_chat_template_olmo3, which asks for "a
// pythonic function call wrapped in <function_calls></function_calls> XML tags" and writes past
// calls one per line):
//   <function_calls>\nf(a=1, b='x')\ng()\n</function_calls>
// Each call is read as pythonic's are (python_literal.hpp: values as ast.literal_eval reads
// them, written as JSON) and is complete, and kept, at its ")"; calls are separated by
// whitespace; a call complete when the output ends is kept without </function_calls>.
#include "parsers/family.hpp"
#include "parsers/python_literal.hpp"

namespace textedge::detail {
namespace {

class Olmo3 final : public ToolScanner {
 public:
  Olmo3(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<function_calls>"}) {}

 private:
  enum class St : unsigned char { pre, call, after_call, close };
  void begin(std::uint32_t) override { st_ = St::pre; }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::pre:
        if (json_ws(c)) return Step::more;
        call_.reset();
        st_ = St::call;
        [[fallthrough]];
      case St::call:
        switch (call_.step(c, *this)) {
          case PyCall::R::more: return Step::more;
          case PyCall::R::error: return Step::fail;
          case PyCall::R::done: end_call(); st_ = St::after_call; return Step::more;
        }
        return Step::fail;
      case St::after_call:
        if (json_ws(c)) return Step::more;
        if (ident_start(c)) {  // the next call
          st_ = St::pre;
          return step(c);
        }
        tag_.clear();
        st_ = St::close;
        [[fallthrough]];
      case St::close:
        switch (match_tag(tag_, c, {"</function_calls>"})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }

  St st_ = St::pre;
  std::string tag_;
  PyCall call_;
};

}  // namespace

extern const Family kOlmo3, kPythonic;
constexpr Family kOlmo3{
    .name = "olmo3",
    .models = "OLMo 3",
    .example = "<function_calls>\nget_weather(city='Paris', days=3)\nget_time(tz='Asia/Tokyo')\n</function_calls>",
    .reasoning = "think",  // OLMo 3 Think writes <think>...</think>
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Olmo3>(em, o); },
    .markers = {"<function_calls>", "</function_calls>"},
    .detect = [](std::string_view t) { return contains(t, "<function_calls>") && contains(t, "<|im_start|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string { return kPythonic.call_regex(tool); },  // f(a=1, b='x')
    .envelope = {"<function_calls>\\n", "\\n", "\\n</function_calls>", true},
};

}  // namespace textedge::detail
