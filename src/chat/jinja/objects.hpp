// The Type::Object payloads: functions (globals, bound methods), macros, namespaces, loops,
// cyclers and joiners.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "chat/jinja/ast.hpp"
#include "chat/jinja/render.hpp"
#include "chat/jinja/value.hpp"

namespace textedge::detail::jinja {

enum class Builtin : std::uint8_t { Range, Namespace, Dict, Cycler, Joiner, RaiseException, StrftimeNow, Lipsum, BoundMethod };

class FunctionObject final : public BoxObject {
 public:
  FunctionObject(Builtin b, Value self = Value(), std::string method = {})
      : BoxObject(ObjectKind::Function), builtin(b), self(std::move(self)), method(std::move(method)) {}
  Builtin builtin;
  Value self;          // BoundMethod
  std::string method;  // BoundMethod
};

class MacroObject final : public BoxObject {
 public:
  MacroObject(const MacroDef* d, Ref<Frame> c) : BoxObject(ObjectKind::Macro), def(d), closure(std::move(c)) {}
  const MacroDef* def;
  Ref<Frame> closure;
};

// Mutable: {% set ns.attr = value %} writes here.
class NamespaceObject final : public BoxObject {
 public:
  NamespaceObject() : BoxObject(ObjectKind::Namespace) {}
  const Value* find(std::string_view name) const {
    for (auto& a : attrs)
      if (same_text(a.first, name)) return &a.second;
    return nullptr;
  }
  void set(std::string_view name, Value v) {
    for (auto& a : attrs)
      if (same_text(a.first, name)) {
        a.second = std::move(v);
        return;
      }
    attrs.emplace_back(std::string(name), std::move(v));
  }
  SmallVector<std::pair<std::string, Value>, 8> attrs;  // templates keep a few flags here: no heap
  bool linked = false;  // in Renderer::linked_namespaces_
};

class LoopObject final : public BoxObject {
 public:
  LoopObject() : BoxObject(ObjectKind::Loop) {}
  std::span<const Value> items() const { return source.is_list() ? source.items() : std::span<const Value>(owned); }
  Value source;              // an unfiltered list is iterated in place
  std::vector<Value> owned;  // otherwise the items: filtered, a dict's keys, a string's characters
  std::size_t index0 = 0;
  std::size_t depth0 = 0;
  const Stmt* stmt = nullptr;  // recursive loops: loop(children) re-runs this loop
  Ref<Frame> outer;
  bool has_last_changed = false;
  Value last_changed;
};

class CyclerObject final : public BoxObject {
 public:
  explicit CyclerObject(std::vector<Value> v) : BoxObject(ObjectKind::Cycler), items(std::move(v)) {}
  std::vector<Value> items;
  std::size_t pos = 0;
};

class JoinerObject final : public BoxObject {
 public:
  explicit JoinerObject(std::string s) : BoxObject(ObjectKind::Joiner), sep(std::move(s)) {}
  std::string sep;
  bool used = false;
};

template <class T>
const T* as(const Value& v, ObjectKind k) {
  const BoxObject* b = box_of(v);
  return b && b->kind == k ? static_cast<const T*>(b) : nullptr;
}

// builtins.cpp
const std::tm*& pinned_now();  // this thread's render's fixed time for strftime_now(), or null
Value global_function(NameId id);  // undefined when id is not a global
Value call_builtin(Renderer& r, const FunctionObject& f, Args& args);
Value loop_attribute(const LoopObject& loop, std::string_view name, bool& found);

}  // namespace textedge::detail::jinja
