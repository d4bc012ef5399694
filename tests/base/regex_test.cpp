// Regex: Oniguruma semantics (as Hugging Face tokenizers compiles Split/Replace patterns) on
// PCRE2. Every expected value below was produced by the reference, tokenizers 0.23.2 through
// Node: a Split pre-tokenizer with the pattern, read back with preTokenizeString (Isolated for
// the pieces, Removed + invert for the matches). The exhaustive tables hold, for each pattern,
// the number and FNV-1a 64 hash (code points as 4 little-endian bytes, ascending) of the code
// points the reference matches when the pattern runs over the string of every code point
// U+0000..U+10FFFF (surrogates skipped); for the real tokenizers' patterns, of the code point
// end offsets of the Isolated pieces of that string. To regenerate, run the same Split through
// the reference and hash its output the same way.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/regex.hpp"
#include "base/utf8.hpp"

using namespace std::literals;
using textedge::detail::Regex;

namespace {

struct RealCase {
  int pattern;
  int text;
  std::vector<std::string_view> pieces;
};

struct SyntaxCase {
  std::string_view pattern;
  std::string_view text;
  bool invalid;
  std::vector<std::string_view> matches;  // non-empty matches
  std::vector<std::string_view> pieces;   // Isolated split
};

struct ExhaustiveCase {
  std::string_view pattern;
  std::size_t count;
  std::uint64_t hash;
};

const std::string_view kRealPatterns[] = {
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv,
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv,
    "\\p{N}{1,3}"sv,
    "[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+"sv,
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"sv,
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv,
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"sv,
};

const std::string_view kTexts[] = {
    "Hello, world! It's 2024 \xE2\x80\x94 they'll've DON'T 'S and I'M fine'd"sv,
    "  leading and trailing  \n\n\tTabs\r\nCRLF  "sv,
    "\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8 \xE9\xBE\xA5\xE9\xBE\xA6"sv,
    "emoji \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD family \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7 flags \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv,
    "combining: e\xCC\x81 a\xCC\x88\xCC\x84 Z\xCC\xB5\xCC\xA1 \xE2\x80\x94 \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87 \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv,
    "numbers 1234567 3.14159 1,000,000 \xD9\xA1\xD9\xA2\xD9\xA3 \xE2\x85\xBB \xC2\xBD \xC2\xB2\xC2\xB3"sv,
    "ws: a\xC2\xA0""b\xE2\x80\x83""c\xE3\x80\x80""d\xC2\x85""e\xE2\x80\x8B""f\xE1\xA0\x8Eg\xEF\xBB\xBFh\xE2\x80\xA8i\x1Cj\x0Bk\x0Cl"sv,
    "code: def f(x):\n    return x**2  # comment\n\n\n"sv,
    "\xE2\x96\x81""already\xE2\x96\x81has\xE2\x96\x81metaspace and spaces"sv,
    "'s 'S '\xC5\xBF 'll 'LL 'Ll ' s 'K 'k '\xE2\x85\xAC"sv,
    "new: \xE1\xB2\x89\xE1\xB2\x8A \xF0\x90\xB5\x90\xF0\x90\xB5\xB0 \xF0\x9E\x93\x90x \xF0\x91\xBC\x80 \xF0\x96\x84\xB0\xF0\x96\x84\xB1 \xF0\xB1\x8D\x90"sv,
    ""sv,
    " "sv,
    "a"sv,
    "...!!!??? ,;"sv,
    "x\r\n\r\ny \n z\n"sv,
    "trailing spaces   "sv,
    "Mixed   multiple    spaces\t\t tabs"sv,
    "path/to/file.txt\r\n/usr/bin"sv,
    "$100 & 50% off \xE2\x80\x94 \xC2\xABquotes\xC2\xBB \xE2\x80\x9C""curly\xE2\x80\x9D \xE2\x80\x98single\xE2\x80\x99"sv,
};

const RealCase kRealCases[] = {
    {0, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It"sv, "'s"sv, " "sv, "2"sv, "0"sv, "2"sv, "4"sv, " \xE2\x80\x94"sv, " they"sv, "'ll"sv, "'ve"sv, " DON"sv, "'T"sv, " '"sv, "S"sv, " and"sv, " I"sv, "'M"sv, " fine"sv, "'d"sv}},
    {0, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {0, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {0, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {0, 4, {"combining"sv, ":"sv, " e"sv, "\xCC\x81"sv, " a"sv, "\xCC\x88\xCC\x84"sv, " Z"sv, "\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8"sv, "\xE0\xA5\x8D\xE0\xA4\xA4"sv, "\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {0, 5, {"numbers"sv, " "sv, "1"sv, "2"sv, "3"sv, "4"sv, "5"sv, "6"sv, "7"sv, " "sv, "3"sv, "."sv, "1"sv, "4"sv, "1"sv, "5"sv, "9"sv, " "sv, "1"sv, ","sv, "0"sv, "0"sv, "0"sv, ","sv, "0"sv, "0"sv, "0"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv, "\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2"sv, "\xC2\xB3"sv}},
    {0, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {0, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {0, 8, {"\xE2\x96\x81""already"sv, "\xE2\x96\x81has"sv, "\xE2\x96\x81metaspace"sv, " and"sv, " spaces"sv}},
    {0, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {0, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " "sv, "\xF0\x96\x84\xB0"sv, "\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {0, 11, {}},
    {0, 12, {" "sv}},
    {0, 13, {"a"sv}},
    {0, 14, {"...!!!???"sv, " ,;"sv}},
    {0, 15, {"x"sv, "\r\n\r\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {0, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {0, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {0, 18, {"path"sv, "/to"sv, "/file"sv, ".txt"sv, "\r\n"sv, "/usr"sv, "/bin"sv}},
    {0, 19, {"$"sv, "1"sv, "0"sv, "0"sv, " &"sv, " "sv, "5"sv, "0"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
    {1, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It"sv, "'s"sv, " "sv, "202"sv, "4"sv, " \xE2\x80\x94"sv, " they"sv, "'ll"sv, "'ve"sv, " DON"sv, "'T"sv, " '"sv, "S"sv, " and"sv, " I"sv, "'M"sv, " fine"sv, "'d"sv}},
    {1, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {1, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {1, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {1, 4, {"combining"sv, ":"sv, " e"sv, "\xCC\x81"sv, " a"sv, "\xCC\x88\xCC\x84"sv, " Z"sv, "\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8"sv, "\xE0\xA5\x8D\xE0\xA4\xA4"sv, "\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {1, 5, {"numbers"sv, " "sv, "123"sv, "456"sv, "7"sv, " "sv, "3"sv, "."sv, "141"sv, "59"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {1, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {1, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {1, 8, {"\xE2\x96\x81""already"sv, "\xE2\x96\x81has"sv, "\xE2\x96\x81metaspace"sv, " and"sv, " spaces"sv}},
    {1, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {1, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {1, 11, {}},
    {1, 12, {" "sv}},
    {1, 13, {"a"sv}},
    {1, 14, {"...!!!???"sv, " ,;"sv}},
    {1, 15, {"x"sv, "\r\n\r\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {1, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {1, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {1, 18, {"path"sv, "/to"sv, "/file"sv, ".txt"sv, "\r\n"sv, "/usr"sv, "/bin"sv}},
    {1, 19, {"$"sv, "100"sv, " &"sv, " "sv, "50"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
    {2, 0, {"Hello, world! It's "sv, "202"sv, "4"sv, " \xE2\x80\x94 they'll've DON'T 'S and I'M fine'd"sv}},
    {2, 1, {"  leading and trailing  \n\n\tTabs\r\nCRLF  "sv}},
    {2, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8 \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {2, 3, {"emoji \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD family \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7 flags \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {2, 4, {"combining: e\xCC\x81 a\xCC\x88\xCC\x84 Z\xCC\xB5\xCC\xA1 \xE2\x80\x94 \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87 \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {2, 5, {"numbers "sv, "123"sv, "456"sv, "7"sv, " "sv, "3"sv, "."sv, "141"sv, "59"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {2, 6, {"ws: a\xC2\xA0""b\xE2\x80\x83""c\xE3\x80\x80""d\xC2\x85""e\xE2\x80\x8B""f\xE1\xA0\x8Eg\xEF\xBB\xBFh\xE2\x80\xA8i\x1Cj\x0Bk\x0Cl"sv}},
    {2, 7, {"code: def f(x):\n    return x**"sv, "2"sv, "  # comment\n\n\n"sv}},
    {2, 8, {"\xE2\x96\x81""already\xE2\x96\x81has\xE2\x96\x81metaspace and spaces"sv}},
    {2, 9, {"'s 'S '\xC5\xBF 'll 'LL 'Ll ' s 'K 'k '"sv, "\xE2\x85\xAC"sv}},
    {2, 10, {"new: \xE1\xB2\x89\xE1\xB2\x8A \xF0\x90\xB5\x90\xF0\x90\xB5\xB0 \xF0\x9E\x93\x90x \xF0\x91\xBC\x80 "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {2, 11, {}},
    {2, 12, {" "sv}},
    {2, 13, {"a"sv}},
    {2, 14, {"...!!!??? ,;"sv}},
    {2, 15, {"x\r\n\r\ny \n z\n"sv}},
    {2, 16, {"trailing spaces   "sv}},
    {2, 17, {"Mixed   multiple    spaces\t\t tabs"sv}},
    {2, 18, {"path/to/file.txt\r\n/usr/bin"sv}},
    {2, 19, {"$"sv, "100"sv, " & "sv, "50"sv, "% off \xE2\x80\x94 \xC2\xABquotes\xC2\xBB \xE2\x80\x9C""curly\xE2\x80\x9D \xE2\x80\x98single\xE2\x80\x99"sv}},
    {3, 0, {"Hello, world! It's 2024 \xE2\x80\x94 they'll've DON'T 'S and I'M fine'd"sv}},
    {3, 1, {"  leading and trailing  \n\n\tTabs\r\nCRLF  "sv}},
    {3, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81"sv, "\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8 "sv, "\xE9\xBE\xA5"sv, "\xE9\xBE\xA6"sv}},
    {3, 3, {"emoji \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD family \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7 flags \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {3, 4, {"combining: e\xCC\x81 a\xCC\x88\xCC\x84 Z\xCC\xB5\xCC\xA1 \xE2\x80\x94 \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87 \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {3, 5, {"numbers 1234567 3.14159 1,000,000 \xD9\xA1\xD9\xA2\xD9\xA3 \xE2\x85\xBB \xC2\xBD \xC2\xB2\xC2\xB3"sv}},
    {3, 6, {"ws: a\xC2\xA0""b\xE2\x80\x83""c\xE3\x80\x80""d\xC2\x85""e\xE2\x80\x8B""f\xE1\xA0\x8Eg\xEF\xBB\xBFh\xE2\x80\xA8i\x1Cj\x0Bk\x0Cl"sv}},
    {3, 7, {"code: def f(x):\n    return x**2  # comment\n\n\n"sv}},
    {3, 8, {"\xE2\x96\x81""already\xE2\x96\x81has\xE2\x96\x81metaspace and spaces"sv}},
    {3, 9, {"'s 'S '\xC5\xBF 'll 'LL 'Ll ' s 'K 'k '\xE2\x85\xAC"sv}},
    {3, 10, {"new: \xE1\xB2\x89\xE1\xB2\x8A \xF0\x90\xB5\x90\xF0\x90\xB5\xB0 \xF0\x9E\x93\x90x \xF0\x91\xBC\x80 \xF0\x96\x84\xB0\xF0\x96\x84\xB1 \xF0\xB1\x8D\x90"sv}},
    {3, 11, {}},
    {3, 12, {" "sv}},
    {3, 13, {"a"sv}},
    {3, 14, {"...!!!??? ,;"sv}},
    {3, 15, {"x\r\n\r\ny \n z\n"sv}},
    {3, 16, {"trailing spaces   "sv}},
    {3, 17, {"Mixed   multiple    spaces\t\t tabs"sv}},
    {3, 18, {"path/to/file.txt\r\n/usr/bin"sv}},
    {3, 19, {"$100 & 50% off \xE2\x80\x94 \xC2\xABquotes\xC2\xBB \xE2\x80\x9C""curly\xE2\x80\x9D \xE2\x80\x98single\xE2\x80\x99"sv}},
    {4, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It"sv, "'s"sv, " "sv, "2024"sv, " \xE2\x80\x94"sv, " they"sv, "'ll"sv, "'ve"sv, " DON"sv, "'T"sv, " '"sv, "S"sv, " and"sv, " I"sv, "'M"sv, " fine"sv, "'d"sv}},
    {4, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {4, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81"sv, "\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82"sv, "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {4, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8"sv, "\xE2\x80\x8D"sv, "\xF0\x9F\x91\xA9"sv, "\xE2\x80\x8D"sv, "\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {4, 4, {"combining"sv, ":"sv, " e\xCC\x81"sv, " a\xCC\x88\xCC\x84"sv, " Z\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {4, 5, {"numbers"sv, " "sv, "1234567"sv, " "sv, "3"sv, "."sv, "14159"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {4, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {4, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {4, 8, {"\xE2\x96\x81"sv, "already"sv, "\xE2\x96\x81"sv, "has"sv, "\xE2\x96\x81"sv, "metaspace"sv, " and"sv, " spaces"sv}},
    {4, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {4, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {4, 11, {}},
    {4, 12, {" "sv}},
    {4, 13, {"a"sv}},
    {4, 14, {"...!!!???"sv, " ,;"sv}},
    {4, 15, {"x"sv, "\r\n\r\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {4, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {4, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {4, 18, {"path"sv, "/to"sv, "/file"sv, ".txt"sv, "\r\n"sv, "/usr"sv, "/bin"sv}},
    {4, 19, {"$"sv, "100"sv, " &"sv, " "sv, "50"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
    {5, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It's"sv, " "sv, "202"sv, "4"sv, " \xE2\x80\x94"sv, " they'll"sv, "'ve"sv, " DON'T"sv, " '"sv, "S"sv, " and"sv, " I'M"sv, " fine'd"sv}},
    {5, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {5, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {5, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {5, 4, {"combining"sv, ":"sv, " e\xCC\x81"sv, " a\xCC\x88\xCC\x84"sv, " Z\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {5, 5, {"numbers"sv, " "sv, "123"sv, "456"sv, "7"sv, " "sv, "3"sv, "."sv, "141"sv, "59"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {5, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {5, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {5, 8, {"\xE2\x96\x81""already"sv, "\xE2\x96\x81has"sv, "\xE2\x96\x81metaspace"sv, " and"sv, " spaces"sv}},
    {5, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {5, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {5, 11, {}},
    {5, 12, {" "sv}},
    {5, 13, {"a"sv}},
    {5, 14, {"...!!!???"sv, " ,;"sv}},
    {5, 15, {"x"sv, "\r\n\r\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {5, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {5, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {5, 18, {"path"sv, "/to"sv, "/file"sv, ".txt"sv, "\r\n"sv, "/usr"sv, "/bin"sv}},
    {5, 19, {"$"sv, "100"sv, " &"sv, " "sv, "50"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
    {6, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It"sv, "'s"sv, " 2024"sv, " \xE2\x80\x94"sv, " they"sv, "'ll"sv, "'ve"sv, " DON"sv, "'"sv, "T"sv, " '"sv, "S"sv, " and"sv, " I"sv, "'"sv, "M"sv, " fine"sv, "'d"sv}},
    {6, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\t"sv, "Tabs"sv, "\r"sv, "\n"sv, "CRLF"sv, "  "sv}},
    {6, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81"sv, "\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82"sv, "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {6, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {6, 4, {"combining"sv, ":"sv, " e"sv, "\xCC\x81"sv, " a"sv, "\xCC\x88\xCC\x84"sv, " Z"sv, "\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8"sv, "\xE0\xA5\x8D"sv, "\xE0\xA4\xA4"sv, "\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {6, 5, {"numbers"sv, " 1234567"sv, " 3"sv, "."sv, "14159"sv, " 1"sv, ","sv, "000"sv, ","sv, "000"sv, " \xD9\xA1\xD9\xA2\xD9\xA3"sv, " \xE2\x85\xBB"sv, " \xC2\xBD"sv, " \xC2\xB2\xC2\xB3"sv}},
    {6, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0"sv, "b"sv, "\xE2\x80\x83"sv, "c"sv, "\xE3\x80\x80"sv, "d"sv, "\xC2\x85"sv, "e"sv, "\xE2\x80\x8B"sv, "f"sv, "\xE1\xA0\x8E"sv, "g"sv, "\xEF\xBB\xBF"sv, "h"sv, "\xE2\x80\xA8"sv, "i"sv, "\x1C"sv, "j"sv, "\x0B"sv, "k"sv, "\x0C"sv, "l"sv}},
    {6, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "("sv, "x"sv, "):"sv, "\n   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {6, 8, {"\xE2\x96\x81"sv, "already"sv, "\xE2\x96\x81"sv, "has"sv, "\xE2\x96\x81"sv, "metaspace"sv, " and"sv, " spaces"sv}},
    {6, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {6, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " \xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {6, 11, {}},
    {6, 12, {" "sv}},
    {6, 13, {"a"sv}},
    {6, 14, {"...!!!???"sv, " ,;"sv}},
    {6, 15, {"x"sv, "\r\n\r"sv, "\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {6, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {6, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {6, 18, {"path"sv, "/"sv, "to"sv, "/"sv, "file"sv, "."sv, "txt"sv, "\r"sv, "\n"sv, "/"sv, "usr"sv, "/"sv, "bin"sv}},
    {6, 19, {"$"sv, "100"sv, " &"sv, " 50"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
};

const SyntaxCase kSyntaxCases[] = {
    {"^"sv, "a\nb\na\n"sv, false, {}, {"a\n"sv, "b\n"sv, "a\n"sv}},
    {"$"sv, "a\nb\na\n"sv, false, {}, {"a"sv, "\nb"sv, "\na"sv, "\n"sv}},
    {"^a|b$"sv, "ab\nab\nb"sv, false, {"a"sv, "b"sv, "a"sv, "b"sv, "b"sv}, {"a"sv, "b"sv, "\n"sv, "a"sv, "b"sv, "\n"sv, "b"sv}},
    {"a$"sv, "a\na\n"sv, false, {"a"sv, "a"sv}, {"a"sv, "\n"sv, "a"sv, "\n"sv}},
    {"\\Aa|a\\z"sv, "aaa"sv, false, {"a"sv, "a"sv}, {"a"sv, "a"sv, "a"sv}},
    {"a\\Z"sv, "aa\n"sv, false, {"a"sv}, {"a"sv, "a"sv, "\n"sv}},
    {"a{,2}"sv, "aaaaa"sv, false, {"aa"sv, "aa"sv, "a"sv}, {"aa"sv, "aa"sv, "a"sv}},
    {"a{1,2}+"sv, "aaaaab"sv, false, {"aaaaa"sv}, {"aaaaa"sv, "b"sv}},
    {"(?:ab){2}?"sv, "ababab"sv, false, {"abab"sv}, {"abab"sv, "a"sv, "b"sv}},
    {"a{2}?"sv, "aaaaa"sv, false, {"aa"sv, "aa"sv}, {"aa"sv, "aa"sv, "a"sv}},
    {"a{2}+"sv, "aaaaa"sv, false, {"aaaa"sv}, {"aaaa"sv, "a"sv}},
    {"x{"sv, "x{y"sv, false, {"x{"sv}, {"x{"sv, "y"sv}},
    {"{1}"sv, "{1}a"sv, true, {}, {}},  // Oniguruma error: target of repeat operator is not specified
    {"\\bfoo\\b"sv, "foo foobar \xC3\xA9-foo foo_ \xC2\xB2""foo"sv, false, {"foo"sv, "foo"sv}, {"foo"sv, " foobar \xC3\xA9-"sv, "foo"sv, " foo_ \xC2\xB2""foo"sv}},
    {"\\B\\w"sv, "ab c"sv, false, {"b"sv}, {"a"sv, "b"sv, " c"sv}},
    {"(?m:.+)"sv, "a\nb"sv, false, {"a\nb"sv}, {"a\nb"sv}},
    {"(?m).+"sv, "a\nb"sv, false, {"a\nb"sv}, {"a\nb"sv}},
    {".+"sv, "a\r\nb"sv, false, {"a\r"sv, "b"sv}, {"a\r"sv, "\n"sv, "b"sv}},
    {"\\h+"sv, "0x1fAg zz"sv, false, {"0"sv, "1fA"sv}, {"0"sv, "x"sv, "1fA"sv, "g zz"sv}},
    {"\\v"sv, "a\x0B""b\nc"sv, false, {"\x0B"sv}, {"a"sv, "\x0B"sv, "b\nc"sv}},
    {"\\u00e9+"sv, "\xC3\xA9\xC3\xA9 e"sv, false, {"\xC3\xA9\xC3\xA9"sv}, {"\xC3\xA9\xC3\xA9"sv, " e"sv}},
    {"\\x{1F600}"sv, "\xF0\x9F\x98\x80x"sv, false, {"\xF0\x9F\x98\x80"sv}, {"\xF0\x9F\x98\x80"sv, "x"sv}},
    {"\\x41"sv, "AB"sv, false, {"A"sv}, {"A"sv, "B"sv}},
    {"x*"sv, "axxb"sv, false, {"xx"sv}, {"a"sv, "xx"sv, "b"sv}},
    {""sv, "abc"sv, false, {}, {"a"sv, "b"sv, "c"sv}},
    {"(?=c)|a"sv, "abc"sv, false, {"a"sv}, {"a"sv, "b"sv, "c"sv}},
    {"a|(?=c)"sv, "abc"sv, false, {"a"sv}, {"a"sv, "b"sv, "c"sv}},
    {"\\b"sv, "ab cd"sv, false, {}, {"ab"sv, " "sv, "cd"sv}},
    {"(?<=a)"sv, "aab"sv, false, {}, {"a"sv, "a"sv, "b"sv}},
    {"b*"sv, "\xC3\xA9"sv, false, {}, {"\xC3\xA9"sv}},
    {"\\p{^L}+"sv, "ab12!c"sv, false, {"12!"sv}, {"ab"sv, "12!"sv, "c"sv}},
    {"\\P{L}+"sv, "ab12!c"sv, false, {"12!"sv}, {"ab"sv, "12!"sv, "c"sv}},
    {"[[:punct:]]+"sv, "a!$+b"sv, false, {"!$+"sv}, {"a"sv, "!$+"sv, "b"sv}},
    {"[[:^alpha:]]+"sv, "ab12\xC3\xA9!"sv, false, {"12"sv, "!"sv}, {"ab"sv, "12"sv, "\xC3\xA9"sv, "!"sv}},
    {"[a[bc]]+"sv, "abcd"sv, false, {"abc"sv}, {"abc"sv, "d"sv}},
    {"[^a[bc]]+"sv, "abcd\xC3\xA9"sv, false, {"d\xC3\xA9"sv}, {"abc"sv, "d\xC3\xA9"sv}},
    {"[a[^b]]+"sv, "abcb"sv, false, {"a"sv, "c"sv}, {"a"sv, "b"sv, "c"sv, "b"sv}},
    {"[\\W\\d]+"sv, "ab12!c d"sv, false, {"12!"sv, " "sv}, {"ab"sv, "12!"sv, "c"sv, " "sv, "d"sv}},
    {"[^\\W\\d]+"sv, "ab12!c d"sv, false, {"ab"sv, "c"sv, "d"sv}, {"ab"sv, "12!"sv, "c"sv, " "sv, "d"sv}},
    {"[\\S]+"sv, "a b\xE1\xA0\x8E""c"sv, false, {"a"sv, "b\xE1\xA0\x8E""c"sv}, {"a"sv, " "sv, "b\xE1\xA0\x8E""c"sv}},
    {"[^\\S\\n]+"sv, "a \t\nb\xE1\xA0\x8E"sv, false, {" \t"sv}, {"a"sv, " \t"sv, "\nb\xE1\xA0\x8E"sv}},
    {"[\\D]+"sv, "a1b"sv, false, {"a"sv, "b"sv}, {"a"sv, "1"sv, "b"sv}},
    {"[\\H]+"sv, "0fg"sv, false, {"g"sv}, {"0f"sv, "g"sv}},
    {"(?i:\\p{Lu})"sv, "aA"sv, false, {"A"sv}, {"a"sv, "A"sv}},
    {"(?i)[^a-z]+"sv, "aBc1"sv, false, {"1"sv}, {"aBc"sv, "1"sv}},
    {"(?i:'S)"sv, "'s '\xC5\xBF 'S"sv, false, {"'s"sv, "'\xC5\xBF"sv, "'S"sv}, {"'s"sv, " "sv, "'\xC5\xBF"sv, " "sv, "'S"sv}},
    {"\\s+(?!\\S)"sv, "a   b  "sv, false, {"  "sv, "  "sv}, {"a"sv, "  "sv, " b"sv, "  "sv}},
    {"a++b"sv, "aaab"sv, false, {"aaab"sv}, {"aaab"sv}},
    {"(?>a+)b"sv, "aab"sv, false, {"aab"sv}, {"aab"sv}},
    {"a?+a"sv, "aa"sv, false, {"aa"sv}, {"aa"sv}},
    {"\\R"sv, "a\r\nb\nc\rd"sv, false, {"\r\n"sv, "\n"sv, "\r"sv}, {"a"sv, "\r\n"sv, "b"sv, "\n"sv, "c"sv, "\r"sv, "d"sv}},
    {"\\X"sv, "e\xCC\x81\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7x"sv, false, {"e\xCC\x81"sv, "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, "x"sv}, {"e\xCC\x81"sv, "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, "x"sv}},
    {"(?<n>a)\\k<n>"sv, "aab"sv, false, {"aa"sv}, {"aa"sv, "b"sv}},
    {"(a)\\1"sv, "aab"sv, false, {"aa"sv}, {"aa"sv, "b"sv}},
    {"\\O"sv, "a\nb"sv, false, {"a"sv, "\n"sv, "b"sv}, {"a"sv, "\n"sv, "b"sv}},
    {"\\N+"sv, "a\nb"sv, false, {"a"sv, "b"sv}, {"a"sv, "\n"sv, "b"sv}},
    {"\\p{Han}+"sv, "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\x8B\xE3\x81\xAA"sv, false, {"\xE6\xBC\xA2\xE5\xAD\x97"sv}, {"\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xE3\x81\x8B\xE3\x81\xAA"sv}},
    {"\\p{Hiragana}+"sv, "\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA\xE3\x83\xBC"sv, false, {"\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv}, {"\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x83\xBC"sv}},
    {"\\p{Katakana}+"sv, "\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A\xE3\x83\xBC\xE3\x83\xBB"sv, false, {"\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv}, {"\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x83\xBC\xE3\x83\xBB"sv}},
    {"\\p{Latin}+"sv, "abc\xC3\xA9"sv, false, {"abc\xC3\xA9"sv}, {"abc\xC3\xA9"sv}},
    {"\\p{Greek}+"sv, "\xCE\xB1\xCE\xB2\xCE\xB3"sv, false, {"\xCE\xB1\xCE\xB2\xCE\xB3"sv}, {"\xCE\xB1\xCE\xB2\xCE\xB3"sv}},
    {"\\w+"sv, "\xC2\xB2\xC2\xB3\xC2\xB9 \xC2\xBC\xC2\xBD\xC2\xBE ab_c \xE2\x80\xBF"sv, false, {"\xC2\xB2\xC2\xB3\xC2\xB9"sv, "\xC2\xBC\xC2\xBD\xC2\xBE"sv, "ab_c"sv, "\xE2\x80\xBF"sv}, {"\xC2\xB2\xC2\xB3\xC2\xB9"sv, " "sv, "\xC2\xBC\xC2\xBD\xC2\xBE"sv, " "sv, "ab_c"sv, " "sv, "\xE2\x80\xBF"sv}},
    {"\\d+"sv, "12\xD9\xA3\xE0\xA5\xAA"sv, false, {"12\xD9\xA3\xE0\xA5\xAA"sv}, {"12\xD9\xA3\xE0\xA5\xAA"sv}},
    {"[[:word:]]+"sv, "\xC2\xB2""ab"sv, false, {"ab"sv}, {"\xC2\xB2"sv, "ab"sv}},
    {"\\p{Word}+"sv, "\xC2\xB2""ab"sv, false, {"\xC2\xB2""ab"sv}, {"\xC2\xB2""ab"sv}},
    {"\\p{Alnum}+"sv, "a1\xC2\xB2"sv, false, {"a1"sv}, {"a1"sv, "\xC2\xB2"sv}},
    {"("sv, "x"sv, true, {}, {}},  // Oniguruma error: end pattern with unmatched parenthesis
    {"[a"sv, "x"sv, true, {}, {}},  // Oniguruma error: premature end of char-class
    {"a{2,1}"sv, "a{2,1}aaa"sv, false, {"a"sv, "aa"sv, "a"sv}, {"a"sv, "{2,1}"sv, "aa"sv, "a"sv}},
    {"a{3,2}"sv, "aaaaa"sv, false, {"aaa"sv, "aa"sv}, {"aaa"sv, "aa"sv}},
    {"\\p{Foo}"sv, "x"sv, true, {}, {}},  // Oniguruma error: invalid character property name {Foo}
    {"*a"sv, "x"sv, true, {}, {}},  // Oniguruma error: target of repeat operator is not specified
    {"a)"sv, "x"sv, true, {}, {}},  // Oniguruma error: unmatched close parenthesis
    {"\\"sv, "x"sv, true, {}, {}},  // Oniguruma error: end pattern at escape
    {"\\p{Assigned}+"sv, "ab"sv, false, {"ab"sv}, {"ab"sv}},
    {"\\p{Cn}"sv, "a\xCD\xB8"sv, false, {"\xCD\xB8"sv}, {"a"sv, "\xCD\xB8"sv}},
    {"\\p{C}"sv, "a\xCD\xB8\x01"sv, false, {"\xCD\xB8"sv, "\x01"sv}, {"a"sv, "\xCD\xB8"sv, "\x01"sv}},
    {"\\p{Emoji}"sv, "\xF0\x9F\x98\x80""a"sv, false, {"\xF0\x9F\x98\x80"sv}, {"\xF0\x9F\x98\x80"sv, "a"sv}},
    {"\\p{Common}+"sv, "!?"sv, false, {"!?"sv}, {"!?"sv}},
    {"(?x) a b # c\n"sv, "ab"sv, false, {"ab"sv}, {"ab"sv}},
    {"(?i)\xC7\x85"sv, "\xC7\x84\xC7\x86\xC7\x85""D\xC5\xBE"sv, false, {"\xC7\x84"sv, "\xC7\x86"sv, "\xC7\x85"sv}, {"\xC7\x84"sv, "\xC7\x86"sv, "\xC7\x85"sv, "D\xC5\xBE"sv}},
    {"\\cA"sv, "\x01"sv, false, {"\x01"sv}, {"\x01"sv}},
};

const ExhaustiveCase kCodePointSets[] = {
    {"\\s"sv, 25, 0x7db14e6e1f1a2f5ULL},
    {"\\S"sv, 1112039, 0x4f6d9c0065445325ULL},
    {"\\w"sv, 144671, 0x84911bebd359ca4cULL},
    {"\\W"sv, 967393, 0x7a09922937fe4ebcULL},
    {"\\d"sv, 760, 0x42d158e6fb1eebdfULL},
    {"\\D"sv, 1111304, 0xb7939202ec55aa97ULL},
    {"\\h"sv, 22, 0xaf15325b68b38cf4ULL},
    {"\\p{L}"sv, 141028, 0xf41bf72239455b4fULL},
    {"\\p{N}"sv, 1911, 0xd15586ee8a145a41ULL},
    {"\\p{P}"sv, 855, 0x823c3c98638cc712ULL},
    {"\\p{S}"sv, 8514, 0x5984794dd2aed8ULL},
    {"\\p{M}"sv, 2501, 0xd996d5f3b9390f58ULL},
    {"\\p{Lu}"sv, 1858, 0xfd342e13a57e5d04ULL},
    {"\\p{Ll}"sv, 2258, 0x927bffdf46d7c43dULL},
    {"\\p{Lt}"sv, 31, 0xb10b0a544537bd2cULL},
    {"\\p{Lm}"sv, 404, 0x27a0171682e7278ULL},
    {"\\p{Lo}"sv, 136477, 0xde7f357b9ab953aULL},
    {"\\p{Nd}"sv, 760, 0x42d158e6fb1eebdfULL},
    {"\\p{Z}"sv, 19, 0xb78ca003e8cd86a9ULL},
    {"\\p{C}"sv, 957236, 0xbb5f186d4ce36068ULL},
    {"[\\r\\n]"sv, 2, 0xbed9022034b88bb2ULL},
    {"[^\\r\\n\\p{L}\\p{N}]"sv, 969123, 0xf3569e39612d2094ULL},
    {"[^\\s\\p{L}\\p{N}]"sv, 969100, 0x7ee90ea310c9a2d7ULL},
    {"[^\\r\\n\\p{L}\\p{P}\\p{S}]"sv, 961665, 0x1108ccea9259a776ULL},
    {"[\\p{L}\\p{M}]"sv, 143529, 0x7d628ed1012bdca6ULL},
    {"[\\p{P}\\p{S}]"sv, 9369, 0x538cba54c442863ULL},
    {"[\\s]"sv, 25, 0x7db14e6e1f1a2f5ULL},
    {"[^\\s]"sv, 1112039, 0x4f6d9c0065445325ULL},
    {"[^\\S]"sv, 25, 0x7db14e6e1f1a2f5ULL},
    {"[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]"sv, 141271, 0x2a29989151f6eb3aULL},
    {"[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]"sv, 141640, 0xb73d44ca85448cf6ULL},
    {"[\\r\\n/]"sv, 3, 0x36be9cf9088f5fedULL},
    {"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]"sv, 21094, 0x4365a3e1b2fc0348ULL},
    {"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]"sv, 32, 0xef6fecde6f6ab6fbULL},
    {"[A-Za-z]"sv, 52, 0x5962c327aa212205ULL},
    {"."sv, 1112063, 0x6490445b0fe3fb2fULL},
    {"(?i:s)"sv, 3, 0x2ba7d15fbcf55255ULL},
    {"(?i:t)"sv, 2, 0x58d102a8777dad45ULL},
    {"(?i:r)"sv, 2, 0x56d09e6c0b8991e5ULL},
    {"(?i:e)"sv, 2, 0xee78b051082647d5ULL},
    {"(?i:v)"sv, 2, 0x582636945381a425ULL},
    {"(?i:m)"sv, 2, 0xe6798856adf2b455ULL},
    {"(?i:l)"sv, 2, 0x6579a35762ac41e5ULL},
    {"(?i:d)"sv, 2, 0x6d78cb51bcdfd565ULL},
    {"(?i:k)"sv, 3, 0x711ab5693705a744ULL},
    {"(?i:[a-z])"sv, 54, 0x95e565c584df4f14ULL},
    {"\\p{Alphabetic}"sv, 142759, 0xe5a2b1cf304f6383ULL},
    {"[[:punct:]]"sv, 9369, 0x538cba54c442863ULL},
    {"[[:space:]]"sv, 25, 0x7db14e6e1f1a2f5ULL},
    {"[[:alpha:]]"sv, 142759, 0xe5a2b1cf304f6383ULL},
    {"\\p{Mc}"sv, 468, 0x993b3cc93cbf96bbULL},
    {"\\p{Me}"sv, 13, 0xa47a7cc03877e260ULL},
    {"\\p{Nl}"sv, 236, 0xd60a11a368ccba98ULL},
    {"\\p{No}"sv, 915, 0x1f3eb607511f2cbeULL},
    {"\\p{Pc}"sv, 10, 0x5c092d0da70ddc7eULL},
    {"\\p{Pd}"sv, 27, 0x69127255f5d8fa84ULL},
    {"\\p{Ps}"sv, 79, 0x2948c844cccc5706ULL},
    {"\\p{Pe}"sv, 77, 0x95e188a074f69d45ULL},
    {"\\p{Pi}"sv, 12, 0xed18a532447a6a0ULL},
    {"\\p{Pf}"sv, 10, 0x512f9da2e3283691ULL},
    {"\\p{Po}"sv, 640, 0x54bd0a2a55b4286eULL},
    {"\\p{Sm}"sv, 950, 0xfa10ba2790a23895ULL},
    {"\\p{Sc}"sv, 63, 0x18adf81ac27a2606ULL},
    {"\\p{Sk}"sv, 125, 0xd4b82fe59b23f1f5ULL},
    {"\\p{So}"sv, 7376, 0xfbde8acf22fb5ad3ULL},
    {"\\p{Zs}"sv, 17, 0x352bf3570e8b0dc8ULL},
    {"\\p{Zl}"sv, 1, 0x62d4b5b825c43bbdULL},
    {"\\p{Zp}"sv, 1, 0x987b49ae958ed46cULL},
    {"\\p{Cc}"sv, 65, 0x21bb5dad90e006faULL},
    {"\\p{Cf}"sv, 170, 0xdea2f23a23873a6cULL},
    {"\\p{Cs}"sv, 0, 0xcbf29ce484222325ULL},
    {"\\p{Co}"sv, 137468, 0xe2de41a622f0e569ULL},
    {"\\p{Cn}"sv, 819533, 0x3cc15daf9ffef5aeULL},
    {"\\p{Han}"sv, 99030, 0xc64be76eb86e54d8ULL},
    {"\\p{Hiragana}"sv, 381, 0xac1be7c71e612345ULL},
    {"\\p{Katakana}"sv, 321, 0xc670e3d3c095866eULL},
    {"\\p{Latin}"sv, 1487, 0xdeee9e0a606c405ULL},
    {"\\p{Greek}"sv, 518, 0x815e7734fbe9b0efULL},
    {"\\p{Cyrillic}"sv, 508, 0x9a49a204cf8d5088ULL},
    {"\\p{Common}"sv, 9053, 0xa844cff91d696a89ULL},
    {"\\p{Inherited}"sv, 657, 0xe7ac221d08f42c2bULL},
    {"\\p{Word}"sv, 144671, 0x84911bebd359ca4cULL},
    {"\\p{Alnum}"sv, 143519, 0x946e5acbffc20dd9ULL},
    {"\\p{Join_Control}"sv, 2, 0x454ee6e1cd5082b4ULL},
    {"\\p{Uppercase}"sv, 1978, 0x41c9825c6a880a1cULL},
    {"\\p{Lowercase}"sv, 2569, 0x88a52d226ff1cb11ULL},
    {"\\p{White_Space}"sv, 25, 0x7db14e6e1f1a2f5ULL},
    {"\\b"sv, 0, 0xcbf29ce484222325ULL},
    {"\\B"sv, 0, 0xcbf29ce484222325ULL},
    {"[[:alnum:]]"sv, 143519, 0x946e5acbffc20dd9ULL},
    {"[[:digit:]]"sv, 760, 0x42d158e6fb1eebdfULL},
    {"[[:upper:]]"sv, 1978, 0x41c9825c6a880a1cULL},
    {"[[:lower:]]"sv, 2569, 0x88a52d226ff1cb11ULL},
    {"[[:word:]]"sv, 144665, 0xe7b565f5d3a103ffULL},
    {"[[:xdigit:]]"sv, 22, 0xaf15325b68b38cf4ULL},
    {"[[:blank:]]"sv, 18, 0x11858f25fe2c96adULL},
    {"[[:cntrl:]]"sv, 65, 0x21bb5dad90e006faULL},
    {"\\p{Emoji}"sv, 1431, 0x691dbe251c90b2f4ULL},
    {"\\p{Any}"sv, 1112064, 0x41d1c697e6c0db25ULL},
    {"\\p{Assigned}"sv, 292531, 0xd8583df41644aad2ULL},
    {"\\X"sv, 1112064, 0x41d1c697e6c0db25ULL},
    {"\\R"sv, 7, 0x93c5c97e57c70171ULL},
    {"\\N"sv, 1112063, 0x6490445b0fe3fb2fULL},
    {"\\O"sv, 1112064, 0x41d1c697e6c0db25ULL},
};

const ExhaustiveCase kRealPatternPieces[] = {
    {"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv, 3147, 0xe04d0f5bf57b21bcULL},
    {"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv, 1942, 0xcc4596e9ab24e666ULL},
    {"\\p{N}{1,3}"sv, 851, 0x94daf083270160bbULL},
    {"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+"sv, 5, 0xd4af08c813bd8467ULL},
    {"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"sv, 1637, 0xff6797855c368dc9ULL},
    {"[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"sv, 2440, 0x1f7351b710ce7818ULL},
    {"'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"sv, 1612, 0x584e2572b9f1f9d2ULL},
};

std::vector<std::string_view> isolated(const Regex& regex, std::string_view text) {
  std::vector<std::string_view> out;
  if (text.empty()) return out;
  std::size_t previous = 0;
  regex.for_each_match(text, [&](std::size_t begin, std::size_t end) {
    if (begin > previous) out.push_back(text.substr(previous, begin - previous));
    if (end > begin) out.push_back(text.substr(begin, end - begin));
    previous = end;
  });
  if (previous < text.size()) out.push_back(text.substr(previous));
  return out;
}

std::vector<std::string_view> matches(const Regex& regex, std::string_view text) {
  std::vector<std::string_view> out;
  if (text.empty()) return out;
  regex.for_each_match(text, [&](std::size_t begin, std::size_t end) {
    if (end > begin) out.push_back(text.substr(begin, end - begin));
  });
  return out;
}

// Every code point but the surrogates, in order, with the byte offset of each.
struct AllCodePoints {
  std::string text;
  std::vector<char32_t> code_points;
  std::vector<std::int32_t> index_of_offset;  // byte offset -> code point index, -1 inside one
  AllCodePoints() {
    for (char32_t c = 0; c <= 0x10FFFF; ++c) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      index_of_offset.resize(text.size() + 1, -1);
      index_of_offset[text.size()] = static_cast<std::int32_t>(code_points.size());
      code_points.push_back(c);
      textedge::detail::append_utf8(text, c);
    }
    index_of_offset.resize(text.size() + 1, -1);
    index_of_offset[text.size()] = static_cast<std::int32_t>(code_points.size());
  }
};

const AllCodePoints& all_code_points() {
  static const AllCodePoints all;
  return all;
}

struct Fnv {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  std::size_t count = 0;
  void add(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) {
      hash ^= (v >> (8 * k)) & 0xFF;
      hash *= 0x100000001b3ULL;
    }
    ++count;
  }
};

std::string show(const std::vector<std::string_view>& pieces) {
  std::string out = "[";
  for (auto p : pieces) out += "\"" + std::string(p) + "\" ";
  return out + "]";
}

TEST(Regex, RealTokenizerPatternsMatchTheReference) {
  for (const auto& c : kRealCases) {
    Regex regex(kRealPatterns[c.pattern]);
    auto got = isolated(regex, kTexts[c.text]);
    EXPECT_EQ(got, c.pieces) << "pattern " << kRealPatterns[c.pattern] << "\ntext " << kTexts[c.text]
                             << "\ngot " << show(got) << "\nwant " << show(c.pieces);
  }
}

TEST(Regex, SyntaxMatchesTheReference) {
  for (const auto& c : kSyntaxCases) {
    if (c.invalid) {
      EXPECT_THROW(Regex{c.pattern}, std::invalid_argument) << c.pattern;
      continue;
    }
    Regex regex(c.pattern);
    EXPECT_EQ(matches(regex, c.text), c.matches) << "pattern " << c.pattern << " -> " << regex.translated_pattern()
                                                 << "\ngot " << show(matches(regex, c.text));
    EXPECT_EQ(isolated(regex, c.text), c.pieces) << "pattern " << c.pattern << " -> " << regex.translated_pattern()
                                                 << "\ngot " << show(isolated(regex, c.text));
  }
}

TEST(Regex, EveryCodePointMatchesLikeOniguruma) {
  const AllCodePoints& all = all_code_points();
  for (const auto& c : kCodePointSets) {
    Regex regex(c.pattern);
    Fnv fnv;
    regex.for_each_match(all.text, [&](std::size_t begin, std::size_t end) {
      for (auto i = all.index_of_offset[begin]; i < all.index_of_offset[end]; ++i) fnv.add(all.code_points[i]);
    });
    EXPECT_EQ(fnv.count, c.count) << c.pattern << " -> " << regex.translated_pattern();
    EXPECT_EQ(fnv.hash, c.hash) << c.pattern << " -> " << regex.translated_pattern();
  }
}

TEST(Regex, RealPatternsOverEveryCodePoint) {
  const AllCodePoints& all = all_code_points();
  for (const auto& c : kRealPatternPieces) {
    Regex regex(c.pattern);
    Fnv fnv;
    for (auto piece : isolated(regex, all.text))
      fnv.add(static_cast<std::uint32_t>(all.index_of_offset[piece.data() + piece.size() - all.text.data()]));
    EXPECT_EQ(fnv.count, c.count) << c.pattern;
    EXPECT_EQ(fnv.hash, c.hash) << c.pattern;
  }
}

// for_each_match runs a program without the Unicode 15/16 additions over text that has none of
// them; over every other code point it must agree with the exact program find() uses.
TEST(Regex, FastProgramAgreesWhereItIsUsed) {
  const AllCodePoints& all = all_code_points();
  std::vector<std::string_view> patterns(std::begin(kRealPatterns), std::end(kRealPatterns));
  for (std::string_view p : {"\\p{L}+"sv, "[^\\s\\p{L}\\p{N}]"sv, "\\w+\\b"sv, "[[:punct:]]"sv, "\\p{Cn}"sv, "\\p{^Han}+"sv})
    patterns.push_back(p);
  for (std::string_view pattern : patterns) {
    Regex regex(pattern);
    std::string text;
    for (char32_t c : all.code_points) {
      std::string one = textedge::detail::utf8(c);
      if (regex.uses_fast_program(one) || !regex.uses_fast_program("a")) text += one;
    }
    EXPECT_FALSE(regex.uses_fast_program(all.text)) << pattern;
    EXPECT_EQ(regex.uses_fast_program(text), regex.uses_fast_program("a")) << pattern;
    std::vector<std::pair<std::size_t, std::size_t>> fast, exact;
    regex.for_each_match(text, [&](std::size_t b, std::size_t e) { fast.emplace_back(b, e); });
    std::size_t from = 0, b = 0, e = 0, previous_end = std::string::npos;
    while (from <= text.size() && regex.find(text, from, b, e)) {
      if (b == e && e == previous_end) {
        from += from < text.size() ? textedge::detail::utf8_length(static_cast<unsigned char>(text[from])) : 1;
        continue;
      }
      exact.emplace_back(b, e);
      from = previous_end = e;
    }
    EXPECT_EQ(fast, exact) << pattern;
  }
}

TEST(Regex, SpaceIsWhiteSpaceOnly) {
  // Oniguruma's \s is White_Space; PCRE2's own \s would also take U+180E.
  Regex space("\\s");
  std::vector<char32_t> got;
  const AllCodePoints& all = all_code_points();
  space.for_each_match(all.text, [&](std::size_t begin, std::size_t) { got.push_back(all.code_points[all.index_of_offset[begin]]); });
  std::vector<char32_t> want = {0x9, 0xA, 0xB, 0xC, 0xD, 0x20, 0x85, 0xA0, 0x1680};
  for (char32_t c = 0x2000; c <= 0x200A; ++c) want.push_back(c);
  for (char32_t c : {0x2028, 0x2029, 0x202F, 0x205F, 0x3000}) want.push_back(c);
  EXPECT_EQ(got, want);
}

TEST(Regex, KnownDifferenceMnStillHasU1171E) {
  // U+1171E moved from Mn to Mc in Unicode 16; PCRE2's Unicode 14 \p{Mn} cannot lose it.
  std::size_t b = 0, e = 0;
  EXPECT_TRUE(Regex("\\p{Mn}").find("\xF0\x91\x9C\x9E", 0, b, e));
  EXPECT_TRUE(Regex("\\p{Mc}").find("\xF0\x91\x9C\x9E", 0, b, e));
  EXPECT_TRUE(Regex("\\p{M}").find("\xF0\x91\x9C\x9E", 0, b, e));
}

TEST(Regex, OnigurumaOnlyConstructsAreRefused) {
  // The reference accepts these; PCRE2 has no equivalent, so loading fails loudly instead of
  // matching differently.
  for (std::string_view pattern : {"[\\p{L}&&[a-z]]"sv, "(?~abc)"sv, "(?<=a+)b"sv, "(?W:\\w)"sv, "[[:graph:]]"sv, "\\p{Print}"sv})
    EXPECT_THROW(Regex{pattern}, std::invalid_argument) << pattern;
}

TEST(Regex, KnownDifferenceMultiCharacterCaseFolding) {
  // Oniguruma matches (?i:straße) against "STRASSE" (ß folds to ss); PCRE2 folds one character
  // to one character. No real tokenizer pattern has such a letter under (?i).
  EXPECT_EQ(matches(Regex("(?i:straße)"), "STRASSE strasse STRAßE"), (std::vector<std::string_view>{"STRAßE"}));
}

TEST(Regex, InvalidPatternReportsPcre2MessageAndOffset) {
  try {
    Regex regex("ab(c");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("missing closing parenthesis"), std::string::npos) << what;
    EXPECT_NE(what.find("offset 4"), std::string::npos) << what;
  }
}

TEST(Regex, FindStartsAtTheGivenOffsetAndSeesWhatIsBefore) {
  Regex regex("(?<=a)b|^c");
  std::size_t b = 0, e = 0;
  ASSERT_TRUE(regex.find("abab", 2, b, e));
  EXPECT_EQ(b, 3u);
  EXPECT_EQ(e, 4u);
  EXPECT_FALSE(regex.find("xc", 1, b, e));
  EXPECT_FALSE(regex.find("", 0, b, e));
}

TEST(Regex, MovedRegexStillMatches) {
  Regex a("\\p{N}+");
  Regex b = std::move(a);
  EXPECT_EQ(matches(b, "ab 123 ٤٥"), (std::vector<std::string_view>{"123", "٤٥"}));
}

TEST(Regex, ConcurrentMatchingAgrees) {
  Regex regex(kRealPatterns[1]);
  std::string text;
  for (auto t : kTexts) text += t;
  auto want = isolated(regex, text);
  std::vector<std::thread> threads;
  std::vector<int> ok(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      bool same = true;
      for (int k = 0; k < 200; ++k) same = same && isolated(regex, text) == want;
      ok[t] = same;
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_TRUE(ok[t]) << t;
}

TEST(Regex, LongWhitespaceRunsDoNotExhaustTheStack) {
  Regex regex(kRealPatterns[1]);
  std::string text = "a" + std::string(1 << 20, ' ') + "b" + std::string(1 << 20, '\n');
  auto pieces = isolated(regex, text);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[1].size(), (1u << 20) - 1);
  EXPECT_EQ(pieces[2], " b");
}

}  // namespace
