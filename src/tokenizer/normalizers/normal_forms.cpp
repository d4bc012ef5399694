#include "tokenizer/normalizers/normal_forms.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "base/utf8.hpp"
#include "tokenizer/normalizers/unicode_data.hpp"
#include "tokenizer/normalizers/unicode_text.hpp"

namespace textedge::detail::normalizers {

namespace {

// Per code point flags. A character "inert" for a form is unchanged by it, is a starter, and
// nothing before it can compose with it or reorder across it; a run of inert characters is
// therefore already normalized and splits the text into pieces that normalize independently.
// "Opaque" characters (assigned after Unicode 9.0) are also left as they are and split the
// text, but unlike inert ones they never compose with what follows them.
enum : std::uint8_t { kInertNfc = 1, kInertNfd = 2, kInertNfkc = 4, kInertNfkd = 8, kOpaque = 16 };

constexpr char32_t kCodePointLimit = 0x110000;
constexpr char32_t kHangulSyllableFirst = 0xAC00, kHangulSyllableLast = 0xD7A3;

utf8proc_option_t options_for(NormalForm form) {
  // STABLE makes utf8proc respect the composition exclusions.
  int options = UTF8PROC_STABLE;
  switch (form) {
    case NormalForm::kNfc: options |= UTF8PROC_COMPOSE; break;
    case NormalForm::kNfd: options |= UTF8PROC_DECOMPOSE; break;
    case NormalForm::kNfkc: options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
    case NormalForm::kNfkd: options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
  }
  return static_cast<utf8proc_option_t>(options);
}

std::uint8_t inert_flag(NormalForm form) {
  switch (form) {
    case NormalForm::kNfc: return kInertNfc;
    case NormalForm::kNfd: return kInertNfd;
    case NormalForm::kNfkc: return kInertNfkc;
    case NormalForm::kNfkd: return kInertNfkd;
  }
  return 0;
}

// Normalizes `piece` with utf8proc into code points, in a per-thread buffer; returns the count.
std::size_t normalize_to_code_points(std::string_view piece, utf8proc_option_t options,
                                     std::vector<utf8proc_int32_t>& buffer) {
  if (buffer.size() < piece.size() + 16) buffer.resize(piece.size() * 2 + 16);
  for (;;) {
    utf8proc_ssize_t count = utf8proc_decompose_custom(
        reinterpret_cast<const utf8proc_uint8_t*>(piece.data()), static_cast<utf8proc_ssize_t>(piece.size()),
        buffer.data(), static_cast<utf8proc_ssize_t>(buffer.size()), options, nullptr, nullptr);
    if (count < 0) return 0;  // not UTF-8: cannot happen inside the pipeline
    if (static_cast<std::size_t>(count) > buffer.size()) {
      buffer.resize(static_cast<std::size_t>(count));
      continue;
    }
    if (options & UTF8PROC_COMPOSE) count = utf8proc_normalize_utf32(buffer.data(), count, options);
    return static_cast<std::size_t>(count);
  }
}

// Appends `piece` in the form given by `options`.
void append_normalized(std::string_view piece, utf8proc_option_t options, std::string& out) {
  thread_local std::vector<utf8proc_int32_t> buffer;
  std::size_t count = normalize_to_code_points(piece, options, buffer);
  if (count == 0 && !piece.empty()) {
    out += piece;
    return;
  }
  for (std::size_t k = 0; k < count; ++k) append_utf8(out, static_cast<char32_t>(buffer[k]));
}

class NormalFormTable {
 public:
  NormalFormTable();
  const std::uint16_t* block_of() const { return block_of_.data(); }
  const std::uint8_t* blocks() const { return blocks_.front().data(); }

 private:
  using Block = std::array<std::uint8_t, 256>;
  std::vector<std::uint16_t> block_of_;  // (cp >> 8) -> index of its block in blocks_
  std::vector<Block> blocks_;
};

NormalFormTable::NormalFormTable() {
  const auto assigned = assigned_in_unicode9();
  std::vector<utf8proc_int32_t> buffer;
  auto normalize_one = [&](char32_t cp, NormalForm form) {
    std::size_t count = normalize_to_code_points(utf8(cp), options_for(form), buffer);
    return std::vector<utf8proc_int32_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(count));
  };
  auto has_decomposition = [](const utf8proc_property_t* p) { return p->decomp_seqindex != UINT16_MAX; };

  // Characters that may compose with a preceding character: the last character of every
  // canonical decomposition (a superset of the second characters of composition pairs), plus
  // the Hangul vowels and trailing consonants.
  std::vector<bool> may_compose_backwards(kCodePointLimit);
  for (char32_t v = 0x1161; v <= 0x1175; ++v) may_compose_backwards[v] = true;
  for (char32_t t = 0x11A8; t <= 0x11C2; ++t) may_compose_backwards[t] = true;
  for (const CodePointRange& range : assigned) {
    for (char32_t cp = range.first; cp <= range.last; ++cp) {
      const utf8proc_property_t* p = utf8proc_get_property(static_cast<utf8proc_int32_t>(cp));
      if (!has_decomposition(p) || p->decomp_type != 0) continue;
      auto nfd = normalize_one(cp, NormalForm::kNfd);
      if (nfd.size() >= 2) may_compose_backwards[static_cast<char32_t>(nfd.back())] = true;
    }
  }

  // Whether a character that has a decomposition is still inert in a composed form.
  auto composes_back_inertly = [&](char32_t cp, NormalForm composed, NormalForm decomposed) {
    auto recomposed = normalize_one(cp, composed);
    if (recomposed.size() != 1 || static_cast<char32_t>(recomposed[0]) != cp) return false;
    auto first = static_cast<char32_t>(normalize_one(cp, decomposed).front());
    return utf8proc_get_property(static_cast<utf8proc_int32_t>(first))->combining_class == 0 &&
           !may_compose_backwards[first];
  };

  auto flags_of = [&](char32_t cp) {
    const utf8proc_property_t* p = utf8proc_get_property(static_cast<utf8proc_int32_t>(cp));
    std::uint8_t f = 0;
    if (p->combining_class != 0) return f;
    const bool hangul = cp >= kHangulSyllableFirst && cp <= kHangulSyllableLast;
    const bool any = has_decomposition(p) || hangul;
    const bool canonical = hangul || (has_decomposition(p) && p->decomp_type == 0);
    if (!canonical) f |= kInertNfd;
    if (!any) f |= kInertNfkd;
    if (may_compose_backwards[cp]) return f;
    if (!any || hangul) return static_cast<std::uint8_t>(f | kInertNfc | kInertNfkc);  // a syllable starts with a leading consonant
    if (!canonical || composes_back_inertly(cp, NormalForm::kNfc, NormalForm::kNfd)) f |= kInertNfc;
    if (composes_back_inertly(cp, NormalForm::kNfkc, NormalForm::kNfkd)) f |= kInertNfkc;
    return f;
  };

  // Two-level table: identical 256-code-point blocks are stored once. Code points outside the
  // Unicode 9.0 assignments are opaque.
  std::map<Block, std::uint16_t> unique;
  block_of_.resize(kCodePointLimit >> 8);
  std::size_t r = 0;
  for (std::size_t b = 0; b < block_of_.size(); ++b) {
    const char32_t lo = static_cast<char32_t>(b << 8), hi = lo + 255;
    Block block;
    block.fill(kOpaque);
    while (r < assigned.size() && assigned[r].last < lo) ++r;
    for (std::size_t k = r; k < assigned.size() && assigned[k].first <= hi; ++k) {
      for (char32_t cp = std::max(assigned[k].first, lo); cp <= std::min(assigned[k].last, hi); ++cp)
        block[cp - lo] = flags_of(cp);
    }
    auto [it, inserted] = unique.try_emplace(block, static_cast<std::uint16_t>(blocks_.size()));
    if (inserted) blocks_.push_back(block);
    block_of_[b] = it->second;
  }
}

const NormalFormTable& normal_form_table() {
  static const NormalFormTable table;
  return table;
}

}  // namespace

void prepare_normal_forms() { normal_form_table(); }

void apply_normal_form(std::string& text, NormalForm form) {
  const std::size_t n = text.size();
  std::size_t i = ascii_prefix_length(text);
  if (i == n) return;  // ASCII is invariant under every form

  constexpr std::size_t kNone = std::string::npos;
  const std::uint16_t* block_of = normal_form_table().block_of();
  const std::uint8_t* blocks = normal_form_table().blocks();
  const std::uint8_t inert = inert_flag(form);
  const bool composes = form == NormalForm::kNfc || form == NormalForm::kNfkc;
  const utf8proc_option_t options = options_for(form);

  std::string out;
  std::size_t copied = 0;                                // text[0, copied) is in `out`
  std::size_t island = kNone;                            // start of the run utf8proc must normalize
  std::size_t previous_inert = i > 0 ? i - 1 : kNone;    // start of the previous character, if inert
  auto flush_island = [&](std::size_t end) {
    if (out.empty()) out.reserve(n + n / 4 + 16);
    out.append(text, copied, island - copied);
    append_normalized(std::string_view(text).substr(island, end - island), options, out);
    copied = end;
    island = kNone;
  };

  // Performance note: ASCII is inert under every form, so a run of it is skipped whole, 8 bytes
  // at a time (callgrind, qwen3, 300 KB of bench.txt: this function 4.22M -> 0.56M
  // instructions, was a byte at a time through the flags below).
  while (i < n) {
    const std::size_t start = i;
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      if (island != kNone) flush_island(start);
      i = start + ascii_prefix_length(std::string_view(text).substr(start));
      previous_inert = i - 1;
      continue;
    }
    char32_t cp = next_code_point(text, i);
    const std::uint8_t flags = blocks[(std::size_t{block_of[cp >> 8]} << 8) | (cp & 0xFF)];
    if (flags & inert) {
      if (island != kNone) flush_island(start);
      previous_inert = start;
    } else if (flags & kOpaque) {
      if (island != kNone) flush_island(start);
      previous_inert = kNone;
    } else if (island == kNone) {
      // A composed form may merge this character into the starter before it.
      island = composes && previous_inert != kNone ? previous_inert : start;
      previous_inert = kNone;
    }
  }
  if (island != kNone) flush_island(n);
  if (copied == 0) return;
  out.append(text, copied);
  text.swap(out);
}

}  // namespace textedge::detail::normalizers
