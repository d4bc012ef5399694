// NFKC normalizer: compatibility decomposition, then canonical composition.
#include "tokenizer/normalizers/normal_forms.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Nfkc final : public Normalizer {
 public:
  void normalize(std::string& text) const override { apply_normal_form(text, NormalForm::kNfkc); }
  std::string describe() const override { return "NFKC"; }
};

}  // namespace

std::unique_ptr<Normalizer> nfkc_from_json(const Json&) {
  prepare_normal_forms();
  return std::make_unique<Nfkc>();
}

}  // namespace textedge::detail::normalizers
