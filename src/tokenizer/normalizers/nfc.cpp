// NFC normalizer: canonical decomposition, then canonical composition.
#include "tokenizer/normalizers/normal_forms.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Nfc final : public Normalizer {
 public:
  void normalize(std::string& text) const override { apply_normal_form(text, NormalForm::kNfc); }
  std::string describe() const override { return "NFC"; }
};

}  // namespace

std::unique_ptr<Normalizer> nfc_from_json(const Json&) {
  prepare_normal_forms();
  return std::make_unique<Nfc>();
}

}  // namespace textedge::detail::normalizers
