// The one place that knows every Decoder type: dispatches on the JSON "type".
#include "decoder.hpp"

namespace textedge::detail {

std::unique_ptr<Decoder> decoder_from_json(const Json& json) {
  std::string_view type = type_of(json);
  json.get("type").fail("unsupported decoder type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
