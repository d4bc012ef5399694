// Replace normalizer: replaces every match of a pattern ({"String": ...} or {"Regex": ...}) by
// "content". Matches are found left to right without overlap; an empty match right after the
// previous match is skipped, as Oniguruma's iterator (used by the reference) does.
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/regex.hpp"
#include "base/utf8.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail::normalizers {
namespace {

// The common case, a non-empty literal: count the matches, then write the result in one go.
void replace_literal(std::string& text, std::string_view literal, std::string_view content) {
  std::size_t count = 0;
  if (literal.size() == 1) {
    const void* first = std::memchr(text.data(), literal[0], text.size());
    if (first == nullptr) return;
    // Counted 16 bytes at a time: a byte counter per lane, summed every 255 blocks (GCC 12 at -O2
    // left the plain loop, and std::count, a byte at a time: ~2.7 instructions a byte; encode of
    // bench2.txt, a warm pass: llama2 161.9M -> 159.2M instructions, gemma3 193.3M -> 191.8M;
    // callgrind, 2026-12-05).
    const char* p = static_cast<const char*>(first);
    const char* end = text.data() + text.size();
    char c = literal[0];
#ifdef __SSE2__
    const __m128i wanted = _mm_set1_epi8(c);
    while (end - p >= 16) {
      __m128i lanes = _mm_setzero_si128();
      for (int blocks = 0; blocks < 255 && end - p >= 16; ++blocks, p += 16)
        lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), wanted));
      __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
      count += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) + static_cast<std::size_t>(_mm_extract_epi16(sums, 4));
    }
#endif
    for (; p != end; ++p) count += *p == c;
  } else {
    for (std::size_t at = text.find(literal); at != std::string::npos; at = text.find(literal, at + literal.size())) ++count;
  }
  if (count == 0) return;
  if (content.size() == literal.size()) {
    for (std::size_t at = text.find(literal); at != std::string::npos; at = text.find(literal, at + literal.size()))
      std::memcpy(text.data() + at, content.data(), content.size());
    return;
  }
  std::size_t size = text.size() - count * literal.size() + count * content.size();
  if (literal.size() == 1 && content.size() <= 4) {
    // Frequent matches (a space -> U+2581): the content is written as one 4-byte store (a
    // memcpy call per match cost more than the loop), and the text between matches 16 bytes at
    // a time, stored whole and overwritten from the match on (llama2 encode of 300 KB of
    // bench.txt: this function 3.46M -> 1.52M instructions; a byte loop before).
    // Written into a buffer kept for the thread, swapped with the text: the two buffers take
    // turns, so pieces of text (Gemma 3's text comes split at its added tokens of newline and tab
    // runs) allocate nothing once warm (gemma3, a warm pass over 350 KB of bench.txt:
    // malloc and free 1.04M instructions -> 0, the pass 33.3M -> 32.0M; callgrind, 2026-12-04).
    thread_local std::string out;
    out.resize(size + 16);
    char* write = out.data();
    char packed[4] = {};
    std::memcpy(packed, content.data(), content.size());
    const char match = literal[0];
    const char* read = text.data();
    const char* const end = read + text.size();
#ifdef __SSE2__
    const __m128i wanted = _mm_set1_epi8(match);
    while (end - read >= 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(read));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(write), v);
      auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, wanted)));
      if (m == 0) {
        read += 16;
        write += 16;
        continue;
      }
      auto k = static_cast<std::size_t>(__builtin_ctz(m));
      std::memcpy(write + k, packed, 4);
      write += k + content.size();
      read += k + 1;
    }
#endif
    for (; read != end; ++read) {
      if (*read == match) {
        std::memcpy(write, packed, 4);
        write += content.size();
      } else {
        *write++ = *read;
      }
    }
    out.resize(size);
    text.swap(out);
    return;
  }
  std::string out(size, '\0');
  char* write = out.data();
  if (literal.size() == 1) {  // frequent matches (a space): a plain byte loop beats find()
    for (char c : text) {
      if (c == literal[0]) {
        std::memcpy(write, content.data(), content.size());
        write += content.size();
      } else {
        *write++ = c;
      }
    }
    text.swap(out);
    return;
  }
  std::size_t copied = 0;
  for (std::size_t at = text.find(literal); at != std::string::npos; at = text.find(literal, copied)) {
    std::memcpy(write, text.data() + copied, at - copied);
    write += at - copied;
    std::memcpy(write, content.data(), content.size());
    write += content.size();
    copied = at + literal.size();
  }
  std::memcpy(write, text.data() + copied, text.size() - copied);
  text.swap(out);
}

class Replace final : public Normalizer {
 public:
  // A literal pattern; an empty one matches between every two characters and at both ends.
  Replace(std::string literal, std::string content) : literal_(std::move(literal)), content_(std::move(content)) {}
  Replace(Regex regex, std::string content)
      : regex_(std::make_unique<Regex>(std::move(regex))), content_(std::move(content)) {}

  void normalize(std::string& text) const override;
  std::string describe() const override { return "Replace"; }

 private:
  std::string literal_;
  std::unique_ptr<Regex> regex_;  // null for a literal pattern
  std::string content_;
};

void Replace::normalize(std::string& text) const {
  if (text.empty()) return;  // the reference reports no match at all in empty text
  if (!regex_ && !literal_.empty()) {
    replace_literal(text, literal_, content_);
    return;
  }
  std::string out;
  if (!regex_) {
    // The empty literal matches at every character boundary, both ends included.
    out.reserve(text.size() + (text.size() + 1) * content_.size());
    out += content_;
    for (std::size_t i = 0; i < text.size();) {
      std::size_t next = i + static_cast<std::size_t>(utf8_length(static_cast<unsigned char>(text[i])));
      out.append(text, i, next - i);
      out += content_;
      i = next;
    }
    text.swap(out);
    return;
  }
  std::size_t copied = 0;
  bool replaced = false;
  regex_->for_each_match(text, [&](std::size_t begin, std::size_t end) {
    if (!replaced) out.reserve(text.size() + content_.size() + 16);
    out.append(text, copied, begin - copied);
    out += content_;
    copied = end;
    replaced = true;
  });
  if (!replaced) return;
  out.append(text, copied);
  text.swap(out);
}

}  // namespace

std::unique_ptr<Normalizer> replace_from_json(const Json& json) {
  Json pattern = json.get("pattern");
  if (!pattern.is_object() || pattern.size() != 1)
    pattern.fail("expected an object with one member, \"String\" or \"Regex\"");
  auto [kind, value] = pattern.members().front();
  std::string content(json.get("content").str());
  if (kind == "String") return std::make_unique<Replace>(std::string(value.str()), std::move(content));
  if (kind != "Regex") value.fail("unknown pattern kind \"" + std::string(kind) + "\", expected \"String\" or \"Regex\"");
  std::string_view source = value.str();
  try {
    return std::make_unique<Replace>(Regex(source), std::move(content));
  } catch (const std::invalid_argument& e) {
    value.fail(std::string("invalid regular expression: ") + e.what());
  }
}

}  // namespace textedge::detail::normalizers
