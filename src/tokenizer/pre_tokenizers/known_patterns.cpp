#include "tokenizer/pre_tokenizers/known_patterns.hpp"

#include <array>
#include <cstdint>

#include "base/scan16.hpp"
#include "base/unicode/unicode.hpp"
#include "base/utf8.hpp"

namespace textedge::detail {

namespace {

// Character classes the patterns test, as bits.
using Classes = std::uint16_t;
enum : Classes {
  kL = 1,         // \p{L}
  kN = 2,         // \p{N}
  kSpace = 4,     // \s (Oniguruma's)
  kNewline = 8,   // \r or \n
  kUpper = 16,    // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
  kLower = 32,    // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
  kM = 64,        // \p{M}
  kP = 128,       // \p{P}
  kS = 256,       // \p{S}
};

Classes classes_of_category(Category c) {
  switch (c) {
    case Category::Lu: case Category::Lt: return kL | kUpper;
    case Category::Ll: return kL | kLower;
    case Category::Lm: case Category::Lo: return kL | kUpper | kLower;
    case Category::Mn: case Category::Mc: case Category::Me: return kUpper | kLower | kM;
    case Category::Nd: case Category::Nl: case Category::No: return kN;
    case Category::Pc: case Category::Pd: case Category::Ps: case Category::Pe:
    case Category::Pi: case Category::Pf: case Category::Po: return kP;
    case Category::Sm: case Category::Sc: case Category::Sk: case Category::So: return kS;
    default: return 0;
  }
}

struct Classifier {
  std::array<Classes, 32> by_category{};
  std::array<Classes, 128> ascii{};
  const UnicodeTable* table;
  Classifier() : table(&UnicodeTable::get()) {
    for (unsigned c = 0; c < 32; ++c) by_category[c] = classes_of_category(static_cast<Category>(c));
    for (char32_t c = 0; c < 128; ++c) ascii[c] = of_non_ascii(c) | (c == '\r' || c == '\n' ? kNewline : 0);
  }
  // For characters beyond ASCII (none is \r or \n).
  Classes of_non_ascii(char32_t c) const {
    std::uint8_t f = table->flags(c);
    Classes k = by_category[f & 0x1F];
    if (f & kSpaceBit) k |= kSpace;
    return k;
  }
};

[[gnu::always_inline]] inline const Classifier& classifier() {
  static const Classifier c;
  return c;
}

// One decoded character: its classes and where the next one starts.
struct Char {
  char32_t cp;
  Classes k;
  std::size_t next;
};

inline Char char_at(const Classifier& cl, std::string_view t, std::size_t i) {
  unsigned char b = static_cast<unsigned char>(t[i]);
  if (b < 0x80) return {b, cl.ascii[b], i + 1};
  std::size_t j = i;
  char32_t cp = next_code_point(t, j);
  return {cp, cl.of_non_ascii(cp), j};
}

// End of the run of characters having any of `bits`, starting at i.
// Performance note: ASCII (most letters of most text) in a loop of its own, the classifier read
// once: cl100k_match on 300 KB of bench.txt (llama3_1) 7.77M -> 7.30M instructions.
inline std::size_t run_end(const Classifier& cl, std::string_view t, std::size_t i, Classes bits) {
  const char* s = t.data();
  const std::size_t n = t.size();
  while (i < n) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (!(cl.ascii[b] & bits)) break;
      ++i;
      continue;
    }
    std::size_t next = i;
    char32_t cp = next_code_point(t, next);
    if (!(cl.of_non_ascii(cp) & bits)) break;
    i = next;
  }
  return i;
}

// End of the run of characters having none of `bits`, starting at i.
inline std::size_t run_end_without(const Classifier& cl, std::string_view t, std::size_t i, Classes bits) {
  while (i < t.size()) {
    Char c = char_at(cl, t, i);
    if (c.k & bits) break;
    i = c.next;
  }
  return i;
}

// 's|'t|'re|'ve|'m|'ll|'d at t[i] == '\''; returns the end or 0. With `ignore_case`, also
// upper case and U+017F (long s, which folds to s in Oniguruma).
std::size_t contraction_end(std::string_view t, std::size_t i, bool ignore_case) {
  auto lower = [&](std::size_t p) -> int {
    if (p >= t.size()) return -1;
    unsigned char b = static_cast<unsigned char>(t[p]);
    if (ignore_case) {
      if (b >= 'A' && b <= 'Z') return b + 32;
      if (b == 0xC5 && p + 1 < t.size() && static_cast<unsigned char>(t[p + 1]) == 0xBF) return 0x17F;
    }
    return b;
  };
  int a = lower(i + 1);
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return i + 2;
  if (a == 0x17F) return i + 3;
  int b = lower(i + 2);
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return i + 3;
  return 0;
}

// The three whitespace alternatives shared by the patterns, at a \s character:
//   \s*[\r\n]+   (only when `newline_alternative`)  |  \s+(?!\S)  |  \s+
std::size_t whitespace_end(const Classifier& cl, std::string_view t, std::size_t i, bool newline_alternative) {
  std::size_t last_newline = std::string_view::npos, last_start = i, p = i;
  std::size_t count = 0;
  while (p < t.size()) {
    Char c = char_at(cl, t, p);
    if (!(c.k & kSpace)) break;
    if (c.k & kNewline) last_newline = p;
    last_start = p;
    p = c.next;
    ++count;
  }
  // \s* takes the whole run, then gives characters back until [\r\n]+ can match: the match
  // ends right after the run's last newline.
  if (newline_alternative && last_newline != std::string_view::npos) return last_newline + 1;
  // \s+(?!\S): the whole run at the end of the text, else all but its last character.
  if (p == t.size()) return p;
  if (count >= 2) return last_start;
  return p;  // \s+
}

// The alternatives cl100k and o200k share after their letter alternatives, at character c:
// \p{N}{1,D} | ' ?[^\s\p{L}\p{N}]+[\r\n]*' (o200k: [\r\n/]*) | \s*[\r\n]+ | \s+(?!\S) | \s+
template <int kMaxDigits, bool kSlash>
std::size_t numbers_punctuation_or_whitespace(const Classifier& cl, std::string_view t, std::size_t i, Char c) {
  if (c.k & kN) {
    std::size_t e = c.next;
    for (int n = 1; n < kMaxDigits && e < t.size(); ++n) {
      Char d = char_at(cl, t, e);
      if (!(d.k & kN)) break;
      e = d.next;
    }
    return e;
  }
  constexpr Classes kWordOrSpace = kSpace | kL | kN;
  std::size_t start = i;
  if (c.cp == ' ' && c.next < t.size() && !(char_at(cl, t, c.next).k & kWordOrSpace)) start = c.next;
  if (start != i || !(c.k & kWordOrSpace)) {
    std::size_t e = run_end_without(cl, t, start, kWordOrSpace);
    while (e < t.size() && (t[e] == '\r' || t[e] == '\n' || (kSlash && t[e] == '/'))) ++e;
    return e;
  }
  return whitespace_end(cl, t, i, true);
}

// cl100k-style, as in Qwen2/Qwen3 (max_digits 1) and Llama 3 (max_digits 3):
// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,D}| ?[^\s\p{L}\p{N}]+[\r\n]*|
// \s*[\r\n]+|\s+(?!\S)|\s+
template <int kMaxDigits>
std::size_t cl100k_match(const Classifier& cl, std::string_view t, std::size_t i) {
  Char c = char_at(cl, t, i);
  if (c.cp == '\'') {
    if (std::size_t e = contraction_end(t, i, true)) return e;
  }
  if (c.k & kL) return run_end(cl, t, c.next, kL);
  if (!(c.k & (kL | kN | kNewline)) && c.next < t.size()) {
    Char d = char_at(cl, t, c.next);
    if (d.k & kL) return run_end(cl, t, d.next, kL);
  }
  return numbers_punctuation_or_whitespace<kMaxDigits, false>(cl, t, i, c);
}

// o200k-style, as in gpt-oss:
// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|...|'d)?|
// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|...|'d)?|
// \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
std::size_t with_contraction(std::string_view t, std::size_t e) {
  if (e < t.size() && t[e] == '\'') {
    if (std::size_t c = contraction_end(t, e, true)) return c;
  }
  return e;
}

// First alternative from p (after the optional prefix): upper* lower+ contraction?. Returns 0
// when it cannot match. Backtracking of upper* is resolved directly: if the character after
// the upper run is lower, lower+ runs from there; otherwise lower+ must start at the run's
// last character that is also lower (Lm, Lo, M) and ends right after it.
// Inline by force (GCC kept it a call at both of o200k_match's uses): gptoss warm encode pass,
// callgrind, bench2.txt 184.3M -> 179.8M instructions, the first 1 MB of bench.txt 68.2M -> 65.3M.
[[gnu::always_inline]] inline std::size_t o200k_first(const Classifier& cl, std::string_view t, std::size_t p) {
  // ASCII first (most words): no ASCII character is both upper and lower, so an upper run of
  // ASCII that ends at an ASCII character (or the end) needs no backtracking. Performance note:
  // gptoss encode of 300 KB of bench.txt, this function 7.26M -> 5.56M instructions (encode 41.8M ->
  // 40.1M).
  {
    std::size_t q = p;
    while (q < t.size() && t[q] >= 'A' && t[q] <= 'Z') ++q;
    if (q == t.size() || static_cast<unsigned char>(t[q]) < 0x80) {
      if (q < t.size() && t[q] >= 'a' && t[q] <= 'z') return with_contraction(t, run_end(cl, t, q, kLower));
      return 0;
    }
  }
  std::size_t q = p, last_both = std::string_view::npos;
  while (q < t.size()) {
    Char c = char_at(cl, t, q);
    if (!(c.k & kUpper)) break;
    if (c.k & kLower) last_both = q;
    q = c.next;
  }
  if (q < t.size() && (char_at(cl, t, q).k & kLower)) return with_contraction(t, run_end(cl, t, q, kLower));
  if (last_both == std::string_view::npos) return 0;
  return with_contraction(t, char_at(cl, t, last_both).next);
}

// Second alternative from p: upper+ lower* contraction?.
std::size_t o200k_second(const Classifier& cl, std::string_view t, std::size_t p) {
  std::size_t q = run_end(cl, t, p, kUpper);
  if (q == p) return 0;
  return with_contraction(t, run_end(cl, t, q, kLower));
}

std::size_t o200k_match(const Classifier& cl, std::string_view t, std::size_t i) {
  Char c = char_at(cl, t, i);
  bool prefix = !(c.k & (kL | kN | kNewline)) && c.next < t.size();
  if (prefix) {
    if (std::size_t e = o200k_first(cl, t, c.next)) return e;
  }
  if (std::size_t e = o200k_first(cl, t, i)) return e;
  if (prefix) {
    if (std::size_t e = o200k_second(cl, t, c.next)) return e;
  }
  if (std::size_t e = o200k_second(cl, t, i)) return e;
  return numbers_punctuation_or_whitespace<3, true>(cl, t, i, c);
}

// GPT-2 (the ByteLevel pre-tokenizer's own regex):
// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
std::size_t gpt2_match(const Classifier& cl, std::string_view t, std::size_t i) {
  Char c = char_at(cl, t, i);
  if (c.cp == '\'') {
    if (std::size_t e = contraction_end(t, i, false)) return e;
  }
  constexpr Classes kWordOrSpace = kSpace | kL | kN;
  Char d = c;
  if (c.cp == ' ' && c.next < t.size()) d = char_at(cl, t, c.next);
  if (d.k & kL) return run_end(cl, t, d.next, kL);
  if (d.k & kN) return run_end(cl, t, d.next, kN);
  if (!(d.k & kWordOrSpace)) return run_end_without(cl, t, d.next, kWordOrSpace);
  // The optional space did not help: the alternatives again without it, at c.
  if (c.k & kL) return run_end(cl, t, c.next, kL);
  if (c.k & kN) return run_end(cl, t, c.next, kN);
  if (!(c.k & kWordOrSpace)) return run_end_without(cl, t, c.next, kWordOrSpace);
  return whitespace_end(cl, t, i, false);
}

// Performance note: DeepSeek V3's first two splits look for rare characters (numbers, CJK and
// kana) through all of the text, 16 bytes at a time (base/scan16.hpp); read a character at a
// time they cost 26 instructions a byte (deepseek_v3 encode of 300 KB of bench.txt: 50.3M ->
// 44.1M instructions).

// DeepSeek V3 splits three times. First \p{N}{1,3}:
bool find_numbers(const Classifier& cl, std::string_view t, std::size_t from, std::size_t& begin, std::size_t& end) {
  for (std::size_t p = from; p < t.size();) {
#ifdef __SSE2__
    // ASCII digits and every non-ASCII byte (as signed bytes, below zero).
    p = skip_unflagged(t, p, [](__m128i v) {
      __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
      return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(digit, v)));
    });
    if (p >= t.size()) break;
#endif
    Char c = char_at(cl, t, p);
    if (c.k & kN) {
      begin = p;
      end = c.next;
      for (int n = 1; n < 3 && end < t.size(); ++n) {
        Char d = char_at(cl, t, end);
        if (!(d.k & kN)) break;
        end = d.next;
      }
      return true;
    }
    p = c.next;
  }
  return false;
}

// Then [一-龥\u3040-ゟ゠-ヿ]+ (CJK ideographs U+4E00..U+9FA5, hiragana, katakana):
inline bool cjk_or_kana(char32_t c) { return (c >= 0x4E00 && c <= 0x9FA5) || (c >= 0x3040 && c <= 0x30FF); }

bool find_cjk_or_kana(const Classifier& cl, std::string_view t, std::size_t from, std::size_t& begin, std::size_t& end) {
  for (std::size_t p = from; p < t.size();) {
#ifdef __SSE2__
    // Their UTF-8 starts with 0xE3 to 0xE9 (as signed bytes, -29 to -23), which never continues
    // a character.
    p = skip_unflagged(t, p, [](__m128i v) {
      return static_cast<unsigned>(
          _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(-30)), _mm_cmplt_epi8(v, _mm_set1_epi8(-22)))));
    });
    if (p >= t.size()) break;
#endif
    Char c = char_at(cl, t, p);
    if (cjk_or_kana(c.cp)) {
      begin = p;
      end = c.next;
      while (end < t.size()) {
        Char d = char_at(cl, t, end);
        if (!cjk_or_kana(d.cp)) break;
        end = d.next;
      }
      return true;
    }
    p = c.next;
  }
  return false;
}

// Then [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+|
// ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+ , which does not match everywhere (a lone
// digit or control character is left between matches). Returns the match end at i, or 0.
std::size_t deepseek_match_at(const Classifier& cl, std::string_view t, std::size_t i) {
  auto ascii_letter = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); };
  Char c = char_at(cl, t, i);
  bool ascii_punctuation = c.cp < 0x80 && c.cp > 0x20 && c.cp != 0x7F && !ascii_letter(static_cast<char>(c.cp)) &&
                           !(c.cp >= '0' && c.cp <= '9');
  if (ascii_punctuation && c.next < t.size() && ascii_letter(t[c.next])) {
    std::size_t e = c.next;
    while (e < t.size() && ascii_letter(t[e])) ++e;
    return e;
  }
  constexpr Classes kLetterOrMark = kL | kM;
  if (!(c.k & (kNewline | kL | kP | kS)) && c.next < t.size() && (char_at(cl, t, c.next).k & kLetterOrMark))
    return run_end(cl, t, c.next, kLetterOrMark);
  if (c.k & kLetterOrMark) return run_end(cl, t, c.next, kLetterOrMark);
  std::size_t start = i;
  if (c.cp == ' ' && c.next < t.size() && (char_at(cl, t, c.next).k & (kP | kS))) start = c.next;
  if (start != i || (c.k & (kP | kS))) {
    std::size_t e = run_end(cl, t, start, kP | kS);
    while (e < t.size() && (t[e] == '\r' || t[e] == '\n')) ++e;
    return e;
  }
  if (c.k & kSpace) return whitespace_end(cl, t, i, true);
  return 0;
}

bool find_deepseek(const Classifier& cl, std::string_view t, std::size_t from, std::size_t& begin, std::size_t& end) {
  for (std::size_t p = from; p < t.size(); p = char_at(cl, t, p).next) {
    if (std::size_t e = deepseek_match_at(cl, t, p)) {
      begin = p;
      end = e;
      return true;
    }
  }
  return false;
}

// The finders: matches one after another into `out`, the classifier fetched once a batch.
// Performance note (callgrind, a warm encode pass, 2026-12-05): a call per match, with the
// classifier's guard read at every character, against batches of 64 with the classifier passed
// down: bench2.txt llama3_1 178.7M -> 164.0M instructions, gptoss 200.5M -> 184.3M, qwen3 208.9M ->
// 195.5M, deepseek_v3 229.6M -> 215.2M; the first 1 MB of bench.txt llama3_1 65.0M -> 55.2M,
// gptoss 78.7M -> 68.2M.
template <std::size_t (*Match)(const Classifier&, std::string_view, std::size_t)>
std::size_t find_everywhere(std::string_view t, std::size_t from, PatternMatch* out, std::size_t capacity) {
  const Classifier& cl = classifier();
  std::size_t n = 0;
  for (; n < capacity && from < t.size(); ++n) {
    std::size_t end = Match(cl, t, from);
    out[n] = {from, end};
    from = end;
  }
  return n;
}

template <bool (*FindOne)(const Classifier&, std::string_view, std::size_t, std::size_t&, std::size_t&)>
std::size_t find_repeatedly(std::string_view t, std::size_t from, PatternMatch* out, std::size_t capacity) {
  const Classifier& cl = classifier();
  std::size_t n = 0, begin = 0, end = 0;
  for (; n < capacity && from < t.size() && FindOne(cl, t, from, begin, end); ++n) {
    out[n] = {begin, end};
    from = end;
  }
  return n;
}

}  // namespace

KnownPatternFinder known_pattern_finder(std::string_view pattern) {
  static constexpr std::string_view kQwen =
      R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  static constexpr std::string_view kLlama3 =
      R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  static constexpr std::string_view kO200k =
      R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  static constexpr std::string_view kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
  if (pattern == kQwen) return find_everywhere<cl100k_match<1>>;
  if (pattern == kLlama3) return find_everywhere<cl100k_match<3>>;
  if (pattern == kO200k) return find_everywhere<o200k_match>;
  if (pattern == kGpt2) return find_everywhere<gpt2_match>;
  static constexpr std::string_view kNumbers = R"(\p{N}{1,3})";
  static constexpr std::string_view kCjkKana = "[\u4E00-\u9FA5\u3040-\u309F\u30A0-\u30FF]+";
  static constexpr std::string_view kDeepSeek =
      "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| "
      "?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";
  if (pattern == kNumbers) return find_repeatedly<find_numbers>;
  if (pattern == kCjkKana) return find_repeatedly<find_cjk_or_kana>;
  if (pattern == kDeepSeek) return find_repeatedly<find_deepseek>;
  return nullptr;
}

}  // namespace textedge::detail
