// The one place that knows every PostProcessor type: dispatches on the JSON "type".
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail {

namespace post_processors {
// Each defined in the file named after its type.
std::unique_ptr<PostProcessor> template_processing_from_json(const Json& json);
std::unique_ptr<PostProcessor> byte_level_from_json(const Json& json);
std::unique_ptr<PostProcessor> roberta_processing_from_json(const Json& json);
std::unique_ptr<PostProcessor> bert_processing_from_json(const Json& json);
std::unique_ptr<PostProcessor> sequence_from_json(const Json& json);
}  // namespace post_processors

std::unique_ptr<PostProcessor> post_processor_from_json(const Json& json) {
  std::string_view type = type_of(json);
  if (type == "TemplateProcessing") return post_processors::template_processing_from_json(json);
  if (type == "ByteLevel") return post_processors::byte_level_from_json(json);
  if (type == "RobertaProcessing") return post_processors::roberta_processing_from_json(json);
  if (type == "BertProcessing") return post_processors::bert_processing_from_json(json);
  if (type == "Sequence") return post_processors::sequence_from_json(json);
  json.get("type").fail("unsupported post-processor type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
