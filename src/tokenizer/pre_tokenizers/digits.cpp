// Digits: isolates numeric characters (Rust's char::is_numeric), one by one with
// individual_digits, else as runs.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/char_classes.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class Digits final : public PreTokenizer {
 public:
  explicit Digits(bool individual_digits) : individual_digits_(individual_digits) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    std::size_t run_begin = 0;
    bool run_numeric = false;
    auto emit = [&](std::size_t begin, std::size_t end) {
      if (end > begin) sink(text.substr(begin, end - begin), at_start && begin == 0);
    };
    for (std::size_t i = 0; i < text.size();) {
      std::size_t at = i;
      bool numeric = is_numeric(next_code_point(text, i));
      if (numeric != run_numeric || (numeric && individual_digits_)) {
        emit(run_begin, at);
        run_begin = at;
        run_numeric = numeric;
      }
    }
    emit(run_begin, text.size());
  }

  std::string describe() const override { return "Digits"; }

 private:
  bool individual_digits_;
};

}  // namespace

std::unique_ptr<PreTokenizer> digits_from_json(const Json& json) {
  return std::make_unique<Digits>(json.get("individual_digits").boolean());
}

}  // namespace textedge::detail::pre_tokenizers
