// Streaming decode. The decoders textedge streams reduce to two rules on a byte
// stream: ByteLevel repairs invalid UTF-8 over the whole text
// (String::from_utf8_lossy), and ByteFallback makes each run of "<0xNN>" tokens
// either its UTF-8 text or, when the run as a whole is not valid UTF-8, one
// U+FFFD per token. A Strip after Fuse trims the ends of the whole text. So the
// state of a stream is a few bytes and counters, never a window of ids.
#include "textedge/detokenizer.hpp"

#include <algorithm>

#include "base/utf8.hpp"
#include "tokenizer/tokenizer_impl.hpp"

namespace textedge {

using TokenKind = Tokenizer::Impl::TokenKind;

namespace {
bool skipped_special(const DetokenizeOptions &options, TokenId id) {
  if (!options.skip_special_tokens) return false;
  const auto &keep = options.keep_special_tokens;
  return std::find(keep.begin(), keep.end(), id) == keep.end();
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Where priming must start reading the prompt so that the stream's state at its
// end is exact: ByteLevel needs the last 4 bytes of text (an incomplete
// character is at most 3), byte fallback needs the whole trailing run of byte
// tokens and the token before it, and a Strip that trims the end needs the
// trailing copies of its character.
std::size_t tail_window_start(const Tokenizer::Impl &impl, std::span<const TokenId> prompt,
                              const DetokenizeOptions &options) {
  std::size_t i = prompt.size(), bytes = 0;
  while (i > 0) {
    TokenId id = prompt[--i];
    if (id >= impl.vocab_size) continue;
    TokenKind kind = impl.token_kind[id];
    if (kind == TokenKind::kNone || (kind == TokenKind::kSpecial && skipped_special(options, id))) continue;
    if (impl.bytewise_decode) {
      bytes += kind == TokenKind::kSpecial ? impl.special_token_bytes(id).size() : impl.token_bytes[id].size();
      if (bytes >= 4) return i;
      continue;
    }
    if (kind == TokenKind::kByte || (kind == TokenKind::kSpecial && impl.is_byte_special(id))) continue;
    std::string_view piece = kind == TokenKind::kSpecial ? impl.special_token_bytes(id) : impl.token_bytes[id];
    if (impl.stream_strip && impl.stream_strip->stop > 0) {
      const std::string &c = impl.stream_strip->content;
      bool all_content = true;
      for (std::size_t k = 0; k + c.size() <= piece.size() && all_content; k += c.size())
        all_content = piece.compare(k, c.size(), c) == 0;
      if (all_content && piece.size() % c.size() == 0) continue;
    }
    return i;
  }
  return 0;
}
}  // namespace

Detokenizer::Detokenizer(Tokenizer tokenizer, std::span<const TokenId> prompt, DetokenizeOptions options)
    : tokenizer_(std::move(tokenizer)), impl_(tokenizer_.impl()), options_(options) {
  if (!impl_->stream_unsupported.empty()) throw Error(impl_->origin + ": " + impl_->stream_unsupported);
  if (impl_->stream_strip) strip_left_ = static_cast<std::uint32_t>(impl_->stream_strip->start);
  first_pending_ = impl_->stream_first_token;
  std::string discarded;
  std::size_t tail = tail_window_start(*impl_, prompt, options_);
  std::size_t i = 0;
  // The start of the text matters only while a Strip may still remove leading
  // copies.
  while (i < tail && (strip_left_ > 0 || first_pending_)) step(prompt[i++], discarded);
  if (i < tail) {  // no byte before the tail window can change the state at its end
    pending_.clear();
    run_tokens_ = 0;
    run_invalid_ = false;
    held_end_.clear();
    strip_left_ = 0;
  }
  step(prompt.subspan(tail), discarded);
}

// Text after ByteFallback and Fuse: only Strip is left to apply.
void Detokenizer::emit(std::string_view text, std::string &out) {
  const auto *strip = impl_->stream_strip;
  if (!strip) {
    out += text;
    return;
  }
  const std::string &c = strip->content;
  while (strip_left_ > 0 && text.starts_with(c)) {
    text.remove_prefix(c.size());
    --strip_left_;
  }
  if (text.empty()) return;
  strip_left_ = 0;
  if (strip->stop == 0) {
    out += text;
    return;
  }
  // Hold the trailing copies of the character: the end of the text would remove
  // them.
  std::size_t copies = 0, end = text.size();
  while (copies < strip->stop && end >= c.size() && text.compare(end - c.size(), c.size(), c) == 0) {
    end -= c.size();
    ++copies;
  }
  if (end == 0) {
    held_end_ += text;
    std::size_t excess = held_end_.size() - std::min(held_end_.size(), strip->stop * c.size());
    out.append(held_end_, 0, excess);
    held_end_.erase(0, excess);
    return;
  }
  out += held_end_;
  held_end_.assign(text.substr(end));
  out.append(text.substr(0, end));
}

void Detokenizer::end_byte_run(std::string &out) {
  if (run_tokens_ == 0) return;
  if (!run_invalid_) {
    if (detail::find_invalid_utf8(pending_) == std::string_view::npos) {
      emit(pending_, out);
    } else {
      std::string replacement;
      for (std::uint32_t k = 0; k < run_tokens_; ++k) replacement += kReplacement;
      emit(replacement, out);
    }
  }
  pending_.clear();
  run_tokens_ = 0;
  run_invalid_ = false;
}

// Performance note: this is the per-token hot path of every stream. A token
// that is ASCII or whole characters costs one table read and one append (bench
// stream); no allocation once `out` has capacity.
void Detokenizer::step(TokenId id, std::string &out) {
  const Tokenizer::Impl &impl = *impl_;
  if (id >= impl.vocab_size) return;  // skipped, as decode skips it
  TokenKind kind = impl.token_kind[id];
  if (kind == TokenKind::kNone || (kind == TokenKind::kSpecial && skipped_special(options_, id))) return;
  std::string_view piece = kind == TokenKind::kSpecial ? impl.special_token_bytes(id) : impl.token_bytes[id];
  if (impl.bytewise_decode) {
    std::size_t held;
    // Whole characters: nothing to check. A special token's content went through the decoder as
    // well and may be bytes that are not (checked here: special tokens are rare in a stream).
    if (pending_.empty() && kind != TokenKind::kPartial &&
        (kind != TokenKind::kSpecial || detail::find_invalid_utf8(piece) == std::string_view::npos)) {
      out += piece;
      return;
    }
    if (pending_.empty()) {
      held = detail::append_utf8_lossy_prefix(out, piece);
      if (held) pending_.assign(piece.substr(piece.size() - held));
    } else {
      pending_ += piece;
      held = detail::append_utf8_lossy_prefix(out, pending_);
      pending_.erase(0, pending_.size() - held);
    }
    return;
  }
  if (first_pending_) {  // Metaspace: the first token has its own rule
    first_pending_ = false;
    std::string first(*impl.token_string(id));
    impl.decoder->map_first_token(first);
    out += first;
    return;
  }
  if (kind != TokenKind::kByte && (kind != TokenKind::kSpecial || !impl.is_byte_special(id))) {
    end_byte_run(out);
    emit(piece, out);
    return;
  }
  // A byte token: the run is decided when it ends, unless it is already invalid
  // for good.
  if (options_.eager_byte_runs) {  // complete characters now; only an incomplete one is held
    pending_ += piece;
    std::string complete;
    std::size_t held = detail::append_utf8_lossy_prefix(complete, pending_);
    pending_.erase(0, pending_.size() - held);
    run_tokens_ = pending_.empty() ? 0 : run_tokens_ + 1;  // the tokens of the held character
    if (!complete.empty()) emit(complete, out);
    return;
  }
  ++run_tokens_;
  if (run_invalid_) {
    emit(kReplacement, out);
    return;
  }
  pending_ += piece;
  // The run so far was a valid prefix, so only its last character (from its
  // lead byte) can have gone wrong; checking the whole run would make long runs
  // quadratic.
  std::size_t from = pending_.size() - 1;
  while (from > 0 && pending_.size() - from < 4 && (static_cast<unsigned char>(pending_[from]) & 0xC0) == 0x80) --from;
  if (!detail::is_utf8_prefix(std::string_view(pending_).substr(from))) {
    run_invalid_ = true;
    pending_.clear();
    for (std::uint32_t k = 0; k < run_tokens_; ++k) emit(kReplacement, out);
  }
}

void Detokenizer::step(std::span<const TokenId> ids, std::string &out) {
  for (TokenId id : ids) step(id, out);
}

void Detokenizer::finish(std::string &out) {
  if (impl_->bytewise_decode) {
    if (!pending_.empty()) out += kReplacement;  // a truncated character, as from_utf8_lossy ends it
    pending_.clear();
    return;
  }
  end_byte_run(out);
  held_end_.clear();  // the end of the text: Strip removes these
}

LogprobToken logprob_token(const Tokenizer &tokenizer, TokenId id) {
  const Tokenizer::Impl &impl = *tokenizer.impl();
  LogprobToken result;
  std::string_view bytes;
  if (id < impl.vocab_size) {
    if (impl.token_kind[id] == TokenKind::kSpecial)
      bytes = impl.special_token_bytes(id);
    else
      bytes = impl.token_bytes[id];
  }
  result.bytes.assign(bytes.begin(), bytes.end());
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t bad = detail::find_invalid_utf8(bytes.substr(i));
    if (bad == std::string_view::npos) {
      result.token.append(bytes.substr(i));
      break;
    }
    result.token.append(bytes.substr(i, bad));
    static const char *hex = "0123456789abcdef";
    unsigned char b = static_cast<unsigned char>(bytes[i + bad]);
    result.token += "\\x";
    result.token += hex[b >> 4];
    result.token += hex[b & 15];
    i += bad + 1;
  }
  return result;
}

}  // namespace textedge
