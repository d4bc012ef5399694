// Character tables frozen at the Unicode versions the Hugging Face crates were built with, so
// textedge classifies every code point exactly as the reference does, whatever Unicode version
// the installed utf8proc implements:
//   - unicode-normalization-alignments (NFC/NFD/NFKC/NFKD, StripAccents): Unicode 9.0;
//   - unicode_categories (BertNormalizer's control and accent tests): Unicode 8.0.
// The tables were derived by running the reference on every code point (and, for the Unicode
// 9.0 assignment table, from DerivedAge).
#pragma once

#include <span>

namespace textedge::detail::normalizers {

struct CodePointRange {
  char32_t first, last;
};

// The code points assigned (any category, including private use) in Unicode 9.0, in order. The
// reference's normalization tables know nothing of later characters: to it they have combining
// class 0, no decomposition and no compositions.
std::span<const CodePointRange> assigned_in_unicode9();

// General_Category Mn, Mc or Me in Unicode 9.0 (what StripAccents removes).
bool is_combining_mark_unicode9(char32_t cp);

// General_Category Mn in Unicode 8.0 (what BertNormalizer's strip_accents removes).
bool is_nonspacing_mark_unicode8(char32_t cp);

// General_Category Cc, Cf or Co in Unicode 8.0 (BertNormalizer's "other" characters).
bool is_other_unicode8(char32_t cp);

}  // namespace textedge::detail::normalizers
