// FixedLength: cuts the text into pieces of `length` characters (the last may be shorter).
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class FixedLength final : public PreTokenizer {
 public:
  explicit FixedLength(std::size_t length) : length_(length) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    std::size_t begin = 0, count = 0;
    for (std::size_t i = 0; i < text.size();) {
      i += static_cast<std::size_t>(utf8_length(static_cast<unsigned char>(text[i])));
      if (++count == length_ || i >= text.size()) {
        sink(text.substr(begin, i - begin), at_start && begin == 0);
        begin = i;
        count = 0;
      }
    }
  }

  std::string describe() const override { return "FixedLength"; }

 private:
  std::size_t length_;
};

}  // namespace

std::unique_ptr<PreTokenizer> fixed_length_from_json(const Json& json) {
  std::int64_t length = json.int_or("length", 5);
  // The reference panics on 0 when it encodes; refuse it up front.
  if (length <= 0) json.get("length").fail("expected a positive length");
  return std::make_unique<FixedLength>(static_cast<std::size_t>(length));
}

}  // namespace textedge::detail::pre_tokenizers
