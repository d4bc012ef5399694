// The one place that knows every Normalizer type: dispatches on the JSON "type".
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail {

namespace normalizers {
// Each defined in the file named after its type.
std::unique_ptr<Normalizer> bert_normalizer_from_json(const Json& json);
std::unique_ptr<Normalizer> byte_level_from_json(const Json& json);
std::unique_ptr<Normalizer> lowercase_from_json(const Json& json);
std::unique_ptr<Normalizer> nfc_from_json(const Json& json);
std::unique_ptr<Normalizer> nfd_from_json(const Json& json);
std::unique_ptr<Normalizer> nfkc_from_json(const Json& json);
std::unique_ptr<Normalizer> nfkd_from_json(const Json& json);
std::unique_ptr<Normalizer> nmt_from_json(const Json& json);
std::unique_ptr<Normalizer> prepend_from_json(const Json& json);
std::unique_ptr<Normalizer> replace_from_json(const Json& json);
std::unique_ptr<Normalizer> sequence_from_json(const Json& json);
std::unique_ptr<Normalizer> strip_from_json(const Json& json);
std::unique_ptr<Normalizer> strip_accents_from_json(const Json& json);
}  // namespace normalizers

std::unique_ptr<Normalizer> normalizer_from_json(const Json& json) {
  std::string_view type = type_of(json);
  // The reference also accepts "Bert" for BertNormalizer.
  if (type == "BertNormalizer" || type == "Bert") return normalizers::bert_normalizer_from_json(json);
  if (type == "ByteLevel") return normalizers::byte_level_from_json(json);
  if (type == "Lowercase") return normalizers::lowercase_from_json(json);
  if (type == "NFC") return normalizers::nfc_from_json(json);
  if (type == "NFD") return normalizers::nfd_from_json(json);
  if (type == "NFKC") return normalizers::nfkc_from_json(json);
  if (type == "NFKD") return normalizers::nfkd_from_json(json);
  if (type == "Nmt") return normalizers::nmt_from_json(json);
  if (type == "Prepend") return normalizers::prepend_from_json(json);
  if (type == "Replace") return normalizers::replace_from_json(json);
  if (type == "Sequence") return normalizers::sequence_from_json(json);
  if (type == "Strip") return normalizers::strip_from_json(json);
  if (type == "StripAccents") return normalizers::strip_accents_from_json(json);
  if (type == "Precompiled")
    json.get("type").fail("the Precompiled normalizer (a SentencePiece charsmap) is not supported");
  json.get("type").fail("unsupported normalizer type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
