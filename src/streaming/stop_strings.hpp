// Stop strings on a stream of text: an Aho-Corasick automaton over the stop strings' bytes.
//
// Performance note: the cost per new byte is one transition (amortised over failure links),
// whatever the number of stop strings; the root, where almost every byte of ordinary text
// lands, has a dense 256-entry table and the other states short sorted edge lists (a dense
// table for every state costs 1 KiB per state to build, per request). Naive matching (find
// each stop string in the new text) was rejected: its cost grows with the number of stops.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace textedge::detail {

class StopStrings {
 public:
  // Empty strings are not allowed (the caller reports them).
  explicit StopStrings(const std::vector<std::string>& stops);
  bool empty() const { return patterns_.empty(); }

  struct Match {
    std::size_t end;      // offset just past the match in the text given to feed()
    std::uint32_t index;  // which stop string
  };
  // Feeds `text` from automaton state `state` (0 at the start of a stream); returns the first
  // match that ends in it (the earliest end; at equal ends the longest stop string) and stops
  // there. Without a match, the whole text is consumed.
  std::optional<Match> feed(std::uint32_t& state, std::string_view text) const;
  // How many bytes at the end of the text fed so far could still begin a stop string: the
  // automaton state's depth, which is exactly what a stream must hold back.
  std::size_t held(std::uint32_t state) const { return states_[state].depth; }
  const std::string& pattern(std::uint32_t index) const { return patterns_[index]; }

 private:
  struct Edge {
    unsigned char byte;
    std::uint32_t to;
  };
  struct State {
    std::uint32_t depth = 0;
    std::uint32_t fail = 0;
    std::uint32_t first_edge = 0, edge_count = 0;  // into edges_, sorted by byte
    std::int32_t match = -1;                       // the longest stop string that is a suffix of this state's text
  };
  std::uint32_t child(std::uint32_t state, unsigned char byte) const;  // 0 when none (or root)
  std::uint32_t next(std::uint32_t state, unsigned char byte) const;

  std::vector<std::string> patterns_;
  std::vector<State> states_;
  std::vector<Edge> edges_;
  std::uint32_t root_[256] = {};
};

// The automaton of a fixed set of patterns, built once per process and shared (it is immutable;
// each user keeps its own state): the output parsers' marker sets, the same for every request of
// a format. Building them was ~20% of a parser's cost on short outputs (perf, fuzz_parse_hermes,
// 2026-12-03). Not for request-supplied stop strings, which would grow the table without bound.
std::shared_ptr<const StopStrings> shared_stop_strings(const std::vector<std::string>& patterns);

}  // namespace textedge::detail
