// mistral: Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Devstral, Magistral (vLLM's mistral tool
// parser; mistral-common's tool call decoding):
//   [TOOL_CALLS][{"name": "f", "arguments": {...}}, {...}]        (tokenizer before v11)
//   [TOOL_CALLS]f[ARGS]{...}[TOOL_CALLS]g[ARGS]{...}               (v11 and later)
//   [TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{...}                     (v11 and later, with the call's id)
// [ARGS] may be missing (f{...}) when the text was decoded without special tokens, as vLLM reads it.
// Mistral's templates require call ids of 9 letters and digits, so generated ids have that form.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kArgs = "[ARGS]", kCallId = "[CALL_ID]";

bool name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

class Mistral final : public ToolScanner {
 public:
  Mistral(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"[TOOL_CALLS]"}) { set_id_style("", 9); }

 private:
  enum class St : unsigned char {
    start, array_pre, json, array_after,                 // [TOOL_CALLS][{...}, ...]
    name, name_tag, call_id, args_tag, args_pre, args    // [TOOL_CALLS]f[CALL_ID]id[ARGS]{...}
  };
  void begin(std::uint32_t) override {
    st_ = St::start;
    name_.clear();
    call_id_.clear();
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::start:
        if (c == ' ') return Step::more;
        if (c == '[') {
          st_ = St::array_pre;
          return Step::more;
        }
        if (!name_char(c)) return Step::fail;
        st_ = St::name;
        [[fallthrough]];
      case St::name:
        if (name_char(c)) {
          name_ += static_cast<char>(c);
          return Step::more;
        }
        if (c == '{') {  // [ARGS] dropped with the special tokens
          set_name(name_);
          st_ = St::args_pre;
          return step(c);
        }
        if (c != '[') return Step::fail;
        tag_.clear();
        st_ = St::name_tag;
        [[fallthrough]];
      case St::name_tag:
        switch (match_tag(tag_, c, {kArgs, kCallId})) {
          case -1: return Step::more;
          case 0: set_name(name_); st_ = St::args_pre; return Step::more;
          case 1: st_ = St::call_id; return Step::more;
          default: return Step::fail;
        }
      case St::call_id:
        if (name_char(c)) {
          call_id_ += static_cast<char>(c);
          return Step::more;
        }
        if (c != '[' || call_id_.empty()) return Step::fail;
        tag_.clear();
        st_ = St::args_tag;
        [[fallthrough]];
      case St::args_tag:
        switch (match_tag(tag_, c, {kArgs})) {
          case -1: return Step::more;
          case 0: set_name(name_, call_id_); st_ = St::args_pre; return Step::more;
          default: return Step::fail;
        }
      case St::args_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        st_ = St::args;
        args_.reset();
        [[fallthrough]];
      case St::args: {
        JsonScan::R r = args_.step(c);
        if (r == JsonScan::R::error) return Step::fail;
        add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
        if (r == JsonScan::R::ok) return Step::more;
        end_call();
        return Step::end;
      }
      case St::array_pre:
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
            st_ = St::array_after;
            return Step::more;
        }
        return Step::fail;
      case St::array_after:
        if (json_ws(c)) return Step::more;
        if (c == ',') {
          st_ = St::array_pre;
          return Step::more;
        }
        if (c != ']') return Step::fail;
        commit();
        return Step::end;
    }
    return Step::fail;
  }
  St st_ = St::start;
  std::string name_, call_id_, tag_;
  WrapperCall call_;
  JsonScan args_;
};

}  // namespace

extern const Family kMistral;
constexpr Family kMistral{
    .name = "mistral",
    .models = "Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small, Devstral, Magistral",
    .example = "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}[TOOL_CALLS]get_time[ARGS]{\"tz\": \"Asia/Tokyo\"}",
    .reasoning = "mistral",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Mistral>(em, o); },
    .markers = {"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"},
    .detect = [](std::string_view t) { return contains(t, "[TOOL_CALLS]"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "\\{" + tool.json_name() + ", ?\"arguments\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"\\[TOOL_CALLS\\] ?\\[", ", ?", "\\]", true},
};

}  // namespace textedge::detail
