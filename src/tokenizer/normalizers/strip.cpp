// Strip normalizer: removes leading and/or trailing whitespace (Unicode White_Space).
#include "base/utf8.hpp"
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/normalizers/unicode_text.hpp"

namespace textedge::detail::normalizers {
namespace {

class Strip final : public Normalizer {
 public:
  Strip(bool strip_left, bool strip_right) : strip_left_(strip_left), strip_right_(strip_right) {}

  void normalize(std::string& text) const override {
    std::size_t begin = 0, end = text.size();
    if (strip_left_) {
      while (begin < end) {
        std::size_t next = begin;
        if (!is_rust_whitespace(next_code_point(text, next))) break;
        begin = next;
      }
    }
    if (strip_right_) {
      while (end > begin) {
        std::size_t last = end - 1;
        while ((static_cast<unsigned char>(text[last]) & 0xC0) == 0x80) --last;
        std::size_t probe = last;
        if (!is_rust_whitespace(next_code_point(text, probe))) break;
        end = last;
      }
    }
    if (end < text.size()) text.erase(end);
    if (begin > 0) text.erase(0, begin);
  }

  std::string describe() const override { return "Strip"; }

 private:
  bool strip_left_;
  bool strip_right_;
};

}  // namespace

// Both "strip_left" and "strip_right" are required, as in the reference.
std::unique_ptr<Normalizer> strip_from_json(const Json& json) {
  return std::make_unique<Strip>(json.get("strip_left").boolean(), json.get("strip_right").boolean());
}

}  // namespace textedge::detail::normalizers
