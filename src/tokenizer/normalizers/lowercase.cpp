// Lowercase normalizer: Rust's char::to_lowercase on every character.
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/normalizers/unicode_text.hpp"

namespace textedge::detail::normalizers {
namespace {

class Lowercase final : public Normalizer {
 public:
  void normalize(std::string& text) const override { lowercase_in_place(text); }
  std::string describe() const override { return "Lowercase"; }
};

}  // namespace

std::unique_ptr<Normalizer> lowercase_from_json(const Json&) { return std::make_unique<Lowercase>(); }

}  // namespace textedge::detail::normalizers
