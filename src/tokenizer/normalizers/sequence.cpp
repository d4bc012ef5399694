// Sequence normalizer: runs the normalizers of "normalizers" one after the other.
#include <vector>

#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

class Sequence final : public Normalizer {
 public:
  explicit Sequence(std::vector<std::unique_ptr<Normalizer>> normalizers) : normalizers_(std::move(normalizers)) {}

  void normalize(std::string& text) const override {
    for (const auto& normalizer : normalizers_) normalizer->normalize(text);
  }

  std::string describe() const override {
    std::string out = "Sequence[";
    for (std::size_t i = 0; i < normalizers_.size(); ++i) {
      if (i) out += ", ";
      out += normalizers_[i]->describe();
    }
    return out + "]";
  }

 private:
  std::vector<std::unique_ptr<Normalizer>> normalizers_;
};

}  // namespace

std::unique_ptr<Normalizer> sequence_from_json(const Json& json) {
  std::vector<std::unique_ptr<Normalizer>> normalizers;
  for (const Json& item : json.get("normalizers").array()) normalizers.push_back(normalizer_from_json(item));
  return std::make_unique<Sequence>(std::move(normalizers));
}

}  // namespace textedge::detail::normalizers
