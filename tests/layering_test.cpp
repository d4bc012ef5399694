// The layers of src/ are folders, each including only the folders below it, in the order a
// request crosses them: base, tokenizer, streaming, chat, schema, parsers, server (then the CLI).
// Every quoted include in src/, include/ and cli/ is read; one that reaches a layer above its
// own file's fails with the file and line. Internal includes are written from src/
// ("tokenizer/models/bpe.hpp"), so the first folder of an include is its layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kLayers = {"base", "tokenizer", "streaming", "chat", "schema", "parsers", "server", "cli"};

// The public headers, each in the layer whose API it declares.
const std::map<std::string, std::string> kPublicHeaders = {
    {"textedge/export.hpp", "base"},          {"textedge/version.hpp", "base"},
    {"textedge/error.hpp", "base"},           {"textedge/tokenizer.hpp", "tokenizer"},
    {"textedge/detokenizer.hpp", "streaming"}, {"textedge/stream.hpp", "streaming"},
    {"textedge/chat_template.hpp", "chat"},   {"textedge/schema.hpp", "schema"},
    {"textedge/output_parser.hpp", "parsers"}, {"textedge/textedge.hpp", "parsers"},
};

// Files made at build time, included by name from the build's generated/ folder.
const std::map<std::string, std::string> kGenerated = {{"default_template.inc", "chat"}};

std::optional<std::size_t> rank(const std::string& layer) {
  auto it = std::find(kLayers.begin(), kLayers.end(), layer);
  if (it == kLayers.end()) return std::nullopt;
  return static_cast<std::size_t>(it - kLayers.begin());
}

struct SourceFile {
  std::string path;  // from the repository root: src/..., include/textedge/..., cli/...
  std::string text;
};

// The layer a file belongs to, or nullopt when it is in none.
std::optional<std::string> layer_of_file(const std::string& path) {
  if (path.rfind("include/", 0) == 0) {
    std::string header = path.substr(8);
    if (header.size() > 3 && header.ends_with(".in")) header.resize(header.size() - 3);
    auto it = kPublicHeaders.find(header);
    if (it == kPublicHeaders.end()) return std::nullopt;
    return it->second;
  }
  if (path.rfind("cli/", 0) == 0) return "cli";
  if (path.rfind("src/", 0) == 0) {
    std::string rest = path.substr(4);
    std::string first = rest.substr(0, rest.find('/'));
    if (rest.find('/') != std::string::npos && rank(first)) return first;
  }
  return std::nullopt;
}

// Every violation in `files`, as "PATH:LINE: MESSAGE". `exists` says whether a path from the
// repository root is a file of the tree.
template <class Exists>
std::vector<std::string> check_layers(const std::vector<SourceFile>& files, Exists exists) {
  std::vector<std::string> problems;
  for (const SourceFile& file : files) {
    std::optional<std::string> own = layer_of_file(file.path);
    if (!own) {
      problems.push_back(file.path + ":1: not in a layer (a folder of src/ named " +
                         "after a layer, cli/, or a public header listed in tests/layering_test.cpp)");
      continue;
    }
    bool is_public = file.path.rfind("include/", 0) == 0;
    std::istringstream lines(file.text);
    std::string line;
    for (std::size_t number = 1; std::getline(lines, line); ++number) {
      std::size_t hash = line.find_first_not_of(" \t");
      if (hash == std::string::npos || line[hash] != '#') continue;
      std::size_t word = line.find_first_not_of(" \t", hash + 1);
      if (word == std::string::npos || line.compare(word, 7, "include") != 0) continue;
      std::size_t open = line.find_first_not_of(" \t", word + 7);
      if (open == std::string::npos) continue;
      std::string where = file.path + ":" + std::to_string(number) + ": ";
      if (line[open] == '<') {
        std::string name = line.substr(open + 1, line.find('>', open) - open - 1);
        // Public headers use the standard library only: no third-party type crosses them.
        if (is_public && (name.find('.') != std::string::npos || name.find('/') != std::string::npos))
          problems.push_back(where + "public header includes <" + name + ">, which is not the standard library");
        continue;
      }
      if (line[open] != '"') continue;
      std::string target = line.substr(open + 1, line.find('"', open + 1) - open - 1);
      std::string target_layer;
      if (target.rfind("textedge/", 0) == 0) {
        auto it = kPublicHeaders.find(target);
        if (it == kPublicHeaders.end()) {
          problems.push_back(where + "includes \"" + target + "\", a public header in no layer");
          continue;
        }
        target_layer = it->second;
      } else if (is_public) {
        problems.push_back(where + "public header includes \"" + target + "\", which is not public");
        continue;
      } else if (kGenerated.count(target)) {
        target_layer = kGenerated.at(target);
      } else if (*own == "cli" && exists("cli/" + target)) {
        target_layer = "cli";
      } else if (exists("src/" + target) && layer_of_file("src/" + target)) {
        target_layer = *layer_of_file("src/" + target);
      } else {
        problems.push_back(where + "includes \"" + target + "\", which is not a file of src/ (write includes from src/)");
        continue;
      }
      if (*rank(target_layer) > *rank(*own))
        problems.push_back(where + "includes \"" + target + "\" of layer " + target_layer + ", above its own layer " +
                           *own + " (" + [] {
                             std::string order;
                             for (const auto& l : kLayers) order += (order.empty() ? "" : " < ") + l;
                             return order;
                           }() + ")");
    }
  }
  return problems;
}

std::vector<SourceFile> read_tree(const fs::path& root) {
  std::vector<SourceFile> files;
  for (const char* dir : {"src", "include", "cli"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (!entry.is_regular_file()) continue;
      std::string ext = entry.path().extension().string();
      std::string name = entry.path().filename().string();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".inc" && !name.ends_with(".hpp.in")) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      files.push_back({fs::relative(entry.path(), root).generic_string(), text.str()});
    }
  }
  return files;
}

TEST(Layering, EveryIncludeReachesOnlyItsOwnLayerOrOnesBelow) {
  fs::path root = TEXTEDGE_SOURCE_DIR;
  std::vector<SourceFile> files = read_tree(root);
  ASSERT_GT(files.size(), 100u);
  auto problems = check_layers(files, [&](const std::string& path) { return fs::is_regular_file(root / path); });
  std::string report;
  for (const auto& p : problems) report += p + "\n";
  EXPECT_TRUE(problems.empty()) << report;
}

TEST(Layering, EverySourceFolderIsALayer) {
  for (const auto& entry : fs::directory_iterator(fs::path(TEXTEDGE_SOURCE_DIR) / "src")) {
    EXPECT_TRUE(entry.is_directory()) << entry.path() << " is a file outside every layer folder";
    EXPECT_TRUE(rank(entry.path().filename().string())) << entry.path() << " is not a layer";
  }
}

// The check itself: each kind of violation is found, with its file and line.
TEST(Layering, ReportsTheFileAndLineOfEachViolation) {
  auto exists = [](const std::string& path) {
    return path == "src/streaming/stop_strings.hpp" || path == "src/base/utf8.hpp" || path == "cli/json_out.hpp";
  };
  std::vector<SourceFile> files = {
      {"src/tokenizer/models/bpe.cpp", "#include \"base/utf8.hpp\"\n\n#include \"streaming/stop_strings.hpp\"\n"},
      {"src/tokenizer/added.cpp", "#include \"textedge/stream.hpp\"\n#include \"utf8.hpp\"\n"},
      {"src/base/x.cpp", "  #  include \"textedge/chat_template.hpp\"  // comment\n"},
      {"include/textedge/tokenizer.hpp", "#include <vector>\n#include <simdjson.h>\n#include \"base/utf8.hpp\"\n"},
      {"cli/main.cpp", "#include \"json_out.hpp\"\n#include \"streaming/stop_strings.hpp\"\n"},
  };
  auto problems = check_layers(files, exists);
  ASSERT_EQ(problems.size(), 6u);
  EXPECT_TRUE(problems[0].starts_with("src/tokenizer/models/bpe.cpp:3: includes \"streaming/stop_strings.hpp\" of "
                                      "layer streaming, above its own layer tokenizer"))
      << problems[0];
  EXPECT_TRUE(problems[1].starts_with("src/tokenizer/added.cpp:1: includes \"textedge/stream.hpp\" of layer streaming"))
      << problems[1];
  EXPECT_TRUE(problems[2].starts_with("src/tokenizer/added.cpp:2: includes \"utf8.hpp\", which is not a file of src/"))
      << problems[2];
  EXPECT_TRUE(problems[3].starts_with("src/base/x.cpp:1: includes \"textedge/chat_template.hpp\" of layer chat"))
      << problems[3];
  EXPECT_TRUE(problems[4].starts_with("include/textedge/tokenizer.hpp:2: public header includes <simdjson.h>"))
      << problems[4];
  EXPECT_TRUE(problems[5].starts_with("include/textedge/tokenizer.hpp:3: public header includes \"base/utf8.hpp\""))
      << problems[5];
  // src/helpers.hpp is outside every layer; cli/ may include everything.
  auto outside = check_layers({{"src/helpers.hpp", ""}}, exists);
  ASSERT_EQ(outside.size(), 1u);
  EXPECT_TRUE(outside[0].starts_with("src/helpers.hpp:1: not in a layer")) << outside[0];
}

}  // namespace
