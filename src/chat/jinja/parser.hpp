// Builds the statement tree from tokens with Jinja2's grammar and precedence.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "chat/jinja/ast.hpp"
#include "chat/jinja/lexer.hpp"

namespace textedge::detail::jinja {

// Names every template interns first, at fixed ids (globals and the special macro/loop names).
enum BuiltinName : NameId {
  kRange,
  kNamespace,
  kDict,
  kCycler,
  kJoiner,
  kRaiseException,
  kStrftimeNow,
  kLipsum,
  kLoop,
  kCaller,
  kVarargs,
  kKwargs,
  kBuiltinNameCount,
};

struct ParsedTemplate {
  Body body;
  std::vector<std::string> names;  // NameId -> name
  std::unordered_map<std::string_view, NameId> ids;  // name -> NameId (views into names)
  std::vector<std::string> undeclared;
};

// Throws TemplateError (TemplateSyntaxError or TemplateAssertionError).
ParsedTemplate parse(std::vector<Token> tokens);

bool is_known_filter(std::string_view name);
bool is_known_test(std::string_view name);

}  // namespace textedge::detail::jinja
