// kimi_k3: Kimi K3 "XTML" (its chat template; vLLM's kimi_k3 tool parser). The assistant turn is
// channels: <|open|>think<|sep|>...<|close|>think<|sep|> (reasoning format kimi_k3), then
// <|open|>response<|sep|>...<|close|>response<|sep|> (content: the markers are dropped), then
//   <|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="k" type="string"<|sep|>v
//   <|close|>argument<|sep|>...<|close|>call<|sep|>...<|close|>tools<|sep|>
// and <|close|>message<|sep|> (dropped). Attribute values are escaped (&quot; &amp;). An argument
// of type "string" is its raw text (streamed as written); any other type is JSON, or its raw
// text as a string when it does not parse (as vLLM decodes it). The template's other argument
// form, <|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>, is not read (nor by vLLM).
#include "parsers/family.hpp"
#include "parsers/xml_typing.hpp"

namespace textedge::detail {
namespace {

constexpr std::string_view kSep = "<|sep|>", kOpenCall = "<|open|>call ", kCloseTools = "<|close|>tools<|sep|>",
                           kOpenArgument = "<|open|>argument ", kCloseCall = "<|close|>call<|sep|>",
                           kCloseArgument = "<|close|>argument<|sep|>";

// key="value" pairs of an XTML tag, unescaped.
std::string attr(std::string_view attrs, std::string_view key) {
  std::string pat = std::string(key) + "=\"";
  std::size_t at = 0;
  while ((at = attrs.find(pat, at)) != std::string_view::npos) {
    if (at == 0 || attrs[at - 1] == ' ') {
      std::size_t from = at + pat.size(), to = attrs.find('"', from);
      if (to == std::string_view::npos) return {};
      std::string v(attrs.substr(from, to - from)), out;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v.compare(i, 6, "&quot;") == 0) {
          out += '"';
          i += 5;
        } else if (v.compare(i, 5, "&amp;") == 0) {
          out += '&';
          i += 4;
        } else {
          out += v[i];
        }
      }
      return out;
    }
    at += pat.size();
  }
  return {};
}

class KimiK3 final : public ToolScanner {
 public:
  // 0: the tools channel; the others are channel markers around content, dropped.
  KimiK3(Emitter& em, const OutputParserOptions& o)
      : ToolScanner(em, o, {"<|open|>tools<|sep|>", "<|open|>response<|sep|>", "<|close|>response<|sep|>", "<|close|>message<|sep|>"}) {}

 private:
  enum class St : unsigned char { drop, between, between_tag, call_attrs, body, body_tag, arg_attrs, value };
  void begin(std::uint32_t marker) override {
    st_ = St::between;
    if (marker != 0) {  // a content channel marker: consumed, the text goes on as content
      commit();
      st_ = St::drop;
    }
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::drop: return Step::fail;  // (re-read as content from the committed point)
      case St::between:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::between_tag;
        [[fallthrough]];
      case St::between_tag:
        switch (match_tag(buf_, c, {kOpenCall, kCloseTools})) {
          case -1: return Step::more;
          case 0: buf_.clear(); st_ = St::call_attrs; return Step::more;
          case 1: commit(); return Step::end;
          default: return Step::fail;
        }
      case St::call_attrs: {
        buf_ += static_cast<char>(c);
        if (!buf_.ends_with(kSep)) return buf_.size() > 4096 ? Step::fail : Step::more;
        std::string name = attr(std::string_view(buf_).substr(0, buf_.size() - kSep.size()), "tool");
        if (name.empty()) return Step::fail;
        set_name(name);
        first_ = true;
        st_ = St::body;
        return Step::more;
      }
      case St::body:
        if (json_ws(c)) return Step::more;
        buf_.clear();
        st_ = St::body_tag;
        [[fallthrough]];
      case St::body_tag:
        switch (match_tag(buf_, c, {kOpenArgument, kCloseCall})) {
          case -1: return Step::more;
          case 0: buf_.clear(); st_ = St::arg_attrs; return Step::more;
          case 1:
            add_args(first_ ? "{}" : "}");
            end_call();
            st_ = St::between;
            return Step::more;
          default: return Step::fail;
        }
      case St::arg_attrs: {
        buf_ += static_cast<char>(c);
        if (!buf_.ends_with(kSep)) return buf_.size() > 4096 ? Step::fail : Step::more;
        std::string_view attrs = std::string_view(buf_).substr(0, buf_.size() - kSep.size());
        std::string key = attr(attrs, "key"), type = attr(attrs, "type");
        std::string head = first_ ? "{" : ", ";
        head += json_quote(key);
        head += ": ";
        first_ = false;
        value_.begin({}, XmlValue::Rules::dsml, type.empty() || type == "string", false);
        add_args(head);
        st_ = St::value;
        return Step::more;
      }
      case St::value:
        if (value_.step(c, kCloseArgument, *this)) st_ = St::body;
        return Step::more;
    }
    return Step::fail;
  }

  XmlValue value_;
  St st_ = St::between;
  std::string buf_;
  bool first_ = true;
};

}  // namespace

extern const Family kKimiK3;
constexpr Family kKimiK3{
    .name = "kimi_k3",
    .models = "Kimi K3 (XTML)",
    .example = "<|open|>tools<|sep|><|open|>call tool=\"get_weather\" index=\"1\"<|sep|><|open|>argument key=\"city\" type=\"string\"<|sep|>Paris"
        "<|close|>argument<|sep|><|open|>argument key=\"days\" type=\"number\"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|>"
        "<|open|>call tool=\"get_time\" index=\"2\"<|sep|><|open|>argument key=\"tz\" type=\"string\"<|sep|>Asia/Tokyo<|close|>argument<|sep|>"
        "<|close|>call<|sep|><|close|>tools<|sep|>",
    .reasoning = "kimi_k3",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> { return std::make_unique<KimiK3>(em, o); },
    .markers = {"<|open|>", "<|close|>", "<|sep|>"},
    .detect = [](std::string_view t) { return contains(t, "'<|open|>' + tag") || contains(t, "<|open|>tools<|sep|>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          // A string parameter's value is raw with type="string"; the others are JSON with their JSON type.
          std::optional<Json> props;
          if (tool.parameters()) props = tool.parameters()->find("properties");
          MemberStyle style{[props](std::string_view k) {
                              std::optional<Json> p = props ? props->find(k) : std::nullopt;
                              std::string type = p && is_string_typed(*p) ? "string" : "(?:number|boolean|null|object|array)";
                              return "<\\|open\\|>argument key=\"" + regex_literal(k) + "\" type=\"" + type + "\"<\\|sep\\|>";
                            },
                            "<\\|close\\|>argument<\\|sep\\|>", "", "<|"};
          return "<\\|open\\|>call tool=\"" + tool.name_regex() + "\" index=\"[1-9][0-9]*\"<\\|sep\\|>" + tool.members(style) +
                 "<\\|close\\|>call<\\|sep\\|>";
        },
    .envelope = {"<\\|open\\|>tools<\\|sep\\|>", "", "<\\|close\\|>tools<\\|sep\\|>", true},
};

}  // namespace textedge::detail
