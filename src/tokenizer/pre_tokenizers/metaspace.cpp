// Metaspace: replaces every space by the replacement character (default "▁"), prepends one per
// prepend_scheme, then (with split) cuts before each replacement character.
#include "base/utf8.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"
#include "tokenizer/pre_tokenizers/scratch.hpp"

namespace textedge::detail::pre_tokenizers {

namespace {

enum class PrependScheme { kAlways, kFirst, kNever };

class Metaspace final : public PreTokenizer {
 public:
  Metaspace(std::string replacement, PrependScheme scheme, bool split)
      : replacement_(std::move(replacement)), scheme_(scheme), split_(split) {}

  void pre_tokenize(std::string_view text, bool at_start, PieceSink sink) const override {
    if (text.empty()) return;
    // "first" prepends only to the piece that starts the input; a text that starts with a space
    // already starts with the replacement once spaces are replaced.
    bool prepend = (scheme_ == PrependScheme::kAlways || (scheme_ == PrependScheme::kFirst && at_start)) &&
                   text.front() != ' ' && !text.starts_with(replacement_);
    ScratchString scratch;
    std::string_view work = text;
    if (prepend || text.find(' ') != std::string_view::npos) {
      std::string& out = scratch.str();
      out.reserve(text.size() + replacement_.size() * 4);
      if (prepend) out += replacement_;
      std::size_t from = 0;
      for (std::size_t space; (space = text.find(' ', from)) != std::string_view::npos; from = space + 1) {
        out.append(text, from, space - from);
        out += replacement_;
      }
      out.append(text, from);
      work = out;
    }
    if (!split_) {
      sink(work, at_start);
      return;
    }
    // MergedWithNext on a one-character delimiter: every piece begins at a replacement.
    std::size_t begin = 0;
    for (std::size_t at = work.find(replacement_, 1); at != std::string_view::npos;
         at = work.find(replacement_, at + replacement_.size())) {
      if (at > begin) sink(work.substr(begin, at - begin), at_start && begin == 0);
      begin = at;
    }
    sink(work.substr(begin), at_start && begin == 0);
  }

  std::string describe() const override { return "Metaspace"; }

 private:
  std::string replacement_;
  PrependScheme scheme_;
  bool split_;
};

}  // namespace

std::unique_ptr<PreTokenizer> metaspace_from_json(const Json& json) {
  Json replacement = json.get("replacement");
  std::string_view rep = replacement.str();
  std::size_t i = 0;
  if (rep.empty() || (next_code_point(rep, i), i != rep.size()))
    replacement.fail("expected exactly one character, found \"" + std::string(rep) + "\"");
  PrependScheme scheme = PrependScheme::kAlways;
  if (auto s = json.find("prepend_scheme")) {
    std::string_view name = s->str();
    if (name == "always") scheme = PrependScheme::kAlways;
    else if (name == "first") scheme = PrependScheme::kFirst;
    else if (name == "never") scheme = PrependScheme::kNever;
    else s->fail("unknown prepend_scheme \"" + std::string(name) + "\", expected one of first, never, always");
  }
  // Legacy field: add_prefix_space false means "never", and must agree with prepend_scheme
  // (which defaults to "always"); true changes nothing.
  if (auto legacy = json.find("add_prefix_space"); legacy && !legacy->boolean()) {
    if (scheme != PrependScheme::kNever) legacy->fail("add_prefix_space does not match declared prepend_scheme");
  }
  return std::make_unique<Metaspace>(std::string(rep), scheme, json.bool_or("split", true));
}

}  // namespace textedge::detail::pre_tokenizers
