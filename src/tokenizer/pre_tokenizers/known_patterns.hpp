// Hand-written matchers for the split regexes that real tokenizers use (GPT-2's, cl100k-style
// as in Qwen and Llama 3, o200k-style as in gpt-oss, DeepSeek V3's three). Each gives exactly the matches of the
// regex under Oniguruma's leftmost-first backtracking semantics, at several times PCRE2 JIT's
// speed; known_patterns_test checks them against the regex on adversarial text.
//
// Performance note: on mixed English/code text PCRE2 JIT ran the Qwen3 pattern at ~30 MB/s,
// which alone capped encode well below 10x the reference. These matchers decode each code point
// once, classify it with one table lookup and never backtrack more than the regex's own
// semantics require (see the comments on each alternative).
#pragma once

#include <cstddef>
#include <string_view>

namespace textedge::detail {

struct PatternMatch {
  std::size_t begin, end;
};

// Writes up to `capacity` matches into `out`, each the leftmost at or after the previous one's end
// (the first at or after `from`), and returns how many; fewer than `capacity` when the text has no
// more. The same matches as Regex::find repeated, for patterns that never match the empty string.
using KnownPatternFinder = std::size_t (*)(std::string_view text, std::size_t from, PatternMatch* out, std::size_t capacity);

// Calls on_batch(matches, n) for the matches of `find` in `text`, in order, up to 64 at a time.
// Performance note: matches found a batch at a time, not a call each (llama3_1, bench2.txt: see
// known_patterns.cpp).
template <class OnBatch>
void for_each_known_batch(KnownPatternFinder find, std::string_view text, OnBatch&& on_batch) {
  constexpr std::size_t kBatch = 64;
  PatternMatch batch[kBatch];
  for (std::size_t from = 0; from < text.size();) {
    std::size_t n = find(text, from, batch, kBatch);
    if (n > 0) on_batch(static_cast<const PatternMatch*>(batch), n);
    if (n < kBatch) return;
    from = batch[kBatch - 1].end;
  }
}

// Calls on_match(begin, end) for each match of `find` in `text`.
template <class OnMatch>
void for_each_known_match(KnownPatternFinder find, std::string_view text, OnMatch&& on_match) {
  for_each_known_batch(find, text, [&](const PatternMatch* matches, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) on_match(matches[k].begin, matches[k].end);
  });
}

// The matcher for `pattern` (an Oniguruma pattern, byte for byte as in tokenizer.json), or
// nullptr when textedge has none and the regex engine must run it.
KnownPatternFinder known_pattern_finder(std::string_view pattern);

}  // namespace textedge::detail
