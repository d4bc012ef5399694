// Fuse decoder: joins every token into one, so later decoders see the whole text.
#include <cstring>

#include "tokenizer/decoders/decoder.hpp"

namespace textedge::detail::decoders {
namespace {

class Fuse final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    // The reference always yields exactly one token, even for an empty list.
    if (tokens.empty()) {
      tokens.emplace_back();
      return;
    }
    std::size_t total = 0;
    for (const auto& t : tokens) total += t.size();
    std::string& joined = tokens[0];
    std::size_t at = joined.size();
    joined.resize(total);
    char* out = joined.data();
    for (std::size_t i = 1; i < tokens.size(); ++i) {
      std::memcpy(out + at, tokens[i].data(), tokens[i].size());
      at += tokens[i].size();
    }
    tokens.resize(1);
  }

  Kind kind() const override { return Kind::kFuse; }
  bool keeps_token() const override { return true; }
  std::string describe() const override { return "Fuse"; }
};

}  // namespace

std::unique_ptr<Decoder> fuse_from_json(const Json&) { return std::make_unique<Fuse>(); }

}  // namespace textedge::detail::decoders
