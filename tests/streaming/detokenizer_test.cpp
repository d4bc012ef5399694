// Streaming decode against the reference. The contract
// (include/textedge/detokenizer.hpp): for every prefix of the generated ids and
// every grouping into steps, the text streamed plus finish() equals
// decode(prompt + prefix) without the prompt's certain text in front, and
// nothing streamed is ever taken back. Goldens:
// BUILD/goldens/MODEL.stream.jsonl, written by
// tools/reference/stream_goldens.js from Hugging Face tokenizers
// (scripts/goldens.sh).
#include "textedge/detokenizer.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>

#include "support/reference_util.hpp"
#include "support/test_paths.hpp"

namespace textedge {
namespace {

const std::vector<std::string> kModels = {"qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"};

const Tokenizer &tokenizer_of(const std::string &model) {
  static std::map<std::string, Tokenizer> cache;
  auto it = cache.find(model);
  if (it == cache.end()) it = cache.emplace(model, Tokenizer::load(model_path(model))).first;
  return it->second;
}

std::string escaped(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\')
      out += static_cast<char>(c);
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

struct StreamCase {
  std::string cat;
  std::vector<TokenId> prompt, ids;
  std::vector<std::size_t> cuts;
  std::string prompt_decode[2];
  std::vector<std::array<std::string, 2>> decode;  // per cut
};

std::vector<StreamCase> load_stream_goldens(const std::string &model) {
  std::string path = reference::goldens_dir() + "/" + model + ".stream.jsonl";
  std::vector<StreamCase> cases;
  StreamCase c;
  bool is_case = false;
  auto field = [&](std::string_view key, simdjson::ondemand::value v, const std::string &where) {
    if (key == "cat") {
      c.cat = reference::detail::get_string(v, where);
      is_case = true;
    } else if (key == "prompt") {
      c.prompt = reference::detail::get_ids(v, where);
    } else if (key == "ids") {
      c.ids = reference::detail::get_ids(v, where);
    } else if (key == "cuts") {
      for (TokenId k : reference::detail::get_ids(v, where)) c.cuts.push_back(k);
    } else if (key == "prompt_decode") {
      reference::detail::get_pair(v, c.prompt_decode, where);
    } else if (key == "decode") {
      simdjson::ondemand::array arr;
      reference::detail::check(v.get_array().get(arr), where);
      for (auto pair : arr) {
        std::string both[2];
        reference::detail::get_pair(pair.value(), both, where);
        c.decode.push_back({both[0], both[1]});
      }
    }
  };
  reference::read_goldens(path, field, [&](std::size_t) {
    bool was_case = is_case;
    if (was_case) cases.push_back(std::move(c));
    c = StreamCase();
    is_case = false;
    return was_case;
  });
  return cases;
}

// Runs one stream over `ids` in random steps that also stop at every cut, and
// checks each cut. Returns the number of mismatches (the first few are
// reported).
int check_case(const Tokenizer &tok, const StreamCase &c, bool skip, std::mt19937 &rng, int &reported) {
  DetokenizeOptions options{.skip_special_tokens = skip};
  // The prompt's certain text: what a stream without a prompt emits for it
  // before finish().
  Detokenizer whole(tok, {}, options);
  std::string certain = whole.step(c.prompt);
  int mismatches = 0;
  auto report = [&](const std::string &what, std::size_t k, const std::string &got, const std::string &want) {
    ++mismatches;
    if (reported++ < 8)
      ADD_FAILURE() << c.cat << " skip=" << skip << " prompt=" << c.prompt.size() << " ids=" << c.ids.size()
                    << " cut=" << k << ": " << what << "\n  got:  " << escaped(got) << "\n  want: " << escaped(want);
  };
  if (c.prompt_decode[skip].compare(0, certain.size(), certain) != 0)
    report("the prompt's streamed text is not a prefix of its decode", 0, certain, c.prompt_decode[skip]);

  Detokenizer stream(tok, c.prompt, options);
  std::string emitted;
  std::size_t pos = 0, next_cut = 0;
  const std::string &full = c.decode.back()[skip];  // the last cut is the whole sequence
  while (true) {
    while (next_cut < c.cuts.size() && c.cuts[next_cut] == pos) {
      Detokenizer branch = stream;
      std::string text = certain + emitted + branch.finish();
      if (text != c.decode[next_cut][skip])
        report("streamed + finish() != decode", pos, text, c.decode[next_cut][skip]);
      ++next_cut;
    }
    if (full.compare(0, certain.size() + emitted.size(), certain + emitted) != 0)
      report("streamed text is not a prefix of the final decode", pos, certain + emitted, full);
    if (pos == c.ids.size()) break;
    std::size_t limit = next_cut < c.cuts.size() ? c.cuts[next_cut] : c.ids.size();
    std::size_t n = std::min<std::size_t>(limit - pos, 1 + rng() % 4);
    stream.step(std::span(c.ids).subspan(pos, n), emitted);
    pos += n;
  }
  return mismatches;
}

class DetokenizerReference : public ::testing::TestWithParam<std::string> {};

TEST_P(DetokenizerReference, StreamsExactlyWhatDecodeGivesForEveryPrefixAndGrouping) {
  const Tokenizer &tok = tokenizer_of(GetParam());
  auto cases = load_stream_goldens(GetParam());
  ASSERT_GT(cases.size(), 100u);
  std::mt19937 rng(42);
  int mismatches = 0, reported = 0, checked = 0;
  for (const auto &c : cases)
    for (bool skip : {false, true})
      for (int grouping = 0; grouping < 3; ++grouping) {
        mismatches += check_case(tok, c, skip, rng, reported);
        ++checked;
      }
  EXPECT_EQ(mismatches, 0) << "in " << checked << " streams";
}

INSTANTIATE_TEST_SUITE_P(Models, DetokenizerReference, ::testing::ValuesIn(kModels),
                         [](const auto &info) { return info.param; });

// Many more random streams than the goldens hold, checked against textedge's
// own decode (which reference_test checks against the reference).
TEST(Detokenizer, RandomStreamsMatchDecodeOnEveryModel) {
  for (const auto &model : kModels) {
    const Tokenizer &tok = tokenizer_of(model);
    std::mt19937 rng(7);
    std::vector<TokenId> bytes;  // ids of single-byte tokens, to cut characters often
    for (TokenId id = 0; id < tok.vocab_size(); ++id)
      if (tok.token_bytes(id).size() == 1) bytes.push_back(id);
    int mismatches = 0;
    for (int round = 0; round < 300; ++round) {
      std::vector<TokenId> ids(1 + rng() % 60);
      for (auto &id : ids) {
        unsigned r = rng() % 10;
        id = r < 5 ? bytes[rng() % bytes.size()] : r < 9 ? rng() % tok.vocab_size() : tok.vocab_size() + rng() % 5;
      }
      std::size_t split = rng() % (ids.size() + 1);
      std::span<const TokenId> prompt(ids.data(), split), generated(ids.data() + split, ids.size() - split);
      for (bool skip : {false, true}) {
        DetokenizeOptions options{.skip_special_tokens = skip};
        std::string certain = Detokenizer(tok, {}, options).step(prompt);
        Detokenizer stream(tok, prompt, options);
        std::string text = certain;
        for (std::size_t pos = 0; pos < generated.size();) {
          std::size_t n = std::min<std::size_t>(generated.size() - pos, 1 + rng() % 3);
          stream.step(generated.subspan(pos, n), text);
          pos += n;
        }
        text += stream.finish();
        std::string want = tok.decode(ids, {.skip_special_tokens = skip});
        if (text != want && mismatches++ < 5)
          ADD_FAILURE() << model << " skip=" << skip << " split=" << split << "\n  got:  " << escaped(text)
                        << "\n  want: " << escaped(want);
      }
    }
    EXPECT_EQ(mismatches, 0) << model;
  }
}

// Deltas never carry half a character: every delta of real text is valid UTF-8
// and has no U+FFFD, however the ids are grouped, on byte-level and
// byte-fallback tokenizers alike.
TEST(Detokenizer, HardCharactersArriveWholeByteByByte) {
  const std::vector<std::string> texts = {"The astronaut 👩🏽‍🚀 waved", "𝔗𝔥𝔢 𝔮𝔲𝔦𝔠𝔨 𝕯𝖔𝖚𝖇𝖑𝖊", "မြန်မာဘာသာစကား",
                                          "URGENCY🌶️ now", "日本語 한국어"};
  for (const auto &model : kModels) {
    const Tokenizer &tok = tokenizer_of(model);
    for (const auto &text : texts) {
      auto ids = tok.encode(text);
      Detokenizer stream(tok);
      std::string all;
      for (TokenId id : ids) {
        std::string delta = stream.step(std::span(&id, 1));
        EXPECT_EQ(delta.find("\xEF\xBF\xBD"), std::string::npos) << model << ": " << text;
        all += delta;
      }
      all += stream.finish();
      EXPECT_EQ(all, tok.decode(ids)) << model;
    }
  }
}

TEST(Detokenizer, ByteFallbackRunIsReleasedWhenANonByteTokenFollows) {
  const Tokenizer &llama2 = tokenizer_of("llama2");
  auto byte = [&](int b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    return *llama2.token_to_id(name);
  };
  Detokenizer stream(llama2, std::vector<TokenId>{1, 22557});  // "<s> Hello"
  std::string out;
  stream.step(std::vector<TokenId>{byte(0xF0), byte(0x9F), byte(0x8C), byte(0xB6)}, out);
  EXPECT_EQ(out,
            "");  // a later invalid byte would turn the whole run into U+FFFD
  stream.step(std::vector<TokenId>{byte(0xFF)}, out);
  // ... as it did: five U+FFFD.
  EXPECT_EQ(out, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  stream.step(std::vector<TokenId>{byte(0xF0), byte(0x9F)},
              out);  // the run goes on: still invalid
  EXPECT_EQ(out.size(), 7 * 3u);
  out.clear();
  stream.step(std::vector<TokenId>{22557, byte(0xF0), byte(0x9F), byte(0x8C), byte(0xB6), 22557}, out);
  EXPECT_EQ(out, " Hello🌶 Hello");
}

// eager_byte_runs (tokenizers' DecodeStream): each character of a byte run as soon as it is
// complete; a later invalid byte replaces only itself.
TEST(Detokenizer, EagerByteRunsReleaseEachCompleteCharacter) {
  const Tokenizer &llama2 = tokenizer_of("llama2");
  auto byte = [&](int b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    return *llama2.token_to_id(name);
  };
  Detokenizer stream(llama2, std::vector<TokenId>{1, 22557}, {.skip_special_tokens = false, .keep_special_tokens = {},
                                                            .eager_byte_runs = true});
  std::string out;
  stream.step(std::vector<TokenId>{byte(0xF0), byte(0x9F), byte(0x8C)}, out);
  EXPECT_EQ(out, "");  // incomplete
  stream.step(byte(0xB6), out);
  EXPECT_EQ(out, "🌶");
  stream.step(std::vector<TokenId>{byte(0x41), byte(0xFF), byte(0x42)}, out);
  EXPECT_EQ(out, "🌶A\xEF\xBF\xBD" "B");
  stream.step(std::vector<TokenId>{byte(0xE2), 22557}, out);  // a run ending inside a character
  EXPECT_EQ(out, "🌶A\xEF\xBF\xBD" "B\xEF\xBF\xBD Hello");
  // Where the whole run is valid, the text is decode's, whatever the steps.
  for (const std::string &text : {std::string("naïve 日本 🎉 👩🏽‍🚀 x"), std::string("ä")}) {
    std::vector<TokenId> ids = llama2.encode(text);
    Detokenizer eager(llama2, {}, {.skip_special_tokens = false, .keep_special_tokens = {}, .eager_byte_runs = true});
    std::string got;
    for (TokenId id : ids) {
      eager.step(id, got);
      EXPECT_TRUE(llama2.decode(ids).starts_with(got)) << got;
    }
    EXPECT_EQ(got + eager.finish(), llama2.decode(ids));
  }
}

// A prompt held in its own pages, all unreadable (PROT_NONE) but the first and the last: reading
// any other id kills the process.
class PromptWithUnreadableMiddle {
 public:
  PromptWithUnreadableMiddle(std::size_t pages, TokenId first, TokenId rest) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    bytes_ = pages * page;
    void *memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::runtime_error("mmap failed");
    ids_ = {static_cast<TokenId *>(memory), bytes_ / sizeof(TokenId)};
    std::fill(ids_.begin(), ids_.end(), rest);
    ids_[0] = first;
    if (mprotect(static_cast<char *>(memory) + page, bytes_ - 2 * page, PROT_NONE) != 0)
      throw std::runtime_error("mprotect failed");
    ids_per_page_ = page / sizeof(TokenId);
  }
  ~PromptWithUnreadableMiddle() { munmap(ids_.data(), bytes_); }
  std::span<const TokenId> ids() const { return ids_; }
  std::size_t readable_ids() const { return 2 * ids_per_page_; }

 private:
  std::span<TokenId> ids_;
  std::size_t bytes_ = 0, ids_per_page_ = 0;
};

// Priming costs the ends of the prompt, not its length: of a prompt of 1M ids only the first and
// last pages are readable, and priming must not touch the others (it would die of SIGSEGV).
TEST(Detokenizer, PrimingReadsOnlyTheEndsOfALongPrompt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Tokenizer &tok = tokenizer_of("llama2");
  PromptWithUnreadableMiddle prompt(1024, 1, 22557);  // "<s>" then " Hello" x ~1M
  ASSERT_GT(prompt.ids().size(), 1'000'000u);
  ASSERT_LE(prompt.readable_ids(), prompt.ids().size() / 256);
  EXPECT_EXIT(
      {
        Detokenizer stream(tok, prompt.ids());
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "")
      << "priming read ids in the middle of the prompt";
  if (HasFailure()) return;
  std::vector<TokenId> generated = {*tok.token_to_id("▁"), *tok.token_to_id("<0x0A>"), 22557};
  Detokenizer stream(tok, prompt.ids());
  std::string text = stream.step(generated) + stream.finish();
  EXPECT_EQ(text, " \n Hello");
}

TEST(Detokenizer, KeepsTheSpecialTokensAParserNeeds) {
  const Tokenizer &tok = tokenizer_of("qwen3");
  TokenId think = *tok.token_to_id("<think>"), im_end = *tok.token_to_id("<|im_end|>");
  ASSERT_TRUE(tok.is_special(im_end));
  auto ids = tok.encode("<think>\nhmm</think>\n\nHi<|im_end|>");
  DetokenizeOptions options{.skip_special_tokens = true, .keep_special_tokens = {im_end}};
  Detokenizer stream(tok, {}, options);
  std::string text = stream.step(ids) + stream.finish();
  EXPECT_EQ(text, "<think>\nhmm</think>\n\nHi<|im_end|>");  // <think> is not special in Qwen3
  EXPECT_FALSE(tok.is_special(think));
  Detokenizer skipping(tok, {}, {.skip_special_tokens = true});
  EXPECT_EQ(skipping.step(ids) + skipping.finish(), "<think>\nhmm</think>\n\nHi");
}

TEST(Detokenizer, FinishLeavesAStreamThatContinuesTheText) {
  const Tokenizer &tok = tokenizer_of("qwen3");
  auto ids = tok.encode("naïve 🙂 text");
  Detokenizer stream(tok);
  std::string a = stream.step(std::span(ids).first(3)) + stream.finish();
  std::string b = stream.step(std::span(ids).subspan(3)) + stream.finish();
  EXPECT_EQ(a + b, tok.decode(std::span(ids).first(3)) + tok.decode(std::span(ids).subspan(3)));
}

// A special token's content goes through the ByteLevel decoder as any token's does, so it may be
// bytes that are not UTF-8 on their own ("¶" is the byte 0xB6, "Ã" the lead byte 0xC3): decode
// repairs them in the whole text, and so must the stream (found by fuzz_tokenizer_load: a
// special token "<|begin_o¶f_text|>" streamed its raw 0xB6).
TEST(Detokenizer, SpecialTokensWhoseBytesAreNotWholeCharacters) {
  std::string json = R"({"model": {"type": "BPE", "merges": [], "vocab": {"a": 0, "Ã": 1, "©": 2, "¶": 3}},
    "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
    "decoder": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
    "added_tokens": [
      {"id": 4, "content": "<¶>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
      {"id": 5, "content": "xÃ", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
      {"id": 6, "content": "©y", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}]})";
  auto tok = Tokenizer::from_json(json, "special_bytes.json");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{4}), "<\xEF\xBF\xBD>");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{5, 2}), "x\xC3\xA9");
  std::mt19937 rng(5);
  for (int round = 0; round < 2000; ++round) {
    std::vector<TokenId> ids(1 + rng() % 6);
    for (TokenId& id : ids) id = static_cast<TokenId>(rng() % 7);
    Detokenizer stream(tok);
    std::string streamed;
    for (TokenId id : ids) streamed += stream.step(std::span(&id, 1));
    streamed += stream.finish();
    ASSERT_EQ(streamed, tok.decode(ids)) << ::testing::PrintToString(ids);
  }
}

// A byte-fallback token ("<0xC3>") declared special: the reference's ByteFallback reads it as the
// byte it names, in the same run as the byte tokens beside it. Expected texts from Hugging Face
// tokenizers 0.23.2 (tools/reference's Node binding, decode without skipping special tokens).
// Before, decode and the stream both put out its raw byte 0xC3.
TEST(Detokenizer, SpecialByteFallbackTokensAreBytes) {
  std::string json = R"({"model": {"type": "BPE", "byte_fallback": true, "merges": [],
      "vocab": {"<s>": 0, "▁": 1, "a": 2, "b": 3, "<0x20>": 4, "<0xC3>": 5, "<0xA9>": 6}},
    "added_tokens": [{"id": 5, "content": "<0xC3>", "single_word": false, "lstrip": false, "rstrip": false,
                      "normalized": false, "special": true}],
    "decoder": {"type": "Sequence", "decoders": [
      {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"},
      {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}})";
  auto tok = Tokenizer::from_json(json, "special_byte.json");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{2, 5, 6}), "a\xC3\xA9");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{5}), "\xEF\xBF\xBD");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{2, 5, 2}), "a\xEF\xBF\xBD" "a");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{5, 6, 5}), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(tok.decode(std::vector<TokenId>{2, 5, 6}, {.skip_special_tokens = true}), "a\xEF\xBF\xBD");
  std::mt19937 rng(9);
  for (int round = 0; round < 2000; ++round) {
    std::vector<TokenId> ids(1 + rng() % 6);
    for (TokenId& id : ids) id = static_cast<TokenId>(rng() % 7);
    for (bool skip : {false, true}) {
      Detokenizer stream(tok, {}, {.skip_special_tokens = skip});
      std::string streamed;
      for (TokenId id : ids) streamed += stream.step(std::span(&id, 1));
      streamed += stream.finish();
      ASSERT_EQ(streamed, tok.decode(ids, {.skip_special_tokens = skip})) << ::testing::PrintToString(ids) << skip;
    }
  }
}

// No real model strips more than one leading space or any trailing one; this
// chain does both, so priming must read the start of the prompt and streams
// must hold trailing spaces.
TEST(Detokenizer, StripAtBothEndsOfTheText) {
  for (std::string stop : {"0", "1"}) {
    std::string json =
        R"({"model": {"type": "BPE", "byte_fallback": true, "merges": [],
      "vocab": {"<s>": 0, "▁": 1, "a": 2, "b": 3, "<0x20>": 4, "<0xC3>": 5, "<0xA9>": 6, "▁▁": 7}},
    "added_tokens": [{"id": 0, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false,
                      "normalized": false, "special": true}],
    "decoder": {"type": "Sequence", "decoders": [
      {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"},
      {"type": "Strip", "content": " ", "start": 2, "stop": )" +
        stop + "}]}}";
    auto tok = Tokenizer::from_json(json, "strip.json");
    std::mt19937 rng(3);
    int mismatches = 0;
    for (int round = 0; round < 3000; ++round) {
      std::vector<TokenId> ids(rng() % 12);
      for (auto &id : ids) id = rng() % 8;
      std::size_t split = rng() % (ids.size() + 1);
      std::span<const TokenId> prompt(ids.data(), split), generated(ids.data() + split, ids.size() - split);
      for (bool skip : {false, true}) {
        DetokenizeOptions options{.skip_special_tokens = skip};
        std::string certain = Detokenizer(tok, {}, options).step(prompt);
        Detokenizer stream(tok, prompt, options);
        std::string text = certain;
        for (TokenId id : generated) stream.step(id, text);
        text += stream.finish();
        std::string want = tok.decode(ids, {.skip_special_tokens = skip});
        if (text != want && mismatches++ < 5)
          ADD_FAILURE() << "stop=" << stop << " split=" << split << " got " << escaped(text) << " want "
                        << escaped(want);
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

// Metaspace drops every replacement character of the first token (prepend_scheme first or
// always), so priming must find the prompt's first contributing token.
TEST(Detokenizer, MetaspaceFirstTokenRule) {
  for (std::string scheme : {"always", "never"}) {
    std::string json = R"({"model": {"type": "BPE", "vocab": {"a": 0, "▁": 1, "▁a": 2, "b▁▁": 3, "<s>": 4}, "merges": []},
      "added_tokens": [{"id": 4, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false,
                        "normalized": false, "special": true}],
      "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": ")" +
                       scheme + R"(", "split": true}})";
    auto tok = Tokenizer::from_json(json, "metaspace.json");
    std::mt19937 rng(5);
    int mismatches = 0;
    for (int round = 0; round < 2000; ++round) {
      std::vector<TokenId> ids(rng() % 8);
      for (auto& id : ids) id = rng() % 6;  // 5 is out of range
      std::size_t split = rng() % (ids.size() + 1);
      std::span<const TokenId> prompt(ids.data(), split), generated(ids.data() + split, ids.size() - split);
      for (bool skip : {false, true}) {
        DetokenizeOptions options{.skip_special_tokens = skip};
        std::string certain = Detokenizer(tok, {}, options).step(prompt);
        Detokenizer stream(tok, prompt, options);
        std::string text = certain + stream.step(generated) + stream.finish();
        std::string want = tok.decode(ids, {.skip_special_tokens = skip});
        if (text != want && mismatches++ < 5)
          ADD_FAILURE() << scheme << " split=" << split << " got " << escaped(text) << " want " << escaped(want);
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(Detokenizer, UnsupportedDecoderIsAClearError) {
  std::string json = R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []},
    "decoder": {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": true}})";
  auto tok = Tokenizer::from_json(json, "ctc.json");
  try {
    Detokenizer stream(tok);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ctc.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CTC"), std::string::npos) << e.what();
  }
}

TEST(LogprobToken, BytesAndTextOfWholeAndPartialTokens) {
  const Tokenizer &qwen3 = tokenizer_of("qwen3");
  auto hello = qwen3.encode(" Hello");
  auto t = logprob_token(qwen3, hello[0]);
  EXPECT_EQ(t.token, " Hello");
  EXPECT_EQ(t.bytes, (std::vector<std::uint8_t>{' ', 'H', 'e', 'l', 'l', 'o'}));
  // Tokens that end inside a character: Qwen3 spells U+1D517 (Fraktur T, 4 bytes) as two tokens
  // (the reference encodes it as [124026, 245]), so neither is a whole character and each byte
  // shows as \xNN.
  const std::string fraktur_t = "\xF0\x9D\x94\x97";
  auto parts = qwen3.encode(fraktur_t);
  ASSERT_GE(parts.size(), 2u) << "the character must span tokens, or this checks nothing";
  EXPECT_EQ(parts, (std::vector<TokenId>{124026, 245}));
  std::vector<std::uint8_t> all_bytes;
  for (TokenId id : parts) {
    auto part = logprob_token(qwen3, id);
    ASSERT_LT(part.bytes.size(), 4u);
    std::string escaped_bytes;
    for (std::uint8_t b : part.bytes) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      escaped_bytes += hex;
    }
    EXPECT_EQ(part.token, escaped_bytes) << "token " << id;
    all_bytes.insert(all_bytes.end(), part.bytes.begin(), part.bytes.end());
  }
  EXPECT_EQ(all_bytes, std::vector<std::uint8_t>(fraktur_t.begin(), fraktur_t.end()));
  auto special = logprob_token(qwen3, *qwen3.token_to_id("<|im_end|>"));
  EXPECT_EQ(special.token, "<|im_end|>");
  const Tokenizer &llama2 = tokenizer_of("llama2");
  auto nl = logprob_token(llama2, *llama2.token_to_id("<0x0A>"));
  EXPECT_EQ(nl.token, "\n");
  auto ff = logprob_token(llama2, *llama2.token_to_id("<0xFF>"));
  EXPECT_EQ(ff.token, "\\xff");
  EXPECT_EQ(ff.bytes, std::vector<std::uint8_t>{0xFF});
}

}  // namespace
}  // namespace textedge
