// Pre-tokenizers against the reference. Every expected value was produced by tokenizers 0.23.2
// through Node: a tokenizer.json with the pre_tokenizer below, read back with
// getPreTokenizer().preTokenizeString(text) (which starts at offset 0, so at_start is true).
// ByteLevel pieces come back in the GPT-2 alphabet; they are stored here as the raw bytes they
// stand for, which is what textedge hands the model. kBadConfigs record what the reference says
// about each refused configuration. The exhaustive table holds the number of pieces and the
// FNV-1a 64 hash of their (begin, end) code point offsets when the pre-tokenizer runs over the
// string of every code point U+0000..U+10FFFF (surrogates skipped; kSpaced puts each one
// between "a" and " ", kContraction between "'" and "s ").
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

using namespace std::literals;
using textedge::LoadError;
using textedge::detail::JsonDocument;
using textedge::detail::PreTokenizer;

// Counts heap allocations so the tests can check that the hot chain allocates nothing. Not under
// AddressSanitizer, whose own operator new would then pair with this free().
static std::atomic<long> g_allocations{0};
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCountingAllocations = false;
#else
constexpr bool kCountingAllocations = true;
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace {

struct PieceCase {
  int config;
  int text;
  std::vector<std::string_view> pieces;
};

struct BadConfig {
  std::string_view json;
  std::string_view path;     // LoadError::json_path()
  std::string_view mention;  // part of the message
};

enum ExhaustiveText { kPlain, kSpaced, kContraction };
struct ExhaustiveCase {
  std::string_view json;
  ExhaustiveText text;
  std::size_t pieces;
  std::uint64_t hash;
};

const std::string_view kConfigs[] = {
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,\"use_regex\":false}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\" \"},\"behavior\":\"MergedWithPrevious\",\"invert\":false}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\p{N}{1,3}\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[!\\\"#$%&'()*+,\\\\-./:;<=>?@\\\\[\\\\\\\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\\\p{L}\\\\p{P}\\\\p{S}]?[\\\\p{L}\\\\p{M}]+| ?[\\\\p{P}\\\\p{S}]+[\\r\\n]*|\\\\s*[\\r\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n/]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv,
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":true,\"use_regex\":true}"sv,
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false}"sv,
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":false,\"use_regex\":false}"sv,
    "{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"Removed\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Removed\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Removed\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"x*\"},\"behavior\":\"Removed\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"Isolated\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"x*\"},\"behavior\":\"Isolated\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"MergedWithPrevious\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"MergedWithPrevious\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"MergedWithPrevious\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"x*\"},\"behavior\":\"MergedWithPrevious\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"MergedWithNext\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"MergedWithNext\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"MergedWithNext\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"x*\"},\"behavior\":\"MergedWithNext\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"Contiguous\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Contiguous\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"Contiguous\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"x*\"},\"behavior\":\"Contiguous\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"-\"},\"behavior\":\"Removed\",\"invert\":true}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"\"},\"behavior\":\"Isolated\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"\"},\"behavior\":\"MergedWithNext\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"\xE2\x96\x81\"},\"behavior\":\"MergedWithNext\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"String\":\"fr\"},\"behavior\":\"Removed\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?=e)\"},\"behavior\":\"MergedWithPrevious\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"^|$\"},\"behavior\":\"Isolated\",\"invert\":false}"sv,
    "{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\p{P}\"},\"behavior\":\"MergedWithPrevious\",\"invert\":true}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\"}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"first\",\"split\":true}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"never\"}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"always\",\"split\":false}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"_\",\"add_prefix_space\":true}"sv,
    "{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"add_prefix_space\":false,\"prepend_scheme\":\"never\",\"split\":false}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\d+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"first\"}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"WhitespaceSplit\"},{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"first\",\"split\":false}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"first\"},{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":false}]}"sv,
    "{\"type\":\"Digits\",\"individual_digits\":true}"sv,
    "{\"type\":\"Digits\",\"individual_digits\":false}"sv,
    "{\"type\":\"Punctuation\"}"sv,
    "{\"type\":\"Punctuation\",\"behavior\":\"Removed\"}"sv,
    "{\"type\":\"Punctuation\",\"behavior\":\"MergedWithPrevious\"}"sv,
    "{\"type\":\"Punctuation\",\"behavior\":\"MergedWithNext\"}"sv,
    "{\"type\":\"Punctuation\",\"behavior\":\"Contiguous\"}"sv,
    "{\"type\":\"Whitespace\"}"sv,
    "{\"type\":\"WhitespaceSplit\"}"sv,
    "{\"type\":\"BertPreTokenizer\"}"sv,
    "{\"type\":\"CharDelimiterSplit\",\"delimiter\":\"x\"}"sv,
    "{\"type\":\"CharDelimiterSplit\",\"delimiter\":\"\xE2\x96\x81\"}"sv,
    "{\"type\":\"FixedLength\"}"sv,
    "{\"type\":\"FixedLength\",\"length\":3}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"WhitespaceSplit\"},{\"type\":\"Punctuation\"}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Digits\",\"individual_digits\":true},{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":true}]}"sv,
    "{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\s+\"},\"behavior\":\"MergedWithNext\",\"invert\":false},{\"type\":\"Digits\",\"individual_digits\":false}]},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv,
};

const std::string_view kAllTexts[] = {
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
    "The-final--countdown"sv,
    "Hey friend!     How are you?!?"sv,
    "x1x22x 3.5"sv,
    " \xE2\x96\x81lead  spaces\ttab\n"sv,
    "\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv,
    "e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv,
};

// Indices into kAllTexts of the short set the component configurations run on.
const int kShortTexts[] = {21, 20, 23, 24, 25, 11};

const PieceCase kCases[] = {
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
    {0, 20, {"The"sv, "-final"sv, "--"sv, "countdown"sv}},
    {0, 21, {"Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {0, 22, {"x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " "sv, "3"sv, "."sv, "5"sv}},
    {0, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\ttab"sv, "\n"sv}},
    {0, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {0, 25, {"e"sv, "\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80""end"sv, " "sv}},
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
    {1, 20, {"The"sv, "-final"sv, "--"sv, "countdown"sv}},
    {1, 21, {"Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {1, 22, {"x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " "sv, "3"sv, "."sv, "5"sv}},
    {1, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\ttab"sv, "\n"sv}},
    {1, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {1, 25, {"e"sv, "\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80""end"sv, " "sv}},
    {2, 0, {"Hello, "sv, "world! "sv, "It's "sv, "2024 "sv, "\xE2\x80\x94 "sv, "they'll've "sv, "DON'T "sv, "'S "sv, "and "sv, "I'M "sv, "fine'd"sv}},
    {2, 1, {" "sv, " "sv, "leading "sv, "and "sv, "trailing "sv, " "sv, "\n\n\tTabs\r\nCRLF "sv, " "sv}},
    {2, 2, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 "sv, "\xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8 "sv, "\xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {2, 3, {"emoji "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "family "sv, "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7 "sv, "flags "sv, "\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {2, 4, {"combining: "sv, "e\xCC\x81 "sv, "a\xCC\x88\xCC\x84 "sv, "Z\xCC\xB5\xCC\xA1 "sv, "\xE2\x80\x94 "sv, "\xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87 "sv, "\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {2, 5, {"numbers "sv, "1234567 "sv, "3.14159 "sv, "1,000,000 "sv, "\xD9\xA1\xD9\xA2\xD9\xA3 "sv, "\xE2\x85\xBB "sv, "\xC2\xBD "sv, "\xC2\xB2\xC2\xB3"sv}},
    {2, 6, {"ws: "sv, "a\xC2\xA0""b\xE2\x80\x83""c\xE3\x80\x80""d\xC2\x85""e\xE2\x80\x8B""f\xE1\xA0\x8Eg\xEF\xBB\xBFh\xE2\x80\xA8i\x1Cj\x0Bk\x0Cl"sv}},
    {2, 7, {"code: "sv, "def "sv, "f(x):\n "sv, " "sv, " "sv, " "sv, "return "sv, "x**2 "sv, " "sv, "# "sv, "comment\n\n\n"sv}},
    {2, 8, {"\xE2\x96\x81""already\xE2\x96\x81has\xE2\x96\x81metaspace "sv, "and "sv, "spaces"sv}},
    {2, 9, {"'s "sv, "'S "sv, "'\xC5\xBF "sv, "'ll "sv, "'LL "sv, "'Ll "sv, "' "sv, "s "sv, "'K "sv, "'k "sv, "'\xE2\x85\xAC"sv}},
    {2, 10, {"new: "sv, "\xE1\xB2\x89\xE1\xB2\x8A "sv, "\xF0\x90\xB5\x90\xF0\x90\xB5\xB0 "sv, "\xF0\x9E\x93\x90x "sv, "\xF0\x91\xBC\x80 "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1 "sv, "\xF0\xB1\x8D\x90"sv}},
    {2, 11, {}},
    {2, 12, {" "sv}},
    {2, 13, {"a"sv}},
    {2, 14, {"...!!!??? "sv, ",;"sv}},
    {2, 15, {"x\r\n\r\ny "sv, "\n "sv, "z\n"sv}},
    {2, 16, {"trailing "sv, "spaces "sv, " "sv, " "sv}},
    {2, 17, {"Mixed "sv, " "sv, " "sv, "multiple "sv, " "sv, " "sv, " "sv, "spaces\t\t "sv, "tabs"sv}},
    {2, 18, {"path/to/file.txt\r\n/usr/bin"sv}},
    {2, 19, {"$100 "sv, "& "sv, "50% "sv, "off "sv, "\xE2\x80\x94 "sv, "\xC2\xABquotes\xC2\xBB "sv, "\xE2\x80\x9C""curly\xE2\x80\x9D "sv, "\xE2\x80\x98single\xE2\x80\x99"sv}},
    {2, 20, {"The-final--countdown"sv}},
    {2, 21, {"Hey "sv, "friend! "sv, " "sv, " "sv, " "sv, " "sv, "How "sv, "are "sv, "you?!?"sv}},
    {2, 22, {"x1x22x "sv, "3.5"sv}},
    {2, 23, {" "sv, "\xE2\x96\x81lead "sv, " "sv, "spaces\ttab\n"sv}},
    {2, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1\xD9\xA2"sv}},
    {2, 25, {"e\xCC\x81 "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "\xC2\xBD "sv, "x1x22x "sv, "\xE2\x80\x94 "sv, "\xC2\xABq\xC2\xBB "sv, "\xC2\xA0\xE3\x80\x80""end "sv}},
    {3, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It"sv, "'s"sv, " "sv, "202"sv, "4"sv, " \xE2\x80\x94"sv, " they"sv, "'ll"sv, "'ve"sv, " DON"sv, "'T"sv, " '"sv, "S"sv, " and"sv, " I"sv, "'M"sv, " fine"sv, "'d"sv}},
    {3, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {3, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81"sv, "\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82"sv, "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " "sv, "\xE9\xBE\xA5"sv, "\xE9\xBE\xA6"sv}},
    {3, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8"sv, "\xE2\x80\x8D"sv, "\xF0\x9F\x91\xA9"sv, "\xE2\x80\x8D"sv, "\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {3, 4, {"combining"sv, ":"sv, " e\xCC\x81"sv, " a\xCC\x88\xCC\x84"sv, " Z\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {3, 5, {"numbers"sv, " "sv, "123"sv, "456"sv, "7"sv, " "sv, "3"sv, "."sv, "141"sv, "59"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {3, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {3, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {3, 8, {"\xE2\x96\x81"sv, "already"sv, "\xE2\x96\x81"sv, "has"sv, "\xE2\x96\x81"sv, "metaspace"sv, " and"sv, " spaces"sv}},
    {3, 9, {"'s"sv, " '"sv, "S"sv, " '"sv, "\xC5\xBF"sv, " '"sv, "ll"sv, " '"sv, "LL"sv, " '"sv, "Ll"sv, " '"sv, " s"sv, " '"sv, "K"sv, " '"sv, "k"sv, " '"sv, "\xE2\x85\xAC"sv}},
    {3, 10, {"new"sv, ":"sv, " \xE1\xB2\x89\xE1\xB2\x8A"sv, " \xF0\x90\xB5\x90\xF0\x90\xB5\xB0"sv, " \xF0\x9E\x93\x90x"sv, " \xF0\x91\xBC\x80"sv, " "sv, "\xF0\x96\x84\xB0\xF0\x96\x84\xB1"sv, " \xF0\xB1\x8D\x90"sv}},
    {3, 11, {}},
    {3, 12, {" "sv}},
    {3, 13, {"a"sv}},
    {3, 14, {"...!!!???"sv, " ,;"sv}},
    {3, 15, {"x"sv, "\r\n\r\n"sv, "y"sv, " \n"sv, " z"sv, "\n"sv}},
    {3, 16, {"trailing"sv, " spaces"sv, "   "sv}},
    {3, 17, {"Mixed"sv, "  "sv, " multiple"sv, "   "sv, " spaces"sv, "\t\t"sv, " tabs"sv}},
    {3, 18, {"path"sv, "/to"sv, "/file"sv, ".txt"sv, "\r\n"sv, "/usr"sv, "/bin"sv}},
    {3, 19, {"$"sv, "100"sv, " &"sv, " "sv, "50"sv, "%"sv, " off"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "quotes"sv, "\xC2\xBB"sv, " \xE2\x80\x9C"sv, "curly"sv, "\xE2\x80\x9D"sv, " \xE2\x80\x98"sv, "single"sv, "\xE2\x80\x99"sv}},
    {3, 20, {"The"sv, "-final"sv, "--"sv, "countdown"sv}},
    {3, 21, {"Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {3, 22, {"x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " "sv, "3"sv, "."sv, "5"sv}},
    {3, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\ttab"sv, "\n"sv}},
    {3, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {3, 25, {"e\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80""end"sv, " "sv}},
    {4, 0, {"Hello"sv, ","sv, " world"sv, "!"sv, " It's"sv, " "sv, "202"sv, "4"sv, " \xE2\x80\x94"sv, " they'll"sv, "'ve"sv, " DON'T"sv, " '"sv, "S"sv, " and"sv, " I'M"sv, " fine'd"sv}},
    {4, 1, {" "sv, " leading"sv, " and"sv, " trailing"sv, "  \n\n"sv, "\tTabs"sv, "\r\n"sv, "CRLF"sv, "  "sv}},
    {4, 2, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA8\xE3\x82\xAB\xE3\x82\xBF\xE3\x82\xAB\xE3\x83\x8A"sv, "\xE3\x80\x81\xE3\x81\xB2\xE3\x82\x89\xE3\x81\x8C\xE3\x81\xAA"sv, "\xE3\x80\x82\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"sv, " \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8"sv, " \xE9\xBE\xA5\xE9\xBE\xA6"sv}},
    {4, 3, {"emoji"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " family"sv, " \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"sv, " flags"sv, " \xF0\x9F\x87\xAB\xF0\x9F\x87\xB7!"sv}},
    {4, 4, {"combining"sv, ":"sv, " e\xCC\x81"sv, " a\xCC\x88\xCC\x84"sv, " Z\xCC\xB5\xCC\xA1"sv, " \xE2\x80\x94"sv, " \xE0\xA4\xA8\xE0\xA4\xAE\xE0\xA4\xB8\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA5\x87"sv, " \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7"sv}},
    {4, 5, {"numbers"sv, " "sv, "123"sv, "456"sv, "7"sv, " "sv, "3"sv, "."sv, "141"sv, "59"sv, " "sv, "1"sv, ","sv, "000"sv, ","sv, "000"sv, " "sv, "\xD9\xA1\xD9\xA2\xD9\xA3"sv, " "sv, "\xE2\x85\xBB"sv, " "sv, "\xC2\xBD"sv, " "sv, "\xC2\xB2\xC2\xB3"sv}},
    {4, 6, {"ws"sv, ":"sv, " a"sv, "\xC2\xA0""b"sv, "\xE2\x80\x83""c"sv, "\xE3\x80\x80""d"sv, "\xC2\x85""e"sv, "\xE2\x80\x8B""f"sv, "\xE1\xA0\x8Eg"sv, "\xEF\xBB\xBFh"sv, "\xE2\x80\xA8i"sv, "\x1Cj"sv, "\x0Bk"sv, "\x0Cl"sv}},
    {4, 7, {"code"sv, ":"sv, " def"sv, " f"sv, "(x"sv, "):\n"sv, "   "sv, " return"sv, " x"sv, "**"sv, "2"sv, " "sv, " #"sv, " comment"sv, "\n\n\n"sv}},
    {4, 8, {"\xE2\x96\x81""already"sv, "\xE2\x96\x81has"sv, "\xE2\x96\x81metaspace"sv, " and"sv, " spaces"sv}},
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
    {4, 20, {"The"sv, "-final"sv, "--"sv, "countdown"sv}},
    {4, 21, {"Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {4, 22, {"x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " "sv, "3"sv, "."sv, "5"sv}},
    {4, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\ttab"sv, "\n"sv}},
    {4, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {4, 25, {"e\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80""end"sv, " "sv}},
    {5, 21, {" Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {5, 20, {" The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {5, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {5, 24, {" \xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " \xD9\xA1\xD9\xA2"sv}},
    {5, 25, {" e"sv, "\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80"sv, "end"sv, " "sv}},
    {5, 11, {}},
    {6, 21, {"Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {6, 20, {"The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {6, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {6, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " \xD9\xA1\xD9\xA2"sv}},
    {6, 25, {"e"sv, "\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80"sv, "end"sv, " "sv}},
    {6, 11, {}},
    {7, 21, {" Hey friend!     How are you?!?"sv}},
    {7, 20, {" The-final--countdown"sv}},
    {7, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {7, 24, {" \xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {7, 25, {" e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {7, 11, {}},
    {8, 21, {"Hey friend!     How are you?!?"sv}},
    {8, 20, {"The-final--countdown"sv}},
    {8, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {8, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {8, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {8, 11, {}},
    {9, 21, {"Hey friend!     How are you?!?"sv}},
    {9, 20, {"The"sv, "final"sv, "countdown"sv}},
    {9, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {9, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {9, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {9, 11, {}},
    {10, 21, {"Hey"sv, "friend!"sv, "How"sv, "are"sv, "you?!?"sv}},
    {10, 20, {"The-final--countdown"sv}},
    {10, 23, {"\xE2\x96\x81lead"sv, "spaces"sv, "tab"sv}},
    {10, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {10, 25, {"e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xABq\xC2\xBB"sv, "end"sv}},
    {10, 11, {}},
    {11, 21, {" "sv, "     "sv, " "sv, " "sv}},
    {11, 20, {}},
    {11, 23, {" "sv, "  "sv, "\t"sv, "\n"sv}},
    {11, 24, {" "sv, " "sv}},
    {11, 25, {" "sv, " "sv, " "sv, " "sv, " "sv, " \xC2\xA0\xE3\x80\x80"sv, " "sv}},
    {11, 11, {}},
    {12, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {12, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {12, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {12, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {12, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "1"sv, "2"sv, "2"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {12, 11, {}},
    {13, 21, {"Hey friend!     How are you?!?"sv}},
    {13, 20, {"The"sv, "-"sv, "final"sv, "-"sv, "-"sv, "countdown"sv}},
    {13, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {13, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {13, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {13, 11, {}},
    {14, 21, {"Hey"sv, " "sv, "friend!"sv, "     "sv, "How"sv, " "sv, "are"sv, " "sv, "you?!?"sv}},
    {14, 20, {"The-final--countdown"sv}},
    {14, 23, {" "sv, "\xE2\x96\x81lead"sv, "  "sv, "spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {14, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {14, 25, {"e\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x1x22x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80"sv, "end"sv, " "sv}},
    {14, 11, {}},
    {15, 21, {"Hey"sv, " "sv, "friend!"sv, "     "sv, "How"sv, " "sv, "are"sv, " "sv, "you?!?"sv}},
    {15, 20, {"The-final--countdown"sv}},
    {15, 23, {" "sv, "\xE2\x96\x81lead"sv, "  "sv, "spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {15, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {15, 25, {"e\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x1x22x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80"sv, "end"sv, " "sv}},
    {15, 11, {}},
    {16, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {16, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {16, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {16, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {16, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {16, 11, {}},
    {17, 21, {"Hey friend!     How are you?!?"sv}},
    {17, 20, {"The-"sv, "final-"sv, "-"sv, "countdown"sv}},
    {17, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {17, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {17, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {17, 11, {}},
    {18, 21, {"Hey "sv, "friend!     "sv, "How "sv, "are "sv, "you?!?"sv}},
    {18, 20, {"The-final--countdown"sv}},
    {18, 23, {" "sv, "\xE2\x96\x81lead  "sv, "spaces\t"sv, "tab\n"sv}},
    {18, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1\xD9\xA2"sv}},
    {18, 25, {"e\xCC\x81 "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "\xC2\xBD "sv, "x1x22x "sv, "\xE2\x80\x94 "sv, "\xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80"sv, "end "sv}},
    {18, 11, {}},
    {19, 21, {"Hey"sv, " friend!"sv, "     How"sv, " are"sv, " you?!?"sv}},
    {19, 20, {"The-final--countdown"sv}},
    {19, 23, {" \xE2\x96\x81lead"sv, "  spaces"sv, "\ttab"sv, "\n"sv}},
    {19, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " \xD9\xA1\xD9\xA2"sv}},
    {19, 25, {"e\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xC2\xBD"sv, " x1x22x"sv, " \xE2\x80\x94"sv, " \xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end"sv, " "sv}},
    {19, 11, {}},
    {20, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {20, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {20, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {20, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {20, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1x"sv, "2"sv, "2x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {20, 11, {}},
    {21, 21, {"Hey friend!     How are you?!?"sv}},
    {21, 20, {"The"sv, "-final"sv, "-"sv, "-countdown"sv}},
    {21, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {21, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {21, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {21, 11, {}},
    {22, 21, {"Hey"sv, " friend!"sv, "     How"sv, " are"sv, " you?!?"sv}},
    {22, 20, {"The-final--countdown"sv}},
    {22, 23, {" \xE2\x96\x81lead"sv, "  spaces"sv, "\ttab"sv, "\n"sv}},
    {22, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " \xD9\xA1\xD9\xA2"sv}},
    {22, 25, {"e\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xC2\xBD"sv, " x1x22x"sv, " \xE2\x80\x94"sv, " \xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end"sv, " "sv}},
    {22, 11, {}},
    {23, 21, {"Hey "sv, "friend!     "sv, "How "sv, "are "sv, "you?!?"sv}},
    {23, 20, {"The-final--countdown"sv}},
    {23, 23, {" "sv, "\xE2\x96\x81lead  "sv, "spaces\t"sv, "tab\n"sv}},
    {23, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1\xD9\xA2"sv}},
    {23, 25, {"e\xCC\x81 "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "\xC2\xBD "sv, "x1x22x "sv, "\xE2\x80\x94 "sv, "\xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80"sv, "end "sv}},
    {23, 11, {}},
    {24, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {24, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {24, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {24, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {24, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x1"sv, "x2"sv, "2"sv, "x "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {24, 11, {}},
    {25, 21, {"Hey friend!     How are you?!?"sv}},
    {25, 20, {"The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {25, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {25, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {25, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {25, 11, {}},
    {26, 21, {"Hey"sv, " "sv, "friend!"sv, "     "sv, "How"sv, " "sv, "are"sv, " "sv, "you?!?"sv}},
    {26, 20, {"The-final--countdown"sv}},
    {26, 23, {" "sv, "\xE2\x96\x81lead"sv, "  "sv, "spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {26, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {26, 25, {"e\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x1x22x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80"sv, "end"sv, " "sv}},
    {26, 11, {}},
    {27, 21, {"Hey"sv, " "sv, "friend!"sv, "     "sv, "How"sv, " "sv, "are"sv, " "sv, "you?!?"sv}},
    {27, 20, {"The-final--countdown"sv}},
    {27, 23, {" "sv, "\xE2\x96\x81lead"sv, "  "sv, "spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {27, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {27, 25, {"e\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x1x22x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80"sv, "end"sv, " "sv}},
    {27, 11, {}},
    {28, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {28, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {28, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {28, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {28, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {28, 11, {}},
    {29, 21, {}},
    {29, 20, {"-"sv, "-"sv, "-"sv}},
    {29, 23, {}},
    {29, 24, {}},
    {29, 25, {}},
    {29, 11, {}},
    {30, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {30, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {30, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {30, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {30, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {30, 11, {}},
    {31, 21, {"H"sv, "e"sv, "y"sv, " "sv, "f"sv, "r"sv, "i"sv, "e"sv, "n"sv, "d"sv, "!"sv, " "sv, " "sv, " "sv, " "sv, " "sv, "H"sv, "o"sv, "w"sv, " "sv, "a"sv, "r"sv, "e"sv, " "sv, "y"sv, "o"sv, "u"sv, "?"sv, "!"sv, "?"sv}},
    {31, 20, {"T"sv, "h"sv, "e"sv, "-"sv, "f"sv, "i"sv, "n"sv, "a"sv, "l"sv, "-"sv, "-"sv, "c"sv, "o"sv, "u"sv, "n"sv, "t"sv, "d"sv, "o"sv, "w"sv, "n"sv}},
    {31, 23, {" "sv, "\xE2\x96\x81"sv, "l"sv, "e"sv, "a"sv, "d"sv, " "sv, " "sv, "s"sv, "p"sv, "a"sv, "c"sv, "e"sv, "s"sv, "\t"sv, "t"sv, "a"sv, "b"sv, "\n"sv}},
    {31, 24, {"\xE6\x95\xB0"sv, "\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " "sv, "\xE6\xBC\xA2"sv, "\xE5\xAD\x97"sv, " "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {31, 25, {"e"sv, "\xCC\x81"sv, " "sv, "\xF0\x9F\x98\x80"sv, "\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " "sv, "x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x"sv, " "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " "sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "e"sv, "n"sv, "d"sv, " "sv}},
    {31, 11, {}},
    {32, 21, {"Hey friend!     How are you?!?"sv}},
    {32, 20, {"The-final--countdown"sv}},
    {32, 23, {" "sv, "\xE2\x96\x81lead  spaces\ttab\n"sv}},
    {32, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {32, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {32, 11, {}},
    {33, 21, {"Hey "sv, "iend!     How are you?!?"sv}},
    {33, 20, {"The-final--countdown"sv}},
    {33, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {33, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {33, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {33, 11, {}},
    {34, 21, {"H"sv, "ey fri"sv, "end!     How ar"sv, "e you?!?"sv}},
    {34, 20, {"Th"sv, "e-final--countdown"sv}},
    {34, 23, {" \xE2\x96\x81l"sv, "ead  spac"sv, "es\ttab\n"sv}},
    {34, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {34, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80"sv, "end "sv}},
    {34, 11, {}},
    {35, 21, {"Hey friend!     How are you?!?"sv}},
    {35, 20, {"The-final--countdown"sv}},
    {35, 23, {" \xE2\x96\x81lead  spaces\ttab"sv, "\n"sv}},
    {35, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {35, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {35, 11, {}},
    {36, 21, {"Hey friend"sv, "!     How are you"sv, "?"sv, "!"sv, "?"sv}},
    {36, 20, {"The"sv, "-final"sv, "-"sv, "-countdown"sv}},
    {36, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {36, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {36, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x "sv, "\xE2\x80\x94 "sv, "\xC2\xABq"sv, "\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {36, 11, {}},
    {37, 21, {"\xE2\x96\x81Hey"sv, "\xE2\x96\x81""friend!"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81How"sv, "\xE2\x96\x81""are"sv, "\xE2\x96\x81you?!?"sv}},
    {37, 20, {"\xE2\x96\x81The-final--countdown"sv}},
    {37, 23, {"\xE2\x96\x81"sv, "\xE2\x96\x81lead"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81spaces\ttab\n"sv}},
    {37, 24, {"\xE2\x96\x81\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xE2\x96\x81\xD9\xA1\xD9\xA2"sv}},
    {37, 25, {"\xE2\x96\x81""e\xCC\x81"sv, "\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xE2\x96\x81\xC2\xBD"sv, "\xE2\x96\x81x1x22x"sv, "\xE2\x96\x81\xE2\x80\x94"sv, "\xE2\x96\x81\xC2\xABq\xC2\xBB"sv, "\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end"sv, "\xE2\x96\x81"sv}},
    {37, 11, {}},
    {38, 21, {"\xE2\x96\x81Hey"sv, "\xE2\x96\x81""friend!"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81How"sv, "\xE2\x96\x81""are"sv, "\xE2\x96\x81you?!?"sv}},
    {38, 20, {"\xE2\x96\x81The-final--countdown"sv}},
    {38, 23, {"\xE2\x96\x81"sv, "\xE2\x96\x81lead"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81spaces\ttab\n"sv}},
    {38, 24, {"\xE2\x96\x81\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xE2\x96\x81\xD9\xA1\xD9\xA2"sv}},
    {38, 25, {"\xE2\x96\x81""e\xCC\x81"sv, "\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xE2\x96\x81\xC2\xBD"sv, "\xE2\x96\x81x1x22x"sv, "\xE2\x96\x81\xE2\x80\x94"sv, "\xE2\x96\x81\xC2\xABq\xC2\xBB"sv, "\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end"sv, "\xE2\x96\x81"sv}},
    {38, 11, {}},
    {39, 21, {"Hey"sv, "\xE2\x96\x81""friend!"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81How"sv, "\xE2\x96\x81""are"sv, "\xE2\x96\x81you?!?"sv}},
    {39, 20, {"The-final--countdown"sv}},
    {39, 23, {"\xE2\x96\x81"sv, "\xE2\x96\x81lead"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81spaces\ttab\n"sv}},
    {39, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xE2\x96\x81\xD9\xA1\xD9\xA2"sv}},
    {39, 25, {"e\xCC\x81"sv, "\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xE2\x96\x81\xC2\xBD"sv, "\xE2\x96\x81x1x22x"sv, "\xE2\x96\x81\xE2\x80\x94"sv, "\xE2\x96\x81\xC2\xABq\xC2\xBB"sv, "\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end"sv, "\xE2\x96\x81"sv}},
    {39, 11, {}},
    {40, 21, {"\xE2\x96\x81Hey\xE2\x96\x81""friend!\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81How\xE2\x96\x81""are\xE2\x96\x81you?!?"sv}},
    {40, 20, {"\xE2\x96\x81The-final--countdown"sv}},
    {40, 23, {"\xE2\x96\x81\xE2\x96\x81lead\xE2\x96\x81\xE2\x96\x81spaces\ttab\n"sv}},
    {40, 24, {"\xE2\x96\x81\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97\xE2\x96\x81\xD9\xA1\xD9\xA2"sv}},
    {40, 25, {"\xE2\x96\x81""e\xCC\x81\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\xE2\x96\x81\xC2\xBD\xE2\x96\x81x1x22x\xE2\x96\x81\xE2\x80\x94\xE2\x96\x81\xC2\xABq\xC2\xBB\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end\xE2\x96\x81"sv}},
    {40, 11, {}},
    {41, 21, {"_Hey"sv, "_friend!"sv, "_"sv, "_"sv, "_"sv, "_"sv, "_How"sv, "_are"sv, "_you?!?"sv}},
    {41, 20, {"_The-final--countdown"sv}},
    {41, 23, {"_\xE2\x96\x81lead"sv, "_"sv, "_spaces\ttab\n"sv}},
    {41, 24, {"_\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "_\xE6\xBC\xA2\xE5\xAD\x97"sv, "_\xD9\xA1\xD9\xA2"sv}},
    {41, 25, {"_e\xCC\x81"sv, "_\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "_\xC2\xBD"sv, "_x1x22x"sv, "_\xE2\x80\x94"sv, "_\xC2\xABq\xC2\xBB"sv, "_\xC2\xA0\xE3\x80\x80""end"sv, "_"sv}},
    {41, 11, {}},
    {42, 21, {"Hey\xE2\x96\x81""friend!\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81\xE2\x96\x81How\xE2\x96\x81""are\xE2\x96\x81you?!?"sv}},
    {42, 20, {"The-final--countdown"sv}},
    {42, 23, {"\xE2\x96\x81\xE2\x96\x81lead\xE2\x96\x81\xE2\x96\x81spaces\ttab\n"sv}},
    {42, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97\xE2\x96\x81\xD9\xA1\xD9\xA2"sv}},
    {42, 25, {"e\xCC\x81\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\xE2\x96\x81\xC2\xBD\xE2\x96\x81x1x22x\xE2\x96\x81\xE2\x80\x94\xE2\x96\x81\xC2\xABq\xC2\xBB\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end\xE2\x96\x81"sv}},
    {42, 11, {}},
    {43, 21, {"\xE2\x96\x81Hey"sv, "\xE2\x96\x81""friend!"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81How"sv, "\xE2\x96\x81""are"sv, "\xE2\x96\x81you?!?"sv}},
    {43, 20, {"\xE2\x96\x81The-final--countdown"sv}},
    {43, 23, {"\xE2\x96\x81"sv, "\xE2\x96\x81lead"sv, "\xE2\x96\x81"sv, "\xE2\x96\x81spaces\ttab\n"sv}},
    {43, 24, {"\xE2\x96\x81\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE2\x96\x81\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xE2\x96\x81"sv, "\xD9\xA1\xD9\xA2"sv}},
    {43, 25, {"\xE2\x96\x81""e\xCC\x81"sv, "\xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xE2\x96\x81\xC2\xBD"sv, "\xE2\x96\x81x"sv, "1"sv, "x"sv, "22"sv, "x"sv, "\xE2\x96\x81\xE2\x80\x94"sv, "\xE2\x96\x81\xC2\xABq\xC2\xBB"sv, "\xE2\x96\x81\xC2\xA0\xE3\x80\x80""end"sv, "\xE2\x96\x81"sv}},
    {43, 11, {}},
    {44, 21, {"\xE2\x96\x81Hey"sv, "friend!"sv, "How"sv, "are"sv, "you?!?"sv}},
    {44, 20, {"\xE2\x96\x81The-final--countdown"sv}},
    {44, 23, {"\xE2\x96\x81lead"sv, "spaces"sv, "tab"sv}},
    {44, 24, {"\xE2\x96\x81\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {44, 25, {"\xE2\x96\x81""e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xABq\xC2\xBB"sv, "end"sv}},
    {44, 11, {}},
    {45, 21, {" \xE2\x96\x81"sv, "Hey"sv, " \xE2\x96\x81"sv, "friend"sv, "!"sv, " \xE2\x96\x81"sv, " \xE2\x96\x81"sv, " \xE2\x96\x81"sv, " \xE2\x96\x81"sv, " \xE2\x96\x81"sv, "How"sv, " \xE2\x96\x81"sv, "are"sv, " \xE2\x96\x81"sv, "you"sv, "?!?"sv}},
    {45, 20, {" \xE2\x96\x81"sv, "The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {45, 23, {" \xE2\x96\x81"sv, " \xE2\x96\x81"sv, "lead"sv, " \xE2\x96\x81"sv, " \xE2\x96\x81"sv, "spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {45, 24, {" \xE2\x96\x81"sv, "\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE2\x96\x81"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, " \xE2\x96\x81"sv, "\xD9\xA1\xD9\xA2"sv}},
    {45, 25, {" \xE2\x96\x81"sv, "e"sv, "\xCC\x81"sv, " \xE2\x96\x81\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xE2\x96\x81"sv, "\xC2\xBD"sv, " \xE2\x96\x81"sv, "x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x96\x81\xE2\x80\x94"sv, " \xE2\x96\x81\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xE2\x96\x81"sv, "\xC2\xA0"sv, "\xE3\x80\x80"sv, "end"sv, " \xE2\x96\x81"sv}},
    {45, 11, {}},
    {46, 21, {"Hey friend!     How are you?!?"sv}},
    {46, 20, {"The-final--countdown"sv}},
    {46, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {46, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "1"sv, "2"sv, "3"sv, "\xEF\xBC\x94"sv, "\xEF\xBC\x95"sv, "\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1"sv, "\xD9\xA2"sv}},
    {46, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "2"sv, "2"sv, "x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {46, 11, {}},
    {47, 21, {"Hey friend!     How are you?!?"sv}},
    {47, 20, {"The-final--countdown"sv}},
    {47, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {47, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1\xD9\xA2"sv}},
    {47, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {47, 11, {}},
    {48, 21, {"Hey friend"sv, "!"sv, "     How are you"sv, "?"sv, "!"sv, "?"sv}},
    {48, 20, {"The"sv, "-"sv, "final"sv, "-"sv, "-"sv, "countdown"sv}},
    {48, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {48, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {48, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end "sv}},
    {48, 11, {}},
    {49, 21, {"Hey friend"sv, "     How are you"sv}},
    {49, 20, {"The"sv, "final"sv, "countdown"sv}},
    {49, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {49, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {49, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x "sv, " "sv, "q"sv, " \xC2\xA0\xE3\x80\x80""end "sv}},
    {49, 11, {}},
    {50, 21, {"Hey friend!"sv, "     How are you?"sv, "!"sv, "?"sv}},
    {50, 20, {"The-"sv, "final-"sv, "-"sv, "countdown"sv}},
    {50, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {50, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {50, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94"sv, " \xC2\xAB"sv, "q\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end "sv}},
    {50, 11, {}},
    {51, 21, {"Hey friend"sv, "!     How are you"sv, "?"sv, "!"sv, "?"sv}},
    {51, 20, {"The"sv, "-final"sv, "-"sv, "-countdown"sv}},
    {51, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {51, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {51, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x "sv, "\xE2\x80\x94 "sv, "\xC2\xABq"sv, "\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {51, 11, {}},
    {52, 21, {"Hey friend"sv, "!"sv, "     How are you"sv, "?!?"sv}},
    {52, 20, {"The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {52, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {52, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {52, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x "sv, "\xE2\x80\x94"sv, " "sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end "sv}},
    {52, 11, {}},
    {53, 21, {"Hey"sv, "friend"sv, "!"sv, "How"sv, "are"sv, "you"sv, "?!?"sv}},
    {53, 20, {"The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {53, 23, {"\xE2\x96\x81"sv, "lead"sv, "spaces"sv, "tab"sv}},
    {53, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {53, 25, {"e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, "end"sv}},
    {53, 11, {}},
    {54, 21, {"Hey"sv, "friend!"sv, "How"sv, "are"sv, "you?!?"sv}},
    {54, 20, {"The-final--countdown"sv}},
    {54, 23, {"\xE2\x96\x81lead"sv, "spaces"sv, "tab"sv}},
    {54, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {54, 25, {"e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xABq\xC2\xBB"sv, "end"sv}},
    {54, 11, {}},
    {55, 21, {"Hey"sv, "friend"sv, "!"sv, "How"sv, "are"sv, "you"sv, "?"sv, "!"sv, "?"sv}},
    {55, 20, {"The"sv, "-"sv, "final"sv, "-"sv, "-"sv, "countdown"sv}},
    {55, 23, {"\xE2\x96\x81lead"sv, "spaces"sv, "tab"sv}},
    {55, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {55, 25, {"e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, "end"sv}},
    {55, 11, {}},
    {56, 21, {"Hey friend!     How are you?!?"sv}},
    {56, 20, {"The-final--countdown"sv}},
    {56, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {56, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {56, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD "sv, "1"sv, "22"sv, " \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {56, 11, {}},
    {57, 21, {"Hey friend!     How are you?!?"sv}},
    {57, 20, {"The-final--countdown"sv}},
    {57, 23, {" "sv, "lead  spaces\ttab\n"sv}},
    {57, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {57, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {57, 11, {}},
    {58, 21, {"Hey f"sv, "riend"sv, "!    "sv, " How "sv, "are y"sv, "ou?!?"sv}},
    {58, 20, {"The-f"sv, "inal-"sv, "-coun"sv, "tdown"sv}},
    {58, 23, {" \xE2\x96\x81lea"sv, "d  sp"sv, "aces\t"sv, "tab\n"sv}},
    {58, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123"sv, "\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2"sv, "\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {58, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D"sv, "\xF0\x9F\x8F\xBD \xC2\xBD x"sv, "1x22x"sv, " \xE2\x80\x94 \xC2\xABq"sv, "\xC2\xBB \xC2\xA0\xE3\x80\x80""e"sv, "nd "sv}},
    {58, 11, {}},
    {59, 21, {"Hey"sv, " fr"sv, "ien"sv, "d! "sv, "   "sv, " Ho"sv, "w a"sv, "re "sv, "you"sv, "?!?"sv}},
    {59, 20, {"The"sv, "-fi"sv, "nal"sv, "--c"sv, "oun"sv, "tdo"sv, "wn"sv}},
    {59, 23, {" \xE2\x96\x81l"sv, "ead"sv, "  s"sv, "pac"sv, "es\t"sv, "tab"sv, "\n"sv}},
    {59, 24, {"\xE6\x95\xB0\xE5\xAD\x97""1"sv, "23\xEF\xBC\x94"sv, "\xEF\xBC\x95\xEF\xBC\x96 "sv, "\xE6\xBC\xA2\xE5\xAD\x97 "sv, "\xD9\xA1\xD9\xA2"sv}},
    {59, 25, {"e\xCC\x81 "sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " \xC2\xBD "sv, "x1x"sv, "22x"sv, " \xE2\x80\x94 "sv, "\xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80"sv, "end"sv, " "sv}},
    {59, 11, {}},
    {60, 21, {"Hey friend!     How are you?!?"sv}},
    {60, 20, {"The-final--countdown"sv}},
    {60, 23, {" \xE2\x96\x81lead  spaces\ttab\n"sv}},
    {60, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96 \xE6\xBC\xA2\xE5\xAD\x97 \xD9\xA1\xD9\xA2"sv}},
    {60, 25, {"e\xCC\x81 \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xC2\xBD x1x22x \xE2\x80\x94 \xC2\xABq\xC2\xBB \xC2\xA0\xE3\x80\x80""end "sv}},
    {60, 11, {""sv}},
    {61, 21, {"Hey"sv, "friend"sv, "!"sv, "How"sv, "are"sv, "you"sv, "?"sv, "!"sv, "?"sv}},
    {61, 20, {"The"sv, "-"sv, "final"sv, "-"sv, "-"sv, "countdown"sv}},
    {61, 23, {"\xE2\x96\x81lead"sv, "spaces"sv, "tab"sv}},
    {61, 24, {"\xE6\x95\xB0\xE5\xAD\x97""123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, "\xE6\xBC\xA2\xE5\xAD\x97"sv, "\xD9\xA1\xD9\xA2"sv}},
    {61, 25, {"e\xCC\x81"sv, "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, "\xC2\xBD"sv, "x1x22x"sv, "\xE2\x80\x94"sv, "\xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, "end"sv}},
    {61, 11, {}},
    {62, 21, {" Hey"sv, " friend"sv, "!"sv, "    "sv, " How"sv, " are"sv, " you"sv, "?!?"sv}},
    {62, 20, {" The"sv, "-"sv, "final"sv, "--"sv, "countdown"sv}},
    {62, 23, {" \xE2\x96\x81"sv, "lead"sv, " "sv, " spaces"sv, "\t"sv, "tab"sv, "\n"sv}},
    {62, 24, {" \xE6\x95\xB0\xE5\xAD\x97"sv, " 1"sv, " 2"sv, " 3"sv, " \xEF\xBC\x94"sv, " \xEF\xBC\x95"sv, " \xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, " \xD9\xA1"sv, " \xD9\xA2"sv}},
    {62, 25, {" e"sv, "\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, " \xC2\xBD"sv, " x"sv, " 1"sv, " x"sv, " 2"sv, " 2"sv, " x"sv, " \xE2\x80\x94"sv, " \xC2\xAB"sv, "q"sv, "\xC2\xBB"sv, " \xC2\xA0"sv, "\xE3\x80\x80"sv, "end"sv, " "sv}},
    {62, 11, {}},
    {63, 21, {"Hey"sv, " friend!"sv, "     How"sv, " are"sv, " you?!?"sv}},
    {63, 20, {"The-final--countdown"sv}},
    {63, 23, {" \xE2\x96\x81lead"sv, "  spaces"sv, "\ttab"sv, "\n"sv}},
    {63, 24, {"\xE6\x95\xB0\xE5\xAD\x97"sv, "123\xEF\xBC\x94\xEF\xBC\x95\xEF\xBC\x96"sv, " \xE6\xBC\xA2\xE5\xAD\x97"sv, " "sv, "\xD9\xA1\xD9\xA2"sv}},
    {63, 25, {"e\xCC\x81"sv, " \xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"sv, " "sv, "\xC2\xBD"sv, " x"sv, "1"sv, "x"sv, "22"sv, "x"sv, " \xE2\x80\x94"sv, " \xC2\xABq\xC2\xBB"sv, " \xC2\xA0\xE3\x80\x80""end"sv, " "sv}},
    {63, 11, {}},
};

const BadConfig kBadConfigs[] = {
    {"{\"type\":\"ByteLevel\"}"sv, "$"sv, "add_prefix_space"sv},  // reference: missing field `add_prefix_space`
    {"{\"type\":\"ByteLevel\",\"add_prefix_space\":true}"sv, "$"sv, "trim_offsets"sv},  // reference: missing field `trim_offsets`
    {"{\"type\":\"Metaspace\"}"sv, "$"sv, "replacement"sv},  // reference: missing field `replacement`
    {"{\"type\":\"Metaspace\",\"replacement\":\"ab\"}"sv, "$.replacement"sv, "one character"sv},  // reference: invalid value: string "ab", expected a character
    {"{\"type\":\"Metaspace\",\"replacement\":\"\"}"sv, "$.replacement"sv, "one character"sv},  // reference: invalid value: string "", expected a character
    {"{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"add_prefix_space\":false}"sv, "$.add_prefix_space"sv, "prepend_scheme"sv},  // reference: add_prefix_space does not match declared prepend_scheme
    {"{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"add_prefix_space\":false,\"prepend_scheme\":\"first\"}"sv, "$.add_prefix_space"sv, "prepend_scheme"sv},  // reference: add_prefix_space does not match declared prepend_scheme
    {"{\"type\":\"Metaspace\",\"replacement\":\"\xE2\x96\x81\",\"prepend_scheme\":\"bogus\"}"sv, "$.prepend_scheme"sv, "bogus"sv},  // reference: unknown variant `bogus`, expected one of `first`, `never`, `always`
    {"{\"type\":\"Digits\"}"sv, "$"sv, "individual_digits"sv},  // reference: missing field `individual_digits`
    {"{\"type\":\"Punctuation\",\"behavior\":\"contiguous\"}"sv, "$.behavior"sv, "contiguous"sv},  // reference: unknown variant `contiguous`, expected one of `Removed`, `Isolated`, `MergedWithPrevious`,
    {"{\"type\":\"CharDelimiterSplit\"}"sv, "$"sv, "delimiter"sv},  // reference: data did not match any variant of untagged enum PreTokenizerUntagged
    {"{\"type\":\"CharDelimiterSplit\",\"delimiter\":\"xy\"}"sv, "$.delimiter"sv, "one character"sv},  // reference: data did not match any variant of untagged enum PreTokenizerUntagged
    {"{\"type\":\"Split\",\"pattern\":{\"String\":\"x\"},\"behavior\":\"Isolated\"}"sv, "$"sv, "invert"sv},  // reference: missing field `invert`
    {"{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(\"},\"behavior\":\"Isolated\",\"invert\":false}"sv, "$.pattern.Regex"sv, "missing closing parenthesis"sv},  // reference: Oniguruma error: end pattern with unmatched parenthesis
    {"{\"type\":\"Split\",\"pattern\":\"x\",\"behavior\":\"Isolated\",\"invert\":false}"sv, "$.pattern"sv, "String"sv},  // reference: unknown variant `x`, expected `String` or `Regex`
    {"{\"type\":\"Split\",\"pattern\":{\"Glob\":\"x\"},\"behavior\":\"Isolated\",\"invert\":false}"sv, "$.pattern.Glob"sv, "Glob"sv},  // reference: unknown variant `Glob`, expected `String` or `Regex`
    {"{\"type\":\"Sequence\"}"sv, "$"sv, "pretokenizers"sv},  // reference: missing field `pretokenizers`
    {"{\"type\":\"Bogus\"}"sv, "$.type"sv, "Bogus"sv},  // reference: data did not match any variant of untagged enum PreTokenizerUntagged
    {"{\"type\":\"UnicodeScripts\"}"sv, "$.type"sv, "UnicodeScripts"sv},  // reference: accepted; textedge does not support it
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false},{\"type\":\"Digits\",\"individual_digits\":true}]}"sv, "$.pretokenizers[0]"sv, "last element"sv},  // reference: accepted; textedge does not support it
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false}]},{\"type\":\"Digits\",\"individual_digits\":true}]}"sv, "$.pretokenizers[0]"sv, "last element"sv},  // reference: accepted; textedge does not support it
    {"{\"type\":\"FixedLength\",\"length\":0}"sv, "$.length"sv, "positive"sv},  // reference: accepted, then panics when it encodes
};

const ExhaustiveCase kExhaustive[] = {
    {"{\"type\":\"WhitespaceSplit\"}"sv, kPlain, 11, 0x85e3638caa361bccULL},
    {"{\"type\":\"Punctuation\",\"behavior\":\"Removed\"}"sv, kPlain, 157, 0x497844ae0f0d5a9eULL},
    {"{\"type\":\"Digits\",\"individual_digits\":false}"sv, kPlain, 293, 0x36ed8c2cc598d135ULL},
    {"{\"type\":\"BertPreTokenizer\"}"sv, kPlain, 887, 0x427b8f55cf93c28cULL},
    {"{\"type\":\"Whitespace\"}"sv, kSpaced, 2079436, 0x2363cce612c27bd8ULL},
    {"{\"type\":\"Digits\",\"individual_digits\":true}"sv, kSpaced, 3849, 0x5779fec14ea74cefULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,\"use_regex\":false}]}"sv, kPlain, 3147, 0xf3ebda0c6307c01ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,\"use_regex\":false}]}"sv, kSpaced, 2083101, 0x5e82803ac63159b7ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":false,\"use_regex\":false}]}"sv, kContraction, 2226040, 0x9a545623b7b4691eULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kPlain, 1942, 0x2c91b5e2c273e409ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kSpaced, 2083101, 0x5e82803ac63159b7ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kContraction, 2226040, 0x9a545623b7b4691eULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\p{N}{1,3}\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[!\\\"#$%&'()*+,\\\\-./:;<=>?@\\\\[\\\\\\\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\\\p{L}\\\\p{P}\\\\p{S}]?[\\\\p{L}\\\\p{M}]+| ?[\\\\p{P}\\\\p{S}]+[\\r\\n]*|\\\\s*[\\r\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kPlain, 2330, 0xeb7460bb71526fe5ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\p{N}{1,3}\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[!\\\"#$%&'()*+,\\\\-./:;<=>?@\\\\[\\\\\\\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\\\p{L}\\\\p{P}\\\\p{S}]?[\\\\p{L}\\\\p{M}]+| ?[\\\\p{P}\\\\p{S}]+[\\r\\n]*|\\\\s*[\\r\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kSpaced, 2101687, 0x80ae0482c7648aa3ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"\\\\p{N}{1,3}\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[\xE4\xB8\x80-\xE9\xBE\xA5\xE3\x81\x80-\xE3\x82\x9F\xE3\x82\xA0-\xE3\x83\xBF]+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[!\\\"#$%&'()*+,\\\\-./:;<=>?@\\\\[\\\\\\\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\\\p{L}\\\\p{P}\\\\p{S}]?[\\\\p{L}\\\\p{M}]+| ?[\\\\p{P}\\\\p{S}]+[\\r\\n]*|\\\\s*[\\r\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kContraction, 2247134, 0x94ffbbd216dc56c2ULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n/]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kPlain, 2440, 0x905f617bf40afbadULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n/]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kSpaced, 2082489, 0xfa09045d269a729fULL},
    {"{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":\"[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?[\\\\p{Lu}\\\\p{Lt}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]+[\\\\p{Ll}\\\\p{Lm}\\\\p{Lo}\\\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\\\p{N}{1,3}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n/]*|\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":false}]}"sv, kContraction, 2226040, 0x9a545623b7b4691eULL},
    {"{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":true}"sv, kPlain, 1612, 0x30d71d9bef4600b5ULL},
    {"{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":true}"sv, kSpaced, 2083101, 0x5e82803ac63159b7ULL},
    {"{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,\"use_regex\":true}"sv, kContraction, 2226064, 0x343f39ea60437a72ULL},
};

struct Loaded {
  JsonDocument doc;
  std::unique_ptr<PreTokenizer> pre_tokenizer;
  explicit Loaded(std::string_view json)
      : doc(json, "test.json"), pre_tokenizer(textedge::detail::pre_tokenizer_from_json(doc.root())) {}
};

std::vector<std::string> run(const PreTokenizer& p, std::string_view text, bool at_start = true) {
  std::vector<std::string> out;
  p.pre_tokenize(text, at_start, [&](std::string_view piece, bool) { out.emplace_back(piece); });
  return out;
}

std::string show(const std::vector<std::string>& pieces) {
  std::string out = "[";
  for (const auto& p : pieces) out += "\"" + p + "\" ";
  return out + "]";
}

TEST(PreTokenizers, MatchTheReference) {
  for (const auto& c : kCases) {
    Loaded loaded(kConfigs[c.config]);
    auto got = run(*loaded.pre_tokenizer, kAllTexts[c.text]);
    std::vector<std::string> want(c.pieces.begin(), c.pieces.end());
    EXPECT_EQ(got, want) << kConfigs[c.config] << "\ntext: " << kAllTexts[c.text] << "\ngot  " << show(got)
                         << "\nwant " << show(want);
  }
}

TEST(PreTokenizers, InvalidConfigurationsNameThePath) {
  for (const auto& c : kBadConfigs) {
    try {
      Loaded loaded(c.json);
      ADD_FAILURE() << "accepted " << c.json;
    } catch (const LoadError& e) {
      EXPECT_EQ(e.json_path(), c.path) << c.json << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.mention), std::string::npos) << c.json << ": " << e.what();
    }
  }
}

TEST(PreTokenizers, EveryCodePointClassifiesLikeTheReference) {
  std::string plain, spaced, contraction;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    textedge::detail::append_utf8(plain, c);
    spaced += 'a';
    textedge::detail::append_utf8(spaced, c);
    spaced += ' ';
    contraction += '\'';
    textedge::detail::append_utf8(contraction, c);
    contraction += "s ";
  }
  // byte offset -> code point offset
  auto code_point_offsets = [](const std::string& s) {
    std::vector<std::int32_t> index(s.size() + 1, -1);
    std::int32_t n = 0;
    for (std::size_t i = 0; i < s.size(); i += static_cast<std::size_t>(textedge::detail::utf8_length(static_cast<unsigned char>(s[i]))))
      index[i] = n++;
    index[s.size()] = n;
    return index;
  };
  const std::string* texts[] = {&plain, &spaced, &contraction};
  const std::vector<std::int32_t> indexes[] = {code_point_offsets(plain), code_point_offsets(spaced),
                                               code_point_offsets(contraction)};
  for (const auto& c : kExhaustive) {
    Loaded loaded(c.json);
    const std::string& text = *texts[c.text];
    const auto& index = indexes[c.text];
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    auto add = [&](std::uint32_t v) {
      for (int k = 0; k < 4; ++k) {
        hash ^= (v >> (8 * k)) & 0xFF;
        hash *= 0x100000001b3ULL;
      }
    };
    std::size_t pieces = 0;
    loaded.pre_tokenizer->pre_tokenize(text, true, [&](std::string_view piece, bool) {
      std::size_t begin = static_cast<std::size_t>(piece.data() - text.data());
      add(static_cast<std::uint32_t>(index[begin]));
      add(static_cast<std::uint32_t>(index[begin + piece.size()]));
      ++pieces;
    });
    EXPECT_EQ(pieces, c.pieces) << c.json;
    EXPECT_EQ(hash, c.hash) << c.json;
  }
}

TEST(PreTokenizers, AtStartFlagFollowsThePieces) {
  // Metaspace "first" prepends only to what starts the input: the reference's Sequence
  // [Split(\d+), Metaspace(first)] case above shows it; here the flag is passed directly.
  Loaded metaspace(R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"first"})");
  EXPECT_EQ(run(*metaspace.pre_tokenizer, "Hey you", true), (std::vector<std::string>{"▁Hey", "▁you"}));
  EXPECT_EQ(run(*metaspace.pre_tokenizer, "Hey you", false), (std::vector<std::string>{"Hey", "▁you"}));
  Loaded split(R"({"type":"Split","pattern":{"String":"-"},"behavior":"Isolated","invert":false})");
  std::vector<bool> flags;
  split.pre_tokenizer->pre_tokenize("a-b", true, [&](std::string_view, bool at_start) { flags.push_back(at_start); });
  EXPECT_EQ(flags, (std::vector<bool>{true, false, false}));
  flags.clear();
  split.pre_tokenizer->pre_tokenize("a-b", false, [&](std::string_view, bool at_start) { flags.push_back(at_start); });
  EXPECT_EQ(flags, (std::vector<bool>{false, false, false}));
}

TEST(PreTokenizers, ByteLevelIsReportedThroughSequences) {
  EXPECT_TRUE(Loaded(kConfigs[0]).pre_tokenizer->is_byte_level());   // qwen3
  EXPECT_FALSE(Loaded(kConfigs[2]).pre_tokenizer->is_byte_level());  // gemma3
  Loaded nested(R"({"type":"Sequence","pretokenizers":[{"type":"Digits","individual_digits":true},
      {"type":"Sequence","pretokenizers":[{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false}]}]})");
  EXPECT_TRUE(nested.pre_tokenizer->is_byte_level());
  EXPECT_EQ(nested.pre_tokenizer->describe(), "Sequence[Digits, Sequence[ByteLevel]]");
}

// English prose and code with the reference texts mixed in, except text 10 (characters Unicode
// 15/16 added, which send Regex to its slower exact program).
std::string mixed_text(std::size_t bytes) {
  const std::string english =
      "The quick brown fox jumps over the lazy dog. It's 2024, and we've shipped 1,234 releases; "
      "don't you think they'll notice? Email me at someone@example.com or call +1 (555) 010-9999.\n"
      "    def encode(self, text: str) -> list[int]:\n        return [ord(c) for c in text]  # TODO\n\n";
  std::string out;
  std::size_t k = 0;
  while (out.size() < bytes) {
    out += english;
    out += english;
    if (k % std::size(kAllTexts) != 10) out += kAllTexts[k % std::size(kAllTexts)];
    ++k;
    out += '\n';
  }
  return out;
}

TEST(PreTokenizers, HotChainDoesNotAllocate) {
  if (!kCountingAllocations) GTEST_SKIP() << "allocation counting is off under AddressSanitizer";
  std::string text = mixed_text(1 << 16);
  for (int config : {0, 1, 3, 4}) {  // qwen3, llama3_1, deepseek_v3, gptoss
    Loaded loaded(kConfigs[config]);
    std::size_t bytes = 0;
    auto sink = [&](std::string_view piece, bool) { bytes += piece.size(); };
    loaded.pre_tokenizer->pre_tokenize(text, true, sink);  // warms per-thread state
    long before = g_allocations.load();
    loaded.pre_tokenizer->pre_tokenize(text, true, sink);
    EXPECT_EQ(g_allocations.load() - before, 0) << kConfigs[config];
    EXPECT_EQ(bytes, 2 * text.size());
  }
  // Rewriting stages reuse their per-thread buffers.
  Loaded rewriting(R"({"type":"Sequence","pretokenizers":[{"type":"Metaspace","replacement":"▁","prepend_scheme":"first"},
      {"type":"ByteLevel","add_prefix_space":true,"trim_offsets":false}]})");
  auto sink = [](std::string_view, bool) {};
  rewriting.pre_tokenizer->pre_tokenize(text, true, sink);
  long before = g_allocations.load();
  rewriting.pre_tokenizer->pre_tokenize(text, true, sink);
  EXPECT_EQ(g_allocations.load() - before, 0);
}

}  // namespace
