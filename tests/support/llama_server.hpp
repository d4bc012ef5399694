// llama.cpp's llama-server for tests: started on a free loopback port, ready once GET /health
// gives 200, killed when the object goes; and a small synchronous HTTP/1.1 client (Boost.Beast,
// header-only) to talk to it. scripts/engine.sh builds the server and the model:
//   eval "$(scripts/engine.sh)"   # sets LLAMA_SERVER and ENGINE_MODEL
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace test_support {

struct HttpResponse {
  int status = 0;
  std::string body;
};

// One request to 127.0.0.1:`port` on a new connection. Throws std::runtime_error when the
// connection fails or the whole exchange takes longer than `timeout`.
inline HttpResponse http_request(unsigned short port, boost::beast::http::verb method, const std::string& target,
                                 const std::string& json_body = "",
                                 std::chrono::seconds timeout = std::chrono::seconds(600)) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  http::request<http::string_body> request{method, target, 11};
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::connection, "close");
  if (!json_body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = json_body;
  }
  request.prepare_payload();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(256u << 20);
  // Asynchronous operations on one thread, because only they honour the stream's deadline.
  beast::error_code error;
  stream.expires_after(timeout);
  stream.async_connect({boost::asio::ip::make_address("127.0.0.1"), port}, [&](beast::error_code ec) {
    if (ec) return void(error = ec);
    http::async_write(stream, request, [&](beast::error_code ec, std::size_t) {
      if (ec) return void(error = ec);
      http::async_read(stream, buffer, parser, [&](beast::error_code ec, std::size_t) { error = ec; });
    });
  });
  io.run();
  if (error) throw std::runtime_error(std::string(http::to_string(method)) + " " + target + ": " + error.message());
  return {static_cast<int>(parser.get().result_int()), parser.get().body()};
}

// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
inline unsigned short free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("no free loopback port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

class LlamaServer {
 public:
  // Runs `binary` with `args` plus --host 127.0.0.1 --port P, its output to a log file, and
  // waits until GET /health gives 200. Throws (with the log's tail) if it exits or is not ready
  // within `ready_timeout`.
  LlamaServer(const std::string& binary, const std::vector<std::string>& args,
              std::chrono::seconds ready_timeout = std::chrono::seconds(180))
      : port_(free_loopback_port()) {
    log_path_ = (std::filesystem::temp_directory_path() /
                 ("textedge-llama-server-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log"))
                    .string();
    std::vector<std::string> argv_strings = {binary};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    for (std::string a : {"--host", "127.0.0.1", "--port"}) argv_strings.push_back(a);
    argv_strings.push_back(std::to_string(port_));
    std::vector<char*> argv;
    for (auto& a : argv_strings) argv.push_back(a.data());
    argv.push_back(nullptr);
    int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) throw std::runtime_error("cannot write " + log_path_);
    pid_ = ::fork();
    if (pid_ == 0) {
      // The child: only async-signal-safe calls until exec. It dies with the test process.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::dup2(log, STDOUT_FILENO);
      ::dup2(log, STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(log);
    if (pid_ < 0) throw std::runtime_error("fork failed");
    auto deadline = std::chrono::steady_clock::now() + ready_timeout;
    while (true) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error(binary + " exited (status " + std::to_string(status) + ") before it was ready:\n" +
                                 log_tail());
      }
      try {
        if (get("/health", std::chrono::seconds(5)).status == 200) break;
      } catch (const std::runtime_error&) {
        // not listening yet
      }
      if (std::chrono::steady_clock::now() > deadline) {
        stop();
        throw std::runtime_error(binary + " not ready after " + std::to_string(ready_timeout.count()) + " s:\n" +
                                 log_tail());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  ~LlamaServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove(log_path_, ignored);
  }
  LlamaServer(const LlamaServer&) = delete;
  LlamaServer& operator=(const LlamaServer&) = delete;

  unsigned short port() const { return port_; }
  const std::string& log_path() const { return log_path_; }

  HttpResponse get(const std::string& target, std::chrono::seconds timeout = std::chrono::seconds(600)) const {
    return http_request(port_, boost::beast::http::verb::get, target, "", timeout);
  }
  HttpResponse post_json(const std::string& target, const std::string& json,
                         std::chrono::seconds timeout = std::chrono::seconds(600)) const {
    return http_request(port_, boost::beast::http::verb::post, target, json, timeout);
  }

  // The last `bytes` of the server's output, for failure messages.
  std::string log_tail(std::size_t bytes = 4000) const {
    std::ifstream in(log_path_, std::ios::binary);
    std::stringstream all;
    all << in.rdbuf();
    std::string s = all.str();
    return s.size() > bytes ? "..." + s.substr(s.size() - bytes) : s;
  }

 private:
  // SIGTERM, then SIGKILL if it has not exited within 10 s.
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return void(pid_ = -1);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  unsigned short port_;
  pid_t pid_ = -1;
  std::string log_path_;
};

}  // namespace test_support
