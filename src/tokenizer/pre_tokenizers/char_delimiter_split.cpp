// CharDelimiterSplit: splits on one delimiter character, dropping it.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class CharDelimiterSplit final : public PreTokenizer {
 public:
  explicit CharDelimiterSplit(std::string delimiter) : delimiter_(std::move(delimiter)) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    std::size_t begin = 0;
    for (std::size_t at; (at = text.find(delimiter_, begin)) != std::string_view::npos; begin = at + delimiter_.size())
      if (at > begin) sink(text.substr(begin, at - begin), at_start && begin == 0);
    if (begin < text.size()) sink(text.substr(begin), at_start && begin == 0);
  }

  std::string describe() const override { return "CharDelimiterSplit"; }

 private:
  std::string delimiter_;
};

}  // namespace

std::unique_ptr<PreTokenizer> char_delimiter_split_from_json(const Json& json) {
  Json delimiter = json.get("delimiter");
  std::string_view d = delimiter.str();
  std::size_t i = 0;
  if (d.empty() || (next_code_point(d, i), i != d.size()))
    delimiter.fail("expected exactly one character, found \"" + std::string(d) + "\"");
  return std::make_unique<CharDelimiterSplit>(std::string(d));
}

}  // namespace textedge::detail::pre_tokenizers
