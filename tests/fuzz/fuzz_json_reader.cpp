// The request JSON reader (src/chat/jinja/json_reader.cpp): any text is read whole or refused
// with JsonSyntaxError, the same way into an arena and into owned values; what is read writes
// back (json.dumps) to text that reads as the same value; read_json_members refuses it exactly as
// read_json does, or reads the members it keeps as read_json does; check_json refuses it exactly
// as read_json does. Then the text as a chat request
// through ChatTemplate::apply_request and the default template: a prompt or a textedge::Error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "chat/jinja/runtime.hpp"
#include "chat/jinja/template.hpp"
#include "textedge/chat_template.hpp"

using namespace textedge;
using namespace textedge::detail::jinja;

namespace {

[[noreturn]] void fail(const char* what, std::string_view a, std::string_view b) {
  std::fprintf(stderr, "%s\n  %.*s\n  %.*s\n", what, static_cast<int>(a.size()), a.data(), static_cast<int>(b.size()),
               b.data());
  std::abort();
}

// json.dumps writes inf and nan as Infinity and NaN, which the reader refuses as Python's
// strict JSON does not (a request never holds them).
bool has_non_finite(const Value& v) {
  switch (v.type()) {
    case Type::Float:
      return !std::isfinite(v.as_float());
    case Type::List:
      for (const Value& item : v.items())
        if (has_non_finite(item)) return true;
      return false;
    case Type::Dict:
      for (const auto& [key, item] : v.dict().entries())
        if (has_non_finite(item)) return true;
      return false;
    default:
      return false;
  }
}

std::string dumps(const Value& v) {
  std::string out;
  append_json(out, v, Value::none(), false, false, nullptr, nullptr);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view json(reinterpret_cast<const char*>(data), size);
  std::string owned_repr;
  bool read = true;
  try {
    owned_repr = read_json(json, nullptr).repr();
  } catch (const JsonSyntaxError&) {
    read = false;
  }
  {
    ValueArena arena;
    Value value;
    try {
      value = read_json(json, &arena);
    } catch (const JsonSyntaxError& e) {
      if (read) fail("read into owned values but refused into an arena", json, e.what());
    }
    if (!value.is_undefined()) {
      if (!read) fail("refused into owned values but read into an arena", json, value.repr());
      if (value.repr() != owned_repr) fail("owned and arena values differ", owned_repr, value.repr());
      std::string text = dumps(value);
      try {
        ValueArena again;
        std::string text_again = dumps(read_json(text, &again));
        if (text_again != text) fail("dumps(loads(dumps(value))) differs", text, text_again);
      } catch (const JsonSyntaxError& e) {
        if (!has_non_finite(value)) fail("json.dumps output is refused", text, e.what());
      }
    }
  }

  // Members checked but not built (read_json_members): the same error, or the same members.
  {
    static constexpr std::string_view kRead[] = {"messages"};
    ValueArena arena;
    Value partial;
    std::string error;
    try {
      partial = read_json_members(json, arena, kRead);
    } catch (const JsonSyntaxError& e) {
      error = e.what();
    }
    std::string full_error;
    Value full;
    ValueArena full_arena;
    try {
      full = read_json(json, &full_arena);
    } catch (const JsonSyntaxError& e) {
      full_error = e.what();
    }
    if (error != full_error) fail("read_json_members and read_json refuse differently", error, full_error);
    std::string check_error;
    try {
      check_json(json);
    } catch (const JsonSyntaxError& e) {
      check_error = e.what();
    }
    if (check_error != full_error) fail("check_json and read_json refuse differently", check_error, full_error);
    if (full.is_dict()) {
      auto a = full.dict().entries(), b = partial.dict().entries();
      if (a.size() != b.size()) fail("read_json_members has other members", full.repr(), partial.repr());
      for (std::size_t i = 0; i < a.size(); ++i) {
        bool kept = a[i].first.str() == "messages";
        if (a[i].first.repr() != b[i].first.repr() || (kept ? b[i].second.repr() != a[i].second.repr() : !b[i].second.is_undefined()))
          fail("read_json_members read a member differently", full.repr(), partial.repr());
      }
    } else if (error.empty() && partial.repr() != full.repr()) {
      fail("read_json_members read a non-object differently", full.repr(), partial.repr());
    }
  }

  static const ChatTemplate chat = ChatTemplate::from_string(ChatTemplate::default_source());
  try {
    chat.apply_request(json);
  } catch (const Error&) {
  }
  return 0;
}
