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

// Finds the leftmost match at or after `from`; false when there is none. Same contract as
// Regex::find for patterns that never match the empty string.
using KnownPatternFinder = bool (*)(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end);

// The matcher for `pattern` (an Oniguruma pattern, byte for byte as in tokenizer.json), or
// nullptr when textedge has none and the regex engine must run it.
KnownPatternFinder known_pattern_finder(std::string_view pattern);

}  // namespace textedge::detail
