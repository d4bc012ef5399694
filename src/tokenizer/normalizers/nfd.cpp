// NFD normalizer: canonical decomposition.
#include "tokenizer/normalizers/normal_forms.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Nfd final : public Normalizer {
 public:
  void normalize(std::string& text) const override { apply_normal_form(text, NormalForm::kNfd); }
  std::string describe() const override { return "NFD"; }
};

}  // namespace

std::unique_ptr<Normalizer> nfd_from_json(const Json&) {
  prepare_normal_forms();
  return std::make_unique<Nfd>();
}

}  // namespace textedge::detail::normalizers
