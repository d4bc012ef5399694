#include "server/prompt_cache_pool.hpp"

#include "base/common_prefix.hpp"

namespace textedge::server {

// Performance note: the entry is chosen by comparing the prompt with each cached one, which
// stops where they part: a few microseconds for conversations that share only a system prompt,
// ~10 us per entry that shares a 128 KB conversation (32k tokens), against ~1.5 ms to encode it;
// a copy of a 32k-token entry is about as cheap.
std::vector<TokenId> PromptCachePool::encode(const Tokenizer& tokenizer, std::string_view text, const EncodeOptions& options,
                                             std::size_t& reused_bytes) {
  if (capacity_ == 0) {
    reused_bytes = 0;
    return tokenizer.encode(text, options);
  }
  std::list<PromptCache> mine;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto best = entries_.end();
    std::size_t best_common = 0;
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      std::size_t common = detail::common_prefix(it->text(), text);
      if (common > best_common) best = it, best_common = common;
    }
    // A prompt that extends the cached one is its conversation's next turn: the entry moves on
    // with it. One that only shares a beginning (another conversation with the same system
    // prompt, an edited or regenerated turn) starts from a copy, so the owner keeps its entry.
    if (best != entries_.end()) {
      if (best_common == best->text().size()) mine.splice(mine.begin(), entries_, best);
      else mine.push_back(*best);
    }
  }
  if (mine.empty()) mine.emplace_back();
  std::vector<TokenId> ids = tokenizer.encode_cached(text, mine.front(), options);  // throws: the entry is dropped
  reused_bytes = mine.front().reused_bytes();
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.splice(entries_.begin(), mine);
  while (entries_.size() > capacity_) entries_.pop_back();
  return ids;
}

}  // namespace textedge::server
