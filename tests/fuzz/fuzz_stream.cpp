// Streaming decode of arbitrary id sequences in arbitrary steps, on real tokenizers. Checked:
// - Detokenizer: the prompt's certain text, then every step's text and finish()'s equal
//   decode(prompt + ids); so does the text so far plus finish() of a copy taken at a boundary.
// - TextStream without stop strings (EOS ignored): the same text.
// - TextStream with stop strings taken from that text: the text up to where the first stop to
//   complete begins (or ends, with include_stop_str_in_output).
// skip_special_tokens off, on, and on while keeping some special tokens (the text is then decode's
// with exactly the other special tokens removed).
//
// Input: a 4-byte header, then 3-byte records. Header: [0] model (bits 0-1), special-token mode
// (bits 2-3), a prompt (bit 4), the stop-string check (bit 5), include_stop_str_in_output (bit 6);
// [1] the prompt's length in records; [2], [3] where the stop string is cut from the text.
// A record's top two bits: 0 any id (22 bits, a few beyond the vocabulary), 1 an id whose bytes
// are not a whole character (to cut characters), 2 an added token, 3 a step boundary (with bit 21:
// a copy of the Detokenizer is finished there).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/detokenizer.hpp"
#include "textedge/stream.hpp"
#include "textedge/tokenizer.hpp"

using namespace textedge;

namespace {

constexpr const char* kModels[] = {"qwen3", "llama3_1", "llama2", "gemma3"};
constexpr std::size_t kModelCount = sizeof(kModels) / sizeof(kModels[0]);

bool is_whole_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80                 ? 1
                      : c >= 0xC2 && c <= 0xDF ? 2
                      : c >= 0xE0 && c <= 0xEF ? 3
                      : c >= 0xF0 && c <= 0xF4 ? 4
                                               : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

struct Model {
  Tokenizer tokenizer;
  std::vector<TokenId> partial;  // ids whose bytes are not whole characters (byte tokens among them)
  std::vector<TokenId> added;    // added tokens, special or not
  std::vector<TokenId> special;
};

const Model& model(std::size_t i) {
  static std::optional<Model> loaded[kModelCount];
  if (!loaded[i]) {
    Model m{Tokenizer::load(std::string(TEXTEDGE_MODELS_DIR) + "/" + kModels[i]), {}, {}, {}};
    for (TokenId id = 0; id < m.tokenizer.vocab_size(); ++id) {
      std::string_view bytes = m.tokenizer.token_bytes(id);
      if (!bytes.empty() && !is_whole_utf8(bytes)) m.partial.push_back(id);
    }
    for (const SpecialToken& t : m.tokenizer.info().added_tokens) {
      m.added.push_back(t.id);
      if (m.tokenizer.is_special(t.id)) m.special.push_back(t.id);
    }
    loaded[i] = std::move(m);
  }
  return *loaded[i];
}

// The failing case, for reproducing it elsewhere (e.g. against the reference).
struct Case {
  const char* model;
  std::span<const TokenId> ids;
  std::size_t prompt_size;
  const DetokenizeOptions* options;
};

[[noreturn]] void fail(const char* what, const Case& c, std::string_view got, std::string_view want) {
  auto show = [](std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
      if (c >= 0x20 && c < 0x7F && c != '\\') {
        out += static_cast<char>(c);
      } else {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", c);
        out += hex;
      }
    }
    return out;
  };
  std::fprintf(stderr,
               "%s (%s, skip_special_tokens=%d, %zu kept, prompt of %zu ids)\n  got:  %s\n  want: %s\n  ids:", what,
               c.model, c.options->skip_special_tokens, c.options->keep_special_tokens.size(), c.prompt_size,
               show(got).c_str(), show(want).c_str());
  for (TokenId id : c.ids) std::fprintf(stderr, " %u", id);
  std::fprintf(stderr, "\n");
  std::abort();
}

// Moves `at` back to the start of the UTF-8 character it is in.
std::size_t char_start(std::string_view s, std::size_t at) {
  while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (std::size_t i = 0; i < kModelCount; ++i) model(i);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::size_t model_index = data[0] % kModelCount;
  const Model& m = model(model_index);
  const Tokenizer& tok = m.tokenizer;
  const unsigned special_mode = (data[0] >> 2) & 3;  // 0, 3: keep all; 1: skip; 2: skip but keep some
  const bool with_prompt = data[0] & 0x10, check_stops = data[0] & 0x20, include_stop = data[0] & 0x40;

  // The ids, the step boundaries (index into ids) and where finish() is called.
  std::vector<TokenId> ids;
  std::vector<std::size_t> boundaries;
  std::set<std::size_t> finishes;
  for (std::size_t i = 4; i + 3 <= size; i += 3) {
    std::uint32_t value = (std::uint32_t{data[i]} & 0x3F) << 16 | std::uint32_t{data[i + 1]} << 8 | data[i + 2];
    switch (data[i] >> 6) {
      case 0:
        ids.push_back(value % (tok.vocab_size() + 4));
        break;
      case 1:
        ids.push_back(m.partial[value % m.partial.size()]);
        break;
      case 2:
        ids.push_back(m.added[value % m.added.size()]);
        break;
      default:
        boundaries.push_back(ids.size());
        if (value & 0x200000) finishes.insert(ids.size());
    }
  }
  std::size_t prompt_size = with_prompt ? std::min<std::size_t>(data[1], ids.size()) : 0;
  std::span<const TokenId> prompt(ids.data(), prompt_size);
  std::span<const TokenId> generated(ids.data() + prompt_size, ids.size() - prompt_size);

  DetokenizeOptions options{.skip_special_tokens = special_mode == 1 || special_mode == 2};
  if (special_mode == 2)
    for (std::size_t k = 0; k < m.special.size(); k += 2) options.keep_special_tokens.push_back(m.special[k]);
  // What decode gives for ids under these options.
  auto decode = [&](std::span<const TokenId> part) {
    if (special_mode != 2) return tok.decode(part, {.skip_special_tokens = options.skip_special_tokens});
    std::vector<TokenId> kept;
    for (TokenId id : part)
      if (!tok.is_special(id) || std::find(options.keep_special_tokens.begin(), options.keep_special_tokens.end(),
                                           id) != options.keep_special_tokens.end())
        kept.push_back(id);
    return tok.decode(kept);
  };

  // Steps: from one boundary to the next, counted in generated ids.
  std::vector<std::size_t> cuts{0};
  for (std::size_t b : boundaries)
    if (b > prompt_size && b - prompt_size > cuts.back()) cuts.push_back(b - prompt_size);
  if (cuts.back() != generated.size()) cuts.push_back(generated.size());

  const Case failing{kModels[model_index], ids, prompt_size, &options};
  const std::string certain = Detokenizer(tok, {}, options).step(prompt);

  // Detokenizer: at each marked boundary a copy of the stream (a branch) is finished, and what it
  // gives completes the text of the ids so far; the stream itself goes on to the end.
  {
    Detokenizer stream(tok, prompt, options);
    std::string text = certain;
    for (std::size_t k = 1; k < cuts.size(); ++k) {
      stream.step(generated.subspan(cuts[k - 1], cuts[k] - cuts[k - 1]), text);
      std::size_t end = prompt_size + cuts[k];
      if (finishes.count(end) && end != ids.size()) {
        std::string branch = text + Detokenizer(stream).finish();
        std::string want = decode(std::span(ids).first(end));
        if (branch != want) fail("Detokenizer: a finished branch differs from decode", failing, branch, want);
      }
    }
    stream.finish(text);
    std::string want = decode(ids);
    if (text != want) fail("Detokenizer: streamed text differs from decode", failing, text, want);
  }

  // TextStream without stop strings gives the same text, with one finish() at the end.
  StreamOptions stream_options{.skip_special_tokens = options.skip_special_tokens,
                               .keep_special_tokens = options.keep_special_tokens,
                               .ignore_eos = true};
  const std::string whole = decode(ids);
  std::string generated_text;
  {
    TextStream stream(tok, prompt, stream_options);
    for (std::size_t k = 1; k < cuts.size(); ++k) {
      StreamDelta delta = stream.step(generated.subspan(cuts[k - 1], cuts[k] - cuts[k - 1]));
      if (delta.finish_reason != FinishReason::kNone) fail("TextStream ended without a stop", failing, delta.text, "");
      generated_text += delta.text;
    }
    generated_text += stream.finish().text;
    if (certain + generated_text != whole)
      fail("TextStream: streamed text differs from decode", failing, certain + generated_text, whole);
  }

  // With stop strings cut from the generated text (at character boundaries): the stream ends where
  // the first stop to complete begins (at equal ends, the longest wins).
  if (check_stops && !generated_text.empty()) {
    std::string_view text = generated_text;
    std::size_t from = char_start(text, data[2] % text.size());
    std::size_t to = std::min(text.size(), from + 1 + data[3] % 8);
    while (to < text.size() && (static_cast<unsigned char>(text[to]) & 0xC0) == 0x80) ++to;
    stream_options.stop = {std::string(text.substr(from, to - from)), text[from] == '\n' ? "\n\n" : "\n"};
    stream_options.include_stop_str_in_output = include_stop;
    std::size_t best_end = std::string::npos, best_size = 0;
    for (const std::string& stop : stream_options.stop) {
      std::size_t at = text.find(stop);
      if (at == std::string::npos) continue;
      std::size_t end = at + stop.size();
      if (end < best_end || (end == best_end && stop.size() > best_size)) best_end = end, best_size = stop.size();
    }
    std::string want(text.substr(0, include_stop ? best_end : best_end - best_size));

    TextStream stream(tok, prompt, stream_options);
    std::string got;
    bool stopped = false;
    for (std::size_t k = 1; k < cuts.size() && !stopped; ++k) {
      StreamDelta delta = stream.step(generated.subspan(cuts[k - 1], cuts[k] - cuts[k - 1]));
      got += delta.text;
      stopped = delta.finish_reason == FinishReason::kStop;
    }
    if (!stopped) {
      StreamDelta delta = stream.finish();
      got += delta.text;
      stopped = delta.finish_reason == FinishReason::kStop;
    }
    if (!stopped) fail("TextStream: a stop string in the text did not stop it", failing, got, want);
    if (got != want) fail("TextStream: text up to the stop string differs", failing, got, want);
  }
  return 0;
}
