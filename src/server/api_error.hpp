// An OpenAI error answer: {"error": {"message", "type", "param", "code"}} with its HTTP status.
#pragma once

#include <string>

#include "textedge/error.hpp"

namespace textedge::server {

class ApiError : public Error {
 public:
  ApiError(int status, std::string message, std::string param = {}, std::string code = {})
      : Error(message), status_(status), param_(std::move(param)), code_(std::move(code)) {}
  int status() const { return status_; }
  const std::string& param() const { return param_; }
  const std::string& code() const { return code_; }
  // OpenAI's error type for the status: invalid_request_error, authentication_error, ...
  const char* type() const;
  std::string to_json() const;

 private:
  int status_;
  std::string param_, code_;
};

// 400 naming the field, the way OpenAI words a type error.
ApiError invalid_type(const std::string& field, const char* expected);
ApiError invalid_value(const std::string& field, const std::string& message);

}  // namespace textedge::server
