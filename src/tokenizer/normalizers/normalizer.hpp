// Stage 1 of the pipeline: normalizers rewrite the text of each piece that is not an added token.
// One component per file in this folder, named after its JSON "type"; normalizer_from_json
// (factory.cpp) is the only place that knows them all.
#pragma once

#include <memory>
#include <string>

#include "base/json_dom.hpp"

namespace textedge::detail {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  // Rewrites `text` (valid UTF-8) in place, as the Hugging Face component of the same type does.
  virtual void normalize(std::string& text) const = 0;
  // The component tree for `textedge info`, e.g. "Sequence[Prepend, Replace]".
  virtual std::string describe() const = 0;
};

// Builds the normalizer described at `json` (an object with "type"). Unknown types and bad
// fields throw LoadError naming the JSON path.
std::unique_ptr<Normalizer> normalizer_from_json(const Json& json);

}  // namespace textedge::detail
