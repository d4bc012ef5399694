// A dedicated reader for the two big members of a BPE tokenizer.json, $.model.vocab and
// $.model.merges (most of the file's content), straight from the text into flat lists.
//
// Performance note: a simdjson DOM of the whole file (10-33 MB) and its page faults were
// ~40% of load time; the lists below cost one pass over those members and no tape. The rest
// of the document (added tokens, normalizer, ...) still goes through the DOM, with the two
// members blanked, so every other error keeps its JSON path. Anything this reader does not
// take (malformed JSON, a lone surrogate, a non-integer id, a merge that is not "a b" or
// ["a", "b"]) makes it decline, and the caller parses the whole file with the DOM, whose
// errors name the file and path.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/hash_tables.hpp"

namespace textedge::detail {

// The load's temporaries: on BlockAllocator's blocks, kept for the next load (large_blocks.cpp).
struct BpeLists {
  struct Token {
    std::string_view text;
    std::uint32_t id;
  };
  struct Merge {
    std::string_view left, right;
  };
  // In rank order, as the parts the reader's two threads read (the helper's head, this thread's
  // tail, and the rest of the list when the helper took it over): joining them was a copy of
  // 5/8 of the list after both threads finished (Llama 3.1: 175k merges, 5.6 MB).
  struct MergeList {
    BlockVector<Merge> head, tail, rest;
    std::size_t size() const { return head.size() + tail.size() + rest.size(); }
    const Merge& operator[](std::size_t rank) const {
      if (rank < head.size()) return head[rank];
      rank -= head.size();
      return rank < tail.size() ? tail[rank] : rest[rank - tail.size()];
    }
    void reserve(std::size_t n) { head.reserve(n); }
    void push_back(const Merge& m) { head.push_back(m); }
  };
  BlockVector<Token> vocab;  // in document order (a later duplicate wins)
  MergeList merges;          // rank = position
  // Strings with escapes, unescaped (views point here; the others point into the text).
  std::deque<std::string> vocab_unescaped, merges_unescaped, merges_tail_unescaped, merges_rest_unescaped;
};

// Reads $.model.vocab and $.model.merges of `text` into `lists` and returns the document with
// those two values replaced by {} and []. nullopt when it declines (see above); `text` must
// outlive `lists`.
std::optional<std::string> read_bpe_lists(std::string_view text, BpeLists& lists);

// For tests of the handover of the merges' rest to the helper, which depends on the threads'
// timing: while on, the reading thread waits at its part's first merge (up to a second) until the
// helper has asked for the rest.
void wait_for_merges_handover_in_tests(bool on);

}  // namespace textedge::detail
