#include "chat/jinja/value.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <utility>

#include "chat/jinja/code_points.hpp"
#include "chat/jinja/objects.hpp"

namespace textedge::detail::jinja {

namespace {
constexpr std::size_t kGranule = 16;
constexpr std::size_t kSizeClasses = 12;         // objects up to 192 bytes (a frame, a namespace)
constexpr std::size_t kCachedPerClass = 4096;  // beyond this, blocks go back to the heap
struct FreeBlock {
  FreeBlock* next;
};
struct ObjectCache {
  FreeBlock* head[kSizeClasses] = {};
  std::size_t count[kSizeClasses] = {};
  ~ObjectCache();
};
thread_local bool t_cache_gone = false;  // trivially destructible: valid while the thread exits
thread_local ObjectCache t_cache;
ObjectCache::~ObjectCache() {
  t_cache_gone = true;
  for (auto* block : head)
    while (block) {
      FreeBlock* next = block->next;
      ::operator delete(block);
      block = next;
    }
}
// Released strings with up to 4 KiB of room (short ones too: a chain of numbers takes one and
// drops it at once, +0.16k instructions a render for ChatGLM2's when they were freed), kept whole (object and buffer) for
// Value::spare_string().
struct SpareStrings {
  static constexpr int kMax = 8;
  StringObject* objects[kMax];
  int count = 0;
  ~SpareStrings();
};
thread_local bool t_spare_strings_gone = false;  // trivially destructible: valid while the thread exits
thread_local SpareStrings t_spare_strings;
}  // namespace

static void destroy_string(StringObject* p) noexcept {
  p->~StringObject();
  free_object(p, sizeof(StringObject));
}

SpareStrings::~SpareStrings() {
  t_spare_strings_gone = true;
  for (int i = 0; i < count; ++i) destroy_string(objects[i]);
}

void StringObject::operator delete(StringObject* p, std::destroying_delete_t) noexcept {
  std::size_t room = p->value.capacity();
  if (room <= 4096 && !t_spare_strings_gone) {
    SpareStrings& spare = t_spare_strings;
    if (spare.count < SpareStrings::kMax) {
      p->value.clear();
      p->markup = false;
      spare.objects[spare.count++] = p;  // no references left: spare_string() counts it again
      return;
    }
  }
  destroy_string(p);
}

Value Value::spare_string(std::string*& text) {
  StringObject* o = nullptr;
  if (!t_spare_strings_gone) {
    SpareStrings& spare = t_spare_strings;
    if (spare.count) o = spare.objects[--spare.count];
  }
  if (!o) o = new StringObject(std::string(), false);
  text = &o->value;
  return Value(Type::String, o);
}

void* allocate_object(std::size_t size) {
  std::size_t c = (size - 1) / kGranule;
  if (c >= kSizeClasses) return ::operator new(size);
  // Always the whole size class: another thread's cache may take the block when it is freed.
  if (t_cache_gone) return ::operator new((c + 1) * kGranule);
  ObjectCache& cache = t_cache;
  if (FreeBlock* block = cache.head[c]) {
    cache.head[c] = block->next;
    --cache.count[c];
    return block;
  }
  return ::operator new((c + 1) * kGranule);
}

void free_object(void* p, std::size_t size) noexcept {
  std::size_t c = (size - 1) / kGranule;
  if (c < kSizeClasses && !t_cache_gone) {
    ObjectCache& cache = t_cache;
    if (cache.count[c] < kCachedPerClass) {
      cache.head[c] = new (p) FreeBlock{cache.head[c]};
      ++cache.count[c];
      return;
    }
  }
  ::operator delete(p);
}

Value::Value(std::string s) : type_(Type::String) {
  auto* o = new StringObject(std::move(s), false);
  o->retain();
  u_.ptr = o;
  counted_ = true;
}

Value Value::markup(std::string s) {
  Value v(std::move(s));
  const_cast<StringObject*>(static_cast<const StringObject*>(v.u_.ptr))->markup = true;
  return v;
}

Value Value::unsafe(std::string message) {
  Value v;
  auto* o = new StringObject(std::move(message), false);
  o->retain();
  v.unsafe_ = true;
  v.u_.ptr = o;
  v.counted_ = true;
  return v;
}

const std::string* Value::unsafe_message() const noexcept {
  return type_ == Type::Undefined && unsafe_ ? &static_cast<const StringObject*>(u_.ptr)->value : nullptr;
}

Value Value::list(std::vector<Value> items, bool tuple) {
  return Value(Type::List, new ListObject(std::move(items), tuple));
}

Value Value::dict(std::vector<std::pair<Value, Value>> items) { return Value(Type::Dict, new DictObject(std::move(items))); }

namespace {
constexpr std::size_t kFirstBlock = 8192;
// The first block of this thread's last arena, kept for its next one: a render's request takes
// one block, and its aligned allocation and free were ~1% of a render (callgrind, Llama 3.1).
struct SpareBlock {
  void* block = nullptr;
  ~SpareBlock() { ::operator delete(block, std::align_val_t{16}); }
};
thread_local SpareBlock spare_block;
}  // namespace

ValueArena::~ValueArena() {
  while (last_) {
    Block* previous = last_->previous;
    if (last_->size == kFirstBlock && !spare_block.block)
      spare_block.block = last_;
    else
      ::operator delete(last_, std::align_val_t{16});  // unsized: clang before 19 lacks sized deallocation by default
    last_ = previous;
  }
}

void ValueArena::grow(std::size_t size) {
  // Blocks double from 8 KiB (a chat request's values take a few KiB), so a large request
  // takes a few blocks at most.
  std::size_t block = std::max<std::size_t>(size, last_ ? last_->size * 2 : kFirstBlock);
  static_assert(sizeof(Block) == 16);
  void* memory;
  if (block == kFirstBlock && spare_block.block) {
    memory = std::exchange(spare_block.block, nullptr);
  } else {
    memory = ::operator new(block + sizeof(Block), std::align_val_t{16});
  }
  auto* b = static_cast<Block*>(memory);
  *b = Block{last_, block};
  last_ = b;
  next_ = reinterpret_cast<char*>(b + 1);
  end_ = next_ + block;
}

namespace {
// A large dict's index: a power of two at least twice its size, so it is at most half full.
std::size_t index_capacity(std::size_t entries) {
  if (entries <= DictObject::kMaxScanned) return 0;  // small dicts (most of a chat request) are scanned
  std::size_t cap = 16;
  while (cap < entries * 2) cap *= 2;
  return cap;
}
}  // namespace

DictObject::DictObject(std::vector<Entry> entries) : owned_(std::move(entries)) {
  owned_index_.assign(index_capacity(owned_.size()), 0);
  entries_ = owned_;
  deduplicate(owned_index_);
  owned_.resize(entries_.size());
}

void DictObject::index_in(ValueArena& arena) {
  std::size_t capacity = index_capacity(entries_.size());
  std::span<std::uint32_t> index = arena.allocate_array<std::uint32_t>(capacity);
  std::fill(index.begin(), index.end(), 0);
  deduplicate(index);
}

void DictObject::deduplicate(std::span<std::uint32_t> index) {
  std::size_t kept = 0;
  if (index.empty()) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      std::size_t j = 0;
      while (j < kept && !entries_[j].first.equals(entries_[i].first)) ++j;
      if (j < kept)
        entries_[j].second = std::move(entries_[i].second);
      else if (kept++ != i)
        entries_[kept - 1] = std::move(entries_[i]);
    }
  } else {
    index_ = index;  // find() sees the entries kept so far: only they are in the index
    std::size_t mask = index.size() - 1;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (const Value* existing = find(entries_[i].first)) {
        *const_cast<Value*>(existing) = std::move(entries_[i].second);
        continue;
      }
      if (kept != i) entries_[kept] = std::move(entries_[i]);
      std::size_t h = entries_[kept].first.hash() & mask;
      while (index[h]) h = (h + 1) & mask;
      index[h] = static_cast<std::uint32_t>(++kept);
    }
  }
  entries_ = entries_.first(kept);
}

const Value* DictObject::find(const Value& key) const noexcept {
  if (key.is_string()) return find(key.str());
  if (index_.empty()) {
    for (auto& e : entries_)
      if (e.first.equals(key)) return &e.second;
    return nullptr;
  }
  if (!key.hashable()) return nullptr;
  std::size_t cap = index_.size();
  for (std::size_t h = key.hash() & (cap - 1); index_[h]; h = (h + 1) & (cap - 1)) {
    auto& e = entries_[index_[h] - 1];
    if (e.first.equals(key)) return &e.second;
  }
  return nullptr;
}

const Value* DictObject::find_indexed(std::string_view key) const noexcept {
  std::size_t cap = index_.size();
  for (std::size_t h = std::hash<std::string_view>()(key) & (cap - 1); index_[h]; h = (h + 1) & (cap - 1)) {
    auto& e = entries_[index_[h] - 1];
    if (e.first.is_string() && same_text(e.first.str(), key)) return &e.second;
  }
  return nullptr;
}

bool Value::truthy() const noexcept {
  switch (type_) {
    case Type::Undefined:
    case Type::None:
      return false;
    case Type::Bool:
    case Type::Int:
      return u_.i != 0;
    case Type::Float:
      return u_.f != 0.0;
    case Type::String:
      return !str().empty();
    case Type::List:
      return !items().empty();
    case Type::Dict:
      return dict().size() != 0;
    case Type::Object:
      return true;
  }
  return true;
}

std::string Value::to_str() const {
  if (type_ == Type::String) return std::string(str());
  std::string s;
  append_str(s);
  return s;
}

void Value::append_str(std::string& out) const {
  switch (type_) {
    case Type::Undefined:
      return;
    case Type::String:
      out += str();
      return;
    default:
      append_repr(out);
  }
}

void append_float_repr(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "nan";
    return;
  }
  if (std::isinf(d)) {
    out += d < 0 ? "-inf" : "inf";
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  // sci is [-]D[.DDD]e[+-]XX
  bool negative = sci[0] == '-';
  if (negative) sci.remove_prefix(1);
  std::size_t e = sci.find('e');
  std::string digits;
  digits += sci[0];
  if (sci[1] == '.') digits.append(sci.substr(2, e - 2));
  int exponent = 0;
  std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exponent);
  if (negative) out += '-';
  if (exponent >= -5 + 1 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-exponent - 1), '0');
      out += digits;
    } else if (static_cast<int>(digits.size()) <= exponent + 1) {
      out += digits;
      out.append(static_cast<std::size_t>(exponent + 1) - digits.size(), '0');
      out += ".0";
    } else {
      out.append(digits, 0, static_cast<std::size_t>(exponent) + 1);
      out += '.';
      out.append(digits, static_cast<std::size_t>(exponent) + 1);
    }
  } else {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += exponent < 0 ? '-' : '+';
    int a = exponent < 0 ? -exponent : exponent;
    if (a < 10) out += '0';
    out += std::to_string(a);
  }
}

void append_string_repr(std::string& out, std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  out += quote;
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      if (c == '\\') {
        out += "\\\\";
      } else if (c == static_cast<unsigned char>(quote)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
      continue;
    }
    std::size_t start = i;
    char32_t cp = decode_utf8(s, i);
    if (is_printable(cp)) {
      out.append(s.substr(start, i - start));
    } else {
      append_python_escape(out, cp);
    }
  }
  out += quote;
}

void Value::append_repr(std::string& out) const {
  switch (type_) {
    case Type::Undefined:
      out += "Undefined";
      return;
    case Type::None:
      out += "None";
      return;
    case Type::Bool:
      out += u_.i ? "True" : "False";
      return;
    case Type::Int: {
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof buf, u_.i);
      out.append(buf, r.ptr);
      return;
    }
    case Type::Float:
      append_float_repr(out, u_.f);
      return;
    case Type::String:
      if (is_markup()) {
        out += "Markup(";
        append_string_repr(out, str());
        out += ')';
      } else {
        append_string_repr(out, str());
      }
      return;
    case Type::List: {
      bool t = is_tuple();
      out += t ? '(' : '[';
      bool first = true;
      for (auto& v : items()) {
        if (!first) out += ", ";
        first = false;
        v.append_repr(out);
      }
      if (t && items().size() == 1) out += ',';
      out += t ? ')' : ']';
      return;
    }
    case Type::Dict: {
      out += '{';
      bool first = true;
      for (auto& [k, v] : dict().entries()) {
        if (!first) out += ", ";
        first = false;
        k.append_repr(out);
        out += ": ";
        v.append_repr(out);
      }
      out += '}';
      return;
    }
    case Type::Object:
      switch (box_of(*this)->kind) {
        case ObjectKind::Function:
          out += "<built-in function>";
          return;
        case ObjectKind::Macro:
          out += "<Macro ";
          append_string_repr(out, static_cast<const MacroObject*>(object())->def->name);
          out += '>';
          return;
        case ObjectKind::Namespace: {
          out += "<Namespace {";
          bool first = true;
          for (auto& [k, v] : static_cast<const NamespaceObject*>(object())->attrs) {
            if (!first) out += ", ";
            first = false;
            append_string_repr(out, k);
            out += ": ";
            v.append_repr(out);
          }
          out += "}>";
          return;
        }
        case ObjectKind::Loop: {
          auto* loop = static_cast<const LoopObject*>(object());
          out += "<LoopContext " + std::to_string(loop->index0 + 1) + "/" + std::to_string(loop->items().size()) + ">";
          return;
        }
        case ObjectKind::Cycler:
          out += "<Cycler>";
          return;
        case ObjectKind::Joiner:
          out += "<Joiner>";
          return;
      }
  }
}

bool Value::equals(const Value& o) const noexcept {
  if (is_number() && o.is_number()) {
    if (type_ == Type::Float || o.type_ == Type::Float) return as_number() == o.as_number();
    return u_.i == o.u_.i;
  }
  if (type_ != o.type_) return false;
  switch (type_) {
    case Type::Undefined:
    case Type::None:
      return true;
    case Type::String:
      return same_text(str(), o.str());
    case Type::List: {
      if (is_tuple() != o.is_tuple()) return false;
      auto a = items();
      auto b = o.items();
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!a[i].equals(b[i])) return false;
      return true;
    }
    case Type::Dict: {
      if (dict().size() != o.dict().size()) return false;
      for (auto& [k, v] : dict().entries()) {
        const Value* w = o.dict().find(k);
        if (!w || !v.equals(*w)) return false;
      }
      return true;
    }
    default:
      return u_.ptr == o.u_.ptr;
  }
}

bool Value::hashable() const noexcept {
  if (type_ == Type::Dict) return false;
  if (type_ == Type::List) {
    if (!is_tuple()) return false;
    for (auto& v : items())
      if (!v.hashable()) return false;
  }
  return true;
}

std::size_t Value::hash() const noexcept {
  switch (type_) {
    case Type::Bool:
    case Type::Int:
      return std::hash<std::int64_t>()(u_.i);
    case Type::Float: {
      double f = u_.f;
      if (std::floor(f) == f && std::fabs(f) < 9.2e18) return std::hash<std::int64_t>()(static_cast<std::int64_t>(f));
      return std::hash<double>()(f);
    }
    case Type::String:
      return std::hash<std::string_view>()(str());
    case Type::List: {
      std::size_t h = 0x345678;
      for (auto& v : items()) h = h * 1000003 ^ v.hash();
      return h;
    }
    default:
      return std::hash<const void*>()(u_.ptr);
  }
}

const char* Value::type_name() const noexcept {
  switch (type_) {
    case Type::Undefined:
      return "Undefined";
    case Type::None:
      return "NoneType";
    case Type::Bool:
      return "bool";
    case Type::Int:
      return "int";
    case Type::Float:
      return "float";
    case Type::String:
      return is_markup() ? "Markup" : "str";
    case Type::List:
      return is_tuple() ? "tuple" : "list";
    case Type::Dict:
      return "dict";
    case Type::Object:
      switch (box_of(*this)->kind) {
        case ObjectKind::Function:
          return "builtin_function_or_method";
        case ObjectKind::Macro:
          return "Macro";
        case ObjectKind::Namespace:
          return "Namespace";
        case ObjectKind::Loop:
          return "LoopContext";
        case ObjectKind::Cycler:
          return "Cycler";
        case ObjectKind::Joiner:
          return "Joiner";
      }
  }
  return "object";
}

}  // namespace textedge::detail::jinja
