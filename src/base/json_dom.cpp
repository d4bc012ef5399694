#include "base/json_dom.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstring>

namespace textedge::detail {

namespace {
const char* kind_name(simdjson::dom::element_type t) {
  using T = simdjson::dom::element_type;
  switch (t) {
    case T::ARRAY: return "array";
    case T::OBJECT: return "object";
    case T::INT64: case T::UINT64: return "integer";
    case T::DOUBLE: return "number";
    case T::STRING: return "string";
    case T::BOOL: return "boolean";
    case T::NULL_VALUE: return "null";
  }
  return "value";
}

std::string key_path(const std::string& base, std::string_view key) {
  std::string out = base.empty() ? "$" : base;
  bool plain = !key.empty();
  for (char c : key) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return out + "." + std::string(key);
  out += "[\"";
  out += key;
  out += "\"]";
  return out;
}
}  // namespace

void Json::fail(const std::string& message) const { throw LoadError(*file_, path_.empty() ? "$" : path_, message); }

Json Json::get(std::string_view key) const {
  if (!element_.is_object()) fail(std::string("expected an object, found ") + kind_name(element_.type()));
  simdjson::dom::element child;
  if (element_.get_object().at_key(key).get(child)) fail("missing member \"" + std::string(key) + "\"");
  return Json(child, key_path(path_, key), file_);
}

std::optional<Json> Json::find(std::string_view key) const {
  if (!element_.is_object()) fail(std::string("expected an object, found ") + kind_name(element_.type()));
  simdjson::dom::element child;
  if (element_.get_object().at_key(key).get(child) || child.is_null()) return std::nullopt;
  return Json(child, key_path(path_, key), file_);
}

std::string_view Json::str() const {
  std::string_view s;
  if (element_.get_string().get(s)) fail(std::string("expected a string, found ") + kind_name(element_.type()));
  return s;
}

std::int64_t Json::integer() const {
  std::int64_t v;
  if (element_.get_int64().get(v)) {
    // An integral float (1.0, as serde accepts) within int64's range; the range is checked before
    // the cast, which would be undefined beyond it.
    constexpr double kTwoTo63 = 9223372036854775808.0;
    double d;
    if (!element_.get_double().get(d) && d >= -kTwoTo63 && d < kTwoTo63 && d == std::trunc(d))
      return static_cast<std::int64_t>(d);
    fail(std::string("expected an integer, found ") + kind_name(element_.type()));
  }
  return v;
}

double Json::number() const {
  double v;
  if (element_.get_double().get(v)) fail(std::string("expected a number, found ") + kind_name(element_.type()));
  return v;
}

bool Json::boolean() const {
  bool v;
  if (element_.get_bool().get(v)) fail(std::string("expected a boolean, found ") + kind_name(element_.type()));
  return v;
}

std::vector<Json> Json::array() const {
  simdjson::dom::array a;
  if (element_.get_array().get(a)) fail(std::string("expected an array, found ") + kind_name(element_.type()));
  std::vector<Json> out;
  out.reserve(a.size());
  std::size_t i = 0;
  for (simdjson::dom::element e : a) out.emplace_back(e, (path_.empty() ? "$" : path_) + "[" + std::to_string(i++) + "]", file_);
  return out;
}

std::vector<std::pair<std::string_view, Json>> Json::members() const {
  simdjson::dom::object o;
  if (element_.get_object().get(o)) fail(std::string("expected an object, found ") + kind_name(element_.type()));
  std::vector<std::pair<std::string_view, Json>> out;
  out.reserve(o.size());
  for (auto field : o) out.emplace_back(field.key, Json(field.value, key_path(path_, field.key), file_));
  return out;
}

std::size_t Json::size() const {
  if (element_.is_array()) return element_.get_array().value_unsafe().size();
  if (element_.is_object()) return element_.get_object().value_unsafe().size();
  fail(std::string("expected an array or object, found ") + kind_name(element_.type()));
}

std::string Json::string_or(std::string_view key, std::string_view fallback) const {
  auto v = find(key);
  return std::string(v ? v->str() : fallback);
}
bool Json::bool_or(std::string_view key, bool fallback) const {
  auto v = find(key);
  return v ? v->boolean() : fallback;
}
std::int64_t Json::int_or(std::string_view key, std::int64_t fallback) const {
  auto v = find(key);
  return v ? v->integer() : fallback;
}

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw LoadError(path, "", std::string("cannot open: ") + std::strerror(errno));
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) throw LoadError(path, "", "read error");
  return data;
}

MappedFile::MappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LoadError(path, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw LoadError(path, "", std::string("cannot read: ") + std::strerror(e));
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      throw LoadError(path, "", std::string("cannot map: ") + std::strerror(e));
    }
    data_ = static_cast<const char*>(p);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

namespace {
// Integers beyond 64 bits are valid JSON (transformers writes model_max_length as
// 1000000000000000019884624838656) but simdjson refuses them; rewrite such literals as floats.
std::string widen_big_integers(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.append(text.substr(i, j - i));
      i = j;
    } else if ((c >= '0' && c <= '9') || c == '-') {
      std::size_t j = i + (c == '-');
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
      bool integer = j == text.size() || (text[j] != '.' && text[j] != 'e' && text[j] != 'E');
      out.append(text.substr(i, j - i));
      if (integer && j - i >= 19) out += ".0";
      i = j;
    } else {
      out.push_back(c);
      ++i;
    }
  }
  return out;
}
}  // namespace

JsonDocument::JsonDocument(std::string_view text, std::string file)
    : JsonDocument(simdjson::padded_string(text), std::move(file)) {}

JsonDocument::JsonDocument(simdjson::padded_string padded, std::string file)
    : parser_(std::make_unique<simdjson::dom::parser>()), file_(std::make_shared<const std::string>(std::move(file))) {
  auto err = parser_->parse(padded).get(root_);
  if (err == simdjson::NUMBER_ERROR || err == simdjson::NUMBER_OUT_OF_RANGE) {
    simdjson::padded_string widened(widen_big_integers(std::string_view(padded.data(), padded.size())));
    err = parser_->parse(widened).get(root_);
  }
  if (err) throw LoadError(*file_, "", std::string("invalid JSON: ") + simdjson::error_message(err));
}

JsonDocument JsonDocument::load(const std::string& path) {
  simdjson::padded_string padded;
  if (simdjson::padded_string::load(path).get(padded)) read_file(path);  // throws with the reason
  return JsonDocument(std::move(padded), path);
}

Json JsonDocument::root() const { return Json(root_, "$", file_); }

}  // namespace textedge::detail
