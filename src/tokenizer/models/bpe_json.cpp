#include "tokenizer/models/bpe_json.hpp"

#include <simdjson.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <exception>
#include <future>
#include <functional>
#include <optional>
#include <thread>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/run_in_parallel.hpp"
#include "base/thread_pool.hpp"
#include "base/utf8.hpp"

namespace textedge::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A strict reader over [p, end): every method returns false on anything unexpected and then
// the whole read is abandoned, so it never needs to recover.
// Each bit i of the result: the XOR of bits 0..i of x (which bytes lie inside strings, from
// their quotes' bits).
inline std::uint64_t prefix_xor(std::uint64_t x) {
  for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

std::atomic<bool> wait_for_handover{false};  // wait_for_merges_handover_in_tests

// The back of this thread's share of the merges, handed to the helper when it is done with its
// own share first (read_bpe_lists). The reading thread answers a request at its next entry.
struct Handover {
  enum State { kOpen, kAsked, kGiven, kClosed };
  std::atomic<int> state{kOpen};
  const char* at = nullptr;                  // kAsked: the entry the helper would start at
  std::atomic<const char*> reached{nullptr};  // where the reading thread is, every 256 entries
  // The reading thread, at the entry at p: takes a request (then stops at `at`) or refuses it.
  void answer(const char* p, const char*& stop) {
    if (state.load(std::memory_order_acquire) != kAsked) return;
    if (p <= at) stop = at;
    state.store(p <= at ? kGiven : kClosed, std::memory_order_release);
  }
  // The reading thread is done: later requests are refused, and one not yet answered too.
  void close() {
    int s = kOpen;
    if (!state.compare_exchange_strong(s, kClosed, std::memory_order_acq_rel) && s == kAsked)
      state.store(kClosed, std::memory_order_release);
  }
  // The helper: whether the entries from `from` on are its to read.
  bool ask(const char* from) {
    at = from;
    int s = kOpen;
    if (!state.compare_exchange_strong(s, kAsked, std::memory_order_acq_rel)) return false;
    while ((s = state.load(std::memory_order_acquire)) == kAsked) std::this_thread::yield();
    return s == kGiven;
  }
};

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
    // Most calls find no space: one compare for them (whitespace and control bytes go on).
    if (p != end && static_cast<unsigned char>(*p) > ' ') return;
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

#ifdef __SSE2__
  // Bit i set where byte i of the 16 at `at` is '"', '\\' or a control character.
  static unsigned string_stops16(const char* at) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);  // bytes <= 0x1F
    __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))), control);
    return static_cast<unsigned>(_mm_movemask_epi8(stop));
  }
#endif

  // A string at p (after spaces): a view into the text, or into `store` when it has escapes.
  // Inline for the usual string, closed within 16 bytes without escapes; the rest out of line.
  // Performance note (callgrind, Llama 2's load): a call a string had been ~10 of its ~45
  // instructions.
  [[gnu::always_inline]] bool string(std::string_view& out, std::deque<std::string>& store) {
    skip_space();
    if (p == end || *p != '"') return false;
    const char* start = ++p;
#ifdef __SSE2__
    if (end - p >= 16) {
      if (unsigned mask = string_stops16(p)) {
        const char* q = p + std::countr_zero(mask);
        if (*q == '"') {
          out = std::string_view(start, static_cast<std::size_t>(q - start));
          p = q + 1;
          return true;
        }
      }
    }
#endif
    return string_rest(start, out, store);
  }

  // string() from the opening quote's next byte, `start`, with p at or before the first stop.
  [[gnu::noinline]] bool string_rest(const char* start, std::string_view& out, std::deque<std::string>& store) {
    bool at_stop = false;
#ifdef __SSE2__
    // 16 bytes a compare, as skip_space: the 8-byte word tricks took ~15 instructions a word.
    for (; end - p >= 16; p += 16) {
      if (unsigned mask = string_stops16(p)) {
        p += std::countr_zero(mask);
        at_stop = true;
        break;
      }
    }
#endif
    while (!at_stop && end - p >= 8) {
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
  // Performance note (callgrind, loads): ids of up to 7 digits (all of the six models') read
  // from one 8-byte load, its digits found and converted without a loop (the conversion as
  // fast_float's parse_eight_digits). The digit loop had cost ~19 instructions a digit, 3.8% of
  // Llama 2's load; now its load takes 1.8% fewer instructions (73.0M -> 71.7M).
  bool id(std::uint32_t& out) {
    skip_space();
    const char* start = p;
    if (end - p >= 8) {
      constexpr std::uint64_t kOnes = 0x0101010101010101;
      std::uint64_t x;
      std::memcpy(&x, p, 8);
      // A byte is zero for a digit ('0'-'9': high nibble 3, and 3 still after adding 6). A carry
      // out of a byte >= 0xFA only disturbs the bytes after it: no digit that counts.
      const std::uint64_t not_digit = ((x & (0xF0 * kOnes)) | (((x + 0x06 * kOnes) & (0xF0 * kOnes)) >> 4)) ^ (0x33 * kOnes);
      if (not_digit) {
        const int n = std::countr_zero(not_digit) / 8;  // digits (at most 7)
        if (n == 0 || (*p == '0' && n > 1)) return false;
        // The digits' values, the first in the lowest byte, moved up so that the bytes below
        // them are leading zeros of an 8-digit number (the bytes after them borrow only upward).
        std::uint64_t v = (x - 0x30 * kOnes) << (8 * (8 - n));
        v = (v * 10) + (v >> 8);  // pairs
        v = (((v & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) + (((v >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >> 32;
        p += n;
        out = static_cast<std::uint32_t>(v);
        return true;
      }
    }
    std::uint64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - start < 11) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
    if (p == start || (*start == '0' && p - start > 1) || v > 0x7FFFFFFF) return false;
    out = static_cast<std::uint32_t>(v);
    return true;  // a following '.', 'e' or digit fails at the next eat()
  }

  // Room for every entry of real files (a vocabulary entry takes 56-130 bytes of them, a
  // merge 32-75); untouched capacity costs no memory.
  std::size_t capacity_guess() const { return static_cast<std::size_t>(end - p) / 16 + 64; }

  // `progress`, when given, is where the reading is, every 1024 entries (for merges_split).
  bool vocab(BpeLists& lists, std::atomic<const char*>* progress = nullptr) {
    lists.vocab.reserve(capacity_guess());
    if (!eat('{')) return false;
    if (eat('}')) return true;
    do {
      BpeLists::Token t;
      if (!string(t.text, lists.vocab_unescaped) || !eat(':') || !id(t.id)) return false;
      lists.vocab.push_back(t);
      if (progress && lists.vocab.size() % 1024 == 0) progress->store(p, std::memory_order_relaxed);
    } while (eat(','));
    return eat('}');
  }

  bool merges(BpeLists& lists) {
    lists.merges.reserve(capacity_guess());
    if (!eat('[')) return false;
    if (eat(']')) return true;
    skip_space();
    return merge_entries(lists.merges.head, lists.merges_unescaped, nullptr) == kClosed;
  }

  // Where the one space of s is; npos when it has none or more than one. Performance note: two
  // find() calls were two memchr calls (~18 instructions each), a byte loop ~58 instructions a
  // merge of llama3_1; a 16-byte compare where s lies in the text (not unescaped) with 16 bytes
  // readable.
  std::size_t one_space(std::string_view s) const {
#ifdef __SSE2__
    if (s.size() <= 16 && s.data() + s.size() + 1 == p && end - s.data() >= 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data()));
      unsigned spaces = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')))) &
                        ((1u << s.size()) - 1);
      // One bit set (std::popcount is a libgcc call without -mpopcnt).
      return spaces && !(spaces & (spaces - 1)) ? static_cast<std::size_t>(std::countr_zero(spaces)) : std::string_view::npos;
    }
#endif
    std::size_t space = s.find(' ');
    return space == std::string_view::npos || s.find(' ', space + 1) != std::string_view::npos ? std::string_view::npos : space;
  }

  // Merges from an entry's start at p, each after a ',' and spaces, until the list's ']' (kClosed,
  // past it) or, when `stop` is set, until the entry that starts at `stop` (kAtStop). With a
  // handover, the helper may set `stop` on the way.
  enum Entries { kFailed, kClosed, kAtStop };
  Entries merge_entries(BlockVector<BpeLists::Merge>& out, std::deque<std::string>& unescaped, const char* stop,
                        Handover* handover = nullptr) {
    if (!handover) return merge_entries_until<false>(out, unescaped, stop, nullptr);
    if (wait_for_handover.load(std::memory_order_relaxed)) {
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (handover->state.load(std::memory_order_acquire) == Handover::kOpen && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    }
    Entries result = merge_entries_until<true>(out, unescaped, stop, handover);
    handover->close();
    return result;
  }
  template <bool kHandover>
  Entries merge_entries_until(BlockVector<BpeLists::Merge>& out, std::deque<std::string>& unescaped, const char* stop,
                              Handover* handover) {
    [[maybe_unused]] std::size_t count = 0;
    for (;;) {
      BpeLists::Merge m;
      if (p < end && *p == '"') {
        std::string_view s;
        if (!string(s, unescaped)) return kFailed;
        std::size_t space = one_space(s);
        if (space == std::string_view::npos) return kFailed;
        m = {s.substr(0, space), s.substr(space + 1)};
      } else if (!eat('[') || !string(m.left, unescaped) || !eat(',') || !string(m.right, unescaped) || !eat(']')) {
        return kFailed;
      }
      out.push_back(m);
      if (!eat(',')) return eat(']') ? kClosed : kFailed;
      skip_space();
      if constexpr (kHandover) {
        if (++count % 256 == 0) handover->reached.store(p, std::memory_order_relaxed);
        handover->answer(p, stop);
      }
      if (p == stop) return kAtStop;
      if (stop && p > stop) return kFailed;
    }
  }

  // Skips any value, checking only what finding its end needs (the DOM checks the rest).
  bool skip_value() {
    skip_space();
    if (p == end || *p == '}' || *p == ']') return false;
    if (*p == '{' || *p == '[') return skip_container();
    if (*p != '"') {  // a scalar, to the next delimiter
      while (p < end && !is_space(*p) && *p != ',' && *p != '}' && *p != ']') ++p;
      return true;
    }
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
    return true;
  }

  // Past the container that starts at p ('{' or '['), 64 bytes a step: which bytes lie in strings
  // comes from a prefix XOR of the unescaped quotes' bits, and only the brackets outside strings
  // count. Finding where the vocabulary ends this way (while the helper reads it) took Llama 2's
  // loading thread 401 us with the byte and string loops of skip_value; see docs/performance.md.
  bool skip_container() {
    std::size_t depth = 0;
    bool in_string = false, escape_next = false;  // carried from one block to the next
#ifdef __SSE2__
    while (end - p >= 64) {
      std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
      for (int k = 0; k < 4; ++k) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        auto bits = [k](__m128i m) { return std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(m))} << (16 * k); };
        quote |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        backslash |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        open |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('{')), _mm_cmpeq_epi8(v, _mm_set1_epi8('['))));
        close |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('}')), _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))));
      }
      // The bytes a backslash escapes, one backslash at a time (they are rare in these files).
      std::uint64_t escaped = escape_next ? 1 : 0;
      escape_next = false;
      for (std::uint64_t b = backslash & ~escaped; b; b &= b - 1) {
        int i = std::countr_zero(b);
        if (i == 63) {
          escape_next = true;
          break;
        }
        escaped |= std::uint64_t{1} << (i + 1);
        b &= ~(std::uint64_t{1} << (i + 1));  // an escaped backslash escapes nothing
      }
      std::uint64_t inside = prefix_xor(quote & ~escaped) ^ (in_string ? ~std::uint64_t{0} : 0);
      for (std::uint64_t brackets = (open | close) & ~inside; brackets; brackets &= brackets - 1) {
        int i = std::countr_zero(brackets);
        if (open >> i & 1) {
          ++depth;
        } else if (depth == 0) {
          return false;
        } else if (--depth == 0) {
          p += i + 1;
          return true;
        }
      }
      in_string = inside >> 63;
      p += 64;
    }
#endif
    for (; p < end; ++p) {
      char c = *p;
      if (escape_next) {
        escape_next = false;
      } else if (in_string) {
        if (c == '\\') escape_next = true;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) return false;
        if (--depth == 0) {
          ++p;
          return true;
        }
      }
    }
    return false;
  }
};

struct Span {
  const char* begin = nullptr;
  const char* end = nullptr;
};

}  // namespace

namespace {

// Where to split the merges list whose '[' is at `begin` between two threads: near `at`, at the
// first entry that starts a line
// (after a line break and indentation, the line before ending in ','; the entry opening as the
// list's first does, '"' or '[': the second string of a pair written over lines starts a line
// too). A raw line break is never inside a JSON string, so this is between values; the helper's
// reading from the list's start confirms it is an entry's start. nullptr when there is no such
// line nearby (a file on one line).
const char* merges_split(const char* begin, const char* end, const char* at) {
  const char* first = begin + 1;
  while (first < end && is_space(*first)) ++first;
  if (first == end || (*first != '"' && *first != '[')) return nullptr;
  at = std::max(at, first);
  const char* limit = std::min(end, at + (std::size_t{1} << 16));
  while (at < limit) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(limit - at)));
    if (!at) return nullptr;
    const char* before = at;
    while (before > begin && is_space(before[-1])) --before;
    const char* start = at + 1;
    while (start < end && is_space(*start)) ++start;
    if (before > begin && before[-1] == ',' && start < end && *start == *first) return start;
    at = start;
  }
  return nullptr;
}

}  // namespace

void wait_for_merges_handover_in_tests(bool on) { wait_for_handover.store(on, std::memory_order_relaxed); }

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
  // one skips over it to the second, which it reads itself (in large files; small ones read in
  // turn). When the vocabulary comes first (as in every real file), the merges are read by both:
  // this thread from a split point (split_target, below) to their end, the helper from their
  // start to that point once it has read the vocabulary.
  // Performance note (callgrind, each thread's instructions in this function): this thread read
  // all the merges while the helper read the vocabulary, Gemma 3 271M against 85M, gpt-oss 228M
  // against 65M; split at 3/8, 178M and 178M, 147M and 146M. Best of five loads: Gemma 3
  // 115 -> 89 ms, gpt-oss 100 -> 86 ms, Llama 3.1 40 -> 34 ms (with the halved token bytes in
  // tokenizer.cpp and added_vocabulary.cpp's plain entries). Since the vocabulary is skipped 64
  // bytes at a time (skip_container), the split follows the helper's progress instead of 3/8.
  Span vocab, merges;
  bool helper_ok = false;
  const char* helper_end = nullptr;
  const Span* helper_span = nullptr;
  std::function<void()> helper_work;  // declared before the task that refers to it
  std::optional<PoolTask> helper;
  const bool parallel = text.size() >= kParallelMinBytes;  // small files: a thread costs more
  std::exception_ptr helper_error;
  // The split point of the merges, handed to the helper (nullptr: no split).
  std::promise<const char*> split_promise;
  std::future<const char*> split_future = split_promise.get_future();
  bool split_sent = false;
  auto send_split = [&](const char* at) {
    if (split_sent) return;
    split_sent = true;
    split_promise.set_value(at);
  };
  const char* split = nullptr;
  Reader::Entries head_result = Reader::kFailed;  // the helper's part of the merges
  bool head_utf8 = true;
  BlockVector<BpeLists::Merge> tail;  // this thread's part
  bool tail_utf8 = false;
  // Where the helper's reading of the vocabulary is, for the split point of the merges.
  std::atomic<const char*> vocab_progress{nullptr};
  auto read_member = [&](std::string_view name, Reader& m) {
    return name == "vocab" ? m.vocab(lists, &vocab_progress) : m.merges(lists);
  };
  // The merges (from `begin` to about the end of the text: they are nearly all of it) are shared
  // so that both threads end together: this one reads from the split to the end, the helper
  // what is left of the vocabulary, then from the start to the split. A byte of the vocabulary
  // costs the helper about 1.3 times a byte of the merges, its UTF-8 check included (timed inside
  // loads, 2026-12-04: 0.9-1.2 for Llama 2 and Llama 3.1; with 1.0 this thread still ended first,
  // by 0.06 ms on Llama 2, 0.4 on Llama 3.1, 3 on Gemma 3; 1.5 was no better than 1.3).
  // Tried: the helper choosing the split once it has read the vocabulary, halfway through what
  // this thread (reading the merges from their start) has left. Both then ended together, but
  // later: Gemma 3's lists 16.0 -> 18.7 ms, gpt-oss 13.0 -> 14.6, DeepSeek V3 2.7 -> 3.3 (this
  // thread read its merges slower from their start than from a split, for reasons not found).
  auto split_target = [&](const char* begin) {
    const char* helper_at = std::max(vocab_progress.load(std::memory_order_relaxed), vocab.begin);
    std::size_t vocab_left = helper_at < vocab.end ? static_cast<std::size_t>(vocab.end - helper_at) : 0;
    std::size_t merges_bytes = static_cast<std::size_t>(r.end - begin);
    std::size_t this_share = std::min(merges_bytes, (merges_bytes + vocab_left * 13 / 10) / 2);
    return begin + (merges_bytes - this_share);
  };
  // Past the helper's share: the back half of what this thread has left, when that is worth a
  // handover (this thread's share is a guess made while the helper is still in the vocabulary,
  // and this thread, which maps the file's pages on its way, read slower per byte than the
  // helper: Llama 2 ended 0.6-0.9 ms after it, Qwen3 0.6, timed inside loads).
  Handover handover;
  const char* rest_begin = nullptr;
  const char* rest_end = nullptr;
  Reader::Entries rest_result = Reader::kFailed;
  bool rest_utf8 = false;
  bool rest_taken = false;  // this thread stopped where the rest began and went on from its end
  auto take_rest = [&](const char* split_at) {
    constexpr std::size_t kMinHandover = std::size_t{1} << 14;
    const char* from = std::max(handover.reached.load(std::memory_order_relaxed), split_at);
    const char* text_end = text.data() + text.size();
    const char* start = merges_split(merges.begin, text_end, from + (text_end - from) / 2);
    if (!start || static_cast<std::size_t>(start - from) < kMinHandover || !handover.ask(start)) return;
    Reader t{start, text_end};
    lists.merges.rest.reserve(static_cast<std::size_t>(text_end - start) / 16 + 64);
    rest_result = t.merge_entries(lists.merges.rest, lists.merges_rest_unescaped, nullptr);
    rest_begin = start;
    rest_end = t.p;
    rest_utf8 = rest_result == Reader::kClosed && simdjson::validate_utf8(start, static_cast<std::size_t>(t.p - start));
  };
  auto walk = [&] {
    for (;;) {
      if (!r.string(key, keys) || !r.eat(':')) return false;
      r.skip_space();
      if (key == "vocab" || key == "merges") {
        Span& span = key == "vocab" ? vocab : merges;
        if (span.begin) return false;  // duplicate member: leave it to the DOM
        span.begin = r.p;
        if (!vocab.begin || !merges.begin) {
          helper_span = &span;
          auto read_first = [&, name = key, m = r, may_split = parallel && key == "vocab"]() mutable {
            try {
              helper_ok = read_member(name, m);
              helper_end = m.p;
              if (!may_split) return;
              // The vocabulary's UTF-8 here, then the head of the merges when this thread gets a split.
              head_utf8 = helper_ok && simdjson::validate_utf8(vocab.begin, static_cast<std::size_t>(helper_end - vocab.begin));
              const char* at = split_future.get();
              if (!at || !helper_ok) return;
              Reader h{merges.begin, text.data() + text.size()};
              if (!h.eat('[')) return;
              h.skip_space();
              lists.merges.reserve(static_cast<std::size_t>(at - h.p) / 16 + 64);
              head_result = h.merge_entries(lists.merges.head, lists.merges_unescaped, at);
              head_utf8 = head_utf8 && simdjson::validate_utf8(merges.begin, static_cast<std::size_t>(at - merges.begin));
              if (head_result == Reader::kAtStop && head_utf8) take_rest(at);
            } catch (...) {
              helper_error = std::current_exception();
            }
          };
          if (parallel) {
            helper_work = std::move(read_first);
            helper.emplace(helper_work);
          } else {
            read_first();
          }
          if (!r.skip_value()) return false;
        } else if (parallel && key == "merges" && helper_span == &vocab && (split = merges_split(r.p, r.end, split_target(r.p)))) {
          send_split(split);
          r.p = split;
          tail.reserve(static_cast<std::size_t>(r.end - split) / 16 + 64);
          Reader::Entries tail_result = r.merge_entries(tail, lists.merges_tail_unescaped, nullptr, &handover);
          if (tail_result == Reader::kFailed) return false;
          // Here, while the helper still reads: after the join it was serial (Llama 3.1, ~0.3 ms).
          tail_utf8 = simdjson::validate_utf8(split, static_cast<std::size_t>(r.p - split));
          if (tail_result == Reader::kAtStop) {  // at the rest the helper took: on from its end
            helper->join();
            if (helper_error || rest_result != Reader::kClosed || !rest_utf8 || r.p != rest_begin) return false;
            r.p = rest_end;
            rest_taken = true;
          }
        } else if (!read_member(key, r)) {
          return false;
        }
        span.end = r.p;
      } else if (!r.skip_value()) {
        return false;
      }
      if (!r.eat(',')) return r.eat('}');
    }
  };
  bool ok = false;
  try {
    ok = walk();
  } catch (...) {
    send_split(nullptr);
    handover.close();
    if (helper) helper->join();
    throw;
  }
  send_split(nullptr);  // the helper waits for it
  handover.close();     // and for an answer, once it asks
  if (helper) helper->join();
  if (helper_error) std::rethrow_exception(helper_error);
  // The helper's member must end where skipping it ended.
  if (!helper_span || helper_end != helper_span->end) helper_ok = false;
  if (!ok || !helper_ok || !vocab.begin || !merges.begin) return std::nullopt;
  if (split) {
    // The helper's reading from the start of the merges must have come to the split point at the
    // start of an entry: then the tail read from there is the rest of the list.
    if (head_result != Reader::kAtStop || !head_utf8 || !tail_utf8) return std::nullopt;
    lists.merges.tail = std::move(tail);
    // A rest given but never reached: this thread read the list to its end (the rest began past
    // it, in another member), and what the helper read there is not merges.
    if (!rest_taken) lists.merges.rest.clear();
  } else {
    for (const Span& s : {vocab, merges})
      if (!simdjson::validate_utf8(s.begin, static_cast<std::size_t>(s.end - s.begin))) return std::nullopt;
  }

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
