// The Tokenizer pipeline: added tokens -> normalizer -> added (normalized) tokens ->
// pre-tokenizer -> BPE model -> post-processor; and back through the decoder.
#include "textedge/tokenizer.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <optional>
#include <thread>

#include "base/json_dom.hpp"
#include "base/common_prefix.hpp"
#include "base/copy_bytes.hpp"
#include "base/run_in_parallel.hpp"
#include "base/thread_pool.hpp"
#include "base/utf8.hpp"
#include "tokenizer/added_vocabulary.hpp"
#include "tokenizer/decoders/decoder.hpp"
#include "tokenizer/decoders/string_edits.hpp"
#include "tokenizer/models/bpe.hpp"
#include "tokenizer/models/bpe_json.hpp"
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/post_processors/post_processor.hpp"
#include "tokenizer/pre_tokenizers/pre_tokenizer.hpp"
#include "tokenizer/tokenizer_impl.hpp"

namespace textedge {

using namespace detail;


namespace {

std::optional<std::string> config_token(const Json& config, std::string_view key) {
  auto v = config.find(key);
  if (!v) return std::nullopt;
  if (v->is_string()) return std::string(v->str());
  if (v->is_object()) {
    if (auto content = v->find("content")) return std::string(content->str());
  }
  return std::nullopt;
}

// A Sequence of per-token decoders, then optionally ByteFallback, then Fuse, then anything:
// decoding then needs no token strings (Tokenizer::Impl::decode_fused).
struct FusedDecodePlan {
  std::size_t per_token = 0;                // the chain's first per_token decoders map each token alone
  const Decoder* byte_fallback = nullptr;   // then this one, if any, reads "<0xNN>" tokens
  std::vector<const Decoder*> tail;         // the decoders after Fuse
};

std::optional<FusedDecodePlan> fused_decode_plan(const Decoder* decoder) {
  if (!decoder || !decoder->children()) return std::nullopt;
  const auto& chain = *decoder->children();
  FusedDecodePlan plan;
  std::size_t i = 0;
  while (i < chain.size() && chain[i]->kind() == Decoder::Kind::kPerToken) ++i;
  plan.per_token = i;
  if (i < chain.size() && chain[i]->kind() == Decoder::Kind::kByteFallback) plan.byte_fallback = chain[i++].get();
  if (i >= chain.size() || chain[i]->kind() != Decoder::Kind::kFuse) return std::nullopt;
  for (++i; i < chain.size(); ++i) plan.tail.push_back(chain[i].get());
  return plan;
}

// Maps `token` through the whole decoder chain (as Sequence::map_token does) and says whether,
// after the plan's per-token decoders, it is a byte the plan's ByteFallback reads.
bool map_token_finding_byte(const Decoder& decoder, const FusedDecodePlan& plan, std::string& token) {
  const auto& chain = *decoder.children();
  for (std::size_t i = 0; i < plan.per_token; ++i) chain[i]->map_token(token);
  bool byte = plan.byte_fallback && plan.byte_fallback->byte_value(token) >= 0;
  for (std::size_t i = plan.per_token; i < chain.size(); ++i) chain[i]->map_token(token);
  return byte;
}

// The SentencePiece decoder, Replace("\u2581" -> " ") then ByteFallback then Fuse (then Strip):
// a token's bytes made in one loop over it, without the chain's calls and string edits.
// Performance note (callgrind over one Tokenizer::load, instructions of the loading thread / its
// helper, 2026-12-04): llama2 43.5M / 43.6M -> 39.1M / 39.5M, gemma3 455M / 416M -> 424M / 387M;
// the chain's calls, string copies and a UTF-8 check of every token were ~400 instructions a token.
struct ReplaceThenByte {
  static constexpr std::size_t kMaxToken = 256;  // longer tokens take the chain
  std::string_view from, to;                     // to no longer than from: the bytes fit in the token's size
  const Decoder* byte_fallback = nullptr;
  unsigned to_high = 0;  // `to`'s bytes' high bits

  // map()'s usual case without its byte loops: a token of up to 16 bytes that holds `from` at
  // most at its start (SentencePiece's "\u2581word"), read as two overlapping words. Performance
  // note (callgrind, Llama 2's load): the loops were ~90 instructions a token, 3% of the load's.
  bool map_short(std::string_view token, char* out, std::size_t& n, unsigned& high) const {
    std::size_t skip = 0, w = 0;
    if (token.size() >= from.size() && same_bytes(token.data(), from)) {  // inline: no memcmp call
      skip = from.size();
      copy_bytes(out, to.data(), to.size());
      w = to.size();
    }
    const char* rest = token.data() + skip;
    const std::size_t r = token.size() - skip;
    if (r > 16) return false;
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
    auto load = [](const char* at, auto word) {
      decltype(word) x;
      std::memcpy(&x, at, sizeof x);
      return static_cast<std::uint64_t>(x);
    };
    std::uint64_t head = 0, tail = 0;  // every byte of rest in one or both (zeros: no match)
    if (r >= 8) {
      head = load(rest, std::uint64_t{});
      tail = load(rest + r - 8, std::uint64_t{});
    } else if (r >= 4) {
      head = load(rest, std::uint32_t{});
      tail = load(rest + r - 4, std::uint32_t{});
    } else if (r) {
      head = static_cast<unsigned char>(rest[0]) | static_cast<unsigned>(static_cast<unsigned char>(rest[r / 2])) << 8 |
             static_cast<unsigned>(static_cast<unsigned char>(rest[r - 1])) << 16;
    }
    // `from`'s first byte (never 0: a zero byte would be a padding byte's match) anywhere in them.
    const std::uint64_t first = static_cast<unsigned char>(from[0]) * kOnes;
    auto has_first = [&](std::uint64_t x) {
      x ^= first;
      return ((x - kOnes) & ~x & kHighs) != 0;
    };
    if (from[0] == 0 || has_first(head) || has_first(tail)) return false;
    copy_bytes(out + w, rest, r);
    n = w + r;
    high = ((head | tail) & kHighs) || (skip && to_high) ? 0x80 : 0;
    return true;
  }

  static std::optional<ReplaceThenByte> of(const Decoder* decoder, const std::optional<FusedDecodePlan>& plan) {
    if (!plan || !plan->byte_fallback || plan->per_token != 1) return std::nullopt;
    const auto& chain = *decoder->children();  // Replace, ByteFallback, Fuse, ...
    ReplaceThenByte r;
    if (!chain[0]->literal_replacement(r.from, r.to) || r.from.empty() || r.to.size() > r.from.size())
      return std::nullopt;
    for (std::size_t i = 2; i < chain.size(); ++i)
      if (!chain[i]->keeps_token()) return std::nullopt;
    r.byte_fallback = plan->byte_fallback;
    for (char c : r.to) r.to_high |= static_cast<unsigned char>(c) & 0x80;
    return r;
  }

  // `token` (at most kMaxToken bytes) mapped as the chain maps it, into out[0, n); true when it
  // is a byte token. `high`: the bytes' high bits or'ed (0: ASCII, so whole characters).
  bool map(std::string_view token, char* out, std::size_t& n, unsigned& high) const {
    if (!map_short(token, out, n, high)) {
      n = decoders::replace_short(token.data(), token.size(), from, to, out);
      unsigned bits = 0;
      for (std::size_t i = 0; i < n; ++i) bits |= static_cast<unsigned char>(out[i]);
      high = bits & 0x80;
    }
    if (n == 6 && out[0] == '<') {
      int byte = byte_fallback->byte_value(std::string_view(out, 6));
      if (byte >= 0) {
        out[0] = static_cast<char>(byte);
        n = 1;
        high = static_cast<unsigned>(byte) & 0x80;
        return true;
      }
    }
    return false;
  }
};

void plan_streaming(Tokenizer::Impl& impl) {
  if (impl.bytewise_decode) return;
  std::string decoder = impl.decoder ? impl.decoder->describe() : "none";
  if (impl.fused_decode && impl.decode_tail.size() <= 1) {
    if (impl.decode_tail.empty()) return;
    if ((impl.stream_strip = impl.decode_tail[0]->strip_spec())) return;
  }
  // Per-token components only (Replace, Metaspace): each token maps alone, the first one by
  // its own rule.
  if (impl.decoder) {
    std::vector<const Decoder*> parts;
    if (auto children = impl.decoder->children())
      for (auto& c : *children) parts.push_back(c.get());
    else
      parts.push_back(impl.decoder.get());
    bool per_token = std::all_of(parts.begin(), parts.end(), [](const Decoder* d) {
      return d->kind() == Decoder::Kind::kPerToken || d->kind() == Decoder::Kind::kFirstToken;
    });
    if (per_token) {
      impl.stream_first_token = true;
      return;
    }
  }
  impl.stream_unsupported = "streaming detokenization supports the ByteLevel decoder and SentencePiece chains "
                            "(Sequence of Replace, ByteFallback, Fuse, Strip) and per-token chains (Replace, Metaspace); "
                            "this tokenizer's decoder is " + decoder;
}

std::shared_ptr<Tokenizer::Impl> build(const JsonDocument& doc, const std::string& origin, const BpeLists* lists) {
  auto impl = std::make_shared<Tokenizer::Impl>();
  impl->origin = origin;
  Json root = doc.root();
  if (!root.is_object()) root.fail("expected a tokenizer.json object");

  if (auto n = root.find("normalizer")) impl->normalizer = normalizer_from_json(*n);
  if (auto p = root.find("pre_tokenizer")) {
    impl->pre_tokenizer = pre_tokenizer_from_json(*p);
    impl->pieces_finder = impl->pre_tokenizer->pieces_finder();
  }

  Json model = root.get("model");
  std::string type = model.find("type") ? std::string(model.get("type").str()) : (model.find("merges") ? "BPE" : "");
  if (type != "BPE") {
    (model.find("type") ? model.get("type") : model)
        .fail("model type \"" + type + "\" is not supported yet (supported: BPE; Unigram, WordPiece and WordLevel are planned)");
  }
  bool byte_level = impl->pre_tokenizer && impl->pre_tokenizer->is_byte_level();

  // The added tokens and the decoder, then what the token bytes need: all it takes is the
  // model's tokens, so when the model loads on two threads this runs on the second while the
  // first fills the merge table, and the token bytes start there until the table is filled. Their
  // errors are reported after the model's and in the file's order, as when read one after another.
  // Performance note (timed inside loads, 2026-12-04): the second thread had idled in that phase,
  // Llama 2 0.3 ms of 0.38, Gemma 3 4.6 ms of 5.6. Best of 40 (Llama 2) and 8 (Gemma 3) loads, six
  // alternating rounds: Llama 2 3.38-3.72 -> 3.24-3.48 ms, Gemma 3 52.6-55.1 -> 48.3-53.2 ms. The
  // table's fill slows while the token bytes are made beside it (Llama 2 0.38 -> 0.55 ms when both
  // run to the end), so they stop when it is filled. Tried: the byte-level models' first ranks of
  // the merges (for prepare_character_tokens) made beside the filter instead of after the table:
  // gpt-oss 44-49 -> 48-52 ms (six rounds), dropped.
  using TokenKind = Tokenizer::Impl::TokenKind;
  std::exception_ptr added_error, decoder_error;
  std::vector<std::uint8_t> partial;     // token bytes that are not whole characters
  std::vector<std::uint8_t> byte_token;  // "<0xNN>" tokens of a ByteFallback after per-token decoders
  std::optional<FusedDecodePlan> fused;
  std::optional<ReplaceThenByte> replace_then_byte;
  std::optional<TwoEndedRanges> id_ranges;
  constexpr TokenId kRange = 2048;  // Llama 2: 16 ranges
  std::vector<StringList> back_ranges;  // the token bytes of ranges taken from the back
  auto prepare = [&](const BpeModel& model) {
    try {
      if (auto a = root.find("added_tokens")) impl->added.load(*a, impl->normalizer.get(), model.vocab_size());
    } catch (...) {
      added_error = std::current_exception();
      return false;
    }
    try {
      if (auto d = root.find("decoder")) impl->decoder = decoder_from_json(*d);
    } catch (...) {
      decoder_error = std::current_exception();
      return false;
    }
    impl->vocab_size = std::max<std::size_t>(model.vocab_size(), impl->added.max_id_plus_one());
    partial.assign(impl->vocab_size, 0);  // bytes, not bits: the two threads write at once
    // Byte tokens are found while the token bytes are made: a second pass over the vocabulary for
    // them was a fifth of Llama 2's load on the loading thread (callgrind: ~8M instructions).
    fused = fused_decode_plan(impl->decoder.get());
    byte_token.assign(fused && fused->byte_fallback ? impl->vocab_size : 0, 0);
    replace_then_byte = ReplaceThenByte::of(impl->decoder.get(), fused);
    id_ranges.emplace(impl->vocab_size, kRange);
    back_ranges.resize((impl->vocab_size + kRange - 1) / kRange);
    return true;
  };
  // The token bytes of ids [begin, end) into `out`. Byte-level model tokens are the model's raw
  // bytes; the rest (SentencePiece pieces, added tokens) go through the decoder's per-token
  // mapping. Performance note: one std::string per token (and a vector of them) cost 70 ms on
  // Gemma 3, mostly page faults; tokens go through one scratch string.
  auto token_bytes = [&](const BpeModel& model, TokenId begin, TokenId end, StringList& out) {
    std::string token;
    // token = s as clear and append: assign's general _M_replace was ~75 instructions a token
    // (Gemma 3's load, callgrind).
    auto set_token = [&token](std::string_view s) {
      token.clear();
      token.append(s);
    };
    for (TokenId id = begin; id < end; ++id) {
      const AddedToken* added = impl->added.by_id(id);
      std::optional<std::string_view> s = added ? std::optional<std::string_view>(added->content) : model.token(id);
      std::string_view bytes;
      if (added && added->special) {
      } else if (!added && model.byte_level() && !model.raw_bytes(id).empty()) {
        bytes = model.raw_bytes(id);
        if (!byte_token.empty() && s) {  // a byte-level model with ByteFallback
          set_token(*s);
          byte_token[id] = map_token_finding_byte(*impl->decoder, *fused, token);
        }
      } else if (s && replace_then_byte && s->size() <= ReplaceThenByte::kMaxToken) {
        char mapped[ReplaceThenByte::kMaxToken];
        std::size_t n;
        unsigned high;
        byte_token[id] = replace_then_byte->map(*s, mapped, n, high);
        out.push_back(std::string_view(mapped, n));
        if (high && find_invalid_utf8(std::string_view(mapped, n)) != std::string_view::npos) partial[id] = 1;
        continue;
      } else if (s) {
        set_token(*s);
        if (!byte_token.empty()) byte_token[id] = map_token_finding_byte(*impl->decoder, *fused, token);
        else if (impl->decoder) impl->decoder->map_token(token);
        bytes = token;
      }
      out.push_back(bytes);
      if (find_invalid_utf8(bytes) != std::string_view::npos) partial[id] = 1;
    }
  };
  // `until`: stop when it turns true.
  auto take_back_ranges = [&](const BpeModel& model, const std::atomic<bool>* until) {
    for (std::size_t begin, end; !(until && until->load(std::memory_order_relaxed)) && id_ranges->back(begin, end);) {
      StringList& out = back_ranges[begin / kRange];
      out.reserve(end - begin, (end - begin) * 8);
      token_bytes(model, static_cast<TokenId>(begin), static_cast<TokenId>(end), out);
    }
  };
  bool prepared = false;
  auto start_token_bytes = [&](const BpeModel& so_far, const std::atomic<bool>& table_filled) {
    if ((prepared = prepare(so_far))) take_back_ranges(so_far, &table_filled);
  };
  const BpeModel::BesideMergeTable beside = start_token_bytes;
  impl->model = BpeModel::from_json(model, byte_level, lists, &beside);
  if (!prepared && !added_error && !decoder_error) prepared = prepare(impl->model);
  if (added_error) std::rethrow_exception(added_error);
  if (auto p = root.find("post_processor")) impl->post_processor = post_processor_from_json(*p);
  if (decoder_error) std::rethrow_exception(decoder_error);

  // The rest of the token bytes on both threads: this one from the front, straight into the
  // list, the other from the back, once it has found the special tokens (the decoder's edits are
  // most of the work: Llama 2's loading thread 74.6M -> 65.2M instructions, Gemma 3's 820M ->
  // 736M against one thread). Halves had left one thread ~40% longer (Llama 3.1: 1.3 against
  // 1.8 ms, timed inside a load).
  impl->bytewise_decode = impl->decoder && impl->decoder->is_bytewise();
  impl->token_kind.assign(impl->vocab_size, TokenKind::kText);
  impl->token_bytes.reserve(impl->vocab_size, impl->vocab_size * 8);
  run_in_parallel(
      impl->vocab_size >= kParallelMinItems,
      [&] {
        for (std::size_t begin, end; id_ranges->front(begin, end);)
          token_bytes(impl->model, static_cast<TokenId>(begin), static_cast<TokenId>(end), impl->token_bytes);
      },
      [&] {
        // First bytes of special contents: most tokens need no lookup.
        bool first_byte[256] = {};
        for (const AddedToken& t : impl->added.tokens())
          if (t.special && !t.content.empty()) first_byte[static_cast<unsigned char>(t.content[0])] = true;
        for (TokenId id = 0; id < impl->vocab_size; ++id) {
          auto s = impl->token_string(id);
          if (!s) {
            impl->token_kind[id] = TokenKind::kNone;
            continue;
          }
          if ((!s->empty() && !first_byte[static_cast<unsigned char>((*s)[0])]) || !impl->added.is_special_content(*s))
            continue;
          impl->token_kind[id] = TokenKind::kSpecial;
          std::string token(*s);
          if (!byte_token.empty() && map_token_finding_byte(*impl->decoder, *fused, token))
            impl->byte_specials.push_back(id);
          else if (impl->decoder && byte_token.empty())
            impl->decoder->map_token(token);
          impl->special_bytes.emplace_back(id, std::move(token));
        }
        take_back_ranges(impl->model, nullptr);
      });
  for (const StringList& range : back_ranges) impl->token_bytes.append(range);
  for (TokenId id = 0; id < impl->vocab_size; ++id)
    if (partial[id] && impl->token_kind[id] == TokenKind::kText) impl->token_kind[id] = TokenKind::kPartial;
  if (fused) {
    for (TokenId id = 0; id < byte_token.size(); ++id)
      if (byte_token[id] && (impl->token_kind[id] == TokenKind::kText || impl->token_kind[id] == TokenKind::kPartial))
        impl->token_kind[id] = TokenKind::kByte;
    impl->decode_tail = std::move(fused->tail);
    impl->fused_decode = true;
  }
  plan_streaming(*impl);
  return impl;
}

// The vocabulary and merges through the dedicated reader and the rest through the DOM; the
// whole text through the DOM when the reader declines (its errors then name the path).
std::shared_ptr<Tokenizer::Impl> build(std::string_view text, const std::string& origin) {
  const bool large = text.size() >= kParallelMinBytes;
  PoolLoading loading(large);  // its phases run on a worker
  auto lists = std::make_unique<BpeLists>();
  std::shared_ptr<Tokenizer::Impl> impl;
  if (auto rest = read_bpe_lists(text, *lists)) impl = build(JsonDocument(std::string_view(*rest), origin), origin, lists.get());
  else impl = build(JsonDocument(text, origin), origin, nullptr);
  // Off the loading thread: freeing Gemma 3's lists took 0.5 ms (best of 10).
  if (large) destroy_on_pool(std::move(lists));
  return impl;
}

}  // namespace

Tokenizer Tokenizer::from_json(std::string_view json, const std::string& origin) { return Tokenizer(build(json, origin)); }

Tokenizer Tokenizer::load(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string file = path;
  std::string config_file;
  if (fs::is_directory(path, ec)) {
    file = (fs::path(path) / "tokenizer.json").string();
    if (!fs::exists(file, ec)) throw LoadError(file, "", "no tokenizer.json in model directory " + path);
    config_file = (fs::path(path) / "tokenizer_config.json").string();
  } else if (!fs::exists(path, ec)) {
    throw LoadError(path, "", "no such file or directory");
  } else {
    auto sibling = fs::path(path).parent_path() / "tokenizer_config.json";
    if (fs::path(path).filename() == "tokenizer.json") config_file = sibling.string();
  }
  auto mapped = std::make_unique<MappedFile>(file);
  auto impl = build(mapped->text(), file);
  // Unmapping off the loading thread: Llama 3.1's file 0.53 ms, Gemma 3's 1.5 ms, Llama 2's 0.06
  // (best of 10).
  if (mapped->text().size() >= kParallelMinBytes) destroy_on_pool(std::move(mapped));
  if (!config_file.empty() && fs::exists(config_file, ec)) {
    JsonDocument config = JsonDocument::load(config_file);
    Json root = config.root();
    if (!root.is_object()) root.fail("expected a tokenizer_config.json object");
    impl->bos_token = config_token(root, "bos_token");
    impl->eos_token = config_token(root, "eos_token");
    impl->pad_token = config_token(root, "pad_token");
    impl->unk_token = config_token(root, "unk_token");
  }
  return Tokenizer(std::move(impl));
}

void Tokenizer::Impl::encode_normalized_piece(std::string_view piece, bool at_start, std::vector<TokenId>& ids) const {
  if (pieces_finder) {
    // The pre-tokenizer's pieces found here (Split, Isolated: the matches and the text between)
    // and handed to the model a batch at a time, where its word cache's hit path is inline,
    // instead of a call through the pre-tokenizer's sink each. Performance note (callgrind, a
    // warm encode pass, 2026-12-05): bench2.txt llama3_1 164.3M -> 156.4M instructions, qwen3
    // 196.0M -> 187.9M, gptoss 179.8M -> 172.2M; bench.txt's first 1 MB llama3_1 55.5M -> 50.6M.
    // Half of it with the model called a word at a time from here (llama3_1 160.7M).
    std::size_t previous = 0;
    for_each_known_batch(pieces_finder, piece, [&](const detail::PatternMatch* matches, std::size_t n) {
      previous = model.encode_matches(piece, previous, matches, n, ids);
    });
    if (previous < piece.size()) model.encode_word(piece.substr(previous), ids);
    return;
  }
  auto to_model = [&](std::string_view word, bool) { model.encode_word(word, ids); };
  if (pre_tokenizer) pre_tokenizer->pre_tokenize(piece, at_start, to_model);
  else to_model(piece, at_start);
}

void Tokenizer::Impl::encode_raw(std::string_view text, std::size_t from, std::size_t horizon, std::vector<TokenId>& ids,
                                 std::vector<PromptCache::Boundary>* boundaries) const {
  thread_local std::string normalized;
  auto push_token = [&](const AddedToken& t, const AddedTokenMatcher::Match&) { ids.push_back(t.id); };
  auto on_raw_text = [&](std::size_t begin, std::size_t end) {
    std::string_view piece = text.substr(begin, end - begin);
    bool at_start = begin == 0;
    if (normalizer) {
      normalized.assign(piece);
      normalizer->normalize(normalized);
      piece = normalized;
    }
    if (added.normalized_matcher().empty()) {
      if (!piece.empty()) encode_normalized_piece(piece, at_start, ids);
      return;
    }
    added.normalized_matcher().split(
        piece,
        [&](std::size_t b, std::size_t e) { encode_normalized_piece(piece.substr(b, e - b), at_start && b == 0, ids); },
        push_token);
  };
  if (!boundaries) return added.raw_matcher().split(text, on_raw_text, push_token, from, horizon);
  added.raw_matcher().split(
      text, on_raw_text,
      [&](const AddedToken& t, const AddedTokenMatcher::Match& m) {
        ids.push_back(t.id);
        boundaries->push_back({m.end, ids.size(), m.horizon});
      },
      from, horizon);
}

void Tokenizer::Impl::encode_into(std::string_view text, bool add_special_tokens, std::vector<TokenId>& ids) const {
  encode_raw(text, 0, 0, ids, nullptr);
  if (add_special_tokens && post_processor) post_processor->process(ids);
}

std::vector<TokenId> Tokenizer::encode(std::string_view text, const EncodeOptions& options) const {
  std::vector<TokenId> ids;
  ids.reserve(text.size() / 3 + 4);
  std::size_t bad = find_invalid_utf8(text);
  if (bad != std::string_view::npos) {
    if (!options.lossy_utf8) throw InputError("text is not valid UTF-8", bad);
    std::string repaired = utf8_lossy(text);
    impl_->encode_into(repaired, options.add_special_tokens, ids);
    return ids;
  }
  impl_->encode_into(text, options.add_special_tokens, ids);
  return ids;
}

void PromptCache::clear() { *this = PromptCache(); }


// Why a boundary is safe (docs/prompt_cache.md): the ids of the text before an added token's
// match, and the match itself, are fixed by the text the scan for added tokens had read when it
// made that match (its horizon: the bytes each search for a longest match looked at, and the code
// point past a match that rstrip's whitespace and single_word's word check look at). Everything
// after the match is encoded from there, the scan resuming as after a match: added tokens split
// the text into pieces that the normalizer, pre-tokenizer and model each see alone, and the
// post-processor runs on the whole list of ids afterwards.
std::vector<TokenId> Tokenizer::encode_cached(std::string_view text, PromptCache& cache, const EncodeOptions& options) const {
  if (find_invalid_utf8(text) != std::string_view::npos) {  // refused, or repaired by encode
    cache.clear();
    return encode(text, options);
  }
  std::size_t from = 0, horizon = 0, keep = 0, kept_boundaries = 0;
  if (cache.tokenizer_.lock().get() == impl_.get() && cache.add_special_tokens_ == options.add_special_tokens) {
    std::size_t common = common_prefix(cache.text_, text);
    // Horizons grow with the boundaries: the last one within the common prefix.
    auto past = std::upper_bound(cache.boundaries_.begin(), cache.boundaries_.end(), common,
                                 [](std::size_t c, const PromptCache::Boundary& b) { return c < b.horizon; });
    if (past != cache.boundaries_.begin()) {
      const PromptCache::Boundary& b = *(past - 1);
      from = b.end, horizon = b.horizon, keep = b.ids;
      kept_boundaries = static_cast<std::size_t>(past - cache.boundaries_.begin());
    }
  } else {
    cache.clear();
  }
  cache.tokenizer_ = impl_;
  cache.add_special_tokens_ = options.add_special_tokens;
  cache.ids_.resize(keep);
  cache.boundaries_.resize(kept_boundaries);
  impl_->encode_raw(text, from, horizon, cache.ids_, &cache.boundaries_);
  cache.text_.resize(from);
  cache.text_.append(text.substr(from));
  cache.reused_bytes_ = from;
  cache.encoded_bytes_ = text.size() - from;
  std::vector<TokenId> ids = cache.ids_;
  if (options.add_special_tokens && impl_->post_processor) impl_->post_processor->process(ids);
  return ids;
}

std::vector<std::vector<TokenId>> Tokenizer::encode_batch(std::span<const std::string> texts, const EncodeOptions& options,
                                                          unsigned threads) const {
  std::vector<std::vector<TokenId>> out(texts.size());
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, texts.size()));
  if (threads <= 1) {
    for (std::size_t i = 0; i < texts.size(); ++i) out[i] = encode(texts[i], options);
    return out;
  }
  // Texts are claimed one at a time so uneven lengths still balance.
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  run_on_pool(threads, [&] {
    for (std::size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < texts.size();) {
      try {
        out[i] = encode(texts[i], options);
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
      }
    }
  });
  if (error) std::rethrow_exception(error);
  return out;
}

// Performance note: building one std::string per token and running the decoder chain cost
// ~3x the time of this loop on byte-level models (bench decode).
void Tokenizer::Impl::decode_bytewise(std::span<const TokenId> ids, bool skip_special, std::string& out) const {
  for (TokenId id : ids) {
    if (id >= vocab_size) continue;  // out of range: skipped, as the reference does
    if (token_kind[id] != TokenKind::kSpecial) {
      out += token_bytes[id];  // "" for ids without a token
      continue;
    }
    if (skip_special) continue;
    out += special_token_bytes(id);
  }
  if (find_invalid_utf8(out) != std::string_view::npos) out = utf8_lossy(out);
}

// ByteFallback's rule: a run of byte tokens that is not valid UTF-8 as a whole becomes one
// U+FFFD per byte token.
void Tokenizer::Impl::decode_fused(std::span<const TokenId> ids, bool skip_special, std::string& out) const {
  std::size_t run_start = 0, run_length = 0;
  auto end_run = [&] {
    if (run_length == 0) return;
    if (find_invalid_utf8(std::string_view(out).substr(run_start)) != std::string_view::npos) {
      out.resize(run_start);
      for (std::size_t k = 0; k < run_length; ++k) out += "\xEF\xBF\xBD";
    }
    run_length = 0;
  };
  for (TokenId id : ids) {
    if (id >= vocab_size) continue;  // out of range: skipped, as the reference does
    switch (token_kind[id]) {
      case TokenKind::kSpecial:
        if (skip_special) continue;
        if (is_byte_special(id)) {  // a byte, as the reference's ByteFallback reads it
          if (run_length++ == 0) run_start = out.size();
        } else {
          end_run();
        }
        out += special_token_bytes(id);
        break;
      case TokenKind::kByte:
        if (run_length++ == 0) run_start = out.size();
        out += token_bytes[id];
        break;
      case TokenKind::kText:
      case TokenKind::kPartial:
        end_run();
        out += token_bytes[id];
        break;
      case TokenKind::kNone:
        break;
    }
  }
  end_run();
  if (decode_tail.empty()) return;
  std::vector<std::string> fused(1, std::move(out));
  for (const Decoder* d : decode_tail) d->decode_chain(fused);
  out.clear();
  for (auto& s : fused) out += s;
}

std::string Tokenizer::decode(std::span<const TokenId> ids, const DecodeOptions& options) const {
  const Impl& impl = *impl_;
  if (impl.bytewise_decode) {
    std::string text;
    text.reserve(ids.size() * 4);
    impl.decode_bytewise(ids, options.skip_special_tokens, text);
    return text;
  }
  if (impl.fused_decode) {
    std::string text;
    text.reserve(ids.size() * 4);
    impl.decode_fused(ids, options.skip_special_tokens, text);
    return text;
  }
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (TokenId id : ids) {
    auto s = impl.token_string(id);
    if (!s) continue;  // out of range: skipped, as the reference does
    if (options.skip_special_tokens && impl.added.is_special_content(*s)) continue;
    tokens.emplace_back(*s);
  }
  std::string text;
  if (impl.decoder) {
    impl.decoder->decode_chain(tokens);
    std::size_t total = 0;
    for (auto& t : tokens) total += t.size();
    text.reserve(total);
    for (auto& t : tokens) text += t;
  } else {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i) text += ' ';
      text += tokens[i];
    }
  }
  return text;
}

std::string_view Tokenizer::token_bytes(TokenId id) const {
  return impl_->token_bytes[id];
}
std::vector<std::string_view> Tokenizer::vocab_bytes() const {
  std::vector<std::string_view> out(impl_->token_bytes.size());
  for (std::size_t id = 0; id < out.size(); ++id) out[id] = impl_->token_bytes[id];
  return out;
}
std::size_t Tokenizer::vocab_size() const { return impl_->vocab_size; }

std::optional<std::string> Tokenizer::id_to_token(TokenId id) const {
  auto s = impl_->token_string(id);
  return s ? std::optional<std::string>(*s) : std::nullopt;
}

std::optional<TokenId> Tokenizer::token_to_id(std::string_view token) const {
  if (auto id = impl_->added.id_of(token)) return id;
  return impl_->model.token_to_id(token);
}

bool Tokenizer::is_special(TokenId id) const {
  const AddedToken* t = impl_->added.by_id(id);
  return t && t->special;
}

TokenizerInfo Tokenizer::info() const {
  const Impl& impl = *impl_;
  TokenizerInfo info;
  info.model_type = "BPE";
  info.vocab_size = impl.vocab_size;
  for (const AddedToken& t : impl.added.tokens()) info.added_tokens.push_back({t.content, t.id, t.special});
  info.normalizer = impl.normalizer ? impl.normalizer->describe() : "none";
  info.pre_tokenizer = impl.pre_tokenizer ? impl.pre_tokenizer->describe() : "none";
  info.post_processor = impl.post_processor ? impl.post_processor->describe() : "none";
  info.decoder = impl.decoder ? impl.decoder->describe() : "none";
  info.bos_token = impl.bos_token;
  info.eos_token = impl.eos_token;
  info.pad_token = impl.pad_token;
  info.unk_token = impl.unk_token;
  return info;
}

}  // namespace textedge
