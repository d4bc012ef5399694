// The one place that knows every Decoder type: dispatches on the JSON "type".
#include "tokenizer/decoders/decoder.hpp"

namespace textedge::detail {

namespace decoders {
// Each defined in the file named after its type.
std::unique_ptr<Decoder> byte_level_from_json(const Json& json);
std::unique_ptr<Decoder> metaspace_from_json(const Json& json);
std::unique_ptr<Decoder> byte_fallback_from_json(const Json& json);
std::unique_ptr<Decoder> fuse_from_json(const Json& json);
std::unique_ptr<Decoder> strip_from_json(const Json& json);
std::unique_ptr<Decoder> replace_from_json(const Json& json);
std::unique_ptr<Decoder> word_piece_from_json(const Json& json);
std::unique_ptr<Decoder> bpe_decoder_from_json(const Json& json);
std::unique_ptr<Decoder> ctc_from_json(const Json& json);
std::unique_ptr<Decoder> sequence_from_json(const Json& json);
}  // namespace decoders

std::unique_ptr<Decoder> decoder_from_json(const Json& json) {
  std::string_view type = type_of(json);
  if (type == "ByteLevel") return decoders::byte_level_from_json(json);
  if (type == "Metaspace") return decoders::metaspace_from_json(json);
  if (type == "ByteFallback") return decoders::byte_fallback_from_json(json);
  if (type == "Fuse") return decoders::fuse_from_json(json);
  if (type == "Strip") return decoders::strip_from_json(json);
  if (type == "Replace") return decoders::replace_from_json(json);
  if (type == "WordPiece") return decoders::word_piece_from_json(json);
  if (type == "BPEDecoder") return decoders::bpe_decoder_from_json(json);
  if (type == "CTC") return decoders::ctc_from_json(json);
  if (type == "Sequence") return decoders::sequence_from_json(json);
  json.get("type").fail("unsupported decoder type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
