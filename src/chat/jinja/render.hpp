// The tree-walking evaluator: scopes (frames), macros, loops, calls, limits.
#pragma once

#include <cstdint>

#include <string>
#include <vector>

#include "chat/jinja/ast.hpp"
#include "chat/jinja/parser.hpp"
#include "chat/jinja/runtime.hpp"
#include "chat/jinja/template.hpp"

namespace textedge::detail::jinja {

// Minimal intrusive pointer for Object subclasses.
template <class T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* p) : p_(p) {
    if (p_) p_->retain();
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) p_->retain();
  }
  Ref& operator=(const Ref& o) {
    if (o.p_) o.p_->retain();
    if (p_) p_->release();
    p_ = o.p_;
    return *this;
  }
  ~Ref() {
    if (p_) p_->release();
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }

 private:
  T* p_ = nullptr;
};

// A scope. Frames are counted so a macro can keep its defining scope alive; the renderer clears a
// frame's variables when the scope ends, which breaks reference cycles (a macro stored in the frame
// it captures).
class Frame final : public Object {
 public:
  explicit Frame(Ref<Frame> parent) : parent(std::move(parent)) {}
  const Value* find_local(NameId id) const {
    for (auto& v : vars)
      if (v.first == id) return &v.second;
    return nullptr;
  }
  const Value* find(NameId id) const {
    for (const Frame* f = this; f; f = f->parent.get())
      if (const Value* v = f->find_local(id)) return v;
    return nullptr;
  }
  void set(NameId id, Value v) {
    for (auto& x : vars)
      if (x.first == id) {
        x.second = std::move(v);
        return;
      }
    vars.emplace_back(id, std::move(v));
  }
  Ref<Frame> parent;
  SmallVector<std::pair<NameId, Value>, 4> vars;  // a loop frame: the item, loop and a few sets
};

class LoopObject;
class NamespaceObject;
// builtins.cpp: one of the loop's position attributes (attr is not LoopAttr::Other).
Value loop_attribute(const LoopObject& loop, LoopAttr attr);

class Renderer {
 public:
  Renderer(const ParsedTemplate& t, const RenderLimits& limits);
  std::string run(std::span<const Variable> variables, std::size_t reserve);  // reserve: the output's room

  // For filters and globals.
  Value call(const Value& callee, Args& args);
  // tojson_to_output (name is tojson): the JSON is appended to the output and none is returned.
  Value filter(std::string_view name, const Value& input, Args& args, bool tojson_to_output = false);
  bool test(std::string_view name, const Value& input, Args& args);
  [[gnu::always_inline]] void step() {
    if (++steps_ > limits_.max_steps) raise("LimitError", "template exceeded the step limit");
  }
  // Work in proportion to the size of what a step reads or builds (a filter's or a method's input,
  // the operands of a comparison, what `+` and `*` copy), charged to the step budget: one step
  // then costs at most about linear time in what it touches, so no template can spend longer
  // than its budget (unique over a huge list, `x in xs` in a loop, a list doubled in a loop).
  void charge(const Value& v) {
    charge(v.is_list() ? v.items().size() : v.is_dict() ? v.dict().size() : v.is_string() ? v.str().size() / 16 : 0);
  }
  // The same for work a filter is about to do (items it will build), before it does it.
  void charge(std::size_t units) {
    if (units == 0) return;
    steps_ += units;
    if (steps_ > limits_.max_steps) raise("LimitError", "template exceeded the step limit");
  }
  void check_size(std::size_t n) const {
    if (n > limits_.max_output_bytes) raise("LimitError", "template output exceeded the size limit");
  }

 private:
  enum class Flow { Normal, Break, Continue };

  Flow exec(const Body& body, const Ref<Frame>& frame);
  Flow exec_stmt(const Stmt& s, const Ref<Frame>& frame);
  void exec_for(const Stmt& s, const Ref<Frame>& frame, const Value& iterable, std::size_t depth);
  Value eval(const Expr& e, const Frame& frame);
  [[gnu::noinline]] bool emit_sum(const Expr& e, const Frame& frame);
  enum class Sum { TooLong, Text, Value };  // add_chain: not gathered; all text; the sum is a value
  Sum add_chain(const Expr& e, const Frame& frame, std::string& text, std::size_t mark, Value& sum);
  [[gnu::noinline]] Sum add_walked(const Expr& e, const Frame& frame, std::string& text, std::size_t mark, Value& sum);
  Sum add_operands(std::span<const SumOperand> ops, const Frame& frame, std::string& text, std::size_t mark, Value& sum);
  bool plain_text(const SumOperand& o, const Frame& frame, std::string_view& s);
  const Value* stored(const Expr& e, const Frame& frame);
  [[gnu::noinline]] const Value* stored_item(const Expr& e, const Frame& frame);
  bool int_key(const Expr& k, const Frame& frame, std::int64_t& out);
  const Value& operand(const Expr& e, const Frame& frame, Value& scratch);
  bool truth(const Expr& e, const Frame& frame);
  bool compare(const Expr& e, const Frame& frame);
  bool condition(const Expr& e, const Frame& frame);
  bool loop_position(const Expr& e, const Frame& frame, bool& r);
  Value eval_call(const Expr& e, const Frame& frame);
  void eval_args(const CallArgs& call, const Frame& frame, Args& out);
  Value eval_filter(const Expr& e, const Frame& frame, const Value* input, bool tojson_to_output = false);
  bool eval_test(const Expr& e, const Frame& frame);
  Value lookup(const Expr& e, const Frame& frame);
  void assign(const Target& t, const Value& v, Frame& frame);
  Value call_macro(const Value& macro, Args& args);
  std::string capture(const Body& body, const Ref<Frame>& frame);
  [[gnu::noinline]] void emit(std::string_view s) {
    out_->append(s);
    if (out_->size() > limits_.max_output_bytes) check_size(out_->size());
  }
  void at(Location l) { loc_ = l; }
  [[noreturn]] void rethrow(const TemplateError& e) const;

  friend class LoopObject;
  friend class MacroObject;

  const ParsedTemplate& t_;
  RenderLimits limits_;
  std::size_t steps_ = 0;
  std::size_t depth_ = 0;
  // Recursion also stops when the stack runs low (a level's frames differ between builds; under
  // AddressSanitizer 500 macro levels overflowed 8 MiB): the lowest address it may reach.
  std::uintptr_t stack_floor_ = 0;
  std::string* out_ = nullptr;
  Location loc_;
  // Namespaces given a list, a dict or an object as an attribute: `set ns.x = ns` (directly, or
  // through a list or another namespace) is a cycle reference counts never free, so their
  // attributes are cleared when the render ends (run()).
  std::vector<Ref<NamespaceObject>> linked_namespaces_;
};

}  // namespace textedge::detail::jinja
