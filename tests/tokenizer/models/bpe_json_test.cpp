// The dedicated reader of $.model.vocab and $.model.merges (bpe_json.hpp): it must build the
// same model as the DOM, decline anything unusual so the DOM's errors (with paths) apply, and
// never crash or hang on malformed text.
#include "tokenizer/models/bpe_json.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include <simdjson.h>

#include "base/json_dom.hpp"
#include "base/run_in_parallel.hpp"
#include "support/test_paths.hpp"
#include "textedge/tokenizer.hpp"
#include "tokenizer/models/bpe.hpp"

namespace textedge::detail {
namespace {

// Escapes, a surrogate pair, both merge forms, a duplicate key (the later one wins), spacing.
const char* kTricky = R"({ "version": "1.0", "added_tokens": [{"id": 9, "content": "<s>", "special": true}],
  "model" : { "type": "BPE", "dropout": null, "unk_token": "<unk>",
    "vocab" : {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "\u00e9": 4, "\"q\\": 5, "\ud83d\ude42": 6,
               "a\u00e9": 7, "b": 8, "a\n": 10, "\n": 11, "a\"q\\": 12} ,
    "merges" : [ "a b", ["a", "\u00e9"], [ "a" , "\"q\\" ],
                 "a \n" ] } ,
  "decoder": null })";

struct Read {
  BpeLists lists;
  std::optional<std::string> rest;
};

void expect_same_model(const BpeModel& dom, const BpeModel& fast) {
  ASSERT_EQ(dom.vocab_size(), fast.vocab_size());
  for (TokenId id = 0; id < dom.vocab_size(); ++id) {
    EXPECT_EQ(dom.token(id), fast.token(id)) << id;
    if (auto t = dom.token(id)) EXPECT_EQ(dom.token_to_id(*t), fast.token_to_id(*t)) << *t;
  }
}

TEST(BpeJson, ReadsWhatTheDomReads) {
  BpeLists lists;
  auto rest = read_bpe_lists(kTricky, lists);
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(lists.vocab.size(), 12u);
  EXPECT_EQ(lists.merges.size(), 4u);
  EXPECT_EQ(lists.vocab[5].text, "\"q\\");
  EXPECT_EQ(lists.vocab[6].text, "\xF0\x9F\x99\x82");
  EXPECT_EQ(lists.merges[3].right, "\n");
  JsonDocument rest_doc(std::string_view(*rest), "t.json"), whole(std::string_view(kTricky), "t.json");
  BpeModel fast = BpeModel::from_json(rest_doc.root().get("model"), false, &lists);
  BpeModel dom = BpeModel::from_json(whole.root().get("model"), false);
  expect_same_model(dom, fast);
  EXPECT_EQ(fast.token_to_id("b"), 8u);
  for (std::string word : {"ab", "a\xC3\xA9", "a\"q\\", "ba", "a\n"}) {
    std::vector<TokenId> a, b;
    dom.encode_word(word, a);
    fast.encode_word(word, b);
    EXPECT_EQ(a, b) << word;
  }
}

TEST(BpeJson, SameModelsAsTheDomOnRealFiles) {
  for (const char* name : {"llama2", "qwen3"}) {
    MappedFile file(model_path(name) + "/tokenizer.json");
    BpeLists lists;
    auto rest = read_bpe_lists(file.text(), lists);
    ASSERT_TRUE(rest.has_value()) << name;
    JsonDocument rest_doc(std::string_view(*rest), name), whole(file.text(), name);
    bool byte_level = std::string(name) == "qwen3";
    expect_same_model(BpeModel::from_json(whole.root().get("model"), byte_level),
                      BpeModel::from_json(rest_doc.root().get("model"), byte_level, &lists));
  }
}

TEST(BpeJson, DeclinesWhatItDoesNotTake) {
  for (const char* text : {
           R"({"model":{"vocab":{"a":"zero"},"merges":[]}})",        // not an integer id
           R"({"model":{"vocab":{"a":1.0},"merges":[]}})",
           R"({"model":{"vocab":{"a":-1},"merges":[]}})",
           R"({"model":{"vocab":{"a":01},"merges":[]}})",
           R"({"model":{"vocab":{"a":4294967296},"merges":[]}})",
           R"({"model":{"vocab":{"\udc00":1},"merges":[]}})",      // lone surrogates
           R"({"model":{"vocab":{"\ud800x":1},"merges":[]}})",
           R"({"model":{"vocab":{"a\q":1},"merges":[]}})",          // bad escape
           "{\"model\":{\"vocab\":{\"a\x01\":1},\"merges\":[]}}",   // control character
           "{\"model\":{\"vocab\":{\"\xC3\":1},\"merges\":[]}}",    // invalid UTF-8
           R"({"model":{"vocab":{},"merges":["ab"]}})",              // no space
           R"({"model":{"vocab":{},"merges":["a b c"]}})",
           R"({"model":{"vocab":{},"merges":[["a"]]}})",
           R"({"model":{"vocab":{},"merges":[["a","b","c"]]}})",
           R"({"model":{"vocab":{},"merges":[],"vocab":{}}})",      // duplicate member
           R"({"model":{"vocab":{}}})",                             // no merges
           R"({"model":{"vocab":[],"merges":[]}})",
           R"([1])",
       }) {
    BpeLists lists;
    EXPECT_FALSE(read_bpe_lists(text, lists).has_value()) << text;
  }
  // Merge strings with 16 readable bytes from their start take the 16-byte space count.
  const std::string padding(32, ' ');
  for (const char* merges : {R"(["a b c","x y"])", R"(["x y","ab"])", R"(["x y","a  b"])", R"(["abcdefghijklmn o p"])",
                             R"(["x y","a\u0020b c"])"}) {
    std::string text = std::string(R"({"model":{"vocab":{},"merges":)") + merges + "}}" + padding;
    BpeLists lists;
    EXPECT_FALSE(read_bpe_lists(text, lists).has_value()) << text;
  }
  std::string text = std::string(R"({"model":{"vocab":{},"merges":["x y"," ab","abcdefghijklmno p","abcdefghijklmnop q"]}})") + padding;
  BpeLists lists;
  ASSERT_TRUE(read_bpe_lists(text, lists).has_value());
  ASSERT_EQ(lists.merges.size(), 4u);
  EXPECT_EQ(lists.merges[1].left, "");
  EXPECT_EQ(lists.merges[1].right, "ab");
  EXPECT_EQ(lists.merges[2].left, "abcdefghijklmno");
  EXPECT_EQ(lists.merges[2].right, "p");
  EXPECT_EQ(lists.merges[3].left, "abcdefghijklmnop");
  EXPECT_EQ(lists.merges[3].right, "q");
}

// Ids of every length (Reader::id): what JSON and the id range allow, nothing else.
TEST(BpeJson, IdsOfEveryLength) {
  std::vector<std::string> taken = {"0", "2147483647"},
                           declined = {"", "-1", "00", "01", "0123", "1.5", "2e3", "1E2", "2147483648", "99999999999",
                                       "+1", "0x1", "1a"};
  for (std::uint64_t digits = 1, smallest = 1; digits <= 10; ++digits, smallest *= 10) {
    std::string ascending;  // 1, 12, 123, ..., 1234567890
    for (std::uint64_t k = 1; k <= digits; ++k) ascending += static_cast<char>('0' + k % 10);
    taken.push_back(ascending);
    taken.push_back(std::to_string(smallest));
    if (smallest * 10 - 1 <= 0x7FFFFFFF) taken.push_back(std::to_string(smallest * 10 - 1));  // all nines
  }
  for (const char* after : {"}", " }", "\n}"})
    for (const std::string& id : taken) {
      std::string text = R"({"model":{"vocab":{"a":)" + id + after + R"(,"merges":[]}})";
      BpeLists lists;
      ASSERT_TRUE(read_bpe_lists(text, lists).has_value()) << text;
      ASSERT_EQ(lists.vocab.size(), 1u);
      EXPECT_EQ(std::to_string(lists.vocab[0].id), id) << text;
    }
  for (const std::string& id : declined) {
    std::string text = R"({"model":{"vocab":{"a":)" + id + R"(},"merges":[]}})";
    BpeLists lists;
    EXPECT_FALSE(read_bpe_lists(text, lists).has_value()) << text;
  }
}

TEST(BpeJson, MergeErrorsNameThePath) {
  try {
    Tokenizer::from_json(R"({"model":{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b", ["b", "a"]]}})", "x.json");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "x.json");
    EXPECT_EQ(e.json_path(), "$.model.merges[1]");
    EXPECT_NE(std::string(e.what()).find("\"ba\""), std::string::npos) << e.what();
  }
}

// Large files (over kParallelMinBytes) in the layouts real files use and some they do not: base
// tokens, then one token per merge (the two sides' concatenation), so the files load.
enum Layout { kPairsOverLines, kStringLines, kMixed, kOneLine, kPairsOneLine };
constexpr int kLayoutTokens = 12000, kLayoutMerges = 30000;

std::string layout_text(Layout layout, std::mt19937& rng) {
  auto token = [&](int i) {
    std::string t = "t" + std::to_string(i);
    if (i % 97 == 0) t += "\\\"q\\u00e9";  // escaped: unescaped into the deques
    return t;
  };
  std::vector<std::pair<std::string, std::string>> merges;
  std::set<std::pair<int, int>> seen;
  while (merges.size() < static_cast<std::size_t>(kLayoutMerges)) {
    int a = static_cast<int>(rng() % kLayoutTokens), b = static_cast<int>(rng() % kLayoutTokens);
    if (seen.insert({a, b}).second) merges.emplace_back(token(a), "_" + token(b));
  }
  const char* nl = layout == kOneLine || layout == kPairsOneLine ? "" : "\n      ";
  std::string text = "{\n  \"model\": {\n    \"type\": \"BPE\",\n    \"vocab\": {";
  for (int i = 0; i < kLayoutTokens; ++i) {
    text += std::string(i ? "," : "") + nl + "\"" + token(i) + "\": " + std::to_string(2 * i);
    text += std::string(",") + nl + "\"_" + token(i) + "\": " + std::to_string(2 * i + 1);
  }
  for (int i = 0; i < kLayoutMerges; ++i)
    text += std::string(",") + nl + "\"" + merges[i].first + merges[i].second + "\": " + std::to_string(2 * kLayoutTokens + i);
  text += std::string(nl) + "},\n    \"merges\": [";
  for (int i = 0; i < kLayoutMerges; ++i) {
    const auto& [a, b] = merges[i];
    bool pair = layout == kPairsOverLines || layout == kPairsOneLine || (layout == kMixed && rng() % 2);
    text += i ? "," : "";
    if (!pair)
      text += std::string(nl) + "\"" + a + " " + b + "\"";
    else if (layout == kPairsOverLines || layout == kMixed)
      text += "\n      [\n        \"" + a + "\",\n        \"" + b + "\"\n      ]";
    else
      text += "[\"" + a + "\", \"" + b + "\"]";
  }
  text += "\n    ]\n  }\n}\n";
  return text;
}

// The reader's lists against simdjson's DOM of the same text (which must parse).
::testing::AssertionResult same_as_dom(const std::string& text, const BpeLists& lists) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(text).get(doc)) return ::testing::AssertionFailure() << "the DOM refuses what the reader read";
  simdjson::dom::array dom_merges;
  simdjson::dom::object dom_vocab;
  if (doc["model"]["merges"].get_array().get(dom_merges) || doc["model"]["vocab"].get_object().get(dom_vocab))
    return ::testing::AssertionFailure() << "no model.vocab/merges in the DOM";
  if (lists.merges.size() != dom_merges.size() || lists.vocab.size() != dom_vocab.size())
    return ::testing::AssertionFailure() << "sizes " << lists.merges.size() << "/" << lists.vocab.size() << " vs "
                                         << dom_merges.size() << "/" << dom_vocab.size();
  std::size_t i = 0;
  for (simdjson::dom::element m : dom_merges) {
    std::string_view a, b;
    if (m.is_string()) {
      std::string_view s = m.get_string();
      a = s.substr(0, s.find(' '));
      b = s.substr(s.find(' ') + 1);
    } else {
      a = m.at(0).get_string();
      b = m.at(1).get_string();
    }
    if (lists.merges[i].left != a || lists.merges[i].right != b)
      return ::testing::AssertionFailure() << "merge " << i << ": " << lists.merges[i].left << " " << lists.merges[i].right;
    ++i;
  }
  i = 0;
  for (auto field : dom_vocab) {
    if (lists.vocab[i].text != field.key) return ::testing::AssertionFailure() << "vocab entry " << i;
    ++i;
  }
  return ::testing::AssertionSuccess();
}

// A large file's merges are read by two threads, split at a line that starts an entry
// (merges_split): the lists must be the document's, in order, in every layout: pairs over several
// lines (whose second string also starts a line), strings one to a line, both forms mixed, escapes
// on either side of the split, one line (no split). What the reader reads, it must read as
// simdjson's DOM does; what it declines, the DOM reads.
TEST(BpeJson, SplitMergesReadAsTheDom) {
  std::mt19937 rng(11);
  for (Layout layout : {kPairsOverLines, kStringLines, kMixed, kOneLine, kPairsOneLine}) {
    std::string text = layout_text(layout, rng);
    ASSERT_GE(text.size(), kParallelMinBytes);
    // Trailing spaces move the split point over every kind of line of a pair (~50 bytes).
    for (int pad = 0; pad < 160; pad += 8) {
      text += std::string(8, ' ');
      BpeLists lists;
      auto rest = read_bpe_lists(text, lists);
      if (layout != kMixed)
        ASSERT_TRUE(rest.has_value()) << layout << " pad " << pad;  // mixed may decline: the DOM reads it
      if (!rest) continue;
      ASSERT_TRUE(same_as_dom(text, lists)) << layout << " pad " << pad;
      // Split where lines start entries (the tail's escaped strings are unescaped apart), not on one line.
      if (layout == kPairsOverLines || layout == kStringLines)
        EXPECT_FALSE(lists.merges_tail_unescaped.empty()) << layout;
      if (layout == kOneLine || layout == kPairsOneLine) EXPECT_TRUE(lists.merges_tail_unescaped.empty()) << layout;
      EXPECT_EQ(lists.vocab[194].text, "t97\"q\xC3\xA9");
      if (pad == 0) EXPECT_NO_THROW(Tokenizer::from_json(text, "large.json"));
    }
  }
}

// Once the helper is done with its part, it takes the back half of what this thread has left of
// the merges (the handover; made certain here by this thread waiting for it): the three parts
// must be the document's merges, in order, wherever the handover point falls; and a handover
// point past the merges (in a list of strings after them) must be dropped, not read as merges.
TEST(BpeJson, MergesHandedOverReadAsTheDom) {
  struct Waiting {
    Waiting() { wait_for_merges_handover_in_tests(true); }
    ~Waiting() { wait_for_merges_handover_in_tests(false); }
  } waiting;
  std::mt19937 rng(23);
  for (Layout layout : {kPairsOverLines, kStringLines}) {
    std::string text = layout_text(layout, rng);
    for (int pad = 0; pad < 64; pad += 8) {
      text += std::string(8, ' ');  // moves the handover point over the lines of an entry
      BpeLists lists;
      ASSERT_TRUE(read_bpe_lists(text, lists).has_value()) << layout << " pad " << pad;
      EXPECT_FALSE(lists.merges.rest.empty()) << layout << " pad " << pad;
      ASSERT_TRUE(same_as_dom(text, lists)) << layout << " pad " << pad;
      if (pad == 0) EXPECT_NO_THROW(Tokenizer::from_json(text, "large.json"));
    }
    // A list of strings one to a line after the merges (0.9 to 1.5 times their size): the
    // halfway point of what this thread has left may lie in it, past the merges. Whether it does
    // depends on the split, which follows the helper's progress; either way the lists must be
    // the merges, not entries of the list after them.
    for (int tenths : {9, 12, 15}) {
      std::string trailing = text.substr(0, text.rfind("\n    ]"));
      const std::size_t merges_size = trailing.size() - trailing.find("\"merges\"");
      trailing += "\n    ],\n    \"notes\": [";
      for (int i = 0; trailing.size() < text.size() + merges_size * tenths / 10; ++i)
        trailing += std::string(i ? "," : "") + "\n      \"n" + std::to_string(i) + " x\"";
      trailing += "\n    ]\n  }\n}\n";
      BpeLists lists;
      if (read_bpe_lists(trailing, lists).has_value()) EXPECT_TRUE(same_as_dom(trailing, lists)) << layout << " " << tenths;
    }
    // Corruptions in the part handed over, and just before it: read as the DOM reads, or refused.
    for (int round = 0; round < 30; ++round) {
      std::string bad = text;
      const std::size_t merges_at = bad.find("\"merges\"");
      std::size_t at = merges_at + (bad.size() - merges_at) * (4 + round % 4) / 8 + rng() % 2000;
      ASSERT_LT(at, bad.size());
      bad[at] = "{}[]\":, \n\\\x80"[rng() % 12];
      BpeLists corrupted;
      bool read = read_bpe_lists(bad, corrupted).has_value();
      simdjson::dom::parser parser;
      if (parser.parse(bad).error()) {
        EXPECT_FALSE(read) << layout << " round " << round;
        EXPECT_THROW(Tokenizer::from_json(bad, "bad.json"), LoadError) << layout << " round " << round;
      } else if (read) {
        EXPECT_TRUE(same_as_dom(bad, corrupted)) << layout << " round " << round;
      }
    }
  }
}

// Corrupted large files, most corruptions near the split point: what the reader reads must be
// what the DOM reads; where the DOM refuses the text, loading it fails with a LoadError.
TEST(BpeJson, CorruptedLargeFilesReadAsTheDomOrFail) {
  std::mt19937 rng(5);
  const std::string alphabet = "{}[]\":, \n\\u0a\x80\xC3";
  for (Layout layout : {kPairsOverLines, kStringLines}) {
    const std::string text = layout_text(layout, rng);
    const std::size_t merges_at = text.find("\"merges\"");
    const std::size_t split_near = merges_at + (text.size() - merges_at) * 3 / 8;
    for (int round = 0; round < 45; ++round) {
      std::string bad = text;
      for (int k = 0; k < 2; ++k) {
        // Before the split point (the helper's part), after it (this thread's), anywhere.
        std::size_t at = round % 3 == 0 ? split_near - 1 - rng() % 3000 : round % 3 == 1 ? split_near + rng() % 3000 : rng() % bad.size();
        bad[at] = alphabet[rng() % alphabet.size()];
      }
      BpeLists lists;
      bool read = read_bpe_lists(bad, lists).has_value();
      simdjson::dom::parser parser;
      if (parser.parse(bad).error()) {
        EXPECT_THROW(Tokenizer::from_json(bad, "bad.json"), LoadError) << layout << " round " << round;
      } else if (read) {
        EXPECT_TRUE(same_as_dom(bad, lists)) << layout << " round " << round;
      }
    }
  }
}

// This thread skips the vocabulary 64 bytes at a time while the helper reads it (skip_container):
// strings with brackets, quotes and runs of backslashes, at every offset within those 64 bytes
// (spaces before the vocabulary move them), must end it where reading it ends; corrupted
// vocabularies read as the DOM reads them or fail to load.
TEST(BpeJson, SkippedVocabularyEndsWhereItsReadingEnds) {
  std::mt19937 rng(17);
  const std::vector<std::string> pieces = {"}", "]", "{", "[", "\\\"", "\\\\", "\\\\\\\"", "\\\\\\\\", "\\\\\\\\\\\"", "\\u005c", "\\n", "x", "}]\\\"{["};
  std::string vocab;
  const int kTokens = 9000;
  for (int i = 0; i < kTokens; ++i) {
    std::string key = "k" + std::to_string(i);
    for (int k = rng() % 4; k > 0; --k) key += pieces[rng() % pieces.size()];
    vocab += std::string(i ? ", " : "") + "\"" + key + "\": " + std::to_string(i);
  }
  std::string merges;
  for (int i = 0; i < kTokens - 1; ++i) merges += std::string(i ? ",\n      " : "") + "[\"k" + std::to_string(i) + "\", \"k" + std::to_string(i + 1) + "\"]";
  for (int pad = 0; pad < 64; pad += 3) {
    std::string text = "{\"model\": {\"type\": \"BPE\"," + std::string(pad, ' ') + "\"vocab\": {" + vocab + "},\n  \"merges\": [\n      " + merges + "\n]}}";
    ASSERT_GE(text.size(), kParallelMinBytes);
    BpeLists lists;
    auto rest = read_bpe_lists(text, lists);
    ASSERT_TRUE(rest.has_value()) << "pad " << pad;
    ASSERT_TRUE(same_as_dom(text, lists)) << "pad " << pad;
  }
  const std::string text = "{\"model\": {\"type\": \"BPE\", \"vocab\": {" + vocab + "},\n  \"merges\": [\n      " + merges + "\n]}}";
  const std::string alphabet = "{}[]\"\\:, u";
  for (int round = 0; round < 40; ++round) {
    std::string bad = text;
    bad[40 + rng() % vocab.size()] = alphabet[rng() % alphabet.size()];
    BpeLists lists;
    bool read = read_bpe_lists(bad, lists).has_value();
    simdjson::dom::parser parser;
    if (parser.parse(bad).error()) {
      EXPECT_THROW(Tokenizer::from_json(bad, "bad.json"), LoadError) << "round " << round;
    } else if (read) {
      EXPECT_TRUE(same_as_dom(bad, lists)) << "round " << round;
    }
  }
}

// Every prefix of a valid file, and random corruptions of it, load or fail with a LoadError.
// (Text around the two members is copied as it is, so the DOM reports errors there.)
TEST(BpeJson, MalformedTextGivesLoadErrors) {
  std::string text = kTricky;
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      Tokenizer::from_json(text.substr(0, n), "cut.json");
      ADD_FAILURE() << "loaded a prefix of " << n << " bytes";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), "cut.json");
    }
  }
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\":,\\ u0a\n\x80\xC3";
  for (int i = 0; i < 3000; ++i) {
    std::string bad = text;
    for (int k = 0; k < 3; ++k) bad[rng() % bad.size()] = alphabet[rng() % alphabet.size()];
    try {
      Tokenizer::from_json(bad, "bad.json");
    } catch (const LoadError&) {
    }
  }
}

}  // namespace
}  // namespace textedge::detail
