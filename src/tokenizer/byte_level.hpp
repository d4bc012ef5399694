// GPT-2's byte-level alphabet: every byte maps to one printable code point, so byte-level
// vocabularies can be stored as text in tokenizer.json. textedge keys those vocabularies by
// the raw bytes instead, and uses these tables only at load time and in ByteLevel decoding.
#pragma once

#include <array>
#include <cstdint>

namespace textedge::detail {

struct ByteLevelAlphabet {
  std::array<char32_t, 256> to_unicode{};
  // Inverse, indexed by code point; only code points below 324 are in the alphabet.
  std::array<std::int16_t, 324> to_byte{};

  constexpr ByteLevelAlphabet() {
    for (auto& b : to_byte) b = -1;
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      to_unicode[b] = printable ? static_cast<char32_t>(b) : next++;
      to_byte[to_unicode[b]] = static_cast<std::int16_t>(b);
    }
  }
};

inline constexpr ByteLevelAlphabet kByteLevel{};

inline char32_t byte_to_unicode(unsigned char b) { return kByteLevel.to_unicode[b]; }
// -1 for code points outside the alphabet.
inline int unicode_to_byte(char32_t cp) { return cp < 324 ? kByteLevel.to_byte[cp] : -1; }

}  // namespace textedge::detail
