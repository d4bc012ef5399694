// The compiled template: expression and statement trees with interned names. Immutable once parsed.
#pragma once

#include <cstdint>
#include <memory>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "chat/jinja/value.hpp"

namespace textedge::detail::jinja {

using NameId = std::uint32_t;

struct Location {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

enum class ExprKind : std::uint8_t {
  Const,     // value
  Name,      // name
  List,      // children
  Tuple,     // children
  Dict,      // children: key, value, key, value...
  Getattr,   // children[0], attr; op == kPlainKey when attr names no dict method or dunder
  Getitem,   // children[0], children[1]
  Slice,     // children: start, stop, step (nullptr when absent)
  Call,      // children[0] callee, args
  Filter,    // children[0] input (nullptr in a filter block), attr = filter name, args; op == kTrimFilter
             // for `trim` without arguments
  Test,      // children[0] input, attr = test name, args ("is not" wraps it in a Not); op: a TypeTest
  Neg,       // children[0]
  Pos,       // children[0]
  Not,       // children[0]
  Binary,    // op, children[0], children[1]
  Concat,    // children (the ~ operator)
  Compare,   // children[0] then (ops[i], children[i+1]); op: kKeyEqualsText (attr the key, name and value the dict's name and the text), kLoopPosition
  And,       // children[0], children[1]; op == kKeyEqualsText when children[0] is such a Compare
  Or,        // children[0], children[1]
  CondExpr,  // children: test, then, else (else may be nullptr)
};

// Expr::op of a Filter: `x | trim` without arguments, the commonest filter of chat templates,
// applied without the filter and method dispatch by name (render.cpp).
inline constexpr std::uint8_t kTrimFilter = 1;
// Expr::op of a Test without arguments that reads only its input's type (`x is none`, `x is
// defined`, ...), applied to a stored value without the test dispatch by name (render.cpp).
enum TypeTest : std::uint8_t { kByName = 0, kIsNone, kIsDefined, kIsUndefined, kIsString, kIsMapping };

// Expr::op of a Compare `name[key] == 'text'` or `name.key != 'text'` (attr: the key), tested by
// the renderer without re-reading the expression's shape.
inline constexpr std::uint8_t kKeyEqualsText = 1;
// Expr::op of a Getattr whose attr names no dict method or dunder: on a dict, a key first. The
// same value as kKeyEqualsText, so that Renderer::condition() takes both shapes with one test.
inline constexpr std::uint8_t kPlainKey = 1;
static_assert(kPlainKey == kKeyEqualsText);
// Expr::op of a Compare of a loop's position with an integer (`loop.index0 == 0`, `loop.index > 1`;
// not `in`): the renderer reads the position without a Value.
inline constexpr std::uint8_t kLoopPosition = 2;

enum class BinOp : std::uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow };
enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct CallArgs {
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
  ExprPtr dyn_args;    // *args
  ExprPtr dyn_kwargs;  // **kwargs
  bool empty() const { return args.empty() && kwargs.empty() && !dyn_args && !dyn_kwargs; }
};

// The attributes of a for loop's `loop` that read its position, resolved when parsed so that
// loop.index0 costs no string comparisons (Other: any other name, looked up by name).
enum class LoopAttr : std::uint8_t {
  Other,
  Index,
  Index0,
  Revindex,
  Revindex0,
  First,
  Last,
  Length,
  Depth,
  Depth0,
  Previtem,
  Nextitem
};
inline LoopAttr loop_attr_named(std::string_view name) {
  static constexpr std::string_view kNames[] = {"index",  "index0", "revindex", "revindex0", "first",   "last",
                                                "length", "depth",  "depth0",   "previtem",  "nextitem"};
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) return static_cast<LoopAttr>(i + 1);
  return LoopAttr::Other;
}

// One operand of a `+` chain (render.cpp's add_chain), with the shape the renderer reads without
// operand()'s walk: a constant string (text views it), a variable (name), `name['key']` or
// `name.key` (name, key), the same with `| trim`, or anything else.
struct SumOperand {
  enum Kind : std::uint8_t { Text, Name, Key, TrimmedKey, Other };
  Kind kind = Other;
  NameId name = 0;
  std::string_view text;  // Text: the constant; Key, TrimmedKey: the key
  const Expr* expr = nullptr;  // the operand
  const Expr* add = nullptr;   // the `+` whose right operand it is (nullptr for the first)
};
inline constexpr std::size_t kMaxSumOperands = 32;  // longer chains are added pairwise

struct Expr {
  ExprKind kind;
  std::uint8_t op = 0;
  LoopAttr loop_attr = LoopAttr::Other;  // Getattr
  Location loc;
  NameId name = 0;   // Name
  std::string attr;  // Getattr attribute, filter or test name, a Name's text, a string Const's text (`value` views it)
  Value value;       // Const
  std::vector<ExprPtr> children;
  std::vector<CmpOp> ops;  // Compare
  CallArgs call;           // Call, Filter, Test
  // A Binary `+` that ends a chain as parsed (a + b + c): the operands left to right, so the
  // renderer does not walk the left spine at each evaluation; empty for other nodes and for chains
  // longer than kMaxSumOperands.
  std::vector<SumOperand> sum;
};

// The key of `name['key']` or `name.key` (a plain key; not loop.index0 and the like), the
// shape whose dict entry the renderer reads without stored()'s walk; false for anything else.
inline bool key_of(const Expr& k, std::string_view& key) {
  if (k.children.empty() || k.children[0]->kind != ExprKind::Name) return false;
  if (k.kind == ExprKind::Getitem && k.children[1]->kind == ExprKind::Const && k.children[1]->value.is_string()) {
    key = k.children[1]->value.str();
    return true;
  }
  if (k.kind == ExprKind::Getattr && k.op && k.loop_attr == LoopAttr::Other) {  // a dict's key first
    key = k.attr;
    return true;
  }
  return false;
}

// The operand `o` of a `+` chain, classified (SumOperand).
inline SumOperand sum_operand(const Expr* o, const Expr* add) {
  SumOperand r;
  r.expr = o;
  r.add = add;
  if (o->kind == ExprKind::Const) {
    if (o->value.is_string()) {
      r.kind = SumOperand::Text;
      r.text = o->value.str();
    }
    return r;
  }
  const Expr* k = o;
  bool trimmed = false;
  if (o->kind == ExprKind::Filter && o->op == kTrimFilter && o->children[0]) {
    k = o->children[0].get();
    trimmed = true;
  }
  if (o->kind == ExprKind::Name) {
    r.kind = SumOperand::Name;
    r.name = o->name;
    return r;
  }
  if (!key_of(*k, r.text)) return r;
  r.kind = trimmed ? SumOperand::TrimmedKey : SumOperand::Key;
  r.name = k->children[0]->name;
  return r;
}

enum class StmtKind : std::uint8_t {
  Data,      // text
  Output,    // expr
  If,        // expr, body, else_body (elif chains nest in else_body)
  For,       // targets, expr (iterable), filter, body, else_body, recursive
  Set,       // targets (or ns attr), expr
  SetBlock,  // targets, body, filter (a Filter expr with null input, may be null)
  Macro,     // macro
  CallBlock, // macro (the caller), expr (the call)
  FilterBlock,  // filter, body
  With,      // targets+values, body
  Generation,   // body (rendered in its own scope, like transformers' call block)
  Break,
  Continue,
  Unsupported,  // include/import/extends/from: fails when reached (no loader)
  Block,     // {% block %}: renders its body in its own scope
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

// An assignment target: a name, a tuple of targets, or a namespace attribute.
struct Target {
  enum Kind : std::uint8_t { Name, Tuple, NamespaceAttr } kind = Name;
  NameId name = 0;
  std::string attr;  // NamespaceAttr
  std::vector<Target> items;
  Location loc;
};

struct MacroDef {
  std::string name;
  NameId name_id = 0;
  std::vector<NameId> params;
  std::vector<std::string> param_names;
  std::vector<ExprPtr> defaults;  // aligned to the last params
  Body body;
  bool uses_caller = false, uses_varargs = false, uses_kwargs = false;
};

struct Stmt {
  StmtKind kind;
  Location loc;
  std::string text;  // Data; Unsupported: the error message
  ExprPtr expr;
  ExprPtr filter;  // For: the inline condition; SetBlock/FilterBlock: the filter chain
  std::vector<Target> targets;
  std::vector<ExprPtr> values;  // With
  Body body, else_body;
  bool recursive = false;
  std::shared_ptr<MacroDef> macro;
};

}  // namespace textedge::detail::jinja
