// Regular expressions with the semantics of Oniguruma as Hugging Face tokenizers uses it
// (Split pre-tokenizer, Replace normalizer/decoder), compiled with PCRE2's JIT.
//
// The pattern (Oniguruma syntax, as the onig crate compiles it) is translated to PCRE2 first,
// so that the character sets agree code point for code point with the reference: \s, \w, \d,
// \h, \p{..}, POSIX brackets and the Unicode 15/16 additions that PCRE2's older tables lack
// (see regex.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.hpp"

namespace textedge::detail {

class Regex {
 public:
  // Throws std::invalid_argument with PCRE2's message and offset when `pattern` is invalid, or
  // when it uses an Oniguruma construct PCRE2 cannot express (e.g. class intersection "&&").
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Leftmost match in `subject` starting the search at byte `start`. Returns false when there
  // is none. Thread-safe: one Regex may be used from many threads at once. Lookbehind sees the
  // bytes before `start`.
  bool find(std::string_view subject, std::size_t start, std::size_t& match_begin, std::size_t& match_end) const;

  // Calls on_match(begin, end) for every match, exactly as the onig crate's find_iter (which
  // tokenizers uses) yields them: an empty match is dropped when it ends where the previous
  // match ended, and the search then resumes one character further.
  template <class OnMatch>
  void for_each_match(std::string_view subject, OnMatch&& on_match) const {
    const Compiled& program = program_for(subject);
    std::size_t search_from = 0, begin = 0, end = 0;
    bool have_previous = false;
    std::size_t previous_end = 0;
    while (search_from <= subject.size() && find_with(program, subject, search_from, begin, end)) {
      if (begin == end && have_previous && previous_end == end) {
        search_from += search_from < subject.size() ? utf8_length(static_cast<unsigned char>(subject[search_from])) : 1;
        continue;
      }
      search_from = end;
      have_previous = true;
      previous_end = end;
      on_match(begin, end);
    }
  }

  // Whether for_each_match would run the faster program (see program_for) over `subject`.
  bool uses_fast_program(std::string_view subject) const { return fast_ && &program_for(subject) == fast_.get(); }

  // The Oniguruma pattern as given.
  const std::string& pattern() const { return pattern_; }
  // What PCRE2 compiled (for diagnostics and tests).
  const std::string& translated_pattern() const { return translated_; }

  // Rewrites an Oniguruma-syntax pattern into an equivalent PCRE2 pattern.
  // Throws std::invalid_argument for constructs that have no PCRE2 equivalent.
  static std::string translate(std::string_view oniguruma_pattern);

 private:
  struct Compiled;
  // The program to run over all of `subject`: the one without the Unicode 15/16 additions when
  // no code point of `subject` is among them (it is much faster: PCRE2 runs a lone \p{L}
  // repeat far quicker than a class holding \p{L} and ranges), else the exact one.
  const Compiled& program_for(std::string_view subject) const;
  bool find_with(const Compiled& program, std::string_view subject, std::size_t start, std::size_t& match_begin,
                 std::size_t& match_end) const;

  std::string pattern_;
  std::string translated_;
  std::unique_ptr<Compiled> compiled_;
  std::unique_ptr<Compiled> fast_;  // null when the pattern uses no additions
  std::vector<std::pair<char32_t, char32_t>> addition_ranges_;  // sorted, merged
  char32_t first_addition_ = 0;
};

}  // namespace textedge::detail
