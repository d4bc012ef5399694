// Template values with Python semantics (what Jinja2 templates see): none, undefined, bool, int
// (int64), float, str (UTF-8), list/tuple, dict (insertion-ordered), and the callables and objects a
// render creates (macros, namespaces, loop objects, cyclers, joiners, bound methods).
//
// A Value is 16 bytes: a type tag and a scalar or an intrusively counted pointer to immutable shared
// storage, so copying a list or a context dict never copies its elements. A string is either owned
// (a counted StringObject) or borrowed: a view of text that outlives the render (the template's own
// constants, the request's JSON), which costs no allocation and no reference counting to copy.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace textedge::detail::jinja {

enum class Type : std::uint8_t {
  Undefined,
  None,
  Bool,
  Int,
  Float,
  String,
  List,  // also tuples (ListObject::tuple)
  Dict,
  Object,  // callables, namespaces, loops, cyclers, joiners (see ObjectKind)
};

// Objects come from per-thread free lists: a render creates and drops them by the hundred, more
// than glibc's per-size cache holds, which sent most of its frees down the slow path.
void* allocate_object(std::size_t size);
void free_object(void* p, std::size_t size) noexcept;

// Base of everything a Value points to.
class Object {
 public:
  static void* operator new(std::size_t size) { return allocate_object(size); }
  static void operator delete(void* p, std::size_t size) noexcept { free_object(p, size); }
  virtual ~Object() = default;
  void retain() const noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() const noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  bool shared() const noexcept { return refs_.load(std::memory_order_relaxed) > 1; }

 private:
  mutable std::atomic<std::uint32_t> refs_{0};
};

class Value;
class StringObject;
class ListObject;
class DictObject;
class CallableObject;

class Value {
 public:
  Value() noexcept : type_(Type::Undefined) { u_.ptr = nullptr; }
  static Value undefined(const std::string* name = nullptr) noexcept {
    Value v;
    v.u_.name = name;
    return v;
  }
  // An undefined that raises `message` as a SecurityError when called (an unsafe attribute).
  static Value unsafe(std::string message);
  static Value none() noexcept {
    Value v;
    v.type_ = Type::None;
    return v;
  }
  Value(bool b) noexcept : type_(Type::Bool) { u_.i = b; }
  Value(std::int64_t i) noexcept : type_(Type::Int) { u_.i = i; }
  Value(int i) noexcept : type_(Type::Int) { u_.i = i; }
  Value(double f) noexcept : type_(Type::Float) { u_.f = f; }
  Value(std::string s);
  Value(std::string_view s) : Value(std::string(s)) {}
  Value(const char* s) : Value(std::string(s)) {}
  // A string viewing `s`, which must outlive every copy of the value (strings over 4 GiB are copied).
  static Value borrowed(std::string_view s) {
    // Built in place (a named Value returned cost the JSON reader a copy through the stack).
    return s.size() > UINT32_MAX ? Value(std::string(s)) : Value(BorrowedChars{}, s.data(), static_cast<std::uint32_t>(s.size()));
  }
  static Value markup(std::string s);  // a string marked safe (Markup): escape leaves it alone
  // A new empty string value for its creator to write (`text`) before any copy is made: a released
  // string's object and buffer when this thread keeps one (a render builds and drops a string at
  // each `set x = a + b`, which cost two allocations and two frees each), else a new one.
  static Value spare_string(std::string*& text);
  static Value list(std::vector<Value> items, bool tuple = false);
  static Value dict(std::vector<std::pair<Value, Value>> items);  // later duplicates replace earlier
  Value(Type object_type, const Object* object) noexcept : type_(object_type) {
    u_.ptr = object;
    if (object) {
      object->retain();
      counted_ = true;
    }
  }
  // A list or dict owned elsewhere for longer than every copy of the value (the request's
  // containers, owned for the render): copies are not counted.
  static Value borrowed(Type object_type, const Object* object) noexcept {
    Value v;
    v.type_ = object_type;
    v.borrowed_ = true;
    v.u_.ptr = object;
    return v;
  }

  Value(const Value& o) noexcept {
    take_fields(o);
    if (is_counted()) u_.ptr->retain();
  }
  Value(Value&& o) noexcept {
    take_fields(o);
    o.leave_moved_from();
  }
  Value& operator=(const Value& o) noexcept {
    if (this != &o) {
      if (o.is_counted()) o.u_.ptr->retain();
      reset();
      take_fields(o);
    }
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      reset();
      take_fields(o);
      o.leave_moved_from();
    }
    return *this;
  }
  ~Value() { reset(); }

  Type type() const noexcept { return type_; }
  bool is_undefined() const noexcept { return type_ == Type::Undefined; }
  bool is_none() const noexcept { return type_ == Type::None; }
  bool is_bool() const noexcept { return type_ == Type::Bool; }
  bool is_int() const noexcept { return type_ == Type::Int; }  // not bool
  bool is_float() const noexcept { return type_ == Type::Float; }
  bool is_number() const noexcept { return type_ == Type::Int || type_ == Type::Float || type_ == Type::Bool; }
  bool is_integral() const noexcept { return type_ == Type::Int || type_ == Type::Bool; }  // Python int incl. bool
  bool is_string() const noexcept { return type_ == Type::String; }
  bool is_list() const noexcept { return type_ == Type::List; }
  bool is_tuple() const noexcept;
  bool is_dict() const noexcept { return type_ == Type::Dict; }
  bool is_object() const noexcept { return type_ == Type::Object; }
  bool is_markup() const noexcept;
  // An owned string no other value holds: `+` may append to it in place.
  // A part of this string (a view into str()): borrowed like it when it is borrowed, else a copy.
  Value substring(std::string_view part) const {
    return borrowed_ && type_ == Type::String ? borrowed(part) : Value(part);
  }

  bool as_bool() const noexcept { return u_.i != 0; }
  std::int64_t as_int() const noexcept { return u_.i; }  // Int or Bool
  double as_float() const noexcept { return u_.f; }
  double as_number() const noexcept { return type_ == Type::Float ? u_.f : static_cast<double>(u_.i); }
  std::string_view str() const noexcept;  // String only
  const ListObject& list() const noexcept { return *reinterpret_cast<const ListObject*>(u_.ptr); }
  std::span<const Value> items() const noexcept;  // List only
  const DictObject& dict() const noexcept { return *reinterpret_cast<const DictObject*>(u_.ptr); }
  const Object* object() const noexcept { return u_.ptr; }
  const std::string* undefined_name() const noexcept { return type_ == Type::Undefined && !unsafe_ ? u_.name : nullptr; }
  const std::string* unsafe_message() const noexcept;  // non-null for an unsafe attribute's undefined

  // Python truthiness.
  bool truthy() const noexcept;
  // Python str() and repr().
  std::string to_str() const;
  void append_str(std::string& out) const;
  void append_repr(std::string& out) const;
  std::string repr() const {
    std::string s;
    append_repr(s);
    return s;
  }
  // Python ==.
  bool equals(const Value& o) const noexcept;
  // Python hash for dict keys (consistent with equals for hashable values).
  std::size_t hash() const noexcept;
  bool hashable() const noexcept;
  // The Python type name used in error messages ('str', 'int', 'dict', ...).
  const char* type_name() const noexcept;

 private:
  struct BorrowedChars {};
  Value(BorrowedChars, const char* chars, std::uint32_t length) noexcept
      : type_(Type::String), borrowed_(true), length_(length) {
    u_.chars = chars;
  }
  bool is_counted() const noexcept { return counted_; }
  void reset() noexcept {
    if (is_counted()) u_.ptr->release();
  }
  // Every field (no counting). Values are copied and moved by the hundred per render: two
  // 8-byte moves instead of five field copies (and a one-flag test for counting) cut ~5% of a
  // chat render's instructions.
  void take_fields(const Value& o) noexcept {
    static_assert(sizeof(Value) == 16);
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&o), sizeof(Value));
  }
  void leave_moved_from() noexcept {  // None: nothing to release
    type_ = Type::None;
    unsafe_ = false;
    borrowed_ = false;
    counted_ = false;
  }
  Type type_;
  bool unsafe_ = false;
  bool borrowed_ = false;     // not counted: a string viewing length_ bytes at u_.chars, or a borrowed object
  bool counted_ = false;      // u_.ptr holds a reference
  std::uint32_t length_ = 0;  // a borrowed string's size
  union {
    bool b;
    std::int64_t i;
    double f;
    const Object* ptr;
    const std::string* name;
    const char* chars;
  } u_;
};

class StringObject final : public Object {
 public:
  StringObject(std::string s, bool markup) : value(std::move(s)), markup(markup) {}
  // Released: kept whole, buffer and all, for Value::spare_string() while this thread has room
  // (a destroying delete: the destructor runs only when it is not kept).
  static void operator delete(StringObject* p, std::destroying_delete_t) noexcept;
  static void operator delete(void* p, std::size_t size) noexcept { free_object(p, size); }
  std::string value;
  bool markup;
};

class ListObject final : public Object {
 public:
  ListObject(std::vector<Value> v, bool t) : owned_(std::move(v)), items(owned_), tuple(t) {}
  // Items placed in a ValueArena (by the JSON reader): nothing in them is counted.
  ListObject(std::span<const Value> in_arena, bool t) : items(in_arena), tuple(t) {}

 private:
  std::vector<Value> owned_;

 public:
  const std::span<const Value> items;
  bool tuple;
  bool group = false;  // a groupby result: .grouper and .list name the two items
};

class ValueArena;

// Insertion-ordered; lookups scan small dicts and use a hash index for larger ones.
class DictObject final : public Object {
 public:
  using Entry = std::pair<Value, Value>;
  explicit DictObject(std::vector<Entry> entries);
  // Entries placed in `arena` (by the JSON reader), deduplicated in place unless the caller knows
  // the keys are distinct; a large dict's index goes there too.
  DictObject(std::span<Entry> in_arena, ValueArena& arena, bool keys_distinct = false) : entries_(in_arena) {
    if (!keys_distinct || in_arena.size() > kMaxScanned) index_in(arena);  // inline: most request dicts
  }
  static constexpr std::size_t kMaxScanned = 8;  // larger dicts have a hash index
  const Value* find(const Value& key) const noexcept;
  inline const Value* find(std::string_view key) const noexcept;
  std::span<const Entry> entries() const noexcept { return entries_; }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  // Later duplicates replace the value of the first occurrence (Python dict semantics); builds
  // the index in `index` (zeroed, a power of two over twice the size) when it is not empty.
  void deduplicate(std::span<std::uint32_t> index);
  void index_in(ValueArena& arena);  // deduplicates, with an index in `arena` when large
  // find() in a large dict; out of line, which spares the small dicts' scan a heavy frame.
  [[gnu::noinline]] const Value* find_indexed(std::string_view key) const noexcept;
  std::vector<Entry> owned_;
  std::vector<std::uint32_t> owned_index_;
  std::span<Entry> entries_;
  std::span<const std::uint32_t> index_;  // open addressing, entry index + 1; empty when small
};

// One render's request values (the chat API): the JSON reader places every list, dict and
// unescaped string here and the values borrow them, so a container costs a bump instead of two
// allocations and frees. Nothing placed here is destroyed; it must hold only uncounted values.
class ValueArena {
 public:
  ValueArena() = default;
  ValueArena(const ValueArena&) = delete;
  ValueArena& operator=(const ValueArena&) = delete;
  ~ValueArena();
  void* allocate(std::size_t size) {  // 16-byte aligned
    size = (size + 15) & ~std::size_t{15};
    if (static_cast<std::size_t>(end_ - next_) < size) grow(size);
    void* p = next_;
    next_ += size;
    return p;
  }
  template <class T>
  std::span<T> allocate_array(std::size_t n) {
    return {static_cast<T*>(allocate(n * sizeof(T))), n};
  }

 private:
  void grow(std::size_t size);
  struct Block {
    Block* previous;
    std::size_t size;
  };
  Block* last_ = nullptr;
  char* next_ = nullptr;
  char* end_ = nullptr;
};

inline bool Value::is_tuple() const noexcept { return type_ == Type::List && list().tuple; }
inline std::span<const Value> Value::items() const noexcept { return list().items; }
inline std::string_view Value::str() const noexcept {
  return borrowed_ ? std::string_view(u_.chars, length_) : std::string_view(static_cast<const StringObject*>(u_.ptr)->value);
}
inline bool Value::is_markup() const noexcept {
  return type_ == Type::String && !borrowed_ && static_cast<const StringObject*>(u_.ptr)->markup;
}

// Type::Object payloads.
enum class ObjectKind : std::uint8_t { Function, Macro, Namespace, Loop, Cycler, Joiner };
class BoxObject : public Object {
 public:
  explicit BoxObject(ObjectKind k) : kind(k) {}
  const ObjectKind kind;
};
inline const BoxObject* box_of(const Value& v) noexcept {
  return v.is_object() ? static_cast<const BoxObject*>(v.object()) : nullptr;
}

// Byte equality, inline for the short strings templates compare (roles, keys, attribute names),
// where a call to memcmp cost more than the comparison: up to 16 bytes take two overlapping
// loads of each side.
[[gnu::always_inline]] inline bool same_text(std::string_view a, std::string_view b) noexcept {
  std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  auto load8 = [](const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load4 = [](const char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    if (n > 16) return std::memcmp(x, y, n) == 0;
    return load8(x) == load8(y) && load8(x + n - 8) == load8(y + n - 8);
  }
  if (n >= 4) return load4(x) == load4(y) && load4(x + n - 4) == load4(y + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}

// Always inline: templates read a few keys of small dicts (role, content) at every message, and
// the call's frame (registers saved for same_text) cost more than the scan. Walk per render
// (callgrind, bench/data/chat_six_messages_two_tools.json): DeepSeek V3 19.29k -> 18.79k, Qwen3
// 47.55k -> 47.18k, Llama 3.1 12.28k -> 12.08k. A plain `inline` was not taken by GCC 12 (0).
[[gnu::always_inline]] inline const Value* DictObject::find(std::string_view key) const noexcept {
  if (!index_.empty()) return find_indexed(key);
  for (auto& e : entries_)
    if (e.first.is_string() && same_text(e.first.str(), key)) return &e.second;
  return nullptr;
}

// Python's repr of a float (shortest round-trip: 1.0, 0.1, 1e-05, 1e+16, inf, nan).
void append_float_repr(std::string& out, double d);
// Python's repr of a str (quote choice and escapes as Python does).
void append_string_repr(std::string& out, std::string_view s);

// Number of code points in UTF-8 text.
std::size_t utf8_length(std::string_view s) noexcept;
bool is_ascii(std::string_view s) noexcept;

}  // namespace textedge::detail::jinja
