// Regular expressions with the semantics of Oniguruma as Hugging Face tokenizers uses it
// (Split pre-tokenizer, Replace normalizer/decoder), compiled with PCRE2's JIT.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace textedge::detail {

class Regex {
 public:
  // Throws std::invalid_argument with PCRE2's message and offset when `pattern` is invalid.
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Leftmost match in `subject` starting the search at byte `start`. Returns false when there
  // is none. Thread-safe: one Regex may be used from many threads at once.
  bool find(std::string_view subject, std::size_t start, std::size_t& match_begin, std::size_t& match_end) const;

  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace textedge::detail
