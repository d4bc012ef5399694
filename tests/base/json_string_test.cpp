// The JSON string writer behind tojson and the parsers' output (src/base/json_string.cpp): its word-at-a-time
// fast path against a plain byte-by-byte reading of json.dumps's rules, for every length and position
// of the byte that needs an escape.
#include "base/json_string.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace textedge::detail {
namespace {

// json.dumps on valid UTF-8, one code point at a time.
std::string reference_quote(const std::string& s, bool ensure_ascii) {
  std::string out = "\"";
  char buf[16];
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    std::size_t length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = length == 1 ? b : length == 2 ? (b & 0x1F) : length == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (cp == '"') {
      out += "\\\"";
    } else if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\b') {
      out += "\\b";
    } else if (cp == '\f') {
      out += "\\f";
    } else if (cp < 0x20 || (ensure_ascii && cp >= 0x7F && cp < 0x10000)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else if (ensure_ascii && cp >= 0x10000) {
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + ((cp - 0x10000) >> 10)),
                    static_cast<unsigned>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
      out += buf;
    } else {
      out.append(s, i, length);
    }
    i += length;
  }
  return out + "\"";
}

TEST(JsonString, EveryLengthAndEscapePosition) {
  const std::vector<std::string> specials = {
      "\"", "\\", "\n", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80", " ", "~"};
  std::size_t checked = 0;
  for (std::size_t length = 0; length <= 33; ++length)
    for (std::size_t at = 0; at <= length; ++at)
      for (const auto& special : specials)
        for (bool ensure_ascii : {false, true}) {
          std::string s(length, 'a');
          for (std::size_t k = 0; k < length; ++k) s[k] = static_cast<char>('a' + k % 26);
          s.insert(at, special);
          std::string out = "prefix";
          append_json_string(out, s, ensure_ascii);
          ASSERT_EQ(out, "prefix" + reference_quote(s, ensure_ascii))
              << "length " << length << ", at " << at << ", ensure_ascii " << ensure_ascii;
          ++checked;
        }
  EXPECT_GT(checked, 10000u);
}

TEST(JsonString, SeveralEscapesAcrossWords) {
  for (bool ensure_ascii : {false, true}) {
    std::string s;
    for (int i = 0; i < 200; ++i) s += i % 7 == 0 ? "\"" : i % 11 == 0 ? "\xe6\x97\xa5" : i % 13 == 0 ? "\t" : "x";
    std::string out;
    append_json_string(out, s, ensure_ascii);
    EXPECT_EQ(out, reference_quote(s, ensure_ascii));
  }
}

TEST(JsonString, InvalidUtf8WithEnsureAsciiIsTheByteValue) {
  std::string out;
  append_json_string(out, std::string("a\xff") + "b\xc3", true);  // a stray byte and a cut sequence
  EXPECT_EQ(out, "\"a\\u00ffb\\u00c3\"");
  out.clear();
  append_json_string(out, "a\xff", false);
  EXPECT_EQ(out, "\"a\xff\"");
}

TEST(JsonString, SinkRestoresTheStringWithoutFinish) {
  std::string out = "kept";
  try {
    JsonSink sink(out, 1000);
    sink.put("{\"a\": ");
    sink.string("value", false);
    throw std::runtime_error("writer failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(out, "kept");
  {
    JsonSink sink(out);
    for (int i = 0; i < 1000; ++i) sink.put(i % 2 ? ',' : '1');  // grows many times
    sink.string("x", false);
    sink.finish();
  }
  EXPECT_EQ(out.size(), 4u + 1000u + 3u);
  EXPECT_EQ(out.substr(0, 7), "kept1,1");
  EXPECT_EQ(out.substr(out.size() - 4), ",\"x\"");
}

}  // namespace
}  // namespace textedge::detail
