// BPE model: the two merge strategies (scan for short words, heap for long ones) must agree,
// since which one runs depends only on word length.
#include <gtest/gtest.h>

#include <random>

#include "json.hpp"
#include "models/bpe.hpp"
#include "test_paths.hpp"

namespace textedge::detail {
namespace {

std::string random_word(std::mt19937& rng, std::size_t length, bool byte_level) {
  static const std::vector<std::string> pieces = {"a", "b", "e", "th", "in", " ", "▁", "é", "語", "🙂", "ing", "er", "0", "\n"};
  std::string w;
  while (w.size() < length) {
    if (byte_level && rng() % 8 == 0) w.push_back(static_cast<char>(rng() % 256));
    else w += pieces[rng() % pieces.size()];
  }
  return w;
}

void check_strategies_agree(const std::string& model_name, bool byte_level) {
  JsonDocument doc = JsonDocument::load(model_path(model_name) + "/tokenizer.json");
  BpeModel model = BpeModel::from_json(doc.root().get("model"), byte_level);
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    std::string word = random_word(rng, 1 + rng() % 40, byte_level);
    std::vector<TokenId> scan, heap;
    model.encode_word(word, scan);
    model.encode_word_with_heap(word, heap);
    ASSERT_EQ(scan, heap) << model_name << " word #" << i;
  }
}

TEST(Bpe, ScanAndHeapAgreeByteLevel) { check_strategies_agree("qwen3", true); }

// Long SentencePiece words are encoded piece by piece, split before U+2581; the result must be
// the one of merging the whole word (Gemma 3 has a merge across such a boundary: ">" + "▁</").
// Llama 2 words are also cut around characters without a token ("\n", "\t", some CJK and
// Burmese), which become byte tokens that no merge uses.
TEST(Bpe, SplittingBeforeMetaspaceChangesNothing) {
  for (const char* name : {"gemma3", "llama2"}) {
    JsonDocument doc = JsonDocument::load(model_path(name) + "/tokenizer.json");
    BpeModel model = BpeModel::from_json(doc.root().get("model"), false);
    static const std::vector<std::string> pieces = {"\xE2\x96\x81", "\xE2\x96\x81", ">", "</", "b", "the", "\xE2\x96\x81</", "a",
                                                    "\xF0\x9F\x99\x82", "\xEA\xB0\x80", "\xF3\xA0\x80\x81", "\n", "<", "0",
                                                    "\t", "\xE8\xAA\x9E", "\xE3\x80\x82", "\xE1\x80\x80", "\n\n"};
    std::mt19937 rng(3);
    for (int i = 0; i < 2000; ++i) {
      std::string word;
      std::size_t n = 1 + rng() % 80;
      for (std::size_t k = 0; k < n; ++k) word += pieces[rng() % pieces.size()];
      std::vector<TokenId> split, whole;
      model.encode_word(word, split);
      model.encode_word_with_heap(word, whole);
      ASSERT_EQ(split, whole) << name << " word " << testing::PrintToString(word);
    }
  }
}
TEST(Bpe, ScanAndHeapAgreeSentencePiece) { check_strategies_agree("llama2", false); }

TEST(Bpe, MissingMergeTokenNamesPath) {
  JsonDocument doc(R"({"type":"BPE","vocab":{"a":0,"b":1},"merges":["a b"]})", "inline.json");
  try {
    BpeModel::from_json(doc.root(), false);
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "$.merges[0]");
    EXPECT_NE(std::string(e.what()).find("\"ab\""), std::string::npos) << e.what();
  }
}

TEST(Bpe, MalformedMergeString) {
  JsonDocument doc(R"({"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b", "ab"]})", "inline.json");
  EXPECT_THROW(BpeModel::from_json(doc.root(), false), LoadError);
}

}  // namespace
}  // namespace textedge::detail
