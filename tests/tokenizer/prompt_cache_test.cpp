// PromptCache: encode_cached always gives encode's ids, on all six models, across random edits
// at random positions of texts full of added tokens, whitespace and many scripts; and it does
// reuse ids where the rules allow (a cache that never reused would pass the first check).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "support/reference_util.hpp"
#include "support/test_paths.hpp"
#include "textedge/tokenizer.hpp"

using namespace textedge;

namespace {

const char* const kModels[] = {"qwen3", "llama3_1", "deepseek_v3", "gemma3", "gptoss", "llama2"};

// Text the edits are made of: whitespace runs and lines of the corpus (many scripts, emoji,
// combining marks, code) when the goldens are there; the model's added tokens are added_for's.
std::vector<std::string> pieces_for() {
  std::vector<std::string> pieces = {" ", "  ", "\n", "\n\n", "\t", " \n ", "\r\n", "hello", " world", "a", "ab",
                                     "é", "e\u0301", "\u0301", "中文", "ภาษาไทย", "👋🏽", "🧑‍🤝‍🧑", "x = f(y);\n",
                                     "  return 0;", "[INST]", " [/INST]", "<", ">", "|", "<|", "|>", "'s", "123456"};
  for (const char* name : {"mixed.jsonl", "emoji.jsonl", "cjk.jsonl", "combining.jsonl", "code_python.jsonl",
                           "man_ru.jsonl", "scripts_misc.jsonl", "edge.jsonl", "special_tokens.jsonl"}) {
    std::string path = reference::corpus_dir() + "/" + name;
    if (!std::filesystem::exists(path)) continue;
    std::size_t taken = 0;
    reference::for_each_json_line(path, [&](std::size_t, simdjson::ondemand::document& doc) {
      std::string_view s;
      if (taken < 40 && !doc.get_string().get(s)) {
        pieces.emplace_back(s);
        ++taken;
      }
    });
  }
  return pieces;
}

std::vector<std::string> added_for(const Tokenizer& tok) {
  std::vector<std::string> all, out;
  for (const SpecialToken& t : tok.info().added_tokens) all.push_back(t.content);
  // The tokens that chat prompts are made of come first in every list; take a spread of the rest.
  for (std::size_t i = 0; i < all.size(); i += 1 + all.size() / 64) out.push_back(all[i]);
  return out;
}

// A byte offset at a character boundary (the edits keep the text valid UTF-8).
std::size_t char_boundary(const std::string& s, std::size_t at) {
  while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return at;
}

struct Counts {
  std::size_t encodes = 0, reused = 0;
};

void check_random_edits(const Tokenizer& tok, const std::string& name, std::uint32_t seed, Counts& counts) {
  static const std::vector<std::string> pieces = pieces_for();
  std::vector<std::string> added = added_for(tok);
  std::mt19937 rng(seed);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  // One piece in four an added token: prompts are full of them, and the cache's rules are about them.
  auto piece = [&]() -> const std::string& {
    return pick(4) == 0 ? added[pick(added.size())] : pieces[pick(pieces.size())];
  };
  for (int conversation = 0; conversation < 60; ++conversation) {
    EncodeOptions options;
    options.add_special_tokens = conversation % 2 == 0;
    std::string text;
    for (std::size_t n = 5 + pick(60); n-- > 0;) text += piece();
    PromptCache cache;
    for (int edit = 0; edit < 12; ++edit) {
      std::vector<TokenId> cached = tok.encode_cached(text, cache, options);
      ASSERT_EQ(cached, tok.encode(text, options)) << name << " seed " << seed << " conversation " << conversation
                                                   << " edit " << edit << " text: " << text;
      ++counts.encodes;
      if (cache.reused_bytes() > 0) ++counts.reused;
      std::size_t at = char_boundary(text, pick(text.size() + 1));
      switch (pick(5)) {
        case 0:
        case 1:  // the conversation grows
          for (std::size_t n = 1 + pick(6); n-- > 0;) text += piece();
          break;
        case 2:  // an insertion anywhere
          text.insert(at, piece());
          break;
        case 3: {  // a deletion
          std::size_t end = char_boundary(text, std::min(text.size(), at + pick(40)));
          text.erase(at, end - at);
          break;
        }
        default: {  // a replacement: the cut often falls inside or beside an added token
          std::size_t end = char_boundary(text, std::min(text.size(), at + pick(12)));
          text.replace(at, end - at, piece());
        }
      }
    }
  }
}

}  // namespace

TEST(PromptCache, RandomEditsGiveTheIdsOfAFullEncodeOnAllSixModels) {
  for (const char* name : kModels) {
    Tokenizer tok = Tokenizer::load(model_path(name));
    Counts counts;
    for (std::uint32_t seed = 1; seed <= 3; ++seed) check_random_edits(tok, name, seed, counts);
    // Most edits keep an earlier added token far enough before them.
    EXPECT_GT(counts.reused * 2, counts.encodes) << name << ": the cache reused ids in " << counts.reused << " of "
                                                 << counts.encodes << " encodes";
  }
}

// Added tokens with lstrip, rstrip and single_word (none of the six models has them): the
// whitespace they absorb and the word check past their end are read past the match.
TEST(PromptCache, AddedTokensThatReadPastTheirMatch) {
  std::string json;
  {
    std::ifstream in(model_path("qwen3") + "/tokenizer.json", std::ios::binary);
    json.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto set_flags = [&](const std::string& content, const char* flags) {
    std::string key = "\"content\": \"" + content + "\"";
    std::size_t at = json.find(key);
    ASSERT_NE(at, std::string::npos) << content;
    std::size_t end = json.find('}', at);
    std::string entry = json.substr(at, end - at);
    for (const char* flag : {"single_word", "lstrip", "rstrip"}) {
      std::string off = std::string("\"") + flag + "\": false";
      std::size_t f = entry.find(off);
      ASSERT_NE(f, std::string::npos) << content << " " << flag;
      if (std::string_view(flags).find(flag) != std::string_view::npos)
        entry.replace(f, off.size(), std::string("\"") + flag + "\": true");
    }
    json.replace(at, end - at, entry);
  };
  set_flags("<|im_start|>", "rstrip");
  set_flags("<|im_end|>", "lstrip rstrip");
  set_flags("<tool_call>", "single_word");
  set_flags("</tool_call>", "single_word rstrip");
  Tokenizer tok = Tokenizer::from_json(json, "qwen3 with lstrip/rstrip/single_word");

  // The ends these tokens read past, cut and changed where it matters.
  PromptCache cache;
  std::vector<std::string> texts = {
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>   ",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>    x",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>\u3000\u00a0x<|im_end|> y",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>\u3000\u00a0x<|im_end|>  <tool_call>",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>\u3000\u00a0x<|im_end|>  <tool_call>a",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>\u3000\u00a0x<|im_end|>  <tool_call>é</tool_call>",
      "<|im_start|>user\nhi<|im_end|>\n<|im_start|>\u3000\u00a0x<|im_end|>  <tool_call>\u0301</tool_call> z",
  };
  for (const std::string& text : texts) EXPECT_EQ(tok.encode_cached(text, cache), tok.encode(text)) << text;

  Counts counts;
  for (std::uint32_t seed = 1; seed <= 3; ++seed) check_random_edits(tok, "qwen3 (flags)", seed, counts);
  EXPECT_GT(counts.reused * 2, counts.encodes);
}

TEST(PromptCache, TheGrowingPromptReusesAllButItsTail) {
  Tokenizer tok = Tokenizer::load(model_path("qwen3"));
  PromptCache cache;
  std::string prompt = "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n";
  EXPECT_EQ(tok.encode_cached(prompt, cache), tok.encode(prompt));
  EXPECT_EQ(cache.reused_bytes(), 0u);
  EXPECT_EQ(cache.encoded_bytes(), prompt.size());
  std::string next = prompt + "Hello!<|im_end|>\n<|im_start|>user\nAnd you?<|im_end|>\n<|im_start|>assistant\n";
  EXPECT_EQ(tok.encode_cached(next, cache), tok.encode(next));
  // Reused up to the end of the last added token whose scan read no further than the texts
  // share (here: the whole previous prompt): the last <|im_start|>, all but "assistant\n".
  EXPECT_EQ(cache.reused_bytes(), prompt.size() - std::string_view("assistant\n").size());
  EXPECT_EQ(cache.reused_bytes() + cache.encoded_bytes(), next.size());
}

// A cache outlives its tokenizer: a tokenizer loaded later (often at the same address) must not
// take the old ids for its own.
TEST(PromptCache, ACacheOutlivesItsTokenizer) {
  PromptCache cache;
  std::string text = "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n";
  for (int round = 0; round < 3; ++round) {
    {
      Tokenizer qwen = Tokenizer::load(model_path("qwen3"));
      EXPECT_EQ(qwen.encode_cached(text, cache), qwen.encode(text));
    }
    Tokenizer deepseek = Tokenizer::load(model_path("deepseek_v3"));
    EXPECT_EQ(deepseek.encode_cached(text + "ok", cache), deepseek.encode(text + "ok"));
    EXPECT_EQ(cache.reused_bytes(), 0u);
  }
}

TEST(PromptCache, OtherTokenizerOtherOptionsAndInvalidTextStartAgain) {
  Tokenizer qwen = Tokenizer::load(model_path("qwen3"));
  Tokenizer llama = Tokenizer::load(model_path("llama2"));
  PromptCache cache;
  std::string text = "<s>[INST] hi [/INST] hello </s><s>[INST] more text here [/INST]";
  EXPECT_EQ(qwen.encode_cached(text, cache), qwen.encode(text));
  EXPECT_EQ(llama.encode_cached(text, cache), llama.encode(text));
  EXPECT_EQ(cache.reused_bytes(), 0u);  // the cache held qwen3's ids
  EXPECT_EQ(llama.encode_cached(text, cache, {.add_special_tokens = true}), llama.encode(text, {.add_special_tokens = true}));
  EXPECT_EQ(cache.reused_bytes(), 0u);  // other options
  EXPECT_EQ(llama.encode_cached(text + " more", cache, {.add_special_tokens = true}),
            llama.encode(text + " more", {.add_special_tokens = true}));
  EXPECT_GT(cache.reused_bytes(), 0u);
  std::string invalid = text + "\xff";
  EXPECT_THROW(llama.encode_cached(invalid, cache), InputError);
  EXPECT_EQ(llama.encode_cached(invalid, cache, {.lossy_utf8 = true}), llama.encode(invalid, {.lossy_utf8 = true}));
  EXPECT_EQ(llama.encode_cached(text, cache), llama.encode(text));
  EXPECT_EQ(cache.reused_bytes(), 0u);  // invalid text is not kept
}
