// deepseek_v3: DeepSeek-V3 / V3-0324 / R1-0528 (chat template; vLLM's deepseek_v3 parser):
//   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{...}\n```<｜tool▁call▁end｜>
//   then "\n<｜tool▁call▁begin｜>..." per further call, and <｜tool▁calls▁end｜>.
// deepseek_v31: DeepSeek-V3.1 / V3.2 (chat template; vLLM's deepseek_v31 parser):
//   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{...}<｜tool▁call▁end｜>... (no separator)
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kCallBegin = "<｜tool▁call▁begin｜>", kCallsEnd = "<｜tool▁calls▁end｜>",
                           kSep = "<｜tool▁sep｜>", kCallEnd = "<｜tool▁call▁end｜>", kFence = "```json\n", kFenceEnd = "```";

class DeepSeek final : public ToolScanner {
 public:
  // A call's own begin tag also opens calls: after a broken call the next one is still read
  // (llama.cpp likewise takes the section tag as optional).
  DeepSeek(Emitter& em, const OutputParserOptions& o, bool v31)
      : ToolScanner(em, o, {"<｜tool▁calls▁begin｜>", std::string(kCallBegin)}), v31_(v31) {}

 private:
  enum class St : unsigned char { between, between_tag, type, sep, name, fence, args_pre, args, after_args, fence_end, end_tag };
  void begin(std::uint32_t marker) override {
    st_ = St::between;
    if (marker == 1) call_begun();
  }
  void call_begun() {
    text_.clear();
    buf_.clear();
    st_ = v31_ ? St::name : St::type;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::between:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::between_tag;
        [[fallthrough]];
      case St::between_tag:
        switch (match_tag(buf_, c, {kCallBegin, kCallsEnd})) {
          case -1: return Step::more;
          case 0: call_begun(); return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
      case St::type:  // "function"
        if (c == '<') {
          buf_.clear();
          st_ = St::sep;
          return step(c);
        }
        if (json_ws(c)) return Step::fail;
        return Step::more;
      case St::sep:
        switch (match_tag(buf_, c, {kSep})) {
          case -1: return Step::more;
          case 0:
            if (v31_) return name_done();
            st_ = St::name;
            return Step::more;
          default: return Step::fail;
        }
      case St::name:
        if (!v31_ && c == '\n') return name_done();
        if (v31_ && c == '<') {
          buf_.clear();
          st_ = St::sep;
          return step(c);
        }
        if (c == '<' || c == '\n') return Step::fail;
        text_ += static_cast<char>(c);
        return Step::more;
      case St::fence:
        if (c != static_cast<unsigned char>(kFence[at_])) return Step::fail;
        if (++at_ == kFence.size()) st_ = St::args_pre;
        return Step::more;
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
          at_ = 0;
          buf_.clear();
        }
        return Step::more;
      }
      case St::after_args:
        if (json_ws(c)) return Step::more;
        st_ = v31_ ? St::end_tag : St::fence_end;
        [[fallthrough]];
      case St::fence_end:
        if (st_ == St::fence_end) {
          if (c != static_cast<unsigned char>(kFenceEnd[at_])) return Step::fail;
          if (++at_ == kFenceEnd.size()) st_ = St::end_tag;
          return Step::more;
        }
        [[fallthrough]];
      case St::end_tag:
        switch (match_tag(buf_, c, {kCallEnd})) {
          case -1: return Step::more;
          case 0:
            end_call();
            st_ = St::between;
            return Step::more;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  Step name_done() {
    if (text_.empty()) return Step::fail;
    set_name(text_);
    st_ = v31_ ? St::args_pre : St::fence;
    at_ = 0;
    return Step::more;
  }
  bool v31_;
  St st_ = St::between;
  std::string buf_, text_;
  std::size_t at_ = 0;
  JsonScan json_;
};

}  // namespace

extern const Family kDeepSeekV3, kDeepSeekV31;
constexpr Family kDeepSeekV3{
    .name = "deepseek_v3",
    .models = "DeepSeek-V3, V3-0324, R1-0528",
    .example = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\", \"days\": 3}\n```"
        "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{\"tz\": \"Asia/Tokyo\"}\n```"
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    .reasoning = "deepseek_r1",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<DeepSeek>(em, o, false);
    },
    .markers = {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"},
    .detect = [](std::string_view t) { return contains(t, "<｜tool▁calls▁begin｜>") && contains(t, "```json"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
      return "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + tool.name_regex() + "\\n```json\\n" + tool.json_args() +
             "\\n```<｜tool▁call▁end｜>";
    },
    .envelope = {"<｜tool▁calls▁begin｜>", "\\n", "<｜tool▁calls▁end｜>", true},
};
constexpr Family kDeepSeekV31{
    .name = "deepseek_v31",
    .models = "DeepSeek-V3.1, V3.2-Exp",
    .example = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\", \"days\": 3}<｜tool▁call▁end｜>"
        "<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"tz\": \"Asia/Tokyo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    .reasoning = "deepseek_r1",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return std::make_unique<DeepSeek>(em, o, true);
    },
    .markers = {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"},
    .detect = [](std::string_view t) { return contains(t, "<｜tool▁calls▁begin｜>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
      return "<｜tool▁call▁begin｜>" + tool.name_regex() + "<｜tool▁sep｜>" + tool.json_args() + "<｜tool▁call▁end｜>";
    },
    .envelope = {"<｜tool▁calls▁begin｜>", "", "<｜tool▁calls▁end｜>", true},
};

}  // namespace textedge::detail
