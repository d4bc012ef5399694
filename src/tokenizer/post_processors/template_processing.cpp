// TemplateProcessing: lays out a single sequence as its "single" template says, e.g.
// [<bos>, $A] prepends the ids of the special token <bos>.
#include <algorithm>
#include <unordered_map>

#include "tokenizer/post_processors/json_fields.hpp"
#include "tokenizer/post_processors/post_processor.hpp"

namespace textedge::detail::post_processors {
namespace {

// One piece of the single template: the input sequence, or the ids of a special token.
struct Piece {
  bool is_sequence;
  std::vector<TokenId> ids;
};

class TemplateProcessing final : public PostProcessor {
 public:
  explicit TemplateProcessing(std::vector<Piece> pieces) : pieces_(std::move(pieces)) {
    for (const auto& p : pieces_) {
      if (p.is_sequence) ++sequence_copies_;
      else added_ += p.ids.size();
    }
  }

  void process(std::vector<TokenId>& ids) const override {
    // Common shapes ([special..., $A, special...]) are handled in place.
    if (sequence_copies_ == 1) {
      std::size_t before = 0;
      for (const auto& p : pieces_) {
        if (p.is_sequence) break;
        before += p.ids.size();
      }
      std::size_t n = ids.size();
      ids.resize(n + added_);
      std::copy_backward(ids.begin(), ids.begin() + n, ids.begin() + before + n);
      std::size_t at = 0;
      for (const auto& p : pieces_) {
        if (p.is_sequence) {
          at += n;
          continue;
        }
        std::copy(p.ids.begin(), p.ids.end(), ids.begin() + at);
        at += p.ids.size();
      }
      return;
    }
    // $A may appear any number of times (even zero: the sequence is then dropped).
    std::vector<TokenId> out;
    out.reserve(added_ + sequence_copies_ * ids.size());
    for (const auto& p : pieces_) {
      const auto& src = p.is_sequence ? ids : p.ids;
      out.insert(out.end(), src.begin(), src.end());
    }
    ids.swap(out);
  }

  std::string describe() const override { return "TemplateProcessing"; }

 private:
  std::vector<Piece> pieces_;
  std::size_t sequence_copies_ = 0;
  std::size_t added_ = 0;
};

struct PieceSpec {
  bool is_sequence;
  bool is_sequence_b;
  std::string special_id;
  Json where;
};

// A template is an array of {"Sequence": {"id": "A"|"B", "type_id": n}} or
// {"SpecialToken": {"id": name, "type_id": n}}.
std::vector<PieceSpec> read_template(const Json& json) {
  std::vector<PieceSpec> out;
  for (const Json& item : json.array()) {
    auto members = item.members();
    if (members.size() != 1) item.fail("expected an object with exactly one of \"Sequence\" or \"SpecialToken\"");
    auto& [kind, body] = members[0];
    read_u32(body.get("type_id"));  // type ids only matter for type_ids, which textedge does not return
    Json id = body.get("id");
    if (kind == "Sequence") {
      std::string_view which = id.str();
      if (which != "A" && which != "B") id.fail("expected sequence \"A\" or \"B\"");
      out.push_back({true, which == "B", {}, item});
    } else if (kind == "SpecialToken") {
      out.push_back({false, false, std::string(id.str()), item});
    } else {
      item.fail("unknown template piece \"" + std::string(kind) + "\" (expected Sequence or SpecialToken)");
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<PostProcessor> template_processing_from_json(const Json& json) {
  std::vector<PieceSpec> single = read_template(json.get("single"));
  read_template(json.get("pair"));  // required and checked by the reference, unused here

  // Special tokens are looked up by their key in this map (the inner "id" is not used).
  std::unordered_map<std::string, std::vector<TokenId>> special_ids;
  for (const auto& [name, entry] : json.get("special_tokens").members()) {
    entry.get("id").str();
    std::vector<TokenId> ids;
    for (const Json& id : entry.get("ids").array()) ids.push_back(read_u32(id));
    for (const Json& token : entry.get("tokens").array()) token.str();
    special_ids[std::string(name)] = std::move(ids);
  }

  // The reference panics while encoding when the single template names an unknown special
  // token or sequence B; refuse such files up front instead.
  std::vector<Piece> pieces;
  for (const auto& spec : single) {
    if (spec.is_sequence) {
      if (spec.is_sequence_b) spec.where.fail("the single template cannot use sequence B");
      pieces.push_back({true, {}});
      continue;
    }
    auto it = special_ids.find(spec.special_id);
    if (it == special_ids.end())
      spec.where.fail("special token \"" + spec.special_id + "\" is not defined in special_tokens");
    pieces.push_back({false, it->second});
  }
  return std::make_unique<TemplateProcessing>(std::move(pieces));
}

}  // namespace textedge::detail::post_processors
