// minimax_m1: MiniMax-M1 (its chat template; vLLM's minimax parser):
//   <tool_calls>\n{"name": "f", "arguments": {...}}\n{"name": "g", "arguments": {...}}\n</tool_calls>
// one JSON object per call, separated by whitespace (a newline as the template writes them; an
// object over several lines is read too). Calls inside <think> stay reasoning (the reasoning layer).
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kEnd = "</tool_calls>";

class MinimaxM1 final : public ToolScanner {
 public:
  MinimaxM1(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<tool_calls>"}) {}

 private:
  enum class St : unsigned char { between, call, end_tag };
  void begin(std::uint32_t) override {
    st_ = St::between;
    first_ = true;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        if (c == '<' && !first_) {
          tag_.clear();
          st_ = St::end_tag;
          return step(c);
        }
        if (c != '{') return Step::fail;
        call_.reset();
        st_ = St::call;
        [[fallthrough]];
      case St::call:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::done: end_call(); first_ = false; st_ = St::between; return Step::more;
        }
        return Step::fail;
      case St::end_tag:
        switch (match_tag(tag_, c, {kEnd})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  // The calls are complete at their own ends; </tool_calls> may be missing when the output ends.
  void at_finish() override {
    if (st_ == St::between && !first_) commit();
  }

  St st_ = St::between;
  bool first_ = true;
  std::string tag_;
  WrapperCall call_;
};

}  // namespace

extern const Family kMinimaxM1;
constexpr Family kMinimaxM1{
    .name = "minimax_m1",
    .models = "MiniMax-M1",
    .example = "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n"
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n</tool_calls>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<MinimaxM1>(em, o); },
    .markers = {"<tool_calls>", "</tool_calls>"},
    // MiniMax-M1's template (<beginning_of_sentence> turns); Hunyuan also writes <tool_calls>, with a JSON list.
    .detect = [](std::string_view t) { return contains(t, "<tool_calls>") && contains(t, "<beginning_of_sentence>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"<tool_calls>\\n", "\\n", "\\n</tool_calls>", true},
};

}  // namespace textedge::detail
