#include "tokenizer/models/bpe_json.hpp"

#include <simdjson.h>

#include <bit>
#include <cstring>
#include <exception>
#include <thread>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/run_in_parallel.hpp"
#include "base/utf8.hpp"

namespace textedge::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A strict reader over [p, end): every method returns false on anything unexpected and then
// the whole read is abandoned, so it never needs to recover.
struct Reader {
  const char* p;
  const char* end;

  // Performance note: the big members are indented (most of Gemma 3's merges are spaces) and
  // strings are short; space and string loops look at 8 bytes at a time: 13% fewer
  // instructions than byte-at-a-time loops for reading Gemma 3 (callgrind, 547M -> 474M).
  void skip_space() {
#ifdef __SSE2__
    // 16 bytes a compare: a line break and its indentation (half of these files) in one.
    // Instructions to read qwen3's lists (callgrind, both threads): see docs/performance.md.
    if (p != end && !is_space(*p)) return;
    for (; end - p >= 16; p += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      __m128i space = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
      if (unsigned others = ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFF) {
        p += std::countr_zero(others);
        return;
      }
    }
#endif
    while (end - p >= 8) {
      std::uint64_t spaces = load8(p) ^ 0x2020202020202020ULL;  // zero bytes: ' '
      if (spaces == 0) {
        p += 8;
        continue;
      }
      p += __builtin_ctzll(spaces) / 8;
      if (!is_space(*p)) return;
      ++p;  // '\n', '\t' or '\r'
    }
    while (p < end && is_space(*p)) ++p;
  }
  static std::uint64_t load8(const char* at) {
    std::uint64_t w;
    std::memcpy(&w, at, 8);
    return w;
  }
  // High bit set in each byte of w that is '"', '\\' or below 0x20.
  static std::uint64_t string_stops(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    auto zero_bytes = [&](std::uint64_t x) { return (x - ones) & ~x & highs; };
    std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    return zero_bytes(w ^ (ones * '"')) | zero_bytes(w ^ (ones * '\\')) | below_space;
  }
  bool eat(char c) {
    skip_space();
    if (p == end || *p != c) return false;
    ++p;
    return true;
  }

  // A string at p (after spaces): a view into the text, or into `store` when it has escapes.
  bool string(std::string_view& out, std::deque<std::string>& store) {
    skip_space();
    if (p == end || *p != '"') return false;
    const char* start = ++p;
    while (end - p >= 8) {
      std::uint64_t stops = string_stops(load8(p));
      if (stops) {
        p += __builtin_ctzll(stops) / 8;
        break;
      }
      p += 8;
    }
    while (p < end) {
      unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"') {
        out = std::string_view(start, static_cast<std::size_t>(p - start));
        ++p;
        return true;
      }
      if (c == '\\') return escaped_string(start, out, store);
      if (c < 0x20) return false;
      ++p;
    }
    return false;
  }

  bool hex4(std::uint32_t& out) {
    if (end - p < 4) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) {
      char c = *p++;
      int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (v < 0) return false;
      out = out << 4 | static_cast<std::uint32_t>(v);
    }
    return true;
  }

  bool escaped_string(const char* start, std::string_view& out, std::deque<std::string>& store) {
    std::string s(start, p);
    while (p < end) {
      unsigned char c = static_cast<unsigned char>(*p++);
      if (c == '"') {
        out = store.emplace_back(std::move(s));
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        s.push_back(static_cast<char>(c));
        continue;
      }
      if (p == end) return false;
      switch (char e = *p++) {
        case '"': case '\\': case '/': s.push_back(e); break;
        case 'b': s.push_back('\b'); break;
        case 'f': s.push_back('\f'); break;
        case 'n': s.push_back('\n'); break;
        case 'r': s.push_back('\r'); break;
        case 't': s.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp, low;
          if (!hex4(cp)) return false;
          if (cp >= 0xDC00 && cp < 0xE000) return false;  // lone low surrogate
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (end - p < 2 || p[0] != '\\' || p[1] != 'u') return false;
            p += 2;
            if (!hex4(low) || low < 0xDC00 || low >= 0xE000) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(s, static_cast<char32_t>(cp));
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  // A token id: a JSON integer in [0, 2^31).
  bool id(std::uint32_t& out) {
    skip_space();
    const char* start = p;
    std::uint64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - start < 11) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
    if (p == start || (*start == '0' && p - start > 1) || v > 0x7FFFFFFF) return false;
    out = static_cast<std::uint32_t>(v);
    return true;  // a following '.', 'e' or digit fails at the next eat()
  }

  // Room for every entry of real files (a vocabulary entry takes 56-130 bytes of them, a
  // merge 32-75); untouched capacity costs no memory.
  std::size_t capacity_guess() const { return static_cast<std::size_t>(end - p) / 16 + 64; }

  bool vocab(BpeLists& lists) {
    lists.vocab.reserve(capacity_guess());
    if (!eat('{')) return false;
    if (eat('}')) return true;
    do {
      BpeLists::Token t;
      if (!string(t.text, lists.vocab_unescaped) || !eat(':') || !id(t.id)) return false;
      lists.vocab.push_back(t);
    } while (eat(','));
    return eat('}');
  }

  bool merges(BpeLists& lists) {
    lists.merges.reserve(capacity_guess());
    if (!eat('[')) return false;
    if (eat(']')) return true;
    do {
      BpeLists::Merge m;
      skip_space();
      if (p < end && *p == '"') {
        std::string_view s;
        if (!string(s, lists.merges_unescaped)) return false;
        std::size_t space = s.find(' ');
        if (space == std::string_view::npos || s.find(' ', space + 1) != std::string_view::npos) return false;
        m = {s.substr(0, space), s.substr(space + 1)};
      } else if (!eat('[') || !string(m.left, lists.merges_unescaped) || !eat(',') ||
                 !string(m.right, lists.merges_unescaped) || !eat(']')) {
        return false;
      }
      lists.merges.push_back(m);
    } while (eat(','));
    return eat(']');
  }

  // Skips any value, checking only what finding its end needs (the DOM checks the rest).
  bool skip_value() {
    skip_space();
    std::size_t depth = 0;
    do {
      if (p == end) return false;
      char c = *p;
      if (c == '"') {
        for (++p; p < end && *p != '"'; ++p) {
          while (end - p >= 8) {  // to the next '"', '\\' or control character
            std::uint64_t stops = string_stops(load8(p));
            if (stops) {
              p += __builtin_ctzll(stops) / 8;
              break;
            }
            p += 8;
          }
          if (p < end && *p == '"') break;
          if (p < end && *p == '\\') ++p;
        }
        if (p >= end) return false;
        ++p;
      } else if (c == '{' || c == '[') {
        ++depth;
        ++p;
      } else if (c == '}' || c == ']') {
        if (depth == 0) return false;
        --depth;
        ++p;
      } else if (depth == 0) {
        while (p < end && !is_space(*p) && *p != ',' && *p != '}' && *p != ']') ++p;
      } else {
        ++p;
#ifdef __SSE2__
        // Inside a container only strings and brackets matter: to the next of them, 16 bytes a
        // compare (a vocabulary's ": 123,\n    " between its keys).
        for (; end - p >= 16; p += 16) {
          __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
          __m128i hit = _mm_or_si128(
              _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('['))),
              _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')), _mm_cmpeq_epi8(v, _mm_set1_epi8('{'))),
                           _mm_cmpeq_epi8(v, _mm_set1_epi8('}'))));
          if (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(hit))) {
            p += std::countr_zero(m);
            break;
          }
        }
#endif
      }
    } while (depth > 0);
    return true;
  }
};

struct Span {
  const char* begin = nullptr;
  const char* end = nullptr;
};

}  // namespace

std::optional<std::string> read_bpe_lists(std::string_view text, BpeLists& lists) {
  Reader r{text.data(), text.data() + text.size()};
  std::deque<std::string> keys;  // escaped member names (rare)
  std::string_view key;
  // Find $.model (the first one, as the DOM's lookup does).
  if (!r.eat('{')) return std::nullopt;
  for (;;) {
    if (!r.string(key, keys) || !r.eat(':')) return std::nullopt;
    if (key == "model") break;
    if (!r.skip_value() || !r.eat(',')) return std::nullopt;
  }
  if (!r.eat('{')) return std::nullopt;

  // Walk the model's members. The first of vocab/merges is read on a helper thread while this
  // one skips over it to the second, which it reads itself (in large files; small ones read in turn).
  Span vocab, merges;
  bool helper_ok = false;
  const char* helper_end = nullptr;
  const Span* helper_span = nullptr;
  std::thread helper;
  const bool parallel = text.size() >= kParallelMinBytes;  // small files: a thread costs more
  std::exception_ptr helper_error;
  auto read_member = [&lists](std::string_view name, Reader& m) { return name == "vocab" ? m.vocab(lists) : m.merges(lists); };
  bool ok = [&] {
    for (;;) {
      if (!r.string(key, keys) || !r.eat(':')) return false;
      r.skip_space();
      if (key == "vocab" || key == "merges") {
        Span& span = key == "vocab" ? vocab : merges;
        if (span.begin) return false;  // duplicate member: leave it to the DOM
        span.begin = r.p;
        if (!vocab.begin || !merges.begin) {
          helper_span = &span;
          auto read_first = [&, name = key, m = r]() mutable {
            try {
              helper_ok = read_member(name, m);
              helper_end = m.p;
            } catch (...) {
              helper_error = std::current_exception();
            }
          };
          if (parallel)
            helper = std::thread(std::move(read_first));
          else
            read_first();
          if (!r.skip_value()) return false;
        } else if (!read_member(key, r)) {
          return false;
        }
        span.end = r.p;
      } else if (!r.skip_value()) {
        return false;
      }
      if (!r.eat(',')) return r.eat('}');
    }
  }();
  if (helper.joinable()) helper.join();
  if (helper_error) std::rethrow_exception(helper_error);
  // The helper's member must end where skipping it ended.
  if (!helper_span || helper_end != helper_span->end) helper_ok = false;
  if (!ok || !helper_ok || !vocab.begin || !merges.begin) return std::nullopt;
  for (const Span& s : {vocab, merges})
    if (!simdjson::validate_utf8(s.begin, static_cast<std::size_t>(s.end - s.begin))) return std::nullopt;

  const Span& first = vocab.begin < merges.begin ? vocab : merges;
  const Span& second = vocab.begin < merges.begin ? merges : vocab;
  std::string rest;
  rest.reserve(text.size() - static_cast<std::size_t>((vocab.end - vocab.begin) + (merges.end - merges.begin)) + 4);
  rest.append(text.data(), first.begin);
  rest += &first == &vocab ? "{}" : "[]";
  rest.append(first.end, second.begin);
  rest += &second == &vocab ? "{}" : "[]";
  rest.append(second.end, text.data() + text.size());
  return rest;
}

}  // namespace textedge::detail
