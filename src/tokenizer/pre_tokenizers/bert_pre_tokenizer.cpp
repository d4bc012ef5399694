// BertPreTokenizer: splits on whitespace (dropped), then isolates each punctuation character.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/char_classes.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class BertPreTokenizer final : public PreTokenizer {
 public:
  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    std::size_t word_begin = 0;
    auto emit = [&](std::size_t begin, std::size_t end) {
      if (end > begin) sink(text.substr(begin, end - begin), at_start && begin == 0);
    };
    for (std::size_t i = 0; i < text.size();) {
      std::size_t at = i;
      char32_t cp = next_code_point(text, i);
      if (is_whitespace(cp)) {
        emit(word_begin, at);
        word_begin = i;
      } else if (is_punctuation(cp)) {
        emit(word_begin, at);
        emit(at, i);
        word_begin = i;
      }
    }
    emit(word_begin, text.size());
  }

  std::string describe() const override { return "BertPreTokenizer"; }
};

}  // namespace

std::unique_ptr<PreTokenizer> bert_pre_tokenizer_from_json(const Json&) { return std::make_unique<BertPreTokenizer>(); }

}  // namespace textedge::detail::pre_tokenizers
