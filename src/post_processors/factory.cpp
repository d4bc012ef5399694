// The one place that knows every PostProcessor type: dispatches on the JSON "type".
#include "post_processor.hpp"

namespace textedge::detail {

std::unique_ptr<PostProcessor> post_processor_from_json(const Json& json) {
  std::string_view type = type_of(json);
  json.get("type").fail("unsupported post-processor type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
