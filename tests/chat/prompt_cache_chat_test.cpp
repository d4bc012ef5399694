// The prompt cache on what a server sees: conversations rendered turn by turn by each model's own
// chat template (gpt-oss's and Llama 2's from tests/data, which models/ lacks), each prompt
// encoded with the cache of the previous one. Always encode's ids; and ids are reused.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/json_string.hpp"
#include "support/test_paths.hpp"
#include "textedge/chat_template.hpp"
#include "textedge/tokenizer.hpp"

using namespace textedge;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Model {
  const char* name;
  const char* template_file;  // under tests/data, or nullptr for the model's own
};

const Model kModels[] = {
    {"qwen3", nullptr},
    {"llama3_1", nullptr},
    {"deepseek_v3", nullptr},
    {"gemma3", nullptr},
    {"gptoss", "parsers/templates/llama.cpp__openai-gpt-oss-120b.jinja"},
    {"llama2", "chat_templates/chujiezheng__llama-2-chat.jinja"},
};

const char* const kTexts[] = {
    "Hello!", "What's the weather in Paris?", "Écris un poème sur la mer.", "日本語で説明してください。",
    "สวัสดีครับ ช่วยแปลประโยคนี้หน่อย", "def f(x):\n    return x * 2\n", "  leading and trailing spaces  ",
    "Emoji: 👋🏽🧑‍🤝‍🧑🇧🇷", "Line one\n\nLine three\n", "Ответь коротко.", "<think>not a real tag</think>",
    "{\"json\": [1, 2, 3]}", "e\u0301 combining", "   ", "x"};

}  // namespace

TEST(PromptCacheChat, ConversationsTurnByTurnGiveEncodesIdsAndReuseThem) {
  for (const Model& m : kModels) {
    Tokenizer tok = Tokenizer::load(model_path(m.name));
    ChatTemplate chat = ChatTemplate::load(model_path(m.name));
    if (m.template_file)
      chat = ChatTemplate::from_string(read(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/" + m.template_file),
                                       chat.special_tokens(), m.template_file);
    std::size_t prompts = 0, reused = 0;
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      std::mt19937 rng(seed);
      auto text = [&] {
        std::string s = kTexts[rng() % std::size(kTexts)];
        for (std::size_t n = rng() % 4; n-- > 0;) s += std::string(" ") + kTexts[rng() % std::size(kTexts)];
        return s;
      };
      std::string messages = "[";
      if (seed % 2 == 0) messages += R"({"role":"system","content":"You are terse."},)";
      PromptCache cache;
      for (int turn = 0; turn < 10; ++turn) {
        messages += R"({"role":"user","content":)";
        detail::append_json_string(messages, text());
        messages += "}";
        std::string prompt = chat.apply(messages + "]", {.add_generation_prompt = true});
        ASSERT_EQ(tok.encode_cached(prompt, cache), tok.encode(prompt)) << m.name << " seed " << seed << " turn " << turn;
        ++prompts;
        if (turn > 0 && cache.reused_bytes() > 0) ++reused;
        // The answer, with reasoning (that templates such as Qwen3's drop from earlier turns,
        // so the next prompt differs from this one before its end).
        messages += R"(,{"role":"assistant","content":)";
        detail::append_json_string(messages, text());
        if (rng() % 2) {
          messages += R"(,"reasoning_content":)";
          detail::append_json_string(messages, text());
        }
        messages += "},";
      }
    }
    EXPECT_EQ(reused, prompts - 4) << m.name << ": every prompt after a conversation's first reuses ids";
  }
}
