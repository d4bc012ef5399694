// WordPiece decoder: glues "##" continuation pieces to the previous word and puts a space
// before every other token.
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/json_fields.hpp"
#include "tokenizer/decoders/string_edits.hpp"

namespace textedge::detail::decoders {
namespace {

class WordPiece final : public Decoder {
 public:
  WordPiece(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i != 0) join_to_previous(tokens[i]);
      // Clean-up runs on each token alone, the first one included.
      if (cleanup_) cleanup_artifacts(tokens[i]);
    }
  }

  // As for any token but the first.
  void map_token(std::string& token) const override {
    join_to_previous(token);
    if (cleanup_) cleanup_artifacts(token);
  }

  std::string describe() const override { return "WordPiece"; }

 private:
  void join_to_previous(std::string& token) const {
    if (token.compare(0, prefix_.size(), prefix_) == 0) token.erase(0, prefix_.size());
    else token.insert(token.begin(), ' ');
  }

  std::string prefix_;
  bool cleanup_;
};

}  // namespace

std::unique_ptr<Decoder> word_piece_from_json(const Json& json) {
  std::string prefix(json.get("prefix").str());
  bool cleanup = json.get("cleanup").boolean();
  return std::make_unique<WordPiece>(std::move(prefix), cleanup);
}

}  // namespace textedge::detail::decoders
