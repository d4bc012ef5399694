// The hand-written matchers must give exactly the regex's matches (the regex itself is checked
// against the reference in regex_test). Random text over an alphabet chosen to hit every
// branch: each class the patterns name, contractions in all cases, U+017F, whitespace runs with
// and without newlines, and the text's end.
#include "tokenizer/pre_tokenizers/known_patterns.hpp"

#include <gtest/gtest.h>

#include <random>

#include "base/regex.hpp"

namespace textedge::detail {
namespace {

const char* const kPatterns[] = {
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)",
    // DeepSeek V3's three splits.
    R"(\p{N}{1,3})",
    "[\u4E00-\u9FA5\u3040-\u309F\u30A0-\u30FF]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| "
    "?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
};

const std::vector<std::string>& alphabet() {
  static const std::vector<std::string> a = {
      "a", "b", "s", "t", "e", "r", "v", "l", "d", "m", "S", "T", "R", "E", "L", "D", "M", "X", "'", "'", "'",
      "\xC5\xBF" /* ſ */, "\xC7\x85" /* ǅ Lt */, "\xCA\xB0" /* ʰ Lm */, "\xE4\xB8\xAD" /* 中 Lo */,
      "\xCC\x81" /* combining acute Mn */, "\xE0\xA4\xBE" /* Devanagari vowel sign Mc */, "\xC3\xA9", "\xC3\x89",
      "0", "7", "9", "\xC2\xB2" /* ² No */, "\xE2\x85\xAB" /* Ⅻ Nl */, "\xD9\xA3" /* Arabic-Indic 3 */,
      " ", " ", " ", "\t", "\n", "\r", "\r\n", "\xC2\xA0", "\xE3\x80\x80", "\xC2\x85", "\xE2\x80\xA8", "\x0B",
      "\x1C", "\xE2\x80\x8B" /* ZWSP, not \s */, ".", ",", "!", "/", "-", "\"", "(", "\xE2\x80\x94",
      "\xE3\x81\x82" /* あ */, "\xE3\x82\xA2" /* ア */, "\xE3\x83\xBC" /* ー */, "\xE9\xBE\xA6" /* U+9FA6 */, "\xE9\xBE\x8D" /* 龍 */,
      "#", "@", "[", "\\", "`", "~", "$", "+", "<", "\xC2\xA7" /* § Po */, "\xE2\x82\xAC" /* € Sc */,
      "\xF0\x9F\x99\x82" /* 🙂 */, "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", std::string("\0", 1), "\xF0\x9E\x80\x80",
  };
  return a;
}

std::vector<std::pair<std::size_t, std::size_t>> regex_matches(const Regex& re, std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  re.for_each_match(text, [&](std::size_t b, std::size_t e) { out.emplace_back(b, e); });
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> known_matches(KnownPatternFinder find, std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for_each_known_match(find, text, [&](std::size_t b, std::size_t e) { out.emplace_back(b, e); });
  return out;
}

// The matches asked for `capacity` at a time, as a caller with a smaller batch would.
std::vector<std::pair<std::size_t, std::size_t>> known_matches_by(KnownPatternFinder find, std::string_view text,
                                                                  std::size_t capacity) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  PatternMatch batch[3];
  for (std::size_t from = 0;;) {
    std::size_t n = find(text, from, batch, capacity);
    for (std::size_t k = 0; k < n; ++k) out.emplace_back(batch[k].begin, batch[k].end);
    if (n < capacity || batch[n - 1].end <= from) break;  // no progress: a bug, reported by the comparison
    from = batch[n - 1].end;
  }
  return out;
}

TEST(KnownPatterns, AgreeWithTheRegexOnRandomText) {
  std::mt19937 rng(7);
  for (const char* pattern : kPatterns) {
    KnownPatternFinder find = known_pattern_finder(pattern);
    ASSERT_NE(find, nullptr) << pattern;
    Regex re(pattern);
    for (int round = 0; round < 24000; ++round) {
      std::string text;
      // The last rounds: longer texts, for the scans that skip 16 bytes at a time.
      std::size_t n = 1 + rng() % (round < 20000 ? 12 : 80);
      for (std::size_t i = 0; i < n; ++i) text += alphabet()[rng() % alphabet().size()];
      auto expected = regex_matches(re, text);
      auto actual = known_matches(find, text);
      ASSERT_EQ(actual, expected) << "pattern " << pattern << "\ntext: " << testing::PrintToString(text);
    }
  }
}

// Texts of hundreds of matches: the batches' edges (64 a call) and batches of one to three.
TEST(KnownPatterns, BatchesOfAnySizeGiveTheRegexMatches) {
  std::mt19937 rng(11);
  for (const char* pattern : kPatterns) {
    KnownPatternFinder find = known_pattern_finder(pattern);
    ASSERT_NE(find, nullptr) << pattern;
    Regex re(pattern);
    for (int round = 0; round < 40; ++round) {
      std::string text;
      std::size_t n = 200 + rng() % 1200;
      for (std::size_t i = 0; i < n; ++i) text += alphabet()[rng() % alphabet().size()];
      auto expected = regex_matches(re, text);
      ASSERT_EQ(known_matches(find, text), expected) << "pattern " << pattern << "\ntext: " << testing::PrintToString(text);
      for (std::size_t capacity : {1, 2, 3})
        ASSERT_EQ(known_matches_by(find, text, capacity), expected) << "pattern " << pattern << ", batches of " << capacity;
    }
  }
}

TEST(KnownPatterns, UnknownPatternHasNoMatcher) { EXPECT_EQ(known_pattern_finder("\\p{L}+"), nullptr); }

}  // namespace
}  // namespace textedge::detail
