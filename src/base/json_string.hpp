// JSON string text as Python's json.dumps writes it: the one writer behind tojson, OpenAI deltas,
// parsed call arguments and the CLI, so all of them agree byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace textedge::detail {

// Eight bytes at once: the high bit of each byte a JSON string cannot hold as it is (below 0x20,
// '"' or '\\'). Borrows only run upward from a byte flagged rightly, so the lowest flag is exact;
// higher ones may not be.
inline std::uint64_t json_escape_bytes(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, high_bits = 0x8080808080808080ULL;
  std::uint64_t below_space = w - ones * 0x20;
  std::uint64_t quote = (w ^ (ones * '"')) - ones;
  std::uint64_t backslash = (w ^ (ones * '\\')) - ones;
  return (below_space | quote | backslash) & ~w & high_bits;
}

// One byte of a string's text: \" \\ \n \r \t \b \f, \u00XX for the other control characters,
// every other byte as is (UTF-8 kept, DEL included, as json.dumps keeps them).
void append_json_char(std::string& out, unsigned char c);

// Writes to the end of a std::string through a raw cursor, for writers that put out many small
// pieces (tojson): the string is grown ahead (geometrically) and cut back to what was written by
// finish(). Without finish() (an exception), the string is restored to its length at the start.
class JsonSink {
 public:
  // expected: bytes to make room for up front.
  explicit JsonSink(std::string& out, std::size_t expected = 0)
      : out_(out), start_(out.size()), cur_(out.data() + start_), end_(cur_) {
    if (expected) grow(expected);
  }
  JsonSink(const JsonSink&) = delete;
  JsonSink& operator=(const JsonSink&) = delete;
  ~JsonSink() {
    if (!finished_) out_.resize(start_);
  }

  // Room for n bytes at the cursor; advance() past what was written there.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) grow(n);
    return cur_;
  }
  void advance(std::size_t n) { cur_ += n; }
  void put(char c) {
    *room(1) = c;
    ++cur_;
  }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    cur_ += s.size();
  }
  // The quoted string, as append_json_string writes it.
  void string(std::string_view s, bool ensure_ascii);
  void finish() {
    out_.resize(static_cast<std::size_t>(cur_ - out_.data()));
    finished_ = true;
  }

 private:
  void grow(std::size_t n);
  // From s[i], the first byte to escape; leaves room for the closing quote.
  [[gnu::noinline]] void escaped_rest(std::string_view s, std::size_t i, bool ensure_ascii);

  std::string& out_;
  std::size_t start_;
  char* cur_;
  char* end_;
  bool finished_ = false;
};

// The quoted string. With ensure_ascii, DEL and non-ASCII are written as \uXXXX (surrogate pairs
// above U+FFFF); a byte that starts no valid UTF-8 sequence is written as the code point of its value.
void append_json_string(std::string& out, std::string_view s, bool ensure_ascii = false);

inline std::string json_quote(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

}  // namespace textedge::detail
