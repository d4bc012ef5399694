// apertus: Swiss AI Apertus (its chat template; vLLM's apertus parser, llama.cpp's Apertus):
//   <|tools_prefix|>[{"f": {"a": 1}}, {"g": {}}]<|tools_suffix|>
// each call a JSON object whose one key is the tool's name and whose value is the arguments.
// The arguments stream as written. A call whose arguments are complete when the output ends is
// complete without the rest of its object and list (vLLM reads such a cut-off block too).
// Apertus deliberates in <|inner_prefix|>...<|inner_suffix|> (vLLM's apertus reasoning parser),
// which this format reads as reasoning itself (use reasoning "none"); a call block may open inside
// it (the template's thoughts then tool calls), which ends the reasoning.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kSuffix = "<|tools_suffix|>";
constexpr std::string_view kInnerSuffix = "<|inner_suffix|>", kToolsPrefix = "<|tools_prefix|>";

class Apertus final : public ToolScanner {
 public:
  Apertus(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|tools_prefix|>", "<|inner_prefix|>"}) {}

 private:
  enum class St : unsigned char { thought, open, call_pre, call, after_call, end_tag };
  void begin(std::uint32_t marker) override {
    tag_.clear();
    st_ = marker == 1 ? St::thought : St::open;
    if (marker == 1) thought({});  // a block, even an empty one, is output: its markers are the format's
  }
  void thought(std::string_view s) { emit_text(ChatDelta::Kind::reasoning, s); }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::thought:
        if (!tag_.empty() || c == '<') {  // held back: a tail that could begin <|inner_suffix|> or <|tools_prefix|>
          switch (match_tag(tag_, c, {kInnerSuffix, kToolsPrefix})) {
            case -1: return Step::more;
            case 0: commit(); return Step::end;
            case 1: commit(); tag_.clear(); st_ = St::open; return Step::more;
            default: {
              std::string held = std::move(tag_);
              tag_.clear();
              held.pop_back();
              thought(held);
              return step(c);
            }
          }
        }
        thought(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
      case St::open:
        if (json_ws(c)) return Step::more;
        if (c != '[') return Step::fail;
        st_ = St::call_pre;
        return Step::more;
      case St::call_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        p_.reset();
        in_args_ = have_args_ = false;
        st_ = St::call;
        [[fallthrough]];
      case St::call: {
        bool value_start = p_.depth() == 1 && p_.expecting_value() && !json_ws(c);
        JsonScan::R r = p_.step(c);
        if (r == JsonScan::R::error) return Step::fail;
        if (value_start) {
          if (have_args_ || c != '{') return Step::fail;  // one key, whose value is the arguments object
          set_name(json_unescape(p_.key()));
          in_args_ = true;
          add_args("{");
        } else if (in_args_) {
          add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
          if (p_.depth() == 1) {
            in_args_ = false;
            have_args_ = true;
          }
        }
        if (r == JsonScan::R::done) {
          if (!have_args_) return Step::fail;
          end_call();
          st_ = St::after_call;
        }
        return Step::more;
      }
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
        switch (match_tag(tag_, c, {kSuffix})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  void at_finish() override {
    if (st_ == St::thought) thought(tag_);  // an unterminated block is reasoning
    if (st_ == St::call && have_args_) end_call();
    if (st_ == St::end_tag && tag_.empty()) commit();
  }

  St st_ = St::open;
  JsonScan p_;
  bool in_args_ = false, have_args_ = false;
  std::string tag_;
};

}  // namespace

extern const Family kApertus;
constexpr Family kApertus{
    .name = "apertus",
    .models = "Swiss AI Apertus",
    .example = "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3}}, {\"get_time\": {\"tz\": \"Asia/Tokyo\"}}]<|tools_suffix|>",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Apertus>(em, o); },
    .markers = {"<|tools_prefix|>", "<|tools_suffix|>", "<|inner_prefix|>", "<|inner_suffix|>"},  // special tokens of Apertus
    .detect = [](std::string_view t) { return contains(t, "<|tools_prefix|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          std::string name;
          for (char c : tool.name()) name += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
          return "\\{\"" + regex_literal(name) + "\": ?" + tool.json_args() + "\\}";
        },
    .envelope = {"<\\|tools_prefix\\|>\\[", ", ?", "\\]<\\|tools_suffix\\|>", true},
};

}  // namespace textedge::detail
