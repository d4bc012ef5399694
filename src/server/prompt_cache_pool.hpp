// The server's prompt caches: the prompts of the last conversations, so that a request whose
// prompt extends one of them (the next turn of a chat) encodes only its new part.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <string_view>
#include <vector>

#include "textedge/tokenizer.hpp"

namespace textedge::server {

class PromptCachePool {
 public:
  explicit PromptCachePool(std::size_t capacity) : capacity_(capacity) {}
  // encode(text, options), from the cached prompt that shares the longest beginning with `text`
  // (taken out of the pool while it encodes when `text` extends it, else copied, so requests
  // never share one); the prompt is then the most recent entry, and the least recent beyond
  // `capacity` is dropped. `reused_bytes`: how much of `text` came from the cache.
  std::vector<TokenId> encode(const Tokenizer& tokenizer, std::string_view text, const EncodeOptions& options,
                              std::size_t& reused_bytes);

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::list<PromptCache> entries_;  // most recent first
};

}  // namespace textedge::server
