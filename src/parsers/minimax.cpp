// minimax: MiniMax-M1 (its chat template; vLLM's minimax tool parser):
//   <tool_calls>\n{"name": "f", "arguments": {...}}\n{"name": "g", "arguments": {...}}\n</tool_calls>
// one JSON object per call, one block per message. Each call is complete at the end of its
// object (a block that breaks later keeps it), and the calls of a block whose </tool_calls> is
// missing at the end of the output count, as vLLM reads them.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kClose = "</tool_calls>";

class Minimax final : public ToolScanner {
 public:
  Minimax(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<tool_calls>"}) {}

 private:
  enum class St : unsigned char { between, json, close };
  void begin(std::uint32_t) override { st_ = St::between; }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        if (c == '{') {
          call_.reset();
          st_ = St::json;
          return step(c);
        }
        at_ = 0;
        st_ = St::close;
        [[fallthrough]];
      case St::close:
        if (c != static_cast<unsigned char>(kClose[at_])) return Step::fail;
        if (++at_ < kClose.size()) return Step::more;
        commit();
        return Step::end;
      case St::json:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::done:
            end_call();
            st_ = St::between;
            return Step::more;
        }
        return Step::fail;
    }
    return Step::fail;
  }
  St st_ = St::between;
  WrapperCall call_;
  std::size_t at_ = 0;
};

}  // namespace

extern const Family kMinimax;
constexpr Family kMinimax{
    .name = "minimax",
    .models = "MiniMax-M1",
    .example = "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n"
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n</tool_calls>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Minimax>(em, o); },
    .markers = {"<tool_calls>", "</tool_calls>"},
    .detect = [](std::string_view t) { return contains(t, "<tool_calls>") && contains(t, "</tool_calls>") && contains(t, "MiniMax"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}\\n";
        },
    .envelope = {"<tool_calls>\\n", "", "</tool_calls>", true},
};

}  // namespace textedge::detail
