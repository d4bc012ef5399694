// BPE model: the two merge strategies (scan for short words, heap for long ones) must agree,
// since which one runs depends only on word length.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <queue>
#include <set>

#include "base/json_dom.hpp"
#include "support/cjk_pairs_model.hpp"
#include "support/test_paths.hpp"
#include "base/utf8.hpp"
#include "tokenizer/byte_level.hpp"
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

// Long byte-level words (CJK, Thai, Cyrillic runs) are cut between two characters no token
// holds across; the result must be the one of merging the whole word, on the real vocabularies
// (whose tokens hold characters and parts of them: "о\xD0", " \xE2\x80")...
TEST(Bpe, ByteLevelCutsChangeNothing) {
  static const std::vector<std::string> pieces = {
      "\xE7\x9A\x84", "\xE6\x98\xAF", "\xE5\xAE\x9F", "\xE8\xA1\x8C", "\xE3\x83\x95", "\xE3\x82\xA1", "\xE3\x81\xAE",
      "\xE6\x96\x88", "\xE5\xB2\xB9", "\xEC\x9F\x90", "\xEA\xBB\xAB", "\xEB\x9A\xA6", "\xE0\xB9\x81", "\xE0\xB8\xA5",
      "\xE0\xB9\x8B", "\xE0\xB8\xA1", "\xD0\xBE", "\xD0\xB0", "\xD0\xB6", "\xD1\x8C", "\xCE\xB1", "\xC3\xA9",
      "\xE2\x80\x94", "\xE2\x80\x9C", "\xEF\xBC\x8C", "\xE3\x80\x82", "\xF0\x9F\x99\x82", " ", "a", "1"};
  for (const char* name : {"qwen3", "llama3_1", "deepseek_v3", "gptoss"}) {
    JsonDocument doc = JsonDocument::load(model_path(name) + "/tokenizer.json");
    BpeModel model = BpeModel::from_json(doc.root().get("model"), true);
    std::mt19937 rng(9);
    for (int i = 0; i < 3000; ++i) {
      std::string word;
      std::size_t n = 6 + rng() % 60, kinds = 2 + rng() % (pieces.size() - 2), first = rng() % pieces.size();
      for (std::size_t k = 0; k < n; ++k) word += pieces[(first + rng() % kinds) % pieces.size()];
      std::vector<TokenId> cut, whole;
      model.encode_word(word, cut);
      model.encode_word_with_heap(word, whole);
      ASSERT_EQ(cut, whole) << name << " word " << testing::PrintToString(word);
    }
  }
}

// A byte-level model: the byte alphabet, then `tokens`, then what `merges` make ("left right",
// in rank order); tokens and merges written in bytes.
BpeModel byte_level_model(const std::vector<std::string>& merges, const std::vector<std::string>& tokens = {},
                          bool ignore_merges = false) {
  std::vector<std::string> vocab(256);
  for (int b = 0; b < 256; ++b) append_utf8(vocab[b], byte_to_unicode(static_cast<unsigned char>(b)));
  auto in_alphabet = [&](std::string_view bytes) {
    std::string s;
    for (unsigned char c : bytes) s += vocab[c];
    return s;
  };
  auto add = [&](const std::string& t) {
    if (std::find(vocab.begin(), vocab.end(), t) == vocab.end()) vocab.push_back(t);
  };
  for (const std::string& t : tokens) add(in_alphabet(t));
  std::string merge_list;
  for (const std::string& merge : merges) {
    std::size_t space = merge.find(' ');
    std::string left = in_alphabet(merge.substr(0, space)), right = in_alphabet(merge.substr(space + 1));
    merge_list += (merge_list.empty() ? "\"" : ",\"") + left + " " + right + "\"";
    add(left + right);
  }
  std::string json = std::string(R"({"type":"BPE","ignore_merges":)") + (ignore_merges ? "true" : "false") + R"(,"vocab":{)";
  for (std::size_t i = 0; i < vocab.size(); ++i) {
    std::string escaped;
    for (char ch : vocab[i]) escaped += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
    json += (i ? ",\"" : "\"") + escaped + "\":" + std::to_string(i);
  }
  json += R"(},"merges":[)" + merge_list + "]}";
  JsonDocument doc(std::string_view(json), "inline.json");
  return BpeModel::from_json(doc.root(), true);
}

// ... and on a small vocabulary with each kind of token across a boundary: two whole
// characters, a character and part of the next, part of one and the next, parts of both.
// Each token's merge ranks before those that make the characters, so a cut there would split
// what the merges join. (é = C3 A9, ж = D0 B6, 語 = E8 AA 9E, α = CE B1.)
TEST(Bpe, ByteLevelCutsRespectEveryTokenAcrossCharacters) {
  const std::vector<std::vector<std::string>> cases = {
      {"\xC3 \xA9", "\xD0 \xB6", "\xC3\xA9 \xD0\xB6"},   // two whole characters
      {"\xC3 \xA9", "\xC3\xA9 \xD0", "\xD0 \xB6"},       // é and a part of ж
      {"\xD0 \xB6", "\xA9 \xD0\xB6", "\xC3 \xA9"},       // a part of é and ж
      {"\xA9 \xD0", "\xC3 \xA9", "\xD0 \xB6"},           // parts of both
      {"\x9E \xCE", "\xE8 \xAA", "\xE8\xAA \x9E", "\xCE \xB1"},  // parts of 語 and α
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    BpeModel model = byte_level_model(cases[c]);
    for (const char* unit : {"\xC3\xA9\xD0\xB6", "\xE8\xAA\x9E\xCE\xB1"}) {
      std::string word;
      while (word.size() < 40) word += unit;
      std::vector<TokenId> cut, whole;
      model.encode_word(word, cut);
      model.encode_word_with_heap(word, whole);
      ASSERT_EQ(cut, whole) << "case " << c << " word " << testing::PrintToString(word);
    }
  }
}

// A byte-level character may start as its token only where nothing could tell; each case here
// breaks one condition (prepare_character_tokens), so starting é (C3 A9) as its token would
// change the ids: no merge makes it (1); "B é" ranks before é is made (2); a token holds a part
// of é with the byte before it (3, "A\xC3") or after it (3, "\xA9" "B"), or parts of two (3,
// "\xA9\xC3").
TEST(Bpe, CharactersStartAsTokensOnlyWhereNothingCouldTell) {
  struct Case {
    std::vector<std::string> merges;
    std::string word;
  };
  const std::vector<Case> cases = {
      {{}, "A\xC3\xA9" "B"},                                // (1): é is a token, but unmade
      {{"B \xC3\xA9", "A B", "\xC3 \xA9"}, "AB\xC3\xA9"},      // (2)
      {{"A \xC3", "\xC3 \xA9"}, "A\xC3\xA9"},                  // (3) before
      {{"\xA9 B", "\xC3 \xA9"}, "\xC3\xA9" "B"},               // (3) after
      {{"\xA9 \xC3", "\xC3 \xA9"}, "\xC3\xA9\xC3\xA9"},        // (3) parts of both
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    BpeModel model = byte_level_model(cases[c].merges, {"\xC3\xA9"});
    for (int repeat : {1, 8}) {  // short words, and long ones that are cut
      std::string word;
      for (int k = 0; k < repeat; ++k) word += cases[c].word;
      std::vector<TokenId> encoded, whole;
      model.encode_word(word, encoded);
      model.encode_word_with_heap(word, whole);
      ASSERT_EQ(encoded, whole) << "case " << c << " word " << testing::PrintToString(word);
    }
  }
}

// With ignore_merges a word that is a token is that token, but a piece of a cut word is merged:
// the word cache keeps the two apart (éж is a token no merge makes).
TEST(Bpe, ByteLevelPiecesAndWholeWordsDoNotShareCacheEntries) {
  BpeModel model = byte_level_model({"\xC3 \xA9", "\xD0 \xB6", "\xCE \xB1"},
                                    {"\xC3\xA9", "\xD0\xB6", "\xCE\xB1", "\xC3\xA9\xD0\xB6"}, true);
  std::vector<TokenId> token;
  model.encode_word("\xC3\xA9\xD0\xB6", token);
  EXPECT_EQ(token, (std::vector<TokenId>{259}));
  std::string word;
  while (word.size() < 40) word += "\xC3\xA9\xD0\xB6\xCE\xB1";
  std::vector<TokenId> cut, whole;
  model.encode_word(word, cut);
  model.encode_word_with_heap(word, whole);
  EXPECT_EQ(whole.size(), 21u);
  EXPECT_EQ(cut, whole);
}

TEST(Bpe, ScanAndHeapAgreeSentencePiece) { check_strategies_agree("llama2", false); }

// The per-thread word cache (short entries of up to 3 ids, short words with more ids marked there
// and kept in long entries, long entries up to 54 bytes and 16 ids, longer entries up to 512 bytes
// and for long words of more ids, nothing beyond) gives back what the merges give: enough distinct
// words of each size that many share a set (128k short, 64k long entries, four to a set; 16k
// longer ones, direct-mapped), so entries move within their set and are replaced, each word encoded
// again after all the others.
TEST(Bpe, TheWordCacheGivesWhatTheMergesGive) {
  for (auto [name, byte_level] : {std::pair{"qwen3", true}, std::pair{"llama2", false}}) {
    JsonDocument doc = JsonDocument::load(model_path(name) + "/tokenizer.json");
    BpeModel model = BpeModel::from_json(doc.root().get("model"), byte_level);
    std::mt19937 rng(11);
    std::vector<std::string> words;
    for (int i = 0; i < 150000; ++i) words.push_back(random_word(rng, 1 + rng() % 60, byte_level));
    for (int i = 0; i < 60000; ++i) words.push_back(random_word(rng, 1 + rng() % 14, byte_level));
    for (int i = 0; i < 6000; ++i) words.push_back(random_word(rng, 55 + rng() % 600, byte_level));
    std::vector<std::vector<TokenId>> first(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) model.encode_word(words[i], first[i]);
    std::size_t short_many = 0, long_many = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::vector<TokenId> again, merged;
      model.encode_word(words[i], again);
      model.encode_word_with_heap(words[i], merged);
      ASSERT_EQ(first[i], merged) << name << " word #" << i;
      ASSERT_EQ(again, merged) << name << " word #" << i << " (again)";
      short_many += words[i].size() <= 14 && merged.size() > 3;
      long_many += words[i].size() > 14 && words[i].size() <= 54 && merged.size() > 16;
    }
    EXPECT_GT(short_many, 1000u) << name;  // the short words kept in long entries are tried
    EXPECT_GT(long_many, 1000u) << name;   // and the long words kept in longer entries
  }
}

// A short word's cache entry compares its bytes and its length as two words, its unused bytes
// zero: words that differ only by trailing NUL bytes ("ab", "ab\0", ...) are different entries.
// Each is encoded alone (the look-up copies the bytes it may read) and inside a long SentencePiece
// word (it reads 16 bytes in place), after the others, and gives what the merges give.
TEST(Bpe, TheWordCacheTellsWordsApartByTheirLength) {
  for (auto [name, byte_level] : {std::pair{"qwen3", true}, std::pair{"llama2", false}}) {
    JsonDocument doc = JsonDocument::load(model_path(name) + "/tokenizer.json");
    BpeModel model = BpeModel::from_json(doc.root().get("model"), byte_level);
    const std::string prefix = byte_level ? "ab" : "\xE2\x96\x81" "ab";
    std::vector<std::string> words;
    for (std::size_t zeros = 0; prefix.size() + zeros <= 18; ++zeros) words.push_back(prefix + std::string(zeros, '\0'));
    for (int pass = 0; pass < 2; ++pass) {
      for (const std::string& word : words) {
        std::vector<TokenId> cached, merged;
        model.encode_word(word, cached);
        model.encode_word_with_heap(word, merged);
        ASSERT_EQ(cached, merged) << name << ": " << word.size() << " bytes, pass " << pass;
      }
      if (byte_level) continue;
      std::string all;
      for (const std::string& word : words) all += word;
      all += std::string(32, 'x');
      std::vector<TokenId> cached, merged;
      model.encode_word(all, cached);
      model.encode_word_with_heap(all, merged);
      ASSERT_EQ(cached, merged) << name << ": the long word, pass " << pass;
    }
  }
}

// A merge's result is looked up by guess (the previous merge's id or the next) before the table.
// A string in the vocabulary twice takes the later id, as the table has it, even where the guess
// would find the earlier one: "a c" makes 3, and then id 4 is "ab" too. (Small lists are resolved
// in two halves as large ones are, each guessing from its own first merge: "a c" and "a b" are in
// the second.)
TEST(Bpe, MergedTokenInTheVocabularyTwiceTakesTheLaterId) {
  JsonDocument doc(R"({"type":"BPE","vocab":{"a":0,"b":1,"c":2,"ac":3,"ab":4,"ab":5,"x":6,"y":7,"xy":8,"yx":9},
                      "merges":["x y","y x","a c","a b"]})", "inline.json");
  BpeModel model = BpeModel::from_json(doc.root(), false);
  std::vector<TokenId> ids;
  model.encode_word("ab", ids);
  EXPECT_EQ(ids, std::vector<TokenId>{5});
}

// Results out of id order: the guesses miss and the table answers.
TEST(Bpe, MergesWhoseResultsAreOutOfIdOrder) {
  JsonDocument doc(R"({"type":"BPE","vocab":{"a":0,"b":1,"c":2,"bc":3,"ab":4,"abc":5,"cab":6},
                      "merges":["a b","b c","c ab","ab c"]})", "inline.json");
  BpeModel model = BpeModel::from_json(doc.root(), false);
  for (auto [word, expected] : {std::pair{"abc", std::vector<TokenId>{5}}, std::pair{"cab", std::vector<TokenId>{6}},
                                std::pair{"bc", std::vector<TokenId>{3}}}) {
    std::vector<TokenId> ids;
    model.encode_word(word, ids);
    EXPECT_EQ(ids, expected) << word;
  }
}

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

// Large enough that both loading threads resolve ranges of merges: of two bad merges, the error
// names the lower rank wherever the ranges fell, and every merge resolves where none is bad.
TEST(Bpe, LargeMergeListsResolveOnBothThreadsAndNameTheFirstError) {
  constexpr int kChars = kCjkPairChars;
  auto ch = cjk_pair_char;
  const std::string good_text = cjk_pairs_model_json();
  JsonDocument good(std::string_view(good_text), "inline.json");
  BpeModel model = BpeModel::from_json(good.root(), false);
  for (int rank : {0, 8191, 8192, 20000, kChars * kChars - 1}) {
    std::vector<TokenId> ids;
    model.encode_word(ch(rank / kChars) + ch(rank % kChars), ids);
    EXPECT_EQ(ids, std::vector<TokenId>{static_cast<TokenId>(kChars + rank)}) << rank;
  }
  for (auto [bad_right, bad_left] : {std::pair{30000, 3000}, std::pair{9000, 39000}}) {
    const std::string text = cjk_pairs_model_json(bad_left, bad_right);
    JsonDocument doc(std::string_view(text), "inline.json");
    int first = std::min(bad_right, bad_left);
    try {
      BpeModel::from_json(doc.root(), false);
      ADD_FAILURE() << "expected LoadError";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.json_path(), "$.merges[" + std::to_string(first) + "]");
      EXPECT_NE(std::string(e.what()).find(first == bad_left ? "\"zz\"" : "\"?\""), std::string::npos) << e.what();
    }
  }
}

TEST(Bpe, MalformedMergeString) {
  JsonDocument doc(R"({"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b", "ab"]})", "inline.json");
  EXPECT_THROW(BpeModel::from_json(doc.root(), false), LoadError);
}

}  // namespace
}  // namespace textedge::detail
