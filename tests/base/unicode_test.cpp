// Unicode tables: taken from the reference (Unicode 16), so newer characters than Debian's
// PCRE2 and utf8proc know about are classified as the reference classifies them.
#include "base/unicode/unicode.hpp"

#include <gtest/gtest.h>

namespace textedge::detail {
namespace {

TEST(Unicode, Categories) {
  const auto& u = UnicodeTable::get();
  EXPECT_EQ(u.category('A'), Category::Lu);
  EXPECT_EQ(u.category('a'), Category::Ll);
  EXPECT_EQ(u.category('7'), Category::Nd);
  EXPECT_EQ(u.category(0x0301), Category::Mn);
  EXPECT_EQ(u.category(0x4E00), Category::Lo);
  EXPECT_EQ(u.category(0x1F600), Category::So);
  EXPECT_EQ(u.category(0xD800), Category::Cs);
  EXPECT_EQ(u.category(0x2FFFD), Category::Cn);
  EXPECT_EQ(u.category(0x10D50), Category::Lu);  // Garay, new in Unicode 16
  EXPECT_EQ(u.category(0x31350), Category::Lo);  // CJK Extension H, Unicode 15
  EXPECT_TRUE(u.in(0x10D50, kLetter));
  EXPECT_FALSE(u.in(0x10FFFF, kLetter));
}

TEST(Unicode, SpaceIsOnigurumaWhiteSpace) {
  const auto& u = UnicodeTable::get();
  for (char32_t c : {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000})
    EXPECT_TRUE(u.is_space(c)) << std::hex << static_cast<unsigned>(c);
  for (char32_t c : {0x1C, 0x1F, 0x180E, 0x200B, 0xFEFF, 0x61}) EXPECT_FALSE(u.is_space(c)) << std::hex << static_cast<unsigned>(c);
}

TEST(Unicode, RangesCoverEveryCodePointOnce) {
  const auto& u = UnicodeTable::get();
  std::size_t total = 0;
  for (unsigned c = 0; c < 30; ++c)
    for (auto [a, b] : u.ranges_of(mask(static_cast<Category>(c)))) total += b - a + 1;
  EXPECT_EQ(total, 0x110000u);
  EXPECT_EQ(category_mask_by_name("L"), static_cast<std::int64_t>(kLetter));
  EXPECT_EQ(category_mask_by_name("Lowercase_Letter"), static_cast<std::int64_t>(mask(Category::Ll)));
  EXPECT_EQ(category_mask_by_name("Nope"), -1);
}

}  // namespace
}  // namespace textedge::detail
