// Sequence: runs its pre-tokenizers in order, each on every piece the previous one produced.
#include <vector>

#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

class Sequence final : public PreTokenizer {
 public:
  explicit Sequence(std::vector<std::unique_ptr<PreTokenizer>> children) : children_(std::move(children)) {
    for (const auto& child : children_) {
      byte_level_ = byte_level_ || child->is_byte_level();
      if (!child->passes_through()) active_.push_back(child.get());
    }
  }

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    run(0, text, at_start, sink);
  }

  bool is_byte_level() const override { return byte_level_; }
  bool passes_through() const override { return active_.empty(); }
  KnownPatternFinder pieces_finder() const override { return active_.size() == 1 ? active_[0]->pieces_finder() : nullptr; }

  std::string describe() const override {
    std::string out = "Sequence[";
    for (std::size_t i = 0; i < children_.size(); ++i) out += (i ? ", " : "") + children_[i]->describe();
    return out + "]";
  }

 private:
  // Pieces flow depth-first through the chain: nothing is collected between stages.
  void run(std::size_t stage, std::string_view text, bool at_start, PieceSink sink) const {
    if (stage + 1 == active_.size()) {
      active_[stage]->pre_tokenize(text, at_start, sink);
      return;
    }
    if (stage == active_.size()) {
      sink(text, at_start);
      return;
    }
    active_[stage]->pre_tokenize(text, at_start, [&](std::string_view piece, bool piece_at_start) {
      run(stage + 1, piece, piece_at_start, sink);
    });
  }

  std::vector<std::unique_ptr<PreTokenizer>> children_;
  std::vector<const PreTokenizer*> active_;  // the children that change anything
  bool byte_level_ = false;
};

}  // namespace

std::unique_ptr<PreTokenizer> sequence_from_json(const Json& json) {
  std::vector<Json> items = json.get("pretokenizers").array();
  std::vector<std::unique_ptr<PreTokenizer>> children;
  children.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    children.push_back(pre_tokenizer_from_json(items[i]));
    // textedge's model maps bytes to the GPT-2 alphabet after pre-tokenization, so a later
    // stage would see raw text where the reference shows it mapped text.
    if (children.back()->is_byte_level() && i + 1 < items.size())
      items[i].fail("a ByteLevel pre-tokenizer is only supported as the last element of a Sequence");
  }
  return std::make_unique<Sequence>(std::move(children));
}

}  // namespace textedge::detail::pre_tokenizers
