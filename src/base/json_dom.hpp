// A read-only view of a parsed JSON value that knows its file and JSON path, so every loader
// error can say exactly where it is ("tokenizer.json: at $.model.merges[3]: expected ...").
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "textedge/error.hpp"

namespace textedge::detail {

class Json {
 public:
  Json(simdjson::dom::element element, std::string path, std::shared_ptr<const std::string> file)
      : element_(element), path_(std::move(path)), file_(std::move(file)) {}

  const std::string& path() const { return path_; }
  const std::string& file() const { return *file_; }
  [[noreturn]] void fail(const std::string& message) const;

  bool is_null() const { return element_.is_null(); }
  bool is_string() const { return element_.is_string(); }
  bool is_object() const { return element_.is_object(); }
  bool is_array() const { return element_.is_array(); }
  bool is_bool() const { return element_.is_bool(); }
  bool is_number() const { return element_.is_number(); }

  // Member access on an object. get() throws if absent; find() returns nullopt when absent
  // or null.
  Json get(std::string_view key) const;
  std::optional<Json> find(std::string_view key) const;

  std::string_view str() const;
  std::int64_t integer() const;
  double number() const;
  bool boolean() const;
  std::vector<Json> array() const;
  // Object members in document order.
  std::vector<std::pair<std::string_view, Json>> members() const;
  std::size_t size() const;  // array or object size

  // Conveniences for optional members with defaults.
  std::string string_or(std::string_view key, std::string_view fallback) const;
  bool bool_or(std::string_view key, bool fallback) const;
  std::int64_t int_or(std::string_view key, std::int64_t fallback) const;

  simdjson::dom::element raw() const { return element_; }

 private:
  simdjson::dom::element element_;
  std::string path_;
  std::shared_ptr<const std::string> file_;
};

// Owns the parser and the parsed document; root() views into it.
class JsonDocument {
 public:
  // Parses `text`; `file` names it in errors.
  JsonDocument(std::string_view text, std::string file);
  JsonDocument(simdjson::padded_string text, std::string file);
  static JsonDocument load(const std::string& path);
  Json root() const;

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
  std::shared_ptr<const std::string> file_;
};

std::string read_file(const std::string& path);

// A file's bytes mapped read-only: no copy out of the page cache, and a fault maps many pages
// at once (reading 10-33 MB into fresh memory cost a fault per page on our VMs).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);  // throws LoadError naming the file
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view text() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// The `"type"` of a component, failing with the path when absent.
inline std::string_view type_of(const Json& j) { return j.get("type").str(); }

}  // namespace textedge::detail
