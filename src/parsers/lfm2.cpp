// lfm2: Liquid LFM2 / LFM2.5 (their chat templates; vLLM's lfm2 parser, llama.cpp's LFM2):
//   <|tool_call_start|>[f(a=1, b='x'), g()]<|tool_call_end|>
// LFM2.5 writes the calls as Python (keyword arguments read as for pythonic: python_literal.hpp;
// its template writes dict arguments with tojson, so JSON's true, false and null are read too);
// LFM2's own template (llama.cpp's) writes JSON objects in the same list,
//   <|tool_call_start|>[{"name": "f", "arguments": {...}, "id": "..."}]<|tool_call_end|>
// and both are read, call by call. Text may come before and after the block.
#include "parsers/family.hpp"
#include "parsers/python_literal.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kEnd = "<|tool_call_end|>";

class Lfm2 final : public ToolScanner {
 public:
  Lfm2(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|tool_call_start|>"}) {}

 private:
  enum class St : unsigned char { open, call_pre, py_call, json, after_call, end_tag };
  void begin(std::uint32_t) override {
    st_ = St::open;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::open:
        if (json_ws(c)) return Step::more;
        if (c != '[') return Step::fail;
        st_ = St::call_pre;
        return Step::more;
      case St::call_pre:
        if (json_ws(c)) return Step::more;
        if (c == '{') {
          call_.reset();
          st_ = St::json;
          return step(c);
        }
        py_call_.reset(true);
        st_ = St::py_call;
        [[fallthrough]];
      case St::py_call:
        switch (py_call_.step(c, *this)) {
          case PyCall::R::more: return Step::more;
          case PyCall::R::error: return Step::fail;
          case PyCall::R::done: end_call(); st_ = St::after_call; return Step::more;
        }
        return Step::fail;
      case St::json:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::done: end_call(); st_ = St::after_call; return Step::more;
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
        st_ = St::end_tag;
        at_ = 0;
        return Step::more;
      case St::end_tag:
        if (at_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(kEnd[at_])) return Step::fail;
        if (++at_ < kEnd.size()) return Step::more;
        commit();
        return Step::end;
    }
    return Step::fail;
  }
  // The list closed when the output ends: complete without <|tool_call_end|>.
  void at_finish() override {
    if (st_ == St::end_tag && at_ == 0) commit();
  }

  St st_ = St::open;
  std::size_t at_ = 0;
  PyCall py_call_;
  WrapperCall call_;
};

}  // namespace

extern const Family kLfm2;
constexpr Family kLfm2{
    .name = "lfm2",
    .models = "Liquid LFM2, LFM2.5",
    .example = "<|tool_call_start|>[get_weather(city='Paris', days=3), get_time(tz='Asia/Tokyo')]<|tool_call_end|>",
    .reasoning = "think",  // LFM2.5 Thinking writes <think>...</think>
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Lfm2>(em, o); },
    .markers = {"<|tool_call_start|>", "<|tool_call_end|>"},  // special tokens of LFM2
    // MiniCPM3 also writes <|tool_call_start|>, followed by a ```python fence: LFM2's list follows it directly.
    .detect = [](std::string_view t) { return contains(t, "<|tool_call_start|>[") || contains(t, "<|tool_list_start|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
      if (!identifier(tool.name())) SchemaCompiler::fail(tool.at().get("name"), "lfm2 calls need a Python identifier as name");
      if (tool.parameters() && tool.parameters()->is_object())
        if (auto props = tool.parameters()->find("properties"))
          for (auto& [k, v] : props->members())
            if (!identifier(k)) SchemaCompiler::fail(v, "lfm2 calls need Python identifiers as argument names");
      const Json* params = tool.parameters() ? &*tool.parameters() : nullptr;
      auto argument = [params](std::string_view k) {
        if (!identifier(k))
          SchemaCompiler::fail(*params, "lfm2 calls need Python identifiers as argument names, not \"" + std::string(k) + "\"");
        return std::string(k) + "=";
      };
      return tool.name_regex() + "\\(" + tool.members(MemberStyle{argument, "", ", ?", ""}, Dialect::python) + "\\)";
    },
    .envelope = {"<\\|tool_call_start\\|>\\[", ", ?", "\\]<\\|tool_call_end\\|>", true},
};

}  // namespace textedge::detail
