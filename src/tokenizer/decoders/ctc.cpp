// CTC decoder: collapses repeated tokens, drops the pad token and turns the word delimiter
// into a space.
#include <algorithm>

#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/string_edits.hpp"

namespace textedge::detail::decoders {
namespace {

class Ctc final : public Decoder {
 public:
  Ctc(std::string pad_token, std::string word_delimiter_token, bool cleanup)
      : pad_token_(std::move(pad_token)), word_delimiter_token_(std::move(word_delimiter_token)), cleanup_(cleanup) {}

  void decode_chain(std::vector<std::string>& tokens) const override {
    // Repeats are collapsed on the tokens as they come, before anything is removed.
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
    std::size_t write = 0;
    for (std::size_t read = 0; read < tokens.size(); ++read) {
      map_token(tokens[read]);
      if (tokens[read].empty()) continue;
      if (write != read) tokens[write] = std::move(tokens[read]);
      ++write;
    }
    tokens.resize(write);
  }

  // Everything but collapsing repeats and dropping tokens that end up empty.
  void map_token(std::string& token) const override {
    replace_all(token, pad_token_, "");
    // Without cleanup the word delimiter is kept as it is.
    if (cleanup_) {
      cleanup_artifacts(token);
      replace_all(token, word_delimiter_token_, " ");
    }
  }

  std::string describe() const override { return "CTC"; }

 private:
  std::string pad_token_, word_delimiter_token_;
  bool cleanup_;
};

}  // namespace

std::unique_ptr<Decoder> ctc_from_json(const Json& json) {
  std::string pad(json.get("pad_token").str());
  std::string delimiter(json.get("word_delimiter_token").str());
  bool cleanup = json.get("cleanup").boolean();
  return std::make_unique<Ctc>(std::move(pad), std::move(delimiter), cleanup);
}

}  // namespace textedge::detail::decoders
