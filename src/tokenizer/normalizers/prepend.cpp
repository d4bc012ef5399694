// Prepend normalizer: puts a fixed string in front of any non-empty text.
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Prepend final : public Normalizer {
 public:
  explicit Prepend(std::string prepend) : prepend_(std::move(prepend)) {}

  void normalize(std::string& text) const override {
    if (!text.empty()) text.insert(0, prepend_);
  }

  std::string describe() const override { return "Prepend"; }

 private:
  std::string prepend_;
};

}  // namespace

std::unique_ptr<Normalizer> prepend_from_json(const Json& json) {
  return std::make_unique<Prepend>(std::string(json.get("prepend").str()));
}

}  // namespace textedge::detail::normalizers
