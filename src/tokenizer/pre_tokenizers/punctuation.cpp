// Punctuation: splits at each punctuation character (the reference's tables), which the behavior
// keeps, drops or merges.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/char_classes.hpp"
#include "tokenizer/pre_tokenizers/split_behavior.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class Punctuation final : public PreTokenizer {
 public:
  explicit Punctuation(SplitBehavior behavior) : behavior_(behavior) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    SegmentJoiner joiner(text, behavior_, at_start, sink);
    std::size_t gap_begin = 0;
    for (std::size_t i = 0; i < text.size();) {
      std::size_t at = i;
      if (!is_punctuation(next_code_point(text, i))) continue;
      if (at > gap_begin) joiner.add(gap_begin, at, false);
      joiner.add(at, i, true);
      gap_begin = i;
    }
    if (gap_begin < text.size()) joiner.add(gap_begin, text.size(), false);
    joiner.finish();
  }

  std::string describe() const override { return "Punctuation"; }

 private:
  SplitBehavior behavior_;
};

}  // namespace

std::unique_ptr<PreTokenizer> punctuation_from_json(const Json& json) {
  auto behavior = json.find("behavior");
  return std::make_unique<Punctuation>(behavior ? split_behavior_from_json(*behavior) : SplitBehavior::kIsolated);
}

}  // namespace textedge::detail::pre_tokenizers
