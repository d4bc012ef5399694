// Normalizer tests. Every expected value comes from the reference, Hugging Face tokenizers 0.23.2
// run through its Node binding: the golden cases, the model samples, and FNV-1a hashes of the
// reference's output for every code point (which pin the Unicode tables code point by code
// point). Inputs are spelled with \u escapes wherever the raw character would be ambiguous.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/json_dom.hpp"
#include "base/utf8.hpp"
#include "textedge/error.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace {

using namespace std::string_view_literals;
using textedge::LoadError;
using textedge::detail::JsonDocument;
using textedge::detail::Normalizer;
using textedge::detail::normalizer_from_json;

std::unique_ptr<Normalizer> parse(std::string_view json) {
  JsonDocument document(json, "tokenizer.json");
  return normalizer_from_json(document.root());
}

std::string normalized(const Normalizer& normalizer, std::string text) {
  normalizer.normalize(text);
  return text;
}

struct GoldenCase {
  const char* normalizer;  // key of kNormalizerJson
  std::string_view input;  // string_view: some inputs hold NUL bytes
  std::string_view expected;
};

// The normalizers the golden cases run, by name.
const std::map<std::string, std::string, std::less<>> kNormalizerJson = {
    {"nfc", R"({"type":"NFC"})"},
    {"nfd", R"({"type":"NFD"})"},
    {"nfkc", R"({"type":"NFKC"})"},
    {"nfkd", R"({"type":"NFKD"})"},
    {"lowercase", R"({"type":"Lowercase"})"},
    {"strip_both", R"({"type":"Strip","strip_left":true,"strip_right":true})"},
    {"strip_left", R"({"type":"Strip","strip_left":true,"strip_right":false})"},
    {"strip_right", R"({"type":"Strip","strip_left":false,"strip_right":true})"},
    {"strip_accents", R"({"type":"StripAccents"})"},
    {"nfkd_strip_accents_lowercase", R"({"type":"Sequence","normalizers":[{"type":"NFKD"},{"type":"StripAccents"},{"type":"Lowercase"}]})"},
    {"replace_space", R"({"type":"Replace","pattern":{"String":" "},"content":"\u2581"})"},
    {"replace_pair", R"({"type":"Replace","pattern":{"String":"aa"},"content":"b"})"},
    {"replace_delete", R"({"type":"Replace","pattern":{"String":"\u0301"},"content":""})"},
    {"replace_empty_literal", R"({"type":"Replace","pattern":{"String":""},"content":"_"})"},
    {"replace_regex_spaces", R"({"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "})"},
    {"replace_regex_star", R"({"type":"Replace","pattern":{"Regex":"a*"},"content":"_"})"},
    {"replace_regex_empty", R"({"type":"Replace","pattern":{"Regex":""},"content":"_"})"},
    {"replace_regex_optional_space", R"({"type":"Replace","pattern":{"Regex":" ?"},"content":"\u2581"})"},
    {"prepend", R"({"type":"Prepend","prepend":"\u2581"})"},
    {"llama2", R"({"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"\u2581"},{"type":"Replace","pattern":{"String":" "},"content":"\u2581"}]})"},
    {"bert_uncased", R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true})"},
    {"bert_cased", R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":false})"},
    {"bert_strip_accents_only", R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":false,"strip_accents":true,"lowercase":false})"},
    {"bert_lowercase_keep_accents", R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":false,"strip_accents":false,"lowercase":true})"},
    {"byte_level", R"({"type":"ByteLevel"})"},
    {"nmt", R"({"type":"Nmt"})"},
    {"empty_sequence", R"({"type":"Sequence","normalizers":[]})"},
};

// Golden cases: `expected` is what the reference's normalizeString returned for `input`.
const GoldenCase kGoldenCases[] = {
    {"nfc", ""sv, ""sv},
    {"nfc", "Hello"sv, "Hello"sv},
    {"nfc", "e\u0301"sv, "é"sv},
    {"nfc", "é"sv, "é"sv},
    {"nfc", "a\u0316\u0301\u0323"sv, "á\u0316\u0323"sv},
    {"nfc", "a\u0301\u0316"sv, "á\u0316"sv},
    {"nfc", "\u1100\u1161\u11A8"sv, "각"sv},
    {"nfc", "가\u11A8"sv, "각"sv},
    {"nfc", "가\u11A7"sv, "가\u11A7"sv},
    {"nfc", "한국어"sv, "한국어"sv},
    {"nfc", "ﬁ"sv, "ﬁ"sv},
    {"nfc", "Ｆｕｌｌ"sv, "Ｆｕｌｌ"sv},
    {"nfc", "Ⅳ①²½㍿"sv, "Ⅳ①²½㍿"sv},
    {"nfc", "ẛ\u0323"sv, "ẛ\u0323"sv},
    {"nfc", "\u212B\u2126"sv, "ÅΩ"sv},
    {"nfc", "\u0344\u0F73"sv, "\u0F71\u0F72\u0308\u0301"sv},
    {"nfc", "\u2ADC"sv, "⫝\u0338"sv},
    {"nfc", "\U0001D15E"sv, "𝅗\U0001D165"sv},
    {"nfc", "क\u093C"sv, "क\u093C"sv},
    // ASCII runs longer than a word after non-ASCII text, then a mark composing with their last
    // byte, or ending an island (the runs are skipped whole; expected from Python's unicodedata).
    {"nfc", "éabcdefghijklmnopqrstuvwxe\u0301"sv, "éabcdefghijklmnopqrstuvwxé"sv},
    {"nfc", "e\u0301\u0301 abcdefghijklmnopqrstuvwxyz A\u030A"sv, "é\u0301 abcdefghijklmnopqrstuvwxyz Å"sv},
    {"nfc", "éxxxxxxxxxxxxxxxxxxxx\u0301yyyyyyyyy"sv, "éxxxxxxxxxxxxxxxxxxxx\u0301yyyyyyyyy"sv},
    {"nfc", "\u09C7\u09BE"sv, "\u09CB"sv},
    {"nfc", "\U00011347\U0001133E"sv, "\U0001134B"sv},
    {"nfc", "\u00A0\u3000"sv, "\u00A0\u3000"sv},
    {"nfc", "㋿\U0001E030ꟲ"sv, "㋿\U0001E030ꟲ"sv},
    {"nfc", "\U00011935\U00011930"sv, "\U00011935\U00011930"sv},
    {"nfc", "a\u1DF6\u0316"sv, "a\u1DF6\u0316"sv},
    {"nfc", "a\u0301\U0001E130\u0316"sv, "á\U0001E130\u0316"sv},
    {"nfc", "İ"sv, "İ"sv},
    {"nfc", "我今天"sv, "我今天"sv},
    {"nfc", "😀👍🏽"sv, "😀👍🏽"sv},
    {"nfc", "Ångström"sv, "Ångström"sv},
    {"nfd", ""sv, ""sv},
    {"nfd", "Hello"sv, "Hello"sv},
    {"nfd", "e\u0301"sv, "e\u0301"sv},
    {"nfd", "é"sv, "e\u0301"sv},
    {"nfd", "a\u0316\u0301\u0323"sv, "a\u0316\u0323\u0301"sv},
    {"nfd", "a\u0301\u0316"sv, "a\u0316\u0301"sv},
    {"nfd", "\u1100\u1161\u11A8"sv, "\u1100\u1161\u11A8"sv},
    {"nfd", "가\u11A8"sv, "\u1100\u1161\u11A8"sv},
    {"nfd", "가\u11A7"sv, "\u1100\u1161\u11A7"sv},
    {"nfd", "한국어"sv, "\u1112\u1161\u11AB\u1100\u116E\u11A8\u110B\u1165"sv},
    {"nfd", "ﬁ"sv, "ﬁ"sv},
    {"nfd", "Ｆｕｌｌ"sv, "Ｆｕｌｌ"sv},
    {"nfd", "Ⅳ①²½㍿"sv, "Ⅳ①²½㍿"sv},
    {"nfd", "ẛ\u0323"sv, "ſ\u0323\u0307"sv},
    {"nfd", "\u212B\u2126"sv, "A\u030AΩ"sv},
    {"nfd", "\u0344\u0F73"sv, "\u0F71\u0F72\u0308\u0301"sv},
    {"nfd", "\u2ADC"sv, "⫝\u0338"sv},
    {"nfd", "\U0001D15E"sv, "𝅗\U0001D165"sv},
    {"nfd", "क\u093C"sv, "क\u093C"sv},
    {"nfd", "\u09C7\u09BE"sv, "\u09C7\u09BE"sv},
    {"nfd", "\U00011347\U0001133E"sv, "\U00011347\U0001133E"sv},
    {"nfd", "\u00A0\u3000"sv, "\u00A0\u3000"sv},
    {"nfd", "㋿\U0001E030ꟲ"sv, "㋿\U0001E030ꟲ"sv},
    {"nfd", "\U00011935\U00011930"sv, "\U00011935\U00011930"sv},
    {"nfd", "a\u1DF6\u0316"sv, "a\u1DF6\u0316"sv},
    {"nfd", "a\u0301\U0001E130\u0316"sv, "a\u0301\U0001E130\u0316"sv},
    {"nfd", "İ"sv, "I\u0307"sv},
    {"nfd", "我今天"sv, "我今天"sv},
    {"nfd", "😀👍🏽"sv, "😀👍🏽"sv},
    {"nfd", "Ångström"sv, "A\u030Angstro\u0308m"sv},
    {"nfkc", ""sv, ""sv},
    {"nfkc", "Hello"sv, "Hello"sv},
    {"nfkc", "e\u0301"sv, "é"sv},
    {"nfkc", "é"sv, "é"sv},
    {"nfkc", "a\u0316\u0301\u0323"sv, "á\u0316\u0323"sv},
    {"nfkc", "a\u0301\u0316"sv, "á\u0316"sv},
    {"nfkc", "\u1100\u1161\u11A8"sv, "각"sv},
    {"nfkc", "가\u11A8"sv, "각"sv},
    {"nfkc", "가\u11A7"sv, "가\u11A7"sv},
    {"nfkc", "한국어"sv, "한국어"sv},
    {"nfkc", "ﬁ"sv, "fi"sv},
    {"nfkc", "Ｆｕｌｌ"sv, "Full"sv},
    {"nfkc", "Ⅳ①²½㍿"sv, "IV121⁄2株式会社"sv},
    {"nfkc", "ẛ\u0323"sv, "ṩ"sv},
    {"nfkc", "\u212B\u2126"sv, "ÅΩ"sv},
    {"nfkc", "\u0344\u0F73"sv, "\u0F71\u0F72\u0308\u0301"sv},
    {"nfkc", "\u2ADC"sv, "⫝\u0338"sv},
    {"nfkc", "\U0001D15E"sv, "𝅗\U0001D165"sv},
    {"nfkc", "क\u093C"sv, "क\u093C"sv},
    {"nfkc", "\u09C7\u09BE"sv, "\u09CB"sv},
    {"nfkc", "\U00011347\U0001133E"sv, "\U0001134B"sv},
    {"nfkc", "\u00A0\u3000"sv, "  "sv},
    {"nfkc", "㋿\U0001E030ꟲ"sv, "㋿\U0001E030ꟲ"sv},
    {"nfkc", "\U00011935\U00011930"sv, "\U00011935\U00011930"sv},
    {"nfkc", "a\u1DF6\u0316"sv, "a\u1DF6\u0316"sv},
    {"nfkc", "a\u0301\U0001E130\u0316"sv, "á\U0001E130\u0316"sv},
    {"nfkc", "İ"sv, "İ"sv},
    {"nfkc", "我今天"sv, "我今天"sv},
    {"nfkc", "😀👍🏽"sv, "😀👍🏽"sv},
    {"nfkc", "Ångström"sv, "Ångström"sv},
    {"nfkd", ""sv, ""sv},
    {"nfkd", "Hello"sv, "Hello"sv},
    {"nfkd", "e\u0301"sv, "e\u0301"sv},
    {"nfkd", "é"sv, "e\u0301"sv},
    {"nfkd", "a\u0316\u0301\u0323"sv, "a\u0316\u0323\u0301"sv},
    {"nfkd", "a\u0301\u0316"sv, "a\u0316\u0301"sv},
    {"nfkd", "\u1100\u1161\u11A8"sv, "\u1100\u1161\u11A8"sv},
    {"nfkd", "가\u11A8"sv, "\u1100\u1161\u11A8"sv},
    {"nfkd", "가\u11A7"sv, "\u1100\u1161\u11A7"sv},
    {"nfkd", "한국어"sv, "\u1112\u1161\u11AB\u1100\u116E\u11A8\u110B\u1165"sv},
    {"nfkd", "ﬁ"sv, "fi"sv},
    {"nfkd", "Ｆｕｌｌ"sv, "Full"sv},
    {"nfkd", "Ⅳ①²½㍿"sv, "IV121⁄2株式会社"sv},
    {"nfkd", "ẛ\u0323"sv, "s\u0323\u0307"sv},
    {"nfkd", "\u212B\u2126"sv, "A\u030AΩ"sv},
    {"nfkd", "\u0344\u0F73"sv, "\u0F71\u0F72\u0308\u0301"sv},
    {"nfkd", "\u2ADC"sv, "⫝\u0338"sv},
    {"nfkd", "\U0001D15E"sv, "𝅗\U0001D165"sv},
    {"nfkd", "क\u093C"sv, "क\u093C"sv},
    {"nfkd", "\u09C7\u09BE"sv, "\u09C7\u09BE"sv},
    {"nfkd", "\U00011347\U0001133E"sv, "\U00011347\U0001133E"sv},
    {"nfkd", "\u00A0\u3000"sv, "  "sv},
    {"nfkd", "㋿\U0001E030ꟲ"sv, "㋿\U0001E030ꟲ"sv},
    {"nfkd", "\U00011935\U00011930"sv, "\U00011935\U00011930"sv},
    {"nfkd", "a\u1DF6\u0316"sv, "a\u1DF6\u0316"sv},
    {"nfkd", "a\u0301\U0001E130\u0316"sv, "a\u0301\U0001E130\u0316"sv},
    {"nfkd", "İ"sv, "I\u0307"sv},
    {"nfkd", "我今天"sv, "我今天"sv},
    {"nfkd", "😀👍🏽"sv, "😀👍🏽"sv},
    {"nfkd", "Ångström"sv, "A\u030Angstro\u0308m"sv},
    {"lowercase", ""sv, ""sv},
    {"lowercase", "HELLO World"sv, "hello world"sv},
    {"lowercase", "ΣΑΣ ΟΔΟΣ"sv, "σασ οδοσ"sv},
    {"lowercase", "İstanbul"sv, "i\u0307stanbul"sv},
    {"lowercase", "Iı"sv, "iı"sv},
    {"lowercase", "ÀÉÎÕÜ"sv, "àéîõü"sv},
    {"lowercase", "ПРИВЕТ"sv, "привет"sv},
    {"lowercase", "ẞß"sv, "ßß"sv},
    {"lowercase", "\u212A\u2126\u212B"sv, "kωå"sv},
    {"lowercase", "ȺⱯ"sv, "ⱥɐ"sv},
    {"lowercase", "ǅǄ"sv, "ǆǆ"sv},
    {"lowercase", "ＡＢ"sv, "ａｂ"sv},
    {"lowercase", "𐐀𞤀"sv, "𐐨𞤢"sv},
    {"lowercase", "\u1C89\uA7CB\uA7DC\U00010D50\U00016EA0"sv, "\u1C8Aɤƛ\U00010D70\U00016EBB"sv},
    {"lowercase", "我가😀"sv, "我가😀"sv},
    {"lowercase", "ⒶⅠ"sv, "ⓐⅰ"sv},
    {"strip_both", ""sv, ""sv},
    {"strip_both", "  hello  "sv, "hello"sv},
    {"strip_both", "\t\n\r hi \u00A0"sv, "hi"sv},
    {"strip_both", "\u3000\u2028x\u2029\xC2\x85"sv, "x"sv},
    {"strip_both", "\u200Bx\u200B"sv, "\u200Bx\u200B"sv},
    {"strip_both", "\uFEFFx"sv, "\uFEFFx"sv},
    {"strip_both", "\u1680 \u180E"sv, "\u180E"sv},
    {"strip_both", "   "sv, ""sv},
    {"strip_both", "a b"sv, "a b"sv},
    {"strip_left", ""sv, ""sv},
    {"strip_left", "  hello  "sv, "hello  "sv},
    {"strip_left", "\t\n\r hi \u00A0"sv, "hi \u00A0"sv},
    {"strip_left", "\u3000\u2028x\u2029\xC2\x85"sv, "x\u2029\xC2\x85"sv},
    {"strip_left", "\u200Bx\u200B"sv, "\u200Bx\u200B"sv},
    {"strip_left", "\uFEFFx"sv, "\uFEFFx"sv},
    {"strip_left", "\u1680 \u180E"sv, "\u180E"sv},
    {"strip_left", "   "sv, ""sv},
    {"strip_left", "a b"sv, "a b"sv},
    {"strip_right", ""sv, ""sv},
    {"strip_right", "  hello  "sv, "  hello"sv},
    {"strip_right", "\t\n\r hi \u00A0"sv, "\t\n\r hi"sv},
    {"strip_right", "\u3000\u2028x\u2029\xC2\x85"sv, "\u3000\u2028x"sv},
    {"strip_right", "\u200Bx\u200B"sv, "\u200Bx\u200B"sv},
    {"strip_right", "\uFEFFx"sv, "\uFEFFx"sv},
    {"strip_right", "\u1680 \u180E"sv, "\u1680 \u180E"sv},
    {"strip_right", "   "sv, ""sv},
    {"strip_right", "a b"sv, "a b"sv},
    {"strip_accents", ""sv, ""sv},
    {"strip_accents", "é"sv, "é"sv},
    {"strip_accents", "e\u0301"sv, "e"sv},
    {"strip_accents", "Me llamo\u0301"sv, "Me llamo"sv},
    {"strip_accents", "e\u0304\u0304\u0304o"sv, "eo"sv},
    {"strip_accents", "ำน\u0E49"sv, "ำน"sv},
    {"strip_accents", "\u0903\u093E"sv, ""sv},
    {"strip_accents", "\u20DD\u0488"sv, ""sv},
    {"strip_accents", "ᳲᳳ"sv, ""sv},
    {"strip_accents", "\u1734"sv, ""sv},
    {"strip_accents", "\u1AB0\u1AC0"sv, "\u1AC0"sv},
    {"strip_accents", "a\u1DF6\u1DFA"sv, "a\u1DF6\u1DFA"sv},
    {"strip_accents", "\u08D4\u08E2\u07FD"sv, "\u08E2\u07FD"sv},
    {"strip_accents", "\u3099\u302A"sv, ""sv},
    {"strip_accents", "Ḁ"sv, "Ḁ"sv},
    {"nfkd_strip_accents_lowercase", ""sv, ""sv},
    {"nfkd_strip_accents_lowercase", "é"sv, "e"sv},
    {"nfkd_strip_accents_lowercase", "e\u0301"sv, "e"sv},
    {"nfkd_strip_accents_lowercase", "Me llamo\u0301"sv, "me llamo"sv},
    {"nfkd_strip_accents_lowercase", "e\u0304\u0304\u0304o"sv, "eo"sv},
    {"nfkd_strip_accents_lowercase", "ำน\u0E49"sv, "าน"sv},
    {"nfkd_strip_accents_lowercase", "\u0903\u093E"sv, ""sv},
    {"nfkd_strip_accents_lowercase", "\u20DD\u0488"sv, ""sv},
    {"nfkd_strip_accents_lowercase", "ᳲᳳ"sv, ""sv},
    {"nfkd_strip_accents_lowercase", "\u1734"sv, ""sv},
    {"nfkd_strip_accents_lowercase", "\u1AB0\u1AC0"sv, "\u1AC0"sv},
    {"nfkd_strip_accents_lowercase", "a\u1DF6\u1DFA"sv, "a\u1DF6\u1DFA"sv},
    {"nfkd_strip_accents_lowercase", "\u08D4\u08E2\u07FD"sv, "\u08E2\u07FD"sv},
    {"nfkd_strip_accents_lowercase", "\u3099\u302A"sv, ""sv},
    {"nfkd_strip_accents_lowercase", "Ḁ"sv, "a"sv},
    {"nfkd_strip_accents_lowercase", ""sv, ""sv},
    {"nfkd_strip_accents_lowercase", "HELLO World"sv, "hello world"sv},
    {"nfkd_strip_accents_lowercase", "ΣΑΣ ΟΔΟΣ"sv, "σασ οδοσ"sv},
    {"nfkd_strip_accents_lowercase", "İstanbul"sv, "istanbul"sv},
    {"nfkd_strip_accents_lowercase", "Iı"sv, "iı"sv},
    {"nfkd_strip_accents_lowercase", "ÀÉÎÕÜ"sv, "aeiou"sv},
    {"replace_space", ""sv, ""sv},
    {"replace_space", " "sv, "▁"sv},
    {"replace_space", "Hello world"sv, "Hello▁world"sv},
    {"replace_space", "  two  spaces "sv, "▁▁two▁▁spaces▁"sv},
    {"replace_space", "aaaa"sv, "aaaa"sv},
    {"replace_space", "aaab"sv, "aaab"sv},
    {"replace_space", "baaac"sv, "baaac"sv},
    {"replace_space", "a"sv, "a"sv},
    {"replace_space", "x\u0301\u0301y"sv, "x\u0301\u0301y"sv},
    {"replace_space", "héllo"sv, "héllo"sv},
    {"replace_space", "\t\n x"sv, "\t\n▁x"sv},
    {"replace_pair", ""sv, ""sv},
    {"replace_pair", " "sv, " "sv},
    {"replace_pair", "Hello world"sv, "Hello world"sv},
    {"replace_pair", "  two  spaces "sv, "  two  spaces "sv},
    {"replace_pair", "aaaa"sv, "bb"sv},
    {"replace_pair", "aaab"sv, "bab"sv},
    {"replace_pair", "baaac"sv, "bbac"sv},
    {"replace_pair", "a"sv, "a"sv},
    {"replace_pair", "x\u0301\u0301y"sv, "x\u0301\u0301y"sv},
    {"replace_pair", "héllo"sv, "héllo"sv},
    {"replace_pair", "\t\n x"sv, "\t\n x"sv},
    {"replace_delete", ""sv, ""sv},
    {"replace_delete", " "sv, " "sv},
    {"replace_delete", "Hello world"sv, "Hello world"sv},
    {"replace_delete", "  two  spaces "sv, "  two  spaces "sv},
    {"replace_delete", "aaaa"sv, "aaaa"sv},
    {"replace_delete", "aaab"sv, "aaab"sv},
    {"replace_delete", "baaac"sv, "baaac"sv},
    {"replace_delete", "a"sv, "a"sv},
    {"replace_delete", "x\u0301\u0301y"sv, "xy"sv},
    {"replace_delete", "héllo"sv, "héllo"sv},
    {"replace_delete", "\t\n x"sv, "\t\n x"sv},
    {"replace_empty_literal", ""sv, ""sv},
    {"replace_empty_literal", " "sv, "_ _"sv},
    {"replace_empty_literal", "Hello world"sv, "_H_e_l_l_o_ _w_o_r_l_d_"sv},
    {"replace_empty_literal", "  two  spaces "sv, "_ _ _t_w_o_ _ _s_p_a_c_e_s_ _"sv},
    {"replace_empty_literal", "aaaa"sv, "_a_a_a_a_"sv},
    {"replace_empty_literal", "aaab"sv, "_a_a_a_b_"sv},
    {"replace_empty_literal", "baaac"sv, "_b_a_a_a_c_"sv},
    {"replace_empty_literal", "a"sv, "_a_"sv},
    {"replace_empty_literal", "x\u0301\u0301y"sv, "_x_\u0301_\u0301_y_"sv},
    {"replace_empty_literal", "héllo"sv, "_h_é_l_l_o_"sv},
    {"replace_empty_literal", "\t\n x"sv, "_\t_\n_ _x_"sv},
    {"replace_regex_spaces", ""sv, ""sv},
    {"replace_regex_spaces", " "sv, " "sv},
    {"replace_regex_spaces", "Hello world"sv, "Hello world"sv},
    {"replace_regex_spaces", "  two  spaces "sv, " two spaces "sv},
    {"replace_regex_spaces", "aaaa"sv, "aaaa"sv},
    {"replace_regex_spaces", "aaab"sv, "aaab"sv},
    {"replace_regex_spaces", "baaac"sv, "baaac"sv},
    {"replace_regex_spaces", "a"sv, "a"sv},
    {"replace_regex_spaces", "x\u0301\u0301y"sv, "x\u0301\u0301y"sv},
    {"replace_regex_spaces", "héllo"sv, "héllo"sv},
    {"replace_regex_spaces", "\t\n x"sv, " x"sv},
    {"replace_regex_star", ""sv, ""sv},
    {"replace_regex_star", " "sv, "_ _"sv},
    {"replace_regex_star", "Hello world"sv, "_H_e_l_l_o_ _w_o_r_l_d_"sv},
    {"replace_regex_star", "  two  spaces "sv, "_ _ _t_w_o_ _ _s_p_c_e_s_ _"sv},
    {"replace_regex_star", "aaaa"sv, "_"sv},
    {"replace_regex_star", "aaab"sv, "_b_"sv},
    {"replace_regex_star", "baaac"sv, "_b_c_"sv},
    {"replace_regex_star", "a"sv, "_"sv},
    {"replace_regex_star", "x\u0301\u0301y"sv, "_x_\u0301_\u0301_y_"sv},
    {"replace_regex_star", "héllo"sv, "_h_é_l_l_o_"sv},
    {"replace_regex_star", "\t\n x"sv, "_\t_\n_ _x_"sv},
    {"replace_regex_empty", ""sv, ""sv},
    {"replace_regex_empty", " "sv, "_ _"sv},
    {"replace_regex_empty", "Hello world"sv, "_H_e_l_l_o_ _w_o_r_l_d_"sv},
    {"replace_regex_empty", "  two  spaces "sv, "_ _ _t_w_o_ _ _s_p_a_c_e_s_ _"sv},
    {"replace_regex_empty", "aaaa"sv, "_a_a_a_a_"sv},
    {"replace_regex_empty", "aaab"sv, "_a_a_a_b_"sv},
    {"replace_regex_empty", "baaac"sv, "_b_a_a_a_c_"sv},
    {"replace_regex_empty", "a"sv, "_a_"sv},
    {"replace_regex_empty", "x\u0301\u0301y"sv, "_x_\u0301_\u0301_y_"sv},
    {"replace_regex_empty", "héllo"sv, "_h_é_l_l_o_"sv},
    {"replace_regex_empty", "\t\n x"sv, "_\t_\n_ _x_"sv},
    {"replace_regex_optional_space", ""sv, ""sv},
    {"replace_regex_optional_space", " "sv, "▁"sv},
    {"replace_regex_optional_space", "Hello world"sv, "▁H▁e▁l▁l▁o▁w▁o▁r▁l▁d▁"sv},
    {"replace_regex_optional_space", "  two  spaces "sv, "▁▁t▁w▁o▁▁s▁p▁a▁c▁e▁s▁"sv},
    {"replace_regex_optional_space", "aaaa"sv, "▁a▁a▁a▁a▁"sv},
    {"replace_regex_optional_space", "aaab"sv, "▁a▁a▁a▁b▁"sv},
    {"replace_regex_optional_space", "baaac"sv, "▁b▁a▁a▁a▁c▁"sv},
    {"replace_regex_optional_space", "a"sv, "▁a▁"sv},
    {"replace_regex_optional_space", "x\u0301\u0301y"sv, "▁x▁\u0301▁\u0301▁y▁"sv},
    {"replace_regex_optional_space", "héllo"sv, "▁h▁é▁l▁l▁o▁"sv},
    {"replace_regex_optional_space", "\t\n x"sv, "▁\t▁\n▁x▁"sv},
    {"prepend", ""sv, ""sv},
    {"prepend", " "sv, "▁ "sv},
    {"prepend", "Hello world"sv, "▁Hello world"sv},
    {"prepend", "  two  spaces "sv, "▁  two  spaces "sv},
    {"prepend", "aaaa"sv, "▁aaaa"sv},
    {"prepend", "aaab"sv, "▁aaab"sv},
    {"prepend", "baaac"sv, "▁baaac"sv},
    {"prepend", "a"sv, "▁a"sv},
    {"prepend", "x\u0301\u0301y"sv, "▁x\u0301\u0301y"sv},
    {"prepend", "héllo"sv, "▁héllo"sv},
    {"prepend", "\t\n x"sv, "▁\t\n x"sv},
    {"llama2", ""sv, ""sv},
    {"llama2", " "sv, "▁▁"sv},
    {"llama2", "Hello world"sv, "▁Hello▁world"sv},
    {"llama2", "  two  spaces "sv, "▁▁▁two▁▁spaces▁"sv},
    {"llama2", "aaaa"sv, "▁aaaa"sv},
    {"llama2", "aaab"sv, "▁aaab"sv},
    {"llama2", "baaac"sv, "▁baaac"sv},
    {"llama2", "a"sv, "▁a"sv},
    {"llama2", "x\u0301\u0301y"sv, "▁x\u0301\u0301y"sv},
    {"llama2", "héllo"sv, "▁héllo"sv},
    {"llama2", "\t\n x"sv, "▁\t\n▁x"sv},
    {"bert_uncased", ""sv, ""sv},
    {"bert_uncased", "Hello World!"sv, "hello world!"sv},
    {"bert_uncased", "Héllo Wörld"sv, "hello world"sv},
    {"bert_uncased", "ÀÉÎ"sv, "aei"sv},
    {"bert_uncased", "a\x00" "b\x07" "c\x7F\xC2\x85" "d"sv, "abcd"sv},
    {"bert_uncased", "\t tab\r\n"sv, "  tab  "sv},
    {"bert_uncased", "\u00A0x\u3000"sv, " x "sv},
    {"bert_uncased", "�\u200B\u00AD"sv, ""sv},
    {"bert_uncased", "x\u08E2y\u0890z\U000110CD"sv, "x\u08E2y\u0890z\U000110CD"sv},
    {"bert_uncased", "我今天能"sv, " 我  今  天  能 "sv},
    {"bert_uncased", "𫠠𫤠𠀀"sv, "𫠠 𫤠  𠀀 "sv},
    {"bert_uncased", "가힣あ"sv, "\u1100\u1161\u1112\u1175\u11C2あ"sv},
    {"bert_uncased", "İΣ"sv, "iσ"sv},
    {"bert_uncased", "ﬁ"sv, "ﬁ"sv},
    {"bert_uncased", "\uE000\U000F0000"sv, ""sv},
    {"bert_uncased", "\u1734\u0300\u1AB0"sv, ""sv},
    {"bert_uncased", "😀a"sv, "😀a"sv},
    {"bert_cased", ""sv, ""sv},
    {"bert_cased", "Hello World!"sv, "Hello World!"sv},
    {"bert_cased", "Héllo Wörld"sv, "Héllo Wörld"sv},
    {"bert_cased", "ÀÉÎ"sv, "ÀÉÎ"sv},
    {"bert_cased", "a\x00" "b\x07" "c\x7F\xC2\x85" "d"sv, "abcd"sv},
    {"bert_cased", "\t tab\r\n"sv, "  tab  "sv},
    {"bert_cased", "\u00A0x\u3000"sv, " x "sv},
    {"bert_cased", "�\u200B\u00AD"sv, ""sv},
    {"bert_cased", "x\u08E2y\u0890z\U000110CD"sv, "x\u08E2y\u0890z\U000110CD"sv},
    {"bert_cased", "我今天能"sv, " 我  今  天  能 "sv},
    {"bert_cased", "𫠠𫤠𠀀"sv, "𫠠 𫤠  𠀀 "sv},
    {"bert_cased", "가힣あ"sv, "가힣あ"sv},
    {"bert_cased", "İΣ"sv, "İΣ"sv},
    {"bert_cased", "ﬁ"sv, "ﬁ"sv},
    {"bert_cased", "\uE000\U000F0000"sv, ""sv},
    {"bert_cased", "\u1734\u0300\u1AB0"sv, "\u1734\u0300\u1AB0"sv},
    {"bert_cased", "😀a"sv, "😀a"sv},
    {"bert_strip_accents_only", ""sv, ""sv},
    {"bert_strip_accents_only", "Hello World!"sv, "Hello World!"sv},
    {"bert_strip_accents_only", "Héllo Wörld"sv, "Hello World"sv},
    {"bert_strip_accents_only", "ÀÉÎ"sv, "AEI"sv},
    {"bert_strip_accents_only", "a\x00" "b\x07" "c\x7F\xC2\x85" "d"sv, "a\x00" "b\x07" "c\x7F\xC2\x85" "d"sv},
    {"bert_strip_accents_only", "\t tab\r\n"sv, "\t tab\r\n"sv},
    {"bert_strip_accents_only", "\u00A0x\u3000"sv, "\u00A0x\u3000"sv},
    {"bert_strip_accents_only", "�\u200B\u00AD"sv, "�\u200B\u00AD"sv},
    {"bert_strip_accents_only", "x\u08E2y\u0890z\U000110CD"sv, "x\u08E2y\u0890z\U000110CD"sv},
    {"bert_strip_accents_only", "我今天能"sv, "我今天能"sv},
    {"bert_strip_accents_only", "𫠠𫤠𠀀"sv, "𫠠𫤠𠀀"sv},
    {"bert_strip_accents_only", "가힣あ"sv, "\u1100\u1161\u1112\u1175\u11C2あ"sv},
    {"bert_strip_accents_only", "İΣ"sv, "IΣ"sv},
    {"bert_strip_accents_only", "ﬁ"sv, "ﬁ"sv},
    {"bert_strip_accents_only", "\uE000\U000F0000"sv, "\uE000\U000F0000"sv},
    {"bert_strip_accents_only", "\u1734\u0300\u1AB0"sv, ""sv},
    {"bert_strip_accents_only", "😀a"sv, "😀a"sv},
    {"bert_strip_accents_only", ""sv, ""sv},
    {"bert_strip_accents_only", "é"sv, "e"sv},
    {"bert_strip_accents_only", "e\u0301"sv, "e"sv},
    {"bert_strip_accents_only", "Me llamo\u0301"sv, "Me llamo"sv},
    {"bert_strip_accents_only", "e\u0304\u0304\u0304o"sv, "eo"sv},
    {"bert_strip_accents_only", "ำน\u0E49"sv, "ำน"sv},
    {"bert_strip_accents_only", "\u0903\u093E"sv, "\u0903\u093E"sv},
    {"bert_strip_accents_only", "\u20DD\u0488"sv, "\u20DD\u0488"sv},
    {"bert_lowercase_keep_accents", ""sv, ""sv},
    {"bert_lowercase_keep_accents", "Hello World!"sv, "hello world!"sv},
    {"bert_lowercase_keep_accents", "Héllo Wörld"sv, "héllo wörld"sv},
    {"bert_lowercase_keep_accents", ""sv, ""sv},
    {"bert_lowercase_keep_accents", "HELLO World"sv, "hello world"sv},
    {"bert_lowercase_keep_accents", "ΣΑΣ ΟΔΟΣ"sv, "σασ οδοσ"sv},
    {"bert_lowercase_keep_accents", "İstanbul"sv, "i\u0307stanbul"sv},
    {"bert_lowercase_keep_accents", "Iı"sv, "iı"sv},
    {"bert_lowercase_keep_accents", "ÀÉÎÕÜ"sv, "àéîõü"sv},
    {"bert_lowercase_keep_accents", "ПРИВЕТ"sv, "привет"sv},
    {"bert_lowercase_keep_accents", "ẞß"sv, "ßß"sv},
    {"bert_lowercase_keep_accents", "\u212A\u2126\u212B"sv, "kωå"sv},
    {"bert_lowercase_keep_accents", "ȺⱯ"sv, "ⱥɐ"sv},
    {"bert_lowercase_keep_accents", "ǅǄ"sv, "ǆǆ"sv},
    {"bert_lowercase_keep_accents", "ＡＢ"sv, "ａｂ"sv},
    {"bert_lowercase_keep_accents", "𐐀𞤀"sv, "𐐨𞤢"sv},
    {"bert_lowercase_keep_accents", "\u1C89\uA7CB\uA7DC\U00010D50\U00016EA0"sv, "\u1C8Aɤƛ\U00010D70\U00016EBB"sv},
    {"bert_lowercase_keep_accents", "我가😀"sv, "我가😀"sv},
    {"bert_lowercase_keep_accents", "ⒶⅠ"sv, "ⓐⅰ"sv},
    {"byte_level", ""sv, ""sv},
    {"byte_level", "Hello world"sv, "HelloĠworld"sv},
    {"byte_level", "é"sv, "Ã©"sv},
    {"byte_level", "我"sv, "æĪĳ"sv},
    {"byte_level", "😀"sv, "ðŁĺĢ"sv},
    {"byte_level", "\t\n\x00\x7F"sv, "ĉĊĀġ"sv},
    {"nmt", ""sv, ""sv},
    {"nmt", "a\x01" "b\x08" "c\x0B" "d\x1F\x7F"sv, "abcd"sv},
    {"nmt", "\t\n\x0C\r"sv, "    "sv},
    {"nmt", "\xC2\x85\xC2\x8F\xC2\x9F"sv, "\xC2\x85"sv},
    {"nmt", "\u1680\u200B\u200F\u2028\u2029"sv, "     "sv},
    {"nmt", "▁\uFEFF�"sv, "   "sv},
    {"nmt", "plain"sv, "plain"sv},
    {"empty_sequence", ""sv, ""sv},
    {"empty_sequence", "Hello"sv, "Hello"sv},
    {"empty_sequence", "é"sv, "é"sv},
};

const Normalizer& cached(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Normalizer>, std::less<>> normalizers;
  auto it = normalizers.find(name);
  if (it == normalizers.end()) it = normalizers.emplace(name, parse(kNormalizerJson.at(name))).first;
  return *it->second;
}

TEST(NormalizerGolden, MatchesReference) {
  for (const GoldenCase& c : kGoldenCases) {
    EXPECT_EQ(normalized(cached(c.normalizer), std::string(c.input)), c.expected) << c.normalizer << " on \"" << c.input << "\"";
  }
}

// Long texts cross the ASCII word loops and the boundaries between normalized runs. Each golden
// input is a self-contained unit: " | " neither composes nor reorders with its neighbours, so a
// long text made of many units must normalize to the concatenation of their reference outputs.
// A one-byte literal replaced in long texts (16 bytes at a time, then byte by byte; the last
// rounds' texts beyond the count's 255 blocks of 16 bytes), by contents of one to four bytes,
// against a plain replacement.
TEST(NormalizerReplace, OneByteLiteralInLongTexts) {
  std::mt19937 rng(11);
  const std::string alphabet[] = {" ", "a", "\xC3\xA9", "\n", "  "};
  for (std::string content : {"_", "ab", "\xE2\x96\x81", "\xF0\x9F\x98\x80"}) {
    auto normalizer = parse(R"({"type":"Replace","pattern":{"String":" "},"content":")" + content + R"("})");
    for (int round = 0; round < 300; ++round) {
      std::string text;
      for (std::size_t n = round < 280 ? rng() % 120 : 2500 + rng() % 8000; n-- > 0;) text += alphabet[rng() % std::size(alphabet)];
      std::string want;
      for (char c : text) want += c == ' ' ? content : std::string(1, c);
      ASSERT_EQ(normalized(*normalizer, text), want) << testing::PrintToString(text);
    }
  }
}

TEST(NormalizerGolden, LongTextsNormalizeUnitByUnit) {
  const std::vector<std::string> names = {"nfc", "nfd", "nfkc", "nfkd", "lowercase", "strip_accents",
                                          "nfkd_strip_accents_lowercase", "bert_uncased", "bert_cased",
                                          "byte_level", "nmt", "empty_sequence"};
  for (const std::string& name : names) {
    std::string text, expected;
    const std::string separator = " | ";
    const Normalizer& normalizer = cached(name);
    const std::string normalized_separator = normalized(normalizer, separator);
    for (int round = 0; round < 20; ++round) {
      for (const GoldenCase& c : kGoldenCases) {
        if (c.normalizer != name) continue;
        text += c.input;
        text += separator;
        expected += c.expected;
        expected += normalized_separator;
      }
      text += "plain ASCII text, long enough for the word-at-a-time loops. ";
      expected += normalized(normalizer, "plain ASCII text, long enough for the word-at-a-time loops. ");
    }
    EXPECT_EQ(normalized(normalizer, text), expected) << name;
  }
}

// FNV-1a over normalize(prefix + code point + suffix) for every code point, each output
// followed by a 0xFF byte (never part of UTF-8).
std::uint64_t hash_every_code_point(const Normalizer& normalizer, std::string_view prefix, std::string_view suffix) {
  std::uint64_t hash = 1469598103934665603ULL;
  auto mix = [&](unsigned char byte) {
    hash ^= byte;
    hash *= 1099511628211ULL;
  };
  std::string text;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    text.assign(prefix);
    textedge::detail::append_utf8(text, cp);
    text += suffix;
    normalizer.normalize(text);
    for (char c : text) mix(static_cast<unsigned char>(c));
    mix(0xFF);
  }
  return hash;
}

struct CodePointHash {
  const char* normalizer_json;
  const char* prefix;
  const char* suffix;
  std::uint64_t reference_hash;
};

// Hashes of the reference's outputs, computed the same way.
const CodePointHash kCodePointHashes[] = {
    {R"({"type":"NFC"})", "", "", 0x85125dfb58147cedULL},
    {R"({"type":"NFD"})", "", "", 0xa9d7143329a6fab7ULL},
    {R"({"type":"NFKC"})", "", "", 0x0c4b1e8e74797fbdULL},
    {R"({"type":"NFKD"})", "", "", 0x3aaca3d57aa072f8ULL},
    {R"({"type":"NFC"})", "", "\u0301", 0x78d03a507fe245e5ULL},
    {R"({"type":"NFD"})", "", "\u0301", 0x257d736e41b54699ULL},
    {R"({"type":"NFKC"})", "", "\u0301", 0xf736512a831a1c26ULL},
    {R"({"type":"NFKD"})", "", "\u0301", 0x3e9d1fbf645b31c8ULL},
    {R"({"type":"NFC"})", "a", "", 0x09e64f707b40360bULL},
    {R"({"type":"NFD"})", "a", "", 0x611428d4a1c1dab5ULL},
    {R"({"type":"NFKC"})", "a", "", 0x57a6455522d31ef5ULL},
    {R"({"type":"NFKD"})", "a", "", 0x74a0f81c2c0dc09cULL},
    {R"({"type":"Lowercase"})", "", "", 0x73b0f023bdfb040aULL},
    {R"({"type":"StripAccents"})", "", "", 0x92c7c49117352dcaULL},
    {R"({"type":"Strip","strip_left":true,"strip_right":true})", "", "", 0x4e7a4bccf2cb953cULL},
    {R"({"type":"Nmt"})", "", "", 0xea0d596b04bbbc24ULL},
    {R"({"type":"ByteLevel"})", "", "", 0x3d49c8290cd93699ULL},
    {R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":false,"lowercase":false,"strip_accents":false})", "", "", 0xa3412f2a2dc4883cULL},
    {R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":true,"lowercase":false,"strip_accents":false})", "", "", 0xb0d9dccaf08bef63ULL},
    {R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":false,"lowercase":false,"strip_accents":true})", "", "", 0x10018e96ea5d6a91ULL},
    {R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"lowercase":true})", "", "", 0x7967b8ace4b8d94fULL},
    {R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"lowercase":false,"strip_accents":true})", "", "", 0xc5ed4592ba949d3eULL},
    {R"({"type":"Sequence","normalizers":[{"type":"NFKD"},{"type":"StripAccents"},{"type":"Lowercase"}]})", "", "", 0xc47386dc16c1ea11ULL},
};

TEST(NormalizerEveryCodePoint, MatchesReference) {
  for (const CodePointHash& h : kCodePointHashes) {
    auto normalizer = parse(h.normalizer_json);
    EXPECT_EQ(hash_every_code_point(*normalizer, h.prefix, h.suffix), h.reference_hash)
        << h.normalizer_json << " with prefix \"" << h.prefix << "\" and suffix \"" << h.suffix << "\"";
  }
}

TEST(NormalizerModels, MatchReference) {
  const std::vector<std::string> samples = {"Hello world", "  leading and trailing  ", "e\u0301té \u212B", "我今天 한국어", "Ｆｕｌｌ ﬁ"};
  const std::map<std::string, std::vector<std::string>> expected = {
      {"qwen3", {"Hello world", "  leading and trailing  ", "été Å", "我今天 한국어", "Ｆｕｌｌ ﬁ"}},
      {"gemma3", {"Hello▁world", "▁▁leading▁and▁trailing▁▁", "e\u0301té▁\u212B", "我今天▁한국어", "Ｆｕｌｌ▁ﬁ"}},
      {"llama2", {"▁Hello▁world", "▁▁▁leading▁and▁trailing▁▁", "▁e\u0301té▁\u212B", "▁我今天▁한국어", "▁Ｆｕｌｌ▁ﬁ"}},
      {"deepseek_v3", {"Hello world", "  leading and trailing  ", "e\u0301té \u212B", "我今天 한국어", "Ｆｕｌｌ ﬁ"}},
  };
  for (const auto& [model, outputs] : expected) {
    auto document = JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + model + "/tokenizer.json");
    auto normalizer = normalizer_from_json(document.root().get("normalizer"));
    for (std::size_t i = 0; i < samples.size(); ++i)
      EXPECT_EQ(normalized(*normalizer, samples[i]), outputs[i]) << model << " on \"" << samples[i] << "\"";
  }
}

TEST(NormalizerThreads, SharedNormalizersAreThreadSafe) {
  // Build every normalizer here: the cache itself is not thread-safe, the normalizers are.
  for (const GoldenCase& c : kGoldenCases) cached(c.normalizer);
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int round = 0; round < 50; ++round)
        for (const GoldenCase& c : kGoldenCases)
          if (normalized(cached(c.normalizer), std::string(c.input)) != c.expected) ++failures[t];
    });
  }
  for (auto& thread : threads) thread.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

TEST(NormalizerDescribe, NamesTheComponentTree) {
  EXPECT_EQ(parse(R"({"type":"NFC"})")->describe(), "NFC");
  EXPECT_EQ(parse(kNormalizerJson.at("llama2"))->describe(), "Sequence[Prepend, Replace]");
  EXPECT_EQ(parse(R"({"type":"Sequence","normalizers":[{"type":"NFKD"},{"type":"Sequence","normalizers":[]},{"type":"Bert","clean_text":true,"handle_chinese_chars":true,"lowercase":true}]})")->describe(),
            "Sequence[NFKD, Sequence[], BertNormalizer]");
  EXPECT_EQ(parse(R"({"type":"Strip","strip_left":true,"strip_right":false})")->describe(), "Strip");
}

// Configurations the reference accepts.
TEST(NormalizerConfig, AcceptsWhatTheReferenceAccepts) {
  const char* accepted[] = {
      R"({"type":"Lowercase","unknown_field":1})",
      R"({"type":"Bert","clean_text":true,"handle_chinese_chars":true,"lowercase":true})",
      R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"lowercase":false,"strip_accents":null})",
      R"({"type":"Replace","pattern":{"String":""},"content":""})",
      R"({"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "})",
      R"({"type":"Sequence","normalizers":[]})",
  };
  for (const char* json : accepted) EXPECT_NO_THROW(parse(json)) << json;
  // strip_accents absent or null follows lowercase.
  EXPECT_EQ(normalized(*parse(R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":false,"lowercase":true})"), "\u00C9"), "e");
  EXPECT_EQ(normalized(*parse(R"({"type":"BertNormalizer","clean_text":false,"handle_chinese_chars":false,"lowercase":false})"), "\u00C9"), "\u00C9");
}

struct BadConfig {
  const char* json;
  const char* json_path;
  const char* message;  // a part of what() after the path
};

// Every one of these is refused by the reference too.
const BadConfig kBadConfigs[] = {
    {R"({})", "$", "missing member \"type\""},
    {R"({"type":"Nope"})", "$.type", "unsupported normalizer type \"Nope\""},
    {R"({"type":"nfc"})", "$.type", "unsupported normalizer type \"nfc\""},
    {R"({"type":5})", "$.type", "expected a string"},
    {R"({"type":"Precompiled","precompiled_charsmap":""})", "$.type", "Precompiled normalizer"},
    {R"({"type":"Strip","strip_left":true})", "$", "missing member \"strip_right\""},
    {R"({"type":"Strip","strip_left":"yes","strip_right":true})", "$.strip_left", "expected a boolean"},
    {R"({"type":"Strip","strip_left":null,"strip_right":true})", "$.strip_left", "expected a boolean"},
    {R"({"type":"BertNormalizer","handle_chinese_chars":true,"lowercase":true})", "$", "missing member \"clean_text\""},
    {R"({"type":"BertNormalizer","clean_text":true,"lowercase":true})", "$", "missing member \"handle_chinese_chars\""},
    {R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true})", "$", "missing member \"lowercase\""},
    {R"({"type":"BertNormalizer","clean_text":1,"handle_chinese_chars":true,"lowercase":true})", "$.clean_text", "expected a boolean"},
    {R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"lowercase":true,"strip_accents":"x"})", "$.strip_accents", "expected a boolean"},
    {R"({"type":"Replace","pattern":"l","content":"L"})", "$.pattern", "\"String\" or \"Regex\""},
    {R"({"type":"Replace","pattern":{},"content":"L"})", "$.pattern", "\"String\" or \"Regex\""},
    {R"({"type":"Replace","pattern":{"String":"x","Regex":"y"},"content":"L"})", "$.pattern", "\"String\" or \"Regex\""},
    {R"({"type":"Replace","pattern":{"Foo":"x"},"content":"L"})", "$.pattern.Foo", "unknown pattern kind \"Foo\""},
    {R"({"type":"Replace","pattern":{"String":5},"content":"L"})", "$.pattern.String", "expected a string"},
    {R"({"type":"Replace","pattern":{"Regex":"("},"content":"L"})", "$.pattern.Regex", "invalid regular expression"},
    {R"({"type":"Replace","pattern":{"String":"x"}})", "$", "missing member \"content\""},
    {R"({"type":"Replace","pattern":{"String":"x"},"content":null})", "$.content", "expected a string"},
    {R"({"type":"Prepend"})", "$", "missing member \"prepend\""},
    {R"({"type":"Prepend","prepend":5})", "$.prepend", "expected a string"},
    {R"({"type":"Sequence"})", "$", "missing member \"normalizers\""},
    {R"({"type":"Sequence","normalizers":{}})", "$.normalizers", "expected an array"},
    {R"({"type":"Sequence","normalizers":[{"type":"NFC"},{"type":"Bogus"}]})", "$.normalizers[1].type", "unsupported normalizer type \"Bogus\""},
    {R"({"type":"Sequence","normalizers":[{"type":"NFC"},{"type":"Prepend"}]})", "$.normalizers[1]", "missing member \"prepend\""},
};

TEST(NormalizerConfig, RejectsWhatTheReferenceRejects) {
  for (const BadConfig& bad : kBadConfigs) {
    try {
      parse(bad.json);
      ADD_FAILURE() << "accepted " << bad.json;
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), "tokenizer.json") << bad.json;
      EXPECT_EQ(e.json_path(), bad.json_path) << bad.json << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << bad.json << ": " << e.what();
    }
  }
}

}  // namespace
