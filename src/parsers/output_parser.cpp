// OutputParser: the reasoning layer in front of a format's ToolScanner (core.hpp).
#include "textedge/output_parser.hpp"

#include <algorithm>
#include <cstdio>

#include "parsers/core.hpp"
#include "textedge/error.hpp"

namespace textedge {
namespace detail {

namespace {
struct FormatEntry {
  const char* name;
  std::unique_ptr<ToolScanner> (*make)(Emitter&, const OutputParserOptions&);
  bool calls_in_reasoning = false;  // the model calls tools in the middle of its reasoning
};
// "none": no tool calls, all of the answer is content.
constexpr FormatEntry kFormats[] = {
    {"none", nullptr},
    {"hermes", make_hermes},
    {"llama3_json", make_llama3_json},
    {"mistral", make_mistral},
    {"qwen3_coder", make_qwen3_coder},
    {"deepseek_v3", make_deepseek_v3},
    {"deepseek_v31", make_deepseek_v31},
    {"kimi_k2", make_kimi_k2, true},  // Kimi-K2-Thinking interleaves reasoning and calls
    {"glm45", make_glm45},
    {"harmony", make_harmony},
    {"pythonic", make_pythonic},
};
// "mistral": Magistral's [THINK]...[/THINK]; "harmony": gpt-oss's analysis channel, which the
// harmony format itself turns into reasoning (so this layer does nothing).
constexpr const char* kReasoning[] = {"none", "think", "qwen3", "deepseek_r1", "mistral", "harmony"};

template <class List>
std::string names(const List& list) {
  std::string s;
  for (auto& e : list) {
    if (!s.empty()) s += ", ";
    if constexpr (std::is_same_v<std::decay_t<decltype(e)>, FormatEntry>)
      s += e.name;
    else
      s += e;
  }
  return s;
}
}  // namespace

// The reasoning layer. think / qwen3: a <think> before any other content opens reasoning, and
// </think> closes it (Qwen3 with enable_thinking off writes no <think>: all content).
// deepseek_r1: the output starts in reasoning (the template ends the prompt with <think>), a
// leading <think> is dropped, and everything before </think> is reasoning.
class ParserCore {
 public:
  explicit ParserCore(const OutputParserOptions& o)
      : open_({o.reasoning == "mistral" ? "[THINK]" : "<think>"}),
        close_({o.reasoning == "mistral" ? "[/THINK]" : "</think>", o.reasoning == "mistral" ? "[THINK]" : "<think>"}) {
    bool found = false;
    for (auto& f : kFormats)
      if (o.format == f.name) {
        found = true;
        if (f.make) tools_ = f.make(em_, o);
        if (f.make && f.calls_in_reasoning) reasoning_tools_ = f.make(em_, o);
      }
    if (!found) throw Error("unknown tool call format \"" + o.format + "\" (known: " + names(kFormats) + ")");
    found = false;
    for (auto* r : kReasoning) found |= o.reasoning == r;
    if (!found) throw Error("unknown reasoning format \"" + o.reasoning + "\" (known: " + names(kReasoning) + ")");
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
  for (auto& f : detail::kFormats) v.push_back(f.name);
  return v;
}

std::vector<std::string> list_reasoning_formats() {
  return {std::begin(detail::kReasoning), std::end(detail::kReasoning)};
}

// The markers of each format, as data (the family modules match the same strings).
std::vector<std::string> parser_markers(const OutputParserOptions& o) {
  static const std::vector<std::pair<std::string_view, std::vector<std::string>>> kMarkers = {
      {"hermes", {"<tool_call>", "</tool_call>"}},
      {"llama3_json", {"<|python_tag|>"}},
      {"mistral", {"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]"}},
      {"qwen3_coder", {"<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"}},
      {"deepseek_v3",
       {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>",
        "<｜tool▁sep｜>"}},
      {"deepseek_v31",
       {"<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>",
        "<｜tool▁sep｜>"}},
      {"kimi_k2",
       {"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>", "<|tool_calls_section_end|>",
        "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>"}},
      {"glm45", {"<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"}},
      {"harmony", {"<|start|>", "<|end|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|call|>", "<|return|>"}},
      {"pythonic", {"<|python_start|>", "<|python_end|>"}},  // special tokens of Llama 4
      {"think", {"<think>", "</think>"}},
      {"qwen3", {"<think>", "</think>"}},
      {"deepseek_r1", {"<think>", "</think>"}},
      {"mistral_reasoning", {"[THINK]", "[/THINK]"}},
  };
  std::vector<std::string> out;
  auto add = [&](std::string_view name) {
    for (auto& [n, markers] : kMarkers)
      if (n == name)
        for (auto& m : markers)
          if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  add(o.format);
  add(o.reasoning == "mistral" ? "mistral_reasoning" : o.reasoning);
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
  // Tool call formats, most specific first.
  if (has("<tool_call>") && has("<function="))
    d.format = "qwen3_coder";  // Qwen3-Coder, Qwen3-Next
  else if (has("<tool_call>") && has("<arg_key>"))
    d.format = "glm45";  // GLM-4.5 / 4.6
  else if (has("<tool_call>"))
    d.format = "hermes";  // Hermes 2 Pro, Qwen2.5, Qwen3
  else if (has("[TOOL_CALLS]"))
    d.format = "mistral";  // Mistral 7B v0.3, Nemo, Small
  else if (has("<|python_tag|>") || (has("<|start_header_id|>") && has("\"parameters\"")))
    d.format = "llama3_json";  // Llama 3.1 / 3.2 / 3.3 JSON tool calling
  else if (has("<｜tool▁calls▁begin｜>") && has("```json"))
    d.format = "deepseek_v3";  // DeepSeek-V3, R1-0528
  else if (has("<｜tool▁calls▁begin｜>"))
    d.format = "deepseek_v31";  // DeepSeek-V3.1 / V3.2
  else if (has("<|tool_calls_section_begin|>"))
    d.format = "kimi_k2";  // Kimi K2
  else if (has("<|channel|>"))
    d.format = "harmony";  // gpt-oss
  // Reasoning.
  if (has("<think>") || has("</think>")) {  // DeepSeek-R1 templates only strip "</think>"
    if (has("<｜Assistant｜>"))
      d.reasoning = "deepseek_r1";  // DeepSeek-R1: the prompt ends with <think>
    else if (has("enable_thinking"))
      d.reasoning = "qwen3";  // Qwen3: enable_thinking switch
    else
      d.reasoning = "think";  // other <think> models (QwQ, ...)
    // The generation prompt opens the reasoning: QwQ-32B, Qwen3-*-Thinking-2507, DeepSeek-R1-0528.
    d.starts_in_reasoning =
        has("assistant\\n<think>\\n") || has("<｜Assistant｜><think>\\n") || d.reasoning == "deepseek_r1";
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
