// JSON Schema -> regex: for every schema of tests/data/schema_cases.json the regex must fully
// match exactly the texts python3-jsonschema labelled valid (BUILD/goldens/schema.jsonl, written
// by tools/reference/schema_goldens.py through scripts/goldens.sh), and nothing else.
#include <gtest/gtest.h>
#include <simdjson.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "base/json_dom.hpp"
#include "support/reference_util.hpp"
#include "textedge/schema.hpp"

namespace {

// A regex compiled as the docs say it is meant to run: UTF mode, the whole text.
class FullMatch {
 public:
  explicit FullMatch(const std::string& pattern) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                          PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED, &error, &offset, nullptr);
    if (!code_) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      error_ = std::string(reinterpret_cast<char*>(message)) + " at offset " + std::to_string(offset);
      return;
    }
    pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE);
    data_ = pcre2_match_data_create_from_pattern(code_, nullptr);
  }
  ~FullMatch() {
    if (data_) pcre2_match_data_free(data_);
    if (code_) pcre2_code_free(code_);
  }
  FullMatch(const FullMatch&) = delete;
  FullMatch& operator=(const FullMatch&) = delete;
  const std::string& error() const { return error_; }
  bool matches(std::string_view text) const {
    int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data_, nullptr);
    if (rc < -1) ADD_FAILURE() << "pcre2_match error " << rc << " on " << text;
    return rc >= 0;
  }

 private:
  pcre2_code* code_ = nullptr;
  pcre2_match_data* data_ = nullptr;
  std::string error_;
};

std::string minify(simdjson::dom::element e) { return simdjson::minify(e); }

TEST(JsonSchemaRegex, MatchesExactlyTheValidTexts) {
  std::string golden_path = reference::goldens_dir() + "/schema.jsonl";
  auto cases_doc = textedge::detail::JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/schema_cases.json");
  std::map<std::string, std::unique_ptr<FullMatch>> regexes;
  std::map<std::string, std::string> sources;
  for (auto& c : cases_doc.root().array()) {
    std::string name(c.get("name").str());
    std::string schema = minify(c.get("schema").raw());
    std::string re = textedge::json_schema_regex(schema);
    sources[name] = re;
    regexes[name] = std::make_unique<FullMatch>(re);
    ASSERT_EQ(regexes[name]->error(), "") << name << ": " << re.substr(0, 300) << " (" << re.size() << " bytes)";
  }
  ASSERT_GE(regexes.size(), 40u);

  // Read through reference::read_goldens, which checks the end line's count of texts.
  std::size_t checked = 0, valid = 0, failures = 0;
  std::map<std::string, std::size_t> per_case;
  std::string name, text;
  bool expected = false, is_case = false;
  auto field = [&](std::string_view key, simdjson::ondemand::value v, const std::string& where) {
    if (key == "case") {
      name = reference::detail::get_string(v, where);
      is_case = true;
    } else if (key == "text") {
      text = reference::detail::get_string(v, where);
    } else if (key == "valid") {
      reference::detail::check(v.get_bool().get(expected), where);
    }
  };
  reference::read_goldens(golden_path, field, [&](std::size_t line) {
    if (!is_case) return false;
    is_case = false;
    auto it = regexes.find(name);
    if (it == regexes.end()) {
      ADD_FAILURE() << golden_path << ":" << line << ": golden case " << name
                    << " not in schema_cases.json (stale goldens?)";
      return true;
    }
    bool got = it->second->matches(text);
    ++checked;
    valid += expected;
    ++per_case[name];
    if (got != expected && ++failures <= 25)
      ADD_FAILURE() << name << ": " << (expected ? "valid text rejected: " : "invalid text accepted: ") << text;
    return true;
  });
  EXPECT_EQ(failures, 0u);
  EXPECT_GT(valid, 500u);
  EXPECT_EQ(per_case.size(), regexes.size()) << "every case has goldens";
  std::printf("checked %zu texts (%zu valid) over %zu schemas\n", checked, valid, regexes.size());
}

std::string error_of(const std::string& schema) {
  try {
    textedge::json_schema_regex(schema);
  } catch (const textedge::SchemaError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonSchemaRegex, UnsupportedKeywordsNameThemselvesAndTheirPath) {
  EXPECT_EQ(error_of(R"({"type":"object","properties":{"a":{"type":"integer","multipleOf":3}}})"),
            "JSON Schema at $.properties.a.multipleOf: unsupported keyword \"multipleOf\"");
  EXPECT_EQ(error_of(R"({"type":"array","uniqueItems":true})"), "JSON Schema at $.uniqueItems: unsupported keyword \"uniqueItems\"");
  EXPECT_NE(error_of(R"({"type":"string","format":"hostname"})").find("$.format: unsupported format \"hostname\""), std::string::npos);
  EXPECT_NE(error_of(R"({"type":"string","pattern":"(?=a)b"})").find("lookaround"), std::string::npos);
  EXPECT_NE(error_of(R"({"type":"string","pattern":"(a)\\1"})").find("backreference"), std::string::npos);
  EXPECT_NE(error_of(R"({"type":"string","pattern":"a+?"})").find("lazy"), std::string::npos);
  EXPECT_NE(error_of(R"({"$ref":"other.json#/x"})").find("$[\"$ref\"]: only local references"), std::string::npos);
  EXPECT_NE(error_of(R"({"$ref":"#/$defs/missing"})").find("does not resolve"), std::string::npos);
  EXPECT_EQ(error_of(R"({"type":"number","minimum":0,"multipleOf":0.5})"),
            "JSON Schema at $.multipleOf: unsupported keyword \"multipleOf\"");
  EXPECT_NE(error_of(R"({"type":"number","exclusiveMinimum":true})").find("$.exclusiveMinimum: boolean"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"type":"number","maximum":"5"})").find("$.maximum"), std::string::npos);
  // Bounds are exact up to 100 digits before and after the point; beyond, refused...
  EXPECT_NE(error_of(R"({"type":"number","minimum":1e-300})").find("$.minimum: bound 1e-300 is unsupported"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"type":"integer","minimum":1e300})").find("$.minimum"), std::string::npos);
  // ...except the outer ones, which exclude no number written in full and are dropped.
  EXPECT_EQ(error_of(R"({"type":"number","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308})"), "");
  EXPECT_NE(error_of(R"({"type":"integer","minimum":5,"exclusiveMaximum":5})").find("no value satisfies"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"type":"string","minLength":"x"})").find("$.minLength"), std::string::npos);
  EXPECT_NE(error_of(R"({"type":)").find("invalid JSON"), std::string::npos);
  EXPECT_NE(error_of("false").find("no value satisfies"), std::string::npos);
  // Annotations and x- extensions are fine.
  EXPECT_EQ(error_of(R"({"type":"string","title":"t","description":"d","examples":["a"],"x-vendor":1})"), "");
}

// A "pattern" that is not a regular expression is refused, never passed on into a regex that
// does not compile (found by tests/fuzz/fuzz_schema.cpp).
TEST(JsonSchemaRegex, PatternThatIsNotARegexIsRefused) {
  for (const char* pattern : {"^[a-z]+-[0-9]{2,0}$", "(ab", "ab)", "[z-a]", "*a", "a{3,1}b"}) {
    std::string schema = std::string(R"({"type":"string","pattern":")") + pattern + "\"}";
    EXPECT_NE(error_of(schema).find("JSON Schema at $.pattern: pattern is not a valid regular expression"),
              std::string::npos)
        << pattern;
  }
  EXPECT_EQ(error_of(R"({"type":"string","pattern":"^(a|b){2,3}[0-9]+$"})"), "");
}

// The regex with each class replaced by 'C' and each escape by 'E', so that only its structure
// is left to inspect.
std::string skeleton(const std::string& re) {
  std::string out;
  for (std::size_t i = 0; i < re.size(); ++i) {
    if (re[i] == '\\') {
      ++i;
      out += 'E';
    } else if (re[i] == '[') {
      for (++i; i < re.size() && re[i] != ']'; ++i)
        if (re[i] == '\\') ++i;
      out += 'C';
    } else {
      out += re[i];
    }
  }
  return out;
}

TEST(JsonSchemaRegex, OnlyDfaFriendlyConstructs) {
  auto cases_doc = textedge::detail::JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/tests/data/schema_cases.json");
  for (auto& c : cases_doc.root().array()) {
    std::string s = skeleton(textedge::json_schema_regex(minify(c.get("schema").raw())));
    // No lookaround, atomic group, lazy or possessive quantifier, backreference (\E digits are
    // gone with the escapes; there are no capture groups to refer to): every '(' is '(?:'.
    for (const char* bad : {"*?", "+?", "??", "}?", "*+", "++", "?+", "}+"})
      EXPECT_EQ(s.find(bad), std::string::npos) << c.get("name").str() << " uses " << bad;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] == '(') EXPECT_EQ(s.compare(i, 3, "(?:"), 0) << c.get("name").str() << " at " << i;
  }
}

TEST(JsonSchemaRegex, OptionalMembersStayLinear) {
  // 60 optional properties: the regex grows linearly (each member's regex appears twice).
  std::string schema = R"({"type":"object","additionalProperties":false,"properties":{)";
  for (int i = 0; i < 60; ++i) schema += (i ? "," : "") + std::string("\"p") + std::to_string(i) + R"(":{"type":"boolean"})";
  schema += "}}";
  std::string re = textedge::json_schema_regex(schema);
  EXPECT_LT(re.size(), 60u * 2 * 40);
  FullMatch m(re);
  ASSERT_EQ(m.error(), "");
  EXPECT_TRUE(m.matches("{}"));
  EXPECT_TRUE(m.matches(R"({"p3":true,"p17":false,"p59":true})"));
  EXPECT_FALSE(m.matches(R"({"p17":false,"p3":true})"));  // schema order only
  EXPECT_FALSE(m.matches(R"({,"p3":true})"));
  EXPECT_FALSE(m.matches(R"({"p3":true,})"));
}

// Other property names than the declared ones are spelled character by character; a name with
// non-ASCII characters must not be cut into bytes (the regex would not be UTF-8 and would not
// compile; found by tests/fuzz/fuzz_schema.cpp).
TEST(JsonSchemaRegex, OtherPropertyNamesKeepNonAsciiCharactersWhole) {
  FullMatch m(textedge::json_schema_regex(
      R"({"type":"object","properties":{"é":{"type":"integer"},"éb":{"type":"null"},"日本":{"type":"boolean"}},)"
      R"("additionalProperties":{"type":"string"}})"));
  ASSERT_EQ(m.error(), "");
  EXPECT_TRUE(m.matches(R"({"é":1})"));
  EXPECT_TRUE(m.matches(R"({"é":1,"ü":"x"})"));
  EXPECT_TRUE(m.matches(R"({"日":"y","ê":"z"})"));
  EXPECT_FALSE(m.matches(R"({"é":"s"})"));
  EXPECT_FALSE(m.matches(R"({"é":1,"é":2})"));  // a declared name is not another name
}

// Each character of a declared name nests one group deeper in the regex for the other names; that
// regex is written in time linear in the name (it was quadratic: 28 s for a 20,000-character name,
// found by tests/fuzz/fuzz_schema.cpp as a slow input). The bound is loose on purpose.
TEST(JsonSchemaRegex, LongPropertyNamesTakeLinearTime) {
  std::string schema = R"({"type":"object","properties":{")" + std::string(20'000, 'a') + R"(":{"type":"integer"}}})";
  auto start = std::chrono::steady_clock::now();
  std::string re = textedge::json_schema_regex(schema);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_LT(re.size(), 200u * 20'000);
}

TEST(JsonSchemaRegex, StrictTreatsMissingAdditionalPropertiesAsFalse) {
  std::string schema = R"({"type":"object","properties":{"a":{"type":"integer"}}})";
  FullMatch loose(textedge::json_schema_regex(schema));
  textedge::SchemaRegexOptions strict_options;
  strict_options.strict = true;
  FullMatch strict(textedge::json_schema_regex(schema, strict_options));
  EXPECT_TRUE(loose.matches(R"({"a":1,"b":2})"));
  EXPECT_FALSE(strict.matches(R"({"a":1,"b":2})"));
  EXPECT_TRUE(strict.matches(R"({"a":1})"));
}

TEST(JsonSchemaRegex, RecursionIsCutAtTheDepthLimit) {
  std::string schema = R"({"$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"})";
  textedge::SchemaRegexOptions options;
  options.max_depth = 3;
  FullMatch m(textedge::json_schema_regex(schema, options));
  EXPECT_TRUE(m.matches(R"({"c":{"c":{}}})"));   // three levels
  EXPECT_FALSE(m.matches(R"({"c":{"c":{"c":{}}}})"));  // four
}

TEST(JsonSchemaRegex, BoundedNumbersAreExactAndWithoutExponent) {
  FullMatch m(textedge::json_schema_regex(R"({"type":"number","exclusiveMinimum":-0.5,"maximum":0.25})"));
  ASSERT_EQ(m.error(), "");
  for (const char* ok : {"0", "-0", "0.0", "-0.4999999999999999999999", "0.25", "0.2500000", "0.1", "-0.000001"})
    EXPECT_TRUE(m.matches(ok)) << ok;
  for (const char* bad :
       {"-0.5", "-0.50", "0.2500000000000000000001", "0.26", "1", "-1", "2.5e-1", "1E-1", ".1", "00.1", "0."})
    EXPECT_FALSE(m.matches(bad)) << bad;
  // An integer's fractional or exclusive bounds round inwards; -0 is zero.
  FullMatch i(textedge::json_schema_regex(R"({"type":"integer","minimum":-1.5,"exclusiveMaximum":2})"));
  for (const char* ok : {"-1", "-0", "0", "1"}) EXPECT_TRUE(i.matches(ok)) << ok;
  for (const char* bad : {"-2", "2", "1.0", "-1.5"}) EXPECT_FALSE(i.matches(bad)) << bad;
}

// A decimal text (at most 18 digits before and 18 after the point, no exponent) as an exact
// fixed-point value scaled by 10^18: the check below compares numbers without going through the
// regex compiler's own decimal code.
__int128 fixed_point(const std::string& text) {
  bool negative = text[0] == '-';
  std::size_t i = negative, point = text.find('.');
  __int128 value = 0;
  std::size_t end = point == std::string::npos ? text.size() : point;
  for (; i < end; ++i) value = value * 10 + (text[i] - '0');
  for (int k = 0; k < 18; ++k) {
    std::size_t at = point == std::string::npos ? std::string::npos : point + 1 + k;
    value = value * 10 + (at < text.size() ? text[at] - '0' : 0);
  }
  return negative ? -value : value;
}

TEST(JsonSchemaRegex, BoundedRangesAgreeWithExactComparison) {
  std::mt19937 rng(20261130);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto digit_string = [&](int n, bool leading_nonzero) {
    std::string s;
    for (int k = 0; k < n; ++k) s += static_cast<char>('0' + (k == 0 && leading_nonzero ? 1 + pick(9) : pick(10)));
    return s;
  };
  auto decimal = [&](bool bound) {  // bounds: no trailing fraction zeros (as a schema writes them)
    std::string s = pick(3) == 0 ? "-" : "";
    int whole_digits = pick(4);
    s += whole_digits == 0 ? "0" : digit_string(whole_digits, true);
    int fraction_digits = pick(bound ? 5 : 12);
    if (fraction_digits) {
      std::string f = pick(4) == 0
                          ? std::string(static_cast<std::size_t>(pick(6)), '0') + digit_string(fraction_digits, false)
                          : digit_string(fraction_digits, false);
      if (bound) f.erase(f.find_last_not_of('0') + 1);
      if (!f.empty()) s += "." + f.substr(0, 17);
    }
    return s == "-0" && bound ? std::string("0") : s;
  };
  std::size_t checked = 0, accepted = 0;
  for (int round = 0; round < 400; ++round) {
    bool integer = pick(3) == 0;
    std::string schema = std::string(R"({"type":")") + (integer ? "integer" : "number") + "\"";
    struct Limit {
      bool lower, inclusive;
      std::string text;
    };
    std::vector<Limit> limits;
    for (const char* key : {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"}) {
      if (pick(2)) continue;
      std::string key_s = key;
      limits.push_back({key_s.find("inimum") != std::string::npos, !key_s.starts_with("exclusive"), decimal(true)});
      schema += ",\"" + key_s + "\":" + limits.back().text;
    }
    schema += "}";
    std::string re;
    try {
      re = textedge::json_schema_regex(schema);
    } catch (const textedge::SchemaError& e) {
      ASSERT_NE(std::string(e.what()).find("no value satisfies"), std::string::npos) << schema << ": " << e.what();
      re = "(?!)";  // unsatisfiable: nothing may be valid below
    }
    FullMatch m(re);
    ASSERT_EQ(m.error(), "") << schema;
    std::vector<std::string> texts;
    for (int k = 0; k < 60; ++k) texts.push_back(decimal(false));
    for (auto& l : limits) {  // the bound itself, just inside and just outside it
      texts.push_back(l.text);
      texts.push_back(l.text + (l.text.find('.') == std::string::npos ? ".0" : "0"));
      texts.push_back(l.text + (l.text.find('.') == std::string::npos ? ".000001" : "000001"));
      if (l.text.find('.') == std::string::npos)
        texts.push_back((l.text == "0" ? "-" : "") + l.text + (l.text == "0" ? "" : "1"));
    }
    for (auto& text : texts) {
      if (text.size() - text.find('.') > 19 && text.find('.') != std::string::npos) continue;
      __int128 x = fixed_point(text);
      bool valid = !integer || text.find('.') == std::string::npos;
      for (auto& l : limits) {
        __int128 b = fixed_point(l.text);
        if (l.lower)
          valid = valid && (l.inclusive ? x >= b : x > b);
        else
          valid = valid && (l.inclusive ? x <= b : x < b);
      }
      EXPECT_EQ(m.matches(text), valid) << schema << " on " << text;
      ++checked;
      accepted += valid;
    }
  }
  EXPECT_GT(accepted, 2000u);
  std::printf("checked %zu texts (%zu in range) over 400 random bounded schemas\n", checked, accepted);
}

TEST(JsonSchemaRegex, OneOfIsAnAlternation) {
  // Like llama.cpp, outlines and xgrammar's fallback: a value matching two branches is accepted
  // (JSON Schema would reject it; docs/schema.md).
  FullMatch m(textedge::json_schema_regex(R"({"oneOf":[{"type":"integer"},{"type":"number","minimum":0}]})"));
  EXPECT_TRUE(m.matches("5"));
  EXPECT_TRUE(m.matches("-5"));
  EXPECT_TRUE(m.matches("0.5"));
  EXPECT_FALSE(m.matches("-0.5"));
}

TEST(JsonSchemaRegex, AnyDepthBoundsUnconstrainedNesting) {
  for (int depth : {0, 1, 2}) {  // depth 3 is beyond what PCRE2 compiles by default (docs/schema.md)
    textedge::SchemaRegexOptions options;
    options.any_depth = depth;
    FullMatch m(textedge::json_schema_regex(R"({"type":"object","properties":{"v":{}},"additionalProperties":false})",
                                            options));
    ASSERT_EQ(m.error(), "") << depth;
    std::string nested = "1", deeper;
    for (int level = 0; level < depth; ++level) nested = level % 2 ? R"({"k":)" + nested + "}" : "[" + nested + "]";
    deeper = "[" + nested + "]";
    EXPECT_TRUE(m.matches(R"({"v":)" + nested + "}")) << depth;
    EXPECT_FALSE(m.matches(R"({"v":)" + deeper + "}")) << depth;
  }
}

}  // namespace
