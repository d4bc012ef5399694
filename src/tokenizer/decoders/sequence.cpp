// Sequence decoder: runs its decoders one after another on the token list.
#include "tokenizer/decoders/decoder.hpp"

namespace textedge::detail::decoders {
namespace {

class Sequence final : public Decoder {
 public:
  explicit Sequence(std::vector<std::unique_ptr<Decoder>> decoders) : decoders_(std::move(decoders)) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (const auto& d : decoders_) d->decode_chain(tokens);
  }

  void map_token(std::string& token) const override {
    for (const auto& d : decoders_) d->map_token(token);
  }
  void map_first_token(std::string& token) const override {
    for (const auto& d : decoders_) d->map_first_token(token);
  }

  const std::vector<std::unique_ptr<Decoder>>* children() const override { return &decoders_; }
  std::string describe() const override {
    std::string out = "Sequence[";
    for (std::size_t i = 0; i < decoders_.size(); ++i) {
      if (i) out += ", ";
      out += decoders_[i]->describe();
    }
    return out + "]";
  }

 private:
  std::vector<std::unique_ptr<Decoder>> decoders_;
};

}  // namespace

std::unique_ptr<Decoder> sequence_from_json(const Json& json) {
  std::vector<std::unique_ptr<Decoder>> decoders;
  for (const Json& d : json.get("decoders").array()) decoders.push_back(decoder_from_json(d));
  return std::make_unique<Sequence>(std::move(decoders));
}

}  // namespace textedge::detail::decoders
