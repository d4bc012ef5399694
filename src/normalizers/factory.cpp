// The one place that knows every Normalizer type: dispatches on the JSON "type".
#include "normalizer.hpp"

namespace textedge::detail {

std::unique_ptr<Normalizer> normalizer_from_json(const Json& json) {
  std::string_view type = type_of(json);
  json.get("type").fail("unsupported normalizer type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
