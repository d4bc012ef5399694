// Replace decoder: replaces a literal string or a regex match with `content` in every token.
#include <optional>
#include <stdexcept>

#include "base/regex.hpp"
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/string_edits.hpp"

namespace textedge::detail::decoders {
namespace {

class Replace final : public Decoder {
 public:
  Replace(std::string literal, std::optional<Regex> regex, std::string content)
      : literal_(std::move(literal)), regex_(std::move(regex)), content_(std::move(content)) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    for (auto& token : tokens) map_token(token);
  }

  void map_token(std::string& token) const override {
    // The reference never matches inside an empty token, not even an empty pattern.
    if (token.empty()) return;
    if (regex_) replace_regex(token);
    else replace_all(token, literal_, content_);
  }

  Kind kind() const override { return Kind::kPerToken; }
  bool literal_replacement(std::string_view& from, std::string_view& to) const override {
    if (regex_) return false;
    from = literal_;
    to = content_;
    return true;
  }
  std::string describe() const override { return "Replace"; }

 private:
  // Matches come as the onig crate's find_iter yields them (empty-match rules included).
  void replace_regex(std::string& token) const {
    std::string out;
    std::size_t copied = 0;
    bool matched = false;
    regex_->for_each_match(token, [&](std::size_t begin, std::size_t end) {
      if (!matched) out.reserve(token.size() + content_.size());
      matched = true;
      out.append(token, copied, begin - copied);
      out.append(content_);
      copied = end;
    });
    if (!matched) return;
    out.append(token, copied, std::string::npos);
    token.swap(out);
  }

  std::string literal_;
  std::optional<Regex> regex_;
  std::string content_;
};

}  // namespace

std::unique_ptr<Decoder> replace_from_json(const Json& json) {
  Json pattern = json.get("pattern");
  auto members = pattern.members();
  if (members.size() != 1) pattern.fail("expected an object with exactly one of \"String\" or \"Regex\"");
  auto& [kind, value] = members[0];
  std::string content(json.get("content").str());
  if (kind == "String") return std::make_unique<Replace>(std::string(value.str()), std::nullopt, std::move(content));
  if (kind != "Regex") value.fail("unknown pattern kind \"" + std::string(kind) + "\" (expected String or Regex)");
  try {
    return std::make_unique<Replace>(std::string(), Regex(value.str()), std::move(content));
  } catch (const std::invalid_argument& e) {
    value.fail(std::string("invalid regex: ") + e.what());
  }
}

}  // namespace textedge::detail::decoders
