// Strip decoder: removes up to `start` leading and `stop` trailing copies of one character
// from every token.
#include <cstring>

#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/json_fields.hpp"

namespace textedge::detail::decoders {
namespace {

class Strip final : public Decoder {
 public:
  Strip(std::string content, std::size_t start, std::size_t stop) : spec_{std::move(content), start, stop} {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (auto& token : tokens) strip(token);
  }

  // Strip usually follows Fuse and then trims the ends of the whole text: positional, so
  // token_bytes leaves tokens unchanged.

  bool keeps_token() const override { return true; }
  const StripSpec* strip_spec() const override { return &spec_; }
  std::string describe() const override { return "Strip"; }

 private:
  bool content_at(const std::string& token, std::size_t pos) const {
    return std::memcmp(token.data() + pos, spec_.content.data(), spec_.content.size()) == 0;
  }

  void strip(std::string& token) const {
    const std::size_t width = spec_.content.size();  // whole characters, so byte matches are exact
    std::size_t begin = 0;
    for (std::size_t k = 0; k < spec_.start && begin + width <= token.size() && content_at(token, begin); ++k) begin += width;
    std::size_t end = token.size();
    // The reference panics when the two cuts would cross (more to strip than the token holds);
    // here the token simply becomes empty.
    for (std::size_t k = 0; k < spec_.stop && end >= begin + width && content_at(token, end - width); ++k) end -= width;
    token.resize(end);
    token.erase(0, begin);
  }

  StripSpec spec_;
};

}  // namespace

std::unique_ptr<Decoder> strip_from_json(const Json& json) {
  std::string content = read_char(json.get("content"));
  std::size_t start = read_count(json.get("start"));
  std::size_t stop = read_count(json.get("stop"));
  return std::make_unique<Strip>(std::move(content), start, stop);
}

}  // namespace textedge::detail::decoders
