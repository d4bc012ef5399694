// Added tokens (tokenizer.json "added_tokens"): found in the text before the rest of the
// pipeline runs, with Hugging Face's rules: leftmost-longest match; non-normalized tokens are
// matched in the raw text, normalized ones in each normalized piece; lstrip/rstrip absorb
// neighbouring whitespace; single_word only matches between non-word characters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/function_ref.hpp"
#include "base/hash_tables.hpp"
#include "base/json_dom.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::detail {

class Normalizer;

struct AddedToken {
  std::string content;
  TokenId id = 0;
  bool special = false;
  bool lstrip = false, rstrip = false, single_word = false, normalized = false;
};

// Finds added tokens in text. One matcher per pass (raw text / normalized pieces).
class AddedTokenMatcher {
 public:
  // `patterns[i]` is the text to look for; `tokens[i]` is the token it stands for.
  void build(std::vector<std::pair<std::string, const AddedToken*>> patterns);
  bool empty() const { return nodes_.size() <= 1; }

  struct Match {
    std::size_t begin, end;  // lstrip/rstrip whitespace included
    // One past the last byte the scan has read so far, this match included: the text up to
    // here decided every match up to this one (text.size() + 1: the end of the text did).
    std::size_t horizon;
  };
  // Calls on_text(begin, end) for every stretch without an added token (possibly empty
  // stretches are skipped) and on_token(token, match) for every match, in order. `from`: where
  // the scan starts, as if a match had ended there (what a whole scan does after one), with
  // `horizon` that match's.
  void split(std::string_view text, FunctionRef<void(std::size_t begin, std::size_t end)> on_text,
             FunctionRef<void(const AddedToken& token, const Match& match)> on_token, std::size_t from = 0,
             std::size_t horizon = 0) const;

 private:
  // A byte trie; children of a node are a sorted run in edges_.
  struct Node {
    std::uint32_t first_edge = 0, edge_count = 0;
    const AddedToken* token = nullptr;
  };
  struct Edge {
    unsigned char byte;
    std::uint32_t child;
  };
  // Longest match starting at text[pos], or nullptr; sets `end`, and `read` to one past the
  // last byte the search depended on.
  const AddedToken* longest_at(std::string_view text, std::size_t pos, std::size_t& end, std::size_t& read) const;

  // The first position at or after `pos` whose byte starts some pattern (text.size(): none).
  std::size_t next_start(std::string_view text, std::size_t pos) const;

  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  bool starts_[256] = {};
  // The distinct bytes of starts_ when there are at most kFewStarts (else start_count_ is 0).
  static constexpr std::size_t kFewStarts = 6;
  unsigned char start_bytes_[kFewStarts] = {};
  std::size_t start_count_ = 0;
};

class AddedVocabulary {
 public:
  // Reads "added_tokens"; `normalizer` (may be null) normalizes the patterns of normalized
  // tokens, as the reference does. `model_tokens` is the model's vocabulary size (ids must stay
  // dense: kMaxTokenIdGap).
  void load(const Json& added_tokens, const Normalizer* normalizer, std::size_t model_tokens);

  const std::vector<AddedToken>& tokens() const { return tokens_; }
  const AddedToken* by_id(TokenId id) const;
  std::optional<TokenId> id_of(std::string_view content) const { return by_content_.find(content); }
  bool is_special_content(std::string_view content) const;
  TokenId max_id_plus_one() const { return max_id_plus_one_; }

  const AddedTokenMatcher& raw_matcher() const { return raw_; }
  const AddedTokenMatcher& normalized_matcher() const { return normalized_; }

 private:
  std::vector<AddedToken> tokens_;
  std::vector<std::int32_t> index_by_id_;  // id -> index in tokens_, -1 when not added
  StringIdMap by_content_;
  StringIdMap special_contents_;
  AddedTokenMatcher raw_, normalized_;
  TokenId max_id_plus_one_ = 0;
};

}  // namespace textedge::detail
