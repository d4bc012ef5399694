// The JSON reader (src/chat/jinja/json_reader.cpp) against Python's json.loads: the expected values
// are repr(json.loads(text)) from /usr/bin/python3, and invalid text must be refused with the
// byte offset of the fault, never crash or be read partly.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "chat/jinja/runtime.hpp"
#include "chat/jinja/template.hpp"
#include "support/pretty_json.hpp"

namespace textedge::detail::jinja {
namespace {

using test_support::pretty_printed;

// A random document of `atoms`, containers nested below `depth` up to four levels, members
// separated inline or by pretty JSON's line breaks, keys "k0" to "k9" (repeats included).
std::string random_json(std::mt19937& rng, std::span<const char* const> atoms, int depth = 0) {
  int kind = depth > 3 ? 0 : static_cast<int>(rng() % 3);
  if (kind == 0) return atoms[rng() % atoms.size()];
  std::string out(1, kind == 1 ? '[' : '{');
  int n = static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) {
    if (i) out += rng() % 2 ? ", " : ",\n  ";
    if (kind == 2) out += "\"k" + std::to_string(rng() % 10) + "\": ";
    out += random_json(rng, atoms, depth + 1);
  }
  return out + (kind == 1 ? ']' : '}');
}

// Both ways of reading must agree: owned values, and values in an arena viewing the text.
std::string repr_both_ways(const std::string& json) {
  std::string owned = read_json(json, nullptr).repr();
  ValueArena arena;
  std::string in_arena = read_json(json, &arena).repr();
  EXPECT_EQ(owned, in_arena) << json;
  return owned;
}

TEST(JsonReader, ValuesAsPythonReadsThem) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"a": [1, 2.5, "x\u00e9", null, true, false], "b": {}})",
       "{'a': [1, 2.5, 'xé', None, True, False], 'b': {}}"},
      {"[]", "[]"},
      {"[[]]", "[[]]"},
      {"{}", "{}"},
      {R"("plain")", "'plain'"},
      {R"("tab\tnew\nline \"q\" back\\slash \/ \b\f\r")", R"('tab\tnew\nline "q" back\\slash / \x08\x0c\r')"},
      {R"("\ud83d\ude00 and \u00e9 and \u4e2d")", "'😀 and é and 中'"},
      {R"("°C and 中文 and 😀")", "'°C and 中文 and 😀'"},
      {R"("\u0000")", R"('\x00')"},
      {"-0", "0"},
      {"0", "0"},
      {"-9223372036854775808", "-9223372036854775808"},
      {"9223372036854775807", "9223372036854775807"},
      {"1e2", "100.0"},
      {"1E-2", "0.01"},
      {"-0.0", "-0.0"},
      {"2.5e+3", "2500.0"},
      {"0.1", "0.1"},
      {"1e400", "inf"},
      {"-1e400", "-inf"},
      {"1e-400", "0.0"},
      {R"({"k": 1, "k": 2})", "{'k': 2}"},
      {R"({"a": 1, "b": 2, "a": 3})", "{'a': 3, 'b': 2}"},
      // Over eight keys the dict has a hash index: duplicates still keep the first position.
      {R"({"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k3": "x", "k0": null})",
       "{'k0': None, 'k1': 1, 'k2': 2, 'k3': 'x', 'k4': 4, 'k5': 5, 'k6': 6, 'k7': 7, 'k8': 8, 'k9': 9}"},
      {" \n\t\r [ 1 , 2 ] \n", "[1, 2]"},
      {R"(["a long string that crosses several sixteen-byte blocks before its \"escape\" and its end"])",
       R"(['a long string that crosses several sixteen-byte blocks before its "escape" and its end'])"},
  };
  for (auto& [json, expected] : cases) EXPECT_EQ(repr_both_ways(json), expected) << json;
}

// The reader's fast paths work on 16-byte blocks: strings of at most 16 plain bytes, and a
// newline followed by indentation spaces. Their edges, against json.loads.
TEST(JsonReader, BlockEdgesAsPythonReadsThem) {
  auto repeat = [](int n, char c) { return std::string(static_cast<std::size_t>(n), c); };
  const std::pair<std::string, std::string> cases[] = {
      {"[\"" + repeat(15, 'a') + "\", \"" + repeat(16, 'b') + "\", \"" + repeat(17, 'c') + "\"]",
       "['" + repeat(15, 'a') + "', '" + repeat(16, 'b') + "', '" + repeat(17, 'c') + "']"},
      {"\"" + repeat(15, 'x') + "\"", "'" + repeat(15, 'x') + "'"},
      {"\"" + repeat(16, 'x') + "\"", "'" + repeat(16, 'x') + "'"},
      {"\"" + repeat(17, 'x') + "\"", "'" + repeat(17, 'x') + "'"},
      // An escape as the 16th byte, and right after 16 plain bytes.
      {"[\"" + repeat(15, 'd') + "\\\\\", \"" + repeat(16, 'e') + "\\\"x\"]",
       "['" + repeat(15, 'd') + "\\\\', '" + repeat(16, 'e') + "\"x']"},
      // Keys with escapes, an empty key, and keys that are the same once unescaped.
      {R"({"k\"ey": 1, "\u00e9": 2, "": 3, "a\\b": 4, "kkkkkkkkkkkkkkkk": 5})",
       R"({'k"ey': 1, 'é': 2, '': 3, 'a\\b': 4, 'kkkkkkkkkkkkkkkk': 5})"},
      {R"({"\u0061": 1, "a": 2, "": 3, "": 4})", "{'a': 2, '': 4}"},
      // Indentation of 15, 16, 17 and 20 spaces; tabs and carriage returns in it; blank lines.
      {"{\n" + repeat(20, ' ') + "\"a\": [\n" + repeat(15, ' ') + "1,\n" + repeat(16, ' ') + "2,\n" + repeat(17, ' ') +
           "3\n" + repeat(14, ' ') + "]\n}",
       "{'a': [1, 2, 3]}"},
      {"{\n\t\"a\": 1,\r\n  \"b\":\t[\n \t 2 ,\n\n   3 ]\r\n}", "{'a': 1, 'b': [2, 3]}"},
      {"[\n" + repeat(40, ' ') + "\"x\",\n\n" + repeat(3, ' ') + "\n" + repeat(33, ' ') + "{}\n]", "['x', {}]"},
      {"{\"a\" :  1 , \"b\"\n:\n2}", "{'a': 1, 'b': 2}"},
  };
  for (auto& [json, expected] : cases) EXPECT_EQ(repr_both_ways(json), expected) << json;
}

// Past the scratch the reader keeps between reads (4096 members in flight), and read again after
// it was given back.
TEST(JsonReader, HugeContainersTwiceInARow) {
  for (int round = 0; round < 2; ++round) {
    std::string json = "[";
    for (int i = 0; i < 20000; ++i) json += (i ? ", [\"a\\nb\", " : "[\"a\\nb\", ") + std::to_string(i) + "]";
    json += "]";
    ValueArena arena;
    Value v = read_json(json, &arena);
    ASSERT_EQ(v.items().size(), 20000u);
    EXPECT_EQ(v.items()[19999].items()[1].as_int(), 19999);
    EXPECT_EQ(v.items()[7].items()[0].str(), "a\nb");
    Value owned = value_from_json(json);
    EXPECT_EQ(owned.items()[12345].items()[1].as_int(), 12345);
  }
}

TEST(JsonReader, LargeDictsFindEveryKey) {
  std::string json = "{";
  for (int i = 0; i < 300; ++i) json += (i ? ", \"key" : "\"key") + std::to_string(i) + "\": " + std::to_string(i);
  json += ", \"key7\": -7}";
  ValueArena arena;
  Value v = read_json(json, &arena);
  ASSERT_EQ(v.dict().size(), 300u);
  for (int i = 0; i < 300; ++i) {
    const Value* x = v.dict().find(std::string_view("key" + std::to_string(i)));
    ASSERT_NE(x, nullptr) << i;
    EXPECT_EQ(x->as_int(), i == 7 ? -7 : i);
  }
  EXPECT_EQ(v.dict().find(std::string_view("key300")), nullptr);
}

// Refused with a fault at `offset` and a reason, with or without an arena.
void expect_refused(const std::string& json, std::size_t offset) {
  for (bool arena : {false, true}) {
    ValueArena storage;
    try {
      read_json(json, arena ? &storage : nullptr);
      ADD_FAILURE() << "accepted: " << json;
    } catch (const JsonSyntaxError& e) {
      EXPECT_EQ(e.offset(), offset) << json << ": " << e.what();
      EXPECT_FALSE(e.reason().empty());
    }
  }
}

TEST(JsonReader, RefusesInvalidTextWithItsOffset) {
  const std::pair<const char*, std::size_t> cases[] = {
      {"", 0},
      {"   ", 3},
      {"{bad json", 1},
      {"[1, 2", 5},
      {"[1, 2,]", 6},
      {R"({"a" 1})", 5},
      {R"({"a": 1,})", 8},
      {"[01]", 2},
      {"[1.]", 3},
      {"[-]", 2},
      {"[1e]", 3},
      {"NaN", 0},
      {"Infinity", 0},
      {"tru", 0},
      {"[true false]", 6},
      {"\"unterminated", 13},
      {"\"bad \\x escape\"", 5},
      {"\"\\u12\"", 3},
      {"\"\\ud83d alone\"", 7},
      {"\"\\ude00 alone\"", 7},
      {"\"tab\tinside\"", 4},
      {"\"\xff\"", 1},
      {"\"\xc0\xaf overlong\"", 1},
      {"\"\xed\xa0\x80 surrogate\"", 1},
      {"\"\xe2\x82 cut\"", 1},
      {"99999999999999999999", 0},
      {"[1] [2]", 4},
      {"\xef\xbb\xbf[]", 0},
  };
  for (auto& [json, offset] : cases) expect_refused(json, offset);
  EXPECT_THROW(value_from_json("{bad json"), TemplateError);
}

// At the edges of the reader's 16-byte blocks (see BlockEdgesAsPythonReadsThem).
TEST(JsonReader, RefusesInvalidTextAtBlockEdges) {
  auto repeat = [](int n, char c) { return std::string(static_cast<std::size_t>(n), c); };
  const std::pair<std::string, std::size_t> cases[] = {
      {"\"" + repeat(16, 'x'), 17},
      {"\"" + repeat(15, 'x') + "\t\"", 16},
      {"\"" + repeat(16, 'x') + "\\", 18},
      {"[\"" + repeat(16, 'e') + "\\x\"]", 18},
      {"[1,\n" + repeat(20, ' '), 24},
      {"{\n" + repeat(20, ' '), 22},
      {"[1\n" + repeat(16, ' ') + "x]", 19},
      {"{\"a\":\n" + repeat(16, ' ') + "}", 22},
      {"[1,\n" + repeat(15, ' ') + "\x01]", 19},
      {"{\"" + repeat(16, 'k') + "\"\n" + repeat(17, ' ') + "1}", 37},
      {"{\"a\": \n" + repeat(15, ' ') + "\"b\"\n" + repeat(15, ' ') + "\"c\"}", 41},
  };
  for (auto& [json, offset] : cases) expect_refused(json, offset);
}

// The text is a view with nothing after it: every prefix of a pretty request, each in a heap
// block of its exact size (a read past its end is caught under the address sanitizer), is read
// or refused, and only the whole of it is read.
TEST(JsonReader, ReadsNothingPastTheEndOfTheText) {
  std::string json =
      "{\n \"messages\": [\n  {\n   \"role\": \"user\",\n   \"content\": \"sixteen bytes ok\"\n  },\n"
      "  {\n                    \"k\": \"a \\\"quoted\\\" °C string\",\n   \"n\": [1, 2.5, true, null]\n  }\n ]\n}";
  for (std::size_t n = 0; n <= json.size(); ++n) {
    auto exact = std::make_unique<char[]>(n ? n : 1);
    std::memcpy(exact.get(), json.data(), n);
    ValueArena arena;
    try {
      read_json(std::string_view(exact.get(), n), &arena);
      EXPECT_EQ(n, json.size());
    } catch (const JsonSyntaxError& e) {
      EXPECT_LT(n, json.size());
      EXPECT_LE(e.offset(), n);
    }
  }
}

TEST(JsonReader, RefusesNestingDeeperThanItsLimit) {
  std::string deep(100000, '[');
  EXPECT_THROW(read_json(deep, nullptr), JsonSyntaxError);
  std::string ok = std::string(900, '[') + std::string(900, ']');
  ValueArena arena;
  EXPECT_NO_THROW(read_json(ok, &arena));
}

// What tojson writes, the reader reads back to the same values, and every strict prefix or
// corrupted byte is either read or refused (never a crash, never half a document).
// Strings long enough for the AVX-512 reader's 64-byte blocks (and the 16-byte ones), made of
// random pieces (ASCII runs, two- to four-byte characters at UTF-8's range edges, escapes), at
// random places in their blocks: read, each is its pieces' text; with one byte changed, read_json
// refuses it exactly as check_json (which checks byte by byte) does, same reason, same offset,
// also when it skips it unread.
TEST(JsonReader, LongStringsOfPiecesAsCheckedByteByByte) {
  struct Piece {
    const char* json;
    const char* text;
  };
  const Piece pieces[] = {
      {"a", "a"},
      {"xyz", "xyz"},
      {"0123456789abcdef", "0123456789abcdef"},
      {"\xc3\xa9", "\xc3\xa9"},                  // é
      {"\xc2\x80", "\xc2\x80"},                  // U+0080
      {"\xe2\x82\xac", "\xe2\x82\xac"},          // €
      {"\xe0\xa0\x80", "\xe0\xa0\x80"},          // U+0800
      {"\xed\x9f\xbf", "\xed\x9f\xbf"},          // U+D7FF
      {"\xef\xbf\xbf", "\xef\xbf\xbf"},          // U+FFFF
      {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},  // 😀
      {"\xf0\x90\x80\x80", "\xf0\x90\x80\x80"},  // U+10000
      {"\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"},  // U+10FFFF
      {"\\n", "\n"},
      {"\\\"", "\""},
      {"\\\\", "\\"},
      {"\\/", "/"},
      {"\\t", "\t"},
      {"\\u00e9", "\xc3\xa9"},
      {"\\ud83d\\ude00", "\xf0\x9f\x98\x80"},
  };
  const char corrupt[] = {'"',    '\\',   '\x01', '\x1f', '\x7f', '\x80', '\xbf', '\xc0', '\xc1', '\xc2',
                          '\xdf', '\xe0', '\xed', '\xef', '\xf0', '\xf4', '\xf5', '\xff', 'u',    ' '};
  auto error_of = [](auto&& read) -> std::string {
    try {
      read();
    } catch (const JsonSyntaxError& e) {
      return e.reason() + " at " + std::to_string(e.offset());
    }
    return "";
  };
  std::mt19937 rng(11);
  for (int round = 0; round < 600; ++round) {
    std::string json = "[" + std::string(rng() % 64, ' ') + "\"", text;
    const std::size_t first = json.size();
    for (int n = static_cast<int>(rng() % 80); n > 0; --n) {
      const Piece& piece = pieces[rng() % std::size(pieces)];
      json += piece.json;
      text += piece.text;
    }
    const std::size_t last = json.size();
    json += "\", 1]" + std::string(rng() % 80, ' ');
    ValueArena arena;
    Value v = read_json(json, &arena);
    ASSERT_TRUE(v.is_list()) << json;
    EXPECT_EQ(v.items()[0].str(), text) << json;
    EXPECT_EQ(read_json(json, nullptr).items()[0].str(), text) << json;
    for (int k = 0; k < 12 && last > first; ++k) {
      std::string bad = json;
      bad[first + rng() % (last - first + 1)] = corrupt[rng() % std::size(corrupt)];
      ValueArena scratch;
      const std::string read_error = error_of([&] { read_json(bad, &scratch); });
      EXPECT_EQ(read_error, error_of([&] { check_json(bad); })) << bad;
      EXPECT_EQ(error_of([&] { read_json(bad, nullptr); }), read_error) << bad;
      // Skipped as a member no template reads: the same error, 12 bytes on.
      static constexpr std::string_view kRead[] = {"messages"};
      std::string skipped_error = error_of([&] { read_json_members("{\"tools\": " + bad + "}", scratch, kRead); });
      std::string expected = error_of([&] { check_json("{\"tools\": " + bad + "}"); });
      EXPECT_EQ(skipped_error, expected) << bad;
    }
  }
}

TEST(JsonReader, RoundTripsAndSurvivesCorruption) {
  std::mt19937 rng(7);
  const char* atoms[] = {"0",
                         "-12",
                         "3.25",
                         "1e-7",
                         "true",
                         "false",
                         "null",
                         "\"\"",
                         "\"é\\n\\\"x\\\"\"",
                         "\"😀 \\ud83d\\ude00\"",
                         "\"a string long enough for the sixteen-byte scan\""};
  Value none = Value::none();
  auto to_json = [&](const Value& v) {
    std::string out;
    append_json(out, v, none, false, false, nullptr, nullptr);
    return out;
  };
  for (int round = 0; round < 300; ++round) {
    std::string json = random_json(rng, atoms);
    ValueArena arena;
    Value v = read_json(json, &arena);
    std::string written = to_json(v);
    EXPECT_EQ(to_json(read_json(written, nullptr)), written) << json;
    bool prefixes_invalid = json[0] == '[' || json[0] == '{';
    for (int k = 0; k < 20 && prefixes_invalid; ++k) {
      std::size_t cut = rng() % json.size();
      EXPECT_THROW(read_json(std::string_view(json).substr(0, cut), nullptr), JsonSyntaxError) << json.substr(0, cut);
    }
    for (int k = 0; k < 20; ++k) {
      std::string bad = json;
      bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
      ValueArena scratch;
      try {
        read_json(bad, &scratch);
      } catch (const JsonSyntaxError&) {
      }
    }
  }
}

}  // namespace
}  // namespace textedge::detail::jinja

namespace textedge::detail::jinja {
namespace {

// read_json_members checks the members it does not build as read_json reads them: the same
// error at the same offset, or the same members (the others undefined); check_json refuses what
// read_json refuses, with the same error.
void expect_members_as_read_json(const std::string& json) {
  static constexpr std::string_view kRead[] = {"messages"};
  std::string full_error, error;
  ValueArena full_arena, arena;
  Value full, partial;
  try {
    full = read_json(json, &full_arena);
  } catch (const JsonSyntaxError& e) {
    full_error = e.what();
  }
  try {
    partial = read_json_members(json, arena, kRead);
  } catch (const JsonSyntaxError& e) {
    error = e.what();
  }
  ASSERT_EQ(error, full_error) << json;
  std::string check_error;
  try {
    check_json(json);
  } catch (const JsonSyntaxError& e) {
    check_error = e.what();
  }
  EXPECT_EQ(check_error, full_error) << json;
  if (!full_error.empty()) return;
  ASSERT_EQ(full.is_dict(), partial.is_dict()) << json;
  if (!full.is_dict()) {
    EXPECT_EQ(partial.repr(), full.repr()) << json;
    return;
  }
  auto a = full.dict().entries(), b = partial.dict().entries();
  ASSERT_EQ(a.size(), b.size()) << json;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(b[i].first.repr(), a[i].first.repr()) << json;
    if (a[i].first.str() == "messages")
      EXPECT_EQ(b[i].second.repr(), a[i].second.repr()) << json;
    else
      EXPECT_TRUE(b[i].second.is_undefined()) << json;
  }
}

TEST(JsonReader, MembersNotBuiltAreCheckedAsIfRead) {
  auto repeat = [](int n, char c) { return std::string(static_cast<std::size_t>(n), c); };
  const std::string values[] = {
      "", "{bad json", "[1, 2", "[1, 2,]", R"({"a" 1})", R"({"a": 1,})", "[01]", "[1.]", "[-]", "[1e]", "NaN",
      "tru", "[true false]", "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"", "\"\\ud83d alone\"",
      "\"\\ude00 alone\"", "\"tab\tinside\"", "\"\xff\"", "\"\xc0\xaf overlong\"", "\"\xed\xa0\x80 surrogate\"",
      "\"\xe2\x82 cut\"", "99999999999999999999", "[1e999, -0.0, 12, null, false]", "{\"x\": {\"y\": [[], {}]}}",
      "\"" + repeat(16, 'x'), "\"" + repeat(15, 'x') + "\t\"", "[\"" + repeat(16, 'e') + "\\x\"]",
      "[1,\n" + repeat(20, ' '), "{\n" + repeat(20, ' '), "[1\n" + repeat(16, ' ') + "x]",
      "{\"a\":\n" + repeat(16, ' ') + "}", "[1,\n" + repeat(15, ' ') + "\x01]",
      "{\"" + repeat(16, 'k') + "\"\n" + repeat(17, ' ') + "1}", "\"é \\\" \\u00e9 \\ud83d\\ude00 😀\"",
      repeat(998, '[') + repeat(998, ']'), repeat(999, '[') + repeat(999, ']'), repeat(2000, '{')};
  for (const std::string& v : values) {
    expect_members_as_read_json("{\"messages\": [1], \"tools\": " + v + "}");
    expect_members_as_read_json("{\n \"tools\": " + v + ",\n \"messages\": [{\"a\": \"b\"}]\n}");
    expect_members_as_read_json("{\"tools\":" + v);
  }
  expect_members_as_read_json("[{\"tools\": 1}]");
  expect_members_as_read_json("{\"tools\": 1, \"tools\": [2], \"messages\": 3, \"messages\": 4}");
}

// Pretty JSON's line breaks are taken where the reader predicts the next line starts (the last
// member's indentation, one step in after an opening bracket, one out before a closing one, the
// step learnt from the text), each prediction checked before it is taken. Documents indented by
// 1, 2, 4 and 7 spaces, and every whitespace change at every line break that defeats a
// prediction (a space more or fewer, a tab or a carriage return in the indentation, a blank
// line, an empty container's bracket at its members' indentation), read as the document itself,
// with members unbuilt as if read; a byte after the indentation replaced by one that is not
// whitespace is refused or read as read_json reads it, by all three readers.
TEST(JsonReader, IndentationPredictionsAreChecked) {
  const std::string compact =
      R"({"messages":[{"role":"user","content":"hi","x":[1,{"a":[[],{}],"b":{"c":[true,null]}}]},)"
      R"({"role":"assistant","content":"","tool_calls":[{"id":"c1","function":{"name":"f","arguments":{}}}]}],)"
      R"("tools":[{"type":"function","function":{"name":"get","parameters":{"type":"object",)"
      R"("properties":{"city":{"type":"string","enum":["a","b"]}},"required":["city"]}}}],"n":7})";
  const std::string expected = read_json(compact, nullptr).repr();
  // Steps 3, 4 and 5 put lines at 15 and 16 spaces, either side of indented()'s deepest prediction.
  for (int step : {1, 2, 3, 4, 5, 7}) {
    const std::string pretty = pretty_printed(compact, step);
    ASSERT_EQ(repr_both_ways(pretty), expected) << pretty;
    expect_members_as_read_json(pretty);
    std::vector<std::string> variants;
    for (std::size_t nl = pretty.find('\n'); nl != std::string::npos; nl = pretty.find('\n', nl + 1)) {
      std::size_t text = pretty.find_first_not_of(' ', nl + 1);
      auto with = [&](std::size_t at, std::size_t erase, const std::string& insert) {
        variants.push_back(pretty.substr(0, at) + insert + pretty.substr(at + erase));
      };
      with(text, 0, " ");
      if (text > nl + 1) with(text - 1, 1, "");
      if (text > nl + 1) with(nl + 1, 1, "\t");
      with(text, 0, "\t");
      with(text, 0, "\r");
      with(nl, 0, "\r");
      with(nl, 0, "\n");
      with(nl + 1, 0, "\n" + std::string(text - nl - 1, ' '));
    }
    // Empty containers over two lines, the bracket where their members would be, or where they end.
    for (const char* empty : {"[]", "{}"})
      for (std::size_t at = pretty.find(empty); at != std::string::npos; at = pretty.find(empty, at + 1)) {
        std::size_t nl = pretty.rfind('\n', at);
        std::size_t outer = pretty.find_first_not_of(' ', nl + 1) - nl - 1;
        for (std::size_t spaces : {outer, outer + static_cast<std::size_t>(step), outer + 2 * static_cast<std::size_t>(step)})
          variants.push_back(pretty.substr(0, at + 1) + "\n" + std::string(spaces, ' ') + pretty.substr(at + 1));
      }
    for (const std::string& v : variants) {
      EXPECT_EQ(repr_both_ways(v), expected) << v;
      expect_members_as_read_json(v);
    }
    for (std::size_t nl = pretty.find('\n'); nl != std::string::npos; nl = pretty.find('\n', nl + 1)) {
      std::size_t text = pretty.find_first_not_of(' ', nl + 1);
      for (char c : {'x', '"', ',', '}', ']', '\x01'}) {
        std::string corrupt = pretty;
        corrupt[text] = c;
        expect_members_as_read_json(corrupt);
        if (text > nl + 1) {
          corrupt = pretty;
          corrupt[text - 1] = c;
          expect_members_as_read_json(corrupt);
        }
      }
    }
  }
}

// A string's end, and the escapes in it, are found from bit masks of 64 bytes of the text (its
// quotes, and the bytes that end a plain run), kept from one string or escape to the next.
// Strings of 0 to 300 bytes, plain or with escapes, non-ASCII text or a raw control character at
// any place, packed so that they start and end at every offset of those 64 bytes: as arrays, as
// objects' keys and values, and as a member left unbuilt; the decoded text is known, and a
// control character is refused where it is.
TEST(JsonReader, StringEndsFromBitMasks) {
  std::mt19937 rng(5);
  const std::pair<const char*, const char*> pieces[] = {  // JSON text, its decoding
      {"a", "a"}, {"b", "b"}, {" ", " "}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\n", "\n"}, {"\xc3\xa9", "\xc3\xa9"},
      {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"}, {"\\u00e9", "\xc3\xa9"}, {"{", "{"}, {":", ":"}};
  for (int round = 0; round < 400; ++round) {
    std::vector<std::string> decoded;
    std::string array = "[", object = "{", control;
    std::size_t control_at = std::string::npos;
    for (int i = 0; i < 24; ++i) {
      std::string json, text;
      std::size_t n = rng() % (round % 2 ? 81 : 300);
      bool plain = rng() % 3 != 0;
      while (json.size() < n) {
        auto& [j, t] = pieces[plain ? rng() % 3 : rng() % std::size(pieces)];
        json += j;
        text += t;
      }
      const char* sep = i == 0 ? "" : rng() % 2 ? ", " : ",\n  ";
      if (i == 12 && round % 4 == 0) control_at = array.size() + std::strlen(sep) + 1 + json.size() / 2;
      array += sep + ("\"" + json + "\"");
      object += sep + ("\"" + json + std::to_string(i) + "\": \"" + json + "\"");
      decoded.push_back(text);
    }
    array += "]";
    object += "}";
    ValueArena arena;
    Value list = read_json(array, &arena);
    ASSERT_EQ(list.items().size(), decoded.size()) << array;
    for (std::size_t i = 0; i < decoded.size(); ++i) ASSERT_EQ(list.items()[i].str(), decoded[i]) << array;
    ValueArena object_arena;
    Value dict = read_json(object, &object_arena);
    ASSERT_EQ(dict.dict().size(), decoded.size()) << object;
    for (std::size_t i = 0; i < decoded.size(); ++i) {
      ASSERT_EQ(dict.dict().entries()[i].first.str(), decoded[i] + std::to_string(i)) << object;
      ASSERT_EQ(dict.dict().entries()[i].second.str(), decoded[i]) << object;
    }
    expect_members_as_read_json("{\"tools\": " + array + ", \"messages\": " + object + "}");
    expect_members_as_read_json("{\"tools\": " + object + ",\n \"messages\": " + array + "}");
    if (control_at != std::string::npos && control_at + 1 < array.size()) {
      std::string bad = array;
      bad[control_at] = '\x01';
      try {
        ValueArena bad_arena;
        read_json(bad, &bad_arena);
        ADD_FAILURE() << "read: " << bad;
      } catch (const JsonSyntaxError& e) {
        // The control character itself, or an escape or UTF-8 sequence it cut, is refused.
        EXPECT_LE(e.offset(), control_at + 1) << bad;
        EXPECT_GE(e.offset() + 6, control_at) << bad;
      }
      expect_members_as_read_json("{\"tools\": " + bad + "}");
    }
  }
}

// Random documents and their corruptions, read whole and with members left unbuilt.
TEST(JsonReader, MembersNotBuiltSurviveCorruptionAsIfRead) {
  std::mt19937 rng(11);
  const char* atoms[] = {"0", "-12", "3.25e2", "true", "null", "\"\"", "\"é\\n\\\"x\\\"\"", "\"😀 \\ud83d\\ude00\"",
                         "\"a string long enough for the sixteen-byte scan\""};
  for (int round = 0; round < 300; ++round) {
    std::string json = "{\n \"messages\": " + random_json(rng, atoms, 1) + ",\n \"tools\": " + random_json(rng, atoms, 1) +
                       ",\n \"model\": " + random_json(rng, atoms, 1) + "\n}";
    expect_members_as_read_json(json);
    for (int k = 0; k < 10; ++k) {
      std::string corrupt = json;
      corrupt[rng() % corrupt.size()] = "\"\\{}[],: \n\x01\xc3x0"[rng() % 14];
      expect_members_as_read_json(corrupt);
      expect_members_as_read_json(json.substr(0, rng() % json.size()));
    }
  }
}

// Tools-like values, compact and pretty, at every offset in a 64-byte block (the skip reads the
// text 16 bytes at a time), read with the member unbuilt against read whole: the value, each of
// its prefixes, and each of its bytes replaced by bytes that matter to the grammar, strings,
// escapes, numbers and UTF-8. Its strings end in backslash runs of every length, escaped quotes
// after them or not, and hold non-ASCII text; its containers nest up to and past 64 deep.
TEST(JsonReader, MembersNotBuiltSurviveEveryCorruptionAsIfRead) {
  std::string runs;  // "x\"", "x\\", "x\\\"", ... up to six backslashes, then the closing quote
  for (int n = 0; n <= 6; ++n) {
    runs += (runs.empty() ? "\"" : ", \"") + std::string(static_cast<std::size_t>(n % 3 + 1), 'x');
    runs += std::string(static_cast<std::size_t>(n / 2 * 2), '\\');
    runs += n % 2 ? "\\\" tail\"" : "\"";
  }
  const std::string compact =
      R"([{"type":"function","function":{"name":"get_weather","description":"Get the \"current\" )"
      R"(weather — Zürich, 東京 😀 \u00e9\ud83d\ude00\n\t\/","parameters":{"type":"object","properties":)"
      R"({"city":{"type":"string","enum":[)" + runs + R"(]},"n":[0,-1,7,12,3.5e2,1E-2,-0.0,)"
      R"(123456789012345678,9223372036854775807,true,false,null,{},[]]},"required":["city"]}}},)"
      R"({"type":"function","function":{"name":"x","parameters":{}}}])";
  const std::string pretty = pretty_printed(compact, 1);
  auto deep = [](int n, bool objects) {
    std::string open, close;
    for (int i = 0; i < n; ++i) {
      bool object = objects && i % 3 == 0;
      open += object ? "{\"k\": " : "[";
      close.insert(0, object ? "}" : "]");
    }
    return open + "1" + close;
  };
  const char corrupt[] = {'"', '\\', '{', '}', '[', ']', ':', ',', ' ', '\n', '\t', '\r', '\x01', '\x7f',
                          '\xc3', '\xa9', '\xff', '0', '9', 'e', '-', '.', 'x', 'u', 't', '/'};
  for (const std::string& value : {compact, pretty, deep(62, true), deep(63, false), deep(64, true),
                                   deep(65, false), deep(998, false), deep(999, true)}) {
    ASSERT_NO_THROW(read_json(value, nullptr)) << value;
    for (std::size_t offset : {0, 1, 7, 15, 16, 17, 31, 47, 63}) {
      std::string head = "{\"messages\": [\"" + std::string(offset, 'm') + "\"], \"tools\": ";
      // The tools' first byte at `offset` in its 64-byte block.
      head.insert(1, std::string((64 - head.size() % 64 + offset) % 64, ' '));
      for (const std::string& tail : {std::string("}"), std::string(",\n \"model\": \"m\"\n}")}) {
        expect_members_as_read_json(head + value + tail);
        if (value.size() > 1000) continue;
        for (std::size_t i = 0; i < value.size(); ++i) {
          expect_members_as_read_json(head + value.substr(0, i));
          if (offset != 0 && offset != 1 && offset != 63 && (offset != 16 || tail.size() > 1)) continue;
          for (char c : corrupt) {
            if (value[i] == c) continue;
            std::string bad = value;
            bad[i] = c;
            expect_members_as_read_json(head + bad + tail);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace textedge::detail::jinja
