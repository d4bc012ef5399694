// harmony: gpt-oss (the openai/harmony format; vLLM's openai tool parser and gpt-oss reasoning):
//   <|channel|>analysis<|message|>...<|end|>                      -> reasoning
//   <|start|>assistant<|channel|>final<|message|>...<|return|>      -> content
//   <|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{...}<|call|>
//                                                                   -> a call (the recipient may
//                                                                      also stand before <|channel|>)
// The prompt ends with <|start|>assistant, so the first message starts at <|channel|>. A
// commentary message without a recipient (a preamble) is content. Text outside messages is content.
// <|return|> and <|call|> are stop tokens, often not in the text: a message or call whose text
// is complete when the output ends is complete.
#include "parsers/family.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kMessage = "<|message|>", kEnd = "<|end|>", kReturn = "<|return|>", kCall = "<|call|>",
                           kChannel = "<|channel|>";
constexpr std::size_t kMaxHeader = 512;

class Harmony final : public ToolScanner {
 public:
  Harmony(Emitter& em, const OutputParserOptions& o) : ToolScanner(em, o, {"<|start|>", "<|channel|>"}) {}

 private:
  enum class St : unsigned char { header, body, args, after_args };
  enum class Body : unsigned char { reasoning, content };
  void begin(std::uint32_t marker) override {
    st_ = St::header;
    header_ = marker == 0 ? "<|start|>" : std::string(kChannel);
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::header:
        header_ += static_cast<char>(c);
        if (header_.size() > kMaxHeader) return Step::fail;
        if (!header_.ends_with(kMessage)) return Step::more;
        return header_done();
      case St::body:
        // Held back: a tail that could begin <|end|>, <|return|> or <|call|>.
        if (!tag_.empty() || c == '<') {
          int m = match_tag(tag_, c, {kEnd, kReturn, kCall});
          if (m == -1) return Step::more;
          if (m >= 0) {
            commit();
            return Step::end;
          }
          std::string held = std::move(tag_);
          tag_.clear();
          held.pop_back();
          out(held);
          return step(c);
        }
        out(std::string_view(reinterpret_cast<const char*>(&c), 1));
        return Step::more;
      case St::args: {
        if (json_.depth() == 0 && json_ws(c)) return Step::more;
        if (json_.depth() == 0 && json_.expecting_value() && c != '{') return Step::fail;  // arguments are a JSON object
        JsonScan::R r = json_.step(c);
        if (r == JsonScan::R::error) return Step::fail;
        add_args(std::string_view(reinterpret_cast<const char*>(&c), 1));
        if (r == JsonScan::R::done) st_ = St::after_args;
        return Step::more;
      }
      case St::after_args:
        if (tag_.empty() && json_ws(c)) return Step::more;
        switch (match_tag(tag_, c, {kCall, kEnd})) {
          case -1: return Step::more;
          case 0:
          case 1: end_call(); return Step::end;
          default: return Step::fail;
        }
    }
    return Step::fail;
  }
  Step header_done() {
    std::size_t ch = header_.find(kChannel);
    if (ch == std::string::npos) return Step::fail;
    std::size_t name_at = ch + kChannel.size();
    std::size_t name_end = header_.find_first_of(" <", name_at);
    std::string channel = header_.substr(name_at, name_end - name_at);
    std::string recipient;
    if (std::size_t to = header_.find("to=functions."); to != std::string::npos) {
      std::size_t at = to + 13;
      std::size_t end = header_.find_first_of(" <", at);
      recipient = header_.substr(at, end - at);
      if (recipient.empty()) return Step::fail;
    }
    tag_.clear();
    if (!recipient.empty()) {
      set_name(recipient);
      json_.reset();
      st_ = St::args;
      return Step::more;
    }
    body_ = channel == "analysis" ? Body::reasoning : Body::content;
    st_ = St::body;
    out({});  // a message, even an empty one, is output: its markers are the format's
    return Step::more;
  }
  void at_finish() override {
    if (st_ == St::body) out(tag_);  // an unterminated message keeps its channel
    // <|call|> is a stop token of gpt-oss: engines often leave it out of the text.
    if (st_ == St::after_args && tag_.empty()) end_call();
  }
  void out(std::string_view s) {
    emit_text(body_ == Body::reasoning ? ChatDelta::Kind::reasoning : ChatDelta::Kind::content, s);
  }

  St st_ = St::header;
  Body body_ = Body::content;
  std::string header_, tag_;
  JsonScan json_;
};

}  // namespace

extern const Family kHarmony;
constexpr Family kHarmony{
    .name = "harmony",
    .models = "gpt-oss (harmony)",
    .example = "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\", \"days\": 3}<|call|>"
        "<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{\"tz\": \"Asia/Tokyo\"}<|call|>",
    .reasoning = "harmony",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<Harmony>(em, o); },
    .markers = {"<|start|>", "<|end|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|call|>", "<|return|>"},
    .detect = [](std::string_view t) { return contains(t, "<|channel|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          return "(?:<\\|start\\|>assistant)?<\\|channel\\|>commentary to=functions\\." + tool.name_regex() +
                 " <\\|constrain\\|>json<\\|message\\|>" + tool.json_args() + "<\\|call\\|>";
        },
    .envelope = {"", "", "", false},
};

}  // namespace textedge::detail
