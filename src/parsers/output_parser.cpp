// OutputParser: the reasoning layer in front of a format's ToolScanner (core.hpp).
#include "textedge/output_parser.hpp"

#include <algorithm>
#include <cstdio>

#include "parsers/family.hpp"
#include "parsers/reasoning_formats.hpp"
#include "textedge/error.hpp"

namespace textedge {
namespace detail {

// The reasoning layer, driven by the format's row in reasoning_formats.cpp. Phases: `pre`
// (before any other content: an open marker opens reasoning, an answer_open the answer
// wrapper), `reasoning` (to a close marker; a leading open marker is dropped or text, as the
// format says), `post` (after reasoning, before other content: an answer_open), `answer` (to the
// first answer_close), `done` (all content, straight to the tool layer). think / qwen3: a <think>
// before any other content opens reasoning, and </think> closes it (Qwen3 with enable_thinking
// off writes no <think>: all content). deepseek_r1: the output starts in reasoning (the template
// ends the prompt with <think>), a leading <think> is dropped, and everything before </think> is
// reasoning.
class ParserCore {
 public:
  explicit ParserCore(const OutputParserOptions& o)
      : rf_(checked(o)),
        pre_(concat(rf_->open, rf_->answer_open)),
        in_(in_reasoning_markers(o, rf_, call_index_)),
        post_(concat(rf_->answer_open, kNoMarkers)),
        answer_(concat(rf_->answer_close, kNoMarkers)) {
    const Family* family = find_family(o.format);
    if (family->make) tools_ = family->make(em_, o);
    if (family->make && family->calls_in_reasoning) reasoning_tools_ = family->make(em_, o);
    for (auto m : rf_->open) n_open_ += !m.empty();
    for (auto m : rf_->close) n_close_ += !m.empty();
    prefix_ = rf_->content_prefix;
    bool passive = rf_->passive || (!rf_->read_by_format.empty() && o.format == rf_->read_by_format);
    in_reasoning_ = !passive && (o.starts_in_reasoning || rf_->starts_in_reasoning);
    phase_ = passive ? Phase::done : in_reasoning_ ? Phase::reasoning : Phase::pre;
    if (in_reasoning_) label_ = rf_->label;
  }

  // Performance note: each byte is seen once (one automaton step per layer), so a delta costs
  // its own length whatever came before; ~20 ns/byte with one-character deltas (bench/
  // parse_bench.cpp). Rejected: re-parsing the accumulated text on every delta and diffing
  // against what was sent (quadratic in the output's length, and the source of duplicated
  // or lost argument text when several tokens arrive in one delta).
  void feed(std::string_view s, std::vector<ChatDelta>& out) {
    em_.out = &out;
    if (!prefix_.empty()) write_prefix();
    if (phase_ == Phase::done) {
      for (unsigned char c : s) to_content(c);
      return;
    }
    for (unsigned char c : s) byte(c);
  }

  void finish(std::vector<ChatDelta>& out) {
    em_.out = &out;
    if (!prefix_.empty()) write_prefix();
    if (phase_ == Phase::reasoning) {
      to_reasoning(std::string(label_.substr(0, label_pos_)) + held_);
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
  enum class Phase : unsigned char { pre, reasoning, post, answer, done };
  static constexpr std::array<std::string_view, 2> kNoMarkers = {};

  static const ReasoningFormat* checked(const OutputParserOptions& o) {
    if (!find_family(o.format)) throw Error("unknown tool call format \"" + o.format + "\" (known: " + family_names() + ")");
    const ReasoningFormat* rf = find_reasoning_format(o.reasoning);
    if (!rf) throw Error("unknown reasoning format \"" + o.reasoning + "\" (known: " + reasoning_format_names() + ")");
    if (!rf->tool_format.empty() && o.format != rf->tool_format)
      throw Error("reasoning format \"" + o.reasoning + "\" goes with the " + std::string(rf->tool_format) + " tool call format");
    return rf;
  }
  // In reasoning: its close markers, the open markers a format drops at its start, and for a
  // calls_end_reasoning family when the prompt opened the reasoning, the start of a call (which
  // ends the reasoning: Qwen3.5 calls without closing it; reasoning the model opened itself keeps
  // the calls written in it, as the policy says). `call_index`: that marker's index, if any.
  static std::shared_ptr<const StopStrings> in_reasoning_markers(const OutputParserOptions& o, const ReasoningFormat* rf, std::uint32_t& call_index) {
    std::vector<std::string> v;
    for (auto m : rf->close)
      if (!m.empty()) v.emplace_back(m);
    if (rf->leading_open == ReasoningFormat::LeadingOpen::drop)
      for (auto m : rf->open)
        if (!m.empty()) v.emplace_back(m);
    const Family* f = find_family(o.format);
    if (o.starts_in_reasoning && f && f->calls_end_reasoning && !f->calls_in_reasoning && !f->markers[0].empty()) {
      call_index = static_cast<std::uint32_t>(v.size());
      v.emplace_back(f->markers[0]);
    }
    return shared_stop_strings(v);
  }
  static std::shared_ptr<const StopStrings> concat(const std::array<std::string_view, 2>& a, const std::array<std::string_view, 2>& b) {
    std::vector<std::string> v;
    for (auto m : a)
      if (!m.empty()) v.emplace_back(m);
    for (auto m : b)
      if (!m.empty()) v.emplace_back(m);
    return shared_stop_strings(v);
  }

  void write_prefix() {
    std::string_view p = prefix_;
    prefix_ = {};
    for (unsigned char c : p) to_content(c);
  }

  void to_content(unsigned char c) {
    if (tools_)
      tools_->byte(c);
    else
      em_.text(ChatDelta::Kind::content, std::string_view(reinterpret_cast<const char*>(&c), 1));
  }

  const StopStrings& automaton() const {
    switch (phase_) {
      case Phase::pre: return *pre_;
      case Phase::reasoning: return *in_;
      case Phase::post: return *post_;
      default: return *answer_;
    }
  }

  void byte(unsigned char c) {
    if (phase_ == Phase::done) return to_content(c);
    if (label_pos_ < label_.size() && phase_ == Phase::reasoning && label_byte(c)) return;
    const StopStrings& ac = automaton();
    std::optional<StopStrings::Match> m = ac.feed(state_, std::string_view(reinterpret_cast<const char*>(&c), 1));
    if (!m && held_.empty() && ac.held(state_) == 0 && phase_ == Phase::reasoning) {  // ordinary reasoning text
      emit_reasoning(std::string_view(reinterpret_cast<const char*>(&c), 1));
      return;
    }
    held_ += static_cast<char>(c);
    if (m) return marker(m->index, ac.pattern(m->index).size());
    release_all_but(ac.held(state_));
  }

  // A marker of the current phase ends at this byte (held_ ends with it).
  void marker(std::uint32_t index, std::size_t len) {
    std::string before = held_.substr(0, held_.size() - len);
    if (phase_ == Phase::reasoning && index == call_index_) {  // a call's start ends the reasoning
      held_.clear();
      state_ = 0;
      emit_reasoning(before);
      end_reasoning_calls();
      in_reasoning_ = false;
      phase_ = Phase::done;
      for (unsigned char b : in_->pattern(index)) to_content(b);
      return;
    }
    if (phase_ == Phase::reasoning && index >= n_close_) {  // an open marker inside reasoning
      bool dropped_open = !reasoning_started_ && before.find_first_not_of(" \t\r\n") == std::string::npos;
      if (!dropped_open) {  // a later <think> inside reasoning is reasoning text
        release_all_but(0);
        return;
      }
    }
    held_.clear();
    state_ = 0;
    switch (phase_) {
      case Phase::reasoning:
        if (index >= n_close_) return;  // the leading open marker, dropped
        emit_reasoning(before);
        end_reasoning_calls();
        in_reasoning_ = false;
        phase_ = rf_->answer_tags() ? Phase::post : Phase::done;
        return;
      case Phase::pre:
        for (unsigned char b : before) to_content(b);
        if (index < n_open_) {
          in_reasoning_ = true;
          phase_ = Phase::reasoning;
          label_ = rf_->label;
        } else {
          phase_ = Phase::answer;
        }
        return;
      case Phase::post:
        for (unsigned char b : before) to_content(b);
        phase_ = Phase::answer;
        return;
      default:  // the answer's close marker
        for (unsigned char b : before) to_content(b);
        phase_ = Phase::done;
        return;
    }
  }

  // The reasoning's label (Gemma 4's "thought\n"): true when `c` continues it. On a mismatch the
  // label's bytes so far are reasoning read again, and `c` goes on as usual.
  bool label_byte(unsigned char c) {
    if (c == static_cast<unsigned char>(label_[label_pos_])) {
      if (++label_pos_ == label_.size()) label_ = {}, label_pos_ = 0;
      return true;
    }
    std::string_view replay = label_.substr(0, label_pos_);
    label_ = {};
    label_pos_ = 0;
    for (unsigned char b : replay) byte(b);
    return phase_ == Phase::done ? (to_content(c), true) : false;
  }

  void release_all_but(std::size_t keep) {
    if (held_.size() <= keep) return;
    std::size_t n = held_.size() - keep;
    bool ends = false;
    if (phase_ == Phase::reasoning) {
      emit_reasoning(std::string_view(held_).substr(0, n));
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        unsigned char b = static_cast<unsigned char>(held_[i]);
        to_content(b);
        // <think> opens reasoning (and <answer> its wrapper) only before any other content.
        if (phase_ != Phase::answer && !json_ws(b)) ends = true;
      }
    }
    held_.erase(0, n);
    if (ends) {  // stop scanning: release what is held as content
      phase_ = Phase::done;
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

  std::uint32_t call_index_ = UINT32_MAX;  // see in_reasoning_markers (declared before in_, which sets it)
  const ReasoningFormat* rf_;
  Emitter em_;
  std::unique_ptr<ToolScanner> tools_, reasoning_tools_;
  std::shared_ptr<const StopStrings> pre_, in_, post_, answer_;
  std::uint32_t n_open_ = 0, n_close_ = 0;
  std::uint32_t state_ = 0;
  std::string held_;
  std::string_view prefix_, label_;
  std::size_t label_pos_ = 0;
  Phase phase_ = Phase::done;
  bool in_reasoning_ = false, reasoning_started_ = false;
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
  std::vector<std::string> v;
  for (const detail::ReasoningFormat* f : detail::reasoning_formats()) v.emplace_back(f->name);
  return v;
}

// The markers of each format, as data (the family modules match the same strings).
std::vector<std::string> parser_markers(const OutputParserOptions& o) {
  std::vector<std::string> out;
  auto add = [&](const auto& markers) {
    for (std::string_view m : markers)
      if (!m.empty() && std::find(out.begin(), out.end(), m) == out.end()) out.emplace_back(m);
  };
  if (const detail::Family* f = detail::find_family(o.format)) add(f->markers);
  if (const detail::ReasoningFormat* r = detail::find_reasoning_format(o.reasoning)) add(detail::reasoning_markers(*r));
  return out;
}

std::vector<TokenId> special_tokens_to_keep(const Tokenizer& tokenizer, const OutputParserOptions& options) {
  std::vector<TokenId> ids;
  for (const auto& m : parser_markers(options))
    if (auto id = tokenizer.token_to_id(m); id && tokenizer.is_special(*id)) ids.push_back(*id);
  return ids;
}

DetectedFormat detect_format(std::string_view t) {
  DetectedFormat d;
  for (const detail::Family* f : detail::families())
    if (f->detect && f->detect(t)) {
      d.format = f->name;
      break;
    }
  for (const detail::ReasoningFormat* r : detail::reasoning_detection_order())
    if (r->detect && r->detect(t)) {
      if (r->read_by_format == d.format) break;  // the tool call format reads it: reasoning "none"
      d.reasoning = r->name;
      d.starts_in_reasoning = r->starts_in_reasoning || (r->prompt_opens && r->prompt_opens(t));
      break;
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
