// Values from JSON text, read in one pass (no DOM in between).
//
// Performance note (callgrind, Qwen3's template rendering bench/data/chat_six_messages_two_tools.json
// through apply_request, per render): the request used to go through simdjson's DOM (~14k
// instructions), then each list and dict became a vector and an object of its own, freed one by
// one after the render (~22k). Reading straight into Values, with the containers and unescaped
// strings in one ValueArena and every other string a view of the request text, cost ~24k (19k
// for the same request without whitespace); ~17k (14k), now ~13.7k (11.6k):
// - members in raw slots, moved once into the arena, each container and its members in one
//   piece of it, no destructor pass over the slots (was a vector, moved out and resized): ~-2.5k;
// - strings read in the container's frame; plain ones scanned inline, 16 bytes at a time with
//   SSE2 (8 without), most in one block: ~-1k;
// - pretty JSON's whitespace inline where it is (a newline and indentation spaces found with one
//   compare, one space after ':'): ~-1k;
// - the containers' loops keep the cursor, the end and the next free slot in locals (members are
//   reloaded after every store of a Value, which may alias them): ~-0.8k;
// - escapes decoded through a raw cursor (was std::string appends): ~-0.3k;
// - one reader path: a read without an arena copies out of an arena of its own: ~-0.2k.
// - after a member, pretty JSON's ",\n" and indentation, compact JSON's ',' and the closing bracket
//   inline, and ": " or ':' after a key (after_member, past_colon; skip_value likewise): ~-1.2k;
// - escapes decoded in locals, runs between them copied 16 bytes at a time, the one-byte escapes
//   from a table, read on from the first escape (not from the string's start): ~-0.7k;
// - special_bytes with a saturating subtract for '"', controls and non-ASCII: ~-0.5k;
// - string_at builds the Value, its first block apart (there borrowed() drops its 4 GiB test): ~-0.2k.
// Tried and dropped: one whitespace skip for every place (compact -0.45k, pretty +0.3k); after ':'
// one space skipped ahead of the usual test (pretty -0.2k, compact +0.5k); relocating members by
// placement new and memcpy (GCC kept the constructions' stores: +0.5k). Outside this file,
// DictObject's arena constructor inline for small dicts with distinct keys and
// Value::borrowed(string_view) built in place saved ~0.6k more.
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __AVX512BW__
#include <immintrin.h>
#endif

#include "base/json_string.hpp"
#include "chat/jinja/runtime.hpp"
#include "chat/jinja/template.hpp"

namespace textedge::detail::jinja {

namespace {

constexpr std::size_t kKeptSlots = 4096;
constexpr int kMaxDepth = 1000;  // deeper nesting is refused: the reader recurses

class Reader {
 public:
  // Every container and unescaped string goes to `arena`; no value read holds a reference, so
  // a read that fails leaves nothing to release in the slots.
  Reader(std::string_view json, ValueArena& arena)
      : begin_(json.data()), p_(json.data()), end_(json.data() + json.size()), arena_(arena) {}
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  // A huge request's scratch is not kept for the thread's life: beyond what chat requests need
  // (64 KiB of slots, 64 KiB of unescaped text) it goes back to the heap.
  ~Reader() {
    Scratch& s = scratch();
    if (s.capacity > kKeptSlots) {
      ::operator delete(s.slots);
      s.slots = nullptr;
      s.capacity = 0;
    }
    if (s.unescaped.capacity() > kKeptSlots * sizeof(Value)) std::string().swap(s.unescaped);
  }

  // Only these members of the top-level object are built (read_json_members); empty: all.
  void read_only(std::span<const std::string_view> names) { read_ = names; }
  Value document() {
    to_value();
    Value v = *p_ == '"'                 ? string()
              : *p_ == '{' && !read_.empty() ? object<true>(1)  // read_json_members
                                             : container_or_scalar(0);
    to_end();
    return v;
  }
  // The whole text checked as document() checks it, nothing built (check_json).
  void check() {
    to_value();
    p_ = skip_value(p_, 0);
    to_end();
  }

 private:
  // The document's value past leading whitespace, and after it only whitespace.
  void to_value() {
    p_ = skip_space(p_, end_);
    if (p_ == end_) fail("no JSON value (the text is empty or only whitespace)");
  }
  void to_end() {
    p_ = skip_space(p_, end_);
    if (p_ != end_) fail("unexpected text after the JSON value");
  }
  // The containers' loops keep the cursor in a local, p, and the end of the text in another:
  // p_ and end_ are members, reloaded after every store of a Value (which may alias them). p_ is
  // set from p before anything that reads it (a failure, an out-of-line reader) and p taken back
  // after.
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonSyntaxError(what, static_cast<std::size_t>(p_ - begin_));
  }
  [[noreturn]] void fail_expected(const char* what) const {
    if (p_ == end_) fail(std::string("expected ") + what + ", found the end of the text");
    fail(std::string("expected ") + what);
  }
  [[noreturn]] void fail_expected_at(const char* p, const char* what) {
    p_ = p;
    fail_expected(what);
  }

  // Whitespace from p, if any (then out of line).
  static const char* skip_space(const char* p, const char* end) {
    if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
    return skip_space_run(p, end);
  }
  // Where pretty JSON breaks lines (after '{', '[', ',' and a member): a newline and a run of
  // indentation spaces.
  static const char* skip_line_break(const char* p, const char* end) {
    if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
#ifdef __SSE2__
    if (*p == '\n' && end - p > 16) {
      if (unsigned m = not_spaces(p + 1)) {
        const char* q = p + 1 + std::countr_zero(m);
        if (static_cast<unsigned char>(*q) > ' ') return q;
      }
    }
#endif
    return skip_space_run(p, end);
  }
  // After ':': one space.
  static const char* skip_space_after_colon(const char* p, const char* end) {
    if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
    if (*p == ' ' && end - p > 1 && static_cast<unsigned char>(p[1]) > ' ') return p + 1;
    return skip_space_run(p, end);
  }

#ifdef __SSE2__
  // The 16 bytes at p as a bit mask: set where a byte is not ' '.
  static unsigned not_spaces(const char* p) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')))) & 0xFFFF;
  }

  // Whether the line after the newline at nl (16 bytes after it readable) starts with `indent`
  // spaces and then a byte that is not whitespace.
  // Performance note (a driver timing read_json_members on bench/data/chat_six_messages_two_tools.json,
  // 200k reads, best of five rounds, old and new binaries alternating; simdjson's DOM of the same
  // text timed in each round as a yardstick, 0.52-0.67 us): reading took 1.16-1.35 us, now
  // 0.82-0.96; Llama 3.1's apply_request 1.9-2.2 -> 1.56-1.8 us. Pretty JSON's line breaks were
  // found by counting the spaces after each newline (a 16-byte compare, its mask, countr_zero),
  // and the next line's place hung on that count: a chain of ~15 cycles at every line break that
  // nothing could overlap. Taken at the predicted place, the check is a branch the CPU predicts
  // and runs beside what follows. Instructions went up (Llama 3.1's render 21.36k -> 22.43k): the
  // earlier notes in this file count instructions, which missed this; reading here is bound by
  // such chains, not by instructions (the compact request read 40% faster than the pretty one).
  // The check as the first non-space byte's place (countr_zero of the mask, capped at 15) instead
  // of masks built from the indent: Llama 3.1's and DeepSeek V3's renders 24.40k -> 23.67k and
  // 30.21k -> 29.48k instructions, reading 0.71 -> 0.67-0.69 us (alternating, three rounds).
  static bool indented(const char* nl, unsigned indent) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(nl + 1));
    auto spaces = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))));
    // The first byte that is not a space, taken as 15 past that (a deeper indent is never
    // predicted here, nor one that wrapped below zero).
    return static_cast<unsigned>(__builtin_ctz(~spaces | 0x8000u)) == indent &&
           static_cast<unsigned char>(nl[1 + indent]) > ' ';
  }
#endif

  // From a whitespace byte at p: the first byte after the run.
  [[gnu::noinline]] static const char* skip_space_run(const char* p, const char* end) {
#ifdef __SSE2__
    // Pretty-printed requests are a third whitespace, nearly all of it a newline and a run of
    // spaces: one compare per 16 bytes finds its end.
    p += *p == '\n';
    if (scan16(p, end, not_spaces) && static_cast<unsigned char>(*p) > ' ') return p;
    bool found = scan16(p, end, [](const char* at) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      __m128i space =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                       _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
      return ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFF;
    });
    if (found) return p;
#endif
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    return p;
  }

#ifdef __SSE2__
  // Moves p 16 bytes at a time to the first byte `hits` (a bit mask of the 16 bytes at p) flags:
  // true; false where fewer than 16 bytes remain (the caller scans the rest).
  template <class Hits>
  static bool scan16(const char*& p, const char* end, Hits hits) {
    for (; end - p >= 16; p += 16)
      if (unsigned m = hits(p)) {
        p += std::countr_zero(m);
        return true;
      }
    return false;
  }
#endif

  // The value at p_ when it is not a string (strings are read in the container's frame).
  Value container_or_scalar(int depth) {
    if (p_ != end_ && *p_ == '{') return object(depth + 1);
    if (p_ != end_ && *p_ == '[') return array(depth + 1);
    return scalar();
  }

  [[gnu::noinline]] Value scalar() {
    if (p_ == end_) fail_expected("a value");
    switch (*p_) {
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

  // The members of the containers being read, innermost last (a dict's as key, value), are in
  // raw slots reused across reads on this thread. A container reserves a member's slots before
  // reading it, and moves its members out by copying their bytes: a Value's move is a copy of
  // its 16 bytes, and a slot left behind holds nothing to release.
  // (The containers' loops keep top_ in a local too, `top`, like p.)
  void reserve(Value*& top, std::ptrdiff_t n) {
    if (limit_ - top < n) {
      top_ = top;
      grow();
      top = top_;
    }
  }
  [[gnu::noinline]] void grow() {
    auto used = static_cast<std::size_t>(top_ - slots_);
    std::size_t capacity = std::max<std::size_t>(64, 2 * static_cast<std::size_t>(limit_ - slots_));
    auto* slots = static_cast<Value*>(::operator new(capacity * sizeof(Value)));
    if (used) std::memcpy(static_cast<void*>(slots), static_cast<const void*>(slots_), used * sizeof(Value));
    ::operator delete(slots_);
    scratch().slots = slots_ = slots;
    scratch().capacity = capacity;
    top_ = slots + used;
    limit_ = slots + capacity;
  }

  // Moves the slots from `from` (the innermost container's members) to n Ts (Values or dict
  // entries) at `to` in the arena: their bytes, as Value's own moves copy them, without the
  // moves' stores to the slots left behind, which are dropped unread.
  template <class T>
  T* relocate(Value* from, std::size_t n, void* to) {
    for (std::size_t i = 0; i < n; ++i)
      std::memcpy(static_cast<char*>(to) + i * sizeof(T),
                  static_cast<const void*>(from + i * (sizeof(T) / sizeof(Value))), sizeof(T));
    top_ = from;
    return static_cast<T*>(to);
  }

  // Performance note (callgrind, a driver rendering bench/data/chat_six_messages_two_tools.json
  // through apply_request 1000 times; read_json_members inclusive, per render): after_member,
  // past_colon (with member_at) and skip_value's same paths took Llama 3.1's read 13.56k -> 12.73k
  // (the compact request: 11.08k -> 10.80k) and Qwen3's, which builds the tools, 16.26k -> 15.08k
  // (13.37k -> 13.03k). A pretty member's ",\n" and indentation cost ~40 instructions through
  // another() (end tests, two skip_line_break calls, the key's test), now ~20; its ": " ~24, now
  // ~12. Tried and dropped: only the ',' inline ahead of another(), the closing bracket left to
  // it (compact +44: every object's last member paid both).
  // After a member: another() with pretty JSON's ",\n" and indentation, compact JSON's ',' and the
  // closing bracket read inline (not in the last 17 bytes of the text).
  [[gnu::always_inline]] bool after_member(const char*& p, const char* end, char close, const char* expected,
                                           unsigned& indent, unsigned outer) {
    if (end - p >= 18) {
      char c = *p;
      if (c == ',') {
        if (static_cast<unsigned char>(p[1]) > ' ') {
          ++p;
          return true;
        }
#ifdef __SSE2__
        if (p[1] == '\n') {
          if (indented(p + 1, indent)) {
            p += 2 + indent;
            return true;
          }
          if (unsigned m = not_spaces(p + 2)) {
            const char* q = p + 2 + std::countr_zero(m);
            if (static_cast<unsigned char>(*q) > ' ') {
              indent = static_cast<unsigned>(q - p - 2);
              p = q;
              return true;
            }
          }
        }
#endif
        p = skip_line_break(p + 1, end);
        return true;
      }
      if (c == close) {
        ++p;
        return false;
      }
#ifdef __SSE2__
      if (c == '\n') {
        if (indented(p, outer) && p[1 + outer] == close) {
          p += 2 + outer;
          return false;
        }
        if (unsigned m = not_spaces(p + 1)) {
          const char* q = p + 1 + std::countr_zero(m);
          if (*q == close) {
            p = q + 1;
            return false;
          }
        }
      }
#endif
    }
    return another(p, end, close, expected);
  }
  // Past the line break after a container's opening bracket at p, if any: its members' lines are
  // predicted `indent` spaces in (learnt where they are not: the steps of the text's indentation).
  [[gnu::always_inline]] const char* past_open(const char* p, const char* end, unsigned& indent, unsigned outer) {
#ifdef __SSE2__
    if (end - p >= 18 && p[1] == '\n') {
      if (indented(p + 1, indent)) return p + 2 + indent;
      const char* q = skip_line_break(p + 1, end);
      indent = static_cast<unsigned>(q - p - 2);
      if (indent > outer) step_ = indent - outer;
      return q;
    }
#endif
    return skip_line_break(p + 1, end);
  }
  // Past an object key's ':' and the whitespace around it, at the value (not the end: there the
  // value's own error, as reading it fails): pretty JSON's ": " and compact JSON's ':' inline.
  const char* past_colon(const char* p, const char* end) {
    if (end - p >= 3 && *p == ':') {
      if (static_cast<unsigned char>(p[1]) > ' ') return p + 1;
      if (p[1] == ' ' && static_cast<unsigned char>(p[2]) > ' ') return p + 2;
    }
    p = skip_space(p, end);
    if (p == end || *p != ':') fail_expected_at(p, "':' after an object key");
    p = skip_space_after_colon(p + 1, end);
    if (p == end) fail_expected_at(p, "a value");
    return p;
  }

  // After a member: true past a ',' (another member follows, whitespace skipped), false past the
  // closing bracket.
  bool another(const char*& p, const char* end, char close, const char* expected) {
    p = skip_line_break(p, end);
    if (p != end && *p == ',') {
      p = skip_line_break(p + 1, end);
      return true;
    }
    if (p != end && *p == close) {
      ++p;
      return false;
    }
    fail_expected_at(p, expected);
  }

  // Moves v into the uninitialized slot as two 8-byte words (Values are relocatable), leaving v
  // empty. A container's Value comes back from its call written as two 8-byte stores, and
  // Value's move read it as one 16-byte load, which the CPU cannot forward from two stores: it
  // waited for them to reach the cache (perf: ~8% of object<false>'s samples on the next
  // instruction).
  static void place(Value* slot, Value& v) {
    std::uint64_t first, second;
    std::memcpy(&first, static_cast<const void*>(&v), 8);
    std::memcpy(&second, reinterpret_cast<const char*>(&v) + 8, 8);
    asm("" : "+r"(first), "+r"(second));  // kept as two loads, not merged into one
    std::memcpy(static_cast<void*>(slot), &first, 8);
    std::memcpy(reinterpret_cast<char*>(slot) + 8, &second, 8);
    ::new (static_cast<void*>(&v)) Value();  // v no longer owns what it held
  }

  // The value at p (whitespace skipped) into the slot reserved at top; both move past it.
  void member(const char*& p, const char* end, Value*& top, int depth) {
    if (p != end && *p == '"') {
      string_at(p, end, top);
    } else {
      p_ = p;
      top_ = top;
      Value v = container_or_scalar(depth);  // may move the slots
      p = p_;
      top = top_;
      place(top, v);
    }
    ++top;
  }
  // member() for p before the end.
  void member_at(const char*& p, const char* end, Value*& top, int depth) {
    if (*p == '"') {
      string_at(p, end, top);
    } else {
      p_ = p;
      top_ = top;
      Value v = container_or_scalar(depth);  // may move the slots
      p = p_;
      top = top_;
      place(top, v);
    }
    ++top;
  }

  [[gnu::noinline]] Value array(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    const char* const end = end_;
    // Pretty JSON's lines: this container's starts `outer` spaces in, its members' `indent`.
    const unsigned outer = indent_;
    unsigned indent = outer + step_;
    const char* p = past_open(p_, end, indent, outer);
    Value* top = top_;
    auto first = top - slots_;
    if (p != end && *p == ']') {
      ++p;
    } else {
      for (;;) {
        reserve(top, 1);
        indent_ = indent;
        member(p, end, top, depth);
        if (!after_member(p, end, ']', "',' or ']' in an array", indent, outer)) break;
      }
    }
    indent_ = outer;
    p_ = p;
    Value* from = slots_ + first;
    auto n = static_cast<std::size_t>(top - from);
    // The list and its items in one piece of the arena.
    static_assert(sizeof(ListObject) % alignof(Value) == 0);
    void* place = arena_.allocate(sizeof(ListObject) + n * sizeof(Value));
    Value* items = relocate<Value>(from, n, static_cast<char*>(place) + sizeof(ListObject));
    return Value::borrowed(Type::List, ::new (place) ListObject(std::span<const Value>(items, n), false));
  }

  // kFiltered: the top-level object of read_json_members, which builds only the members in read_.
  template <bool kFiltered = false>
  [[gnu::noinline]] Value object(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    const char* const end = end_;
    const unsigned outer = indent_;  // as array()'s
    unsigned indent = outer + step_;
    const char* p = past_open(p_, end, indent, outer);
    Value* top = top_;
    auto first = top - slots_;
    // One bit per key from its size and first and last bytes: no bit set twice proves the keys
    // distinct, which spares the dict its pairwise duplicate check (a quarter of reading a chat
    // request's objects). (Tried and dropped: a bool set on a branch when a bit repeats, instead
    // of repeated_bits, which GCC keeps on the stack: Llama 3.1's read 11.45k -> 11.48k.)
    std::uint64_t key_bits = 0;
    std::uint64_t repeated_bits = 0;
    if (p != end && *p == '}') {
      ++p;
    } else {
      for (;;) {
        if (p == end || *p != '"') fail_expected_at(p, "a string key in an object");
        reserve(top, 2);
        std::string_view k = string_at(p, end, top++);
        // An empty key's first and last bytes are its quotes in the text (an escaped key is never empty).
        const char* key = k.data();
        const char* last = key + k.size() - 1;
        std::uint64_t bit = std::uint64_t{1} << ((k.size() * 7 + static_cast<unsigned char>(key[0]) * 3u +
                                                  static_cast<unsigned char>(*last)) &
                                                 63);
        repeated_bits |= key_bits & bit;
        key_bits |= bit;
        p = past_colon(p, end);
        if (kFiltered && !is_read(k)) {
          indent_ = indent;
          p = skip_value(p, depth);
          ::new (top++) Value();
        } else {
          indent_ = indent;
          member_at(p, end, top, depth);
        }
        if (!after_member(p, end, '}', "',' or '}' in an object", indent, outer)) break;
      }
    }
    indent_ = outer;
    p_ = p;
    using Entry = DictObject::Entry;
    Value* from = slots_ + first;
    auto n = static_cast<std::size_t>(top - from) / 2;
    // The dict and its entries in one piece of the arena.
    static_assert(sizeof(DictObject) % alignof(Entry) == 0);
    void* place = arena_.allocate(sizeof(DictObject) + n * sizeof(Entry));
    Entry* entries = relocate<Entry>(from, n, static_cast<char*>(place) + sizeof(DictObject));
    return Value::borrowed(Type::Dict,
                           ::new (place) DictObject(std::span<Entry>(entries, n), arena_, repeated_bits == 0));
  }

  bool is_read(std::string_view key) const {
    for (std::string_view name : read_)
      if (name == key) return true;
    return false;
  }

  // Past the value at p (its whitespace skipped), for members the caller never reads (a request's
  // tools when the template never names them): as check_value moves past it, for text that it
  // accepts and skip_value reads without doubt; anything else (an error, nesting 64 deep) goes
  // back to check_value from p, whose errors are exact. Strings with escapes or non-ASCII text
  // are checked by skip_string, as check_value checks them, and their errors are check_value's
  // too (everything before them was read the same way).
  // Performance note (callgrind, bench/data/chat_six_messages_two_tools.json, whose two tools are
  // 881 bytes, 125 tokens, pretty-printed; Llama 3.1's apply_request per render): check_value
  // alone 4.89k (with scalar()), this 4.18k; the render 28.9k -> 28.2k (compact: 3.58k -> 3.18k,
  // tools with escapes and non-ASCII text: 4.85k -> 4.14k, plus skip_special_string's share,
  // unchanged). Its savings: the open containers as bits of a register (check_value keeps an
  // array), the state as a place in the code, ": " after a key and ints of up to 18 digits inline
  // (scalar() costs ~120), strings through skip_string (its own inline 16-byte scan; a second
  // copy of that scan here for a string's first block saved 1 instruction a render, 45 on the
  // compact request: dropped).
  // Tried and dropped: the text classified 64 bytes at a time with SSE2 into bit masks (not space
  // or '\n'; '"', '\\', controls and non-ASCII), tokens walked by countr_zero and strings ended
  // by the masks: 4.22k (compact 3.76k, worse). Classifying 64 bytes costs ~80-100 instructions
  // with SSE2 (a compare and a copy per class, a movemask, shifts to join four) and the walk still
  // ~20 a token; a bit-parallel grammar check would need the six structural characters classified
  // too (~150 a block). So about 2.5k looks like the floor for a scan of this text with SSE2: the
  // per-token loads here (one per string, one per line break) cost about what the masks would.
  // (Those were instruction counts. In time, the per-token loads were the cost: each put a load
  // and a compare on the chain to the next token. Lines and strings now skip without them, at
  // more instructions: indented() and plain_string_end().)
  [[gnu::noinline]] const char* skip_value(const char* const start, int depth) {
    const char* const end = end_;
    const char* p = start;
    std::uint64_t objects = 0;  // bit n: the container n levels out from the innermost is an object
    const int limit = std::min(63, kMaxDepth - depth);  // open containers
    int open = 0;
    unsigned indent = indent_;
#ifdef __SSE2__
    Window window{nullptr, 0, 0};
#endif
  value:
    if (p == end) goto slow;
    if (*p == '"') {
#ifdef __SSE2__
      if (const char* q = plain_string_end(window, p, end)) p = q;
      else
#endif
      p = skip_string(p, end);
    } else if ((*p | 0x20) == '{') {  // '{' or '['
      if (open == limit) goto slow;
      const std::uint64_t object = *p == '{';
      objects = objects << 1 | object;
      ++open;
      {
        const unsigned outer = indent;
        indent = outer + step_;
        p = past_open(p, end, indent, outer);
      }
      if (p == end || *p != static_cast<char>(']' | object << 5)) {  // '}' or ']'
        if (object) goto key;
        goto value;
      }
      ++p;
      objects >>= 1;
      --open;
    } else if (*p >= '0' && *p <= '9') {
      // An int of up to 18 digits (no fraction or exponent) as number() reads it; other numbers
      // there.
      const char* q = p + 1;
      if (*p != '0')
        while (q != end && *q >= '0' && *q <= '9') ++q;
      if (q - p > 18 || (q != end && (*q == '.' || (*q | 0x20) == 'e'))) goto scalar;
      p = q;
    } else {
    scalar:
      p_ = p;
      scalar();
      p = p_;
    }
  after_value:
    if (open == 0) return p;
    // As after_member: pretty JSON's ",\n" and indentation, compact JSON's ',' and the closing
    // bracket inline. (Tried: one inline helper returning another/closed/unsure for both places:
    // Llama 3.1 +124 instructions a render, the outcome kept in a register and tested again.)
    if (end - p >= 18) {
      const char close = static_cast<char>(']' | (objects & 1) << 5);  // '}' or ']'
      if (*p == ',') {
        if (static_cast<unsigned char>(p[1]) > ' ') {
          ++p;
          goto next;
        }
#ifdef __SSE2__
        if (p[1] == '\n') {
          if (indented(p + 1, indent)) {
            p += 2 + indent;
            goto next;
          }
          if (unsigned m = not_spaces(p + 2)) {
            const char* q = p + 2 + std::countr_zero(m);
            if (static_cast<unsigned char>(*q) > ' ') {
              indent = static_cast<unsigned>(q - p - 2);
              p = q;
              goto next;
            }
          }
        }
#endif
      } else if (*p == close) {
        ++p;
        objects >>= 1;
        --open;
        goto after_value;
      }
#ifdef __SSE2__
      else if (*p == '\n') {
        if (indented(p, indent - step_) && p[1 + indent - step_] == close) {
          indent -= step_;
          p += 2 + indent;
          objects >>= 1;
          --open;
          goto after_value;
        }
        if (unsigned m = not_spaces(p + 1)) {
          const char* q = p + 1 + std::countr_zero(m);
          if (*q == close) {
            indent = static_cast<unsigned>(q - p - 1);
            p = q + 1;
            objects >>= 1;
            --open;
            goto after_value;
          }
        }
      }
#endif
    }
    p = skip_line_break(p, end);
    if (p == end) goto slow;
    if (*p == ',') {
      p = skip_line_break(p + 1, end);
    next:
      if (objects & 1) goto key;
      goto value;
    }
    if (*p != static_cast<char>(']' | (objects & 1) << 5)) goto slow;
    ++p;
    objects >>= 1;
    --open;
    goto after_value;
  key:
    if (p == end || *p != '"') goto slow;
#ifdef __SSE2__
    if (const char* q = plain_string_end(window, p, end)) p = q;
    else
#endif
    p = skip_string(p, end);
    if (end - p >= 3 && *p == ':') {
      if (static_cast<unsigned char>(p[1]) > ' ') {
        ++p;  // compact JSON's ':'
        goto value;
      }
      if (p[1] == ' ' && static_cast<unsigned char>(p[2]) > ' ') {
        p += 2;  // pretty JSON's ": "
        goto value;
      }
    }
    p = skip_space(p, end);
    if (p == end || *p != ':') goto slow;
    p = skip_space_after_colon(p + 1, end);
    goto value;
  slow:
    return check_value(start, depth);
  }

#ifdef __SSE2__
  // 64 bytes of the text from `at` as bit masks: its quotes, and the bytes that end a plain run
  // in a string (special_bytes: '"', '\\', controls and non-ASCII).
  struct Window {
    const char* at;
    std::uint64_t quotes, special;
  };
  static Window window_at(const char* p) {  // 64 bytes readable from p
#ifdef __AVX512BW__
    // (json_reader_avx512.cpp's build: one load, the masks straight from the compares.)
    __m512i v = _mm512_loadu_si512(p);
    __m512i q = _mm512_xor_si512(v, _mm512_set1_epi8(2));
    std::uint64_t special = _mm512_movepi8_mask(_mm512_subs_epi8(q, _mm512_set1_epi8(0x21))) |
                            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
    return Window{p, _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')), special};
#else
    Window w{p, 0, 0};
    for (int i = 0; i < 4; ++i) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      auto quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
      w.quotes |= std::uint64_t{quotes} << (16 * i);
      w.special |= std::uint64_t{special_bytes(p + 16 * i)} << (16 * i);
    }
    return w;
#endif
  }
  // Past the string whose opening quote is at p when its closing quote is the next one in the
  // window, or in one made at p (64 bytes readable), and no escape, control or non-ASCII byte
  // comes before it; else nullptr (skip_string's exact path).
  // Performance note: skip_string finds a string's end from a 16-byte compare at its start, and
  // the next token's place hangs on it: a chain of ~15 cycles at every string, which bound
  // skipping a request's tools. Here the masks are made once for 64 bytes, and a string's end is
  // a shift, an and and countr_zero away. Reading bench/data/chat_six_messages_two_tools.json,
  // tools skipped: 0.81-0.88 -> 0.71-0.72 us (driver as indented()'s), though instructions went
  // up (11.5k a read before this and indented(), 14.6k after: with its chains gone the CPU runs
  // this code at ~5 instructions a cycle). Tried and dropped: the special bytes' mask alone, a
  // string plain when the first special byte after its start is '"' (4 compares fewer a window):
  // 0.72-0.76 us, as that test of a loaded byte decides the result (a conditional move) and
  // put a load back on the chain. A string that runs past the window is looked for in the next
  // 64 bytes, not in a window made again at its start: 0.71 -> 0.67-0.70 us.
  [[gnu::always_inline]] static const char* plain_string_end(Window& w, const char* p, const char* end) {
    // (A window not made yet is at nullptr: o is then p's address, never below 64.)
    auto o = reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(w.at);
    if (o > 63) {
      if (end - p < 64) return nullptr;
      w = window_at(p);
      o = 0;
    }
    const std::uint64_t past_quote = ~std::uint64_t{1} << o;  // the window's bytes after the opening quote
    if (std::uint64_t after = w.quotes & past_quote) {
      auto e = static_cast<unsigned>(std::countr_zero(after));
      if (w.special & ((std::uint64_t{1} << e) - 1) & past_quote) return nullptr;
      return w.at + e + 1;
    }
    // The string goes on past the window: in the next 64 bytes, so that no byte is classified twice.
    if ((w.special & past_quote) || end - w.at < 128) return nullptr;
    w = window_at(w.at + 64);
    if (!w.quotes) return nullptr;
    auto e = static_cast<unsigned>(std::countr_zero(w.quotes));
    if (w.special & ((std::uint64_t{1} << e) - 1)) return nullptr;
    return w.at + e + 1;
  }
#endif

  // Past the value at p (its whitespace skipped), checked as reading it checks it, with the same
  // errors at the same offsets, but nothing built: skip_value's exact path. One loop over the
  // nesting, which it keeps as a bit per open container.
  // Performance note (callgrind, bench/data/chat_six_messages_two_tools.json, whose two tools
  // are 831 of its 1955 bytes): the request 16.2k instructions read whole, 14.4k with the tools
  // checked here; Llama 3.1's apply_request 30.7k -> 28.9k, DeepSeek V3's 37.4k -> 35.6k. The
  // scan (whitespace, strings, brackets) is most of reading; building the values was the rest.
  // escape() stays inline in both callers (out of line it cost the full read +0.25k), and the
  // filtering object is an instance of its own (in the shared one its test cost +0.5k).
  [[gnu::noinline]] const char* check_value(const char* p, int depth) {
    const char* const end = end_;
    std::uint64_t objects[(kMaxDepth + 64) / 64] = {};  // bit n: the n-th open container is an object
    std::size_t open = 0;
    auto skip_key = [&](const char* at) {
      if (at == end || *at != '"') fail_expected_at(at, "a string key in an object");
      at = skip_space(skip_string(at, end), end);
      if (at == end || *at != ':') fail_expected_at(at, "':' after an object key");
      return skip_space_after_colon(at + 1, end);
    };
    for (;;) {
      // At a value.
      if (p != end && *p == '"') {
        p = skip_string(p, end);
      } else if (p != end && (*p == '{' || *p == '[')) {
        const bool object = *p == '{';
        if (static_cast<std::size_t>(depth) + open + 1 > kMaxDepth) {
          p_ = p;
          fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
        }
        if (object) objects[open / 64] |= std::uint64_t{1} << (open % 64);
        else objects[open / 64] &= ~(std::uint64_t{1} << (open % 64));
        ++open;
        p = skip_line_break(p + 1, end);
        if (p != end && *p == (object ? '}' : ']')) {
          ++p;
          --open;
        } else {
          if (object) p = skip_key(p);
          continue;
        }
      } else {
        p_ = p;
        scalar();
        p = p_;
      }
      // After a value: the next member, or the ends of containers.
      for (;;) {
        if (open == 0) return p;
        const bool object = objects[(open - 1) / 64] >> ((open - 1) % 64) & 1;
        p = skip_line_break(p, end);
        if (p != end && *p == ',') {
          p = skip_line_break(p + 1, end);
          if (object) p = skip_key(p);
          break;
        }
        if (p != end && *p == (object ? '}' : ']')) {
          ++p;
          --open;
          continue;
        }
        fail_expected_at(p, object ? "',' or '}' in an object" : "',' or ']' in an array");
      }
    }
  }

  // Past the string whose opening quote is at p, checked as string_at checks it.
  [[gnu::always_inline]] const char* skip_string(const char* p, const char* end) {
    const char* q = p + 1;
#ifdef __SSE2__
    for (; end - q >= 16; q += 16) {
      if (unsigned m = special_bytes(q)) {
        q += std::countr_zero(m);
        if (*q == '"') return q + 1;
        break;
      }
    }
#endif
    return skip_special_string(q);
  }
  // skip_string from q, in the string, on: at an escape, a non-ASCII character, a control
  // character, or fewer than 16 bytes before the end.
  [[gnu::noinline]] const char* skip_special_string(const char* q) {
    p_ = q;
#ifdef __AVX512BW__
    int specials = 0;
    const char* by_bytes = nullptr;  // as special_string_text's
#endif
    for (;;) {
      skip_plain();
      if (p_ == end_) fail("unterminated string");
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') return ++p_;
      if (c == '\\') {
        char decoded[4];
        escape(decoded);
      } else if (c < 0x20) {
        fail("control character in a string (it must be escaped)");
      } else {
#ifdef __AVX512BW__
        if (++specials > 2 && p_ >= by_bytes && end_ - p_ >= 64) {
          utf8_blocks(by_bytes);
          continue;
        }
#endif
        skip_utf8();
      }
    }
  }

#ifdef __SSE2__
  // The 16 bytes at p as a bit mask: set where a byte ends a plain run.
  static unsigned special_bytes(const char* p) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // As signed bytes, controls and non-ASCII bytes are both below 0x20, and with bit 1 flipped
    // they stay there while '"' becomes ' ' (no other byte goes below 0x21): so (v ^ 2) - 0x21,
    // saturated, is negative (its sign bit set) just for them and '"'. Three instructions fewer
    // than three compares: no compare for the sign, no inverted greater-than.
    // Performance note (as after_member's): Llama 3.1's read 12.09k -> 11.58k (compact 10.16k ->
    // 9.65k), Qwen3's 14.40k -> 13.89k; skip_value alone 3.96k -> 3.77k. Tried and dropped: the
    // three constants made opaque once at skip_value's start (an empty asm), to keep GCC from
    // loading them again at every string: it kept them on the stack and loaded them anyway (-39).
    __m128i quote_or_control = _mm_subs_epi8(_mm_xor_si128(v, _mm_set1_epi8(2)), _mm_set1_epi8(0x21));
    __m128i special = _mm_or_si128(quote_or_control, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return static_cast<unsigned>(_mm_movemask_epi8(special));
  }
#endif

  // Moves p_ to the first byte that ends a plain run ('"', '\\', a control or non-ASCII), or to
  // the end.
  void skip_plain() {
    const char* p = p_;
#ifdef __SSE2__
    if (scan16(p, end_, special_bytes)) {
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

  Value string() { return Value::borrowed(string_text()); }  // borrowed() copies what is over 4 GiB

  // Performance note (as after_member's): Llama 3.1's read 11.58k -> 11.45k (compact 9.65k ->
  // 9.52k), Qwen3's 13.89k -> 13.69k (11.84k -> 11.65k). string_at has to be always_inline: GCC
  // stopped inlining it (+0.6k). Tried and dropped: countr_zero's int made unsigned before it is
  // added to a pointer, to spare its sign extension (GCC extends it all the same).
  // The text of the string whose opening quote is at p, which moves past its closing quote: a
  // view of the JSON text, or, with escapes, of its decoding in the arena; also built as a Value
  // at slot (borrowed() copies what is over 4 GiB).
  [[gnu::always_inline]] std::string_view string_at(const char*& p, const char* end, Value* slot) {
    const char* start = p + 1;
#ifdef __SSE2__
    if (const char* q = plain_string_end(window_, p, end)) {
      p = q;
      std::string_view text(start, static_cast<std::size_t>(q - 1 - start));
      ::new (slot) Value(Value::borrowed(text));
      return text;
    }
    // Plain strings (nearly all) inline; most, keys above all, end in their first block, which is
    // read apart: there the size is known to be below 32, and borrowed() drops its test.
    if (end - start >= 16) {
      if (unsigned m = special_bytes(start)) {
        const char* q = start + std::countr_zero(m);
        if (*q == '"') {
          p = q + 1;
          std::string_view text(start, static_cast<unsigned>(std::countr_zero(m)));
          ::new (slot) Value(Value::borrowed(text));
          return text;
        }
        return special_string_at(p, start, q, slot);
      }
      for (const char* q = start + 16; end - q >= 16; q += 16) {
        if (unsigned m = special_bytes(q)) {
          q += std::countr_zero(m);
          if (*q != '"') return special_string_at(p, start, q, slot);
          p = q + 1;
          std::string_view text(start, static_cast<std::size_t>(q - start));
          ::new (slot) Value(Value::borrowed(text));
          return text;
        }
      }
    }
#endif
    p_ = p;
    std::string_view text = string_text();
    p = p_;
    ::new (slot) Value(Value::borrowed(text));
    return text;
  }
  // string_at from q, an escape, a non-ASCII or a control character (not from the start).
  std::string_view special_string_at(const char*& p, const char* start, const char* q, Value* slot) {
    p_ = q;
    std::string_view text = special_string_text(start);
    p = p_;
    ::new (slot) Value(Value::borrowed(text));
    return text;
  }

  // string_at for p_.
  [[gnu::noinline]] std::string_view string_text() {
    const char* start = ++p_;
    skip_plain();
    if (p_ != end_ && *p_ == '"') return {start, static_cast<std::size_t>(p_++ - start)};
    return special_string_text(start);
  }

  // A string whose plain run ended before its closing quote: at an escape, a non-ASCII
  // character, a control character or the end of the text.
  [[gnu::noinline]] std::string_view special_string_text(const char* start) {
#ifdef __AVX512BW__
    int specials = 0;
    const char* by_bytes = nullptr;  // below it, text is read byte by byte
#endif
    for (;;) {
      if (p_ == end_) fail("unterminated string");
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') return {start, static_cast<std::size_t>(p_++ - start)};
      if (c == '\\') return escaped_string_text(start);
      if (c < 0x20) fail("control character in a string (it must be escaped)");
#ifdef __AVX512BW__
      if (++specials > 2 && p_ >= by_bytes && end_ - p_ >= 64) {
        utf8_blocks(by_bytes);
        continue;
      }
#endif
      skip_utf8();
      skip_plain();
    }
  }

#ifdef __AVX512BW__
  // From a string's third non-ASCII character: its text read in whole 64-byte blocks of UTF-8
  // (utf8_block), up to what they cannot settle (an escape, a control character, invalid UTF-8,
  // fewer than 64 bytes left), which is then read byte by byte, as a block's characters are when
  // there are only a few (`by_bytes` set past them). Leaves p_ at a byte that ends a plain run.
  // Out of special_string_text, whose strings mostly have a character or two: with this inline,
  // six strings of two non-ASCII characters each (Llama 3.1's template) took 0.91 against 0.87 us
  // even where it never ran. CJK text (/tmp driver, Qwen3's template, three user and three
  // assistant messages of 150 Chinese characters): 6.8 -> 3.2 us a render.
  [[gnu::noinline]] void utf8_blocks(const char*& by_bytes) {
    while (end_ - p_ >= 64) {
      const char* few = nullptr;
      const unsigned n = utf8_block(p_, few);
      if (few) {
        by_bytes = few;
        break;
      }
      p_ += n;
      if (n == 64) continue;
      if (n == 0) by_bytes = p_ + 64;  // invalid UTF-8, or a character across the block: byte by byte
      break;
    }
    if (p_ == end_) return;
    auto c = static_cast<unsigned char>(*p_);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') skip_plain();
  }
#endif

#ifdef __AVX512BW__
  // The 64 bytes at p (all readable) as string text: how many are valid UTF-8 before the first
  // '"', '\\' or control character, ending at a character's end; 0 when that stretch is not
  // valid UTF-8 (skip_utf8() then names the fault exactly).
  // A stretch with fewer than 8 non-ASCII bytes is left to the byte-by-byte reading (0, and `few`
  // set to its end): skip_utf8() costs less for a character or two than the block's checks.
  static unsigned utf8_block(const char* p, const char*& few) {
    const __m512i v = _mm512_loadu_si512(p);
    const std::uint64_t stop = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) |
                               _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')) |
                               _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
    const std::uint64_t before = (stop - 1) & ~stop;
    if (const int high = std::popcount(static_cast<std::uint64_t>(_mm512_movepi8_mask(v)) & before); high && high < 8) {
      few = p + std::popcount(before);
      return 0;
    }
    return utf8_prefix(v, stop);
  }
  // How many of the 64 bytes of v are valid UTF-8 before the first byte in `stop`, ending at a
  // character's end (before a character that runs past the block); 0 when they are not valid.
  // Performance note (/tmp driver, apply_request on bench/data/chat_six_messages_two_tools.json):
  // a string's non-ASCII characters each cost skip_utf8() and a new 16-byte scan, whose loads
  // and compares chained one character to the next; here a block's leads, continuations and the
  // second bytes that UTF-8 restricts are bit masks, checked together.
  static unsigned utf8_prefix(const __m512i v, std::uint64_t stop) {
    const std::uint64_t high = _mm512_movepi8_mask(v);
    if (!(high & (stop - 1) & ~stop)) return stop ? static_cast<unsigned>(std::countr_zero(stop)) : 64;  // ASCII
    const std::uint64_t cont = high & _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xC0)));
    const std::uint64_t lead2 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xC2))) &
                                _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xDF)));
    const std::uint64_t lead3 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xE0))) &
                                _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xEF)));
    const std::uint64_t lead4 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF0))) &
                                _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF4)));
    // The stretch ends at the first stop byte, or else before a character that runs past the block.
    const std::uint64_t across = (lead2 >> 63 << 63) | (lead3 >> 62 << 62) | (lead4 >> 61 << 61);
    const std::uint64_t ends = stop | across;
    const unsigned e = ends ? static_cast<unsigned>(std::countr_zero(ends)) : 64;
    const std::uint64_t in = e == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << e) - 1;
    const std::uint64_t l2 = lead2 & in, l3 = lead3 & in, l4 = lead4 & in;
    // The continuation bytes the leads call for, which must be exactly the stretch's.
    const std::uint64_t wanted = l2 << 1 | l3 << 1 | l3 << 2 | l4 << 1 | l4 << 2 | l4 << 3;
    // E0 and F0 need a second byte high enough not to be overlong, ED one low enough not to be a
    // surrogate, F4 one low enough to stay under U+110000.
    const std::uint64_t below_a0 = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xA0)));
    const std::uint64_t below_90 = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0x90)));
    const std::uint64_t bad_second =
        ((l3 & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(0xE0)))) << 1 & below_a0) |
        ((l3 & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(0xED)))) << 1 & ~below_a0) |
        ((l4 & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF0)))) << 1 & below_90) |
        ((l4 & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF4)))) << 1 & ~below_90);
    const std::uint64_t bad_lead = high & ~cont & ~(lead2 | lead3 | lead4) & in;
    // (A continuation called for past `in` is missing from `cont & in`: it shows in the xor too.)
    if ((wanted ^ (cont & in)) | bad_second | bad_lead) return 0;
    return e;
  }
#endif

  // Performance note (as after_member's): the three strings with escapes or non-ASCII text in
  // bench/data/chat_six_messages_two_tools.json cost 1.58k instructions a render (string_text's
  // scan again from the start, then p_ reloaded after every char stored), now 0.92k; Llama 3.1's
  // read 12.73k -> 12.09k (compact 10.80k -> 10.16k), Qwen3's 15.08k -> 14.40k. Tried and
  // dropped: the text before the first escape and the result copied in 16-byte blocks instead of
  // by memcpy (the arena's pieces are whole blocks): +5.
  // Decodes into unescaped_ from the escape at p_ (the text from start to p_ is plain), in locals:
  // the cursor, the end and the output (a member reloads after every store of a char, which may
  // alias it); p_ is set before anything that reads it (a failure, escape(), skip_utf8()). Runs
  // between escapes are copied 16 bytes at a time, with room for 32 more bytes kept ahead of
  // what is written (an escape writes at most four, a block 16).
  std::string_view escaped_string_text(const char* start) {
    const char* p = p_;
    const char* const end = end_;
    auto n = static_cast<std::size_t>(p - start);
    room(n + 32);
    char* base = unescaped_.data();
    std::memcpy(base, start, n);
    char* out = base + n;
    char* limit = base + unescaped_.size();
    // Keeps room for 32 bytes at out.
    auto keep_room = [&] {
      if (limit - out < 32) {
        n = static_cast<std::size_t>(out - base);
        room(n + 32);
        base = unescaped_.data();
        out = base + n;
        limit = base + unescaped_.size();
      }
    };
    for (;;) {
      // At '"', an escape, a control or non-ASCII character, or the end.
      if (p == end) {
        p_ = p;
        fail("unterminated string");
      }
#ifdef __SSE2__
    special:  // from a block: before the end
#endif
      auto c = static_cast<unsigned char>(*p);
      if (c == '"') break;
      if (c == '\\') {
        // The one-byte escapes inline; \u and what fails in escape().
        if (end - p >= 2)
          if (char decoded = kEscaped[static_cast<unsigned char>(p[1])]) {
            *out++ = decoded;
            p += 2;
            goto plain;
          }
        p_ = p;
        out += escape(out);
        p = p_;
      } else if (c < 0x20) {
        p_ = p;
        fail("control character in a string (it must be escaped)");
      } else {
        p_ = p;
        skip_utf8();
        while (p != p_) *out++ = *p++;
      }
    plain:
      keep_room();
#ifdef __AVX512BW__
      // 64 bytes a step: the block's quotes and escapes as bit masks, the runs between them copied
      // whole and one-byte escapes decoded in place; its UTF-8 text checked at once (utf8_prefix).
      // What a block cannot settle (a control character, a character past the block, invalid
      // UTF-8, \u, an escape at its last byte) goes to `special` as the 16-byte scan's finds do.
      // Performance note: each escape had cost a new 16-byte scan from it, loads and compares
      // chained escape to escape (bench/data/chat_six_messages_two_tools.json's tool results
      // have six each).
      while (end - p >= 64) {
        if (limit - out < 128) {  // a block's run is stored whole, 64 bytes, anywhere in its 64
          n = static_cast<std::size_t>(out - base);
          room(n + 128);
          base = unescaped_.data();
          out = base + n;
          limit = base + unescaped_.size();
        }
        const __m512i v = _mm512_loadu_si512(p);
        const std::uint64_t controls = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
        const std::uint64_t escapes = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
        std::uint64_t events = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) | escapes;
        if (const unsigned valid = utf8_prefix(v, controls))
          events |= valid < 64 ? std::uint64_t{1} << valid : 0;  // text before it is valid
        else
          events |= controls | static_cast<std::uint64_t>(_mm512_movepi8_mask(v));  // as the 16-byte scan
        unsigned from = 0;  // the block's bytes before `from` are written
        for (;;) {
          const unsigned i = events ? static_cast<unsigned>(std::countr_zero(events)) : 64;
          _mm512_storeu_si512(out, _mm512_maskz_loadu_epi8(~std::uint64_t{0} >> from, p + from));
          out += i - from;
          if (i == 64) {
            p += 64;
            break;
          }
          char decoded = 0;
          if ((escapes >> i & 1) && i < 63) decoded = kEscaped[static_cast<unsigned char>(p[i + 1])];
          if (!decoded) {  // '"', \u, an invalid escape, or what the block cannot settle
            p += i;
            goto special;
          }
          *out++ = decoded;
          from = i + 2;
          if (from == 64) {
            p += 64;
            break;
          }
          events &= ~std::uint64_t{0} << from;
        }
      }
#endif
#ifdef __SSE2__
      while (end - p >= 16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        if (unsigned m = special_bytes(p)) {
          p += std::countr_zero(m);
          out += std::countr_zero(m);
          goto special;
        }
        p += 16;
        out += 16;
        keep_room();
      }
#endif
      // The rest byte by byte (with SSE2, fewer than 16 bytes: room for all of them).
      while (p != end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20 &&
             static_cast<unsigned char>(*p) < 0x80) {
#ifndef __SSE2__
        keep_room();
#endif
        *out++ = *p++;
      }
    }
    p_ = p + 1;
    n = static_cast<std::size_t>(out - base);
    auto* chars = static_cast<char*>(arena_.allocate(n));
    std::memcpy(chars, base, n);
    return {chars, n};
  }
  void room(std::size_t size) {
    if (unescaped_.size() < size) unescaped_.resize(std::max(size, 2 * unescaped_.size()));
  }
  // The byte each one-byte escape stands for (\b, \f, \n, \r, \t, \", \\, \/); 0 for the others.
  static constexpr auto kEscaped = [] {
    std::array<char, 256> t{};
    t['"'] = '"';
    t['\\'] = '\\';
    t['/'] = '/';
    t['b'] = '\b';
    t['f'] = '\f';
    t['n'] = '\n';
    t['r'] = '\r';
    t['t'] = '\t';
    return t;
  }();

  // The escape at p_, written at out (at most four bytes): how many bytes it wrote.
  [[gnu::always_inline]] std::size_t escape(char* out) {
    const char* backslash = p_++;
    if (p_ == end_) fail("unterminated string");
    char c = *p_++;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        *out = c;
        return 1;
      case 'b':
        *out = '\b';
        return 1;
      case 'f':
        *out = '\f';
        return 1;
      case 'n':
        *out = '\n';
        return 1;
      case 'r':
        *out = '\r';
        return 1;
      case 't':
        *out = '\t';
        return 1;
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
    auto byte = [](char32_t bits) { return static_cast<char>(bits); };
    if (cp < 0x80) {
      out[0] = byte(cp);
      return 1;
    }
    if (cp < 0x800) {
      out[0] = byte(0xC0 | (cp >> 6));
      out[1] = byte(0x80 | (cp & 0x3F));
      return 2;
    }
    if (cp < 0x10000) {
      out[0] = byte(0xE0 | (cp >> 12));
      out[1] = byte(0x80 | ((cp >> 6) & 0x3F));
      out[2] = byte(0x80 | (cp & 0x3F));
      return 3;
    }
    out[0] = byte(0xF0 | (cp >> 18));
    out[1] = byte(0x80 | ((cp >> 12) & 0x3F));
    out[2] = byte(0x80 | ((cp >> 6) & 0x3F));
    out[3] = byte(0x80 | (cp & 0x3F));
    return 4;
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

  struct Scratch {
    Value* slots = nullptr;
    std::size_t capacity = 0;
    std::string unescaped;
    Scratch() = default;
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch() { ::operator delete(slots); }
  };
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  ValueArena& arena_;
  Value* slots_ = scratch().slots;
  Value* top_ = slots_;  // the next free slot
  Value* limit_ = slots_ + scratch().capacity;
  // Pretty JSON's indentation: the line of the member being read starts indent_ spaces in, and a
  // container's members step_ more than the container (both learnt as read, and only predictions:
  // a line is checked before it is taken).
  unsigned indent_ = 0, step_ = 1;
#ifdef __SSE2__
  Window window_{nullptr, 0, 0};  // string_at's (plain_string_end)
#endif
  std::string& unescaped_ = scratch().unescaped;
  std::span<const std::string_view> read_;
};

// The members in `read` built, the others checked; empty: all built.
Value read_members(std::string_view json, ValueArena& arena, std::span<const std::string_view> read) {
  Reader reader(json, arena);
  reader.read_only(read);
  return reader.document();
}

}  // namespace

#ifdef TEXTEDGE_JSON_READER_AVX512
// This file compiled again for CPUs with AVX-512 (json_reader_avx512.cpp): the reader
// read_json_members below chooses when running on one.
Value read_json_members_avx512(std::string_view json, ValueArena& arena, std::span<const std::string_view> read) {
  return read_members(json, arena, read);
}
#else
JsonSyntaxError::JsonSyntaxError(const std::string& what, std::size_t offset)
    : std::runtime_error(what + " at byte offset " + std::to_string(offset)), reason_(what), offset_(offset) {}

#ifdef TEXTEDGE_AVX512_READER
Value read_json_members_avx512(std::string_view json, ValueArena& arena, std::span<const std::string_view> read);
#endif

namespace {
// The reader built for AVX-512 and BMI2 when the CPU has them (its 64-byte windows are one load
// and three compares straight into masks, against four loads and twelve steps with SSE2; its bit
// steps single instructions), unless the environment's TEXTEDGE_JSON_READER is "baseline" (the
// tests run both; simdjson's SIMDJSON_FORCE_IMPLEMENTATION chooses its kernels so).
// Performance note (a /tmp driver timing apply_request on bench/data/chat_six_messages_two_tools.json,
// best of six rounds of 30k renders, builds alternating): Llama 3.1 1.47 -> 1.39 us, DeepSeek V3
// 1.79 -> 1.74 us. Tried: AVX-512 without BMI (-mavx512bw -mavx512vl): no faster than SSE2 (1.85
// against 1.84, 1.41 against 1.39); the whole library for x86-64-v3 (AVX2, BMI): reading 0.68-0.70
// us either way.
bool avx512_reader() {
#ifdef TEXTEDGE_AVX512_READER
  static const bool use = [] {
    const char* choice = std::getenv("TEXTEDGE_JSON_READER");
    if (choice && std::string_view(choice) == "baseline") return false;
    return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2");
  }();
  return use;
#else
  return false;
#endif
}

// A value read into an arena, rebuilt to own all it holds.
Value owned_copy(const Value& v) {
  switch (v.type()) {
    case Type::String:
      return Value(v.str());
    case Type::List: {
      std::vector<Value> items;
      items.reserve(v.items().size());
      for (const Value& item : v.items()) items.push_back(owned_copy(item));
      return Value::list(std::move(items));
    }
    case Type::Dict: {
      std::vector<DictObject::Entry> entries;
      entries.reserve(v.dict().size());
      for (const auto& [key, item] : v.dict().entries()) entries.emplace_back(owned_copy(key), owned_copy(item));
      return Value::dict(std::move(entries));
    }
    default:
      return v;
  }
}
}  // namespace

Value read_json(std::string_view json, ValueArena* arena) {
  if (arena) return read_json_members(json, *arena, {});
  // Without an arena: read into one of its own (the reader's one fast path), then copy out.
  ValueArena own;
  return owned_copy(read_json_members(json, own, {}));
}

Value read_json_members(std::string_view json, ValueArena& arena, std::span<const std::string_view> read) {
#ifdef TEXTEDGE_AVX512_READER
  if (avx512_reader()) return read_json_members_avx512(json, arena, read);
#endif
  return read_members(json, arena, read);
}

void check_json(std::string_view json) {
  ValueArena unused;
  Reader(json, unused).check();
}

Value value_from_json(std::string_view json) {
  try {
    return read_json(json, nullptr);
  } catch (const JsonSyntaxError& e) {
    throw TemplateError("ValueError", std::string("invalid JSON: ") + e.what(), 0, 0);
  }
}
#endif

}  // namespace textedge::detail::jinja
