// OutputParser: the reasoning layer in front of a format's ToolScanner (core.hpp).
#include "textedge/output_parser.hpp"

#include <algorithm>
#include <cstdio>

#include "parsers/family.hpp"
#include "textedge/error.hpp"

namespace textedge {
namespace detail {

namespace {
// "mistral": Magistral's [THINK]...[/THINK]; "harmony": gpt-oss's analysis channel, which the
// harmony format itself turns into reasoning (so this layer does nothing).
constexpr const char* kReasoning[] = {"none", "think", "qwen3", "deepseek_r1", "mistral", "harmony", "seed_oss", "kimi_k3"};

std::string reasoning_names() {
  std::string s;
  for (auto* r : kReasoning) s += (s.empty() ? "" : ", ") + std::string(r);
  return s;
}
}  // namespace

// The reasoning layer. think / qwen3: a <think> before any other content opens reasoning, and
// </think> closes it (Qwen3 with enable_thinking off writes no <think>: all content).
// deepseek_r1: the output starts in reasoning (the template ends the prompt with <think>), a
// leading <think> is dropped, and everything before </think> is reasoning.
class ParserCore {
  // Seed-OSS: <seed:think>...</seed:think>; Kimi K3: its think channel.
  static std::string open_marker(const std::string& r) {
    return r == "mistral" ? "[THINK]" : r == "seed_oss" ? "<seed:think>" : r == "kimi_k3" ? "<|open|>think<|sep|>" : "<think>";
  }
  // In reasoning: its end, a nested opening (text), and for calls_end_reasoning families, when
  // the prompt opened the reasoning, the start of a call (which ends the reasoning; reasoning the
  // model opened itself keeps the calls written in it, as the policy says).
  static std::vector<std::string> close_markers(const OutputParserOptions& o) {
    std::vector<std::string> v{close_marker(o.reasoning), open_marker(o.reasoning)};
    const Family* f = find_family(o.format);
    if (o.starts_in_reasoning && f && f->calls_end_reasoning && !f->calls_in_reasoning && !f->markers[0].empty())
      v.emplace_back(f->markers[0]);
    return v;
  }
  static std::string close_marker(const std::string& r) {
    return r == "mistral" ? "[/THINK]" : r == "seed_oss" ? "</seed:think>" : r == "kimi_k3" ? "<|close|>think<|sep|>" : "</think>";
  }

 public:
  explicit ParserCore(const OutputParserOptions& o)
      : open_({open_marker(o.reasoning)}), close_(close_markers(o)) {
    const Family* family = find_family(o.format);
    if (!family) throw Error("unknown tool call format \"" + o.format + "\" (known: " + family_names() + ")");
    if (family->make) tools_ = family->make(em_, o);
    if (family->make && family->calls_in_reasoning) reasoning_tools_ = family->make(em_, o);
    bool found = false;
    for (auto* r : kReasoning) found |= o.reasoning == r;
    if (!found) throw Error("unknown reasoning format \"" + o.reasoning + "\" (known: " + reasoning_names() + ")");
    if (o.reasoning == "harmony" && o.format != "harmony")
      throw Error("reasoning format \"harmony\" goes with the harmony tool call format");
    reasoning_ = o.reasoning != "none" && o.reasoning != "harmony";
    in_reasoning_ = reasoning_ && (o.starts_in_reasoning || o.reasoning == "deepseek_r1");
  }

  // Performance note: each byte is seen once (one automaton step per layer), so a delta costs
  // its own length whatever came before; ~20 ns/byte with one-character deltas (bench/
  // parse_bench.cpp). Rejected: re-parsing the accumulated text on every delta and diffing
  // against what was sent (quadratic in the output's length, and the source of duplicated
  // or lost argument text when several tokens arrive in one delta).
  void feed(std::string_view s, std::vector<ChatDelta>& out) {
    em_.out = &out;
    if (!reasoning_ || done_) {
      for (unsigned char c : s) to_content(c);
      return;
    }
    for (unsigned char c : s) byte(c);
  }

  void finish(std::vector<ChatDelta>& out) {
    em_.out = &out;
    if (in_reasoning_) {
      to_reasoning(held_);
      end_reasoning_calls();
    } else {
      for (unsigned char c : held_) to_content(c);
    }
    held_.clear();
    if (tools_) tools_->finish();
  }

  bool made_calls() const {
    return (tools_ && tools_->calls() > 0) || (reasoning_tools_ && reasoning_tools_->calls() > 0);
  }

 private:
  void to_content(unsigned char c) {
    if (tools_)
      tools_->byte(c);
    else
      em_.text(ChatDelta::Kind::content, std::string_view(reinterpret_cast<const char*>(&c), 1));
  }

  void byte(unsigned char c) {
    if (done_) return to_content(c);
    const StopStrings& ac = in_reasoning_ ? close_ : open_;
    std::optional<StopStrings::Match> m = ac.feed(state_, std::string_view(reinterpret_cast<const char*>(&c), 1));
    if (!m && held_.empty() && ac.held(state_) == 0 && in_reasoning_) {  // ordinary reasoning text
      emit_reasoning(std::string_view(reinterpret_cast<const char*>(&c), 1));
      return;
    }
    held_ += static_cast<char>(c);
    if (m) {
      std::size_t len = ac.pattern(m->index).size();
      std::string before = held_.substr(0, held_.size() - len);
      bool dropped_open = in_reasoning_ && m->index == 1 && !reasoning_started_ &&
                          before.find_first_not_of(" \t\r\n") == std::string::npos;
      if (in_reasoning_ && m->index == 1 && !dropped_open) {
        // A later <think> inside reasoning is reasoning text.
        release_all_but(0);
        return;
      }
      held_.clear();
      state_ = 0;
      if (dropped_open) return;
      if (in_reasoning_ && m->index == 2) {  // a call's start ends the reasoning; the call goes to the tools
        emit_reasoning(before);
        end_reasoning_calls();
        in_reasoning_ = false;
        done_ = true;
        for (unsigned char b : ac.pattern(2)) to_content(b);
        return;
      }
      if (in_reasoning_) {  // </think>
        emit_reasoning(before);
        end_reasoning_calls();
        in_reasoning_ = false;
        done_ = true;
      } else {  // <think>
        for (unsigned char b : before) to_content(b);
        in_reasoning_ = true;
      }
      return;
    }
    release_all_but(ac.held(state_));
  }

  void release_all_but(std::size_t keep) {
    if (held_.size() <= keep) return;
    std::size_t n = held_.size() - keep;
    if (in_reasoning_) {
      emit_reasoning(std::string_view(held_).substr(0, n));
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        unsigned char b = static_cast<unsigned char>(held_[i]);
        to_content(b);
        if (!json_ws(b)) done_ = true;  // <think> opens reasoning only before any other content
      }
    }
    held_.erase(0, n);
    if (done_ && !in_reasoning_) {  // stop scanning: release what is held as content
      std::string rest = std::move(held_);
      held_.clear();
      state_ = 0;
      for (unsigned char b : rest) to_content(b);
    }
  }

  void emit_reasoning(std::string_view s) {
    if (s.empty()) return;
    // Whitespace before a leading <think> (deepseek_r1: "\n<think>...") does not start reasoning.
    if (!reasoning_started_ && s.find_first_not_of(" \t\r\n") != std::string_view::npos) reasoning_started_ = true;
    to_reasoning(s);
  }

  // Reasoning text, through the format's scanner when calls may stand inside reasoning.
  void to_reasoning(std::string_view s) {
    if (!reasoning_tools_) return em_.text(ChatDelta::Kind::reasoning, s);
    em_.text_is_reasoning = true;
    for (unsigned char c : s) reasoning_tools_->byte(c);
    em_.text_is_reasoning = false;
  }
  void end_reasoning_calls() {
    if (!reasoning_tools_) return;
    em_.text_is_reasoning = true;
    reasoning_tools_->finish();
    em_.text_is_reasoning = false;
  }

  Emitter em_;
  std::unique_ptr<ToolScanner> tools_, reasoning_tools_;
  StopStrings open_, close_;
  std::uint32_t state_ = 0;
  std::string held_;
  bool reasoning_ = false, in_reasoning_ = false, reasoning_started_ = false, done_ = false;
};

}  // namespace detail

OutputParser::OutputParser(const OutputParserOptions& options) : core_(std::make_unique<detail::ParserCore>(options)) {}
OutputParser::~OutputParser() = default;
OutputParser::OutputParser(OutputParser&&) noexcept = default;
OutputParser& OutputParser::operator=(OutputParser&&) noexcept = default;
void OutputParser::feed(std::string_view delta, std::vector<ChatDelta>& out) { core_->feed(delta, out); }
void OutputParser::finish(std::vector<ChatDelta>& out) { core_->finish(out); }
bool OutputParser::made_calls() const { return core_->made_calls(); }

void merge_deltas(const std::vector<ChatDelta>& deltas, ParsedMessage& into) {
  for (auto& d : deltas) {
    if (d.kind == ChatDelta::Kind::content) {
      into.content += d.text;
    } else if (d.kind == ChatDelta::Kind::reasoning) {
      into.reasoning_content += d.text;
    } else {
      if (d.index >= static_cast<int>(into.tool_calls.size())) into.tool_calls.resize(d.index + 1);
      auto& call = into.tool_calls[d.index];
      if (!d.id.empty()) call.id = d.id;
      if (!d.name.empty()) call.name = d.name;
      call.arguments += d.text;
    }
  }
  if (!into.tool_calls.empty()) into.finish_reason = "tool_calls";
}

ParsedMessage parse_output(std::string_view text, const OutputParserOptions& options) {
  // A whole message never carries a call that did not complete: calls are held until valid.
  OutputParserOptions held = options;
  held.partial_calls = false;
  OutputParser parser(held);
  std::vector<ChatDelta> deltas;
  parser.feed(text, deltas);
  parser.finish(deltas);
  ParsedMessage m;
  merge_deltas(deltas, m);
  return m;
}

std::vector<std::string> list_formats() {
  std::vector<std::string> v;
  for (const detail::Family* f : detail::families()) v.emplace_back(f->name);
  return v;
}

std::vector<FormatInfo> format_infos() {
  std::vector<FormatInfo> v;
  for (const detail::Family* f : detail::families())
    v.push_back({std::string(f->name), std::string(f->models), std::string(f->example), std::string(f->reasoning),
                 f->call_regex != nullptr});
  return v;
}

std::vector<std::string> list_reasoning_formats() {
  return {std::begin(detail::kReasoning), std::end(detail::kReasoning)};
}

// The markers of each format, as data (the family modules match the same strings).
std::vector<std::string> parser_markers(const OutputParserOptions& o) {
  static const std::vector<std::pair<std::string_view, std::vector<std::string>>> kReasoningMarkers = {
      {"think", {"<think>", "</think>"}},
      {"qwen3", {"<think>", "</think>"}},
      {"deepseek_r1", {"<think>", "</think>"}},
      {"mistral", {"[THINK]", "[/THINK]"}},
      {"seed_oss", {"<seed:think>", "</seed:think>"}},
      {"kimi_k3", {"<|open|>think<|sep|>", "<|close|>think<|sep|>"}},
  };
  std::vector<std::string> out;
  auto add = [&](const auto& markers) {
    for (std::string_view m : markers)
      if (!m.empty() && std::find(out.begin(), out.end(), m) == out.end()) out.emplace_back(m);
  };
  if (const detail::Family* f = detail::find_family(o.format)) add(f->markers);
  for (auto& [name, markers] : kReasoningMarkers)
    if (name == o.reasoning) add(markers);
  return out;
}

std::vector<TokenId> special_tokens_to_keep(const Tokenizer& tokenizer, const OutputParserOptions& options) {
  std::vector<TokenId> ids;
  for (const auto& m : parser_markers(options))
    if (auto id = tokenizer.token_to_id(m); id && tokenizer.is_special(*id)) ids.push_back(*id);
  return ids;
}

DetectedFormat detect_format(std::string_view t) {
  auto has = [&](std::string_view s) { return t.find(s) != std::string_view::npos; };
  DetectedFormat d;
  for (const detail::Family* f : detail::families())
    if (f->detect && f->detect(t)) {
      d.format = f->name;
      break;
    }
  // Reasoning.
  if (has("<seed:think>")) {  // Seed-OSS (the model opens its reasoning itself)
    d.reasoning = "seed_oss";
  } else if (has("open_tag('think'")) {  // Kimi K3: the generation prompt opens the think channel
    d.reasoning = "kimi_k3";
    d.starts_in_reasoning = true;
  } else if (has("<think>") || has("</think>")) {  // DeepSeek-R1 templates only strip "</think>"
    if (has("<｜Assistant｜>"))
      d.reasoning = "deepseek_r1";  // DeepSeek-R1: the prompt ends with <think>
    else if (has("enable_thinking"))
      d.reasoning = "qwen3";  // Qwen3: enable_thinking switch
    else
      d.reasoning = "think";  // other <think> models (QwQ, ...)
    // The generation prompt opens the reasoning: QwQ-32B, Qwen3-*-Thinking-2507, DeepSeek-R1-0528.
    d.starts_in_reasoning =
        has("assistant\\n<think>\\n") || has("<｜Assistant｜><think>\\n") || d.reasoning == "deepseek_r1" ||
        has("]~b]ai' ~ '\\n' ~ '<think>'") ||                 // MiniMax-M2
        has("<|assistant|>{{- '</think>' if (enable_thinking is defined and not enable_thinking) else '<think>'");  // GLM-4.7
  }
  return d;
}


std::string to_json(const ChatDelta& d) {
  std::string out;
  if (d.kind == ChatDelta::Kind::content) {
    out = "{\"content\":";
    detail::append_json_string(out, d.text);
  } else if (d.kind == ChatDelta::Kind::reasoning) {
    out = "{\"reasoning_content\":";
    detail::append_json_string(out, d.text);
  } else {
    out = "{\"tool_calls\":[{\"index\":" + std::to_string(d.index);
    if (!d.id.empty()) {
      out += ",\"id\":";
      detail::append_json_string(out, d.id);
      out += ",\"type\":\"function\"";
    }
    out += ",\"function\":{";
    if (!d.name.empty()) {
      out += "\"name\":";
      detail::append_json_string(out, d.name);
      out += ',';
    }
    out += "\"arguments\":";
    detail::append_json_string(out, d.text);
    out += "}}]";
  }
  return out + "}";
}

std::string to_json(const ParsedMessage& m) {
  std::string out = "{\"role\":\"assistant\",\"content\":";
  if (m.content.empty() && !m.tool_calls.empty())
    out += "null";
  else
    detail::append_json_string(out, m.content);
  if (!m.reasoning_content.empty()) {
    out += ",\"reasoning_content\":";
    detail::append_json_string(out, m.reasoning_content);
  }
  if (!m.tool_calls.empty()) {
    out += ",\"tool_calls\":[";
    for (std::size_t i = 0; i < m.tool_calls.size(); ++i) {
      if (i) out += ',';
      out += "{\"id\":";
      detail::append_json_string(out, m.tool_calls[i].id);
      out += ",\"type\":\"function\",\"function\":{\"name\":";
      detail::append_json_string(out, m.tool_calls[i].name);
      out += ",\"arguments\":";
      detail::append_json_string(out, m.tool_calls[i].arguments);
      out += "}}";
    }
    out += ']';
  }
  out += ",\"finish_reason\":";
  detail::append_json_string(out, m.finish_reason);
  return out + "}";
}

}  // namespace textedge
