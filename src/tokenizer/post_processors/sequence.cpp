// Sequence post-processor: runs its processors one after another.
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail::post_processors {
namespace {

class Sequence final : public PostProcessor {
 public:
  explicit Sequence(std::vector<std::unique_ptr<PostProcessor>> processors) : processors_(std::move(processors)) {}

  void process(std::vector<TokenId>& ids) const override {
    for (const auto& p : processors_) p->process(ids);
  }

  std::string describe() const override {
    std::string out = "Sequence[";
    for (std::size_t i = 0; i < processors_.size(); ++i) {
      if (i) out += ", ";
      out += processors_[i]->describe();
    }
    return out + "]";
  }

 private:
  std::vector<std::unique_ptr<PostProcessor>> processors_;
};

}  // namespace

std::unique_ptr<PostProcessor> sequence_from_json(const Json& json) {
  std::vector<std::unique_ptr<PostProcessor>> processors;
  for (const Json& p : json.get("processors").array()) processors.push_back(post_processor_from_json(p));
  return std::make_unique<Sequence>(std::move(processors));
}

}  // namespace textedge::detail::post_processors
