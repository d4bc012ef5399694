// Values from JSON text, read in one pass (no DOM in between).
//
// Performance note (callgrind, Qwen3's template rendering bench/data/chat_six_messages_two_tools.json
// through apply_request): the request used to go through simdjson's DOM (~14k instructions), then
// each list and dict became a vector and an object of its own, freed one by one after the render
// (~22k). Reading straight into Values, with the containers and unescaped strings in one
// ValueArena and every other string a view of the request text, costs ~24k. Strings and runs of
// indentation are scanned 16 bytes at a time with SSE2 (8 at a time without it). Tried and
// dropped: strings out of value()'s frame (-0.2%), an indentation fast path (-0.6%).
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../json_string.hpp"
#include "../utf8.hpp"
#include "runtime.hpp"
#include "template.hpp"

namespace textedge::detail::jinja {

namespace {

constexpr int kMaxDepth = 1000;  // deeper nesting is refused: the reader recurses

class Reader {
 public:
  Reader(std::string_view json, ValueArena* arena)
      : begin_(json.data()), p_(json.data()), end_(json.data() + json.size()), arena_(arena) {}

  Value document() {
    items_.clear();  // a read that failed may have left its partial containers
    entries_.clear();
    skip_space();
    if (p_ == end_) fail("no JSON value (the text is empty or only whitespace)");
    Value v = value(0);
    skip_space();
    if (p_ != end_) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonSyntaxError(what, static_cast<std::size_t>(p_ - begin_));
  }
  [[noreturn]] void fail_expected(const char* what) const {
    if (p_ == end_) fail(std::string("expected ") + what + ", found the end of the text");
    fail(std::string("expected ") + what);
  }

  void skip_space() {
    // Most calls find no whitespace (compact JSON) or one space (after ':' in pretty JSON).
    if (p_ == end_ || static_cast<unsigned char>(*p_) > ' ') return;
    if (*p_ == ' ' && end_ - p_ > 1 && static_cast<unsigned char>(p_[1]) > ' ') {
      ++p_;
      return;
    }
    skip_space_run();
  }

  [[gnu::noinline]] void skip_space_run() {
    const char* p = p_;
#ifdef __SSE2__
    // Pretty-printed requests are a third whitespace: a newline, then a run of indentation.
    bool found = scan16(p, end_, [](__m128i v) {
      __m128i space =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                       _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
      return ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFF;
    });
    if (found) {
      p_ = p;
      return;
    }
#endif
    while (p != end_ && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    p_ = p;
  }

#ifdef __SSE2__
  // Moves p 16 bytes at a time to the first byte `hits` (a block's bit mask) flags: true; false
  // where fewer than 16 bytes remain (the caller scans the rest).
  template <class Hits>
  static bool scan16(const char*& p, const char* end, Hits hits) {
    for (; end - p >= 16; p += 16)
      if (unsigned m = hits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))) {
        p += std::countr_zero(m);
        return true;
      }
    return false;
  }
#endif

  Value value(int depth) {
    if (p_ == end_) fail_expected("a value");
    switch (*p_) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"':
        return string();
      case 't':
        return literal("true", Value(true));
      case 'f':
        return literal("false", Value(false));
      case 'n':
        return literal("null", Value::none());
      default:
        if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return number();
        fail_expected("a value");
    }
  }

  Value literal(std::string_view word, Value v) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0)
      fail_expected("a value");
    p_ += word.size();
    return v;
  }

  Value array(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    ++p_;
    std::size_t first = items_.size();
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
    } else {
      do {
        skip_space();
        items_.push_back(value(depth));
      } while (another(']', "',' or ']' in an array"));
    }
    Value list;
    if (arena_)
      list = Value::borrowed(
          Type::List, ::new (arena_->allocate(sizeof(ListObject))) ListObject(move_to_arena(items_, first), false));
    else
      list = Value::list(move_out(items_, first));
    items_.resize(first);
    return list;
  }

  // After a member: true at a ',' (another member follows), false at the closing bracket.
  bool another(char close, const char* expected) {
    skip_space();
    if (p_ != end_ && *p_ == ',') {
      ++p_;
      return true;
    }
    if (p_ != end_ && *p_ == close) {
      ++p_;
      return false;
    }
    fail_expected(expected);
  }

  // The members read since `first`, moved to the arena or to a vector of their own.
  template <class T>
  std::span<T> move_to_arena(std::vector<T>& scratch, std::size_t first) {
    std::span<T> out = arena_->allocate_array<T>(scratch.size() - first);
    for (std::size_t i = 0; i < out.size(); ++i) new (&out[i]) T(std::move(scratch[first + i]));
    return out;
  }
  template <class T>
  static std::vector<T> move_out(std::vector<T>& scratch, std::size_t first) {
    return {std::make_move_iterator(scratch.begin() + static_cast<std::ptrdiff_t>(first)),
            std::make_move_iterator(scratch.end())};
  }

  Value object(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    ++p_;
    std::size_t first = entries_.size();
    // One bit per key from its size and first and last bytes: no bit set twice proves the keys
    // distinct, which spares the dict its pairwise duplicate check (a quarter of reading a chat
    // request's objects).
    std::uint64_t key_bits = 0;
    bool keys_distinct = true;
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
    } else {
      do {
        skip_space();
        if (p_ == end_ || *p_ != '"') fail_expected("a string key in an object");
        std::string_view k = string_text();
        std::size_t mix = k.size() * 7 +
                          (k.empty() ? 0 : static_cast<unsigned char>(k[0]) * 3 + static_cast<unsigned char>(k.back()));
        std::uint64_t bit = std::uint64_t{1} << (mix & 63);
        keys_distinct = keys_distinct && !(key_bits & bit);
        key_bits |= bit;
        Value key = string_value(k);
        skip_space();
        if (p_ == end_ || *p_ != ':') fail_expected("':' after an object key");
        ++p_;
        skip_space();
        entries_.emplace_back(std::move(key), value(depth));
      } while (another('}', "',' or '}' in an object"));
    }
    Value dict;
    if (arena_)
      dict = Value::borrowed(Type::Dict, ::new (arena_->allocate(sizeof(DictObject)))
                                             DictObject(move_to_arena(entries_, first), *arena_, keys_distinct));
    else
      dict = Value::dict(move_out(entries_, first));
    entries_.resize(first);
    return dict;
  }

  // Moves p_ to the first byte that ends a plain run ('"', '\\', a control or non-ASCII), or to
  // the end.
  void skip_plain() {
    const char* p = p_;
#ifdef __SSE2__
    bool found = scan16(p, end_, [](__m128i v) {
      // As signed bytes, controls and non-ASCII bytes are both below 0x20.
      __m128i special =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                       _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
      return static_cast<unsigned>(_mm_movemask_epi8(special));
    });
    if (found) {
      p_ = p;
      return;
    }
#endif
    for (; end_ - p >= 8; p += 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      if (std::uint64_t m = json_escape_bytes(w) | (w & 0x8080808080808080ULL)) {
        p_ = p + std::countr_zero(m) / 8;
        return;
      }
    }
    while (p != end_ && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20 &&
           static_cast<unsigned char>(*p) < 0x80)
      ++p;
    p_ = p;
  }

  Value string() { return string_value(string_text()); }

  Value string_value(std::string_view text) const {
    return arena_ ? Value::borrowed(text) : owned_string(text);  // borrowed() copies what is over 4 GiB
  }

  [[gnu::noinline]] static Value owned_string(std::string_view text) { return Value(text); }

  // The text of the string whose opening quote is at p_: a view of the JSON text, or, with
  // escapes, of its decoding in the arena (or without one, in a buffer the next string reuses).
  std::string_view string_text() {
    const char* start = ++p_;
    skip_plain();
    if (p_ != end_ && *p_ == '"') return {start, static_cast<std::size_t>(p_++ - start)};
    return special_string_text(start);
  }

  // A string whose plain run ended before its closing quote: at an escape, a non-ASCII
  // character, a control character or the end of the text.
  [[gnu::noinline]] std::string_view special_string_text(const char* start) {
    for (;;) {
      if (p_ == end_) fail("unterminated string");
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') return {start, static_cast<std::size_t>(p_++ - start)};
      if (c == '\\') return escaped_string_text(start);
      if (c < 0x20) fail("control character in a string (it must be escaped)");
      skip_utf8();
      skip_plain();
    }
  }

  std::string_view escaped_string_text(const char* start) {
    std::string& out = unescaped_;
    out.assign(start, p_);
    for (;;) {
      if (p_ == end_) fail("unterminated string");
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        break;
      }
      const char* from = p_;
      if (c == '\\') {
        escape(out);
        continue;
      }
      if (c < 0x20) fail("control character in a string (it must be escaped)");
      if (c >= 0x80) skip_utf8();
      skip_plain();
      out.append(from, p_);
    }
    if (!arena_) return out;
    auto* chars = static_cast<char*>(arena_->allocate(out.size()));
    std::memcpy(chars, out.data(), out.size());
    return {chars, out.size()};
  }

  void escape(std::string& out) {
    const char* backslash = p_++;
    if (p_ == end_) fail("unterminated string");
    char c = *p_++;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out += c;
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'n':
        out += '\n';
        return;
      case 'r':
        out += '\r';
        return;
      case 't':
        out += '\t';
        return;
      case 'u':
        break;
      default:
        p_ = backslash;
        fail(std::string("invalid escape '\\") + c + "' in a string");
    }
    char32_t cp = hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') fail("a high surrogate escape not followed by a low one");
      p_ += 2;
      char32_t low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate escape not followed by a low one");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      fail("a low surrogate escape without a high one");
    }
    append_utf8(out, cp);
  }

  char32_t hex4() {
    if (end_ - p_ < 4) fail("a \\u escape needs four hex digits");
    char32_t cp = 0;
    for (int i = 0; i < 4; ++i, ++p_) {
      char c = *p_;
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) fail("a \\u escape needs four hex digits");
      cp = cp * 16 + static_cast<char32_t>(d);
    }
    return cp;
  }

  // One well-formed UTF-8 sequence (no overlongs, surrogates or code points over U+10FFFF).
  void skip_utf8() {
    auto at = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p_[i]); };
    auto continuation = [&](std::ptrdiff_t i) { return i < end_ - p_ && (at(i) & 0xC0) == 0x80; };
    unsigned char b = at(0);
    int n = 0;
    bool ok = false;
    if (b >= 0xC2 && b <= 0xDF) {
      n = 2;
      ok = continuation(1);
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 3;
      ok = continuation(1) && continuation(2) && (b != 0xE0 || at(1) >= 0xA0) && (b != 0xED || at(1) < 0xA0);
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 4;
      ok = continuation(1) && continuation(2) && continuation(3) && (b != 0xF0 || at(1) >= 0x90) &&
           (b != 0xF4 || at(1) < 0x90);
    }
    if (!ok) fail("invalid UTF-8 in a string");
    p_ += n;
  }

  // Python's json.loads: an int without fraction or exponent (here: one that fits in 64 bits),
  // otherwise a float (out of range: infinity, or zero).
  Value number() {
    const char* start = p_;
    bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || *p_ < '0' || *p_ > '9') fail_expected("a digit");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    bool integral = true;
    if (p_ != end_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ == end_ || *p_ < '0' || *p_ > '9') fail_expected("a digit after the decimal point");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || *p_ < '0' || *p_ > '9') fail_expected("a digit in the exponent");
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (integral) {
      std::int64_t i = 0;
      auto [end, error] = std::from_chars(start, p_, i);
      if (error != std::errc() || end != p_) {
        std::string digits(start, std::min<std::size_t>(static_cast<std::size_t>(p_ - start), 40));
        p_ = start;
        fail("integer " + digits + (digits.size() == 40 ? "..." : "") + " does not fit in 64 bits");
      }
      return Value(i);
    }
    double d = 0;
    auto [end, error] = std::from_chars(start, p_, d);
    if (error == std::errc::result_out_of_range) {
      // from_chars leaves d alone; strtod rounds to infinity or zero as Python's float() does.
      d = std::strtod(std::string(start, p_).c_str(), nullptr);
    } else if (error != std::errc() || end != p_) {
      p_ = start;
      fail_expected("a number");
    }
    return Value(d);
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  ValueArena* arena_;
  // Children of the containers being read, innermost last; reused across reads on this thread.
  std::vector<Value>& items_ = scratch().items;
  std::vector<DictObject::Entry>& entries_ = scratch().entries;
  std::string& unescaped_ = scratch().unescaped;

  struct Scratch {
    std::vector<Value> items;
    std::vector<DictObject::Entry> entries;
    std::string unescaped;
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }
};

}  // namespace

JsonSyntaxError::JsonSyntaxError(const std::string& what, std::size_t offset)
    : std::runtime_error(what + " at byte offset " + std::to_string(offset)), reason_(what), offset_(offset) {}

Value read_json(std::string_view json, ValueArena* arena) {
  Reader reader(json, arena);
  return reader.document();
}

Value value_from_json(std::string_view json) {
  try {
    return read_json(json, nullptr);
  } catch (const JsonSyntaxError& e) {
    throw TemplateError("ValueError", std::string("invalid JSON: ") + e.what(), 0, 0);
  }
}

}  // namespace textedge::detail::jinja
