// ByteLevel: GPT-2's pre-tokenizer. Optionally prepends a space and splits with GPT-2's regex.
// It does not map bytes to the GPT-2 alphabet: the BPE model encodes raw bytes (is_byte_level),
// which is why a Sequence only accepts it as its last element. trim_offsets only affects
// offsets, which textedge does not report.
#include <optional>

#include "base/regex.hpp"
#include "tokenizer/pre_tokenizers/known_patterns.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"
#include "tokenizer/pre_tokenizers/scratch.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

constexpr std::string_view kGpt2Pattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// Calls on_match for each match of GPT-2's regex, through the hand-written matcher when there is
// one (it never matches the empty string), else through the regex engine.
template <class OnMatch>
void for_each_gpt2_match(std::string_view text, OnMatch&& on_match) {
  static const KnownPatternFinder known = known_pattern_finder(kGpt2Pattern);
  if (known) {
    for_each_known_match(known, text, on_match);
    return;
  }
  static const Regex regex(kGpt2Pattern);
  regex.for_each_match(text, on_match);
}

class ByteLevel final : public PreTokenizer {
 public:
  ByteLevel(bool add_prefix_space, bool use_regex) : add_prefix_space_(add_prefix_space), use_regex_(use_regex) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    if (text.empty()) return;
    std::optional<ScratchString> scratch;
    if (add_prefix_space_ && text.front() != ' ') {
      scratch.emplace();
      std::string& prefixed = scratch->str();
      prefixed.reserve(text.size() + 1);
      prefixed += ' ';
      prefixed += text;
      text = prefixed;
    }
    if (!use_regex_) {
      sink(text, at_start);
      return;
    }
    std::size_t previous = 0;
    for_each_gpt2_match(text, [&](std::size_t begin, std::size_t end) {
      if (begin > previous) sink(text.substr(previous, begin - previous), at_start && previous == 0);
      if (end > begin) sink(text.substr(begin, end - begin), at_start && begin == 0);
      previous = end;
    });
    if (previous < text.size()) sink(text.substr(previous), at_start && previous == 0);
  }

  bool is_byte_level() const override { return true; }
  bool passes_through() const override { return !add_prefix_space_ && !use_regex_; }
  std::string describe() const override { return "ByteLevel"; }

 private:
  bool add_prefix_space_;
  bool use_regex_;
};

}  // namespace

std::unique_ptr<PreTokenizer> byte_level_from_json(const Json& json) {
  bool add_prefix_space = json.get("add_prefix_space").boolean();
  json.get("trim_offsets").boolean();  // required by the reference, irrelevant to ids
  return std::make_unique<ByteLevel>(add_prefix_space, json.bool_or("use_regex", true));
}

}  // namespace textedge::detail::pre_tokenizers
