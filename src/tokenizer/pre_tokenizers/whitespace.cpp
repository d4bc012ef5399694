// Whitespace: the reference's \w+|[^\w\s]+ (Rust regex crate, Unicode): runs of word characters
// and runs of other non-space characters become pieces; whitespace is dropped.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/char_classes.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class Whitespace final : public PreTokenizer {
 public:
  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    enum Kind { kSpace, kWord, kOther };
    std::size_t run_begin = 0;
    Kind run = kSpace;
    auto emit = [&](std::size_t end) {
      if (run != kSpace && end > run_begin) sink(text.substr(run_begin, end - run_begin), at_start && run_begin == 0);
    };
    for (std::size_t i = 0; i < text.size();) {
      std::size_t at = i;
      char32_t cp = next_code_point(text, i);
      Kind kind = is_regex_word(cp) ? kWord : is_whitespace(cp) ? kSpace : kOther;
      if (kind != run) {
        emit(at);
        run_begin = at;
        run = kind;
      }
    }
    emit(text.size());
  }

  std::string describe() const override { return "Whitespace"; }
};

}  // namespace

std::unique_ptr<PreTokenizer> whitespace_from_json(const Json&) { return std::make_unique<Whitespace>(); }

}  // namespace textedge::detail::pre_tokenizers
