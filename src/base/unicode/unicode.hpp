// Unicode character properties exactly as the reference's regex engine sees them (Unicode 16
// tables taken from Hugging Face tokenizers by tools/reference/unicode_tables.js), for the
// pre-tokenizer fast paths and for regex translation.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <span>
#include <utility>

namespace textedge::detail {

enum class Category : std::uint8_t {
  Cn, Lu, Ll, Lt, Lm, Lo, Mn, Mc, Me, Nd, Nl, No, Pc, Pd, Ps, Pe, Pi, Pf, Po,
  Sm, Sc, Sk, So, Zs, Zl, Zp, Cc, Cf, Co, Cs,
};

// Bit masks of categories (1 << Category), for testing membership in a group at once.
using CategoryMask = std::uint32_t;
constexpr CategoryMask mask(Category c) { return CategoryMask{1} << static_cast<unsigned>(c); }
constexpr CategoryMask kLetter = mask(Category::Lu) | mask(Category::Ll) | mask(Category::Lt) | mask(Category::Lm) | mask(Category::Lo);
constexpr CategoryMask kMark = mask(Category::Mn) | mask(Category::Mc) | mask(Category::Me);
constexpr CategoryMask kNumber = mask(Category::Nd) | mask(Category::Nl) | mask(Category::No);
constexpr CategoryMask kPunctuation = mask(Category::Pc) | mask(Category::Pd) | mask(Category::Ps) | mask(Category::Pe) |
                                      mask(Category::Pi) | mask(Category::Pf) | mask(Category::Po);
constexpr CategoryMask kSymbol = mask(Category::Sm) | mask(Category::Sc) | mask(Category::Sk) | mask(Category::So);

// Per code point: its category in the low 5 bits, and kSpaceBit when the reference's \s
// matches it.
constexpr std::uint8_t kSpaceBit = 0x80;

class UnicodeTable {
 public:
  static const UnicodeTable& get();  // built once, on first use (~2 ms)
  std::uint8_t flags(char32_t cp) const {
    if (cp >= 0x110000) return 0;
    return blocks_[(static_cast<std::uint32_t>(block_of_[cp >> 8]) << 8) | (cp & 0xFF)];
  }
  Category category(char32_t cp) const { return static_cast<Category>(flags(cp) & 0x1F); }
  bool in(char32_t cp, CategoryMask m) const { return (m >> (flags(cp) & 0x1F)) & 1; }
  bool is_space(char32_t cp) const { return flags(cp) & kSpaceBit; }

  // Ranges of code points whose category is in `m` (sorted, merged), for regex translation.
  std::span<const std::pair<char32_t, char32_t>> ranges_of(CategoryMask m) const;
  std::span<const std::pair<char32_t, char32_t>> space_ranges() const;

 private:
  UnicodeTable();
  std::uint16_t block_of_[0x110000 >> 8];
  std::unique_ptr<std::uint8_t[]> blocks_;
};

// Category names as in \p{..}: "Lu", "L", "Letter", "Uppercase_Letter", ...; -1 if unknown.
std::int64_t category_mask_by_name(std::string_view name);

}  // namespace textedge::detail
