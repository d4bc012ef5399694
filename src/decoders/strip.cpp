// Strip decoder: removes up to `start` leading and `stop` trailing copies of one character
// from every token.
#include <cstring>

#include "decoder.hpp"
#include "json_fields.hpp"

namespace textedge::detail::decoders {
namespace {

class Strip final : public Decoder {
 public:
  Strip(std::string content, std::size_t start, std::size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (auto& token : tokens) strip(token);
  }

  // Strip usually follows Fuse and then trims the ends of the whole text: positional, so
  // token_bytes leaves tokens unchanged.

  std::string describe() const override { return "Strip"; }

 private:
  bool content_at(const std::string& token, std::size_t pos) const {
    return std::memcmp(token.data() + pos, content_.data(), content_.size()) == 0;
  }

  void strip(std::string& token) const {
    const std::size_t width = content_.size();  // whole characters, so byte matches are exact
    std::size_t begin = 0;
    for (std::size_t k = 0; k < start_ && begin + width <= token.size() && content_at(token, begin); ++k) begin += width;
    std::size_t end = token.size();
    // The reference panics when the two cuts would cross (more to strip than the token holds);
    // here the token simply becomes empty.
    for (std::size_t k = 0; k < stop_ && end >= begin + width && content_at(token, end - width); ++k) end -= width;
    token.resize(end);
    token.erase(0, begin);
  }

  std::string content_;
  std::size_t start_, stop_;
};

}  // namespace

std::unique_ptr<Decoder> strip_from_json(const Json& json) {
  std::string content = read_char(json.get("content"));
  std::size_t start = read_count(json.get("start"));
  std::size_t stop = read_count(json.get("stop"));
  return std::make_unique<Strip>(std::move(content), start, stop);
}

}  // namespace textedge::detail::decoders
