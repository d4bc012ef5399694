// Decoders: every expected string below was recorded from the reference (Hugging Face
// tokenizers 0.23.2 through Node): a tokenizer.json with the decoder under test and a vocabulary
// made of the listed tokens, decoded with tok.decode(ids). The tokenizer joins the decoder's
// output tokens, so the tests compare the joined text.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"
#include "tokenizer/decoders/decoder.hpp"

using namespace std::literals;
using textedge::LoadError;
using textedge::detail::Decoder;
using textedge::detail::decoder_from_json;
using textedge::detail::JsonDocument;

namespace {

std::unique_ptr<Decoder> make_decoder(std::string_view json) {
  JsonDocument doc(json, "decoder.json");
  return decoder_from_json(doc.root());
}

std::string decode(const Decoder& decoder, std::vector<std::string> tokens) {
  decoder.decode_chain(tokens);
  std::string out;
  for (const auto& t : tokens) out += t;
  return out;
}

std::vector<std::string> chain(std::string_view json, std::vector<std::string> tokens) {
  make_decoder(json)->decode_chain(tokens);
  return tokens;
}

std::string mapped(std::string_view json, std::string token) {
  make_decoder(json)->map_token(token);
  return token;
}

struct Case {
  const char* name;
  const char* json;
  std::vector<std::string> tokens;
  std::string_view expected;
};

const std::vector<Case>& reference_cases() {
  static const std::vector<Case> cases = {
    {"byte_level_basic", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Hello", "Ġworld", "!", "Ċ"},
     "Hello world!\n"sv},
    {"byte_level_empty", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {},
     ""sv},
    {"byte_level_multibyte", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ã©", "æĹ¥", "æľ¬", "ðŁĺ", "Ģ"},
     "é日本😀"sv},
    {"byte_level_split_invalid", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"ðŁĺ", "Ġa"},
     "� a"sv},
    {"byte_level_lone_continuation", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ģ", "Ģ", "a"},
     "��a"sv},
    {"byte_level_truncated_at_end", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"a", "æĹ"},
     "a�"sv},
    {"byte_level_surrogate_bytes", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"íł", "Ģ"},
     "���"sv},
    {"byte_level_overlong", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ãģ", "Ģ", "Ġx"},
     "Á� x"sv},
    {"byte_level_non_alphabet_token", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ġa", "<|end of text|>", "Ġb"},
     " a<|end of text|> b"sv},
    {"byte_level_mixed_token_kept_raw", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ġa", "Ġ▁Ġ", "ĠĠ"},
     " aĠ▁Ġ  "sv},
    {"byte_level_cjk_token_raw", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"日本", "Ġx"},
     "日本 x"sv},
    {"byte_level_output_is_one_token", R"json({"type":"Sequence","decoders":[{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}]})json",
     {"▁a", "Ġ▁b"},
     "aĠb"sv},
    {"byte_level_then_bpe_suffix", R"json({"type":"Sequence","decoders":[{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},{"type":"BPEDecoder","suffix":"x"}]})json",
     {"axb", "x", "Ġx"},
     "ab "sv},
    {"byte_level_then_strip", R"json({"type":"Sequence","decoders":[{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},{"type":"Strip","content":"a","start":1,"stop":1}]})json",
     {"ab", "a", "ba"},
     "bab"sv},
    {"metaspace_always", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true})json",
     {"▁Hey", "▁friend", "!"},
     "Hey friend!"sv},
    {"metaspace_first_token_all_removed", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true})json",
     {"▁▁Hey", "▁▁you▁"},
     "Hey  you "sv},
    {"metaspace_first", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true})json",
     {"▁a▁b", "▁c"},
     "ab c"sv},
    {"metaspace_never", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"never","split":true})json",
     {"▁a", "▁b"},
     " a b"sv},
    {"metaspace_legacy_add_prefix_space_true", R"json({"type":"Metaspace","replacement":"▁","add_prefix_space":true})json",
     {"▁a", "▁b"},
     "a b"sv},
    {"metaspace_legacy_never", R"json({"type":"Metaspace","replacement":"▁","add_prefix_space":false,"prepend_scheme":"never"})json",
     {"▁a", "▁b"},
     " a b"sv},
    {"metaspace_default_scheme", R"json({"type":"Metaspace","replacement":"▁"})json",
     {"▁a", "▁b"},
     "a b"sv},
    {"metaspace_custom_replacement", R"json({"type":"Metaspace","replacement":"_","prepend_scheme":"always"})json",
     {"_a_", "_b▁"},
     "a b▁"sv},
    {"metaspace_only_replacement_first", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true})json",
     {"▁", "▁", "x"},
     " x"sv},
    {"metaspace_empty", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true})json",
     {},
     ""sv},
    {"metaspace_split_false", R"json({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":false})json",
     {"▁a", "▁b"},
     "a b"sv},
    {"byte_fallback_plain", R"json({"type":"ByteFallback"})json",
     {"Hey", "friend!"},
     "Heyfriend!"sv},
    {"byte_fallback_ascii", R"json({"type":"ByteFallback"})json",
     {"<0x61>"},
     "a"sv},
    {"byte_fallback_lone_lead", R"json({"type":"ByteFallback"})json",
     {"<0xE5>"},
     "�"sv},
    {"byte_fallback_truncated", R"json({"type":"ByteFallback"})json",
     {"<0xE5>", "<0x8f>"},
     "��"sv},
    {"byte_fallback_full_char", R"json({"type":"ByteFallback"})json",
     {"<0xE5>", "<0x8f>", "<0xab>"},
     "叫"sv},
    {"byte_fallback_then_text", R"json({"type":"ByteFallback"})json",
     {"<0xE5>", "<0x8f>", "<0xab>", "a"},
     "叫a"sv},
    {"byte_fallback_truncated_then_text", R"json({"type":"ByteFallback"})json",
     {"<0xE5>", "<0x8f>", "a"},
     "��a"sv},
    {"byte_fallback_valid_bytes_in_invalid_run", R"json({"type":"ByteFallback"})json",
     {"<0x61>", "<0xE5>", "<0x62>", "c"},
     "���c"sv},
    {"byte_fallback_two_runs", R"json({"type":"ByteFallback"})json",
     {"<0xC3>", "<0xA9>", "x", "<0xFF>", "<0x41>"},
     "éx��"sv},
    {"byte_fallback_surrogate", R"json({"type":"ByteFallback"})json",
     {"<0xED>", "<0xA0>", "<0x80>"},
     "���"sv},
    {"byte_fallback_emoji", R"json({"type":"ByteFallback"})json",
     {"<0xF0>", "<0x9F>", "<0x98>", "<0x80>"},
     "😀"sv},
    {"byte_fallback_lowercase_hex", R"json({"type":"ByteFallback"})json",
     {"<0x0a>", "<0x0A>"},
     "\n\n"sv},
    {"byte_fallback_not_byte_tokens", R"json({"type":"ByteFallback"})json",
     {"<0X41>", "<0x4>", "<0x041>", "<0xZZ>", "<0x41", "0x41>"},
     "<0X41><0x4><0x041><0xZZ><0x410x41>"sv},
    {"byte_fallback_plus_sign", R"json({"type":"ByteFallback"})json",
     {"<0x+A>", "<0x+>", "<0x-1>"},
     "\n<0x+><0x-1>"sv},
    {"byte_fallback_empty", R"json({"type":"ByteFallback"})json",
     {},
     ""sv},
    {"byte_fallback_nul", R"json({"type":"ByteFallback"})json",
     {"<0x00>", "a"},
     "\000a"sv},
    {"fuse", R"json({"type":"Fuse"})json",
     {"Hey", " friend!"},
     "Hey friend!"sv},
    {"fuse_then_metaspace", R"json({"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}]})json",
     {"a", "▁b", "▁c"},
     "abc"sv},
    {"fuse_empty", R"json({"type":"Fuse"})json",
     {},
     ""sv},
    {"strip_start", R"json({"type":"Strip","content":"H","start":1,"stop":0})json",
     {"Hey", " friend!", "HHH"},
     "ey friend!HH"sv},
    {"strip_stop", R"json({"type":"Strip","content":"y","start":0,"stop":1})json",
     {"Hey", " friend!"},
     "He friend!"sv},
    {"strip_counts", R"json({"type":"Strip","content":"▁","start":2,"stop":2})json",
     {"▁▁▁a▁▁▁", "▁b", "c▁", "d"},
     "▁a▁bcd"sv},
    {"strip_only_leading_run", R"json({"type":"Strip","content":" ","start":3,"stop":0})json",
     {" a ", "b  ", "  c"},
     "a b  c"sv},
    {"strip_stop_eats_whole_token", R"json({"type":"Strip","content":"x","start":0,"stop":2})json",
     {"xx", "axx", "y"},
     "ay"sv},
    {"strip_empty", R"json({"type":"Strip","content":" ","start":1,"stop":1})json",
     {},
     ""sv},
    {"replace_string", R"json({"type":"Replace","pattern":{"String":"▁"},"content":" "})json",
     {"▁Hey", "▁friend▁▁"},
     " Hey friend  "sv},
    {"replace_string_multi", R"json({"type":"Replace","pattern":{"String":"ab"},"content":"X"})json",
     {"abab", "aab", "ba"},
     "XXaXba"sv},
    {"replace_string_to_empty", R"json({"type":"Replace","pattern":{"String":"a"},"content":""})json",
     {"banana", "a"},
     "bnn"sv},
    {"replace_string_empty_pattern", R"json({"type":"Replace","pattern":{"String":""},"content":"-"})json",
     {"ab", "é"},
     "-a-b--é-"sv},
    {"replace_regex", R"json({"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "})json",
     {"a  b", "\t\tc"},
     "a b c"sv},
    {"replace_regex_empty_match", R"json({"type":"Replace","pattern":{"Regex":"x*"},"content":"-"})json",
     {"axb", "é"},
     "-a-b--é-"sv},
    {"replace_regex_unicode", R"json({"type":"Replace","pattern":{"Regex":"\\p{L}"},"content":"*"})json",
     {"aé1日"},
     "**1*"sv},
    {"replace_regex_anchor", R"json({"type":"Replace","pattern":{"Regex":"^a"},"content":"A"})json",
     {"aa", "ba"},
     "Aaba"sv},
    {"replace_empty", R"json({"type":"Replace","pattern":{"String":"a"},"content":"b"})json",
     {},
     ""sv},
    {"wordpiece_basic", R"json({"type":"WordPiece","prefix":"##","cleanup":false})json",
     {"##uelo", "Ara", "##új", "##o", "No", "##guera"},
     "##uelo Araújo Noguera"sv},
    {"wordpiece_cleanup", R"json({"type":"WordPiece","prefix":"##","cleanup":true})json",
     {"I", "do", "not", "like", "it", ".", "isn", "'", "t", "it", "?", "you", "'", "re", ",", "we", "'", "ve", "!"},
     "I do not like it. isn ' t it? you ' re, we ' ve!"sv},
    {"wordpiece_cleanup_in_token", R"json({"type":"WordPiece","prefix":"##","cleanup":true})json",
     {"a .b ?", "x", "n't", "'m", "'s", "do not", "##do not"},
     "a.b? xn't'm's don'tdo not"sv},
    {"wordpiece_cleanup_quote", R"json({"type":"WordPiece","prefix":"##","cleanup":true})json",
     {"a ' b", "'", "##'"},
     "a'b ''"sv},
    {"wordpiece_custom_prefix", R"json({"type":"WordPiece","prefix":"@@","cleanup":false})json",
     {"a", "@@b", "##c"},
     "ab ##c"sv},
    {"wordpiece_empty", R"json({"type":"WordPiece","prefix":"##","cleanup":true})json",
     {},
     ""sv},
    {"bpe_suffix", R"json({"type":"BPEDecoder","suffix":"</w>"})json",
     {"hel", "lo</w>", "wor", "ld</w>"},
     "hello world"sv},
    {"bpe_suffix_mid_token", R"json({"type":"BPEDecoder","suffix":"</w>"})json",
     {"a</w>b</w>", "c</w>"},
     "a b c"sv},
    {"bpe_empty", R"json({"type":"BPEDecoder","suffix":"</w>"})json",
     {},
     ""sv},
    {"ctc_basic", R"json({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})json",
     {"<pad>", "<pad>", "h", "e", "e", "l", "l", "<pad>", "l", "o", "o", "o", "<pad>", "<pad>", "|", "<pad>", "w", "o", "o", "o", "r", "<pad>", "<pad>", "l", "l", "d", "<pad>", "<pad>", "<pad>", "<pad>"},
     "hello world"sv},
    {"ctc_no_cleanup_keeps_delimiter", R"json({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":false})json",
     {"a", "a", "|", "|", "b", "<pad>"},
     "a|b"sv},
    {"ctc_pad_inside_token", R"json({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})json",
     {"a<pad>b", "x|y", "|'s"},
     "abx y 's"sv},
    {"ctc_cleanup_rules", R"json({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})json",
     {" .", " ?", "do not"},
     ".?do not"sv},
    {"ctc_empty", R"json({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})json",
     {},
     ""sv},
    {"sequence_llama2", R"json({"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]})json",
     {"▁Hello", "▁", "<0xE6>", "<0x97>", "<0xA5>", "<0xE5>", "▁w"},
     "Hello ���� w"sv},
    {"sequence_ctc_metaspace", R"json({"type":"Sequence","decoders":[{"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true},{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}]})json",
     {"▁", "▁", "H", "H", "i", "i", "▁", "y", "o", "u"},
     "Hi you"sv},
    {"sequence_nested", R"json({"type":"Sequence","decoders":[{"type":"Sequence","decoders":[{"type":"ByteFallback"}]},{"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"Replace","pattern":{"String":"a"},"content":"b"}]}]})json",
     {"<0x61>", "a"},
     "bb"sv},
    {"sequence_empty_list", R"json({"type":"Sequence","decoders":[]})json",
     {"a", "b"},
     "ab"sv},
    {"replace_regex_optional_empty", R"json({"type":"Replace","pattern":{"Regex":"a|"},"content":"-"})json",
     {"ab", "c", "aa", "a.b (x)"},
     "-b--c----.-b- -(-x-)-"sv},
    {"replace_regex_lazy_empty", R"json({"type":"Replace","pattern":{"Regex":"a*?"},"content":"-"})json",
     {"ab", "aa"},
     "-a-b--a-a-"sv},
    {"replace_regex_word_boundary", R"json({"type":"Replace","pattern":{"Regex":"\\b"},"content":"|"})json",
     {"ab", "a.b (x)"},
     "|ab||a|.|b| (|x|)"sv},
    {"replace_regex_end_anchor", R"json({"type":"Replace","pattern":{"Regex":"$"},"content":"|"})json",
     {"ab", "c"},
     "ab|c|"sv},
    {"replace_string_is_literal", R"json({"type":"Replace","pattern":{"String":"."},"content":"|"})json",
     {"a.b", "ab"},
     "a|bab"sv},
    {"replace_string_no_backrefs", R"json({"type":"Replace","pattern":{"String":"(x)"},"content":"$1"})json",
     {"a (x)"},
     "a $1"sv},
    {"bpe_empty_suffix", R"json({"type":"BPEDecoder","suffix":""})json",
     {"ab", "c"},
     " a b c"sv},
    {"ctc_empty_pad_and_delimiter", R"json({"type":"CTC","pad_token":"","word_delimiter_token":"","cleanup":true})json",
     {"ab", "c"},
     " a b  c "sv},
    {"wordpiece_empty_prefix", R"json({"type":"WordPiece","prefix":"","cleanup":false})json",
     {"ab", "c", "d"},
     "abcd"sv},
    {"strip_multibyte", R"json({"type":"Strip","content":"é","start":1,"stop":2})json",
     {"éaéé", "ééé", "éb"},
     "ab"sv},
    {"metaspace_four_byte_replacement", R"json({"type":"Metaspace","replacement":"😀","prepend_scheme":"never"})json",
     {"😀a", "b😀😀"},
     " ab  "sv},
    {"byte_level_special_ascii", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"<|begin_of_text|>", "Hi", "ĠthereĊĊ", "<|eot_id|>"},
     "<|begin_of_text|>Hi there\n\n<|eot_id|>"sv},
    {"byte_level_control_bytes", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})json",
     {"Ā", "ĉ", "Ġ", "ġ", "Ń", "ł"},
     "\000\t \177��"sv},
    {"byte_level_empty_string_first", R"json({"type":"Sequence","decoders":[{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true},{"type":"ByteFallback"}]})json",
     {"<0x41>", "Ġ"},
     "<0x41> "sv},
    {"byte_fallback_after_replace", R"json({"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]})json",
     {"▁", "▁▁", "<0x0A>", "▁x"},
     "  \n x"sv},
    {"fuse_then_wordpiece", R"json({"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"WordPiece","prefix":"##","cleanup":true}]})json",
     {"a", " .", "##b"},
     "a.##b"sv},
    {"replace_longer_content", R"json({"type":"Replace","pattern":{"String":"a"},"content":"<A>"})json",
     {"banana", "a", "b"},
     "b<A>n<A>n<A><A>b"sv},
    {"replace_after_fuse_long", R"json({"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"Replace","pattern":{"String":"▁"},"content":" "}]})json",
     {"▁w0", "▁w1", "▁w2", "▁w3", "▁w4", "▁w5", "▁w6", "▁w7", "▁w8", "▁w9", "▁w10", "▁w11", "▁w12", "▁w13", "▁w14", "▁w15", "▁w16", "▁w17", "▁w18", "▁w19", "▁w20", "▁w21", "▁w22", "▁w23", "▁w24", "▁w25", "▁w26", "▁w27", "▁w28", "▁w29", "▁w30", "▁w31", "▁w32", "▁w33", "▁w34", "▁w35", "▁w36", "▁w37", "▁w38", "▁w39"},
     " w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39"sv},
    {"metaspace_after_fuse_long", R"json({"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true}]})json",
     {"▁ab0", "▁ab1", "▁ab2", "▁ab3", "▁ab4", "▁ab5", "▁ab6", "▁ab7", "▁ab8", "▁ab9", "▁ab10", "▁ab11", "▁ab12", "▁ab13", "▁ab14", "▁ab15", "▁ab16", "▁ab17", "▁ab18", "▁ab19", "▁ab20", "▁ab21", "▁ab22", "▁ab23", "▁ab24", "▁ab25", "▁ab26", "▁ab27", "▁ab28", "▁ab29"},
     "ab0ab1ab2ab3ab4ab5ab6ab7ab8ab9ab10ab11ab12ab13ab14ab15ab16ab17ab18ab19ab20ab21ab22ab23ab24ab25ab26ab27ab28ab29"sv},
    {"wordpiece_cleanup_long_token", R"json({"type":"WordPiece","prefix":"##","cleanup":true})json",
     {"x . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 's do not", "##y do not , , , , , , , , , , , , , , , , , , , , , , , , , , , , , ,"},
     "x........................................'s don'ty don't,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,"sv},
    {"bpe_suffix_long_token", R"json({"type":"BPEDecoder","suffix":"</w>"})json",
     {"a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>a</w>", "b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>b</w>"},
     "a a a a a a a a a a a a a a a a a a a a bbbbbbbbbbbbbbbbbbbb"sv},
  };
  return cases;
}

class ReferenceDecode : public testing::TestWithParam<Case> {};

TEST_P(ReferenceDecode, MatchesReference) {
  const Case& c = GetParam();
  auto decoder = make_decoder(c.json);
  EXPECT_EQ(decode(*decoder, c.tokens), c.expected);
}

INSTANTIATE_TEST_SUITE_P(Decoders, ReferenceDecode, testing::ValuesIn(reference_cases()),
                         [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// ---- Shape of the token list (the reference's decode_chain output, from its source and
// confirmed above by chaining position-dependent decoders after these).

TEST(DecoderChain, ByteLevelAlwaysYieldsOneToken) {
  const char* json = R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})";
  EXPECT_EQ(chain(json, {"Hello", "Ġworld"}), (std::vector<std::string>{"Hello world"}));
  EXPECT_EQ(chain(json, {}), (std::vector<std::string>{""}));
}

TEST(DecoderChain, FuseAlwaysYieldsOneToken) {
  const char* json = R"({"type":"Fuse"})";
  EXPECT_EQ(chain(json, {"a", "b", "c"}), (std::vector<std::string>{"abc"}));
  EXPECT_EQ(chain(json, {}), (std::vector<std::string>{""}));
}

TEST(DecoderChain, ByteFallbackInvalidRunGivesOneReplacementPerByte) {
  const char* json = R"({"type":"ByteFallback"})";
  EXPECT_EQ(chain(json, {"<0x61>", "<0xE5>", "x", "<0xE5>", "<0x8f>", "<0xab>"}),
            (std::vector<std::string>{"\uFFFD", "\uFFFD", "x", "叫"}));
}

TEST(DecoderChain, CtcCollapsesRepeatsAndDropsEmptyTokens) {
  const char* json = R"({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})";
  EXPECT_EQ(chain(json, {"<pad>", "<pad>", "h", "e", "e", "<pad>", "|", "|", "w"}),
            (std::vector<std::string>{"h", "e", " ", "w"}));
}

// ---- Where the reference crashes, textedge picks the natural result.

TEST(DecoderDivergence, StripMoreThanTheTokenHoldsEmptiesIt) {
  // The reference panics (index out of bounds) and aborts the process in these cases.
  auto strip = make_decoder(R"({"type":"Strip","content":"x","start":0,"stop":2})");
  EXPECT_EQ(decode(*strip, {"x", "ax"}), "a");
  auto both = make_decoder(R"({"type":"Strip","content":"x","start":1,"stop":1})");
  EXPECT_EQ(decode(*both, {"x", "xax"}), "a");
}

// ---- map_token: textedge's context-free per-token bytes (Tokenizer::token_bytes). There is no
// reference counterpart; each expectation follows the rule documented on the component.

TEST(DecoderMapToken, ByteLevelGivesRawBytes) {
  const char* json = R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})";
  EXPECT_EQ(mapped(json, "Ġhello"), " hello");
  EXPECT_EQ(mapped(json, "ðŁĺ"), "\xF0\x9F\x98");  // a partial character stays unrepaired
  EXPECT_EQ(mapped(json, "Ċ"), "\n");
  EXPECT_EQ(mapped(json, "<|end of text|>"), "<|end of text|>");  // outside the alphabet: as is
  EXPECT_EQ(mapped(json, ""), "");
}

TEST(DecoderMapToken, ByteFallbackGivesTheByte) {
  const char* json = R"({"type":"ByteFallback"})";
  EXPECT_EQ(mapped(json, "<0x0A>"), "\n");
  EXPECT_EQ(mapped(json, "<0xE5>"), "\xE5");
  EXPECT_EQ(mapped(json, "<0x00>"), "\0"s);
  EXPECT_EQ(mapped(json, "<0xZZ>"), "<0xZZ>");
}

TEST(DecoderMapToken, MetaspaceAsANonFirstToken) {
  EXPECT_EQ(mapped(R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"always"})", "▁a▁"), " a ");
}

TEST(DecoderMapToken, PositionalRulesAreNotApplied) {
  EXPECT_EQ(mapped(R"({"type":"Strip","content":" ","start":1,"stop":1})", " a "), " a ");
  EXPECT_EQ(mapped(R"({"type":"Fuse"})", "ab"), "ab");
  EXPECT_EQ(mapped(R"({"type":"BPEDecoder","suffix":"</w>"})", "lo</w>"), "lo ");
  EXPECT_EQ(mapped(R"({"type":"WordPiece","prefix":"##","cleanup":true})", "##ing"), "ing");
  EXPECT_EQ(mapped(R"({"type":"WordPiece","prefix":"##","cleanup":true})", "word"), " word");
  EXPECT_EQ(mapped(R"({"type":"WordPiece","prefix":"##","cleanup":true})", "."), ".");
  EXPECT_EQ(mapped(R"({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|","cleanup":true})", "<pad>|"), " ");
}

TEST(DecoderMapToken, Llama2Sequence) {
  const char* json =
      R"({"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},)"
      R"({"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]})";
  EXPECT_EQ(mapped(json, "▁Hello"), " Hello");
  EXPECT_EQ(mapped(json, "<0xE6>"), "\xE6");
  EXPECT_EQ(mapped(json, "▁▁"), "  ");
}

TEST(DecoderDescribe, NamesTheTree) {
  EXPECT_EQ(make_decoder(R"({"type":"Sequence","decoders":[{"type":"ByteFallback"},{"type":"Fuse"}]})")->describe(),
            "Sequence[ByteFallback, Fuse]");
  EXPECT_EQ(make_decoder(R"({"type":"BPEDecoder","suffix":"</w>"})")->describe(), "BPEDecoder");
}

// ---- Invalid configurations: each one is refused by the reference as well.

class InvalidDecoder : public testing::TestWithParam<const char*> {};

TEST_P(InvalidDecoder, ThrowsLoadError) { EXPECT_THROW(make_decoder(GetParam()), LoadError); }

INSTANTIATE_TEST_SUITE_P(
    Decoders, InvalidDecoder,
    testing::Values(R"({"type":"Bogus"})", R"({"x":1})", R"({"type":"ByteLevel"})",
                    R"({"type":"ByteLevel","add_prefix_space":true})",
                    R"({"type":"ByteLevel","add_prefix_space":"x","trim_offsets":false})",
                    R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":null})",
                    R"({"type":"Strip","content":"ab","start":1,"stop":0})", R"({"type":"Strip","content":"","start":1,"stop":0})",
                    R"({"type":"Strip","content":" ","start":1})", R"({"type":"Strip","content":" ","start":-1,"stop":0})",
                    R"({"type":"WordPiece"})", R"({"type":"WordPiece","prefix":"##"})",
                    R"({"type":"WordPiece","cleanup":true})", R"({"type":"WordPiece","prefix":"##","cleanup":null})",
                    R"({"type":"BPEDecoder"})", R"({"type":"CTC"})",
                    R"({"type":"CTC","pad_token":"<pad>","word_delimiter_token":"|"})", R"({"type":"Sequence"})",
                    R"({"type":"Sequence","decoders":[{"type":"Bogus"}]})",
                    R"({"type":"Replace","pattern":{"Regex":"("},"content":"x"})",
                    R"({"type":"Replace","pattern":"a","content":"x"})", R"({"type":"Replace","pattern":{"String":"a"}})",
                    R"({"type":"Replace","pattern":{"String":"a","Regex":"b"},"content":"|"})",
                    R"({"type":"Replace","pattern":{"String":null},"content":"x"})",
                    R"({"type":"Replace","pattern":{"Bogus":"a"},"content":"x"})",
                    R"({"type":"Metaspace","replacement":"▁","add_prefix_space":false})",
                    R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"bogus"})",
                    R"({"type":"Metaspace","replacement":"▁","prepend_scheme":null})", R"({"type":"Metaspace"})",
                    R"({"type":"Metaspace","replacement":"ab"})", R"({"type":"Metaspace","replacement":""})"));

// A count as a float beyond int64 is refused as not an integer (it was cast to one, which is
// undefined; found by tests/fuzz/fuzz_tokenizer_load.cpp under UBSan).
TEST(InvalidDecoderMessage, CountBeyond64BitsIsNotAnInteger) {
  for (std::string start : {"2.2e63", "9.3e18", "-1e300"}) {
    try {
      make_decoder(R"({"type":"Strip","content":" ","start":)" + start + R"(,"stop":0})");
      FAIL() << "expected LoadError for " << start;
    } catch (const LoadError& e) {
      EXPECT_NE(std::string(e.what()).find("$.start: expected an integer, found number"), std::string::npos)
          << e.what();
    }
  }
}

TEST(InvalidDecoderMessage, NamesFileAndPath) {
  try {
    make_decoder(R"({"type":"Sequence","decoders":[{"type":"Fuse"},{"type":"Strip","content":"ab","start":1,"stop":0}]})");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "decoder.json");
    EXPECT_EQ(e.json_path(), "$.decoders[1].content");
  }
}

}  // namespace
