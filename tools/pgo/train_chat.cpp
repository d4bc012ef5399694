// The training run behind the chat layer's profile feedback (CMakeLists.txt, TEXTEDGE_PGO): every
// template of tests/data/chat_templates compiled, and every request of
// tests/data/chat_conversations.json rendered with it, compact and pretty-printed as clients
// send them. The benchmark's request (bench/data) is left out, so that the figures measured
// with it are not those of the training input.
//
// Usage: textedge_pgo_train TEMPLATE_DIR CONVERSATIONS.json
#include <simdjson.h>

#include <algorithm>
#include <exception>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/pretty_json.hpp"
#include "textedge/chat_template.hpp"

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: textedge_pgo_train TEMPLATE_DIR CONVERSATIONS.json\n");
    return 2;
  }
  std::vector<std::filesystem::path> template_files;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1]))
    if (entry.path().extension() == ".jinja") template_files.push_back(entry.path());
  std::sort(template_files.begin(), template_files.end());

  simdjson::dom::parser parser;
  simdjson::dom::element conversations = parser.load(argv[2]);
  std::vector<std::string> requests;
  for (simdjson::dom::element c : conversations.get_array()) {
    std::string compact = simdjson::minify(c["request"]);
    for (int indent : {1, 2, 4}) requests.push_back(test_support::pretty_printed(compact, indent));
    requests.push_back(std::move(compact));
  }

  textedge::ChatSpecialTokens special;
  special.tokens = {{"bos_token", "<s>"}, {"eos_token", "</s>"}};
  std::size_t renders = 0, failures = 0, bytes = 0;
  for (const auto& file : template_files) {
    std::string source = read_file(file);
    std::optional<textedge::ChatTemplate> chat;
    // Compiled 20 times: the lexer's and parser's counts then weigh against the renders' as a
    // served template's load does against its first requests.
    for (int i = 0; i < 20; ++i) {
      try {
        chat = textedge::ChatTemplate::from_string(source, special, file.filename().string());
      } catch (const std::exception&) {
        ++failures;
        break;
      }
    }
    if (!chat) continue;
    textedge::ChatOptions options;
    options.now = std::tm{};
    for (const auto& request : requests) {
      for (int i = 0; i < 50; ++i) {
        try {
          bytes += chat->apply_request(request, options).size();
          ++renders;
        } catch (const std::exception&) {
          ++failures;  // templates that raise for a request (roles, tools) train their error paths
        }
      }
    }
  }
  std::printf("textedge_pgo_train: %zu templates, %zu renders (%zu bytes), %zu raised\n", template_files.size(), renders,
              bytes, failures);
  return renders > 0 ? 0 : 1;
}
