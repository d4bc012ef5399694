// WhitespaceSplit: splits on whitespace (Rust's char::is_whitespace), dropping it.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/char_classes.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class WhitespaceSplit final : public PreTokenizer {
 public:
  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    std::size_t word_begin = 0;
    for (std::size_t i = 0; i < text.size();) {
      std::size_t at = i;
      if (!is_whitespace(next_code_point(text, i))) continue;
      if (at > word_begin) sink(text.substr(word_begin, at - word_begin), at_start && word_begin == 0);
      word_begin = i;
    }
    if (word_begin < text.size()) sink(text.substr(word_begin), at_start && word_begin == 0);
  }

  std::string describe() const override { return "WhitespaceSplit"; }
};

}  // namespace

std::unique_ptr<PreTokenizer> whitespace_split_from_json(const Json&) { return std::make_unique<WhitespaceSplit>(); }

}  // namespace textedge::detail::pre_tokenizers
