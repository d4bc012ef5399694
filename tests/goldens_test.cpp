// The goldens' own machinery (scripts/goldens.sh, scripts/make_corpus.py): the goldens the tests
// read are current, each stamp records every input that changes its goldens (files and tool
// versions) and a changed version makes them stale, and the corpus is refused when a category
// that holds this machine's text finds none.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/reference_util.hpp"

namespace {

namespace fs = std::filesystem;

struct CommandResult {
  int status = -1;  // exit status, or -1 if it did not exit
  std::string output;
};

// Runs a shell command from the source directory, with its stderr in the output.
CommandResult run(const std::string& command) {
  std::string full = "cd '" + std::string(TEXTEDGE_SOURCE_DIR) + "' && " + command + " 2>&1";
  CommandResult r;
  FILE* pipe = popen(full.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  int status = pclose(pipe);
  if (WIFEXITED(status)) r.status = WEXITSTATUS(status);
  return r;
}

std::string check_command(const std::string& goldens) {
  return "GOLDENS_DIR='" + goldens + "' bash scripts/goldens.sh --check";
}

std::string read(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool has_line_starting(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return true;
  return false;
}

const std::vector<std::string> kModels = {"qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"};

// `make test` runs scripts/goldens.sh first; running the tests alone after changing a generator,
// a model or a reference must not compare against what the old ones made.
TEST(Goldens, AreCurrent) {
  CommandResult r = run(check_command(reference::goldens_dir()));
  EXPECT_EQ(r.status, 0) << r.output;
}

// Each stamp names the versions and every file its goldens come from.
TEST(Goldens, StampsRecordEveryInput) {
  const fs::path dir = reference::goldens_dir();
  struct Expected {
    std::string stamp;
    std::vector<std::string> lines;  // line prefixes the stamp must hold
  };
  std::vector<Expected> expected = {
      {"schema",
       {"jsonschema ", "python ", "tests/data/schema_cases.json ", "tools/reference/schema_goldens.py ",
        "scripts/goldens.sh "}},
      {"corpus", {"python ", "scripts/make_corpus.py ", "scripts/goldens.sh ", "models/qwen3/tokenizer.json "}},
      {"jinja",
       {"jinja2 ", "python ", "tests/data/jinja_cases.json ", "tests/data/chat_templates/",
        "models/llama3_1/tokenizer_config.json ", "tools/reference/jinja_env.py ", "tools/reference/jinja_goldens.py ",
        "scripts/goldens.sh "}},
      {"chat",
       {"jinja2 ", "python ", "tests/data/chat_conversations.json ", "tests/data/chat_templates/",
        "models/gemma3/tokenizer_config.json ", "src/chat/default_template.jinja ", "tools/reference/chat_goldens.py ",
        "tools/reference/jinja_env.py ", "scripts/goldens.sh "}},
      {"padding",
       {"node ", "tokenizers ", "models/llama2/tokenizer.json ", "models/gemma3/tokenizer_config.json ",
        "tools/reference/padding_goldens.js ", "tools/reference/node_modules/tokenizers/package.json ", "scripts/goldens.sh "}},
  };
  for (const auto& model : kModels) {
    expected.push_back({model,
                        {"node ", "tokenizers ", "models/" + model + "/tokenizer.json ", "tools/reference/goldens.js ",
                         "tools/reference/stream_goldens.js ", "tools/reference/node_modules/tokenizers/package.json ",
                         "scripts/goldens.sh ", fs::canonical(dir).string() + "/corpus/categories.txt ",
                         fs::canonical(dir).string() + "/corpus/emoji.jsonl "}});
  }
  for (const auto& e : expected) {
    const fs::path stamp = dir / (e.stamp + ".stamp");
    ASSERT_TRUE(fs::exists(stamp)) << stamp << " is missing: run scripts/goldens.sh";
    const std::string text = read(stamp);
    for (const auto& prefix : e.lines) EXPECT_TRUE(has_line_starting(text, prefix)) << stamp << " lacks " << prefix;
  }
}

// A stamp made with another Jinja2 than the installed one is stale, though no file changed.
TEST(Goldens, AnotherJinja2VersionMakesTheJinjaGoldensStale) {
  const fs::path dir = reference::goldens_dir();
  const fs::path copy = fs::path(testing::TempDir()) / "goldens_stamp_copy";
  fs::remove_all(copy);
  fs::create_directories(copy);
  ASSERT_TRUE(fs::exists(dir / "jinja.stamp")) << "run scripts/goldens.sh";
  fs::create_symlink(dir / "jinja.jsonl", copy / "jinja.jsonl");
  std::string stamp = read(dir / "jinja.stamp");
  std::ofstream(copy / "jinja.stamp", std::ios::binary) << stamp;

  CommandResult same = run(check_command(copy.string()));
  EXPECT_EQ(same.output.find("stale: jinja "), std::string::npos) << same.output;
  EXPECT_NE(same.output.find("stale: chat "), std::string::npos) << same.output;  // its stamp is not there

  const std::size_t at = stamp.find("\njinja2 ");
  ASSERT_NE(at, std::string::npos) << stamp;
  stamp.replace(at, 8, "\njinja2 0.0.0-other ");
  std::ofstream(copy / "jinja.stamp", std::ios::binary) << stamp;
  CommandResult other = run(check_command(copy.string()));
  EXPECT_NE(other.status, 0);
  EXPECT_NE(other.output.find("stale: jinja (changed: jinja2"), std::string::npos) << other.output;
  fs::remove_all(copy);
}

// A machine without man pages (here: /usr/share/man hidden under an empty tmpfs, in a user and
// mount namespace of our own) cannot make the corpus: make_corpus.py says which categories found
// nothing and writes nothing.
TEST(Corpus, RefusedWhenAMachineCategoryFindsNothing) {
  if (run("unshare -rm true").status != 0) GTEST_SKIP() << "unprivileged user namespaces are not available here";
  const fs::path out = fs::path(testing::TempDir()) / "corpus_without_man_pages";
  fs::remove_all(out);
  CommandResult r =
      run("unshare -rm sh -c 'mount -t tmpfs none /usr/share/man && python3 scripts/make_corpus.py --out " +
          out.string() + "'");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("man_en: English man pages"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("man_*: translated man pages"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("code_cpp "), std::string::npos) << "each category's size is reported\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "nothing is written";
}

}  // namespace
