// Globals (range, namespace, dict, cycler, joiner, raise_exception, strftime_now), bound methods,
// and the loop object's attributes.
#include <ctime>

#include "chat/jinja/objects.hpp"
#include "chat/jinja/runtime.hpp"

namespace textedge::detail::jinja {

// Set by Template::render from RenderLimits::now. Reached through a function: an extern
// thread_local read from another file goes through a wrapper that UBSan misreads as null.
const std::tm*& pinned_now() {
  thread_local const std::tm* now = nullptr;
  return now;
}

namespace {

constexpr std::int64_t kMaxRange = 100000;  // Jinja2's sandbox MAX_RANGE

Value make_global(Builtin b) { return Value(Type::Object, new FunctionObject(b)); }

Value range(const Args& args) {
  if (!args.kw.empty()) raise("TypeError", "range() takes no keyword arguments");
  if (args.pos.empty() || args.pos.size() > 3)
    raise("TypeError", "range expected at most 3 arguments, got " + std::to_string(args.pos.size()));
  for (auto& a : args.pos)
    if (!a.is_integral()) {
      if (a.is_undefined()) raise("UndefinedError", "range() argument is undefined");
      raise("TypeError", std::string("'") + a.type_name() + "' object cannot be interpreted as an integer");
    }
  std::int64_t start = 0, stop, step = 1;
  if (args.pos.size() == 1) {
    stop = args.pos[0].as_int();
  } else {
    start = args.pos[0].as_int();
    stop = args.pos[1].as_int();
    if (args.pos.size() == 3) step = args.pos[2].as_int();
  }
  if (step == 0) raise("ValueError", "range() arg 3 must not be zero");
  // Length as Python computes it, in 128 bits to avoid overflow.
  __int128 n = 0;
  if (step > 0 && start < stop) n = ((__int128)stop - start + step - 1) / step;
  if (step < 0 && start > stop) n = ((__int128)start - stop - step - 1) / -step;
  if (n > kMaxRange)
    raise("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
  std::vector<Value> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0, v = start; i < n; ++i, v += step) out.emplace_back(v);
  return Value::list(std::move(out));
}

// dict(*args, **kwargs) entries, also used by namespace().
std::vector<std::pair<Value, Value>> dict_entries(const Args& args, const char* function) {
  std::vector<std::pair<Value, Value>> entries;
  if (args.pos.size() > 1)
    raise("TypeError", std::string(function) + " expected at most 1 argument, got " + std::to_string(args.pos.size()));
  if (!args.pos.empty()) {
    const Value& src = args.pos[0];
    if (src.is_dict()) {
      entries.assign(src.dict().entries().begin(), src.dict().entries().end());
    } else {
      for (auto& item : iterate(src)) {
        std::vector<Value> kv = iterate(item);
        if (kv.size() != 2) raise("ValueError", "dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required");
        if (!kv[0].hashable()) raise("TypeError", std::string("unhashable type: '") + kv[0].type_name() + "'");
        entries.emplace_back(kv[0], kv[1]);
      }
    }
  }
  for (auto& [k, v] : args.kw) entries.emplace_back(Value(k), v);
  return entries;
}

std::string strftime_now(const std::string& format) {
  std::tm tm{};
  if (pinned_now()) {
    tm = *pinned_now();
  } else {
    std::time_t now = std::time(nullptr);
    localtime_r(&now, &tm);
  }
  if (format.empty()) return {};
  std::string buf(format.size() * 8 + 64, '\0');
  for (int attempt = 0; attempt < 6; ++attempt) {
    std::size_t n = std::strftime(buf.data(), buf.size(), format.c_str(), &tm);
    if (n > 0) {
      buf.resize(n);
      return buf;
    }
    buf.resize(buf.size() * 4);
  }
  return {};
}

}  // namespace

Value global_function(NameId id) {
  static const Value globals[] = {make_global(Builtin::Range),  make_global(Builtin::Namespace),
                                  make_global(Builtin::Dict),   make_global(Builtin::Cycler),
                                  make_global(Builtin::Joiner), make_global(Builtin::RaiseException),
                                  make_global(Builtin::StrftimeNow), make_global(Builtin::Lipsum)};
  if (id < sizeof globals / sizeof globals[0]) return globals[id];
  return Value::undefined();
}

Value loop_attribute(const LoopObject& loop, LoopAttr attr) {
  auto n = static_cast<std::int64_t>(loop.items().size());
  auto i = static_cast<std::int64_t>(loop.index0);
  switch (attr) {
    case LoopAttr::Index:
      return Value(i + 1);
    case LoopAttr::Index0:
      return Value(i);
    case LoopAttr::Revindex:
      return Value(n - i);
    case LoopAttr::Revindex0:
      return Value(n - i - 1);
    case LoopAttr::First:
      return Value(i == 0);
    case LoopAttr::Last:
      return Value(i == n - 1);
    case LoopAttr::Length:
      return Value(n);
    case LoopAttr::Depth:
      return Value(static_cast<std::int64_t>(loop.depth0) + 1);
    case LoopAttr::Depth0:
      return Value(static_cast<std::int64_t>(loop.depth0));
    case LoopAttr::Previtem:
      return i > 0 ? loop.items()[loop.index0 - 1] : Value::undefined();
    case LoopAttr::Nextitem:
      return i + 1 < n ? loop.items()[loop.index0 + 1] : Value::undefined();
    case LoopAttr::Other:
      break;
  }
  return Value::undefined();
}

Value loop_attribute(const LoopObject& loop, std::string_view name, bool& found) {
  found = true;
  if (LoopAttr attr = loop_attr_named(name); attr != LoopAttr::Other) return loop_attribute(loop, attr);
  if (name == "cycle" || name == "changed") {
    return Value(Type::Object, new FunctionObject(Builtin::BoundMethod, Value(Type::Object, &loop), std::string(name)));
  }
  found = false;
  return Value::undefined();
}

Value call_builtin(Renderer& r, const FunctionObject& f, Args& args) {
  const Value* a[2] = {nullptr, nullptr};
  switch (f.builtin) {
    case Builtin::Range:
      return range(args);
    case Builtin::Namespace: {
      auto* ns = new NamespaceObject();
      Value v(Type::Object, ns);
      if (args.pos.empty()) {  // namespace(a=1, b=2): the keywords as they are
        for (auto& [k, x] : args.kw) ns->set(k, x);
        return v;
      }
      for (auto& [k, x] : dict_entries(args, "namespace")) {
        if (!k.is_string()) raise("TypeError", "keywords must be strings");
        ns->set(k.str(), x);
      }
      return v;
    }
    case Builtin::Dict:
      return Value::dict(dict_entries(args, "dict"));
    case Builtin::Cycler:
      if (!args.kw.empty()) raise("TypeError", "cycler() got an unexpected keyword argument");
      return Value(Type::Object, new CyclerObject(std::vector<Value>(args.pos.begin(), args.pos.end())));
    case Builtin::Joiner: {
      args.bind("joiner", {"sep"}, a);
      return Value(Type::Object, new JoinerObject(a[0] ? a[0]->to_str() : ", "));
    }
    case Builtin::RaiseException: {
      args.bind("raise_exception", {"message"}, a);
      if (!a[0]) raise("TypeError", "raise_exception() missing 1 required positional argument: 'message'");
      raise("TemplateError", a[0]->is_undefined() ? std::string() : a[0]->to_str());
    }
    case Builtin::StrftimeNow: {
      args.bind("strftime_now", {"format"}, a);
      if (!a[0]) raise("TypeError", "strftime_now() missing 1 required positional argument: 'format'");
      if (!a[0]->is_string()) raise("TypeError", "strftime() argument 1 must be str");
      return Value(strftime_now(std::string(a[0]->str())));
    }
    case Builtin::Lipsum:
      raise("TypeError", "lipsum() is not supported");
    case Builtin::BoundMethod: {
      const Value& self = f.self;
      if (self.is_string() || self.is_list() || self.is_dict()) {
        Value out;
        if (call_method(r, self, f.method, args, out)) return out;
        raise("TypeError", "unsupported method");
      }
      if (auto* loop = as<LoopObject>(self, ObjectKind::Loop)) {
        if (f.method == "cycle") {
          if (args.pos.empty()) raise("TypeError", "no items for cycling given");
          return args.pos[loop->index0 % args.pos.size()];
        }
        // changed(*values): true when the values differ from the previous call's.
        Value current = Value::list(std::vector<Value>(args.pos.begin(), args.pos.end()), true);
        auto* l = const_cast<LoopObject*>(loop);
        if (!l->has_last_changed || !l->last_changed.equals(current)) {
          l->has_last_changed = true;
          l->last_changed = current;
          return Value(true);
        }
        return Value(false);
      }
      if (auto* c = as<CyclerObject>(self, ObjectKind::Cycler)) {
        auto* cy = const_cast<CyclerObject*>(c);
        if (f.method == "reset") {
          cy->pos = 0;
          return Value::none();
        }
        if (cy->items.empty()) raise("ZeroDivisionError", "integer division or modulo by zero");
        Value v = cy->items[cy->pos];
        cy->pos = (cy->pos + 1) % cy->items.size();
        return v;
      }
      raise("TypeError", "unsupported method");
    }
  }
  raise("TypeError", "not callable");
}

}  // namespace textedge::detail::jinja
