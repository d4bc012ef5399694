// llama3_json: Llama 3.1 / 3.2 / 3.3 JSON tool calls (vLLM's llama3_json tool parser; the
// llama3.1_json chat template): an output that starts (after whitespace) with <|python_tag|>
// or "{" is a call {"name": "f", "parameters"|"arguments": {...}}; several are separated by ";"
// and/or whitespace (vLLM writes "; ", SGLang ";").
// A "{" after other text is content, as in vLLM; <|python_tag|> (a special token) opens calls
// anywhere, as in SGLang. Llama 3.1's built-in tools (its model card; llama.cpp) are written as
// Python after the tag: <|python_tag|>brave_search.call(query="...") is the call brave_search
// with {"query": "..."}.
#include "parsers/family.hpp"
#include "parsers/python_literal.hpp"

namespace textedge::detail {
namespace {

class Llama3Json final : public ToolScanner {
 public:
  Llama3Json(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|python_tag|>", "{"}) {}

 private:
  enum class St : unsigned char { pre, json, between, builtin_name, builtin_call, builtin_args, builtin_after };
  bool marker_allowed(std::uint32_t marker) const override { return marker == 0 || !content_started(); }
  void begin(std::uint32_t marker) override {
    st_ = St::pre;
    after_tag_ = marker == 0;
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
        if (after_tag_ && ident_start(c)) {
          name_.assign(1, static_cast<char>(c));
          st_ = St::builtin_name;
          return Step::more;
        }
        after_tag_ = false;
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
      case St::builtin_name:
        if (ident_char(c)) {
          name_ += static_cast<char>(c);
          return Step::more;
        }
        tag_.clear();
        st_ = St::builtin_call;
        [[fallthrough]];
      case St::builtin_call:
        switch (match_tag(tag_, c, {".call("})) {
          case -1: return Step::more;
          case 0: set_name(name_); args_.reset(); st_ = St::builtin_args; return Step::more;
          default: return Step::fail;
        }
      case St::builtin_args:
        switch (args_.step(c, *this)) {
          case PyArgs::R::more: return Step::more;
          case PyArgs::R::error: return Step::fail;
          case PyArgs::R::done: end_call(); st_ = St::builtin_after; return Step::more;
        }
        return Step::fail;
      case St::builtin_after:  // one built-in call per message
        return json_ws(c) ? Step::more : Step::fail;
    }
    return Step::fail;
  }
  St st_ = St::pre;
  bool after_tag_ = false;
  std::string name_, tag_;
  PyArgs args_;
  WrapperCall call_;
};

}  // namespace

extern const Family kLlama3Json;
constexpr Family kLlama3Json{
    .name = "llama3_json",
    .models = "Llama 3.1 / 3.2 / 3.3 JSON tool calls",
    .example = "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}; "
        "{\"name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Llama3Json>(em, o); },
    .markers = {"<|python_tag|>"},
    // Llama 3.x: <|python_tag|>, or JSON calls with "parameters" after <|start_header_id|>; Llama 4's JSON
    // template writes the same calls after <|header_start|> (vLLM's tool_chat_template_llama4_json).
    .detect = [](std::string_view t) {
      return contains(t, "<|python_tag|>") ||
             ((contains(t, "<|start_header_id|>") || contains(t, "<|header_start|>")) && contains(t, "\"parameters\""));
    },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"parameters\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"", "; ", "", true},
};

}  // namespace textedge::detail
