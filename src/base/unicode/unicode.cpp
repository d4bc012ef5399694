#include "base/unicode/unicode.hpp"

#include <algorithm>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace textedge::detail {

#include "base/unicode/categories.inc"

namespace {

struct CategoryRange {
  char32_t first, last;
  Category category;
};
constexpr CategoryRange kCategoryRanges[] = {TEXTEDGE_CATEGORY_RANGES};
constexpr std::pair<char32_t, char32_t> kSpaceRanges[] = {TEXTEDGE_SPACE_RANGES};

}  // namespace

UnicodeTable::UnicodeTable() {
  // Expand to one byte per code point, then share identical 256-entry blocks.
  std::vector<std::uint8_t> flat(0x110000, static_cast<std::uint8_t>(Category::Cn));
  for (char32_t c = 0xD800; c <= 0xDFFF; ++c) flat[c] = static_cast<std::uint8_t>(Category::Cs);
  for (const auto& r : kCategoryRanges) std::memset(&flat[r.first], static_cast<int>(r.category), r.last - r.first + 1);
  for (const auto& [a, b] : kSpaceRanges)
    for (char32_t c = a; c <= b; ++c) flat[c] |= kSpaceBit;
  std::vector<std::uint8_t> unique;
  std::map<std::string_view, std::uint16_t> seen;
  for (std::size_t block = 0; block < (0x110000 >> 8); ++block) {
    std::string_view key(reinterpret_cast<const char*>(&flat[block << 8]), 256);
    auto it = seen.find(key);
    if (it == seen.end()) {
      auto index = static_cast<std::uint16_t>(unique.size() >> 8);
      unique.insert(unique.end(), key.begin(), key.end());
      it = seen.emplace(key, index).first;
    }
    block_of_[block] = it->second;
  }
  blocks_ = std::make_unique<std::uint8_t[]>(unique.size());
  std::memcpy(blocks_.get(), unique.data(), unique.size());
}

const UnicodeTable& UnicodeTable::get() {
  static const UnicodeTable* table = new UnicodeTable();  // never destroyed: used until exit
  return *table;
}

std::span<const std::pair<char32_t, char32_t>> UnicodeTable::ranges_of(CategoryMask m) const {
  static std::mutex lock;
  static std::map<CategoryMask, std::vector<std::pair<char32_t, char32_t>>> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(m);
  if (it != cache.end()) return it->second;
  std::vector<std::pair<char32_t, char32_t>> out;
  for (const auto& r : kCategoryRanges) {
    if (!((m >> static_cast<unsigned>(r.category)) & 1)) continue;
    if (!out.empty() && out.back().second + 1 == r.first) out.back().second = r.last;
    else out.emplace_back(r.first, r.last);
  }
  if (m & mask(Category::Cs)) {
    out.emplace_back(0xD800, 0xDFFF);
    std::sort(out.begin(), out.end());
  }
  if (m & mask(Category::Cn)) {
    // Unassigned: everything not listed (and not a surrogate).
    std::vector<std::pair<char32_t, char32_t>> gaps;
    char32_t next = 0;
    auto add_gap = [&](char32_t a, char32_t b) {
      if (a > b) return;
      if (!gaps.empty() && gaps.back().second + 1 == a) gaps.back().second = b;
      else gaps.emplace_back(a, b);
    };
    for (const auto& r : kCategoryRanges) {
      if (r.first > next) {
        char32_t a = next, b = r.first - 1;
        if (a <= 0xDFFF && b >= 0xD800) { add_gap(a, 0xD7FF); add_gap(0xE000, b); }
        else add_gap(a, b);
      }
      next = r.last + 1;
    }
    add_gap(next, 0x10FFFF);
    out.insert(out.end(), gaps.begin(), gaps.end());
    std::sort(out.begin(), out.end());
    std::vector<std::pair<char32_t, char32_t>> merged;
    for (auto& r : out) {
      if (!merged.empty() && merged.back().second + 1 >= r.first) merged.back().second = std::max(merged.back().second, r.second);
      else merged.push_back(r);
    }
    out.swap(merged);
  }
  return cache.emplace(m, std::move(out)).first->second;
}

std::span<const std::pair<char32_t, char32_t>> UnicodeTable::space_ranges() const { return kSpaceRanges; }

std::int64_t category_mask_by_name(std::string_view name) {
  struct Named { std::string_view short_name, long_name; CategoryMask m; };
  using C = Category;
  static const Named kNames[] = {
      {"L", "Letter", kLetter}, {"M", "Mark", kMark}, {"N", "Number", kNumber},
      {"P", "Punctuation", kPunctuation}, {"S", "Symbol", kSymbol},
      {"Z", "Separator", mask(C::Zs) | mask(C::Zl) | mask(C::Zp)},
      {"C", "Other", mask(C::Cc) | mask(C::Cf) | mask(C::Co) | mask(C::Cs) | mask(C::Cn)},
      {"Lu", "Uppercase_Letter", mask(C::Lu)}, {"Ll", "Lowercase_Letter", mask(C::Ll)},
      {"Lt", "Titlecase_Letter", mask(C::Lt)}, {"Lm", "Modifier_Letter", mask(C::Lm)},
      {"Lo", "Other_Letter", mask(C::Lo)}, {"Mn", "Nonspacing_Mark", mask(C::Mn)},
      {"Mc", "Spacing_Mark", mask(C::Mc)}, {"Me", "Enclosing_Mark", mask(C::Me)},
      {"Nd", "Decimal_Number", mask(C::Nd)}, {"Nl", "Letter_Number", mask(C::Nl)},
      {"No", "Other_Number", mask(C::No)}, {"Pc", "Connector_Punctuation", mask(C::Pc)},
      {"Pd", "Dash_Punctuation", mask(C::Pd)}, {"Ps", "Open_Punctuation", mask(C::Ps)},
      {"Pe", "Close_Punctuation", mask(C::Pe)}, {"Pi", "Initial_Punctuation", mask(C::Pi)},
      {"Pf", "Final_Punctuation", mask(C::Pf)}, {"Po", "Other_Punctuation", mask(C::Po)},
      {"Sm", "Math_Symbol", mask(C::Sm)}, {"Sc", "Currency_Symbol", mask(C::Sc)},
      {"Sk", "Modifier_Symbol", mask(C::Sk)}, {"So", "Other_Symbol", mask(C::So)},
      {"Zs", "Space_Separator", mask(C::Zs)}, {"Zl", "Line_Separator", mask(C::Zl)},
      {"Zp", "Paragraph_Separator", mask(C::Zp)}, {"Cc", "Control", mask(C::Cc)},
      {"Cf", "Format", mask(C::Cf)}, {"Co", "Private_Use", mask(C::Co)},
      {"Cs", "Surrogate", mask(C::Cs)}, {"Cn", "Unassigned", mask(C::Cn)},
  };
  for (const auto& n : kNames)
    if (name == n.short_name || name == n.long_name) return n.m;
  return -1;
}

}  // namespace textedge::detail
