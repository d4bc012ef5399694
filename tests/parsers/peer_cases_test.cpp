// The peers' own parser tests as data (tests/data/parsers/peer_cases*.json: vLLM, SGLang and
// llama.cpp cases, each with its source): every case must give what the peer states, or what
// tests/data/parsers/peer_divergences*.json says textedge gives instead and why. Each case is
// also parsed in 1-byte and random splits, which must give what one feed gives.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/parse_stream.hpp"
#include "textedge/output_parser.hpp"

using namespace textedge;
namespace dom = simdjson::dom;

namespace {

const std::string kData = std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/parsers/";

std::string trim(std::string_view s) {
  std::size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string_view::npos ? std::string() : std::string(s.substr(a, b - a + 1));
}

// JSON values equal as data: objects regardless of key order, numbers by value.
bool same_json(dom::element a, dom::element b) {
  if (a.is_number() && b.is_number()) return std::fabs(double(a.get_double().value()) - double(b.get_double().value())) < 1e-9;
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case dom::element_type::ARRAY: {
      dom::array x = a, y = b;
      if (x.size() != y.size()) return false;
      for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
        if (!same_json(*i, *j)) return false;
      return true;
    }
    case dom::element_type::OBJECT: {
      dom::object x = a, y = b;
      if (x.size() != y.size()) return false;
      for (auto [k, v] : x) {
        dom::element w;
        if (y.at_key(k).get(w) || !same_json(v, w)) return false;
      }
      return true;
    }
    case dom::element_type::STRING: return a.get_string().value() == b.get_string().value();
    case dom::element_type::BOOL: return a.get_bool().value() == b.get_bool().value();
    default: return true;  // null
  }
}

// What `expect` states that `m` does not, or "" when `m` meets it (the corpus's keys: content,
// reasoning (modulo surrounding whitespace), *_contains, content_excludes, tool_calls with
// name, arguments, arguments_subset, arguments_raw, arguments_keys, arguments_nonempty, and
// min_tool_calls).
std::string unmet(dom::object expect, const ParsedMessage& m) {
  std::string_view s;
  dom::element e;
  if (!expect.at_key("content").get(e) && trim(e.is_null() ? "" : e.get_string().value()) != trim(m.content))
    return "content " + simdjson::to_string(e);
  if (!expect.at_key("reasoning").get(e) && trim(e.is_null() ? "" : e.get_string().value()) != trim(m.reasoning_content))
    return "reasoning " + simdjson::to_string(e);
  for (auto [key, text] : {std::pair<const char*, const std::string*>{"content_contains", &m.content},
                           {"reasoning_contains", &m.reasoning_content}}) {
    dom::array list;
    if (!expect.at_key(key).get(list))
      for (auto x : list)
        if (text->find(std::string_view(x.get_string().value())) == std::string::npos) return std::string(key) + " " + simdjson::to_string(x);
  }
  dom::array excludes;
  if (!expect.at_key("content_excludes").get(excludes))
    for (auto x : excludes)
      if (m.content.find(std::string_view(x.get_string().value())) != std::string::npos) return "content_excludes " + simdjson::to_string(x);
  std::uint64_t min_calls;
  if (!expect.at_key("min_tool_calls").get(min_calls) && m.tool_calls.size() < min_calls) return "min_tool_calls";
  dom::array calls;
  if (expect.at_key("tool_calls").get(calls)) return "";
  if (calls.size() != m.tool_calls.size())
    return "tool_calls: " + std::to_string(calls.size()) + " expected, " + std::to_string(m.tool_calls.size()) + " parsed";
  static thread_local dom::parser args_parser;
  std::size_t i = 0;
  for (dom::object call : calls) {
    const ParsedToolCall& got = m.tool_calls[i++];
    std::string where = "call " + std::to_string(i - 1) + " ";
    if (!call.at_key("name").get(s) && s != got.name) return where + "name " + std::string(s);
    if (!call.at_key("arguments_raw").get(s) && s != got.arguments) return where + "arguments_raw";
    dom::element args;
    bool parsed = !args_parser.parse(got.arguments).get(args);
    if (!call.at_key("arguments").get(e) && !(parsed && same_json(e, args))) return where + "arguments " + simdjson::to_string(e);
    dom::object subset;
    if (!call.at_key("arguments_subset").get(subset))
      for (auto [k, v] : subset) {
        dom::element w;
        if (!parsed || args.at_key(k).get(w) || !same_json(v, w)) return where + "arguments_subset ." + std::string(k);
      }
    dom::array keys;
    if (!call.at_key("arguments_keys").get(keys))
      for (auto k : keys) {
        dom::element w;
        if (!parsed || args.at_key(k.get_string().value()).get(w)) return where + "arguments_keys " + simdjson::to_string(k);
      }
    bool nonempty;
    if (!call.at_key("arguments_nonempty").get(nonempty) && nonempty && (!parsed || args.get_object().value().size() == 0))
      return where + "arguments_nonempty";
  }
  return "";
}

struct Tally {
  int cases = 0, passing = 0, divergent = 0;
};

// The corpus files in tests/data/ named `prefix`*.json, sorted (each file's parser kept alive).
std::vector<dom::object> load_all(const std::string& prefix, std::vector<std::unique_ptr<dom::parser>>& parsers) {
  std::vector<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(kData)) {
    std::string name = e.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".json")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::vector<dom::object> out;
  for (auto& name : names) {
    parsers.push_back(std::make_unique<dom::parser>());
    out.push_back(parsers.back()->load(kData + name).get_object().value());
  }
  return out;
}

}  // namespace

// Every peer_cases*.json (peer_cases.json: the first ten families; one more file per group of
// families added later), with divergences from every peer_divergences*.json.
TEST(PeerCases, EveryCaseMeetsThePeerOrItsDocumentedDivergence) {
  std::vector<std::unique_ptr<dom::parser>> parsers;
  std::vector<dom::object> corpora = load_all("peer_cases", parsers), divergence_files = load_all("peer_divergences", parsers);
  std::size_t divergences_total = 0;
  for (auto& d : divergence_files) divergences_total += d.size();
  auto find_divergence = [&](const std::string& id, dom::object& out) {
    for (auto& d : divergence_files)
      if (!d.at_key(id).get(out)) return true;
    return false;
  };
  std::map<std::string, Tally> families;
  std::size_t divergences_used = 0;
  std::mt19937 rng(2026);
  std::vector<dom::object> cases;
  for (auto& corpus : corpora) {
    dom::array list = corpus["cases"].get_array().value();  // a local: value() of a temporary dangles in a range-for
    for (dom::object c : list) cases.push_back(c);
  }
  ASSERT_GE(cases.size(), 246u);
  for (dom::object c : cases) {
    std::string id(c["id"].get_string().value());
    std::string family(c["family"].get_string().value());
    std::string_view text = c["text"].get_string().value();
    OutputParserOptions o;
    o.format = std::string(c["format"].get_string().value());
    std::string_view reasoning;
    o.reasoning = c["reasoning"].get(reasoning) ? "none" : std::string(reasoning);
    o.starts_in_reasoning = c["starts_in_reasoning"].get_bool().value();
    dom::element tools;
    if (!c.at_key("tools").get(tools)) o.tools_json = simdjson::to_string(tools);
    o.id_seed = 1;
    // A peer's streaming test states what a stream gives; the others a whole message.
    std::string lower = id;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char x) { return std::tolower(x); });
    bool streaming = lower.find("stream") != std::string::npos && lower.find("non_stream") == std::string::npos &&
                     lower.find("non-stream") == std::string::npos;
    ParsedMessage m = streaming ? streamed(text, o, {}) : parse_output(text, o);

    // Split invariance: 1-byte and random splits give what one feed gives, in both call modes.
    for (bool partial : {true, false}) {
      OutputParserOptions so = o;
      so.partial_calls = partial;
      ParsedMessage one = streamed(text, so, {});
      std::vector<std::size_t> bytes, random;
      for (std::size_t i = 1; i < text.size(); ++i) {
        bytes.push_back(i);
        if (rng() % 5 == 0) random.push_back(i);
      }
      EXPECT_TRUE(same_message(streamed(text, so, bytes), one)) << id << " (1-byte splits, partial " << partial << ")";
      EXPECT_TRUE(same_message(streamed(text, so, random), one)) << id << " (random splits, partial " << partial << ")";
    }

    Tally& t = families[family];
    ++t.cases;
    dom::object divergence;
    if (find_divergence(id, divergence)) {
      ++divergences_used;
      ++t.divergent;
      std::string_view why;
      EXPECT_FALSE(divergence["reason"].get(why)) << id << ": a divergence needs a reason";
      EXPECT_FALSE(unmet(c["expect"].get_object().value(), m).empty()) << id << ": documented as a divergence, but textedge now meets the peer";
      std::string miss = unmet(divergence["textedge"].get_object().value(), m);
      EXPECT_EQ(miss, "") << id << ": differs from its documented textedge result\n  text: " << text << "\n  got: " << to_json(m);
      continue;
    }
    std::string miss = unmet(c["expect"].get_object().value(), m);
    if (miss.empty()) ++t.passing;
    EXPECT_EQ(miss, "") << id << " (" << o.format << ", reasoning " << o.reasoning << ")\n  text: " << text
                        << "\n  got: " << to_json(m);
  }
  EXPECT_EQ(divergences_used, divergences_total) << "a divergence names a case that is not in the corpus";
  std::printf("%-16s %6s %8s %10s\n", "family", "cases", "passing", "divergent");
  Tally all;
  for (auto& [family, t] : families) {
    std::printf("%-16s %6d %8d %10d\n", family.c_str(), t.cases, t.passing, t.divergent);
    all.cases += t.cases, all.passing += t.passing, all.divergent += t.divergent;
  }
  std::printf("%-16s %6d %8d %10d\n", "all", all.cases, all.passing, all.divergent);
}
