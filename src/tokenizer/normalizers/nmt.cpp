// Nmt normalizer: drops ASCII control characters and maps a set of space-like characters
// (including U+2581 and U+FFFD) to " ", as SentencePiece's NMT normalization does.
#include "base/utf8.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

bool is_dropped(char32_t c) {
  return (c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F || c == 0x8F || c == 0x9F;
}

bool becomes_space(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x1680 || (c >= 0x200B && c <= 0x200F) ||
         c == 0x2028 || c == 0x2029 || c == 0x2581 || c == 0xFEFF || c == 0xFFFD;
}

class Nmt final : public Normalizer {
 public:
  void normalize(std::string& text) const override {
    // Nothing grows, so the text is compacted in place.
    std::size_t read = 0, write = 0;
    while (read < text.size()) {
      std::size_t start = read;
      char32_t c = next_code_point(text, read);
      if (is_dropped(c)) continue;
      if (becomes_space(c)) {
        text[write++] = ' ';
        continue;
      }
      while (start < read) text[write++] = text[start++];
    }
    text.resize(write);
  }

  std::string describe() const override { return "Nmt"; }
};

}  // namespace

std::unique_ptr<Normalizer> nmt_from_json(const Json&) { return std::make_unique<Nmt>(); }

}  // namespace textedge::detail::normalizers
