// The regex split alone, the hottest step after BPE, in bytes/s: the Llama 3 pattern on its fast
// path, the same pattern through PCRE2 (wrapped in a group, it is no longer recognised), and the
// whole pre_tokenizer of llama3_1 and deepseek_v3 as their tokenizer.json declares it. Each runs
// on English prose and code with harder texts mixed in, and again with characters Unicode 15/16
// added, which send Regex to its slower exact program.
//   build/textedge_bench --benchmark_filter=Split
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "base/json_dom.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace {

using textedge::detail::JsonDocument;
using textedge::detail::PreTokenizer;

const std::string kLlama3Split =
    R"({"type":"Split","pattern":{"Regex":)"
    R"("(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},)"
    R"("behavior":"Isolated","invert":false})";

std::string llama3_split_via_pcre2() {
  std::string json = kLlama3Split;
  json.replace(json.find("\"(?i:"), 1, "\"(?:");
  json.replace(json.find("\"},\"behavior"), 1, ")\"");
  return json;
}

// English prose and code, then in turn one of the harder texts (and the Unicode 15/16 one when
// asked for), until `bytes`.
std::string mixed_text(std::size_t bytes, bool with_unicode16) {
  const std::string english =
      "The quick brown fox jumps over the lazy dog. It's 2024, and we've shipped 1,234 releases; "
      "don't you think they'll notice? Email me at someone@example.com or call +1 (555) 010-9999.\n"
      "    def encode(self, text: str) -> list[int]:\n        return [ord(c) for c in text]  # TODO\n\n";
  const char* harder[] = {
      "Hello, world! It's 2024 \u2014 they'll've DON'T 'S and I'M fine'd",
      "  leading and trailing  \n\n\tTabs\r\nCRLF  ",
      "\u6570\u5b57123\uff14\uff15\uff16 \u6f22\u5b57\u3068\u30ab\u30bf\u30ab\u30ca\u3001\u3072\u3089\u304c\u306a\u3002"
      "\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8",
      "emoji \U0001F600\U0001F44D\U0001F3FD family \U0001F468\u200D\U0001F469\u200D\U0001F467 flags "
      "\U0001F1EB\U0001F1F7!",
      "combining: e\u0301 a\u0308\u0304 Z\u0335\u0321 \u2014 \u0928\u092e\u0938\u094d\u0924\u0947 "
      "\u0645\u0631\u062d\u0628\u0627",
      "numbers 1234567 3.14159 1,000,000 \u0661\u0662\u0663 \u217b \u00bd \u00b2\u00b3",
  };
  const char* unicode16 =
      "new: \u1c89\u1c8a \U00010D50\U00010D70 \U0001E4D0x \U00011F00 \U00016130\U00016131 \U00031350";
  std::string out;
  for (std::size_t k = 0; out.size() < bytes; ++k) {
    out += english;
    out += english;
    out += k % 7 == 6 ? (with_unicode16 ? unicode16 : "") : harder[k % 7];
    out += '\n';
  }
  return out;
}

struct Loaded {
  JsonDocument doc;
  std::unique_ptr<PreTokenizer> pre_tokenizer;
};

Loaded from_json(const std::string& json) {
  JsonDocument doc(std::string_view(json), "bench.json");
  auto pre_tokenizer = textedge::detail::pre_tokenizer_from_json(doc.root());
  return {std::move(doc), std::move(pre_tokenizer)};
}

Loaded from_model(const std::string& model) {
  auto doc = JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + model + "/tokenizer.json");
  auto pre_tokenizer = textedge::detail::pre_tokenizer_from_json(doc.root().get("pre_tokenizer"));
  return {std::move(doc), std::move(pre_tokenizer)};
}

void split(benchmark::State& state, Loaded (*load)(), bool with_unicode16) {
  Loaded loaded = load();
  const std::string text = mixed_text(4 << 20, with_unicode16);
  std::size_t pieces = 0;
  for (auto _ : state) {
    loaded.pre_tokenizer->pre_tokenize(text, true, [&](std::string_view, bool) { ++pieces; });
    benchmark::DoNotOptimize(pieces);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

Loaded llama3_regex() { return from_json(kLlama3Split); }
Loaded llama3_regex_pcre2() { return from_json(llama3_split_via_pcre2()); }
Loaded llama3_1() { return from_model("llama3_1"); }
Loaded deepseek_v3() { return from_model("deepseek_v3"); }

}  // namespace

BENCHMARK_CAPTURE(split, Split_llama3_regex, llama3_regex, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_llama3_regex_pcre2, llama3_regex_pcre2, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_llama3_1_pre_tokenizer, llama3_1, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_deepseek_v3_pre_tokenizer, deepseek_v3, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_llama3_regex_unicode16, llama3_regex, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_llama3_regex_pcre2_unicode16, llama3_regex_pcre2, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_llama3_1_pre_tokenizer_unicode16, llama3_1, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(split, Split_deepseek_v3_pre_tokenizer_unicode16, deepseek_v3, true)->Unit(benchmark::kMillisecond);
