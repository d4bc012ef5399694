// encode of arbitrary bytes on real tokenizers. The first byte picks the tokenizer, strict or
// lossy UTF-8, and add_special_tokens; the rest is the text. Strict encoding throws InputError at
// the first invalid byte exactly when the text is not UTF-8; lossy encoding never throws. On the
// tokenizers without a normalizer, decode gives the (repaired) text back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/tokenizer.hpp"

using namespace textedge;

namespace {

struct Model {
  const char* name;
  bool round_trips;  // no normalizer, byte-level: decode(encode(text)) == text
};
// ByteLevel with NFC (qwen3) and without a normalizer (llama3_1), SentencePiece with byte fallback
// (llama2: Prepend and Strip; gemma3: Replace, many added tokens).
constexpr Model kModels[] = {{"qwen3", false}, {"llama3_1", true}, {"llama2", false}, {"gemma3", false}};
constexpr std::size_t kModelCount = sizeof(kModels) / sizeof(kModels[0]);

const Tokenizer& tokenizer(std::size_t i) {
  static std::optional<Tokenizer> loaded[kModelCount];
  if (!loaded[i]) loaded[i] = Tokenizer::load(std::string(TEXTEDGE_MODELS_DIR) + "/" + kModels[i].name);
  return *loaded[i];
}

// The length of the valid UTF-8 character at s[i], or 0 and in `bad` the length of the maximal
// subpart of an ill-formed sequence there (what Python's errors="replace" turns into one U+FFFD).
std::size_t utf8_char(std::string_view s, std::size_t i, std::size_t& bad) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  unsigned c = p[i];
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    bad = 1;
    return 0;
  }
  for (std::size_t k = 1; k < len; ++k) {
    unsigned next = i + k < s.size() ? p[i + k] : 0;
    if (next < (k == 1 ? lo : 0x80) || next > (k == 1 ? hi : 0xBF)) {
      bad = k;
      return 0;
    }
  }
  return len;
}

// The offset of the first byte that is not part of a valid UTF-8 character, or npos; and the
// text with each ill-formed subsequence replaced by U+FFFD.
std::size_t check_utf8(std::string_view s, std::string& repaired) {
  std::size_t first_invalid = std::string_view::npos;
  for (std::size_t i = 0, bad = 0; i < s.size();) {
    if (std::size_t len = utf8_char(s, i, bad)) {
      repaired.append(s.substr(i, len));
      i += len;
    } else {
      if (first_invalid == std::string_view::npos) first_invalid = i;
      repaired += "\xEF\xBF\xBD";
      i += bad;
    }
  }
  return first_invalid;
}

[[noreturn]] void fail(const char* what, const Model& model, std::string_view detail = {}) {
  std::fprintf(stderr, "%s (%s) %.*s\n", what, model.name, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (std::size_t i = 0; i < kModelCount; ++i) tokenizer(i);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Model& model = kModels[data[0] % kModelCount];
  const Tokenizer& tok = tokenizer(data[0] % kModelCount);
  EncodeOptions options{.add_special_tokens = (data[0] & 0x10) != 0, .lossy_utf8 = (data[0] & 0x20) != 0};
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string repaired;
  std::size_t invalid = check_utf8(text, repaired);

  std::vector<TokenId> ids;
  if (options.lossy_utf8) {
    ids = tok.encode(text, options);
  } else {
    try {
      ids = tok.encode(text, options);
    } catch (const InputError& e) {
      if (e.byte_offset() != invalid) fail("InputError at the wrong offset", model, e.what());
      return 0;
    }
    if (invalid != std::string_view::npos) fail("invalid UTF-8 was encoded in strict mode", model);
  }
  for (TokenId id : ids)
    if (id >= tok.vocab_size()) fail("encode gave an id outside the vocabulary", model);

  std::string decoded = tok.decode(ids, {.skip_special_tokens = false});
  tok.decode(ids, {.skip_special_tokens = true});
  if (model.round_trips && !options.add_special_tokens && decoded != repaired)
    fail("decode(encode(text)) is not the (repaired) text", model);
  return 0;
}
