// Errors thrown by textedge's public API. Every error says what went wrong and where.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "textedge/export.hpp"

namespace textedge {

// Base of every exception textedge throws.
class TEXTEDGE_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A model file could not be loaded: missing, malformed JSON, or an unsupported component.
// what() reads "FILE: at JSON_PATH: MESSAGE".
class TEXTEDGE_API LoadError : public Error {
 public:
  LoadError(std::string file, std::string json_path, const std::string& message)
      : Error(file + ": at " + (json_path.empty() ? std::string("$") : json_path) + ": " + message),
        file_(std::move(file)),
        json_path_(std::move(json_path)) {}
  const std::string& file() const noexcept { return file_; }
  const std::string& json_path() const noexcept { return json_path_; }

 private:
  std::string file_;
  std::string json_path_;
};

// Input text or ids the caller passed are invalid (e.g. text that is not UTF-8).
// byte_offset() is the position of the first offending byte (or element).
class TEXTEDGE_API InputError : public Error {
 public:
  InputError(const std::string& message, std::size_t byte_offset)
      : Error(message + " at byte offset " + std::to_string(byte_offset)), byte_offset_(byte_offset) {}
  std::size_t byte_offset() const noexcept { return byte_offset_; }

 private:
  std::size_t byte_offset_;
};

// A JSON Schema (or a tools array) that cannot be turned into a regular expression: malformed,
// or using a keyword textedge does not support. what() reads "JSON Schema at JSON_PATH: MESSAGE".
class TEXTEDGE_API SchemaError : public Error {
 public:
  SchemaError(std::string json_path, const std::string& message)
      : Error("JSON Schema at " + (json_path.empty() ? std::string("$") : json_path) + ": " + message),
        json_path_(std::move(json_path)) {}
  const std::string& json_path() const noexcept { return json_path_; }

 private:
  std::string json_path_;
};

// A chat template failed to compile or render: a syntax error, an undefined value used in a way
// that fails, a sandbox refusal, a limit reached, or raise_exception() called by the template.
// what() reads "MESSAGE (line L, column C)"; message() is MESSAGE alone (for raise_exception, the
// template's own text); kind() is the Jinja2 exception name ("TemplateSyntaxError", "UndefinedError",
// "SecurityError", "TemplateError" for raise_exception, "TypeError", "LimitError", ...).
class TEXTEDGE_API TemplateError : public Error {
 public:
  TemplateError(std::string kind, std::string message, std::size_t line, std::size_t column)
      : Error(message + (line ? " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")"
                              : std::string())),
        kind_(std::move(kind)),
        message_(std::move(message)),
        line_(line),
        column_(column) {}
  const std::string& kind() const noexcept { return kind_; }
  const std::string& message() const noexcept { return message_; }
  std::size_t line() const noexcept { return line_; }  // 1-based; 0 when unknown
  std::size_t column() const noexcept { return column_; }

 private:
  std::string kind_;
  std::string message_;
  std::size_t line_;
  std::size_t column_;
};

}  // namespace textedge
