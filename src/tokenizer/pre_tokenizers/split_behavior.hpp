// How a split pattern's matches become pieces (the reference's SplitDelimiterBehavior), shared
// by Split, Punctuation and the other splitting pre-tokenizers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"

namespace textedge::detail {

enum class SplitBehavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

inline SplitBehavior split_behavior_from_json(const Json& json) {
  std::string_view name = json.str();
  if (name == "Removed") return SplitBehavior::kRemoved;
  if (name == "Isolated") return SplitBehavior::kIsolated;
  if (name == "MergedWithPrevious") return SplitBehavior::kMergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::kMergedWithNext;
  if (name == "Contiguous") return SplitBehavior::kContiguous;
  json.fail("unknown split behavior \"" + std::string(name) +
            "\", expected one of Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous");
}

inline const char* split_behavior_name(SplitBehavior behavior) {
  switch (behavior) {
    case SplitBehavior::kRemoved: return "Removed";
    case SplitBehavior::kIsolated: return "Isolated";
    case SplitBehavior::kMergedWithPrevious: return "MergedWithPrevious";
    case SplitBehavior::kMergedWithNext: return "MergedWithNext";
    case SplitBehavior::kContiguous: return "Contiguous";
  }
  return "?";
}

// Takes the segments a pattern finds in `text` (consecutive, covering it, each a match or not,
// possibly empty) and hands the pieces `behavior` makes of them to `sink`, as the reference's
// NormalizedString::split does, streaming: at most one piece is held back. Empty pieces are
// dropped. A piece is "at start" when the text is and the piece begins at its offset 0.
class SegmentJoiner {
 public:
  SegmentJoiner(std::string_view text, SplitBehavior behavior, bool at_start, PieceSink sink)
      : text_(text), behavior_(behavior), at_start_(at_start), sink_(sink) {}

  void add(std::size_t begin, std::size_t end, bool is_match) {
    switch (behavior_) {
      case SplitBehavior::kIsolated:
        emit(begin, end);
        break;
      case SplitBehavior::kRemoved:
        if (!is_match) emit(begin, end);
        break;
      case SplitBehavior::kContiguous:
        if (pending_ && is_match == previous_match_) pending_end_ = end;
        else hold(begin, end);
        break;
      case SplitBehavior::kMergedWithPrevious:
        if (pending_ && is_match && !previous_match_) pending_end_ = end;
        else hold(begin, end);
        break;
      case SplitBehavior::kMergedWithNext:
        // Only a match is ever held: it takes the segment after it when that one is no match.
        if (pending_ && !is_match) {
          pending_end_ = end;
          flush();
        } else if (is_match) {
          hold(begin, end);
        } else {
          emit(begin, end);
        }
        break;
    }
    previous_match_ = is_match;
  }

  void finish() { flush(); }

 private:
  void emit(std::size_t begin, std::size_t end) {
    if (end > begin) sink_(text_.substr(begin, end - begin), at_start_ && begin == 0);
  }
  void hold(std::size_t begin, std::size_t end) {
    flush();
    pending_ = true;
    pending_begin_ = begin;
    pending_end_ = end;
  }
  void flush() {
    if (!pending_) return;
    pending_ = false;
    emit(pending_begin_, pending_end_);
  }

  std::string_view text_;
  SplitBehavior behavior_;
  bool at_start_;
  PieceSink sink_;
  bool pending_ = false;
  bool previous_match_ = false;
  std::size_t pending_begin_ = 0, pending_end_ = 0;
};

}  // namespace textedge::detail
