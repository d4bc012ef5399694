// Micro-benchmarks of the hot paths, in bytes/s. The side-by-side comparison with the
// reference is scripts/bench_compare.sh; these are for looking at one change at a time.
//   build/textedge_bench --benchmark_filter=Encode
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "textedge/textedge.hpp"

namespace {

std::string sample_text() {
  // The benchmark corpus when scripts/make_corpus.py has run; otherwise a built-in mix.
  std::ifstream f(std::string(TEXTEDGE_SOURCE_DIR) + "/build/corpus/bench.txt");
  std::stringstream ss;
  if (f) {
    ss << f.rdbuf();
    return ss.str().substr(0, 1 << 20);
  }
  std::string s;
  while (s.size() < (1 << 20))
    s += "The quick brown fox jumps over the lazy dog. It's 12:45 — déjà vu! 東京 🙂\n"
         "for (int i = 0; i < n; ++i) { sum += values[i] * 2; }\n";
  return s;
}

void encode_model(benchmark::State& state, const char* model) {
  auto tok = textedge::Tokenizer::load(std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + model);
  std::string text = sample_text();
  for (auto _ : state) benchmark::DoNotOptimize(tok.encode(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void decode_model(benchmark::State& state, const char* model) {
  auto tok = textedge::Tokenizer::load(std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + model);
  std::string text = sample_text();
  auto ids = tok.encode(text);
  for (auto _ : state) benchmark::DoNotOptimize(tok.decode(ids));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

}  // namespace

BENCHMARK_CAPTURE(encode_model, Encode_qwen3, "qwen3")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(encode_model, Encode_llama3_1, "llama3_1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(encode_model, Encode_gemma3, "gemma3")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decode_model, Decode_qwen3, "qwen3")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decode_model, Decode_gemma3, "gemma3")->Unit(benchmark::kMillisecond);
