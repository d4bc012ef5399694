// BPEDecoder: the end-of-word suffix (e.g. "</w>") becomes a space, except in the last token
// where it is dropped.
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/string_edits.hpp"

namespace textedge::detail::decoders {
namespace {

class BpeDecoder final : public Decoder {
 public:
  explicit BpeDecoder(std::string suffix) : suffix_(std::move(suffix)) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) replace_all(tokens[i], suffix_, i + 1 == tokens.size() ? "" : " ");
  }

  // As for any token but the last.
  void map_token(std::string& token) const override { replace_all(token, suffix_, " "); }

  std::string describe() const override { return "BPEDecoder"; }

 private:
  std::string suffix_;
};

}  // namespace

std::unique_ptr<Decoder> bpe_decoder_from_json(const Json& json) {
  return std::make_unique<BpeDecoder>(std::string(json.get("suffix").str()));
}

}  // namespace textedge::detail::decoders
