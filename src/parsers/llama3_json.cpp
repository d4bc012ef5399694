// llama3_json: Llama 3.1 / 3.2 / 3.3 JSON tool calls (vLLM's llama3_json tool parser; the
// llama3.1_json chat template): an output that starts (after whitespace) with <|python_tag|>
// or "{" is a call {"name": "f", "parameters"|"arguments": {...}}; several are joined by "; ".
// A "{" after other text is content, as in vLLM; <|python_tag|> (a special token) opens calls
// anywhere, as in SGLang.
#include "core.hpp"

namespace textedge::detail {
namespace {

class Llama3Json final : public ToolScanner {
 public:
  Llama3Json(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|python_tag|>", "{"}) {}

 private:
  enum class St : unsigned char { pre, json, between };
  bool marker_allowed(std::uint32_t marker) const override { return marker == 0 || !content_started(); }
  void begin(std::uint32_t marker) override {
    st_ = St::pre;
    if (marker == 1) {
      st_ = St::json;
      call_.reset();
      call_.step('{', *this);
    }
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        st_ = St::json;
        call_.reset();
        [[fallthrough]];
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
      case St::between:
        if (json_ws(c)) return Step::more;
        if (c == ';') {
          st_ = St::pre;
          return Step::more;
        }
        if (c == '{') {  // calls on separate lines without ";"
          st_ = St::json;
          call_.reset();
          return step(c);
        }
        return Step::fail;  // text after the calls: content
    }
    return Step::fail;
  }
  St st_ = St::pre;
  WrapperCall call_;
};

}  // namespace

std::unique_ptr<ToolScanner> make_llama3_json(Emitter& em, const OutputParserOptions& o) {
  return std::make_unique<Llama3Json>(em, o);
}

}  // namespace textedge::detail
