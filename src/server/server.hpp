// textedge serve: an OpenAI-compatible HTTP frontend in front of a token-level engine
// (docs/serving.md).
#pragma once

#include <cstddef>
#include <string>

namespace textedge::server {

struct ServerOptions {
  std::string model_dir;
  std::string engine;                  // llamacpp://HOST:PORT or scripted:FILE
  std::string host = "127.0.0.1";
  unsigned short port = 8000;          // 0: any free port (printed at start)
  std::string served_model_name;       // default: the model directory's last component
  std::string chat_template;           // a template file instead of the model's
  std::string tool_call_parser = "auto";   // a format of list_formats(), "auto" or "none"
  std::string reasoning_parser = "auto";   // a reasoning format, "auto" or "none"
  std::string api_key;                 // empty: no authentication
  std::size_t max_concurrent = 256;    // requests generating at once
  std::size_t max_queue = 1024;        // requests waiting for a slot; beyond: 429
  std::size_t max_body_bytes = 32u << 20;
  std::size_t max_buffered_bytes = 4u << 20;  // per response, for a client that reads slowly
  std::size_t prompt_cache = 32;       // recent prompts kept to encode their continuations; 0: none
  // I/O threads. One serves 1,000 streams on 2 cores with less CPU and latency than two
  // (docs/performance.md, serving); more pay on machines with many cores.
  unsigned threads = 1;
  double scripted_rate = 0;            // tokens/s per request for scripted: engines
  double shutdown_grace_seconds = 30;  // in-flight requests get this long after SIGINT/SIGTERM
  bool log_requests = true;
};

// Runs until SIGINT or SIGTERM. Throws textedge::Error when the model or engine cannot be set
// up. Prints "textedge serve: listening on http://HOST:PORT" once it accepts requests.
int run_server(const ServerOptions& options);

}  // namespace textedge::server
