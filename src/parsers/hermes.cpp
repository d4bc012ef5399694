// hermes: Hermes 2 Pro / 3, Qwen2.5, Qwen3 (their chat templates; vLLM's hermes tool parser):
//   <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>
// one wrapper per call, several in a row (separated by whitespace, which stays content).
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kClose = "</tool_call>";

class Hermes final : public ToolScanner {
 public:
  Hermes(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<tool_call>"}) {}

 private:
  enum class St : unsigned char { pre, json, post };
  void begin(std::uint32_t) override {
    st_ = St::pre;
    call_.reset();
    close_ = 0;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        st_ = St::json;
        [[fallthrough]];
      case St::json:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::done:
            if (partial()) commit();
            st_ = St::post;
            return Step::more;
        }
        return Step::fail;
      case St::post:
        if (close_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(kClose[close_])) return Step::fail;
        if (++close_ < kClose.size()) return Step::more;
        end_call();
        return Step::end;
    }
    return Step::fail;
  }
  // A call whose JSON is complete when the output ends is complete without its </tool_call>
  // (vLLM reads an unclosed <tool_call> at the end the same way).
  void at_finish() override {
    if (st_ == St::post) end_call();
  }
  St st_ = St::pre;
  WrapperCall call_;
  std::size_t close_ = 0;
};

}  // namespace

extern const Family kHermes;
constexpr Family kHermes{
    .name = "hermes",
    .models = "Hermes 2 Pro / 3, Qwen2.5, Qwen3, QwQ",
    .example = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n"
        "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}\n</tool_call>",
    .reasoning = "qwen3",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Hermes>(em, o); },
    .markers = {"<tool_call>", "</tool_call>"},
    .detect = [](std::string_view t) { return contains(t, "<tool_call>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "<tool_call>\\n\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}\\n</tool_call>";
        },
    .envelope = {"", "\\n", "", true},
};

}  // namespace textedge::detail
