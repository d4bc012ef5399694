// kimi_k2: Kimi K2 (chat template; vLLM's kimi_k2 parser):
//   <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{...}<|tool_call_end|>
//   ...<|tool_calls_section_end|>
// The model writes the call id ("functions.f:0"), which is kept as the OpenAI id, as vLLM does.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kCallBegin = "<|tool_call_begin|>", kSectionEnd = "<|tool_calls_section_end|>",
                           kArgBegin = "<|tool_call_argument_begin|>", kCallEnd = "<|tool_call_end|>";

class KimiK2 final : public ToolScanner {
 public:
  // The singular spelling also occurs in Kimi K2 outputs (llama.cpp and others accept both).
  // A call's own begin tag also opens calls: after a broken call the next one is still read (as
  // vLLM reads every well-formed call of a section).
  KimiK2(Emitter& em, const OutputParserOptions& o)
      : ToolScanner(em, o, {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>", std::string(kCallBegin)}) {}

 private:
  enum class St : unsigned char { between, between_tag, id, arg_tag, args_pre, args, after_args };
  void begin(std::uint32_t marker) override {
    st_ = St::between;
    if (marker == 2) {
      id_.clear();
      st_ = St::id;
    }
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::between_tag;
        [[fallthrough]];
      case St::between_tag:
        switch (match_tag(buf_, c, {kCallBegin, kSectionEnd})) {
          case -1: return Step::more;
          case 0: id_.clear(); st_ = St::id; return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
      case St::id:
        if (c == '<') {
          // functions.NAME:INDEX -> NAME
          std::size_t colon = id_.rfind(':');
          std::string name = id_.substr(0, colon);
          if (name.starts_with("functions.")) name.erase(0, 10);
          if (colon == std::string::npos || name.empty()) return Step::fail;
          pending_name_ = std::move(name);
          buf_.clear();
          st_ = St::arg_tag;
          return step(c);
        }
        if (json_ws(c)) return Step::more;  // spaces around the id
        id_ += static_cast<char>(c);
        return Step::more;
      case St::arg_tag:
        switch (match_tag(buf_, c, {kArgBegin})) {
          case -1: return Step::more;
          case 0: set_name(pending_name_, id_); st_ = St::args_pre; return Step::more;
          default: return Step::fail;
        }
      case St::args_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;  // arguments are a JSON object
        json_.reset();
        st_ = St::args;
        [[fallthrough]];
      case St::args: {
        JsonScan::R r = json_.step(c);
        if (r == JsonScan::R::error) return Step::fail;
        add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
        if (r == JsonScan::R::done) {
          st_ = St::after_args;
          buf_.clear();
        }
        return Step::more;
      }
      case St::after_args:
        if (buf_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(buf_, c, {kCallEnd})) {
          case -1: return Step::more;
          case 0: end_call(); st_ = St::between; return Step::more;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  // A call whose arguments are complete when the output ends is complete without its end
  // markers (llama.cpp's Kimi-K2-Thinking case "no section markers, no end marker").
  void at_finish() override {
    if (st_ == St::after_args) end_call();
  }
  St st_ = St::between;
  std::string buf_, id_, pending_name_;
  JsonScan json_;
};

}  // namespace

extern const Family kKimiK2;
constexpr Family kKimiK2{
    .name = "kimi_k2",
    .models = "Kimi K2, Kimi-K2-Thinking",
    .example = "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", "
        "\"days\": 3}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{\"tz\": "
        "\"Asia/Tokyo\"}<|tool_call_end|><|tool_calls_section_end|>",
    .reasoning = "think",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<KimiK2>(em, o); },
    .markers = {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"},
    .calls_in_reasoning = true,  // Kimi-K2-Thinking interleaves reasoning and calls
    .detect = [](std::string_view t) { return contains(t, "<|tool_calls_section_begin|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "<\\|tool_call_begin\\|>functions\\." + tool.name_regex() + ":(?:0|[1-9][0-9]*)<\\|tool_call_argument_begin\\|>" +
                 tool.json_args() + "<\\|tool_call_end\\|>";
        },
    .envelope = {"<\\|tool_calls_section_begin\\|>", "", "<\\|tool_calls_section_end\\|>", true},
};

}  // namespace textedge::detail
