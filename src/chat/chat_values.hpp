// A chat request already read into template values by a reader other than JSON text's (the
// Python binding reads Python objects): ChatTemplate::apply without writing and reading JSON.
#pragma once

#include <string>

#include "chat/jinja/value.hpp"
#include "textedge/chat_template.hpp"

namespace textedge::detail {

struct ChatValues {
  jinja::ValueArena arena;  // holds every list, dict and string of the values below
  jinja::Value messages, tools, documents, chat_template_kwargs;  // undefined when absent
};

// As ChatTemplate::apply, with options.tools, .documents and .chat_template_kwargs ignored
// (the values carry them). Throws as apply does.
std::string apply_values(const ChatTemplate& chat, const ChatValues& values, const ChatOptions& options);

}  // namespace textedge::detail
