// ByteLevel normalizer: rewrites every byte of the text as its GPT-2 byte-level character.
#include <array>

#include "tokenizer/byte_level.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

// The UTF-8 encoding of each byte's character (all below U+0144, so at most two bytes).
struct EncodedByte {
  char bytes[2];
  unsigned char length;
};

constexpr std::array<EncodedByte, 256> make_encoded_bytes() {
  std::array<EncodedByte, 256> table{};
  for (int b = 0; b < 256; ++b) {
    char32_t cp = kByteLevel.to_unicode[b];
    if (cp < 0x80)
      table[b] = {{static_cast<char>(cp), 0}, 1};
    else
      table[b] = {{static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))}, 2};
  }
  return table;
}

constexpr std::array<EncodedByte, 256> kEncodedBytes = make_encoded_bytes();

class ByteLevel final : public Normalizer {
 public:
  void normalize(std::string& text) const override {
    std::string out;
    out.reserve(text.size() * 2);
    for (char c : text) {
      const EncodedByte& e = kEncodedBytes[static_cast<unsigned char>(c)];
      out.append(e.bytes, e.length);
    }
    text.swap(out);
  }

  std::string describe() const override { return "ByteLevel"; }
};

}  // namespace

std::unique_ptr<Normalizer> byte_level_from_json(const Json&) { return std::make_unique<ByteLevel>(); }

}  // namespace textedge::detail::normalizers
