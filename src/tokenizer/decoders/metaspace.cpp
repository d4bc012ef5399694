// Metaspace decoder: turns the replacement character (usually "▁") back into spaces.
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/json_fields.hpp"
#include "tokenizer/decoders/string_edits.hpp"

namespace textedge::detail::decoders {
namespace {

enum class PrependScheme { kFirst, kNever, kAlways };

class Metaspace final : public Decoder {
 public:
  Metaspace(std::string replacement, PrependScheme scheme)
      : replacement_(std::move(replacement)), scheme_(scheme) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      // Surprising but exact: in the first token every replacement character is dropped,
      // not only the leading one, unless the scheme is "never".
      bool drop = i == 0 && scheme_ != PrependScheme::kNever;
      replace_all(tokens[i], replacement_, drop ? "" : " ");
    }
  }

  // As for any token but the first: every replacement character becomes a space.
  void map_token(std::string& token) const override { replace_all(token, replacement_, " "); }
  void map_first_token(std::string& token) const override {
    replace_all(token, replacement_, scheme_ != PrependScheme::kNever ? "" : " ");
  }
  Kind kind() const override { return Kind::kFirstToken; }

  std::string describe() const override { return "Metaspace"; }

 private:
  std::string replacement_;
  PrependScheme scheme_;
};

}  // namespace

std::unique_ptr<Decoder> metaspace_from_json(const Json& json) {
  std::string replacement = read_char(json.get("replacement"));
  PrependScheme scheme = PrependScheme::kAlways;
  if (auto s = member_with_default(json, "prepend_scheme")) {
    std::string_view name = s->str();
    if (name == "first") scheme = PrependScheme::kFirst;
    else if (name == "never") scheme = PrependScheme::kNever;
    else if (name == "always") scheme = PrependScheme::kAlways;
    else s->fail("unknown prepend_scheme \"" + std::string(name) + "\" (expected first, never or always)");
  }
  // Legacy field: add_prefix_space=false means "never" and must agree with prepend_scheme.
  if (auto legacy = json.find("add_prefix_space"); legacy && !legacy->boolean()) {
    if (scheme != PrependScheme::kNever) legacy->fail("add_prefix_space does not match declared prepend_scheme");
  }
  bool split = true;
  read_optional_bool(json, "split", split);  // pre-tokenizer option, unused when decoding
  return std::make_unique<Metaspace>(std::move(replacement), scheme);
}

}  // namespace textedge::detail::decoders
