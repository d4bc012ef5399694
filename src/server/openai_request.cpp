#include "server/openai_request.hpp"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

#include "base/json_string.hpp"
#include "server/api_error.hpp"

namespace textedge::server {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

element parse_body(simdjson::dom::parser& parser, std::string_view body) {
  element root;
  if (auto error = parser.parse(body.data(), body.size()).get(root)) {
    throw ApiError(400, std::string("The request body is not valid JSON: ") + simdjson::error_message(error), "", "invalid_json");
  }
  if (!root.is_object()) throw ApiError(400, "The request body must be a JSON object.", "", "invalid_json");
  return root;
}

// A member that is present and not null.
std::optional<element> member(object o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e) || e.is_null()) return std::nullopt;
  return e;
}

std::string_view as_string(element e, const std::string& field) {
  if (!e.is_string()) throw invalid_type(field, "a string");
  return e.get_string().value_unsafe();
}

bool as_bool(element e, const std::string& field) {
  if (!e.is_bool()) throw invalid_type(field, "a boolean");
  return e.get_bool().value_unsafe();
}

double as_number(element e, const std::string& field, double lo, double hi) {
  if (!e.is_number()) throw invalid_type(field, "a number");
  double v = e.get_double().value_unsafe();
  if (!(v >= lo && v <= hi)) {
    throw invalid_value(field, "expected a number between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                                   simdjson::minify(e) + ".");
  }
  return v;
}

// An integer; integral doubles such as 8.0 count, as pydantic's lax mode has them.
std::int64_t as_integer(element e, const std::string& field, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  if (e.is_int64()) {
    v = e.get_int64().value_unsafe();
  } else if (e.is_double() && std::nearbyint(e.get_double().value_unsafe()) == e.get_double().value_unsafe() &&
             std::fabs(e.get_double().value_unsafe()) < 9e15) {
    v = static_cast<std::int64_t>(e.get_double().value_unsafe());
  } else if (e.is_uint64()) {
    v = std::numeric_limits<std::int64_t>::max();
  } else {
    throw invalid_type(field, "an integer");
  }
  if (v < lo || v > hi) {
    throw invalid_value(field, "expected an integer between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                                   simdjson::minify(e) + ".");
  }
  return v;
}

array as_array(element e, const std::string& field) {
  if (!e.is_array()) throw invalid_type(field, "an array");
  return e.get_array().value_unsafe();
}

object as_object(element e, const std::string& field) {
  if (!e.is_object()) throw invalid_type(field, "an object");
  return e.get_object().value_unsafe();
}

TokenId as_token_id(element e, const std::string& field, std::size_t vocab_size) {
  return static_cast<TokenId>(as_integer(e, field, 0, static_cast<std::int64_t>(vocab_size) - 1));
}

void read_stop(object o, GenerationParams& p) {
  auto stop = member(o, "stop");
  if (!stop) return;
  auto add = [&](element e, const std::string& field) {
    std::string_view s = as_string(e, field);
    if (s.empty()) throw invalid_value(field, "a stop string must not be empty.");
    p.stop.emplace_back(s);
  };
  if (stop->is_string()) {
    add(*stop, "stop");
  } else if (stop->is_array()) {
    std::size_t i = 0;
    for (element s : array(stop->get_array().value_unsafe())) add(s, "stop[" + std::to_string(i++) + "]");
  } else {
    throw invalid_type("stop", "a string or an array of strings");
  }
}

void read_params(object o, GenerationParams& p, std::size_t vocab_size, bool chat) {
  if (auto e = member(o, "model")) p.model = as_string(*e, "model");
  // max_completion_tokens is OpenAI's newer name; it wins when both are given.
  for (const char* name : {"max_tokens", "max_completion_tokens"}) {
    if (auto e = member(o, name)) p.max_tokens = static_cast<std::size_t>(as_integer(*e, name, 1, 1 << 30));
  }
  if (!chat && !p.max_tokens) p.max_tokens = 16;  // OpenAI's default for completions
  if (auto e = member(o, "n")) p.n = static_cast<std::size_t>(as_integer(*e, "n", 1, 128));
  if (auto e = member(o, "stream")) p.stream = as_bool(*e, "stream");
  if (auto e = member(o, "stream_options")) {
    object so = as_object(*e, "stream_options");
    if (auto u = member(so, "include_usage")) p.include_usage = as_bool(*u, "stream_options.include_usage");
    if (!p.stream) throw invalid_value("stream_options", "stream_options is only allowed when stream is true.");
  }
  Sampling& s = p.sampling;
  if (auto e = member(o, "temperature")) s.temperature = as_number(*e, "temperature", 0, 2);
  if (auto e = member(o, "top_p")) s.top_p = as_number(*e, "top_p", 0, 1);
  if (auto e = member(o, "min_p")) s.min_p = as_number(*e, "min_p", 0, 1);
  if (auto e = member(o, "top_k")) s.top_k = as_integer(*e, "top_k", -1, 1 << 30);
  if (auto e = member(o, "seed")) s.seed = as_integer(*e, "seed", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  if (auto e = member(o, "frequency_penalty")) s.frequency_penalty = as_number(*e, "frequency_penalty", -2, 2);
  if (auto e = member(o, "presence_penalty")) s.presence_penalty = as_number(*e, "presence_penalty", -2, 2);
  if (auto e = member(o, "repetition_penalty")) s.repetition_penalty = as_number(*e, "repetition_penalty", 0, 1e9);
  if (auto e = member(o, "logit_bias")) {
    for (auto [key, value] : as_object(*e, "logit_bias")) {
      std::string field = "logit_bias." + std::string(key);
      std::int64_t id = -1;
      auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
      if (ec != std::errc() || ptr != key.data() + key.size() || id < 0 || static_cast<std::size_t>(id) >= vocab_size) {
        throw invalid_value("logit_bias", "'" + std::string(key) + "' is not a token id of this model (0 to " +
                                              std::to_string(vocab_size - 1) + ").");
      }
      s.logit_bias.emplace_back(static_cast<TokenId>(id), as_number(value, field, -100, 100));
    }
  }
  read_stop(o, p);
  if (auto e = member(o, "stop_token_ids")) {
    std::size_t i = 0;
    for (element id : as_array(*e, "stop_token_ids")) {
      p.stop_token_ids.push_back(as_token_id(id, "stop_token_ids[" + std::to_string(i++) + "]", vocab_size));
    }
  }
  if (auto e = member(o, "min_tokens")) p.min_tokens = static_cast<std::size_t>(as_integer(*e, "min_tokens", 0, 1 << 30));
  if (auto e = member(o, "ignore_eos")) p.ignore_eos = as_bool(*e, "ignore_eos");
  if (auto e = member(o, "skip_special_tokens")) p.skip_special_tokens = as_bool(*e, "skip_special_tokens");
  if (auto e = member(o, "include_stop_str_in_output")) p.include_stop_str_in_output = as_bool(*e, "include_stop_str_in_output");
  if (chat) {
    bool logprobs = false;
    if (auto e = member(o, "logprobs")) logprobs = as_bool(*e, "logprobs");
    if (auto e = member(o, "top_logprobs")) {
      int top = static_cast<int>(as_integer(*e, "top_logprobs", 0, 20));
      if (!logprobs) throw invalid_value("top_logprobs", "top_logprobs requires logprobs to be true.");
      p.top_logprobs = top;
    } else if (logprobs) {
      p.top_logprobs = 0;
    }
  } else if (auto e = member(o, "logprobs")) {
    p.top_logprobs = static_cast<int>(as_integer(*e, "logprobs", 0, 20));
  }
  if (p.max_tokens && p.min_tokens > *p.max_tokens) {
    throw invalid_value("min_tokens", "min_tokens must not exceed max_tokens.");
  }
}

// Writes one message for the template (see read_chat_request).
void write_message(element message, std::size_t index, ContentFormat format, std::string& out) {
  std::string field = "messages[" + std::to_string(index) + "]";
  object m = as_object(message, field);
  auto role = member(m, "role");
  if (!role) throw ApiError(400, "Missing required parameter: '" + field + ".role'.", field + ".role", "missing_required_parameter");
  std::string_view role_name = as_string(*role, field + ".role");
  out += '{';
  bool first = true, has_content = false;
  for (auto [key, value] : m) {
    if (!first) out += ',';
    first = false;
    detail::append_json_string(out, key);
    out += ':';
    if (key == "content") has_content = true;
    if (key == "content" && value.is_null()) {
      // As vLLM: a missing or null content is no parts, i.e. "" (or [] for list templates).
      out += format == ContentFormat::kString ? "\"\"" : "[]";
    } else if (key == "content" && value.is_array()) {
      std::string joined;
      std::size_t i = 0, texts = 0;
      for (element part : array(value.get_array().value_unsafe())) {
        std::string pfield = field + ".content[" + std::to_string(i++) + "]";
        object p = as_object(part, pfield);
        auto type = member(p, "type");
        std::string_view t = type ? as_string(*type, pfield + ".type") : "text";
        if (t != "text" && t != "input_text") {
          throw invalid_value(pfield + ".type", "'" + std::string(t) + "' content is not supported: this model takes text only.");
        }
        auto text = member(p, "text");
        if (!text) throw ApiError(400, "Missing required parameter: '" + pfield + ".text'.", pfield + ".text", "missing_required_parameter");
        if (texts++) joined += '\n';
        joined += as_string(*text, pfield + ".text");
      }
      if (format == ContentFormat::kString) {
        detail::append_json_string(out, joined);
      } else {
        out += simdjson::minify(value);
      }
    } else if (key == "content" && !value.is_string() && !value.is_null()) {
      throw invalid_type(field + ".content", "a string or an array of content parts");
    } else if (key == "tool_calls" && role_name == "assistant" && value.is_array()) {
      // Templates read arguments as a mapping (tool_call.arguments|items), so the JSON string
      // OpenAI sends becomes an object, as vLLM does.
      out += '[';
      std::size_t i = 0;
      for (element call : array(value.get_array().value_unsafe())) {
        std::string cfield = field + ".tool_calls[" + std::to_string(i) + "]";
        if (i++) out += ',';
        object c = as_object(call, cfield);
        out += '{';
        bool cfirst = true;
        for (auto [ckey, cvalue] : c) {
          if (!cfirst) out += ',';
          cfirst = false;
          detail::append_json_string(out, ckey);
          out += ':';
          if (ckey != "function" || !cvalue.is_object()) {
            out += simdjson::minify(cvalue);
            continue;
          }
          out += '{';
          bool ffirst = true;
          for (auto [fkey, fvalue] : object(cvalue.get_object().value_unsafe())) {
            if (!ffirst) out += ',';
            ffirst = false;
            detail::append_json_string(out, fkey);
            out += ':';
            if (fkey == "arguments" && fvalue.is_string()) {
              simdjson::dom::parser args_parser;
              element args;
              std::string_view text = fvalue.get_string().value_unsafe();
              if (args_parser.parse(text.data(), text.size()).get(args) || !args.is_object()) {
                throw invalid_value(cfield + ".function.arguments", "the arguments must be a JSON object in a string.");
              }
              out += simdjson::minify(args);
            } else {
              out += simdjson::minify(fvalue);
            }
          }
          out += '}';
        }
        out += '}';
      }
      out += ']';
    } else {
      out += simdjson::minify(value);
    }
  }
  if (!has_content) out += format == ContentFormat::kString ? ",\"content\":\"\"" : ",\"content\":[]";
  out += '}';
}

std::string read_messages(object o, ContentFormat format) {
  auto messages = member(o, "messages");
  if (!messages) throw ApiError(400, "Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  array list = as_array(*messages, "messages");
  if (list.size() == 0) throw invalid_value("messages", "expected a non-empty array.");
  std::string out = "[";
  std::size_t i = 0;
  for (element m : list) {
    if (i) out += ',';
    write_message(m, i++, format, out);
  }
  out += ']';
  return out;
}

std::string read_tools(object o, std::string& out) {
  auto tools = member(o, "tools");
  if (!tools) return {};
  array list = as_array(*tools, "tools");
  std::size_t i = 0;
  for (element tool : list) {
    std::string field = "tools[" + std::to_string(i++) + "]";
    object t = as_object(tool, field);
    auto type = member(t, "type");
    if (type && as_string(*type, field + ".type") != "function") {
      throw invalid_value(field + ".type", "only 'function' tools are supported.");
    }
    auto fn = member(t, "function");
    if (!fn) throw ApiError(400, "Missing required parameter: '" + field + ".function'.", field + ".function", "missing_required_parameter");
    object f = as_object(*fn, field + ".function");
    auto name = member(f, "name");
    if (!name) throw ApiError(400, "Missing required parameter: '" + field + ".function.name'.", field + ".function.name", "missing_required_parameter");
    as_string(*name, field + ".function.name");
    if (auto params = member(f, "parameters")) as_object(*params, field + ".function.parameters");
  }
  out = list.size() ? simdjson::minify(*tools) : std::string();
  return out;
}

bool has_tool(object o, std::string_view name) {
  auto tools = member(o, "tools");
  if (!tools || !tools->is_array()) return false;
  for (element tool : array(tools->get_array().value_unsafe())) {
    element n;
    if (!tool.at_pointer("/function/name").get(n) && n.is_string() && n.get_string().value_unsafe() == name) return true;
  }
  return false;
}

std::string_view prompt_text(element e, const std::string& field) { return as_string(e, field); }

}  // namespace

ContentFormat detect_content_format(std::string_view source) {
  // A template that loops over a message's content takes the list of parts (vLLM's "openai"
  // format); the others read content as a string ("'</think>' in content" is a test, not a loop).
  static const std::regex loop(
      R"(\bfor\s+\w+\s+in\s+(?:message\s*\.\s*content\b|message\s*\[\s*['"]content['"]\s*\]|content\b))");
  return std::regex_search(source.begin(), source.end(), loop) ? ContentFormat::kOpenAI : ContentFormat::kString;
}

ChatRequest read_chat_request(std::string_view body, ContentFormat format, std::size_t vocab_size) {
  simdjson::dom::parser parser;
  object o(parse_body(parser, body).get_object().value_unsafe());
  ChatRequest r;
  read_params(o, r.params, vocab_size, true);
  r.messages_json = read_messages(o, format);
  read_tools(o, r.tools_json);
  if (auto e = member(o, "tool_choice")) {
    if (e->is_string()) {
      std::string_view c = e->get_string().value_unsafe();
      if (c == "auto") r.tool_choice = ToolChoice::kAuto;
      else if (c == "none") r.tool_choice = ToolChoice::kNone;
      else if (c == "required") r.tool_choice = ToolChoice::kRequired;
      else throw invalid_value("tool_choice", "expected 'none', 'auto', 'required' or a named function, got '" + std::string(c) + "'.");
    } else if (e->is_object()) {
      element name;
      if (e->at_pointer("/function/name").get(name) || !name.is_string()) {
        throw invalid_value("tool_choice", "a named tool choice needs function.name.");
      }
      r.tool_choice = ToolChoice::kNamed;
      r.tool_name = name.get_string().value_unsafe();
      if (!has_tool(o, r.tool_name)) {
        throw invalid_value("tool_choice", "the function '" + r.tool_name + "' is not among the request's tools.");
      }
    } else {
      throw invalid_type("tool_choice", "a string or an object");
    }
    if ((r.tool_choice == ToolChoice::kRequired || r.tool_choice == ToolChoice::kNamed) && r.tools_json.empty()) {
      throw invalid_value("tool_choice", "tool_choice needs tools.");
    }
  }
  if (auto e = member(o, "parallel_tool_calls")) r.parallel_tool_calls = as_bool(*e, "parallel_tool_calls");
  if (auto e = member(o, "response_format")) {
    object f = as_object(*e, "response_format");
    auto type = member(f, "type");
    std::string_view t = type ? as_string(*type, "response_format.type") : "";
    if (t == "text") {
      r.response_format = ResponseFormat::kText;
    } else if (t == "json_object") {
      r.response_format = ResponseFormat::kJsonObject;
    } else if (t == "json_schema") {
      r.response_format = ResponseFormat::kJsonSchema;
      auto js = member(f, "json_schema");
      if (!js) throw ApiError(400, "Missing required parameter: 'response_format.json_schema'.", "response_format.json_schema", "missing_required_parameter");
      auto schema = member(as_object(*js, "response_format.json_schema"), "schema");
      r.schema_json = schema ? simdjson::minify(*schema) : "{}";
    } else {
      throw invalid_value("response_format.type", "expected 'text', 'json_object' or 'json_schema'.");
    }
  }
  if (auto e = member(o, "chat_template_kwargs")) {
    as_object(*e, "chat_template_kwargs");
    r.chat_template_kwargs = simdjson::minify(*e);
  }
  if (auto e = member(o, "documents")) r.documents_json = simdjson::minify(as_array(*e, "documents"));
  if (auto e = member(o, "add_generation_prompt")) r.add_generation_prompt = as_bool(*e, "add_generation_prompt");
  if (auto e = member(o, "continue_final_message")) r.continue_final_message = as_bool(*e, "continue_final_message");
  if (r.add_generation_prompt && r.continue_final_message) {
    throw invalid_value("continue_final_message", "continue_final_message and add_generation_prompt cannot both be true.");
  }
  return r;
}

CompletionRequest read_completion_request(std::string_view body, std::size_t vocab_size) {
  simdjson::dom::parser parser;
  object o(parse_body(parser, body).get_object().value_unsafe());
  CompletionRequest r;
  read_params(o, r.params, vocab_size, false);
  auto prompt = member(o, "prompt");
  if (!prompt) throw ApiError(400, "Missing required parameter: 'prompt'.", "prompt", "missing_required_parameter");
  auto read_ids = [&](array ids, const std::string& field) {
    CompletionRequest::Prompt p;
    p.is_ids = true;
    std::size_t i = 0;
    for (element id : ids) p.ids.push_back(as_token_id(id, field + "[" + std::to_string(i++) + "]", vocab_size));
    if (p.ids.empty()) throw invalid_value(field, "a prompt must not be empty.");
    r.prompts.push_back(std::move(p));
  };
  if (prompt->is_string()) {
    r.prompts.push_back({std::string(prompt_text(*prompt, "prompt")), {}, false});
  } else if (prompt->is_array()) {
    array list(prompt->get_array().value_unsafe());
    if (list.size() == 0) throw invalid_value("prompt", "expected a non-empty prompt.");
    element first(list.at(0).value_unsafe());
    if (first.is_number()) {
      read_ids(list, "prompt");
    } else {
      std::size_t i = 0;
      for (element p : list) {
        std::string field = "prompt[" + std::to_string(i++) + "]";
        if (p.is_array()) read_ids(array(p.get_array().value_unsafe()), field);
        else r.prompts.push_back({std::string(prompt_text(p, field)), {}, false});
      }
    }
  } else {
    throw invalid_type("prompt", "a string, an array of strings, an array of token ids or an array of those");
  }
  if (auto e = member(o, "echo")) r.echo = as_bool(*e, "echo");
  return r;
}

TokenizeRequest read_tokenize_request(std::string_view body, ContentFormat format) {
  simdjson::dom::parser parser;
  object o(parse_body(parser, body).get_object().value_unsafe());
  TokenizeRequest r;
  if (auto e = member(o, "model")) r.model = as_string(*e, "model");
  if (member(o, "messages")) {
    r.messages_json = read_messages(o, format);
    r.add_special_tokens = false;  // vLLM's default for chat: the template writes them
    read_tools(o, r.tools_json);
    if (auto e = member(o, "add_generation_prompt")) r.add_generation_prompt = as_bool(*e, "add_generation_prompt");
    if (auto e = member(o, "continue_final_message")) r.continue_final_message = as_bool(*e, "continue_final_message");
    if (auto e = member(o, "chat_template_kwargs")) r.chat_template_kwargs = simdjson::minify(as_object(*e, "chat_template_kwargs"));
  } else if (auto e = member(o, "prompt")) {
    r.prompt = as_string(*e, "prompt");
  } else {
    throw ApiError(400, "Missing required parameter: 'prompt' (or 'messages').", "prompt", "missing_required_parameter");
  }
  if (auto e = member(o, "add_special_tokens")) r.add_special_tokens = as_bool(*e, "add_special_tokens");
  if (auto e = member(o, "return_token_strs")) r.return_token_strs = as_bool(*e, "return_token_strs");
  return r;
}

DetokenizeRequest read_detokenize_request(std::string_view body, std::size_t vocab_size) {
  simdjson::dom::parser parser;
  object o(parse_body(parser, body).get_object().value_unsafe());
  DetokenizeRequest r;
  if (auto e = member(o, "model")) r.model = as_string(*e, "model");
  auto tokens = member(o, "tokens");
  if (!tokens) throw ApiError(400, "Missing required parameter: 'tokens'.", "tokens", "missing_required_parameter");
  std::size_t i = 0;
  for (element id : as_array(*tokens, "tokens")) r.tokens.push_back(as_token_id(id, "tokens[" + std::to_string(i++) + "]", vocab_size));
  return r;
}

}  // namespace textedge::server
