// gigachat3: Sber GigaChat 3 / 3.1 (their chat templates; vLLM's gigachat3 parser, llama.cpp's
// GigaChat3). The assistant's text ends with <|message_sep|>, and a call is the next message, of
// the role "function call":
//   text<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {...}}
// GigaChat 3.1 writes <|function_call|>{"name": "f", "arguments": {...}} instead. One call per
// turn (the template renders only the first). The separator <|message_sep|> and a trailing </s>
// (the end token, when it is in the text) are the format's, not content.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kHeader = "function call<|role_sep|>", kMessageSep = "<|message_sep|>", kEos = "</s>";

class GigaChat3 final : public ToolScanner {
 public:
  GigaChat3(Emitter& em, const OutputParserOptions& o)
      : ToolScanner(em, o, {std::string(kMessageSep), std::string(kHeader), "<|function_call|>"}) {}

 private:
  enum class St : unsigned char { after_sep, header, json_pre, json, after_call };
  void begin(std::uint32_t marker) override {
    tag_.clear();
    st_ = marker == 0 ? St::after_sep : St::json_pre;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::after_sep:
        if (json_ws(c)) return Step::more;
        st_ = St::header;
        [[fallthrough]];
      case St::header:
        switch (match_tag(tag_, c, {kHeader})) {
          case -1: return Step::more;
          case 0: st_ = St::json_pre; return Step::more;
          default: return Step::fail;
        }
      case St::json_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        call_.reset();
        st_ = St::json;
        [[fallthrough]];
      case St::json:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::done: end_call(); tag_.clear(); st_ = St::after_call; return Step::more;
        }
        return Step::fail;
      case St::after_call:
        if (tag_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(tag_, c, {kMessageSep, kEos})) {
          case -1: return Step::more;
          case 0:
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  // A <|message_sep|> that ends the output closes the text: it is the format's.
  void at_finish() override {
    if (st_ == St::after_sep) commit();
  }

  St st_ = St::after_sep;
  std::string tag_;
  WrapperCall call_;
};

}  // namespace

extern const Family kGigaChat3;
constexpr Family kGigaChat3{
    .name = "gigachat3",
    .models = "GigaChat 3, GigaChat 3.1",
    .example = "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<GigaChat3>(em, o); },
    .markers = {"<|message_sep|>", "<|role_sep|>", "<|function_call|>"},  // not </s>: engines end at it
    .detect = [](std::string_view t) {
      return (contains(t, "<|role_sep|>") && contains(t, "function call")) || contains(t, "<|function_call|>");
    },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "function call<\\|role_sep\\|>\\n\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"<\\|message_sep\\|>\\n\\n", "", "", false},
};

}  // namespace textedge::detail
