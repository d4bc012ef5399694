// The one place that knows every PreTokenizer type: dispatches on the JSON "type".
#include "pre_tokenizer.hpp"

namespace textedge::detail {

std::unique_ptr<PreTokenizer> pre_tokenizer_from_json(const Json& json) {
  std::string_view type = type_of(json);
  json.get("type").fail("unsupported pre-tokenizer type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
