// The one place that knows every PreTokenizer type: dispatches on the JSON "type".
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail {

namespace pre_tokenizers {
// Each defined in the file named after its type.
std::unique_ptr<PreTokenizer> byte_level_from_json(const Json& json);
std::unique_ptr<PreTokenizer> split_from_json(const Json& json);
std::unique_ptr<PreTokenizer> metaspace_from_json(const Json& json);
std::unique_ptr<PreTokenizer> digits_from_json(const Json& json);
std::unique_ptr<PreTokenizer> punctuation_from_json(const Json& json);
std::unique_ptr<PreTokenizer> whitespace_from_json(const Json& json);
std::unique_ptr<PreTokenizer> whitespace_split_from_json(const Json& json);
std::unique_ptr<PreTokenizer> bert_pre_tokenizer_from_json(const Json& json);
std::unique_ptr<PreTokenizer> char_delimiter_split_from_json(const Json& json);
std::unique_ptr<PreTokenizer> fixed_length_from_json(const Json& json);
std::unique_ptr<PreTokenizer> sequence_from_json(const Json& json);
}  // namespace pre_tokenizers

std::unique_ptr<PreTokenizer> pre_tokenizer_from_json(const Json& json) {
  std::string_view type = type_of(json);
  if (type == "ByteLevel") return pre_tokenizers::byte_level_from_json(json);
  if (type == "Split") return pre_tokenizers::split_from_json(json);
  if (type == "Metaspace") return pre_tokenizers::metaspace_from_json(json);
  if (type == "Digits") return pre_tokenizers::digits_from_json(json);
  if (type == "Punctuation") return pre_tokenizers::punctuation_from_json(json);
  if (type == "Whitespace") return pre_tokenizers::whitespace_from_json(json);
  if (type == "WhitespaceSplit") return pre_tokenizers::whitespace_split_from_json(json);
  if (type == "BertPreTokenizer") return pre_tokenizers::bert_pre_tokenizer_from_json(json);
  if (type == "CharDelimiterSplit") return pre_tokenizers::char_delimiter_split_from_json(json);
  if (type == "FixedLength") return pre_tokenizers::fixed_length_from_json(json);
  if (type == "Sequence") return pre_tokenizers::sequence_from_json(json);
  if (type == "UnicodeScripts")
    json.get("type").fail("the UnicodeScripts pre-tokenizer is not supported");
  json.get("type").fail("unsupported pre-tokenizer type \"" + std::string(type) + "\"");
}

}  // namespace textedge::detail
