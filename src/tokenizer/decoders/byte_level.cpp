// ByteLevel decoder: maps GPT-2's byte alphabet back to raw bytes and joins every token into
// one, repairing invalid UTF-8 as Rust's String::from_utf8_lossy does.
#include <cstdint>
#include <cstring>

#include "base/utf8.hpp"
#include "tokenizer/byte_level.hpp"
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/json_fields.hpp"

namespace textedge::detail::decoders {
namespace {

// Byte for each two-byte character of the alphabet (U+0080..U+017F), indexed by
// ((lead - 0xC2) << 6) | (continuation & 0x3F); -1 outside the alphabet.
struct TwoByteTable {
  std::int16_t byte[4 << 6];
  constexpr TwoByteTable() : byte() {
    for (int i = 0; i < (4 << 6); ++i) byte[i] = 0x80 + i < 324 ? kByteLevel.to_byte[0x80 + i] : std::int16_t{-1};
  }
};
constexpr TwoByteTable kTwoByte{};

// Writes the bytes `token` spells in the byte alphabet to `out` and returns their count, or
// returns npos when some character is outside the alphabet. Output is never longer than input.
std::size_t alphabet_to_bytes(std::string_view token, char* out) {
  std::size_t n = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(token.data());
  const auto* end = p + token.size();
  while (p < end) {
    unsigned b = *p;
    if (b - '!' <= unsigned('~' - '!')) {  // printable ASCII stands for itself
      out[n++] = static_cast<char>(b);
      ++p;
      continue;
    }
    unsigned lead = b - 0xC2;  // the rest of the alphabet is U+00A1..U+0143
    if (lead >= 4 || p + 1 >= end) return std::string_view::npos;
    int byte = kTwoByte.byte[(lead << 6) | (p[1] & 0x3F)];
    if (byte < 0) return std::string_view::npos;
    out[n++] = static_cast<char>(byte);
    p += 2;
  }
  return n;
}

class ByteLevel final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::size_t total = 0;
    for (const auto& t : tokens) total += t.size();
    std::string bytes;
    bytes.resize(total);
    char* out = bytes.data();
    std::size_t n = 0;
    for (const auto& t : tokens) {
      std::size_t m = alphabet_to_bytes(t, out + n);
      if (m == std::string_view::npos) {  // a token outside the alphabet is kept as it is
        std::memcpy(out + n, t.data(), t.size());
        m = t.size();
      }
      n += m;
    }
    bytes.resize(n);
    if (find_invalid_utf8(bytes) != std::string_view::npos) bytes = utf8_lossy(bytes);
    // The reference always returns exactly one token, even for an empty list.
    tokens.resize(1);
    tokens[0] = std::move(bytes);
  }

  // Raw bytes of the token, without UTF-8 repair; tokens outside the alphabet are unchanged.
  void map_token(std::string& token) const override {
    std::string bytes(token.size(), '\0');
    std::size_t m = alphabet_to_bytes(token, bytes.data());
    if (m == std::string_view::npos) return;
    bytes.resize(m);
    token.swap(bytes);
  }

  bool is_bytewise() const override { return true; }
  std::string describe() const override { return "ByteLevel"; }
};

}  // namespace

std::unique_ptr<Decoder> byte_level_from_json(const Json& json) {
  // Pre-tokenizer options shared with the JSON type; required by the reference, unused here.
  json.get("add_prefix_space").boolean();
  json.get("trim_offsets").boolean();
  if (auto use_regex = member_with_default(json, "use_regex")) use_regex->boolean();
  return std::make_unique<ByteLevel>();
}

}  // namespace textedge::detail::decoders
