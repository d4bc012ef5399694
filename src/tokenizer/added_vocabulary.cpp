#include "tokenizer/added_vocabulary.hpp"

#include <algorithm>
#include <cstring>
#include <simdjson.h>
#include <utf8proc.h>


#include "base/scan16.hpp"
#include "base/utf8.hpp"
#include "tokenizer/models/bpe.hpp"
#include "tokenizer/normalizers/normalizer.hpp"

namespace textedge::detail {

namespace {

// Rust regex's \w (Unicode): alphabetic, marks, decimal digits, connector punctuation,
// join controls.
bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  if (c == 0x200C || c == 0x200D) return true;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_PC:
      return true;
    default:
      return false;
  }
}

// Rust regex's \s (Unicode White_Space).
bool is_white_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace

void AddedTokenMatcher::build(std::vector<std::pair<std::string, const AddedToken*>> patterns) {
  // Build a pointer trie first, then flatten it into sorted edge runs.
  struct Building {
    std::vector<std::pair<unsigned char, std::uint32_t>> children;
    const AddedToken* token = nullptr;
  };
  std::vector<Building> trie(1);
  for (auto& [pattern, token] : patterns) {
    if (pattern.empty()) continue;
    std::uint32_t node = 0;
    for (unsigned char b : pattern) {
      auto& ch = trie[node].children;
      auto it = std::find_if(ch.begin(), ch.end(), [b](auto& e) { return e.first == b; });
      if (it == ch.end()) {
        trie.emplace_back();
        trie[node].children.emplace_back(b, static_cast<std::uint32_t>(trie.size() - 1));
        node = static_cast<std::uint32_t>(trie.size() - 1);
      } else {
        node = it->second;
      }
    }
    // The reference builds its automaton from a hash map, so which of two tokens with the
    // same pattern wins is unspecified; keep the first.
    if (!trie[node].token) trie[node].token = token;
    starts_[static_cast<unsigned char>(pattern[0])] = true;
  }
  std::size_t distinct = 0;
  for (unsigned b = 0; b < 256; ++b) {
    if (!starts_[b]) continue;
    if (distinct < kFewStarts) start_bytes_[distinct] = static_cast<unsigned char>(b);
    ++distinct;
  }
  start_count_ = distinct <= kFewStarts ? distinct : 0;
  nodes_.assign(trie.size(), Node{});
  edges_.clear();
  for (std::size_t i = 0; i < trie.size(); ++i) {
    auto& ch = trie[i].children;
    std::sort(ch.begin(), ch.end());
    nodes_[i].first_edge = static_cast<std::uint32_t>(edges_.size());
    nodes_[i].edge_count = static_cast<std::uint32_t>(ch.size());
    nodes_[i].token = trie[i].token;
    for (auto& [b, child] : ch) edges_.push_back({b, child});
  }
}

const AddedToken* AddedTokenMatcher::longest_at(std::string_view text, std::size_t pos, std::size_t& end,
                                                std::size_t& read) const {
  const AddedToken* best = nullptr;
  std::uint32_t node = 0;
  std::size_t i = pos;
  for (; i < text.size(); ++i) {
    const Node& n = nodes_[node];
    auto b = static_cast<unsigned char>(text[i]);
    const Edge* first = edges_.data() + n.first_edge;
    const Edge* last = first + n.edge_count;
    const Edge* e = std::lower_bound(first, last, b, [](const Edge& e, unsigned char v) { return e.byte < v; });
    if (e == last || e->byte != b) break;
    node = e->child;
    if (nodes_[node].token) { best = nodes_[node].token; end = i + 1; }
  }
  read = i + 1;  // the byte that ended the walk, or (at the end of the text) what would follow
  return best;
}

// Performance note: most vocabularies' added tokens all start with '<' (Gemma 3's with five
// bytes): one memchr, or 16 bytes compared at a time, instead of a table look-up per byte
// (300 KB of bench.txt: llama3_1 1.81M -> 0.77M instructions with memchr, gemma3 2.35M -> 1.65M).
std::size_t AddedTokenMatcher::next_start(std::string_view text, std::size_t pos) const {
  const char* s = text.data();
  const std::size_t n = text.size();
  if (start_count_ == 1) {
    if (pos >= n) return n;
    const void* at = std::memchr(s + pos, start_bytes_[0], n - pos);
    return at ? static_cast<std::size_t>(static_cast<const char*>(at) - s) : n;
  }
#ifdef __SSE2__
  // The count of start bytes a template argument: the compares unrolled, the bytes kept in
  // registers (gemma3's five: a warm encode pass of bench2.txt, callgrind, 192.5M -> 190.8M).
  auto skip = [&]<std::size_t kCount>() {
    __m128i wanted[kCount];
    for (std::size_t k = 0; k < kCount; ++k) wanted[k] = _mm_set1_epi8(static_cast<char>(start_bytes_[k]));
    return skip_unflagged(text, pos, [&](__m128i v) {
      __m128i hit = _mm_cmpeq_epi8(v, wanted[0]);
      for (std::size_t k = 1; k < kCount; ++k) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, wanted[k]));
      return static_cast<unsigned>(_mm_movemask_epi8(hit));
    });
  };
  static_assert(kFewStarts == 6);
  switch (start_count_) {
    case 2: pos = skip.operator()<2>(); break;
    case 3: pos = skip.operator()<3>(); break;
    case 4: pos = skip.operator()<4>(); break;
    case 5: pos = skip.operator()<5>(); break;
    case 6: pos = skip.operator()<6>(); break;
    default: break;
  }
#endif
  while (pos < n && !starts_[static_cast<unsigned char>(s[pos])]) ++pos;
  return pos;
}

void AddedTokenMatcher::split(std::string_view text, FunctionRef<void(std::size_t, std::size_t)> on_text,
                              FunctionRef<void(const AddedToken&, const Match&)> on_token, std::size_t from,
                              std::size_t horizon) const {
  std::size_t emitted = from;  // end of the last thing handed out
  if (!empty()) {
    for (std::size_t pos = next_start(text, from); pos < text.size(); pos = next_start(text, pos + 1)) {
      std::size_t end = 0, read = 0;
      const AddedToken* token = longest_at(text, pos, end, read);
      horizon = std::max(horizon, read);
      if (!token) continue;
      std::size_t start = pos;
      if (token->single_word) {
        std::size_t prev_start;
        bool start_ok = start == 0 || !is_word_char(last_code_point(text, start, prev_start));
        std::size_t j = end;
        bool end_ok = end == text.size() || !is_word_char(next_code_point(text, j));
        horizon = std::max(horizon, end == text.size() ? end + 1 : j);
        // A rejected match still consumes its text: the reference's automaton resumes after it.
        if (!start_ok || !end_ok) { pos = end - 1; continue; }
      }
      if (token->lstrip) {
        std::size_t s = start, prev_start;
        while (s > emitted && is_white_space(last_code_point(text, s, prev_start))) s = prev_start;
        start = s;
      }
      if (token->rstrip) {
        std::size_t e = end;
        std::size_t j = e;
        while (e < text.size()) {
          j = e;
          if (!is_white_space(next_code_point(text, j))) break;
          e = j;
        }
        horizon = std::max(horizon, e == text.size() ? e + 1 : j);
        end = e;
      }
      if (emitted < start) on_text(emitted, start);
      on_token(*token, Match{start, end, horizon});
      emitted = end;
      pos = end - 1;
    }
  }
  if (emitted < text.size()) on_text(emitted, text.size());
}

namespace {

// An added token read straight from its JSON object when every member is of the usual type (a
// Json per member builds its path string: Gemma 3's 6k added tokens were 67M of the loading
// thread's 736M instructions); false sends the entry through the checked reading below.
bool read_plain_entry(simdjson::dom::element entry, AddedToken& t) {
  simdjson::dom::object o;
  std::int64_t id;
  std::string_view content;
  if (entry.get_object().get(o) || o.at_key("id").get_int64().get(id) || id < 0 || id > 0x7FFFFFFF ||
      o.at_key("content").get_string().get(content))
    return false;
  auto flag = [&](std::string_view key, bool fallback, bool& out) {
    simdjson::dom::element v;
    if (o.at_key(key).get(v) || v.is_null()) {
      out = fallback;
      return true;
    }
    return !v.get_bool().get(out);
  };
  t.id = static_cast<TokenId>(id);
  t.content = std::string(content);
  return flag("special", false, t.special) && flag("lstrip", false, t.lstrip) && flag("rstrip", false, t.rstrip) &&
         flag("single_word", false, t.single_word) && flag("normalized", !t.special, t.normalized);
}

}  // namespace

void AddedVocabulary::load(const Json& added_tokens, const Normalizer* normalizer, std::size_t model_tokens) {
  simdjson::dom::array entries;
  if (added_tokens.raw().get_array().get(entries)) added_tokens.array();  // throws, naming the path
  std::size_t index = 0;
  for (simdjson::dom::element raw : entries) {
    AddedToken t;
    if (!read_plain_entry(raw, t)) {  // the checked reading: its errors name the path
      Json entry = added_tokens.array()[index];
      std::int64_t id = entry.get("id").integer();
      if (id < 0 || id > 0x7FFFFFFF) entry.get("id").fail("token id out of range");
      t.id = static_cast<TokenId>(id);
      t.content = std::string(entry.get("content").str());
      t.special = entry.bool_or("special", false);
      t.lstrip = entry.bool_or("lstrip", false);
      t.rstrip = entry.bool_or("rstrip", false);
      t.single_word = entry.bool_or("single_word", false);
      t.normalized = entry.bool_or("normalized", !t.special);
    }
    ++index;
    if (t.content.empty()) continue;  // the reference ignores empty added tokens
    tokens_.push_back(std::move(t));
  }
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    const AddedToken& t = tokens_[i];
    max_id_plus_one_ = std::max<TokenId>(max_id_plus_one_, t.id + 1);
    by_content_.insert(t.content, t.id);
    if (t.special) special_contents_.insert(t.content, 1);
  }
  if (max_id_plus_one_ > model_tokens + tokens_.size() + kMaxTokenIdGap)
    added_tokens.fail("token id " + std::to_string(max_id_plus_one_ - 1) + " lies too far beyond the " +
                      std::to_string(model_tokens + tokens_.size()) + " tokens (ids must stay dense)");
  index_by_id_.assign(max_id_plus_one_, -1);
  for (std::size_t i = 0; i < tokens_.size(); ++i) index_by_id_[tokens_[i].id] = static_cast<std::int32_t>(i);

  std::vector<std::pair<std::string, const AddedToken*>> raw, normalized;
  for (const AddedToken& t : tokens_) {
    if (!t.normalized) {
      raw.emplace_back(t.content, &t);
      continue;
    }
    std::string pattern = t.content;
    if (normalizer) normalizer->normalize(pattern);
    normalized.emplace_back(std::move(pattern), &t);
  }
  raw_.build(std::move(raw));
  normalized_.build(std::move(normalized));
}

const AddedToken* AddedVocabulary::by_id(TokenId id) const {
  if (id >= index_by_id_.size() || index_by_id_[id] < 0) return nullptr;
  return &tokens_[index_by_id_[id]];
}

bool AddedVocabulary::is_special_content(std::string_view content) const {
  return special_contents_.find(content).has_value();
}

}  // namespace textedge::detail
