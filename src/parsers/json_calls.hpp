// The calls written as JSON wrappers {"name": "f", "arguments": {...}} after a start marker,
// shared by the families that write them so (granite, phi4_mini, hunyuan, jamba, internlm2):
// a family lists its start markers, and for each what may follow it:
//   - a JSON array of wrappers, [{...}, {...}] (each call complete, and kept, at its own "}");
//     then, optionally, whitespace and the marker's end tag (consumed when it follows);
//   - one wrapper {...}, complete only at its end tag (or when the output ends right after the
//     object, as for hermes).
// A marker may open calls only before any content (a bare "[" at the start of the output), and
// may need a second tag after it (InternLM's <|action_start|> then <|plugin|>, which a decoder
// that puts spaces between special tokens writes "<|action_start|> <|plugin|>").
#pragma once

#include <string_view>
#include <vector>

#include "parsers/core.hpp"

namespace textedge::detail {

struct JsonCallsMarker {
  std::string_view open;          // the start marker ("[" itself: the array has begun)
  std::string_view tag = {};      // a second tag after it, optionally after whitespace ("" none)
  std::string_view close = {};    // the end tag after the array or the object ("" none)
  bool array = true;              // [{...}, ...] may follow
  bool object = false;            // one {...} may follow
  bool space = true;              // whitespace may come between the marker and the JSON
  bool at_start_only = false;     // opens calls only before any content
};

class JsonCalls final : public ToolScanner {
 public:
  JsonCalls(Emitter& em, const OutputParserOptions& o, std::vector<JsonCallsMarker> markers, bool string_args = false)
      : ToolScanner(em, o, opens(markers)), markers_(std::move(markers)) {
    if (string_args) call_.allow_string_args();
  }

 private:
  enum class St : unsigned char { other_marker, tag, pre, array_pre, array_next, json, array_after, close, object_close };
  static std::vector<std::string> opens(const std::vector<JsonCallsMarker>& m) {
    std::vector<std::string> v;
    for (auto& x : m) v.emplace_back(x.open);
    return v;
  }
  bool marker_allowed(std::uint32_t marker) const override { return !markers_[marker].at_start_only || !content_started(); }
  void begin(std::uint32_t marker) override {
    m_ = &markers_[marker];
    st_ = m_->open == "[" ? St::array_pre : m_->tag.empty() ? St::pre : St::tag;
    in_array_ = m_->open == "[";
    close_ = 0;
    opened_.assign(1, '[');
    fresh_ = true;
  }
  Step step(unsigned char c) override {
    switch (st_) {
      case St::other_marker:  // a bare "[" that goes on as a longer marker ("[TOOL_CALLS]")
        opened_ += static_cast<char>(c);
        for (auto& m : markers_)
          if (m.open.size() > 1 && m.open.starts_with(opened_)) {
            if (m.open.size() > opened_.size()) return Step::more;
            m_ = &m;
            st_ = St::pre;
            return Step::more;
          }
        return Step::fail;
      case St::tag:  // close_ counts the tag's bytes read
        if (close_ == 0 && json_ws(c)) return Step::more;
        if (c != static_cast<unsigned char>(m_->tag[close_])) return Step::fail;
        if (++close_ < m_->tag.size()) return Step::more;
        close_ = 0;
        st_ = St::pre;
        return Step::more;
      case St::pre:
        if (json_ws(c) && m_->space) return Step::more;
        if (c == '[' && m_->array) {
          in_array_ = true;
          st_ = St::array_pre;
          return Step::more;
        }
        if (c != '{' || !m_->object) return Step::fail;
        in_array_ = false;
        st_ = St::json;
        call_.reset();
        return step(c);
      case St::array_pre: {  // after "[": the first call
        bool fresh = fresh_;
        fresh_ = false;
        if (fresh && m_->open == "[" && c != '{' && !json_ws(c)) {
          st_ = St::other_marker;
          return step(c);
        }
        [[fallthrough]];
      }
      case St::array_next:  // after ",": the next call
        if (json_ws(c)) return Step::more;
        if (c != '{') return Step::fail;  // "[]" makes no call: text as written
        st_ = St::json;
        call_.reset();
        [[fallthrough]];
      case St::json:
        switch (call_.step(c, *this)) {
          case WrapperCall::R::error: return Step::fail;
          case WrapperCall::R::more: return Step::more;
          case WrapperCall::R::done:
            if (in_array_) {
              end_call();
              st_ = St::array_after;
            } else if (m_->close.empty()) {
              end_call();
              return Step::end;
            } else {
              if (partial()) commit();
              st_ = St::object_close;
            }
            return Step::more;
        }
        return Step::fail;
      case St::array_after:
        if (json_ws(c)) return Step::more;
        if (c == ',') {
          st_ = St::array_next;
          return Step::more;
        }
        if (c != ']') return Step::fail;
        commit();
        if (m_->close.empty()) return Step::end;
        st_ = St::close;
        return Step::more;
      case St::close:  // the calls are kept; the end tag is consumed when it follows
      case St::object_close:
        if (close_ == 0 && json_ws(c)) return Step::more;
        if (m_->close.empty() || c != static_cast<unsigned char>(m_->close[close_])) return Step::fail;
        if (++close_ < m_->close.size()) return Step::more;
        if (st_ == St::object_close) end_call();
        else commit();
        return Step::end;
    }
    return Step::fail;
  }
  // An object complete when the output ends is a call without its end tag (as hermes).
  void at_finish() override {
    if (st_ == St::object_close) end_call();
  }

  std::vector<JsonCallsMarker> markers_;
  const JsonCallsMarker* m_ = nullptr;
  St st_ = St::pre;
  bool in_array_ = false;
  std::size_t close_ = 0;
  std::string opened_;  // a bare "[" and what follows it, while it may be a longer marker
  bool fresh_ = false;  // right after the start marker
  WrapperCall call_;
};

}  // namespace textedge::detail
