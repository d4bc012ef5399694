// Chat templates against transformers' apply_chat_template on Python Jinja2: every template of
// the corpus (tests/data/chat_templates, with generic special tokens), the models' own templates
// and textedge's default, over every conversation of tests/data/chat_conversations.json. Goldens:
// BUILD/goldens/chat.jsonl from tools/reference/chat_goldens.py (scripts/goldens.sh).
#include "textedge/chat_template.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "support/pinned_now.hpp"
#include "support/reference_util.hpp"
#include "support/test_paths.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge {
namespace {

std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Golden {
  std::string tmpl, conversation;
  std::optional<std::string> prompt;
  std::string error;
};

struct Goldens {
  std::string now;  // the time strftime_now() formatted (the meta line)
  std::vector<Golden> cases;
};

Goldens load_goldens() {
  std::string path = reference::goldens_dir() + "/chat.jsonl";
  Goldens out;
  Golden g;
  bool is_case = false;
  auto field = [&](std::string_view key, simdjson::ondemand::value v, const std::string& where) {
    if (key == "meta") {
      simdjson::ondemand::object meta;
      reference::detail::check(v.get_object().get(meta), where);
      for (auto m : meta) {
        std::string_view k;
        reference::detail::check(m.unescaped_key().get(k), where);
        if (k == "now") out.now = reference::detail::get_string(m.value(), where);
      }
    } else if (key == "template") {
      g.tmpl = reference::detail::get_string(v, where);
      is_case = true;
    } else if (key == "conversation") {
      g.conversation = reference::detail::get_string(v, where);
    } else if (key == "prompt") {
      g.prompt = reference::detail::get_string(v, where);
    } else if (key == "error") {
      g.error = reference::detail::get_string(v, where);
    }
  };
  reference::read_goldens(path, field, [&](std::size_t) {
    bool was_case = is_case;
    if (was_case) out.cases.push_back(std::move(g));
    g = Golden();
    is_case = false;
    return was_case;
  });
  return out;
}

std::map<std::string, std::string> conversations() {
  std::string text = read(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_conversations.json");
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(text);
  std::map<std::string, std::string> out;
  for (auto c : root.get_array()) out[std::string(c["name"].get_string().value())] = simdjson::minify(c["request"]);
  return out;
}

std::string escaped(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n')
      out += "\\n\n";
    else if (c >= 0x20 || c == '\t')
      out += static_cast<char>(c);
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// The template a golden names: a corpus file, a model's own ("model:NAME[:TEMPLATE]"), or the
// default a model without one gets ("default:NAME").
std::optional<ChatTemplate> template_for(const std::string& name, std::string& compile_error) {
  try {
    if (name.rfind("model:", 0) == 0 || name.rfind("default:", 0) == 0) {
      std::string rest = name.substr(name.find(':') + 1);
      return ChatTemplate::load(model_path(rest.substr(0, rest.find(':'))));
    }
    ChatSpecialTokens generic;
    generic.tokens = {{"bos_token", "<s>"}, {"eos_token", "</s>"}, {"unk_token", "<unk>"}, {"pad_token", "<pad>"}};
    std::string path = std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/chat_templates/" + name;
    return ChatTemplate::from_string(read(path), generic, name);
  } catch (const Error& e) {
    compile_error = e.what();
    return std::nullopt;
  }
}

TEST(ChatTemplate, RendersEveryCorpusAndModelTemplateExactlyAsTransformers) {
  auto all = load_goldens();
  ASSERT_EQ(all.now, kPinnedNowIso) << "the goldens' strftime_now() time is not the one this test pins";
  const auto& goldens = all.cases;
  auto convs = conversations();
  ASSERT_GT(goldens.size(), 1500u);
  std::map<std::string, std::optional<ChatTemplate>> templates;
  std::map<std::string, std::string> compile_errors;
  int rendered = 0, raised = 0, mismatches = 0;
  for (const auto& g : goldens) {
    if (!templates.count(g.tmpl)) templates[g.tmpl] = template_for(g.tmpl, compile_errors[g.tmpl]);
    const auto& tmpl = templates[g.tmpl];
    ASSERT_TRUE(convs.count(g.conversation)) << g.conversation;
    std::optional<std::string> got;
    std::string error = compile_errors[g.tmpl];
    if (tmpl) {
      ChatOptions defaults;
      defaults.now = pinned_now();
      try {
        got = tmpl->apply_request(convs[g.conversation], defaults);
      } catch (const Error& e) {
        error = e.what();
      }
    }
    bool ok = got ? (g.prompt && *got == *g.prompt) : !g.prompt;
    // raise_exception's message must be the template's own.
    if (ok && !got && g.error.rfind("TemplateError: ", 0) == 0 && error.find(g.error.substr(15)) == std::string::npos &&
        g.error.size() > 15)
      ok = false;
    if (got)
      ++rendered;
    else
      ++raised;
    if (!ok && mismatches++ < 10) {
      ADD_FAILURE() << g.tmpl << " / " << g.conversation
                    << "\n--- textedge: " << (got ? escaped(*got) : "raised: " + error)
                    << "\n--- Jinja2: " << (g.prompt ? escaped(*g.prompt) : "raised: " + g.error);
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << goldens.size() << " cases (" << rendered << " rendered, " << raised
                           << " raised)";
}

TEST(ChatTemplate, NamedTemplatesAreChosenAsTransformersChooses) {
  auto dir = std::filesystem::path(testing::TempDir()) / "named_templates";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tokenizer_config.json")
      << R"({"bos_token": "<s>", "chat_template": [{"name": "default", "template": "D{{ bos_token }}"},
             {"name": "tool_use", "template": "T{{ tools | length }}"}, {"name": "rag", "template": "R"}]})";
  auto t = ChatTemplate::load(dir.string());
  EXPECT_EQ(t.names(), (std::vector<std::string>{"default", "tool_use", "rag"}));
  EXPECT_EQ(t.apply(R"([{"role": "user", "content": "hi"}])"), "D<s>");
  ChatOptions with_tools;
  with_tools.tools = R"([{"type": "function", "function": {"name": "f"}}])";
  EXPECT_EQ(t.apply(R"([])", with_tools), "T1");
  ChatOptions rag;
  rag.template_name = "rag";
  EXPECT_EQ(t.apply(R"([])", rag), "R");
  rag.template_name = "nope";
  EXPECT_THROW(t.apply(R"([])", rag), Error);
}

TEST(ChatTemplate, ModelWithoutTemplateGetsTheDefaultAndKwargsReachTheTemplate) {
  auto t = ChatTemplate::load(model_path("llama2"));  // its tokenizer_config has no chat_template
  ChatOptions off;
  off.chat_template_kwargs = R"({"enable_thinking": false})";
  EXPECT_EQ(t.apply(R"([{"role": "user", "content": "Hi"}])", off),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
  auto extra = ChatTemplate::load(model_path("qwen3")).extra_variables();
  EXPECT_NE(std::find(extra.begin(), extra.end(), "enable_thinking"), extra.end());
  EXPECT_EQ(std::find(extra.begin(), extra.end(), "messages"), extra.end());
}

TEST(ChatTemplate, AdditionalSpecialTokensAreAList) {
  ChatSpecialTokens special;
  special.additional_special_tokens = {"<a>", "<b>"};
  auto t = ChatTemplate::from_string("{{ additional_special_tokens }} {{ additional_special_tokens | length }}", special);
  EXPECT_EQ(t.apply("[]"), "['<a>', '<b>'] 2");
}

TEST(ChatTemplate, PromptTokenizesWithoutASecondBos) {
  auto tok = Tokenizer::load(model_path("gemma3"));
  auto t = ChatTemplate::load(model_path("gemma3"));
  std::string prompt = t.apply(R"([{"role": "user", "content": "Hello"}])");
  ASSERT_EQ(prompt.rfind("<bos>", 0), 0u);
  auto ids = tok.encode(prompt, {.add_special_tokens = false});
  TokenId bos = *tok.token_to_id("<bos>");
  EXPECT_EQ(ids[0], bos);
  EXPECT_NE(ids[1], bos);
}

TEST(ChatTemplate, ErrorsSayWhatAndWhere) {
  try {
    ChatTemplate::from_string("Hello\n{% if messages %}\n{{ messages[0].content }\n{% endif %}");
    FAIL();
  } catch (const TemplateError& e) {
    EXPECT_EQ(e.line(), 3u) << e.what();
  }
  auto t = ChatTemplate::from_string("{{ raise_exception('Only user and assistant roles are supported!') }}");
  try {
    t.apply("[]");
    FAIL();
  } catch (const TemplateError& e) {
    EXPECT_EQ(e.message(), "Only user and assistant roles are supported!");
  }
  auto simple = ChatTemplate::from_string("{{ messages | length }}");
  EXPECT_THROW(simple.apply("[{\"role\": "), InputError);
  EXPECT_THROW(simple.apply_request("{\"messages\": [], \"add_generation_prompt\": \"yes\"}"), InputError);
  ChatOptions both;
  both.continue_final_message = true;
  EXPECT_THROW(simple.apply("[{\"role\": \"assistant\", \"content\": \"x\"}]", both), Error);
}

TEST(ChatTemplate, RendersFromManyThreads) {
  auto t = ChatTemplate::load(model_path("qwen3"));
  auto convs = conversations();
  std::string want = t.apply_request(convs["parallel_calls"]);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int r = 0; r < 50; ++r)
        if (t.apply_request(convs["parallel_calls"]) != want) ++mismatches;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace textedge
