// BertProcessing: [CLS] ids [SEP] for a single sequence.
#include "tokenizer/post_processors/json_fields.hpp"
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail::post_processors {
namespace {

class BertProcessing final : public PostProcessor {
 public:
  BertProcessing(TokenId cls, TokenId sep) : cls_(cls), sep_(sep) {}

  void process(std::vector<TokenId>& ids) const override {
    ids.insert(ids.begin(), cls_);
    ids.push_back(sep_);
  }

  std::string describe() const override { return "BertProcessing"; }

 private:
  TokenId cls_, sep_;
};

}  // namespace

std::unique_ptr<PostProcessor> bert_processing_from_json(const Json& json) {
  TokenId sep = read_token_pair(json.get("sep"));
  TokenId cls = read_token_pair(json.get("cls"));
  return std::make_unique<BertProcessing>(cls, sep);
}

}  // namespace textedge::detail::post_processors
