// Split: cuts the text at the matches of a literal string or an Oniguruma regex, keeping or
// dropping the matches according to the behavior (and `invert`, which swaps matches and gaps).
#include <optional>

#include "base/regex.hpp"
#include "tokenizer/pre_tokenizers/known_patterns.hpp"
#include "tokenizer/pre_tokenizers/split_behavior.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class Split final : public PreTokenizer {
 public:
  Split(std::string literal, std::optional<Regex> regex, SplitBehavior behavior, bool invert)
      : literal_(std::move(literal)), regex_(std::move(regex)), behavior_(behavior), invert_(invert) {
    if (regex_) known_ = known_pattern_finder(regex_->pattern());
  }

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    if (text.empty()) return;
    if (behavior_ == SplitBehavior::kIsolated) {
      // The hot path (every byte-level model's regex): gaps and matches alike become pieces.
      // Split(Llama 3 regex) on 4 MB of mixed English/code/CJK text: ~470 MB/s through the
      // known-pattern matcher; through PCRE2 ~130 MB/s, ~60 MB/s when the text holds a
      // character Unicode 15/16 added (Regex's exact program). pre_tokenizers_test
      // SplitThroughput prints these.
      std::size_t previous = 0;
      for_each_match(text, [&](std::size_t begin, std::size_t end) {
        if (begin > previous) sink(text.substr(previous, begin - previous), at_start && previous == 0);
        if (end > begin) sink(text.substr(begin, end - begin), at_start && begin == 0);
        previous = end;
      });
      if (previous < text.size()) sink(text.substr(previous), at_start && previous == 0);
      return;
    }
    SegmentJoiner joiner(text, behavior_, at_start, sink);
    std::size_t previous = 0;
    for_each_match(text, [&](std::size_t begin, std::size_t end) {
      if (begin != previous) joiner.add(previous, begin, invert_);
      joiner.add(begin, end, !invert_);
      previous = end;
    });
    if (previous != text.size()) joiner.add(previous, text.size(), invert_);
    joiner.finish();
  }

  KnownPatternFinder pieces_finder() const override { return behavior_ == SplitBehavior::kIsolated ? known_ : nullptr; }
  std::string describe() const override { return "Split"; }

 private:
  template <class OnMatch>
  void for_each_match(std::string_view text, OnMatch&& on_match) const {
    if (known_) {
      // A hand-written matcher for a common pattern; it never matches the empty string.
      for_each_known_match(known_, text, on_match);
      return;
    }
    if (regex_) {
      regex_->for_each_match(text, on_match);
      return;
    }
    // A literal needs none of the empty-match rules: it is never empty here.
    std::size_t from = 0;
    while (from < text.size()) {
      std::size_t at = literal_.size() == 1 ? text.find(literal_[0], from) : text.find(literal_, from);
      if (at == std::string_view::npos) break;
      on_match(at, at + literal_.size());
      from = at + literal_.size();
    }
  }

  std::string literal_;
  std::optional<Regex> regex_;
  KnownPatternFinder known_ = nullptr;
  SplitBehavior behavior_;
  bool invert_;
};

}  // namespace

std::unique_ptr<PreTokenizer> split_from_json(const Json& json) {
  Json pattern = json.get("pattern");
  if (!pattern.is_object() || pattern.size() != 1)
    pattern.fail("expected an object with one member, \"String\" or \"Regex\"");
  auto [kind, value] = pattern.members().front();
  SplitBehavior behavior = split_behavior_from_json(json.get("behavior"));
  bool invert = json.get("invert").boolean();
  if (kind == "String") {
    std::string literal(value.str());
    // The reference compiles an escaped literal; an empty one matches (emptily) everywhere.
    if (literal.empty()) return std::make_unique<Split>("", Regex(""), behavior, invert);
    return std::make_unique<Split>(std::move(literal), std::nullopt, behavior, invert);
  }
  if (kind != "Regex") value.fail("unknown pattern kind \"" + std::string(kind) + "\", expected \"String\" or \"Regex\"");
  try {
    return std::make_unique<Split>("", Regex(value.str()), behavior, invert);
  } catch (const std::invalid_argument& e) {
    value.fail(std::string("invalid regular expression: ") + e.what());
  }
}

}  // namespace textedge::detail::pre_tokenizers
