#include "chat/jinja/render.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "base/copy_bytes.hpp"
#include "chat/jinja/lexer.hpp"
#include "chat/jinja/objects.hpp"

// Performance (callgrind on ChatTemplate::apply_request, Qwen3's template, six messages and two
// tools, as scripts/bench_render.sh renders it; docs/performance.md gives the harness): 215k at
// 4841bdb, 125k at 3e3e12e, 87k at 4a27088, 66.5k at b2b314d (all 2026-11-30, 05:16 to 11:52), of
// which reading the request is ~16k (json_reader.cpp), tojson ~8.5k and this walk ~41k.
// What paid up to 4a27088: strings borrowed from the template and the request instead of copied
// (-22%); attribute chains, conditions, comparisons, output sums and argument-free filters and tests
// reading stored values in place (stored(), operand(), truth(): and/or/not build no Value); objects
// from per-thread free lists (glibc's cache overflowed); loops over a list without copying it, set
// and for storing without a copy or a frame search; loop.index0 and friends resolved when parsed;
// `{{ x|tojson }}` written straight into the output; strips of borrowed strings borrowed.
// From 3f1d312 to b2b314d (2026-11-30 09:59-11:52; 87k -> 66.5k with the reader's -7k): a call's
// arguments, a frame's variables and a namespace's attributes inline (SmallVector: 24 of 28
// allocations per render gone, -3.2k); loop.index0 as an operand computed at once (-1.9k); a
// comparison with a constant skipping the chain's machinery (-1.8k); rare paths out of line where
// their frames taxed hot ones (dict find's hashed lookup, the namespace search, stored()'s xs[i]:
// -1.1k); same_text always inline (-0.9k); filter/test/method names compared inline (-0.9k); the
// render's variables as views (-0.8k); xs[i] and messages[loop.index0 - 1] read in place (-0.4k);
// constant outputs compiled as text (-0.4k); elif chains walked in one call; name.attr without
// recursion (-0.6k); a chain of `+` built in one buffer for a value too (add_chain; Llama 3.1's
// `set content = ... + ...`: -7.7k).
// Tried and dropped: non-atomic reference counts (no measurable gain); eval's or exec_stmt's rare
// kinds out of line (+0.6% / -0.6%: the extra call costs what the smaller frame saves); Value's
// first word written and copied whole to spare the store buffer a forwarding stall that perf
// pointed at (no change in time: perf's samples skid, and the walk runs at ~3 instructions a cycle,
// so instructions are the cost); reserving loop frames' slots (+1.5k); whole-library LTO (+5%); a
// method call's object read in place when no argument runs code (+0.2k: the check cost more than
// the copy); text statements emitted without a call (0); add_chain reserving for every chain
// instead of eval's walk to the first operand (+0.13k).
// 2026-12-05 (faster-walk; callgrind per render of bench/data/chat_six_messages_two_tools.json
// through ChatTemplate::apply_request, the request's read excluded): Llama 3.1's walk 13.78k ->
// 10.95k, DeepSeek V3's 20.22k -> 18.62k, Qwen3's 48.10k -> 47.15k, from + chains flattened when
// parsed (add_chain), no call for an empty else, a small dict's find inline and released strings
// kept whole for the next chain (Value::spare_string). Notes beside each.
// 2026-12-05 (faster-walk2; the same measure, whole renders with the read): Llama 3.1 22.22k ->
// 21.23k, DeepSeek V3 30.03k -> 27.28k, Qwen3 60.78k -> 58.97k (walks -9.2%, -14.8%, -3.8%), from an
// if's commonest conditions decided in exec_stmt (condition(): key comparisons, the loop's
// position, `ns.flag`, `... and x['k'] is none`), namespace() without Args, trim of already
// trimmed text returned whole, `{{ name }}` and `{{ a + b }}` with one call less, and one-statement
// if bodies without exec(). Notes beside each; docs/performance.md lists what was dropped.
// What is left is the walk itself, a switch per 200-byte node with names looked up in frames and
// methods dispatched by name: the next step is a flat compiled form with names resolved to slots
// and filters, tests and methods to enum values.
namespace textedge::detail::jinja {

void raise(const char* kind, const std::string& message) { throw TemplateError(kind, message, 0, 0); }

namespace {

// Clears a frame's variables when its scope ends (also on exceptions), breaking reference cycles.
// It refers to the variable, not the frame: a loop replaces its frame when a macro kept the old
// one, and the frame to clear is the last (a copy leaked it when a later iteration threw).
struct FrameScope {
  const Ref<Frame>& frame;
  ~FrameScope() {
    if (frame.get()) frame->vars.clear();
  }
};

// Clears the linked namespaces' attributes when the render ends (also on exceptions): see
// Renderer::linked_namespaces_.
struct NamespacesScope {
  std::vector<Ref<NamespaceObject>>& linked;
  ~NamespacesScope() {
    for (auto& ns : linked) ns->attrs.clear();
    linked.clear();
  }
};

struct OutputSwap {
  std::string*& slot;
  std::string* saved;
  OutputSwap(std::string*& s, std::string* replacement) : slot(s), saved(s) { slot = replacement; }
  ~OutputSwap() { slot = saved; }
};

struct DepthGuard {
  std::size_t& depth;
  DepthGuard(std::size_t& d, std::size_t limit, std::uintptr_t stack_floor) : depth(d) {
    if (++depth > limit || reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) < stack_floor) {
      --depth;
      raise("LimitError", "template recursion exceeded the depth limit");
    }
  }
  ~DepthGuard() { --depth; }
};

// This thread's stack (lowest address, size; size 0 when unknown), read once per thread: on the
// main thread glibc's pthread_getattr_np parses /proc/self/maps, 156k of the 228k instructions
// of a Qwen3 render when it ran per render (47 against 9 us; 2026-12-02, callgrind).
struct ThreadStack {
  std::uintptr_t low = 0;
  std::size_t size = 0;
};

const ThreadStack& this_thread_stack() {
  thread_local const ThreadStack stack = [] {
    ThreadStack s;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* base = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attr, &base, &size) == 0) s = {reinterpret_cast<std::uintptr_t>(base), size};
      pthread_attr_destroy(&attr);
    }
    return s;
  }();
  return stack;
}

// How far below `here` a render may take the stack: what this thread's stack has left, less a
// margin for the deepest stretch between two depth checks, and at most 4 MiB.
std::uintptr_t stack_floor(std::uintptr_t here) {
  constexpr std::uintptr_t kMargin = 256 << 10, kMaxUse = 4 << 20;
  std::uintptr_t floor = here > kMaxUse ? here - kMaxUse : 0;
  const ThreadStack& stack = this_thread_stack();
  // Only when the render runs on the thread's own stack (not, say, on a fiber's).
  if (here > stack.low && here - stack.low < stack.size) floor = std::max(floor, stack.low + kMargin);
  return floor;
}

}  // namespace

Renderer::Renderer(const ParsedTemplate& t, const RenderLimits& limits)
    : t_(t), limits_(limits), stack_floor_(stack_floor(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)))) {}

std::string Renderer::run(std::span<const Variable> variables, std::size_t reserve) {
  NamespacesScope namespaces{linked_namespaces_};
  Ref<Frame> root(new Frame(Ref<Frame>()));
  FrameScope scope{root};
  // Only the variables the template names (most name a few: Llama 3's three), with room for a
  // few set at the top level; up to four stay in the frame, without an allocation.
  SmallVector<std::pair<NameId, const Value*>, 32> named;
  for (auto& [name, value] : variables)
    if (const NameId* id = t_.find_id(name)) named.emplace_back(*id, &value);
  if (named.size() > 3) root->vars.reserve(named.size() + 8);
  for (auto& [id, value] : named) root->set(id, *value);
  std::string out;
  out.reserve(reserve);
  out_ = &out;
  try {
    exec(t_.body, root);
  } catch (const TemplateError& e) {
    rethrow(e);
  }
  return out;
}

void Renderer::rethrow(const TemplateError& e) const {
  if (e.line() != 0) throw e;
  throw TemplateError(e.kind(), e.message(), loc_.line, loc_.column);
}

Renderer::Flow Renderer::exec(const Body& body, const Ref<Frame>& frame) {
  for (auto& s : body) {
    Flow f = exec_stmt(*s, frame);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

std::string Renderer::capture(const Body& body, const Ref<Frame>& frame) {
  std::string buf;
  OutputSwap swap(out_, &buf);
  exec(body, frame);
  return buf;
}

Renderer::Flow Renderer::exec_stmt(const Stmt& s, const Ref<Frame>& frame) {
  step();
  switch (s.kind) {
    case StmtKind::Data:
      emit(s.text);
      return Flow::Normal;
    case StmtKind::Output: {
      at(s.loc);
      if (s.expr->kind == ExprKind::Binary && s.expr->op == static_cast<std::uint8_t>(BinOp::Add) &&
          emit_sum(*s.expr, *frame))
        return Flow::Normal;
      // {{ content }}: a variable's string without operand()'s walk: per render Llama 3.1 21.53k ->
      // 21.27k, DeepSeek V3 27.50k -> 27.46k, Qwen3 59.59k -> 59.61k.
      if (s.expr->kind == ExprKind::Name)
        if (const Value* v = frame->find(s.expr->name); v && v->is_string()) {
          emit(v->str());
          return Flow::Normal;
        }
      // {{ x | tojson }}: the JSON is written straight into the output, not into a string value first.
      if (s.expr->kind == ExprKind::Filter && s.expr->children[0] && same_text(s.expr->attr, "tojson")) {
        eval_filter(*s.expr, *frame, nullptr, true);
        return Flow::Normal;
      }
      Value scratch;
      const Value& v = operand(*s.expr, *frame, scratch);
      if (v.is_string()) {
        emit(v.str());
      } else {
        v.append_str(*out_);
        if (out_->size() > limits_.max_output_bytes) check_size(out_->size());
      }
      return Flow::Normal;
    }
    case StmtKind::If: {
      // An elif chain (an else whose whole body is an if) is walked here, as exec_stmt() would
      // walk it: a chat template's role chain costs no call per branch.
      const Stmt* x = &s;
      for (;;) {
        at(x->loc);
        // A body of one statement runs without exec()'s loop (bodies and else bodies: per render
        // Llama 3.1 21.27k -> 21.23k, DeepSeek V3 27.46k -> 27.28k, Qwen3 59.61k -> 58.97k).
        if (condition(*x->expr, *frame))
          return x->body.size() == 1 ? exec_stmt(*x->body[0], frame) : exec(x->body, frame);
        if (x->else_body.size() != 1 || x->else_body[0]->kind != StmtKind::If)
          // Most ifs have no else: no call for an empty body (DeepSeek V3's walk 19.72k -> 19.29k
          // instructions a render, Qwen3's 47.73k -> 47.55k, Llama 3.1's 12.37k -> 12.28k).
          return x->else_body.empty()       ? Flow::Normal
                 : x->else_body.size() == 1 ? exec_stmt(*x->else_body[0], frame)
                                            : exec(x->else_body, frame);
        x = x->else_body[0].get();
        step();
      }
    }
    case StmtKind::For: {
      at(s.loc);
      Value iterable = eval(*s.expr, *frame);
      exec_for(s, frame, iterable, 0);
      return Flow::Normal;
    }
    case StmtKind::Set: {
      at(s.loc);
      Value v = eval(*s.expr, *frame);
      if (s.targets[0].kind == Target::Name)
        frame->set(s.targets[0].name, std::move(v));
      else
        assign(s.targets[0], v, *frame);
      return Flow::Normal;
    }
    case StmtKind::SetBlock: {
      at(s.loc);
      Ref<Frame> inner(new Frame(frame));
      FrameScope scope{inner};
      Value v(capture(s.body, inner));
      if (s.filter) v = eval_filter(*s.filter, *frame, &v);
      assign(s.targets[0], v, *frame);
      return Flow::Normal;
    }
    case StmtKind::Macro:
      frame->set(s.macro->name_id, Value(Type::Object, new MacroObject(s.macro.get(), frame)));
      return Flow::Normal;
    case StmtKind::CallBlock: {
      at(s.loc);
      Value caller(Type::Object, new MacroObject(s.macro.get(), frame));
      const Expr& call = *s.expr;
      Value callee = eval(*call.children[0], *frame);
      Args args;
      eval_args(call.call, *frame, args);
      args.kw.emplace_back("caller", std::move(caller));
      at(s.loc);
      Value v = this->call(callee, args);
      v.append_str(*out_);
      check_size(out_->size());
      return Flow::Normal;
    }
    case StmtKind::FilterBlock: {
      at(s.loc);
      Ref<Frame> inner(new Frame(frame));
      FrameScope scope{inner};
      Value v(capture(s.body, inner));
      v = eval_filter(*s.filter, *frame, &v);
      v.append_str(*out_);
      check_size(out_->size());
      return Flow::Normal;
    }
    case StmtKind::With: {
      at(s.loc);
      Ref<Frame> inner(new Frame(frame));
      FrameScope scope{inner};
      std::vector<Value> values;
      for (auto& v : s.values) values.push_back(eval(*v, *frame));
      for (std::size_t i = 0; i < s.targets.size(); ++i) assign(s.targets[i], values[i], *inner);
      return exec(s.body, inner);
    }
    case StmtKind::Generation:
    case StmtKind::Block: {
      Ref<Frame> inner(new Frame(frame));
      FrameScope scope{inner};
      DepthGuard guard(depth_, limits_.max_recursion_depth, stack_floor_);
      Flow f = exec(s.body, inner);
      return s.kind == StmtKind::Block ? f : Flow::Normal;
    }
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::Unsupported:
      at(s.loc);
      eval(*s.expr, *frame);
      raise("TypeError", s.text);
  }
  return Flow::Normal;
}

void Renderer::exec_for(const Stmt& s, const Ref<Frame>& frame, const Value& iterable, std::size_t depth) {
  DepthGuard guard(depth_, limits_.max_recursion_depth, stack_floor_);
  Ref<LoopObject> loop(new LoopObject());
  loop->depth0 = depth;
  if (s.recursive) {
    loop->stmt = &s;
    loop->outer = frame;
  }
  Ref<Frame> body_frame(new Frame(frame));
  FrameScope scope{body_frame};
  const Target& target = s.targets[0];
  if (iterable.is_list() && !s.filter) {
    loop->source = iterable;
  } else {
    std::vector<Value> items = iterate(iterable);
    if (s.filter) {
      for (auto& item : items) {
        step();
        body_frame->vars.clear();
        assign(target, item, *body_frame);
        if (truth(*s.filter, *body_frame)) loop->owned.push_back(std::move(item));
      }
    } else {
      loop->owned = std::move(items);
    }
  }
  std::span<const Value> items = loop->items();
  Value loop_value(Type::Object, loop.get());
  std::size_t n = items.size();
  const bool plain_target = target.kind == Target::Name;  // not `loop`: the parser refuses that
  for (std::size_t i = 0; i < n; ++i) {
    step();
    if (body_frame->shared()) {  // a macro kept the old scope
      body_frame->vars.clear();
      body_frame = Ref<Frame>(new Frame(frame));
    }
    loop->index0 = i;
    auto& vars = body_frame->vars;
    if (plain_target && vars.size() >= 2 && vars[0].first == target.name && vars[1].first == kLoop) {
      // The item and `loop` stay in their places: the last item's other variables go and the
      // item is replaced; `loop` is as it was (no template sets it in a loop: the parser refuses
      // that, as Jinja2 does). So no count of the loop object changes per item: those atomic
      // adds were ~60% of this function's time (perf, Llama 3.1's template).
      vars.truncate(2);
      vars[0].second = items[i];
    } else if (plain_target) {  // the frame is empty: no search
      vars.clear();
      vars.emplace_back(target.name, items[i]);
      vars.emplace_back(kLoop, loop_value);
    } else {
      vars.clear();
      assign(target, items[i], *body_frame);
      body_frame->set(kLoop, loop_value);
    }
    Flow f = exec(s.body, body_frame);
    if (f == Flow::Break) break;
  }
  body_frame->vars.clear();
  if (n == 0 && !s.else_body.empty()) {
    Ref<Frame> else_frame(new Frame(frame));
    FrameScope else_scope{else_frame};
    exec(s.else_body, else_frame);
  }
  loop->outer = Ref<Frame>();
}

void Renderer::assign(const Target& t, const Value& v, Frame& frame) {
  switch (t.kind) {
    case Target::Name:
      frame.set(t.name, v);
      return;
    case Target::Tuple: {
      std::vector<Value> items = iterate(v);
      if (items.size() < t.items.size())
        raise("ValueError", "not enough values to unpack (expected " + std::to_string(t.items.size()) + ", got " +
                                std::to_string(items.size()) + ")");
      if (items.size() > t.items.size())
        raise("ValueError", "too many values to unpack (expected " + std::to_string(t.items.size()) + ")");
      for (std::size_t i = 0; i < items.size(); ++i) assign(t.items[i], items[i], frame);
      return;
    }
    case Target::NamespaceAttr: {
      const Value* ns = frame.find(t.name);
      const NamespaceObject* obj = ns ? as<NamespaceObject>(*ns, ObjectKind::Namespace) : nullptr;
      if (!obj) raise("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
      auto* target = const_cast<NamespaceObject*>(obj);
      if ((v.is_list() || v.is_dict() || v.is_object()) && !target->linked) {
        target->linked = true;
        linked_namespaces_.emplace_back(target);
      }
      target->set(t.attr, v);
      return;
    }
  }
}

Value Renderer::lookup(const Expr& e, const Frame& frame) {
  if (const Value* v = frame.find(e.name)) return *v;
  if (e.name < kLoop) return global_function(e.name);
  return Value::undefined(&t_.names[e.name]);
}

// Whether evaluating `e` can run template code (a macro, caller() or loop() call, which may set a
// namespace attribute or a variable): while it cannot, what stored() returned stays valid. Only
// recognizes the plain shapes; anything else counts as code.
static bool runs_code(const Expr& e) {
  for (const Expr* x = &e;; x = x->children[0].get()) {
    switch (x->kind) {
      case ExprKind::Const:
      case ExprKind::Name:
        return false;
      case ExprKind::Getattr:
        break;
      case ExprKind::Getitem:  // a constant or variable key
        if (x->children[1]->kind != ExprKind::Const && x->children[1]->kind != ExprKind::Name) return true;
        break;
      default:
        return true;
    }
  }
}

// A dict's entry or a namespace's attribute, in place; nullptr when absent or for other values.
[[gnu::noinline]] static const Value* namespace_attribute(const Value& base, std::string_view attr) {
  if (const auto* ns = as<NamespaceObject>(base, ObjectKind::Namespace)) return ns->find(attr);
  return nullptr;
}
// (The namespace's search out of line: inline, its frame cost every dict lookup ~10 instructions.)
static const Value* stored_attribute(const Value& base, std::string_view attr) {
  if (base.is_dict()) return base.dict().find(attr);
  return namespace_attribute(base, attr);
}

// Where `e` names a value already stored (a variable, a dict entry, a namespace attribute), that
// value itself, so a chain like message.function.name copies only its last link (no reference
// counting on the way). nullptr for anything else or when not found: the caller then evaluates `e`.
// Only valid until the next evaluation.
const Value* Renderer::stored(const Expr& e, const Frame& frame) {
  switch (e.kind) {
    case ExprKind::Name:
      return frame.find(e.name);
    case ExprKind::Getattr: {
      if (!e.op) return nullptr;  // a dict method or dunder
      const Expr& of = *e.children[0];
      const Value* base = of.kind == ExprKind::Name ? frame.find(of.name) : stored(of, frame);  // message.role: no recursion
      return base ? stored_attribute(*base, e.attr) : nullptr;
    }
    case ExprKind::Getitem:
      return stored_item(e, frame);
    default:
      return nullptr;
  }
}

// stored() of d['key'] (the item wins over attributes) or xs[i]; out of line, which keeps
// stored()'s own frame small (inline, it cost every stored() call more than this saved).
const Value* Renderer::stored_item(const Expr& e, const Frame& frame) {
  const Expr& k = *e.children[1];
  const Value* base = stored(*e.children[0], frame);
  if (!base) return nullptr;
  if (k.kind == ExprKind::Const && k.value.is_string())
    return base->is_dict() ? base->dict().find(k.value.str()) : nullptr;
  std::int64_t i = 0;
  if (!base->is_list() || !int_key(k, frame, i)) return nullptr;
  return item_at(base->items(), i);
}

// An item index evaluated in place when it is a constant or an int plus or minus an int from
// operands that run no code (messages[loop.index0 - 1]); false otherwise: the caller then
// evaluates it, which runs nothing twice.
bool Renderer::int_key(const Expr& k, const Frame& frame, std::int64_t& out) {
  if (k.kind == ExprKind::Const) {
    out = k.value.as_int();
    return k.value.is_integral();
  }
  if (k.kind != ExprKind::Binary || (k.op != static_cast<std::uint8_t>(BinOp::Add) &&
                                     k.op != static_cast<std::uint8_t>(BinOp::Sub)))
    return false;
  if (runs_code(*k.children[0]) || runs_code(*k.children[1])) return false;
  Value scratch[2];
  const Value& a = operand(*k.children[0], frame, scratch[0]);
  const Value& b = operand(*k.children[1], frame, scratch[1]);
  if (a.type() != Type::Int || b.type() != Type::Int) return false;
  return k.op == static_cast<std::uint8_t>(BinOp::Add) ? !__builtin_add_overflow(a.as_int(), b.as_int(), &out)
                                                       : !__builtin_sub_overflow(a.as_int(), b.as_int(), &out);
}


// The value of `e`: a constant or a stored value (see stored()) in place, anything else evaluated
// into `scratch`.
const Value& Renderer::operand(const Expr& e, const Frame& frame, Value& scratch) {
  if (e.kind == ExprKind::Const) return e.value;
  if (e.loop_attr != LoopAttr::Other && e.op) {  // loop.index0: computed, never stored (eval's first case)
    if (const Value* base = stored(*e.children[0], frame))
      if (const auto* loop = as<LoopObject>(*base, ObjectKind::Loop)) return scratch = loop_attribute(*loop, e.loop_attr);
  }
  if (const Value* v = stored(e, frame)) return *v;
  scratch = eval(e, frame);
  return scratch;
}

// The truth of `e` where only that is needed (if, elif, conditions): `a and b`, `not a` and
// comparisons give no values, and stored values are not copied. Same evaluation order as eval.
bool Renderer::truth(const Expr& e, const Frame& frame) {
  switch (e.kind) {
    case ExprKind::Not:
      return !truth(*e.children[0], frame);
    case ExprKind::And:
      return truth(*e.children[0], frame) && truth(*e.children[1], frame);
    case ExprKind::Or:
      return truth(*e.children[0], frame) || truth(*e.children[1], frame);
    case ExprKind::Compare:
      return compare(e, frame);
    case ExprKind::Test:
      return eval_test(e, frame);
    default: {
      Value scratch;
      return operand(e, frame, scratch).truthy();
    }
  }
}

// a == b, a < b < c, x in y: operands are read in place where the next one runs no code.
static bool compare_values(CmpOp op, const Value& left, const Value& right) {
  switch (op) {
    case CmpOp::Eq:
    case CmpOp::Ne: {
      bool equal = left.is_string() && right.is_string() ? same_text(left.str(), right.str()) : left.equals(right);
      return equal == (op == CmpOp::Eq);
    }
    case CmpOp::Lt:
      return op_less(left, right);
    case CmpOp::Le:
      return op_less(left, right) || left.equals(right);
    case CmpOp::Gt:
      return op_less(right, left);
    case CmpOp::Ge:
      return op_less(right, left) || left.equals(right);
    case CmpOp::In:
      return op_contains(right, left);
    case CmpOp::NotIn:
      return !op_contains(right, left);
  }
  return false;
}

// `name['key']` or `name.key` (a plain key) of a variable holding a dict: the entry, in place;
// nullptr for other shapes and values, or when there is no such key (stored() then decides).
[[gnu::always_inline]] inline const Value* key_entry(const Expr& k, const Frame& frame) {
  std::string_view key;
  if (!key_of(k, key)) return nullptr;
  const Value* base = frame.find(k.children[0]->name);
  return base && base->is_dict() ? base->dict().find(key) : nullptr;
}

// An if's condition, its commonest shapes decided here without truth()'s and compare()'s entries
// and exits (anything else goes to truth()): the loop's position (loop_position()), `ns.flag`, and
// `name['key'] == 'text'` (kKeyEqualsText), alone or as the left of an `and` (marked so too when
// parsed; a key that is missing or not a string goes to truth() as well). Callgrind per render
// (apply_request, six messages and two tools): DeepSeek V3 29.56k -> 28.29k, Qwen3 60.21k ->
// 60.10k, Llama 3.1 (none of these) 22.23k -> 22.27k. Tried and dropped: the same test in truth()
// (DeepSeek V3 -0.31k, Llama 3.1 +0.05k: truth()'s frame grew), compare() split into that test and
// an out-of-line rest (-0.11k; GCC kept the full prologue), the `and` recognised when rendered
// instead of marked (Qwen3 +0.09k, Llama 3.1 +0.03k against the mark: every if paid the check).
[[gnu::always_inline]] inline bool Renderer::condition(const Expr& e, const Frame& frame) {
  if (e.op != kKeyEqualsText) {
    if (bool r; e.op == kLoopPosition && e.kind == ExprKind::Compare && loop_position(e, frame, r)) return r;
    return truth(e, frame);
  }
  // (Other kinds whose op is 1 too, a Binary's Sub or a Test's kIsNone, end in truth() below.)
  // `if ns.flag`, `if message.tool_calls` (kPlainKey) read in place, without truth()'s,
  // operand()'s and stored()'s calls: per render DeepSeek V3 28.30k -> 27.92k, Qwen3 60.13k ->
  // 59.70k, Llama 3.1 21.57k (none). A namespace alone: Qwen3 +0.08k (its dicts paid the checks).
  if (e.kind == ExprKind::Getattr) {
    if (e.children[0]->kind == ExprKind::Name)
      if (const Value* base = frame.find(e.children[0]->name)) {
        if (base->is_dict()) {  // no such key: undefined, false
          const Value* v = base->dict().find(std::string_view(e.attr));
          return v && v->truthy();
        }
        if (const auto* ns = as<NamespaceObject>(*base, ObjectKind::Namespace))
          if (const Value* v = ns->find(e.attr)) return v->truthy();
      }
    return truth(e, frame);
  }
  const Expr& c = e.kind == ExprKind::And ? *e.children[0] : e;
  if (c.kind == ExprKind::Compare)
    if (const Value* base = frame.find(c.name); base && base->is_dict())
      if (const Value* v = base->dict().find(std::string_view(c.attr)); v && v->is_string()) {
        at(c.loc);
        bool r = same_text(v->str(), c.value.str()) == (c.ops[0] == CmpOp::Eq);
        if (&c == &e || !r) return r;
        // ... and message['content'] is none (or is not none): the entry's type, as eval_test()
        // reads a stored value, without truth()'s, eval_test()'s and stored()'s calls: per render
        // DeepSeek V3 27.92k -> 27.65k, Qwen3 59.70k -> 59.72k, Llama 3.1 21.57k (none).
        const Expr& right = *e.children[1];
        const Expr& t = right.kind == ExprKind::Not ? *right.children[0] : right;
        if (t.kind == ExprKind::Test && t.op == kIsNone && t.call.empty())
          if (const Value* held = key_entry(*t.children[0], frame)) {
            at(t.loc);
            step();
            return held->is_none() != (&t != &right);
          }
        return truth(right, frame);
      }
  return truth(e, frame);
}

// A kLoopPosition comparison into `r`; false (nothing done) when the name holds no loop. An if's
// (condition()) skips truth() and compare(): per render Llama 3.1 (`if loop.index0 == 0` at each
// message) 21.97k -> 21.57k, DeepSeek V3 28.29k -> 28.30k, Qwen3 60.10k -> 60.13k. Tested before
// the key comparison instead of after it: DeepSeek V3 +0.08k, Qwen3 +0.06k.
[[gnu::always_inline]] inline bool Renderer::loop_position(const Expr& e, const Frame& frame, bool& r) {
  const Expr& l = *e.children[0];
  const Value* base = frame.find(l.children[0]->name);
  const auto* loop = base ? as<LoopObject>(*base, ObjectKind::Loop) : nullptr;
  if (!loop) return false;
  auto i = static_cast<std::int64_t>(loop->index0), n = static_cast<std::int64_t>(loop->items().size());
  std::int64_t a = l.loop_attr == LoopAttr::Index    ? i + 1
                   : l.loop_attr == LoopAttr::Index0 ? i
                   : l.loop_attr == LoopAttr::Revindex ? n - i
                                                        : n - i - 1;
  std::int64_t b = e.children[1]->value.as_int();
  at(e.loc);
  switch (e.ops[0]) {
    case CmpOp::Eq: r = a == b; break;
    case CmpOp::Ne: r = a != b; break;
    case CmpOp::Lt: r = a < b; break;
    case CmpOp::Le: r = a <= b; break;
    case CmpOp::Gt: r = a > b; break;
    default: r = a >= b; break;  // Ge (In and NotIn are never marked)
  }
  return true;
}

bool Renderer::compare(const Expr& e, const Frame& frame) {
  // A dict entry of a variable against a string, the commonest test of chat templates (DeepSeek
  // V3's has six a message), its shape known when parsed: read without operand()'s and stored()'s
  // walk; anything else (not a dict, no such key, not a string) takes the general path below.
  if (e.op == kKeyEqualsText)
    if (const Value* base = frame.find(e.name); base && base->is_dict())
      if (const Value* v = base->dict().find(std::string_view(e.attr)); v && v->is_string()) {
        at(e.loc);
        return same_text(v->str(), e.value.str()) == (e.ops[0] == CmpOp::Eq);
      }
  // loop.index0 == 0, loop.index > 1: the position against an integer, without a Value.
  if (bool r; e.op == kLoopPosition && loop_position(e, frame, r)) return r;
  if (e.ops.size() == 1 && e.children[1]->kind == ExprKind::Const) {  // message.role == 'user'
    Value scratch;
    const Value& left = operand(*e.children[0], frame, scratch);
    at(e.loc);
    return compare_values(e.ops[0], left, e.children[1]->value);
  }
  Value scratch[2];
  auto operand_at = [&](std::size_t i) -> const Value& {
    Value& s = scratch[i & 1];
    if (i + 1 < e.children.size() && runs_code(*e.children[i + 1])) return s = eval(*e.children[i], frame);
    return operand(*e.children[i], frame, s);
  };
  const Value* left = &operand_at(0);
  for (std::size_t i = 0; i < e.ops.size(); ++i) {
    const Value& right = operand_at(i + 1);
    at(e.loc);
    charge(*left);
    charge(right);
    if (!compare_values(e.ops[i], *left, right)) return false;
    left = &right;
  }
  return true;
}

// A chain of `+` such as '<|im_start|>' + message.role + '\n' + message.content, the commonest
// expression of chat templates: while the operands are plain strings they are appended to `text`
// (the output, or one buffer for a value) instead of making a string per `+`. At the first other
// operand, what was appended since `mark` becomes the left operand again and the rest is added as
// usual into `sum`, so the evaluation order, the result and every error stay those of the sum.
// The sum straight into the output; false for chains too long to gather (nothing done).
bool Renderer::emit_sum(const Expr& e, const Frame& frame) {
  Value sum;
  // add_chain()'s body here, one call less a `{{ 'text' + message['content'] }}`: per render
  // DeepSeek V3 27.60k -> 27.50k, Qwen3 59.66k -> 59.59k, Llama 3.1 21.53k (none; +0.03k until
  // strip_whitespace() was inlined by force, GCC having stopped inlining it into add_chain()).
  Sum r = e.sum.empty() ? add_walked(e, frame, *out_, out_->size(), sum)
                        : add_operands(e.sum, frame, *out_, out_->size(), sum);
  if (r == Sum::Value) {
    sum.append_str(*out_);
    if (out_->size() > limits_.max_output_bytes) check_size(out_->size());
  }
  return r != Sum::TooLong;
}

// A constant string, a variable's string or its string entry (trimmed for TrimmedKey, with the steps and
// charges of eval_filter's path) without operand()'s walk; false for anything else (nothing
// charged), which the caller then evaluates as usual.
[[gnu::always_inline]] inline bool Renderer::plain_text(const SumOperand& o, const Frame& frame, std::string_view& s) {
  if (o.kind == SumOperand::Text) {
    s = o.text;
    return true;
  }
  if (o.kind == SumOperand::Other) return false;
  const Value* v = frame.find(o.name);
  if (o.kind != SumOperand::Name) {
    if (!v || !v->is_dict()) return false;
    v = v->dict().find(o.text);
  }
  if (!v || !v->is_string() || v->is_markup()) return false;
  s = v->str();
  if (o.kind == SumOperand::TrimmedKey) {
    at(o.expr->loc);
    step();
    charge(s.size() / 16);  // charge(*v), v being a string
    s = strip_whitespace(s);
    charge(s.size() / 16);
  }
  return true;
}

constexpr std::size_t kGathered = 256;  // add_operands' buffer for plain operands

// The operands come flattened from the parser (Expr::sum), constant strings and a variable's
// string entries read without operand()'s walk (plain_text). Walk of Llama 3.1's template on
// bench/data/chat_six_messages_two_tools.json (callgrind, /tmp driver looping apply_request, read
// excluded): 13.78k -> 12.37k instructions a render; DeepSeek V3 20.22k -> 19.72k, Qwen3 48.10k ->
// 47.73k, Gemma 3 and four other real templates -0.1k to -0.6k. Tried and dropped: gathering the
// plain strings as views and copying them after one resize (+0.25k for Llama 3.1 against appends:
// resize's generic path and memset cost what the appends saved; templates mixing plain and other
// operands paid the resize for one or two strings, up to +0.5k).
Renderer::Sum Renderer::add_chain(const Expr& e, const Frame& frame, std::string& text, std::size_t mark, Value& sum) {
  if (e.sum.empty()) return add_walked(e, frame, text, mark, sum);
  return add_operands(e.sum, frame, text, mark, sum);
}

// add_chain() of a node without Expr::sum (inside a chain too long for one); out of line, so that
// add_chain()'s frame holds no vector: per render Llama 3.1 21.57k -> 21.53k, DeepSeek V3
// 27.65k -> 27.60k, Qwen3 59.72k -> 59.66k.
Renderer::Sum Renderer::add_walked(const Expr& e, const Frame& frame, std::string& text, std::size_t mark, Value& sum) {
  std::vector<SumOperand> walked;
  const Expr* x = &e;
  for (; x->kind == ExprKind::Binary && x->op == static_cast<std::uint8_t>(BinOp::Add); x = x->children[0].get()) {
    if (walked.size() + 1 == kMaxSumOperands) return Sum::TooLong;
    walked.push_back(sum_operand(x->children[1].get(), x));
  }
  walked.push_back(sum_operand(x, nullptr));
  std::reverse(walked.begin(), walked.end());
  return add_operands(walked, frame, text, mark, sum);
}

[[gnu::always_inline]] inline Renderer::Sum Renderer::add_operands(std::span<const SumOperand> ops, const Frame& frame,
                                                                   std::string& text, std::size_t mark, Value& sum) {
  bool adding = false;
  const std::size_t n = ops.size();
  // A value's plain operands are gathered here and appended to `text` in one piece: before any
  // other operand runs, and at the end. Performance note (callgrind, render from values read):
  // Llama 3.1's walk -230 instructions (four appends fewer a chain, each ~8 over copy_bytes).
  // Into the output they go straight: gathered there too, DeepSeek V3 was 1-2% slower.
  const bool gather = text.empty();
  char gathered[kGathered];
  std::size_t g = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const SumOperand& so = ops[k];
    const Expr& o = *so.expr;
    if (!adding) {
      std::string_view plain;
      if (plain_text(so, frame, plain)) {
        if (gather && plain.size() <= kGathered - g) {
          copy_bytes(gathered + g, plain.data(), plain.size());
          g += plain.size();
          if (text.size() + g > limits_.max_output_bytes) check_size(text.size() + g);
          continue;
        }
        if (g) text.append(gathered, std::exchange(g, 0));
        text.append(plain);
        if (text.size() > limits_.max_output_bytes) check_size(text.size());
        continue;
      }
      if (g) text.append(gathered, std::exchange(g, 0));
      // x | trim of another stored string (a namespace's attribute, a name): as plain_text().
      if (o.kind == ExprKind::Filter && o.op == kTrimFilter && o.children[0])
        if (const Value* held = stored(*o.children[0], frame); held && held->is_string() && !held->is_markup()) {
          at(o.loc);
          step();
          charge(*held);
          std::string_view stripped = strip_whitespace(held->str());
          charge(stripped.size() / 16);
          text.append(stripped);
          if (text.size() > limits_.max_output_bytes) check_size(text.size());
          continue;
        }
    }
    Value scratch;
    const Value& v = operand(o, frame, scratch);
    if (!adding) {
      if (v.is_string() && !v.is_markup()) {
        text.append(v.str());
        if (text.size() > limits_.max_output_bytes) check_size(text.size());
        continue;
      }
      adding = true;
      if (k == 0) {
        sum = v;
        continue;
      }
      sum = Value(text.substr(mark));
      text.resize(mark);
    }
    at(so.add->loc);
    sum = op_add(sum, v);
    charge(sum);
  }
  if (g) text.append(gathered, g);
  return adding ? Sum::Value : Sum::Text;
}

static std::string undefined_message(const Value& v) {
  if (const std::string* m = v.unsafe_message()) return *m;
  if (const std::string* n = v.undefined_name()) return "'" + *n + "' is undefined";
  return "'Undefined' is undefined";
}

Value Renderer::eval(const Expr& e, const Frame& frame) {
  switch (e.kind) {
    case ExprKind::Const:
      return e.value;
    case ExprKind::Name:
      return lookup(e, frame);
    case ExprKind::List:
    case ExprKind::Tuple: {
      std::vector<Value> items;
      items.reserve(e.children.size());
      for (auto& c : e.children) items.push_back(eval(*c, frame));
      return Value::list(std::move(items), e.kind == ExprKind::Tuple);
    }
    case ExprKind::Dict: {
      std::vector<std::pair<Value, Value>> items;
      items.reserve(e.children.size() / 2);
      for (std::size_t i = 0; i + 1 < e.children.size(); i += 2) {
        Value k = eval(*e.children[i], frame);
        if (!k.hashable()) {
          at(e.loc);
          raise("TypeError", std::string("unhashable type: '") + k.type_name() + "'");
        }
        items.emplace_back(std::move(k), eval(*e.children[i + 1], frame));
      }
      return Value::dict(std::move(items));
    }
    case ExprKind::Getattr: {
      if (e.op)
        if (const Value* base = stored(*e.children[0], frame)) {
          if (e.loop_attr != LoopAttr::Other)  // loop.index0: no name to compare
            if (const auto* loop = as<LoopObject>(*base, ObjectKind::Loop)) return loop_attribute(*loop, e.loop_attr);
          if (const Value* v = stored_attribute(*base, e.attr)) return *v;
          if (base->is_dict()) return Value::undefined();  // no such key, and e.op rules out methods
          if (const auto* loop = as<LoopObject>(*base, ObjectKind::Loop)) {
            bool found = false;
            Value v = loop_attribute(*loop, e.attr, found);
            return found ? v : Value::undefined();
          }
        }
      Value obj = eval(*e.children[0], frame);
      at(e.loc);
      if (obj.is_undefined()) raise("UndefinedError", undefined_message(obj));
      return get_attribute(obj, e.attr);
    }
    case ExprKind::Getitem: {
      if (const Value* v = stored(e, frame)) return *v;
      const Expr& k = *e.children[1];
      Value obj = eval(*e.children[0], frame);
      if (k.kind == ExprKind::Slice) {
        Value parts[3];
        for (int i = 0; i < 3; ++i)
          parts[i] = k.children[i] ? eval(*k.children[i], frame) : Value::none();
        at(e.loc);
        if (obj.is_undefined()) raise("UndefinedError", undefined_message(obj));
        return op_slice(obj, parts[0], parts[1], parts[2]);
      }
      Value key = eval(k, frame);
      at(e.loc);
      if (obj.is_undefined()) raise("UndefinedError", undefined_message(obj));
      return get_item(obj, key);
    }
    case ExprKind::Slice:
      raise("TemplateSyntaxError", "slice outside of a subscript");
    case ExprKind::Call:
      return eval_call(e, frame);
    case ExprKind::Filter:
      return eval_filter(e, frame, nullptr);
    case ExprKind::Test:
      return Value(eval_test(e, frame));
    case ExprKind::Neg: {
      Value v = eval(*e.children[0], frame);
      at(e.loc);
      return op_neg(v);
    }
    case ExprKind::Pos: {
      Value v = eval(*e.children[0], frame);
      at(e.loc);
      return op_pos(v);
    }
    case ExprKind::Not:
      return Value(!truth(*e.children[0], frame));
    case ExprKind::Binary: {
      if (e.op == static_cast<std::uint8_t>(BinOp::Add)) {  // one buffer for the chain's text
        // The text goes straight into a released string's object (or a new one) instead of a
        // spare buffer moved into a new object: Llama 3.1's walk (`set content = ... + ...` at each
        // message) 12.08k -> 10.95k instructions a render (callgrind,
        // bench/data/chat_six_messages_two_tools.json), Mistral's -0.17k, ChatGLM2's -0.06k.
        // Tried: a new object only for chains starting with text, else a local string (no object
        // for `ns.i + 1`): +0.14k for Llama 3.1 (eval's frame grew), +0.19k with that out of line.
        std::string* text;
        Value joined = Value::spare_string(text);
        if (e.sum.empty() || e.sum[0].kind == SumOperand::Text) text->reserve(128);  // room for most
        Value sum;
        Sum r = add_chain(e, frame, *text, 0, sum);
        if (r == Sum::Text) {
          charge(joined);
          return joined;
        }
        if (r == Sum::Value) return sum;
      }
      Value a = eval(*e.children[0], frame);
      Value b = eval(*e.children[1], frame);
      at(e.loc);
      switch (static_cast<BinOp>(e.op)) {
        case BinOp::Add: {  // chains add_chain() could not gather
          Value sum = op_add(a, b);
          charge(sum);
          return sum;
        }
        case BinOp::Sub:
          return op_sub(a, b);
        case BinOp::Mul: {
          Value product = op_mul(a, b);
          charge(product);
          return product;
        }
        case BinOp::Div:
          return op_div(a, b);
        case BinOp::FloorDiv:
          return op_floordiv(a, b);
        case BinOp::Mod:
          return op_mod(a, b);
        case BinOp::Pow:
          return op_pow(a, b);
      }
      return Value();
    }
    case ExprKind::Concat: {
      std::string s;
      for (auto& c : e.children) {
        Value v = eval(*c, frame);
        v.append_str(s);
      }
      check_size(s.size());
      Value joined(std::move(s));
      charge(joined);
      return joined;
    }
    case ExprKind::Compare:
      return Value(compare(e, frame));
    case ExprKind::And: {
      Value l = eval(*e.children[0], frame);
      if (!l.truthy()) return l;
      return eval(*e.children[1], frame);
    }
    case ExprKind::Or: {
      Value l = eval(*e.children[0], frame);
      if (l.truthy()) return l;
      return eval(*e.children[1], frame);
    }
    case ExprKind::CondExpr:
      if (truth(*e.children[0], frame)) return eval(*e.children[1], frame);
      if (e.children[2]) return eval(*e.children[2], frame);
      return Value::undefined();
  }
  return Value();
}

void Renderer::eval_args(const CallArgs& call, const Frame& frame, Args& out) {
  out.pos.reserve(call.args.size());
  out.kw.reserve(call.kwargs.size());  // namespace(a=.., b=.., ...): one allocation, not one a doubling
  for (auto& a : call.args) out.pos.push_back(eval(*a, frame));
  for (auto& [k, v] : call.kwargs) out.kw.emplace_back(k, eval(*v, frame));
  if (call.dyn_args) {
    Value v = eval(*call.dyn_args, frame);
    for (auto& x : iterate(v)) out.pos.push_back(x);
  }
  if (call.dyn_kwargs) {
    Value v = eval(*call.dyn_kwargs, frame);
    if (!v.is_dict()) raise("TypeError", "argument after ** must be a mapping");
    for (auto& [k, x] : v.dict().entries()) {
      if (!k.is_string()) raise("TypeError", "keywords must be strings");
      out.kw.emplace_back(k.str(), x);
    }
  }
}

Value Renderer::eval_call(const Expr& e, const Frame& frame) {
  const Expr& callee = *e.children[0];
  if (callee.kind == ExprKind::Getattr) {
    Value obj = eval(*callee.children[0], frame);
    Args args;
    eval_args(e.call, frame, args);
    at(e.loc);
    if (obj.is_undefined()) raise("UndefinedError", undefined_message(obj));
    if (obj.is_string() || obj.is_list() || obj.is_dict()) {
      charge(obj);
      Value out;
      if (call_method(*this, obj, callee.attr, args, out)) {
        charge(out);
        return out;
      }
    }
    Value f = get_attribute(obj, callee.attr);
    return call(f, args);
  }
  // namespace(a=.., b=..), the global (not shadowed): the attributes set as the keywords are
  // evaluated, step for step as call_builtin() would, without Args' vector of keyword names (an
  // allocation, and each name copied twice). Callgrind per render (apply_request,
  // bench/data/chat_six_messages_two_tools.json): DeepSeek V3 30.03k -> 29.56k, Qwen3 60.78k ->
  // 60.21k, Llama 3.1 (no namespace) 22.22k -> 22.23k.
  if (callee.kind == ExprKind::Name && callee.name == kNamespace && e.call.args.empty() && !e.call.dyn_args &&
      !e.call.dyn_kwargs && !frame.find(kNamespace)) {
    auto* ns = new NamespaceObject();
    Value v(Type::Object, ns);
    for (auto& [k, x] : e.call.kwargs) ns->set(k, eval(*x, frame));
    at(e.loc);
    step();
    return v;
  }
  Value f = eval(callee, frame);
  Args args;
  eval_args(e.call, frame, args);
  at(e.loc);
  return call(f, args);
}

Value Renderer::call(const Value& callee, Args& args) {
  step();
  if (callee.is_undefined()) {
    if (callee.unsafe_message()) raise("SecurityError", *callee.unsafe_message());
    raise("UndefinedError", undefined_message(callee));
  }
  if (const BoxObject* b = box_of(callee)) {
    switch (b->kind) {
      case ObjectKind::Macro:
        return call_macro(callee, args);
      case ObjectKind::Function:
        return call_builtin(*this, *static_cast<const FunctionObject*>(b), args);
      case ObjectKind::Loop: {
        auto* loop = static_cast<const LoopObject*>(b);
        if (!loop->stmt) raise("TypeError", "Tried to call non recursive loop.  Maybe you forgot the 'recursive' modifier.");
        if (args.pos.size() != 1 || !args.kw.empty()) raise("TypeError", "loop() takes exactly one argument");
        std::string buf;
        {
          OutputSwap swap(out_, &buf);
          exec_for(*loop->stmt, loop->outer, args.pos[0], loop->depth0 + 1);
        }
        return Value(std::move(buf));
      }
      case ObjectKind::Joiner: {
        auto* j = const_cast<JoinerObject*>(static_cast<const JoinerObject*>(b));
        if (!j->used) {
          j->used = true;
          return Value(std::string());
        }
        return Value(j->sep);
      }
      default:
        break;
    }
  }
  raise("TypeError", std::string("'") + callee.type_name() + "' object is not callable");
}

Value Renderer::call_macro(const Value& macro_value, Args& args) {
  auto* macro = static_cast<const MacroObject*>(macro_value.object());
  const MacroDef& def = *macro->def;
  DepthGuard guard(depth_, limits_.max_recursion_depth, stack_floor_);
  Ref<Frame> frame(new Frame(macro->closure));
  FrameScope scope{frame};
  std::size_t n = def.params.size();
  std::vector<const Value*> bound(n, nullptr);
  std::vector<Value> varargs;
  if (args.pos.size() > n) {
    if (!def.uses_varargs)
      raise("TypeError", "macro '" + def.name + "' takes not more than " + std::to_string(n) + " argument(s)");
  }
  for (std::size_t i = 0; i < args.pos.size(); ++i) {
    if (i < n)
      bound[i] = &args.pos[i];
    else
      varargs.push_back(args.pos[i]);
  }
  std::vector<std::pair<Value, Value>> kwargs;
  Value caller;
  bool has_caller = false;
  for (auto& [k, v] : args.kw) {
    bool matched = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (def.param_names[i] == k) {
        if (bound[i]) raise("TypeError", "macro '" + def.name + "' got multiple values for argument '" + k + "'");
        bound[i] = &v;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (k == "caller") {
      if (!def.uses_caller) raise("TypeError", "macro '" + def.name + "' takes no keyword argument 'caller'");
      caller = v;
      has_caller = true;
      continue;
    }
    if (!def.uses_kwargs) raise("TypeError", "macro '" + def.name + "' takes no keyword argument '" + k + "'");
    kwargs.emplace_back(Value(k), v);
  }
  std::size_t first_default = n - def.defaults.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (bound[i]) {
      frame->set(def.params[i], *bound[i]);
    } else if (i >= first_default) {
      frame->set(def.params[i], eval(*def.defaults[i - first_default], *frame));
    } else {
      frame->set(def.params[i], Value::undefined(&def.param_names[i]));
    }
  }
  if (def.uses_varargs) frame->set(kVarargs, Value::list(std::move(varargs), true));
  if (def.uses_kwargs) frame->set(kKwargs, Value::dict(std::move(kwargs)));
  if (def.uses_caller) frame->set(kCaller, has_caller ? caller : Value::undefined());
  return Value(capture(def.body, frame));
}

Value Renderer::eval_filter(const Expr& e, const Frame& frame, const Value* input, bool tojson_to_output) {
  // message.content | trim: a stored string's strip, a view of it when it is borrowed (as the
  // filter's own path gives it, without its dispatch by name).
  if (e.op == kTrimFilter && !input && e.children[0])
    if (const Value* held = stored(*e.children[0], frame); held && held->is_string() && !held->is_markup()) {
      at(e.loc);
      step();
      charge(*held);
      Value out = held->substring(strip_whitespace(held->str()));
      charge(out);
      return out;
    }
  // messages|length: a stored input is read in place (no arguments run in between to move it).
  if (e.children[0] && !input && e.call.empty())
    if (const Value* held = stored(*e.children[0], frame)) {
      Args none;
      at(e.loc);
      return filter(e.attr, *held, none, tojson_to_output);
    }
  Value in;
  if (e.children[0]) {
    // In a filter block or block set, the innermost filter of the chain takes the body.
    in = input && e.children[0]->kind == ExprKind::Filter ? eval_filter(*e.children[0], frame, input)
                                                           : eval(*e.children[0], frame);
  } else if (input) {
    in = *input;
  }
  Args args;
  eval_args(e.call, frame, args);
  at(e.loc);
  return filter(e.attr, in, args, tojson_to_output);
}

Value Renderer::filter(std::string_view name, const Value& input, Args& args, bool tojson_to_output) {
  step();
  charge(input);
  Value out;
  if (tojson_to_output) {
    append_tojson(*out_, input, args);
    if (out_->size() > limits_.max_output_bytes) check_size(out_->size());
    return out;
  }
  if (!call_filter(*this, name, input, args, out)) raise("TemplateRuntimeError", "No filter named '" + std::string(name) + "' found.");
  charge(out);  // what it built
  return out;
}

bool Renderer::eval_test(const Expr& e, const Frame& frame) {
  if (e.call.empty())
    if (const Value* held = stored(*e.children[0], frame)) {
      at(e.loc);
      switch (e.op) {  // message.content is none: the type alone, without the dispatch by name
        case kIsNone:
          step();
          return held->is_none();
        case kIsDefined:
          step();
          return !held->is_undefined();
        case kIsUndefined:
          step();
          return held->is_undefined();
        case kIsString:
          step();
          return held->is_string();
        case kIsMapping:
          step();
          return held->is_dict();
        default: {
          Args none;
          return test(e.attr, *held, none);
        }
      }
    }
  Value in = eval(*e.children[0], frame);
  Args args;
  eval_args(e.call, frame, args);
  at(e.loc);
  return test(e.attr, in, args);
}

bool Renderer::test(std::string_view name, const Value& input, Args& args) {
  step();
  bool out = false;
  if (!call_test(*this, name, input, args, out)) raise("TemplateRuntimeError", "No test named '" + std::string(name) + "' found.");
  return out;
}

// ---- Template

Template::~Template() = default;

std::shared_ptr<const Template> Template::compile(std::string_view source, std::string name) {
  std::shared_ptr<Template> t(new Template());
  t->name_ = std::move(name);
  std::string normalized = normalize_newlines(source);
  t->parsed_ = std::make_unique<ParsedTemplate>(parse(tokenize(normalized)));
  t->writes_json_ = normalized.find("tojson") != std::string::npos;
  return t;
}

std::string Template::render(std::span<const Variable> variables, const RenderLimits& limits) const {
  struct PinNow {  // strftime_now() reads the pinned time through a thread-local for this render
    const std::tm* saved;
    explicit PinNow(const std::tm* now) : saved(pinned_now()) { pinned_now() = now; }
    ~PinNow() { pinned_now() = saved; }
  } pin(limits.now ? &*limits.now : nullptr);
  Renderer r(*parsed_, limits);
  // Room for the last render's size and a quarter more. tojson writing into the output asks for
  // room ahead (JsonSink), so templates that name it get 1 KiB more; the others 64 bytes, which
  // keeps a short prompt's buffer within glibc's per-thread cache (1032 bytes), where a buffer
  // past it took malloc's and free's slower paths: apply_request (/tmp driver, best of seven
  // rounds of 100k, alternating) Llama 3.1 1.42-1.44 -> 1.35-1.38 us, DeepSeek V3 1.90-1.95 ->
  // 1.80-1.84 us. (Qwen3, with 64 bytes: 4.1-4.8 -> 5.0-5.5 us, its tools' JSON regrowing the
  // buffer.)
  const std::size_t hint = output_size_hint_.load(std::memory_order_relaxed);
  std::string out = r.run(variables, hint + hint / 4 + (writes_json_ ? 1024 : 64));
  output_size_hint_.store(std::min(out.size(), std::size_t{1} << 20), std::memory_order_relaxed);
  return out;
}

std::vector<std::string> Template::undeclared_variables() const { return parsed_->undeclared; }
bool Template::mentions(std::string_view name) const { return parsed_->find_id(name) != nullptr; }

}  // namespace textedge::detail::jinja
