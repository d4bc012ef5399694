// The Tokenizer's public API: loading errors, bad input, batching and thread safety.
// Exactness on real text is reference_test's job.
#include "textedge/tokenizer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "support/cjk_pairs_model.hpp"
#include "support/test_paths.hpp"

namespace textedge {
namespace {

std::string temp_file(const std::string& name, const std::string& content) {
  auto path = std::filesystem::temp_directory_path() / ("textedge_test_" + name);
  std::ofstream(path) << content;
  return path.string();
}

const char* kTinyBpe = R"({"model":{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b"]}%s})";

std::string tiny_with(const std::string& extra) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kTinyBpe, extra.c_str());
  return buf;
}

template <class F>
LoadError expect_load_error(F&& f) {
  try {
    f();
  } catch (const LoadError& e) {
    return e;
  }
  ADD_FAILURE() << "expected LoadError";
  return LoadError("", "", "");
}

TEST(TokenizerLoad, MissingFileNamesIt) {
  auto e = expect_load_error([] { Tokenizer::load("/nonexistent/dir/tokenizer.json"); });
  EXPECT_EQ(e.file(), "/nonexistent/dir/tokenizer.json");
}

TEST(TokenizerLoad, DirectoryWithoutTokenizerJson) {
  auto dir = std::filesystem::temp_directory_path() / "textedge_empty_model";
  std::filesystem::create_directories(dir);
  auto e = expect_load_error([&] { Tokenizer::load(dir.string()); });
  EXPECT_NE(std::string(e.what()).find("tokenizer.json"), std::string::npos) << e.what();
}

TEST(TokenizerLoad, MalformedJson) {
  auto path = temp_file("malformed.json", R"({"model": {"type": "BPE", )");
  auto e = expect_load_error([&] { Tokenizer::load(path); });
  EXPECT_EQ(e.file(), path);
  EXPECT_NE(std::string(e.what()).find("invalid JSON"), std::string::npos) << e.what();
}

TEST(TokenizerLoad, UnsupportedModelTypeNamesPath) {
  auto e = expect_load_error([] { Tokenizer::from_json(R"({"model":{"type":"Unigram","vocab":[]}})", "x.json"); });
  EXPECT_EQ(e.json_path(), "$.model.type");
  EXPECT_NE(std::string(e.what()).find("Unigram"), std::string::npos) << e.what();
}

TEST(TokenizerLoad, UnknownComponentNamesPath) {
  auto e = expect_load_error([] {
    Tokenizer::from_json(tiny_with(R"(,"normalizer":{"type":"Sequence","normalizers":[{"type":"NFC"},{"type":"Sparkle"}]})"), "x.json");
  });
  EXPECT_EQ(e.json_path(), "$.normalizer.normalizers[1].type");
  EXPECT_NE(std::string(e.what()).find("Sparkle"), std::string::npos) << e.what();
}

TEST(TokenizerLoad, WrongFieldTypeNamesPath) {
  auto e = expect_load_error([] { Tokenizer::from_json(R"({"model":{"type":"BPE","vocab":{"a":"zero"},"merges":[]}})", "x.json"); });
  EXPECT_EQ(e.json_path(), "$.model.vocab.a");
}

// Ids index per-id tables: a tiny file with one huge id is refused instead of allocating gigabytes
// (found by tests/fuzz/fuzz_tokenizer_load.cpp: an id near 10^9 asked for 16 GB). Ids a little
// beyond the count (gaps) still load.
TEST(TokenizerLoad, IdsFarBeyondTheTokenCountAreRefused) {
  auto e = expect_load_error(
      [] { Tokenizer::from_json(R"({"model":{"type":"BPE","vocab":{"a":0,"b":50000000},"merges":[]}})", "x.json"); });
  EXPECT_EQ(e.json_path(), "$.model.vocab");
  EXPECT_NE(std::string(e.what()).find("token id 50000000 lies too far beyond the 2 tokens"), std::string::npos)
      << e.what();
  e = expect_load_error([] {
    Tokenizer::from_json(tiny_with(R"(,"added_tokens":[{"id":50000000,"content":"<x>","special":true}])"), "x.json");
  });
  EXPECT_EQ(e.json_path(), "$.added_tokens");
  EXPECT_EQ(
      Tokenizer::from_json(tiny_with(R"(,"added_tokens":[{"id":1000,"content":"<x>","special":true}])")).vocab_size(),
      1001u);
}

// Added tokens are read from their JSON objects directly when their members have the usual
// types; anything else goes through the checked reading, which accepts what it always did (an
// integral float id, null for a default) and names the member it refuses.
TEST(TokenizerLoad, AddedTokenMembersOfEveryType) {
  Tokenizer tok = Tokenizer::from_json(tiny_with(
      R"(,"added_tokens":[{"id":10,"content":"<a>","special":true},{"id":11.0,"content":"<b>","special":null},)"
      R"({"id":12,"content":"<c>","special":true,"lstrip":null,"normalized":false}])"));
  EXPECT_EQ(tok.token_to_id("<b>"), 11u);
  EXPECT_TRUE(tok.is_special(10));
  EXPECT_FALSE(tok.is_special(11));
  EXPECT_TRUE(tok.is_special(12));
  auto e = expect_load_error([] {
    Tokenizer::from_json(tiny_with(R"(,"added_tokens":[{"id":10,"content":"<a>"},{"id":11,"content":"<b>","lstrip":"yes"}])"),
                         "x.json");
  });
  EXPECT_EQ(e.json_path(), "$.added_tokens[1].lstrip");
  e = expect_load_error([] { Tokenizer::from_json(tiny_with(R"(,"added_tokens":[{"id":-1,"content":"<a>"}])"), "x.json"); });
  EXPECT_EQ(e.json_path(), "$.added_tokens[0].id");
  e = expect_load_error([] { Tokenizer::from_json(tiny_with(R"(,"added_tokens":{"id":1})"), "x.json"); });
  EXPECT_EQ(e.json_path(), "$.added_tokens");
}

TEST(TokenizerLoad, ConfigWithIntegerBeyond64Bits) {
  // transformers writes model_max_length = 1000000000000000019884624838656.
  auto tok = Tokenizer::load(model_path("llama2"));
  auto info = tok.info();
  ASSERT_TRUE(info.bos_token.has_value());
  EXPECT_EQ(*info.bos_token, "<s>");
}

TEST(TokenizerEncode, InvalidUtf8IsRefusedWithOffset) {
  auto tok = Tokenizer::load(model_path("qwen3"));
  std::string text = "hello \xE2\x82 world";
  try {
    tok.encode(text);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.byte_offset(), 6u);
  }
  // Lossy decoding replaces the invalid sequence with U+FFFD, as Python's errors="replace".
  EXPECT_EQ(tok.encode(text, {.lossy_utf8 = true}), tok.encode("hello \xEF\xBF\xBD world"));
}

// Added tokens are found wherever they stand, whether their first bytes are one (memchr), a
// few (16 bytes compared at a time) or many (a table): random texts against a plain scan.
TEST(TokenizerEncode, AddedTokensAreFoundWhateverTheirFirstBytes) {
  const std::string chars = "abcx0123456<[{\n\t|#>]}";
  const std::vector<std::string> tokens = {"<x0>", "[x1]", "{x2}", "\nx3", "\tx4", "|x5", "#x6"};
  auto json_string = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : std::string(1, c);
    return out + "\"";
  };
  std::mt19937 rng(7);
  for (std::size_t used = 1; used <= tokens.size(); ++used) {
    std::string vocab, added;
    for (std::size_t i = 0; i < chars.size(); ++i) vocab += (i ? "," : "") + json_string(chars.substr(i, 1)) + ":" + std::to_string(i);
    for (std::size_t t = 0; t < used; ++t)
      added += std::string(t ? "," : "") + R"({"id":)" + std::to_string(100 + t) + R"(,"content":)" + json_string(tokens[t]) +
               R"(,"special":true})";
    Tokenizer tok = Tokenizer::from_json(R"({"added_tokens":[)" + added + R"(],"model":{"type":"BPE","vocab":{)" + vocab +
                                         R"(},"merges":[]}})");
    for (int round = 0; round < 200; ++round) {
      std::string text;
      for (std::size_t n = rng() % 60; n-- > 0;) text += rng() % 5 == 0 ? tokens[rng() % used] : chars.substr(rng() % chars.size(), 1);
      std::vector<TokenId> want;  // by a plain scan (characters may spell a token by chance)
      for (std::size_t at = 0; at < text.size();) {
        std::size_t t = 0;
        while (t < used && text.compare(at, tokens[t].size(), tokens[t]) != 0) ++t;
        if (t < used) {
          want.push_back(static_cast<TokenId>(100 + t));
          at += tokens[t].size();
        } else {
          want.push_back(static_cast<TokenId>(chars.find(text[at])));
          ++at;
        }
      }
      ASSERT_EQ(tok.encode(text), want) << used << " tokens, text " << text;
    }
  }
}

// A Split of a known pattern, Isolated, is run by the tokenizer itself (its pieces straight to
// the model); with a second stage the pre-tokenizer runs it. Both must give the same ids: the
// numbers pattern leaves text between its matches, the Qwen pattern matches everywhere, and the
// texts run past the finder's batches of 64 matches. The merges join letters and digits across
// the pieces' edges, so ids made from badly cut pieces differ.
TEST(TokenizerEncode, PiecesFoundByTheTokenizerAreThePreTokenizersPieces) {
  const std::string model = R"("model":{"type":"BPE","vocab":{"a":0,"b":1,"1":2,"2":3," ":4,"x":5,"ab":6,"a1":7,"12":8,"2 ":9,)"
                            R"(" a":10,"1x":11},"merges":[["a","b"],["a","1"],["1","2"],["2"," "],[" ","a"],["1","x"]]})";
  const std::string patterns[] = {R"(\\p{N}{1,3})",
                                  R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+)"};
  std::mt19937 rng(5);
  for (const std::string& pattern : patterns) {
    const std::string split = R"({"type":"Split","pattern":{"Regex":")" + pattern + R"("},"behavior":"Isolated","invert":false})";
    Tokenizer direct = Tokenizer::from_json(R"({"pre_tokenizer":)" + split + "," + model + "}");
    Tokenizer staged = Tokenizer::from_json(R"({"pre_tokenizer":{"type":"Sequence","pretokenizers":[)" + split +
                                            R"(,{"type":"Split","pattern":{"String":"\u0001"},"behavior":"Isolated","invert":false}]},)" + model + "}");
    Tokenizer whole = Tokenizer::from_json("{" + model + "}");
    bool cut = false;
    for (int round = 0; round < 300; ++round) {
      std::string text;
      for (std::size_t n = round < 200 ? rng() % 40 : 300 + rng() % 600; n-- > 0;) text += "ab12 x"[rng() % 6];
      auto ids = direct.encode(text);
      ASSERT_EQ(ids, staged.encode(text)) << pattern << "\ntext: " << text;
      cut = cut || ids != whole.encode(text);
    }
    EXPECT_TRUE(cut) << pattern << ": no text was cut differently from the whole";
  }
}

TEST(TokenizerDecode, OutOfRangeIdsAreSkippedAsTheReferenceDoes) {
  // Expected strings from Hugging Face tokenizers 0.23.2.
  auto llama2 = Tokenizer::load(model_path("llama2"));
  std::vector<TokenId> ids = {1, 99999999, 22557, 32000};
  EXPECT_EQ(llama2.decode(ids), "<s> Hello");
  EXPECT_EQ(llama2.decode(ids, {.skip_special_tokens = true}), "Hello");
  auto qwen3 = Tokenizer::load(model_path("qwen3"));
  std::vector<TokenId> q = {9707, 4294967295u, 151643, 151644, 1879};
  EXPECT_EQ(qwen3.decode(q), "Hello<|endoftext|><|im_start|> world");
  EXPECT_EQ(qwen3.decode(q, {.skip_special_tokens = true}), "Hello world");
}

// Loads run their phases on the pool's workers (base/thread_pool.hpp): loads on several threads
// at once, beside encode_batch, give the same tokenizer as one load alone.
TEST(TokenizerConcurrent, LoadsOnManyThreadsAtOnce) {
  const std::string text = "Hello naïve café 東京 🙂 return x;\n    if (a) { b(); }";
  const auto expected = Tokenizer::load(model_path("llama2")).encode(text);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 2; ++round) {
        auto tok = Tokenizer::load(model_path("llama2"));
        const std::vector<std::string> two = {text, text};
        if (tok.encode(text) != expected || tok.encode_batch(two, {}, 2)[1] != expected) ++mismatches;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// A tokenizer large enough to load on two threads: the added tokens and the decoder are read,
// and the token bytes begin, on the second thread while the first fills the merge table. What
// is loaded is the same, and errors come in the file's order, as when read one after another.
TEST(TokenizerConcurrent, LargeLoadsMakeTokenBytesBesideTheMergeTableAndKeepErrorsInFileOrder) {
  constexpr int kChars = kCjkPairChars;  // 40,000 merges
  auto ch = cjk_pair_char;
  auto tokenizer_json = [](int bad_merge, const std::string& rest) {
    return R"({"model":)" + cjk_pairs_model_json(-1, bad_merge) + rest + "}";
  };
  const std::string added = R"(,"added_tokens":[{"id":40200,"content":"<s>","special":true},)"
                            R"({"id":40201,"content":"<x>","special":false}])";
  const std::string decoder = R"(,"decoder":{"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"一"},)"
                              R"("content":"-"},{"type":"ByteFallback"},{"type":"Fuse"}]})";
  // How many of the token bytes the second thread makes while the table fills depends on timing
  // (on this machine it made some in 8 loads of 10): loaded four times.
  const std::string good = tokenizer_json(-1, added + decoder);
  for (int load = 0; load < 4; ++load) {
    Tokenizer tok = Tokenizer::from_json(good, "large.json");
    ASSERT_EQ(tok.vocab_size(), 40202u);
    for (int id : {0, 1, 199, 2047, 2048, 2049, 20000, 38152, 40199}) {
      std::string text = id < kChars ? ch(id) : ch((id - kChars) / kChars) + ch((id - kChars) % kChars);
      std::string expected = text;
      for (std::size_t p; (p = expected.find(ch(0))) != std::string::npos;) expected.replace(p, 3, "-");
      EXPECT_EQ(tok.token_bytes(id), expected) << id;
      EXPECT_EQ(tok.encode(text), std::vector<TokenId>{static_cast<TokenId>(id)}) << id;
    }
    EXPECT_EQ(tok.token_bytes(40201), "<x>");
    EXPECT_TRUE(tok.is_special(40200));
    const std::vector<TokenId> ids = {0, 40200, 40201, 40199};
    EXPECT_EQ(tok.decode(ids, {.skip_special_tokens = false}), "-<s><x>" + ch(199) + ch(199));
  }

  const std::string bad_decoder = R"(,"decoder":{"type":"Sparkle"})";
  const std::string bad_added = R"(,"added_tokens":[{"id":50000000,"content":"<y>","special":true}])";
  const std::string bad_post_processor = R"(,"post_processor":{"type":"Glitter"})";
  struct Case {
    int bad_merge;
    std::string rest, path;
  };
  for (const Case& c : {Case{-1, added + bad_decoder, "$.decoder.type"},
                        Case{-1, added + bad_post_processor + bad_decoder, "$.post_processor.type"},
                        Case{-1, bad_added + bad_decoder, "$.added_tokens"},
                        Case{30000, bad_added + bad_decoder, "$.model.merges[30000]"}}) {
    std::string text = tokenizer_json(c.bad_merge, c.rest);
    auto e = expect_load_error([&] { Tokenizer::from_json(text, "large.json"); });
    EXPECT_EQ(e.json_path(), c.path) << c.rest;
  }
}

TEST(TokenizerBatch, MatchesSequentialEncodeAndIsThreadSafe) {
  auto tok = Tokenizer::load(model_path("qwen3"));
  std::vector<std::string> texts;
  for (int i = 0; i < 200; ++i)
    texts.push_back("Sample " + std::to_string(i) + ": naïve café 東京 🙂 <|im_start|>x" + std::string(i % 17, ' ') + "end");
  auto batch = tok.encode_batch(texts, {}, 4);
  ASSERT_EQ(batch.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(batch[i], tok.encode(texts[i])) << i;
  // Many threads, one shared tokenizer.
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (std::size_t i = 0; i < texts.size(); ++i)
        if (tok.encode(texts[i]) != batch[i]) ++mismatches;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  // Many callers sharing the worker pool at once, each with its own batch.
  threads.clear();
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        if (tok.encode_batch(texts, {}, 1 + (t + round) % 3) != batch) ++mismatches;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(TokenizerBytes, TokenBytesOfByteLevelAndSentencePiece) {
  auto qwen3 = Tokenizer::load(model_path("qwen3"));
  auto hello = qwen3.encode(" Hello");
  ASSERT_EQ(hello.size(), 1u);
  EXPECT_EQ(qwen3.token_bytes(hello[0]), " Hello");
  EXPECT_EQ(qwen3.token_bytes(*qwen3.token_to_id("<|im_start|>")), "");  // special
  auto llama2 = Tokenizer::load(model_path("llama2"));
  EXPECT_EQ(llama2.token_bytes(22557), " Hello");                  // "▁Hello"
  EXPECT_EQ(llama2.token_bytes(*llama2.token_to_id("<0x0A>")), "\n");  // byte fallback
  EXPECT_EQ(llama2.token_bytes(1), "");                             // <s>
  EXPECT_EQ(llama2.vocab_bytes().size(), llama2.vocab_size());
}

// A token as SentencePiece's decoder chain (Replace, ByteFallback, Fuse) maps it alone: every
// occurrence of `from` replaced, left to right, and "<0xNN>" the byte.
static std::string replaced_token(const std::string& token, std::string_view from, std::string_view to) {
  std::string out;
  for (std::size_t i = 0; i < token.size();) {
    if (token.compare(i, from.size(), from) == 0) {
      out += to;
      i += from.size();
    } else {
      out += token[i++];
    }
  }
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  if (out.size() == 6 && out.starts_with("<0x") && out[5] == '>' && hex(out[3]) && hex(out[4]))
    return std::string(1, static_cast<char>(std::stoi(out.substr(3, 2), nullptr, 16)));
  return out;
}

// The loader maps most such tokens without the chain's loops (ReplaceThenByte::map_short in
// tokenizer.cpp): every token of two real vocabularies, and made-up tokens with the replaced
// string anywhere, any number of times, at every length up to 30 bytes, replaced by a longer
// non-ASCII one.
TEST(TokenizerBytes, ReplaceChainTokensAsTheChainMapsThem) {
  for (const char* model : {"llama2", "gemma3"}) {
    auto tok = Tokenizer::load(model_path(model));
    std::size_t checked = 0;
    for (TokenId id = 0; id < tok.vocab_size(); ++id) {
      auto token = tok.id_to_token(id);
      if (!token || tok.is_special(id)) continue;
      ASSERT_EQ(tok.token_bytes(id), replaced_token(*token, "\u2581", " ")) << model << " id " << id;
      ++checked;
    }
    EXPECT_GT(checked, 30000u) << model;
  }

  const std::vector<std::string> pieces = {"\xE4\xB8\x80", "a", "\xC3\xA9", "xyz"};  // 一, a, é, xyz
  std::mt19937 random(7);
  std::vector<std::string> tokens;
  std::string vocab;
  for (int i = 0; tokens.size() < 3000 && i < 100000; ++i) {
    std::string token;
    for (std::size_t n = random() % 12; n > 0; --n) token += pieces[random() % pieces.size()];
    if (token.empty() || token.size() > 30 || std::find(tokens.begin(), tokens.end(), token) != tokens.end()) continue;
    vocab += (tokens.empty() ? "\"" : ",\"") + token + "\":" + std::to_string(tokens.size());
    tokens.push_back(token);
  }
  const std::string decoder = R"({"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"一"},"content":"é"},)"
                              R"({"type":"ByteFallback"},{"type":"Fuse"}]})";
  Tokenizer tok = Tokenizer::from_json(R"({"model":{"type":"BPE","vocab":{)" + vocab + R"(},"merges":[]},"decoder":)" + decoder + "}",
                                       "made_up.json");
  for (std::size_t id = 0; id < tokens.size(); ++id)
    ASSERT_EQ(tok.token_bytes(static_cast<TokenId>(id)), replaced_token(tokens[id], "\xE4\xB8\x80", "\xC3\xA9")) << tokens[id];
}

TEST(TokenizerBatch, InvalidTextInABatchThrowsAndThePoolStaysUsable) {
  auto tok = Tokenizer::load(model_path("qwen3"));
  std::vector<std::string> texts(64, "fine text");
  texts[40] = "bad \xff byte";
  EXPECT_THROW(tok.encode_batch(texts, {}, 2), InputError);
  texts[40] = "fine text";
  auto batch = tok.encode_batch(texts, {}, 2);
  EXPECT_EQ(batch[63], tok.encode("fine text"));
}

}  // namespace
}  // namespace textedge
