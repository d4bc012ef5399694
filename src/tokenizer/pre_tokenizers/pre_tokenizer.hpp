// Stage 2: pre-tokenizers cut a normalized piece into the words the model encodes.
// One component per file in this folder, named after its JSON "type"; pre_tokenizer_from_json
// (factory.cpp) is the only place that knows them all.
//
// Pieces flow through callbacks rather than vectors so that the common chain (Split regex ->
// ByteLevel -> model) runs without allocating.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/function_ref.hpp"
#include "base/json_dom.hpp"
#include "tokenizer/pre_tokenizers/known_patterns.hpp"

namespace textedge::detail {

// Receives one non-empty piece. `at_start` is true when the piece begins at offset 0 of the
// original input (Metaspace's prepend_scheme "first" depends on it).
using PieceSink = FunctionRef<void(std::string_view piece, bool at_start)>;

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Splits `text` and hands every non-empty piece, in order, to `sink`. `at_start` tells
  // whether `text` itself begins at offset 0 of the original input. Pieces may point into
  // `text` or into storage that lives until `sink` returns.
  virtual void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const = 0;
  // True for ByteLevel: the model must encode the pieces byte by byte through the GPT-2 byte
  // alphabet. The mapping itself is done by the model (it keys its vocabulary by raw bytes).
  virtual bool is_byte_level() const { return false; }
  // True when every piece comes out unchanged and whole (ByteLevel without prefix space or
  // regex): a Sequence then skips the stage.
  virtual bool passes_through() const { return false; }
  // A finder whose matches, and the text between them, are exactly this pre-tokenizer's pieces in
  // order (Split with a known pattern, Isolated), or nullptr: the tokenizer then runs the finder
  // itself and hands the pieces straight to the model.
  virtual KnownPatternFinder pieces_finder() const { return nullptr; }
  virtual std::string describe() const = 0;
};

std::unique_ptr<PreTokenizer> pre_tokenizer_from_json(const Json& json);

}  // namespace textedge::detail
