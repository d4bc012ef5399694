// ByteLevel post-processor: only trims offsets in the reference, so ids pass unchanged.
#include "tokenizer/post_processors/json_fields.hpp"
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail::post_processors {
namespace {

class ByteLevel final : public PostProcessor {
 public:
  void process(std::vector<TokenId>&) const override {}
  std::string describe() const override { return "ByteLevel"; }
};

}  // namespace

std::unique_ptr<PostProcessor> byte_level_from_json(const Json& json) {
  json.get("add_prefix_space").boolean();
  json.get("trim_offsets").boolean();
  check_bool_with_default(json, "use_regex");
  return std::make_unique<ByteLevel>();
}

}  // namespace textedge::detail::post_processors
