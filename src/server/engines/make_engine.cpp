#include <charconv>

#include "server/engine.hpp"
#include "server/engines/llamacpp.hpp"
#include "server/engines/scripted.hpp"

namespace textedge::server {

std::unique_ptr<Engine> make_engine(const std::string& url, const Tokenizer& tokenizer, asio::any_io_executor,
                                    const EngineOptions& options) {
  auto bad = [&](const std::string& why, std::size_t offset) -> InputError {
    return InputError("engine \"" + url + "\": " + why, offset);
  };
  constexpr std::string_view kScripted = "scripted:", kLlamaCpp = "llamacpp://";
  if (url.starts_with(kScripted)) {
    std::string file = url.substr(kScripted.size());
    if (file.empty()) throw bad("no file after scripted:", kScripted.size());
    return std::make_unique<ScriptedEngine>(file, tokenizer, options);
  }
  if (url.starts_with(kLlamaCpp)) {
    std::string_view rest = std::string_view(url).substr(kLlamaCpp.size());
    if (rest.ends_with('/')) rest.remove_suffix(1);
    std::string_view host;
    std::size_t port_at;          // in rest, after the ':'
    if (rest.starts_with('[')) {  // [IPv6]:PORT
      std::size_t close = rest.find(']');
      if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':')
        throw bad("expected [IPV6]:PORT", kLlamaCpp.size());
      host = rest.substr(1, close - 1);
      port_at = close + 2;
    } else {
      std::size_t colon = rest.rfind(':');
      if (colon == std::string_view::npos) throw bad("expected llamacpp://HOST:PORT", url.size());
      host = rest.substr(0, colon);
      port_at = colon + 1;
    }
    if (host.empty() || host.find_first_of("/?#@ ") != std::string_view::npos)
      throw bad("bad host \"" + std::string(host) + "\"", kLlamaCpp.size());
    std::string_view digits = rest.substr(port_at);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || port == 0 || port > 65535)
      throw bad("bad port \"" + std::string(digits) + "\" (expected 1 to 65535)", kLlamaCpp.size() + port_at);
    return std::make_unique<LlamaCppEngine>(std::string(host), static_cast<std::uint16_t>(port), tokenizer, options);
  }
  throw bad("unknown engine (expected llamacpp://HOST:PORT or scripted:FILE)", 0);
}

}  // namespace textedge::server
