// cohere: Cohere Command R7B, Command A (their chat templates; vLLM's cohere_command parsers
// (cohere_melody), llama.cpp's Command R7B):
//   <|START_THINKING|>plan<|END_THINKING|>                                      -> reasoning
//   <|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "f", "parameters": {...}}\n]<|END_ACTION|>
//                                                                             -> calls
//   <|START_RESPONSE|>answer<|END_RESPONSE|>                                   -> content
// The format carries its own reasoning (use it with reasoning "none"). Grounded text marks its
// spans with citation tags, "<co>span</co: 0:[1,2],1:[0]>": the tags are dropped (as vLLM's
// parser does), the span is kept. The model's "tool_call_id" is an index per turn ("0", "1"), not
// an id that is unique in the conversation: the calls get generated ids (the template maps ids
// back to indexes by position).
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kEndThinking = "<|END_THINKING|>", kEndResponse = "<|END_RESPONSE|>",
                           kEndAction = "<|END_ACTION|>", kCiteOpen = "<co>", kCiteEnd = "</co>", kCiteClose = "</co:";
constexpr std::size_t kMaxCitation = 256;

class Cohere final : public ToolScanner {
 public:
  Cohere(Emitter& em, const OutputParserOptions& o)
      : ToolScanner(em, o, {"<|START_THINKING|>", "<|START_RESPONSE|>", "<|START_ACTION|>"}),
        call_(WrapperCall::Keys{.name = "tool_name", .id = ""}) {}

 private:
  enum class St : unsigned char { text, citation, action_open, call_pre, json, after_call, end_tag };
  void begin(std::uint32_t marker) override {
    tag_.clear();
    if (marker == 2) {
      st_ = St::action_open;
      return;
    }
    st_ = St::text;
    kind_ = marker == 0 ? ChatDelta::Kind::reasoning : ChatDelta::Kind::content;
    end_ = marker == 0 ? kEndThinking : kEndResponse;
    out({});  // a block, even an empty one, is output: its markers are the format's
  }
  void out(std::string_view s) { emit_text(kind_, s); }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::text:
        // Held back: a tail that could begin the end tag or a citation tag.
        if (!tag_.empty() || c == '<') {
          switch (match_tag(tag_, c, {end_, kCiteOpen, kCiteEnd, kCiteClose})) {
            case -1: return Step::more;
            case 0: commit(); return Step::end;
            case 1:
            case 2: tag_.clear(); return Step::more;
            case 3: st_ = St::citation; return Step::more;  // tag_ keeps "</co:" until '>'
            default: {
              std::string held = std::move(tag_);
              tag_.clear();
              held.pop_back();
              out(held);
              return step(c);
            }
          }
        }
        out(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
      case St::citation:  // "</co: 0:[1,2],1:[3,4]>"
        if (c == '>') {
          tag_.clear();
          st_ = St::text;
          return Step::more;
        }
        if (tag_.size() < kMaxCitation && ((c >= '0' && c <= '9') || c == ' ' || c == ':' || c == ',' || c == '[' || c == ']')) {
          tag_ += static_cast<char>(c);
          return Step::more;
        }
        {
          std::string held = std::move(tag_);  // not a citation tag: text
          tag_.clear();
          st_ = St::text;
          out(held);
          return step(c);
        }
      case St::action_open:
        if (json_ws(c)) return Step::more;
        if (c != '[') return Step::fail;
        st_ = St::call_pre;
        return Step::more;
      case St::call_pre:
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;
        call_.reset();
        st_ = St::json;
        [[fallthrough]];
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
        tag_.clear();
        return Step::more;
      case St::end_tag:
        if (tag_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(tag_, c, {kEndAction})) {
          case -1: return Step::more;
          case 0: commit(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  void at_finish() override {
    // An unterminated block keeps its kind; a closed list is complete without <|END_ACTION|>.
    if (st_ == St::text || st_ == St::citation) out(tag_);
    if (st_ == St::end_tag && tag_.empty()) commit();
  }

  St st_ = St::text;
  ChatDelta::Kind kind_ = ChatDelta::Kind::content;
  std::string_view end_ = kEndResponse;
  std::string tag_;
  WrapperCall call_;
};

}  // namespace

extern const Family kCohere;
constexpr Family kCohere{
    .name = "cohere",
    .models = "Cohere Command R7B, Command A",
    .example = "<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}},\n"
        "    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", \"parameters\": {\"tz\": \"Asia/Tokyo\"}}\n]<|END_ACTION|>",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Cohere>(em, o); },
    .markers = {"<|START_THINKING|>", "<|END_THINKING|>", "<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|START_ACTION|>", "<|END_ACTION|>"},
    .detect = [](std::string_view t) { return contains(t, "<|START_ACTION|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          std::string name;
          for (char c : tool.name()) name += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
          return "\\{\"tool_call_id\": ?\"(?:0|[1-9][0-9]*)\", ?\"tool_name\": ?\"" + regex_literal(name) + "\", ?\"parameters\": ?" +
                 tool.json_args() + "\\}";
        },
    .envelope = {"<\\|START_ACTION\\|>\\[\\n    ", ",\\n    ", "\\n\\]<\\|END_ACTION\\|>", true},
};

}  // namespace textedge::detail
