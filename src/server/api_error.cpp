#include "server/api_error.hpp"

#include "base/json_string.hpp"

namespace textedge::server {

const char* ApiError::type() const {
  switch (status_) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 429: return "rate_limit_error";
    default: return status_ >= 500 ? "server_error" : "invalid_request_error";
  }
}

std::string ApiError::to_json() const {
  std::string out = R"({"error":{"message":)";
  detail::append_json_string(out, what());
  out += R"(,"type":)";
  detail::append_json_string(out, type());
  out += R"(,"param":)";
  if (param_.empty()) out += "null"; else detail::append_json_string(out, param_);
  out += R"(,"code":)";
  if (code_.empty()) out += std::to_string(status_); else detail::append_json_string(out, code_);
  out += "}}";
  return out;
}

ApiError invalid_type(const std::string& field, const char* expected) {
  return ApiError(400, "Invalid type for '" + field + "': expected " + expected + ".", field, "invalid_type");
}

ApiError invalid_value(const std::string& field, const std::string& message) {
  return ApiError(400, "Invalid value for '" + field + "': " + message, field, "invalid_value");
}

}  // namespace textedge::server
