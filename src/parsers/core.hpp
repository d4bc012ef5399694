// Internals of the output parser (include/textedge/output_parser.hpp): a byte-serial state
// machine in two layers. The reasoning layer splits reasoning from the rest; the tool layer
// (one ToolScanner subclass per format) splits content from calls. Every decision depends only
// on the bytes seen so far, and undecided bytes are held back explicitly, so the merged deltas
// do not depend on how the text was split into feed() calls.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_string.hpp"
#include "streaming/stop_strings.hpp"
#include "textedge/output_parser.hpp"

namespace textedge::detail {

// Appends deltas to the caller's vector, merging consecutive pieces of one kind.
class Emitter {
 public:
  std::vector<ChatDelta>* out = nullptr;
  int next_call = 0;            // the next call's index, shared by the scanners of one output
  bool text_is_reasoning = false;  // a scanner reading reasoning: its text is reasoning
  void text(ChatDelta::Kind kind, std::string_view s);
  void call(int index, std::string id, std::string name, std::string_view args);
  void args(int index, std::string_view s);
};

// An incremental JSON validator for one top-level object: one byte at a time, exposing enough
// state for the call wrappers to find their keys and values.
class JsonScan {
 public:
  enum class R { ok, done, error };
  void reset() { *this = JsonScan(); }
  R step(unsigned char c);
  std::size_t depth() const { return stack_.size(); }
  bool expecting_value() const { return st_ == St::value || st_ == St::value_or_close; }
  bool in_string() const { return st_ == St::str || st_ == St::esc || st_ == St::hex; }
  const std::string& key() const { return key_; }  // the last key read at depth 1 (raw)

 private:
  enum class St : unsigned char { value, value_or_close, key_or_close, key, colon, comma_or_close, str, esc, hex, num, lit, done };
  R begin_value(unsigned char c);
  R close(unsigned char c);
  R value_end();
  St st_ = St::value;
  bool in_key_ = false;
  unsigned char hex_ = 0, lit_pos_ = 0, num_ = 0;  // num_: where in the number grammar
  const char* lit_ = nullptr;
  std::string stack_, key_;
};

class ToolScanner;

// {"name": "f", "arguments"|"parameters": {...}} as written by hermes, llama3_json, mistral
// (other spellings of the name and id keys, e.g. Cohere's "tool_name", through Keys).
// With allow_string_args(), the arguments may also be a JSON string holding the object
// ("arguments": "{\"a\": 1}", as Granite 4 writes them and vLLM's granite4 parser passes on):
// held to the string's end, then the object it holds is the arguments.
class WrapperCall {
 public:
  enum class R { more, done, error };
  struct Keys {
    std::string_view name = "name", id = "id";  // id "": the object carries no call id
  };
  WrapperCall() = default;
  explicit WrapperCall(Keys keys) : keys_(keys) {}
  void reset() {
    bool string_args = string_args_;
    *this = WrapperCall(keys_);
    string_args_ = string_args;
  }
  void allow_string_args() { string_args_ = true; }
  R step(unsigned char c, ToolScanner& s);

 private:
  enum class Region : unsigned char { none, name, args, id, args_string };
  Keys keys_;
  JsonScan p_;
  Region region_ = Region::none;
  bool have_name_ = false, have_args_ = false, string_args_ = false;
  std::string name_raw_, id_raw_, args_raw_;
};

std::string json_unescape(std::string_view raw);
bool json_ws(unsigned char c);

// The tool layer: content outside calls (holding back any tail that could begin a start marker),
// sessions from a start marker to the end of the calls it opens, and the call policy.
class ToolScanner {
 public:
  ToolScanner(Emitter& em, const OutputParserOptions& options, std::vector<std::string> markers);
  virtual ~ToolScanner() = default;
  void byte(unsigned char c);
  void finish();
  int calls() const { return completed_; }  // calls completed and valid

  // For the format modules.
  void set_name(std::string name, std::string id = {});  // id: the call's id when the text gives one
  void set_id_style(std::string prefix, int length);     // generated ids: prefix + length alphanumerics
  void late_id(std::string id);  // the call's id, read after its name: used unless the header was streamed
  void add_args(std::string_view s);
  void end_call();  // the current call is complete and valid
  void commit();    // the session's bytes so far belong to emitted calls
  void emit_text(ChatDelta::Kind kind, std::string_view s);  // content or reasoning from a session (harmony)

 protected:
  enum class Step { more, end, fail };
  virtual void begin(std::uint32_t marker) = 0;
  virtual Step step(unsigned char c) = 0;
  virtual bool marker_allowed(std::uint32_t) const { return true; }
  virtual void at_finish() {}  // the output ended inside a session: release what may be released
  bool content_started() const { return content_started_; }
  bool partial() const { return partial_; }

 private:
  void outside(unsigned char c);
  void content(std::string_view s);
  void resolve();  // the session failed or was cut off
  std::string next_id();
  void send_header();

  Emitter& em_;
  std::shared_ptr<const StopStrings> markers_;
  std::uint32_t ac_ = 0;
  std::string held_;  // outside: bytes that could begin a marker
  // Whitespace after a call, dropped if another call or the end follows, else content.
  bool after_call_ = false;
  std::string gap_;
  bool partial_;
  std::uint64_t seed_;
  std::string id_prefix_ = "call_";
  int id_length_ = 24;
  bool content_started_ = false;
  bool in_session_ = false;
  bool session_output_ = false;  // the session emitted a call or text
  std::size_t marker_len_ = 0, committed_ = 0;
  std::string raw_;  // the session's bytes, from its marker
  // The current call.
  bool header_sent_ = false, have_name_ = false;
  int index_ = -1, completed_ = 0;
  std::string name_, args_, id_;
};

// The JSON types of each tool's parameters, for the formats that write raw values (qwen3_coder,
// glm45). Untyped parameters, and all of them without tools, count as strings (as in vLLM).
class ToolTypes {
 public:
  explicit ToolTypes(const std::string& tools_json);
  bool string_typed(const std::string& tool, const std::string& parameter) const;

 private:
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> tools_;
};
std::string typed_value(const std::string& raw);  // raw when it parses as JSON, else quoted

// Reads one of several tags byte by byte: -1 while `buf` is a prefix of one, -2 when of none,
// else the index of the tag completed.
int match_tag(std::string& buf, unsigned char c, std::initializer_list<std::string_view> tags);


}  // namespace textedge::detail
