// RobertaProcessing: <s> ids </s> for a single sequence (offset trimming does not touch ids).
#include "tokenizer/post_processors/json_fields.hpp"
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail::post_processors {
namespace {

class RobertaProcessing final : public PostProcessor {
 public:
  RobertaProcessing(TokenId cls, TokenId sep) : cls_(cls), sep_(sep) {}

  void process(std::vector<TokenId>& ids) const override {
    ids.insert(ids.begin(), cls_);
    ids.push_back(sep_);
  }

  std::string describe() const override { return "RobertaProcessing"; }

 private:
  TokenId cls_, sep_;
};

}  // namespace

std::unique_ptr<PostProcessor> roberta_processing_from_json(const Json& json) {
  TokenId sep = read_token_pair(json.get("sep"));
  TokenId cls = read_token_pair(json.get("cls"));
  // trim_offsets and add_prefix_space only affect offsets. Their types are not checked: the
  // reference falls back to reading such an object as BertProcessing, with the same ids.
  return std::make_unique<RobertaProcessing>(cls, sep);
}

}  // namespace textedge::detail::post_processors
