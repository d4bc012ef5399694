// Stage 4: post-processors add the special tokens of a single sequence (encode with
// add_special_tokens on). One component per file, named after its JSON "type".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/json_dom.hpp"
#include "textedge/tokenizer.hpp"

namespace textedge::detail {

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  // Rewrites the ids of one sequence as Hugging Face does for a single input with
  // add_special_tokens=true (e.g. TemplateProcessing's "single" template).
  virtual void process(std::vector<TokenId>& ids) const = 0;
  virtual std::string describe() const = 0;
};

std::unique_ptr<PostProcessor> post_processor_from_json(const Json& json);

}  // namespace textedge::detail
