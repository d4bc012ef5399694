// NFKD normalizer: compatibility decomposition.
#include "tokenizer/normalizers/normal_forms.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Nfkd final : public Normalizer {
 public:
  void normalize(std::string& text) const override { apply_normal_form(text, NormalForm::kNfkd); }
  std::string describe() const override { return "NFKD"; }
};

}  // namespace

std::unique_ptr<Normalizer> nfkd_from_json(const Json&) {
  prepare_normal_forms();
  return std::make_unique<Nfkd>();
}

}  // namespace textedge::detail::normalizers
