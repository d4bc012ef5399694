// Output parsing of hostile model output, one target per tool-call family (TEXTEDGE_FUZZ_FORMAT,
// fuzz_parse_<family>) and one for the reasoning layer alone (fuzz_parse_reasoning). Checked:
// - split invariance: 1-byte and random splits give what one feed gives, with partial calls on
//   and off (the deltas merged as a client merges them);
// - a whole message (parse_output) never carries a call whose arguments are not a JSON object
//   (when the text is UTF-8: invalid bytes pass through as they are);
// - no byte lost or repeated where calls cannot hide bytes: without calls, content and
//   reasoning are the text less the reasoning format's markers it matched (the openings before
//   any reasoning text (+ Gemma 4's label), one closing, one answer opening and one answer
//   closing), plus its content prefix (and with no reasoning format, exactly the text).
// Input: [0] options (bits 0-1 reasoning, bit 2 starts_in_reasoning; fuzz_parse_reasoning: bits
// 0-1 and 3-7 pick among every reasoning format), [1] bit 7 partial calls off, bits 0-6 the split
// seed, then the text (at most 2 KB: the parsers are state machines whose defects show in short
// texts, and each input is parsed byte by byte; longer ones would only slow the search).
// Performance: one partial-calls mode per input (the bit) instead of both, and the 2 KB cap:
// fuzz_parse_hermes from its seed corpus, 25 s each, 2252 -> 3464 executions a second
// (2026-12-02). Streaming 1-byte splits is most of what remains, and is the point of the target.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "parsers/reasoning_formats.hpp"
#include "support/parse_stream.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;

namespace {

#ifndef TEXTEDGE_FUZZ_FORMAT
#error "TEXTEDGE_FUZZ_FORMAT names the tool call format (\"none\" for the reasoning layer)"
#endif
constexpr std::string_view kFormat = TEXTEDGE_FUZZ_FORMAT;

// Formats that read text blocks of their own and drop their markers even without calls (harmony's
// channels, gemma4's thinking channel, cohere's blocks and citation tags, apertus's deliberation,
// gigachat3's message separator, kimi_k3's response channel and message end): for them only the
// length is checked without calls.
constexpr bool kOwnMarkers = kFormat == "harmony" || kFormat == "gemma4" || kFormat == "cohere" || kFormat == "apertus" ||
                             kFormat == "gigachat3" || kFormat == "kimi_k3";

// The reasoning formats tried with this tool format.
std::string reasoning_for(unsigned bits) {
  if (kFormat == "harmony") return "harmony";
  if (kFormat == "none") {  // every reasoning format but harmony (which goes with its tool format)
    static const std::vector<std::string> all = [] {
      std::vector<std::string> v = {"think", "qwen3", "deepseek_r1", "mistral"};  // the first four keep their seeds
      for (auto& r : list_reasoning_formats())
        if (r != "harmony" && std::find(v.begin(), v.end(), r) == v.end()) v.push_back(r);
      return v;
    }();
    return all[((bits & 3) | ((bits >> 3) << 2)) % all.size()];
  }
  if (kFormat == "mistral") return bits & 1 ? "mistral" : "none";
  return bits & 1 ? (kFormat == "kimi_k2" ? "think" : "qwen3") : "none";
}

[[noreturn]] void fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "fuzz_parse (%s): %s\ntext: %.*s\n", TEXTEDGE_FUZZ_FORMAT, what, static_cast<int>(text.size()), text.data());
  std::abort();
}

bool utf8(std::string_view s) {
  return simdjson::validate_utf8(s.data(), s.size());
}

// `s` as simdjson can check it against JSON's grammar, which is wider than what simdjson takes:
// - every number read as 0, or nullopt when a number is followed by what no valid JSON puts there
//   (so "1.5.3" is not read as "0.3"): the grammar sets numbers no range (Python reads 44E44444
//   as inf, JavaScript as Infinity), simdjson refuses what a double or a 64-bit integer cannot hold;
// - every surrogate escape (\uD800-\uDFFF) read as \u0041: the grammar takes any four hex digits
//   (Python's json.loads and JavaScript's JSON.parse read a lone surrogate), simdjson refuses an
//   unpaired one (found by fuzz_parse_mistral: a call's key ending in "\ud8CA").
std::optional<std::string> as_checkable_json(std::string_view s) {
  auto digit = [&](std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
  auto surrogate_escape = [&](std::size_t i) {
    if (i + 6 > s.size() || s[i + 1] != 'u') return false;
    unsigned v = 0;
    for (std::size_t k = i + 2; k < i + 6; ++k) {
      char h = s[k];
      int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) return false;
      v = v << 4 | static_cast<unsigned>(d);
    }
    return v >= 0xD800 && v <= 0xDFFF;
  };
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (in_string) {
      if (c == '\\' && surrogate_escape(i)) {
        out += "\\u0041";
        i += 6;
        continue;
      }
      std::size_t n = c == '\\' && i + 1 < s.size() ? 2 : 1;
      out.append(s.substr(i, n));
      in_string = c != '"';
      i += n;
      continue;
    }
    if (c == '"') in_string = true;
    if (c != '-' && !digit(i)) {
      out += c;
      ++i;
      continue;
    }
    std::size_t j = i + (c == '-');
    if (!digit(j)) return std::nullopt;
    if (s[j] == '0') ++j;
    else while (digit(j)) ++j;
    if (j < s.size() && s[j] == '.') {
      if (!digit(++j)) return std::nullopt;
      while (digit(j)) ++j;
    }
    if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
      ++j;
      if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
      if (!digit(j)) return std::nullopt;
      while (digit(j)) ++j;
    }
    if (j < s.size() && std::string_view("0123456789.eE+-").find(s[j]) != std::string_view::npos) return std::nullopt;
    out += '0';
    i = j;
  }
  return out;
}

bool json_object(const std::string& s) {
  static simdjson::dom::parser parser;
  simdjson::dom::element e;
  auto zeroed = as_checkable_json(s);
  return zeroed && !parser.parse(*zeroed).get(e) && e.is_object();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > 2048) return 0;
  OutputParserOptions o;
  o.format = std::string(kFormat);
  o.reasoning = reasoning_for(data[0]);
  o.starts_in_reasoning = (data[0] >> 2) & 1;
  o.tools_json = R"([{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {
      "a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "object"}}}}}])";
  o.id_seed = 1;
  std::mt19937 rng(data[1] & 0x7f);
  std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  {
    o.partial_calls = !(data[1] & 0x80);
    ParsedMessage one = streamed(text, o, {});
    std::vector<std::size_t> bytes, random;
    for (std::size_t i = 1; i < text.size(); ++i) {
      bytes.push_back(i);
      if (rng() % 4 == 0) random.push_back(i);
    }
    if (!same_message(streamed(text, o, bytes), one)) fail("1-byte splits differ from one feed", text);
    if (!same_message(streamed(text, o, random), one)) fail("random splits differ from one feed", text);
  }

  ParsedMessage whole = parse_output(text, o);
  if (utf8(text))
    for (const ParsedToolCall& call : whole.tool_calls)
      if (!json_object(call.arguments)) fail("a whole message carries a call whose arguments are not a JSON object", text);
  if (whole.tool_calls.empty()) {
    std::size_t kept = whole.content.size() + whole.reasoning_content.size();
    if (kOwnMarkers) {
      if (kept > text.size()) fail("without calls, content and reasoning are longer than the text", text);
    } else if (o.reasoning == "none") {
      if (whole.content != text) fail("without calls or reasoning, the content is not the text", text);
    } else if (o.reasoning != "harmony") {
      // The lengths the format's markers may remove: any sum of at most one of each kind.
      std::vector<std::size_t> removable = {0};
      auto add_choice = [&](const std::vector<std::size_t>& lengths) {
        std::vector<std::size_t> next = removable;
        for (std::size_t r : removable)
          for (std::size_t len : lengths) next.push_back(r + len);
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        removable = std::move(next);
      };
      const detail::ReasoningFormat* rf = detail::find_reasoning_format(o.reasoning);
      if (!rf) fail("the fuzzer does not know this reasoning format", text);
      // Openers before any reasoning text are dropped, however many (only whitespace between):
      // one more than the run of them at the start of the text, and at least two.
      auto opens = [&](const std::vector<std::size_t>& lengths) {
        std::size_t run = 0;
        for (std::size_t at = 0;; ++run) {
          at = std::min(text.size(), text.find_first_not_of(" \t\r\n", at));
          auto opener = std::find_if(rf->open.begin(), rf->open.end(),
                                     [&](std::string_view m) { return !m.empty() && text.substr(at).starts_with(m); });
          if (opener == rf->open.end()) break;
          at += opener->size();
        }
        for (std::size_t i = 0; i < std::max<std::size_t>(2, run + 1); ++i) add_choice(lengths);
      };
      // From the format's own entry in the table (a format added there is checked here too):
      // its openers (repeated, and with Gemma 4's label, or the label alone when it starts in
      // reasoning), its closer, its answer wrapper; its content prefix is added, not removed.
      auto lengths = [](const std::array<std::string_view, 2>& ms, std::string_view label = {}) {
        std::vector<std::size_t> v;
        for (std::string_view m : ms)
          if (!m.empty()) {
            v.push_back(m.size());
            if (!label.empty()) v.push_back(m.size() + label.size());
          }
        if (!label.empty()) v.push_back(label.size());
        return v;
      };
      if (!rf->passive) {  // a passive format (MiniMax's append-think) removes nothing
        opens(lengths(rf->open, rf->label));
        add_choice(lengths(rf->close));
        add_choice(lengths(rf->answer_open));
        add_choice(lengths(rf->answer_close));
      }
      std::size_t prefix = rf->content_prefix.size();
      if (kept > text.size() + prefix) fail("content and reasoning are longer than the text", text);
      std::size_t removed = text.size() + prefix - kept;
      if (std::find(removable.begin(), removable.end(), removed) == removable.end())
        fail("without calls, content and reasoning are not the text less its reasoning markers", text);
    }
  }
  return 0;
}
