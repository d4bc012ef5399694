// ByteFallback decoder: turns runs of "<0xNN>" tokens back into the bytes they stand for.
#include "base/utf8.hpp"
#include "tokenizer/decoders/decoder.hpp"

namespace textedge::detail::decoders {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The byte a "<0xNN>" token stands for, or -1. The two characters are parsed as Rust's
// u8::from_str_radix(_, 16) does, which also accepts a leading '+' ("<0x+A>" is 0x0A).
int byte_token_value(std::string_view t) {
  if (t.size() != 6 || t[0] != '<' || t[1] != '0' || t[2] != 'x' || t[5] != '>') return -1;
  int lo = hex_digit(t[4]);
  if (lo < 0) return -1;
  if (t[3] == '+') return lo;
  int hi = hex_digit(t[3]);
  return hi < 0 ? -1 : hi * 16 + lo;
}

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";

class ByteFallback final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    // Compacts in place: a run of N byte tokens yields one token or N, so the write index never
    // passes the read index.
    std::string run;
    std::size_t write = 0, run_length = 0;
    auto flush = [&] {
      if (run_length == 0) return;
      if (find_invalid_utf8(run) == std::string_view::npos) {
        tokens[write++].assign(run);
      } else {
        // One U+FFFD per byte token of the run, even for bytes that were valid on their own.
        for (std::size_t k = 0; k < run_length; ++k) tokens[write++].assign(kReplacementChar);
      }
      run.clear();
      run_length = 0;
    };
    for (std::size_t read = 0; read < tokens.size(); ++read) {
      int byte = byte_token_value(tokens[read]);
      if (byte >= 0) {
        run.push_back(static_cast<char>(byte));
        ++run_length;
        continue;
      }
      flush();
      if (write != read) tokens[write] = std::move(tokens[read]);
      ++write;
    }
    flush();
    tokens.resize(write);
  }

  // The raw byte, even when it is not valid UTF-8 on its own.
  void map_token(std::string& token) const override {
    int byte = byte_token_value(token);
    if (byte >= 0) token.assign(1, static_cast<char>(byte));
  }

  Kind kind() const override { return Kind::kByteFallback; }
  int byte_value(std::string_view token) const override { return byte_token_value(token); }
  std::string describe() const override { return "ByteFallback"; }
};

}  // namespace

std::unique_ptr<Decoder> byte_fallback_from_json(const Json&) { return std::make_unique<ByteFallback>(); }

}  // namespace textedge::detail::decoders
