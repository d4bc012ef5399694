// Tokenizer::load on its own, for looking at one change to loading at a time (the side-by-side
// figure against the reference is scripts/bench_compare.sh's load column, best of five loads):
//   build/textedge_bench --benchmark_filter=Load
// Load_*: loads one after another, the previous tokenizer freed untimed (as bench_compare's
// loads); LoneLoad_*: each after 50 ms idle, when the loader's pool worker sleeps (a server's
// one load at start). Each is repeated five times; the "min" row is the figure to compare.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "textedge/textedge.hpp"

namespace {

std::string model_path(const char* model) { return std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + model; }

void load(benchmark::State& state, const char* model, bool lone) {
  const std::string path = model_path(model);
  std::optional<textedge::Tokenizer> tok;
  for (auto _ : state) {
    state.PauseTiming();
    tok.reset();
    if (lone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    state.ResumeTiming();
    tok.emplace(textedge::Tokenizer::load(path));
  }
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

void register_all() {
  for (const char* model : {"qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"})
    for (bool lone : {false, true})
      benchmark::RegisterBenchmark((std::string(lone ? "LoneLoad_" : "Load_") + model).c_str(),
                                   [model, lone](benchmark::State& s) { load(s, model, lone); })
          ->Unit(benchmark::kMillisecond)
          ->Repetitions(5)
          ->ComputeStatistics("min", min_of)
          ->ReportAggregatesOnly(true);
}

const bool registered = (register_all(), true);

}  // namespace
