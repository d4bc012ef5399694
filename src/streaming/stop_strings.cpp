#include "streaming/stop_strings.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace textedge::detail {

StopStrings::StopStrings(const std::vector<std::string>& stops) : patterns_(stops) {
  // Build the trie with std::map children first (once per request, a few hundred bytes), then
  // flatten it into sorted edge lists.
  std::vector<std::map<unsigned char, std::uint32_t>> children(1);
  states_.resize(1);
  for (std::uint32_t p = 0; p < patterns_.size(); ++p) {
    std::uint32_t s = 0;
    for (unsigned char b : patterns_[p]) {
      auto it = children[s].find(b);
      if (it == children[s].end()) {
        std::uint32_t t = static_cast<std::uint32_t>(states_.size());
        states_.push_back({states_[s].depth + 1});
        children.emplace_back();
        it = children[s].emplace(b, t).first;
      }
      s = it->second;
    }
    // Two equal stop strings: the first one names the match.
    if (states_[s].match < 0) states_[s].match = static_cast<std::int32_t>(p);
  }
  for (std::uint32_t s = 0; s < states_.size(); ++s) {
    states_[s].first_edge = static_cast<std::uint32_t>(edges_.size());
    states_[s].edge_count = static_cast<std::uint32_t>(children[s].size());
    for (auto [b, t] : children[s]) edges_.push_back({b, t});
  }
  for (auto [b, t] : children[0]) root_[b] = t;
  // Failure links in breadth-first order; a state's match falls back to its failure state's
  // (that string is a shorter suffix).
  std::vector<std::uint32_t> queue;
  for (auto [b, t] : children[0]) queue.push_back(t);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    std::uint32_t s = queue[q];
    if (states_[s].match < 0) states_[s].match = states_[states_[s].fail].match;
    for (auto [b, t] : children[s]) {
      std::uint32_t f = states_[s].fail;
      while (f != 0 && !child(f, b)) f = states_[f].fail;
      std::uint32_t c = child(f, b);
      states_[t].fail = c != t ? c : 0;
      queue.push_back(t);
    }
  }
}

std::uint32_t StopStrings::child(std::uint32_t state, unsigned char byte) const {
  if (state == 0) return root_[byte];
  const Edge* begin = edges_.data() + states_[state].first_edge;
  const Edge* end = begin + states_[state].edge_count;
  for (const Edge* e = begin; e != end; ++e)
    if (e->byte == byte) return e->to;
  return 0;
}

std::uint32_t StopStrings::next(std::uint32_t state, unsigned char byte) const {
  while (state != 0) {
    if (std::uint32_t c = child(state, byte)) return c;
    state = states_[state].fail;
  }
  return root_[byte];
}

std::optional<StopStrings::Match> StopStrings::feed(std::uint32_t& state, std::string_view text) const {
  for (std::size_t i = 0; i < text.size(); ++i) {
    state = next(state, static_cast<unsigned char>(text[i]));
    if (states_[state].match >= 0) return Match{i + 1, static_cast<std::uint32_t>(states_[state].match)};
  }
  return std::nullopt;
}

std::shared_ptr<const StopStrings> shared_stop_strings(const std::vector<std::string>& patterns) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<const StopStrings>, std::less<>> built;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = built.find(patterns);
  if (it != built.end()) return it->second;
  auto automaton = std::make_shared<const StopStrings>(patterns);
  if (built.size() < 4096) built.emplace(patterns, automaton);  // a bound, should sets ever vary
  return automaton;
}

}  // namespace textedge::detail
