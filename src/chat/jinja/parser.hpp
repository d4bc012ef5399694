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

  // ids again, open addressing over a cheap hash (the size and three bytes), for the variables
  // a render is given: ~80 instructions a look-up through the map, ~15 here (callgrind).
  std::vector<std::pair<std::string_view, NameId>> id_slots;  // a null name: free
  static std::size_t slot_hash(std::string_view name) {
    auto byte = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(name[i])); };
    std::size_t n = name.size();
    return n == 0 ? 0 : (n * 0x9E3779B1u) ^ (byte(0) * 0x85EBCA77u) ^ (byte(n - 1) * 0xC2B2AE3Du) ^ (byte(n / 2) * 0x27D4EB2Fu);
  }
  const NameId* find_id(std::string_view name) const {
    std::size_t mask = id_slots.size() - 1;
    for (std::size_t i = (slot_hash(name) >> 7) & mask;; i = (i + 1) & mask) {
      const auto& [slot_name, id] = id_slots[i];
      if (!slot_name.data()) return nullptr;
      if (slot_name == name) return &id;
    }
  }
};

// Throws TemplateError (TemplateSyntaxError or TemplateAssertionError).
ParsedTemplate parse(std::vector<Token> tokens);

bool is_known_filter(std::string_view name);
bool is_known_test(std::string_view name);

}  // namespace textedge::detail::jinja
