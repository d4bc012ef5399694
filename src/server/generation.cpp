#include "server/generation.hpp"

#include <cmath>
#include <cstdio>

#include "base/json_string.hpp"

namespace textedge::server {
namespace {

using detail::append_json_string;

StreamOptions stream_options(const GenerationParams& p, std::vector<TokenId> keep_special) {
  StreamOptions o;
  o.skip_special_tokens = p.skip_special_tokens;
  o.keep_special_tokens = std::move(keep_special);
  o.stop = p.stop;
  o.stop_token_ids = p.stop_token_ids;
  o.ignore_eos = p.ignore_eos;
  o.include_stop_str_in_output = p.include_stop_str_in_output;
  o.min_tokens = p.min_tokens;
  o.max_tokens = p.max_tokens;
  return o;
}

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) v = v < 0 ? -9999.0 : 0.0;  // JSON has no -inf: vLLM writes -9999.0
  char buf[32];
  int n = std::snprintf(buf, sizeof buf, "%.9g", v);
  out.append(buf, static_cast<std::size_t>(n));
}

void append_token(std::string& out, const Tokenizer& tokenizer, TokenId id, float logprob) {
  LogprobToken t = logprob_token(tokenizer, id);
  out += "{\"token\":";
  append_json_string(out, t.token);
  out += ",\"logprob\":";
  append_number(out, logprob);
  out += ",\"bytes\":[";
  for (std::size_t i = 0; i < t.bytes.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(t.bytes[i]);
  }
  out += ']';
}

void append_head(const ResponseHead& head, std::string& out, bool chunk) {
  out += "{\"id\":";
  append_json_string(out, head.id);
  out += ",\"object\":";
  if (head.endpoint == Endpoint::kChat) out += chunk ? "\"chat.completion.chunk\"" : "\"chat.completion\"";
  else out += "\"text_completion\"";
  out += ",\"created\":" + std::to_string(head.created) + ",\"model\":";
  append_json_string(out, head.model);
  out += ",\"choices\":[";
}

}  // namespace

Choice::Choice(const Tokenizer& tokenizer, std::span<const TokenId> prompt, const GenerationParams& params,
               const OutputParserOptions* parser, std::vector<TokenId> keep_special, int index, bool forced_name)
    : tokenizer_(tokenizer),
      stream_(tokenizer, prompt, stream_options(params, std::move(keep_special))),
      index_(index),
      forced_name_(forced_name),
      want_logprobs_(params.top_logprobs >= 0),
      top_logprobs_(params.top_logprobs) {
  if (parser) parser_.emplace(*parser);
}

void Choice::start(const ResponseHead& head, std::string& sse) const {
  sse += "data: ";
  append_head(head, sse, true);
  sse += "{\"index\":" + std::to_string(index_) +
         ",\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]";
  if (head.include_usage) sse += ",\"usage\":null";
  sse += "}\n\n";
}

void Choice::take_logprobs(const EngineEvent& event, std::size_t consumed) {
  if (!want_logprobs_) return;
  for (std::size_t i = 0; i < consumed && i < event.logprobs.size(); ++i) logprobs_.push_back(event.logprobs[i]);
}

void Choice::append_logprobs_json(std::string& out, std::size_t begin, std::size_t end) const {
  if (!want_logprobs_ || begin == end) {
    out += "null";
    return;
  }
  if (parser_) {  // chat: {"content": [{token, logprob, bytes, top_logprobs}]}
    out += "{\"content\":[";
    for (std::size_t i = begin; i < end; ++i) {
      if (i > begin) out += ',';
      const TokenLogprob& lp = logprobs_[i];
      append_token(out, tokenizer_, lp.id, lp.logprob);
      out += ",\"top_logprobs\":[";
      for (std::size_t k = 0; k < lp.top.size() && static_cast<int>(k) < top_logprobs_; ++k) {
        if (k) out += ',';
        append_token(out, tokenizer_, lp.top[k].first, lp.top[k].second);
        out += '}';
      }
      out += "]}";
    }
    out += "]}";
    return;
  }
  // completions: {"tokens", "token_logprobs", "top_logprobs", "text_offset"}
  std::string tokens, values, tops, offsets;
  std::size_t offset = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const char* sep = i > begin ? "," : "";
    LogprobToken t = logprob_token(tokenizer_, logprobs_[i].id);
    tokens += sep;
    append_json_string(tokens, t.token);
    values += sep;
    append_number(values, logprobs_[i].logprob);
    tops += sep;
    tops += '{';
    for (std::size_t k = 0; k < logprobs_[i].top.size() && static_cast<int>(k) < top_logprobs_; ++k) {
      if (k) tops += ',';
      append_json_string(tops, logprob_token(tokenizer_, logprobs_[i].top[k].first).token);
      tops += ':';
      append_number(tops, logprobs_[i].top[k].second);
    }
    tops += '}';
    offsets += sep + std::to_string(offset);
    offset += t.bytes.size();
  }
  out += "{\"tokens\":[" + tokens + "],\"token_logprobs\":[" + values + "],\"top_logprobs\":[" + tops +
         "],\"text_offset\":[" + offsets + "]}";
}

void Choice::emit(const ResponseHead& head, std::string& sse, const ChatDelta* delta, std::string_view text, bool final) {
  sse += "data: ";
  append_head(head, sse, true);
  sse += "{\"index\":" + std::to_string(index_);
  if (head.endpoint == Endpoint::kChat) {
    sse += ",\"delta\":";
    sse += delta ? to_json(*delta) : std::string("{}");
  } else {
    sse += ",\"text\":";
    append_json_string(sse, text);
  }
  sse += ",\"logprobs\":";
  append_logprobs_json(sse, logprobs_sent_, logprobs_.size());
  logprobs_sent_ = logprobs_.size();
  sse += ",\"finish_reason\":";
  if (final) append_json_string(sse, finish_reason_); else sse += "null";
  sse += "}]";
  if (head.include_usage) sse += ",\"usage\":null";
  sse += "}\n\n";
}

bool Choice::on_event(const EngineEvent& event, const ResponseHead& head, std::string* sse) {
  if (ended_) return true;
  if (!event.error.empty()) {
    abort(event.error);
    if (sse) emit(head, *sse, nullptr, {}, true);
    return true;
  }
  delta_.text.clear();
  delta_.finish_reason = FinishReason::kNone;
  std::size_t before = stream_.generated_tokens();
  std::span<const TokenId> ids = event.ids;
  // An engine that stopped at its own end-of-generation token: that token ends the text and is
  // not part of it, also when textedge's tokenizer takes it for ordinary text (llama.cpp counts
  // Qwen3's "</s>" among its end tokens). Special tokens go through the stream, which knows EOS.
  bool engine_eog = event.done && event.stop == EngineStop::kEos && !ids.empty() && !tokenizer_.is_special(ids.back());
  if (engine_eog) ids = ids.first(ids.size() - 1);
  if (!ids.empty()) stream_.step(ids, delta_);
  std::size_t consumed = stream_.generated_tokens() - before;
  if (engine_eog && !stream_.finished()) {
    ++extra_tokens_;
    ++consumed;
  }
  take_logprobs(event, consumed);
  bool stopped_here = stream_.finished();
  if (!stopped_here && event.done) stream_.finish(delta_);
  ended_ = stopped_here || event.done;

  deltas_.clear();
  if (parser_) {
    parser_->feed(delta_.text, deltas_);
    if (ended_) parser_->finish(deltas_);
    merge_deltas(deltas_, message_);
    if (sse) {
      for (const ChatDelta& d : deltas_) emit(head, *sse, &d, {}, false);
    }
  } else {
    text_ += delta_.text;
    if (sse && !delta_.text.empty()) emit(head, *sse, nullptr, delta_.text, false);
  }
  if (ended_) {
    bool length = delta_.finish_reason == FinishReason::kLength ||
                  (!stopped_here && delta_.finish_reason == FinishReason::kNone && event.stop == EngineStop::kLength);
    finish_reason_ = length ? "length" : "stop";
    if (parser_ && parser_->made_calls() && !forced_name_) finish_reason_ = "tool_calls";
    if (sse) emit(head, *sse, nullptr, {}, true);
  }
  return ended_;
}

void Choice::abort(const std::string& reason) {
  if (ended_) return;
  ended_ = true;
  error_ = reason;
  finish_reason_ = "error";
}

void Choice::append_choice_json(const ResponseHead& head, std::string& out) const {
  out += "{\"index\":" + std::to_string(index_);
  if (head.endpoint == Endpoint::kChat) {
    out += ",\"message\":{\"role\":\"assistant\",\"content\":";
    if (message_.content.empty() && !message_.tool_calls.empty()) out += "null";
    else append_json_string(out, message_.content);
    if (!message_.reasoning_content.empty()) {
      out += ",\"reasoning_content\":";
      append_json_string(out, message_.reasoning_content);
    }
    if (!message_.tool_calls.empty()) {
      out += ",\"tool_calls\":[";
      for (std::size_t i = 0; i < message_.tool_calls.size(); ++i) {
        const ParsedToolCall& c = message_.tool_calls[i];
        if (i) out += ',';
        out += "{\"id\":";
        append_json_string(out, c.id);
        out += ",\"type\":\"function\",\"function\":{\"name\":";
        append_json_string(out, c.name);
        out += ",\"arguments\":";
        append_json_string(out, c.arguments);
        out += "}}";
      }
      out += ']';
    }
    out += '}';
  } else {
    out += ",\"text\":";
    append_json_string(out, text_);
  }
  out += ",\"logprobs\":";
  append_logprobs_json(out, 0, logprobs_.size());
  out += ",\"finish_reason\":";
  append_json_string(out, finish_reason_);
  out += '}';
}

void append_usage_json(std::string& out, std::size_t prompt_tokens, std::size_t completion_tokens) {
  out += "{\"prompt_tokens\":" + std::to_string(prompt_tokens) + ",\"completion_tokens\":" + std::to_string(completion_tokens) +
         ",\"total_tokens\":" + std::to_string(prompt_tokens + completion_tokens) + "}";
}

void append_final_sse(const ResponseHead& head, std::size_t prompt_tokens, std::size_t completion_tokens, std::string& sse) {
  if (head.include_usage) {
    sse += "data: ";
    append_head(head, sse, true);
    sse += "],\"usage\":";
    append_usage_json(sse, prompt_tokens, completion_tokens);
    sse += "}\n\n";
  }
  sse += "data: [DONE]\n\n";
}

}  // namespace textedge::server
