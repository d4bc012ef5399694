// regex_to_gbnf: the GBNF written for small regexes, the constructs it refuses (with their
// offsets), and the real check: llama.cpp's llama-server (LLAMA_SERVER, with the random-weight
// Qwen3 model ENGINE_MODEL; eval "$(scripts/engine.sh)" sets both) samples under the grammars of
// schema and tool-call regexes, and every sample must be in the regex's language: a full match
// when the grammar let the model stop (stop_type "eos"), a prefix of one when n_predict ran out.
// Random weights make the samples random strings of the grammar's language.
#include <gtest/gtest.h>
#include <simdjson.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/json_dom.hpp"
#include "base/json_string.hpp"
#include "support/llama_server.hpp"
#include "support/test_paths.hpp"
#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"
#include "textedge/tokenizer.hpp"

namespace {

using textedge::regex_to_gbnf;

// ---- the conversion ----------------------------------------------------------------------

TEST(RegexToGbnf, WritesLiteralsClassesAndAlternations) {
  EXPECT_EQ(regex_to_gbnf("abc"), "root ::= \"abc\"\n");
  EXPECT_EQ(regex_to_gbnf("a|b|"), "root ::= \"a\" | \"b\" | \"\"\n");
  EXPECT_EQ(regex_to_gbnf(""), "root ::= \"\"\n");
  EXPECT_EQ(regex_to_gbnf("-?(?:0|[1-9][0-9]*)"), "root ::= \"-\"? (\"0\" | [1-9] [0-9]*)\n");
  EXPECT_EQ(regex_to_gbnf("[^\"\\\\\\x00-\\x1F]"), "root ::= [^\\x00-\\x1F\"\\\\]\n");  // sorted, merged
  EXPECT_EQ(regex_to_gbnf("[A-Za-z0-9_]\\d\\D\\w\\s."),
            "root ::= [0-9A-Z_a-z] [0-9] [^0-9] [0-9A-Z_a-z] [\\t-\\r ] [^\\n]\n");
  EXPECT_EQ(regex_to_gbnf("[x]\\{\\}"), "root ::= \"x{}\"\n");  // a one-character class is a character
  EXPECT_EQ(regex_to_gbnf("[a-z]{2,4}x{3}y{2,}z+"), "root ::= [a-z]{2,4} \"x\"{3} \"y\"{2,} \"z\"+\n");
}

TEST(RegexToGbnf, EscapesWhatGbnfWouldMisread) {
  EXPECT_EQ(regex_to_gbnf("<tool_call>\\n\\{\"name\": \"a\\\\b\"\\x{7}\\x{2028}"),
            "root ::= \"<tool_call>\\n{\\\"name\\\": \\\"a\\\\b\\\"\\x07\\u2028\"\n");
  EXPECT_EQ(regex_to_gbnf("[\\^a]"), "root ::= [\\x5Ea]\n");  // '^' first would negate
  EXPECT_EQ(regex_to_gbnf("[^^]"), "root ::= [^^]\n");
  EXPECT_EQ(regex_to_gbnf("[]a-]"), "root ::= [\\-\\]a]\n");  // PCRE2: ']' first and '-' last are literal
  EXPECT_EQ(regex_to_gbnf("[\\[\\\\]"), "root ::= [\\[\\\\]\n");
  EXPECT_EQ(regex_to_gbnf("é|\\x{1F600}|<｜tool▁sep｜>"), "root ::= \"é\" | \"😀\" | \"<｜tool▁sep｜>\"\n");
}

TEST(RegexToGbnf, RepeatedGroupsBecomeSharedRules) {
  // A group of characters and strings only stays in parentheses (llama.cpp makes one rule of it).
  EXPECT_EQ(regex_to_gbnf("(?:ab|c)*d"), "root ::= (\"ab\" | \"c\")* \"d\"\n");
  // One with a quantifier or a group inside becomes a rule, and equal bodies share it.
  EXPECT_EQ(regex_to_gbnf("(?:, ?\"b\")?x(?:, ?\"b\")*"),
            "root ::= r1? \"x\" r1*\n"
            "r1 ::= \",\" \" \"? \"\\\"b\\\"\"\n");
  EXPECT_EQ(regex_to_gbnf("(?:[a-z]{1,3}(?:-[a-z]+)*)?"),
            "root ::= r2?\n"
            "r1 ::= \"-\" [a-z]+\n"
            "r2 ::= [a-z]{1,3} r1*\n");
}

TEST(RegexToGbnf, AlternativesShareTheirCommonStart) {
  // llama.cpp follows every live branch separately: a common start is written once.
  EXPECT_EQ(regex_to_gbnf("\"red\"|\"green\"|\"grey\""),
            "root ::= \"\\\"\" (\"red\\\"\" | \"gre\" (\"en\\\"\" | \"y\\\"\"))\n");
  EXPECT_EQ(regex_to_gbnf("a|ab|ac|b"), "root ::= \"a\" (\"\" | \"b\" | \"c\") | \"b\"\n");
  EXPECT_EQ(regex_to_gbnf("<f> ?x|<f> ?y"), "root ::= \"<f>\" \" \"? (\"x\" | \"y\")\n");
  EXPECT_EQ(regex_to_gbnf("abc|abc"), "root ::= \"abc\"\n");
}

TEST(RegexToGbnf, BoundsAboveAThousandAreBuiltFromBlocks) {
  // llama.cpp turns a bound above 2000 into no bound, and refuses 2000 rules from one repetition.
  EXPECT_EQ(regex_to_gbnf("x{3000}"), "root ::= r1{3}\nr1 ::= \"x\"{1000}\n");
  EXPECT_EQ(regex_to_gbnf("x{1500,}"), "root ::= r1 \"x\"{500} \"x\"*\nr1 ::= \"x\"{1000}\n");
  EXPECT_EQ(regex_to_gbnf("x{2,5000}"),
            "root ::= \"x\"{2} (r1{0,3} \"x\"{0,999} | r1{4} \"x\"{0,998})\nr1 ::= \"x\"{1000}\n");
  EXPECT_EQ(regex_to_gbnf("[0-9]{0,1000}"), "root ::= [0-9]{0,1000}\n");
}

TEST(RegexToGbnf, RepeatedItemsThatMatchEmptyAreRewritten) {
  // X* with X matching "" would be left-recursive in llama.cpp: it is (X without "")*.
  EXPECT_EQ(regex_to_gbnf("(?:a*)*"), "root ::= r1*\nr1 ::= \"a\"+\n");
  EXPECT_EQ(regex_to_gbnf("(?:a?b?)+"), "root ::= r1*\nr1 ::= \"a\" \"b\"? | \"b\"\n");
  EXPECT_EQ(regex_to_gbnf("(?:|a)*b"), "root ::= \"a\"* \"b\"\n");
  EXPECT_EQ(regex_to_gbnf("(?:)*x{0}"), "root ::= \"\"\n");
}

TEST(RegexToGbnf, RefusesWhatIsOutsideTheDialect) {
  struct Case {
    std::string regex;
    std::size_t offset;
    std::string what;
  };
  const std::vector<Case> cases = {
      {"a(b)", 1, "capturing group"},
      {"a(?=b)", 1, "lookaround"},
      {"(?<!a)b", 0, "lookaround"},
      {"(?>a)", 0, "atomic group"},
      {"(?i)a", 0, "options"},
      {"(?<n>a)", 0, "name"},
      {"a*?", 2, "lazy quantifier"},
      {"a++", 2, "possessive quantifier"},
      {"a{2}{3}", 4, "quantifier after a quantifier"},
      {"*a", 0, "nothing to repeat"},
      {"a{2,1}", 1, "n < m"},
      {"a{70000}", 2, "above 65535"},
      {"^a", 0, "anchor"},
      {"a$", 1, "anchor"},
      {"(\\1)", 0, "capturing group"},
      {"(?:a)\\1", 5, "backreference"},
      {"\\bx", 0, "word boundary"},
      {"\\p{L}", 0, "Unicode property"},
      {"\\cA", 0, "escape \\c"},
      {"[[:alpha:]]", 1, "POSIX class"},
      {"[\\D]", 1, "\\D inside a class"},
      {"[\\d-z]", 1, "shorthand"},
      {"[z-a]", 1, "out of order"},
      {"[ab", 0, "unclosed class"},
      {"(?:ab", 0, "unclosed group"},
      {"ab)", 2, "unbalanced ')'"},
      {"a{", 1, "literal '{'"},
      {"\\x{110000}", 0, "not a character"},
      {"\\x4", 0, "malformed \\x"},
      {"ab\\", 2, "trailing backslash"},
      {"a\xff", 1, "not UTF-8"},
  };
  for (auto& c : cases) {
    try {
      regex_to_gbnf(c.regex);
      ADD_FAILURE() << c.regex << ": no error";
    } catch (const textedge::SchemaError& e) {
      std::string what = e.what();
      EXPECT_NE(what.find("regex at offset " + std::to_string(c.offset) + ": "), std::string::npos)
          << c.regex << ": " << what;
      EXPECT_NE(what.find(c.what), std::string::npos) << c.regex << ": " << what;
    }
  }
}

// ---- the regexes textedge writes ---------------------------------------------------------

std::string minify(const textedge::detail::Json& j) { return simdjson::minify(j.raw()); }

const std::string kTools = R"([
  {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {
    "city": {"type": "string", "maxLength": 12},
    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "days": {"type": "integer", "minimum": 1, "maximum": 14}}, "required": ["city"]}}},
  {"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {
    "a": {"type": "integer"}, "b": {"type": "number", "minimum": 0, "maximum": 100}}, "required": ["a", "b"]}}}
])";

struct Case {
  std::string name, regex;
};

// Every schema of tests/data/schema_cases.json (by name), or the named ones.
std::vector<Case> schema_cases(const std::set<std::string>& names = {}) {
  auto doc = textedge::detail::JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/schema_cases.json");
  std::vector<Case> out;
  for (auto& c : doc.root().array()) {
    std::string name(c.get("name").str());
    if (names.empty() || names.count(name))
      out.push_back({"schema " + name, textedge::json_schema_regex(minify(c.get("schema")))});
  }
  if (!names.empty() && out.size() != names.size()) ADD_FAILURE() << "a case name is not in schema_cases.json";
  return out;
}

std::vector<Case> tool_cases(const std::vector<std::string>& formats, bool parallel) {
  std::vector<Case> out;
  for (auto& f : formats)
    out.push_back({"tools " + f + (parallel ? " parallel" : ""), textedge::tool_call_pattern(kTools, f, "", parallel)});
  return out;
}

// Every tool call family with a forced-call syntax.
const std::vector<std::string> kAllFormats = [] {
  std::vector<std::string> v;  // the families tool_call_pattern can force
  for (auto& f : textedge::format_infos())
    if (f.forced) v.push_back(f.name);
  return v;
}();

// The unconstrained value nested `depth` levels: the largest regexes textedge writes.
Case any_value(int depth) {
  textedge::SchemaRegexOptions options;
  options.any_depth = depth;
  return {"schema {} at any_depth " + std::to_string(depth), textedge::json_schema_regex("{}", options)};
}

TEST(RegexToGbnf, ConvertsEverySchemaCaseAndToolFormatLinearly) {
  auto cases = schema_cases();
  for (auto& c : tool_cases(kAllFormats, false)) cases.push_back(c);
  for (auto& c : tool_cases(kAllFormats, true)) cases.push_back(c);
  cases.push_back(any_value(3));
  ASSERT_GT(cases.back().regex.size(), 25000u);
  for (auto& c : cases) {
    std::string g;
    ASSERT_NO_THROW(g = regex_to_gbnf(c.regex)) << c.name;
    ASSERT_TRUE(g.starts_with("root ::= ")) << c.name;
    // Linear: at most a few bytes of GBNF per byte of regex (repeated groups are shared rules,
    // so the nested "any value" regexes shrink: 26.8 KB at depth 3 is 1.8 KB of GBNF).
    EXPECT_LE(g.size(), 3 * c.regex.size() + 64) << c.name << ": " << c.regex.size() << " -> " << g.size();
  }
  EXPECT_LT(regex_to_gbnf(any_value(3).regex).size(), 2500u);
}

// ---- the real engine ---------------------------------------------------------------------

// A regex compiled as docs/schema.md says it runs: UTF mode, anchored at the start; the end is
// anchored for a full match, or left open (PCRE2_PARTIAL_HARD) to ask whether a text can still
// become a match.
class Pcre {
 public:
  explicit Pcre(const std::string& pattern) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), PCRE2_UTF | PCRE2_ANCHORED,
                          &error, &offset, nullptr);
    if (!code_) ADD_FAILURE() << "regex does not compile: error " << error << " at " << offset;
  }
  ~Pcre() { pcre2_code_free(code_); }
  Pcre(const Pcre&) = delete;
  Pcre& operator=(const Pcre&) = delete;
  bool full_match(const std::string& text) const { return match(text, PCRE2_ENDANCHORED) >= 0; }
  bool prefix_of_match(const std::string& text) const {
    int rc = match(text, PCRE2_PARTIAL_HARD);
    return rc >= 0 || rc == PCRE2_ERROR_PARTIAL;
  }

 private:
  int match(const std::string& text, uint32_t options) const {
    if (!code_) return -1;
    pcre2_match_data* data = pcre2_match_data_create_from_pattern(code_, nullptr);
    int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, options, data, nullptr);
    pcre2_match_data_free(data);
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && rc != PCRE2_ERROR_PARTIAL) ADD_FAILURE() << "pcre2_match error " << rc;
    return rc;
  }
  pcre2_code* code_ = nullptr;
};

// The one llama-server of this file, started by the first test that needs it; nullptr (and a
// failure saying why) when it cannot run.
test_support::LlamaServer* engine() {
  static std::unique_ptr<test_support::LlamaServer> server;
  static std::string error;
  if (!server && error.empty()) {
    const char* binary = std::getenv("LLAMA_SERVER");
    const char* model = std::getenv("ENGINE_MODEL");
    if (!binary || !*binary || !model || !*model) {
      error = "LLAMA_SERVER and ENGINE_MODEL are not set: run eval \"$(scripts/engine.sh)\" first";
    } else {
      try {
        server = std::make_unique<test_support::LlamaServer>(
            binary, std::vector<std::string>{"-m", model, "-c", "4096", "-np", "2", "--no-webui"});
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
  }
  if (!server) ADD_FAILURE() << error;
  return server.get();
}

struct Sample {
  int status = 0;
  std::string body, content, stop_type;
  std::vector<std::int64_t> tokens;
  double seconds = 0;
};

std::string ids_json(const std::vector<textedge::TokenId>& ids) {
  std::string out = "[";
  for (auto id : ids) out += (out.size() > 1 ? "," : "") + std::to_string(id);
  return out + "]";
}

const textedge::Tokenizer& qwen3() {
  static textedge::Tokenizer tok = textedge::Tokenizer::load(model_path("qwen3"));
  return tok;
}

// A chat prompt's ids (the weights are random: what it says does not matter).
const std::string& prompt_ids() {
  static std::string ids =
      ids_json(qwen3().encode("<|im_start|>user\nCall a tool.<|im_end|>\n<|im_start|>assistant\n"));
  return ids;
}

// The random model's logits are about eight times too peaked (its embeddings are not scaled) and
// it likes to repeat a token: at temperature 1 every seed writes the same text and numbers and
// strings run on to n_predict. Temperature 8 spreads the samples over the grammar's language,
// and a bias towards '"', ',', '}', ']', '@' and '<' ends strings, numbers, an email's local part
// and the digits before a tag, so most samples complete.
std::vector<std::pair<textedge::TokenId, int>> closing_bias() {
  std::vector<std::pair<textedge::TokenId, int>> bias;
  for (const char* text : {"\"", ",", "}", "]", "@", "<"}) bias.push_back({qwen3().encode(text).at(0), 80});
  return bias;
}

// POST /completion with grammar `grammar`; `extra` adds members to the request.
Sample complete(const test_support::LlamaServer& server, const std::string& grammar, int seed, int n_predict,
                const std::vector<std::pair<textedge::TokenId, int>>& bias, const std::string& extra = "") {
  std::string logit_bias;
  for (auto [id, b] : bias)
    logit_bias += (logit_bias.empty() ? "[" : ", [") + std::to_string(id) + ", " + std::to_string(b) + "]";
  std::string request =
      "{\"prompt\": " + prompt_ids() + ", \"n_predict\": " + std::to_string(n_predict) +
      ", \"seed\": " + std::to_string(seed) +
      ", \"temperature\": 8.0, \"top_k\": 0, \"top_p\": 1.0, \"min_p\": 0.0, \"logit_bias\": [" + logit_bias +
      "], \"return_tokens\": true, \"grammar\": " + textedge::detail::json_quote(grammar) + extra + "}";
  Sample s;
  auto start = std::chrono::steady_clock::now();
  auto response = server.post_json("/completion", request);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.status = response.status;
  s.body = response.body;
  if (s.status != 200) return s;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(s.body);
  s.content = std::string(doc["content"].get_string().value());
  s.stop_type = std::string(doc["stop_type"].get_string().value());
  for (auto t : doc["tokens"].get_array()) s.tokens.push_back(t.get_int64().value());
  return s;
}

// Samples `seeds` completions on the server's two slots at once.
std::vector<Sample> sample(const test_support::LlamaServer& server, const std::string& grammar, int seeds,
                           int n_predict = 256) {
  std::vector<Sample> out(seeds);
  auto work = [&](int first) {
    for (int k = first; k < seeds; k += 2) {
      try {
        out[k] = complete(server, grammar, 1000 + k, n_predict, closing_bias());
      } catch (const std::exception& e) {
        out[k].body = e.what();
      }
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  return out;
}

// Samples each case and checks every sample against the regex. Prints a line per case.
void check_samples(const std::vector<Case>& cases, int seeds) {
  auto* server = engine();
  if (!server) return;
  std::size_t total = 0, total_completed = 0, total_matched = 0;
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::string grammar = regex_to_gbnf(c.regex);
    Pcre re(c.regex);
    auto start = std::chrono::steady_clock::now();
    auto samples = sample(*server, grammar, seeds);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int completed = 0, matched = 0, prefixes = 0;
    for (auto& s : samples) {
      ASSERT_EQ(s.status, 200) << "llama-server refused the grammar:\n" << s.body << "\n" << server->log_tail();
      if (s.stop_type == "eos") {
        ++completed;
        bool ok = re.full_match(s.content);
        matched += ok;
        EXPECT_TRUE(ok) << "a completed sample does not match: " << s.content;
      } else {
        EXPECT_EQ(s.stop_type, "limit");
        bool ok = re.prefix_of_match(s.content);
        prefixes += ok;
        EXPECT_TRUE(ok) << "a sample cut at n_predict is not a prefix of a match: " << s.content;
      }
    }
    EXPECT_GE(completed, 1) << "no sample completed in " << seeds;
    total += samples.size();
    total_completed += completed;
    total_matched += matched;
    std::printf(
        "  %-34s regex %6zu B, grammar %6zu B: %zu samples, %d completed, %d matched, %d cut and prefixes  %5.1f s\n",
        c.name.c_str(), c.regex.size(), grammar.size(), samples.size(), completed, matched, prefixes, seconds);
    std::fflush(stdout);
  }
  std::printf("  %zu cases, %zu samples, %zu completed, %zu matched\n", cases.size(), total, total_completed,
              total_matched);
}

// llama.cpp reads every grammar: all the schema cases, every tool format (one call and
// parallel), and the largest "any value". A grammar it cannot read is refused, not ignored.
TEST(RegexToGbnfEngine, AcceptsEveryGrammar) {
  auto* server = engine();
  if (!server) return;
  auto cases = schema_cases();
  for (auto& c : tool_cases(kAllFormats, false)) cases.push_back(c);
  for (auto& c : tool_cases(kAllFormats, true)) cases.push_back(c);
  cases.push_back(any_value(3));
  for (auto& c : cases) {
    Sample s = complete(*server, regex_to_gbnf(c.regex), 1, 1, closing_bias());
    EXPECT_EQ(s.status, 200) << c.name << ": " << s.body;
  }
  Sample bad = complete(*server, "root ::= (\"a\"", 1, 1, {});
  EXPECT_NE(bad.status, 200) << bad.body;
  std::printf("  %zu grammars accepted; an unreadable one gets %d: %s\n", cases.size(), bad.status, bad.body.c_str());
}

TEST(RegexToGbnfEngine, SchemaSamplesMatchTheRegex) {
  check_samples(schema_cases({"object all required",
                              "object all optional",
                              "object required in middle",
                              "string enum",
                              "string lengths",
                              "integer range -5..1234",
                              "number range -2.5..10.75",
                              "array items bounds",
                              "prefixItems min and rest",
                              "nested objects",
                              "anyOf",
                              "oneOf disjoint objects",
                              "tool-like parameters",
                              "object in array in object",
                              "format date-time",
                              "format email",
                              "pattern with dot and classes",
                              "ref recursion linked list",
                              "unicode property names",
                              "enum mixed"}),
                4);  // 4 seeds: every case completed at least 4 of 6 when measured; CI time matters
}

// One test per tool call family (each a ctest of its own: they run in parallel, each within its
// own time limit), and the parallel forms of five.
class RegexToGbnfEngineTools : public ::testing::TestWithParam<std::string> {};

TEST_P(RegexToGbnfEngineTools, ToolCallSamplesMatchTheRegex) { check_samples(tool_cases({GetParam()}, false), 4); }

INSTANTIATE_TEST_SUITE_P(Families, RegexToGbnfEngineTools, ::testing::ValuesIn(kAllFormats),
                         [](const auto& info) { return info.param; });

TEST(RegexToGbnfEngine, ParallelToolCallSamplesMatchTheRegex) {
  check_samples(tool_cases({"hermes", "llama3_json", "mistral", "qwen3_coder", "pythonic"}, true), 4);
}

// Markers such as <tool_call> are single added tokens in Qwen3's vocabulary. llama.cpp's grammar
// matches every token by its text (control tokens included), so the model may write a marker as
// that one token or spell it in pieces; logit_bias makes it pick the token here. What the server
// then returns depends on the token's type: an added token that is not special (USER_DEFINED,
// like <tool_call>) is always in "content"; a control token (special, like <|im_start|>) is
// sampled but its text is left out of "content" unless the request lists it in
// "preserved_tokens" (or the server runs with --special).
TEST(RegexToGbnfEngine, SpecialTokenMarkers) {
  auto* server = engine();
  if (!server) return;
  auto id = [](const std::string& text) {
    auto ids = qwen3().encode(text);
    EXPECT_EQ(ids.size(), 1u) << text;
    return ids.at(0);
  };
  auto bias = [](textedge::TokenId token) {  // the closing bias, and the marker above everything
    auto b = closing_bias();
    b.push_back({token, 1000});
    return b;
  };

  std::string hermes = textedge::tool_call_pattern(kTools, "hermes", "add");
  auto tool_call = id("<tool_call>");
  Sample s = complete(*server, regex_to_gbnf(hermes), 7, 256, bias(tool_call));
  ASSERT_EQ(s.status, 200) << s.body;
  ASSERT_FALSE(s.tokens.empty());
  EXPECT_EQ(s.tokens[0], tool_call) << "the grammar did not let the model write <tool_call> as its token";
  EXPECT_TRUE(s.content.starts_with("<tool_call>\n")) << s.content;
  if (s.stop_type == "eos") EXPECT_TRUE(Pcre(hermes).full_match(s.content)) << s.content;

  std::string marked = "<\\|im_start\\|>[a-z]{3}";
  auto im_start = id("<|im_start|>");
  s = complete(*server, regex_to_gbnf(marked), 7, 16, bias(im_start));
  ASSERT_EQ(s.status, 200) << s.body;
  ASSERT_FALSE(s.tokens.empty());
  EXPECT_EQ(s.tokens[0], im_start) << "the grammar did not let the model write <|im_start|> as its token";
  EXPECT_EQ(s.stop_type, "eos");
  EXPECT_EQ(s.content.size(), 3u) << "the control token's text is not left out of content: " << s.content;
  EXPECT_FALSE(Pcre(marked).full_match(s.content));

  s = complete(*server, regex_to_gbnf(marked), 7, 16, bias(im_start), ", \"preserved_tokens\": [\"<|im_start|>\"]");
  ASSERT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(s.tokens.at(0), im_start);
  EXPECT_TRUE(Pcre(marked).full_match(s.content)) << "with preserved_tokens: " << s.content;
}

// Once the grammar is complete, only end-of-generation tokens are allowed; with "ignore_eos"
// those are banned too, nothing is left, and llama-server fails the request (500, "Unexpected
// empty grammar stack"). A server must not send ignore_eos with a grammar that can end.
TEST(RegexToGbnfEngine, IgnoreEosFailsOnceTheGrammarIsComplete) {
  auto* server = engine();
  if (!server) return;
  Sample s = complete(*server, regex_to_gbnf("ab"), 1, 8, {}, ", \"ignore_eos\": true");
  EXPECT_EQ(s.status, 500) << s.body;
  EXPECT_NE(s.body.find("empty grammar stack"), std::string::npos) << s.body;
  s = complete(*server, regex_to_gbnf("ab"), 1, 8, {});
  EXPECT_EQ(s.status, 200) << s.body;
  EXPECT_EQ(s.content, "ab");
  EXPECT_EQ(s.stop_type, "eos");
}

// `count` tools of four arguments each: a large grammar with little to share.
std::string many_tools(int count) {
  std::string tools = "[";
  for (int i = 0; i < count; ++i) {
    std::string units;
    for (int u = 0; u < 10; ++u)
      units += (u ? ", \"unit" : "\"unit") + std::to_string(i) + "_" + std::to_string(u) + "\"";
    tools += (i ? ", " : "") + std::string("{\"type\": \"function\", \"function\": {\"name\": \"tool_") +
             std::to_string(i) +
             "\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", "
             "\"maxLength\": 20}, \"unit\": {\"enum\": [" +
             units +
             "]}, \"n\": {\"type\": \"integer\", \"minimum\": 1, "
             "\"maximum\": 100}, \"flag\": {\"type\": \"boolean\"}}, \"required\": [\"city\"]}}}";
  }
  return tools + "]";
}

// What a large grammar costs in llama-server: a request of one token (reading the grammar,
// setting up its parse, one step) and the time per token of a longer one (without the closing
// bias: every step masks the whole vocabulary, since the random model's first pick is rarely
// allowed), beside a one-rule grammar. Printed, not asserted: the machine's load decides them.
TEST(RegexToGbnfEngine, LargeGrammarCost) {
  auto* server = engine();
  if (!server) return;
  std::vector<Case> cases = {{"[a-z]+", "[a-z]+"},
                             any_value(3),
                             {"hermes, 100 tools", textedge::tool_call_pattern(many_tools(100), "hermes")}};
  for (auto& c : cases) {
    std::string grammar = regex_to_gbnf(c.regex);
    Sample first = complete(*server, grammar, 1, 1, closing_bias());
    ASSERT_EQ(first.status, 200) << first.body;
    Sample longer = complete(*server, grammar, 2, 32, {});
    ASSERT_EQ(longer.status, 200) << longer.body;
    std::printf("  %-26s regex %6zu B, grammar %6zu B: 1 token in %5.1f ms; %2zu tokens at %5.1f ms each\n",
                c.name.c_str(), c.regex.size(), grammar.size(), first.seconds * 1000, longer.tokens.size(),
                longer.seconds * 1000 / std::max<std::size_t>(1, longer.tokens.size()));
  }
}

}  // namespace
