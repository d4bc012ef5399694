// BPE model: the two merge strategies (scan for short words, heap for long ones) must agree,
// since which one runs depends only on word length.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <queue>
#include <set>

#include "base/json_dom.hpp"
#include "support/test_paths.hpp"
#include "tokenizer/models/bpe.hpp"
#include "tokenizer/models/merge_queue.hpp"

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
    std::vector<TokenId> scan, heap, queue;
    model.encode_word(word, scan);
    model.encode_word_with_heap(word, heap);
    model.encode_word_with_queue(word, queue);
    ASSERT_EQ(scan, heap) << model_name << " word #" << i;
    ASSERT_EQ(queue, heap) << model_name << " word #" << i;
  }
}

// Long words take the bucket queue; the binary heap is the plain reference. Llama 3.1 and
// Llama 2 have merges that make a pair of lower rank than themselves (the queue's side heap).
void check_long_words_agree(const std::string& model_name, bool byte_level) {
  JsonDocument doc = JsonDocument::load(model_path(model_name) + "/tokenizer.json");
  BpeModel model = BpeModel::from_json(doc.root().get("model"), byte_level);
  static const std::vector<std::string> pieces = {"a", "a", "aa", "the", " the", "\xE2\x96\x81", "\xE2\x96\x81the", "ing", " ",
                                                  "  ", "\n", "\t", "\xE8\xAA\x9E", "\xE1\x80\x80", "er", "0", "00"};
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::string word;
    std::size_t length = 100 + rng() % 3000;
    // Few distinct pieces per word: long runs of the same pairs (one letter repeated, "the the").
    std::size_t kinds = 1 + rng() % 4, first = rng() % pieces.size();
    while (word.size() < length) word += pieces[(first + rng() % kinds) % pieces.size()];
    std::vector<TokenId> heap, queue, whole;
    model.encode_word_with_heap(word, heap);
    model.encode_word_with_queue(word, queue);
    ASSERT_EQ(queue, heap) << model_name << " word #" << i;
    model.encode_word(word, whole);
    ASSERT_EQ(whole, heap) << model_name << " word #" << i;
  }
}

// The queue against std::priority_queue on random pushes and pops: buckets filled out of
// order, pushes at and below the rank being taken.
TEST(Bpe, MergeQueueOrder) {
  std::mt19937 rng(5);
  MergeQueue queue;
  for (int round = 0; round < 200; ++round) {
    std::size_t ranks = 1 + rng() % 5000;
    queue.start(ranks);
    std::priority_queue<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::greater<>> expected;
    for (int step = 0; step < 2000; ++step) {
      if (rng() % 3 != 0 || expected.empty()) {
        auto rank = static_cast<std::uint32_t>(rng() % ranks), position = static_cast<std::uint32_t>(rng() % 1000);
        queue.push(rank, position, {rank, position, 0});
        expected.push({rank, position});
      } else {
        std::uint32_t rank, position;
        ASSERT_TRUE(queue.pop(rank, position));
        ASSERT_EQ(std::make_pair(rank, position), expected.top()) << "round " << round << " step " << step;
        expected.pop();
      }
    }
    std::uint32_t rank, position;
    while (!expected.empty()) {
      ASSERT_TRUE(queue.pop(rank, position));
      ASSERT_EQ(std::make_pair(rank, position), expected.top());
      expected.pop();
    }
    ASSERT_FALSE(queue.pop(rank, position));
  }
}

// Random small models whose merge order is shuffled (pairs of lower rank than the merge that
// makes them; tokens made by several merges; buckets filled out of order) on long words over
// their four letters.
TEST(Bpe, QueueAgreesWithHeapOnRandomModels) {
  std::mt19937 rng(11);
  for (int model_index = 0; model_index < 40; ++model_index) {
    std::vector<std::string> tokens = {"a", "b", "c", "d"};
    std::vector<std::string> merges;
    std::set<std::pair<std::string, std::string>> seen;
    for (int k = 0; k < 60; ++k) {
      const std::string& x = tokens[rng() % tokens.size()];
      const std::string& y = tokens[rng() % tokens.size()];
      if (x.size() + y.size() > 8 || !seen.insert({x, y}).second) continue;
      merges.push_back(x + " " + y);
      std::string merged = x + y;
      if (std::find(tokens.begin(), tokens.end(), merged) == tokens.end()) tokens.push_back(merged);
    }
    if (model_index % 2) std::shuffle(merges.begin(), merges.end(), rng);
    std::string json = R"({"type":"BPE","vocab":{)";
    for (std::size_t i = 0; i < tokens.size(); ++i) json += (i ? ",\"" : "\"") + tokens[i] + "\":" + std::to_string(i);
    json += R"(},"merges":[)";
    for (std::size_t i = 0; i < merges.size(); ++i) json += (i ? ",\"" : "\"") + merges[i] + "\"";
    json += "]}";
    JsonDocument doc(std::string_view(json), "random.json");
    BpeModel model = BpeModel::from_json(doc.root(), false);
    for (int i = 0; i < 30; ++i) {
      std::string word;
      std::size_t length = 2 + rng() % 1500, kinds = 1 + rng() % 4;
      while (word.size() < length) word += static_cast<char>('a' + rng() % kinds);
      std::vector<TokenId> heap, queue, whole;
      model.encode_word_with_heap(word, heap);
      model.encode_word_with_queue(word, queue);
      ASSERT_EQ(queue, heap) << "model " << model_index << " " << json << " word " << word;
      model.encode_word(word, whole);
      ASSERT_EQ(whole, heap) << "model " << model_index << " word " << word;
    }
  }
}

TEST(Bpe, LongWordsQwen3) { check_long_words_agree("qwen3", true); }
TEST(Bpe, LongWordsLlama31) { check_long_words_agree("llama3_1", true); }
TEST(Bpe, LongWordsLlama2) { check_long_words_agree("llama2", false); }
TEST(Bpe, LongWordsGemma3) { check_long_words_agree("gemma3", false); }

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
                                                    "\t", "\xE8\xAA\x9E", "\xE3\x80\x82", "\xE1\x80\x80", "\n\n",
                                                    // code: ASCII pairs some token holds and pairs none does
                                                    "(", ")", "=", ",", ";", "x", "_", "{", "}", "\"", ".", "->", "==",
                                                    "0x", "::", "#", "q", "Z", "|", "ing", "self", "~", "`", "\\", "@"};
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
// An ASCII character without a token of its own falls back on a byte token, which a merge may
// join: words are never cut next to it, whatever the ASCII pairs of the tokens say.
TEST(Bpe, NoCutNextToACharacterWithoutItsOwnToken) {
  JsonDocument doc(R"({"type":"BPE","byte_fallback":true,
      "vocab":{"\u2581":0,"a":1,"<0x78>":2,"a<0x78>":3,"b":4},"merges":["a <0x78>"]})", "inline.json");
  BpeModel model = BpeModel::from_json(doc.root(), false);
  std::vector<TokenId> split, whole;
  model.encode_word("\u2581axb", split);
  model.encode_word_with_heap("\u2581axb", whole);
  EXPECT_EQ(whole, (std::vector<TokenId>{0, 3, 4}));
  EXPECT_EQ(split, whole);
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
