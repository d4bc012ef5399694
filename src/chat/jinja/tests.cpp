// Jinja2's builtin tests (`x is defined`, `x is string`, ...).
#include "chat/jinja/code_points.hpp"
#include "chat/jinja/objects.hpp"
#include "chat/jinja/parser.hpp"
#include "chat/jinja/runtime.hpp"

namespace textedge::detail::jinja {

namespace {

const char* const kTestNames[] = {"odd",      "even",    "divisibleby", "defined",  "undefined", "filter",
                                  "test",     "none",    "boolean",     "false",    "true",      "integer",
                                  "float",    "lower",   "upper",       "string",   "mapping",   "number",
                                  "sequence", "iterable", "callable",   "sameas",   "escaped",   "in",
                                  "==",       "eq",      "equalto",     "!=",       "ne",        ">",
                                  "gt",       "greaterthan", "ge",      ">=",       "<",         "lt",
                                  "lessthan", "<=",      "le"};

bool callable(const Value& v) {
  if (v.is_undefined()) return true;  // Undefined defines __call__
  if (const BoxObject* b = box_of(v)) {
    return b->kind == ObjectKind::Function || b->kind == ObjectKind::Macro || b->kind == ObjectKind::Joiner ||
           (b->kind == ObjectKind::Loop && static_cast<const LoopObject*>(b)->stmt);
  }
  return false;
}

}  // namespace

bool is_known_test(std::string_view name) {
  for (auto* n : kTestNames)
    if (name == n) return true;
  return false;
}

bool call_test(Renderer& r, std::string_view test_name, const Value& v, Args& args, bool& out) {
  const CalledName name{test_name};
  (void)r;
  const Value* a[1] = {nullptr};
  auto bind1 = [&](const char* arg) {
    args.bind(name, {arg}, a);
    if (!a[0]) raise("TypeError", std::string(name) + "() missing 1 required positional argument: '" + arg + "'");
    return *a[0];
  };
  auto bind0 = [&] { args.bind(name, {}, a); };
  if (name == "defined") {
    bind0();
    out = !v.is_undefined();
  } else if (name == "undefined") {
    bind0();
    out = v.is_undefined();
  } else if (name == "none") {
    bind0();
    out = v.is_none();
  } else if (name == "boolean") {
    bind0();
    out = v.is_bool();
  } else if (name == "true") {
    bind0();
    out = v.is_bool() && v.as_bool();
  } else if (name == "false") {
    bind0();
    out = v.is_bool() && !v.as_bool();
  } else if (name == "integer") {
    bind0();
    out = v.is_int();
  } else if (name == "float") {
    bind0();
    out = v.is_float();
  } else if (name == "number") {
    bind0();
    out = v.is_number();
  } else if (name == "string") {
    bind0();
    out = v.is_string();
  } else if (name == "mapping") {
    bind0();
    out = v.is_dict();
  } else if (name == "iterable") {
    bind0();
    out = v.is_string() || v.is_list() || v.is_dict() || v.is_undefined();
  } else if (name == "sequence") {
    bind0();
    out = v.is_string() || v.is_list() || v.is_dict() || v.is_undefined();
  } else if (name == "callable") {
    bind0();
    out = callable(v);
  } else if (name == "escaped") {
    bind0();
    out = v.is_markup();
  } else if (name == "lower" || name == "upper") {
    bind0();
    Args m;
    Value res;
    call_method(r, Value(v.to_str()), name == "lower" ? "islower" : "isupper", m, res);
    out = res.truthy();
  } else if (name == "odd" || name == "even") {
    bind0();
    if (!v.is_number()) {
      if (v.is_undefined()) raise("UndefinedError", "value is undefined");
      raise("TypeError", std::string("unsupported operand type(s) for %: '") + v.type_name() + "' and 'int'");
    }
    Value m = op_mod(v, Value(std::int64_t{2}));
    out = name == "odd" ? m.equals(Value(std::int64_t{1})) : m.equals(Value(std::int64_t{0}));
  } else if (name == "divisibleby") {
    Value n = bind1("num");
    out = op_mod(v, n).equals(Value(std::int64_t{0}));
  } else if (name == "sameas") {
    Value o = bind1("other");
    if (v.type() != o.type()) {
      out = false;
    } else if (v.is_none() || v.is_undefined()) {
      out = v.is_none();
    } else if (v.is_bool()) {
      out = v.as_bool() == o.as_bool();
    } else if (v.is_int()) {
      out = v.as_int() == o.as_int() && v.as_int() >= -5 && v.as_int() <= 256;  // CPython's small int cache
    } else if (v.is_string() || v.is_list() || v.is_dict() || v.is_object()) {
      out = v.object() == o.object();
    } else {
      out = false;
    }
  } else if (name == "in") {
    Value seq = bind1("seq");
    out = op_contains(seq, v);
  } else if (name == "==" || name == "eq" || name == "equalto") {
    out = v.equals(bind1("other"));
  } else if (name == "!=" || name == "ne") {
    out = !v.equals(bind1("other"));
  } else if (name == ">" || name == "gt" || name == "greaterthan") {
    out = op_less(bind1("other"), v);
  } else if (name == ">=" || name == "ge") {
    Value o = bind1("other");
    out = op_less(o, v) || v.equals(o);
  } else if (name == "<" || name == "lt" || name == "lessthan") {
    out = op_less(v, bind1("other"));
  } else if (name == "<=" || name == "le") {
    Value o = bind1("other");
    out = op_less(v, o) || v.equals(o);
  } else if (name == "filter") {
    bind0();
    out = v.is_string() && is_known_filter(v.str());
  } else if (name == "test") {
    bind0();
    out = v.is_string() && is_known_test(v.str());
  } else {
    return false;
  }
  return true;
}

}  // namespace textedge::detail::jinja
