// nemotron: NVIDIA Nemotron JSON tool calls (Llama-Nemotron, Nemotron Nano v2: their chat
// templates; vLLM's nemotron_json and nemotron_nano_v2 parsers, llama.cpp's Nemotron v2):
//   <TOOLCALL>[{"name": "f", "arguments": {...}}, {"name": "g", "arguments": {...}}]</TOOLCALL>
// (one object without the list is read too, as vLLM does). Text may come before and after.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kEnd = "</TOOLCALL>";

class Nemotron final : public ToolScanner {
 public:
  Nemotron(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<TOOLCALL>"}) {}

 private:
  enum class St : unsigned char { open, call_pre, call, after_call, end_tag };
  void begin(std::uint32_t) override { st_ = St::open; }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::open:
        if (json_ws(c)) return Step::more;
        list_ = c == '[';
        if (list_) {
          st_ = St::call_pre;
          return Step::more;
        }
        if (c != '{') return Step::fail;
        st_ = St::call_pre;
        [[fallthrough]];
      case St::call_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        call_.reset();
        st_ = St::call;
        [[fallthrough]];
      case St::call:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::done:
            end_call();
            st_ = list_ ? St::after_call : St::end_tag;
            tag_.clear();
            return Step::more;
        }
        return Step::fail;
      case St::after_call:
        if (json_ws(c)) return Step::more;
        if (c == ',') {
          st_ = St::call_pre;
          return Step::more;
        }
        if (c != ']') return Step::fail;
        commit();
        tag_.clear();
        st_ = St::end_tag;
        return Step::more;
      case St::end_tag:
        if (tag_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(tag_, c, {kEnd})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  // The list closed when the output ends: complete without </TOOLCALL>.
  void at_finish() override {
    if (st_ == St::end_tag && tag_.empty()) commit();
  }

  St st_ = St::open;
  bool list_ = true;
  std::string tag_;
  WrapperCall call_;
};

}  // namespace

extern const Family kNemotron;
constexpr Family kNemotron{
    .name = "nemotron",
    .models = "NVIDIA Llama-Nemotron, Nemotron Nano v2 (JSON tool calls)",
    .example = "<TOOLCALL>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}, "
        "{\"name\": \"get_time\", \"arguments\": {\"tz\": \"Asia/Tokyo\"}}]</TOOLCALL>",
    .reasoning = "qwen3",  // <think> blocks, switched by /think, /no_think or enable_thinking
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Nemotron>(em, o); },
    .markers = {"<TOOLCALL>", "</TOOLCALL>"},
    .detect = [](std::string_view t) { return contains(t, "<TOOLCALL>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"<TOOLCALL>\\[", ", ?", "\\]</TOOLCALL>", true},
};

}  // namespace textedge::detail
