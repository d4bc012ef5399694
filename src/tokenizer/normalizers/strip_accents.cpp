// StripAccents normalizer: removes every combining mark (General_Category Mn, Mc or Me, as of
// Unicode 9.0 like the reference). It does not decompose: it is meant to follow NFD or NFKD.
#include <algorithm>

#include "base/utf8.hpp"
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/normalizers/unicode_data.hpp"

namespace textedge::detail::normalizers {
namespace {

class StripAccents final : public Normalizer {
 public:
  void normalize(std::string& text) const override {
    // Marks start at U+0300, whose UTF-8 lead byte is 0xCC: text without such bytes has none.
    auto first = std::find_if(text.begin(), text.end(), [](char b) { return static_cast<unsigned char>(b) >= 0xCC; });
    if (first == text.end()) return;
    // Removing only shortens the text, so compact it in place.
    std::size_t read = static_cast<std::size_t>(first - text.begin()), write = read;
    while (read < text.size()) {
      std::size_t start = read;
      char32_t cp = next_code_point(text, read);
      if (is_combining_mark_unicode9(cp)) continue;
      while (start < read) text[write++] = text[start++];
    }
    text.resize(write);
  }

  std::string describe() const override { return "StripAccents"; }
};

}  // namespace

std::unique_ptr<Normalizer> strip_accents_from_json(const Json&) { return std::make_unique<StripAccents>(); }

}  // namespace textedge::detail::normalizers
