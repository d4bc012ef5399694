// Prometheus metrics of textedge serve (text format 0.0.4), lock-free counters and histograms.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace textedge::server {

class Histogram {
 public:
  // Bucket upper bounds in seconds, from 100 us to 60 s.
  static constexpr std::array<double, 16> kBounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                  0.05,   0.1,     0.25,   0.5,   1,      2.5,   10,    60};
  void observe(double seconds);
  void write(std::string& out, const char* name, const char* help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<std::uint64_t> sum_ns_{0};
};

struct Metrics {
  Histogram ttft, inter_token, request_duration;
  Histogram template_time, tokenize_time, detokenize_parse_time;
  std::atomic<std::uint64_t> prompt_tokens{0}, generation_tokens{0};
  std::atomic<std::uint64_t> prompt_cache_hits{0}, prompt_cache_reused_bytes{0}, prompt_bytes{0};
  std::atomic<std::int64_t> running{0}, waiting{0};
  std::atomic<std::uint64_t> requests_ok{0}, requests_client_error{0}, requests_server_error{0};
  std::atomic<std::uint64_t> client_disconnects{0}, slow_client_aborts{0}, engine_errors{0}, rejected_busy{0};
  std::string text(bool engine_healthy) const;
};

}  // namespace textedge::server
