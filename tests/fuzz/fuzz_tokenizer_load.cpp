// tokenizer.json loading: any text either loads or throws LoadError, and what loads can encode
// and decode. Seeds: the six real files, cut down by scripts/fuzz_seeds.py.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/detokenizer.hpp"
#include "textedge/tokenizer.hpp"

using namespace textedge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view json(reinterpret_cast<const char*>(data), size);
  std::optional<Tokenizer> loaded;
  try {
    loaded = Tokenizer::from_json(json, "fuzz");
  } catch (const LoadError&) {
    return 0;
  }
  const Tokenizer& tokenizer = *loaded;

  // What loaded runs every stage: normalizer, pre-tokenizer, model, post-processor, decoder.
  static const std::string kText =
      "Hello  world,\tthe <s> <|im_start|> 12345 na\xC3\xAFve \xE6\xBC\xA2\xE5\xAD\x97 \xF0\x9F\x99\x82\n\n";
  std::vector<TokenId> ids = tokenizer.encode(kText, {.add_special_tokens = true});
  std::string decoded = tokenizer.decode(ids);
  tokenizer.decode(ids, {.skip_special_tokens = true});
  std::vector<TokenId> every;
  for (TokenId id = 0; id < tokenizer.vocab_size() && id < 64; ++id) every.push_back(id);
  every.push_back(static_cast<TokenId>(tokenizer.vocab_size()));  // outside the vocabulary
  tokenizer.decode(every);
  tokenizer.info();
  std::optional<Detokenizer> stream;
  try {
    stream.emplace(tokenizer);
  } catch (const Error&) {
    return 0;  // a decoder that cannot be streamed
  }
  std::string streamed;
  for (TokenId id : ids) stream->step(id, streamed);
  stream->finish(streamed);
  if (streamed != decoded) {
    std::fprintf(stderr, "streamed text differs from decode:\n  streamed %zu bytes\n  decoded  %zu bytes\n",
                 streamed.size(), decoded.size());
    std::abort();
  }
  return 0;
}
