// ChatTemplate: transformers' apply_chat_template on textedge's Jinja engine (src/chat/jinja/).
#include "textedge/chat_template.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "base/json_dom.hpp"
#include "base/small_vector.hpp"
#include "chat/chat_values.hpp"
#include "chat/jinja/template.hpp"

namespace textedge {

namespace jinja = detail::jinja;

namespace {
#include "default_template.inc"  // kDefaultTemplate, generated from src/chat/default_template.jinja

// Reads `what`'s JSON text into values for one render (see jinja::read_json), or only checks it
// (`build` false: a member no template reads), refusing what is not JSON with a clear error.
jinja::Value read_request_json(std::string_view json, jinja::ValueArena& arena, const char* what, bool build = true) {
  try {
    if (!build) {
      jinja::check_json(json);
      return {};
    }
    return jinja::read_json(json, &arena);
  } catch (const jinja::JsonSyntaxError& e) {
    throw InputError(std::string(what) + " is not valid JSON (" + e.reason() + ")", e.offset());
  }
}

// What a JSON value is, for errors: "a string", "an array", ...
std::string json_kind(const jinja::Value& v) {
  if (v.is_none()) return "null";
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_list()) return "an array";
  return "an object";
}

// The byte offset of the value of the top-level member `name` of a JSON object that has been
// read already, so that an error points at it; 0 when it is not found (a key spelt with escapes).
// Scans only on the error path: a render never pays for it.
std::size_t member_value_offset(std::string_view json, std::string_view name) {
  int depth = 0;
  bool at_key = false;  // the next string at depth 1 is a key
  for (std::size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '"') {
      std::size_t end = i + 1;
      while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
      if (at_key && json.substr(i + 1, end - i - 1) == name) {
        std::size_t value = json.find_first_not_of(" \t\n\r", json.find(':', end) + 1);
        return value == std::string_view::npos ? 0 : value;
      }
      at_key = false;
      i = end;
    } else if (c == '{' || c == '[') {
      at_key = ++depth == 1;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',') {
      at_key = depth == 1;
    }
  }
  return 0;
}

// The variables transformers passes to every render, whatever the conversation.
const std::set<std::string>& provided_variables() {
  static const std::set<std::string> names = {"messages",
                                              "tools",
                                              "documents",
                                              "add_generation_prompt",
                                              "bos_token",
                                              "eos_token",
                                              "unk_token",
                                              "sep_token",
                                              "pad_token",
                                              "cls_token",
                                              "mask_token",
                                              "additional_special_tokens",
                                              "raise_exception",
                                              "strftime_now",
                                              "range",
                                              "dict",
                                              "namespace",
                                              "cycler",
                                              "joiner",
                                              "lipsum",
                                              "true",
                                              "false",
                                              "none",
                                              "True",
                                              "False",
                                              "None",
                                              "loop",
                                              "self",
                                              "varargs",
                                              "kwargs",
                                              "caller"};
  return names;
}

std::string cut_after_final_message(const std::string& rendered, std::string final) {
  auto strip = [](std::string_view s) {
    const char* ws = " \t\n\r\f\v";
    std::size_t b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return std::string_view();
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
  };
  auto lstrip_size = [](std::string_view s) {
    std::size_t b = s.find_first_not_of(" \t\n\r\f\v");
    return b == std::string_view::npos ? std::size_t{0} : s.size() - b;
  };
  std::string_view stripped = strip(final);
  std::size_t at = rendered.rfind(stripped);
  if (at == std::string::npos)
    throw Error(
        "continue_final_message is set but the final message does not appear in the chat after applying the chat "
        "template (the template may delete portions of it)");
  std::size_t keep = lstrip_size(final);
  if (rendered.compare(at, keep, final) == 0) return rendered.substr(0, at + keep);
  return rendered.substr(0, at + stripped.size());
}
}  // namespace

struct ChatTemplate::Impl {
  std::vector<std::pair<std::string, std::shared_ptr<const jinja::Template>>> templates;
  ChatSpecialTokens special;
  std::vector<jinja::Variable> special_values;  // `special` as template variables (names view `special`)

  // The request members apply_request builds; the others are checked, not built. tools and
  // documents only when a template names them (the renderer drops variables a template never
  // names) or, for tools, when they choose the template (a "tool_use" template).
  std::vector<std::string_view> request_members;
  bool reads(std::string_view member) const {
    return std::find(request_members.begin(), request_members.end(), member) != request_members.end();
  }

  // Once the templates are in.
  void finish() {
    make_special_values();
    request_members = {"messages", "chat_template_kwargs", "add_generation_prompt", "continue_final_message"};
    auto named = [&](std::string_view name) {
      return std::any_of(templates.begin(), templates.end(), [&](const auto& t) { return t.second->mentions(name); });
    };
    if (named("tools") || templates.size() > 1) request_members.push_back("tools");
    if (named("documents")) request_members.push_back("documents");
  }

  void make_special_values() {
    // Borrowed: `special` lives as long as the template, which outlives every render.
    for (auto& [k, v] : special.tokens) special_values.emplace_back(k, jinja::Value::borrowed(v));
    if (!special.additional_special_tokens.empty()) {
      std::vector<jinja::Value> list;
      for (auto& t : special.additional_special_tokens) list.push_back(jinja::Value::borrowed(t));
      special_values.emplace_back("additional_special_tokens", jinja::Value::list(std::move(list)));
    }
  }
  std::string origin;
  std::vector<std::string> sources;  // beside templates

  void add(std::string name, std::string_view source, const std::string& template_origin) {
    templates.emplace_back(std::move(name), jinja::Template::compile(source, template_origin));
    sources.emplace_back(source);
  }

  const jinja::Template& choose(const ChatOptions& options, bool has_tools) const {
    auto find = [&](std::string_view name) -> const jinja::Template* {
      for (auto& [n, t] : templates)
        if (n == name) return t.get();
      return nullptr;
    };
    if (templates.size() == 1 && !options.template_name) return *templates[0].second;
    if (options.template_name) {
      if (auto* t = find(*options.template_name)) return *t;
      throw Error(origin + ": no chat template named \"" + *options.template_name + "\"");
    }
    if (has_tools)
      if (auto* t = find("tool_use")) return *t;
    if (auto* t = find("default")) return *t;
    throw Error(origin + ": several chat templates and none is named \"default\"; choose one with template_name");
  }
};

std::string_view ChatTemplate::default_source() { return kDefaultTemplate; }

ChatTemplate ChatTemplate::from_string(std::string_view source, ChatSpecialTokens special_tokens,
                                       const std::string& name) {
  auto impl = std::make_shared<Impl>();
  impl->origin = name;
  impl->special = std::move(special_tokens);
  impl->add("default", source, name);
  impl->finish();
  return ChatTemplate(std::move(impl));
}

ChatTemplate ChatTemplate::load(const std::string& model_dir) {
  namespace fs = std::filesystem;
  auto impl = std::make_shared<Impl>();
  fs::path dir(model_dir);
  if (!fs::is_directory(dir)) dir = dir.parent_path();  // a tokenizer.json or tokenizer_config.json path
  fs::path config_path = dir / "tokenizer_config.json";
  std::optional<detail::JsonDocument> config;
  if (fs::exists(config_path)) {
    config.emplace(detail::JsonDocument::load(config_path.string()));
    detail::Json root = config->root();
    if (!root.is_object()) root.fail("expected a tokenizer_config.json object");
    for (const char* key :
         {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}) {
      auto v = root.find(key);
      if (!v) continue;
      if (v->is_string())
        impl->special.tokens[key] = std::string(v->str());
      else if (v->is_object())
        impl->special.tokens[key] = std::string(v->get("content").str());
    }
    if (auto extra = root.find("additional_special_tokens")) {
      for (const auto& t : extra->array())
        impl->special.additional_special_tokens.emplace_back(t.is_string() ? t.str() : t.get("content").str());
    }
  }
  fs::path jinja_file = dir / "chat_template.jinja";
  if (fs::exists(jinja_file)) {
    impl->origin = jinja_file.string();
    impl->add("default", detail::read_file(impl->origin), impl->origin);
  } else if (config && config->root().find("chat_template")) {
    detail::Json t = config->root().get("chat_template");
    impl->origin = config_path.string();
    if (t.is_string()) {
      impl->add("default", t.str(), impl->origin);
    } else if (t.is_array()) {
      for (const auto& entry : t.array())
        impl->add(std::string(entry.get("name").str()), entry.get("template").str(),
                  impl->origin + " (" + std::string(entry.get("name").str()) + ")");
      if (impl->templates.empty()) t.fail("expected at least one named template");
    } else {
      t.fail("expected a template string or a list of {name, template}");
    }
  } else {
    impl->origin = "textedge default chat template";
    impl->add("default", kDefaultTemplate, impl->origin);
  }
  impl->finish();
  return ChatTemplate(std::move(impl));
}

namespace {
// The parts of a chat request, read once; undefined for what is absent.
struct RequestParts {
  jinja::Value messages, tools, documents, kwargs;
  bool add_generation_prompt = true, continue_final_message = false;  // the options', or the request's
  std::string_view request;  // apply_request's whole request; empty for apply()

  // Where a part's value begins in the caller's JSON, for errors.
  std::size_t offset_of(std::string_view member) const {
    return request.empty() ? 0 : member_value_offset(request, member);
  }
};

// The text continue_final_message continues: the final message's content, or the last text
// part of it (transformers' rule).
std::string final_message_text(const RequestParts& parts) {
  const jinja::Value& messages = parts.messages;
  if (messages.items().empty())
    throw InputError("continue_final_message is set but messages is empty", parts.offset_of("messages"));
  const jinja::Value& last = messages.items().back();
  if (const jinja::Value* content = last.is_dict() ? last.dict().find(std::string_view("content")) : nullptr) {
    if (content->is_string()) return std::string(content->str());
    if (content->is_list()) {
      auto parts = content->items();
      for (std::size_t i = parts.size(); i-- > 0;) {
        const jinja::Value* text = parts[i].is_dict() ? parts[i].dict().find(std::string_view("text")) : nullptr;
        if (text && text->is_string()) return std::string(text->str());
      }
    }
  }
  throw InputError(
      "continue_final_message is set but we could not find any text to continue in the final message (messages[" +
          std::to_string(messages.items().size() - 1) + "])",
      parts.offset_of("messages"));
}

// The two flags come from `parts` (the request's own override the options'); `options` gives the
// template's name and the pinned time.
std::string render_request(const ChatTemplate::Impl& impl, const RequestParts& parts, const ChatOptions& options);
}  // namespace

std::string ChatTemplate::apply(std::string_view messages_json, const ChatOptions& options) const {
  jinja::ValueArena arena;  // the request's values: outlives the render
  RequestParts parts;
  parts.add_generation_prompt = options.add_generation_prompt;
  parts.continue_final_message = options.continue_final_message;
  parts.messages = read_request_json(messages_json, arena, "messages");
  if (!options.tools.empty()) parts.tools = read_request_json(options.tools, arena, "tools", impl_->reads("tools"));
  if (!options.documents.empty())
    parts.documents = read_request_json(options.documents, arena, "documents", impl_->reads("documents"));
  if (!options.chat_template_kwargs.empty())
    parts.kwargs = read_request_json(options.chat_template_kwargs, arena, "chat_template_kwargs");
  return render_request(*impl_, parts, options);
}

std::string detail::apply_values(const ChatTemplate& chat, const ChatValues& values, const ChatOptions& options) {
  RequestParts parts{values.messages,
                     values.tools,
                     values.documents,
                     values.chat_template_kwargs,
                     options.add_generation_prompt,
                     options.continue_final_message,
                     {}};
  return render_request(*chat.impl(), parts, options);
}

std::string ChatTemplate::apply_request(std::string_view request_json, const ChatOptions& defaults) const {
  jinja::ValueArena arena;  // the request's values: outlives the render
  jinja::Value request;
  try {
    request = jinja::read_json_members(request_json, arena, impl_->request_members);
  } catch (const jinja::JsonSyntaxError& e) {
    throw InputError("the request is not valid JSON (" + e.reason() + ")", e.offset());
  }
  if (!request.is_dict())
    throw InputError("the request must be a JSON object, got " + json_kind(request),
                     request_json.find_first_not_of(" \t\n\r"));
  RequestParts parts;
  parts.add_generation_prompt = defaults.add_generation_prompt;
  parts.continue_final_message = defaults.continue_final_message;
  parts.request = request_json;
  for (const auto& [key, value] : request.dict().entries()) {
    std::string_view name = key.str();
    if (name == "messages") {
      parts.messages = value;
    } else if (name == "tools") {
      parts.tools = value;
    } else if (name == "documents") {
      parts.documents = value;
    } else if (name == "chat_template_kwargs") {
      parts.kwargs = value;
    } else if (name == "add_generation_prompt" || name == "continue_final_message") {
      if (!value.is_bool())
        throw InputError(std::string(name) + " must be true or false, got " + json_kind(value),
                         member_value_offset(request_json, name));
      (name == "add_generation_prompt" ? parts.add_generation_prompt : parts.continue_final_message) =
          value.as_bool();
    }
  }
  if (parts.messages.is_undefined()) throw InputError("the request has no \"messages\"", 0);
  return render_request(*impl_, parts, defaults);
}

namespace {
std::string render_request(const ChatTemplate::Impl& impl, const RequestParts& parts, const ChatOptions& options) {
  if (parts.add_generation_prompt && parts.continue_final_message)
    throw Error(
        "continue_final_message and add_generation_prompt are not compatible (add_generation_prompt is true unless set "
        "to false)");
  if (!parts.messages.is_list())
    throw InputError("messages must be a JSON array, got " + json_kind(parts.messages), parts.offset_of("messages"));
  // Later variables win (the renderer sets them in order): kwargs over special tokens, the
  // conversation's own variables over both.
  jinja::SmallVector<jinja::Variable, 16> vars;  // names view the request, `impl` or literals
  const jinja::DictObject* kwargs = nullptr;
  if (!parts.kwargs.is_undefined() && !parts.kwargs.is_none()) {
    if (!parts.kwargs.is_dict())
      throw InputError("chat_template_kwargs must be a JSON object, got " + json_kind(parts.kwargs),
                       parts.offset_of("chat_template_kwargs"));
    kwargs = &parts.kwargs.dict();
  }
  vars.reserve(impl.special_values.size() + (kwargs ? kwargs->size() : 0) + 4);
  for (const auto& v : impl.special_values) vars.push_back(v);
  if (kwargs)
    for (const auto& [key, value] : kwargs->entries()) vars.emplace_back(key.str(), value);
  std::string final_text;
  if (parts.continue_final_message) final_text = final_message_text(parts);
  vars.emplace_back("messages", parts.messages);
  vars.emplace_back("tools", parts.tools.is_undefined() ? jinja::Value::none() : parts.tools);
  vars.emplace_back("documents", parts.documents.is_undefined() ? jinja::Value::none() : parts.documents);
  vars.emplace_back("add_generation_prompt", jinja::Value(parts.add_generation_prompt));
  bool has_tools = parts.tools.is_list() && !parts.tools.items().empty();
  jinja::RenderLimits limits;
  limits.now = options.now;
  std::string rendered = impl.choose(options, has_tools).render(vars, limits);
  if (parts.continue_final_message) return cut_after_final_message(rendered, final_text);
  return rendered;
}
}  // namespace

std::vector<std::string> ChatTemplate::extra_variables() const {
  std::set<std::string> names;
  for (auto& [n, t] : impl_->templates)
    for (auto& v : t->undeclared_variables())
      if (!provided_variables().count(v)) names.insert(v);
  return {names.begin(), names.end()};
}

const ChatSpecialTokens& ChatTemplate::special_tokens() const { return impl_->special; }

const std::string& ChatTemplate::source(const std::string& name) const {
  for (std::size_t i = 0; i < impl_->templates.size(); ++i) {
    if (name.empty() || impl_->templates[i].first == name) return impl_->sources[i];
  }
  throw Error(impl_->origin + ": no chat template named \"" + name + "\"");
}

std::vector<std::string> ChatTemplate::names() const {
  std::vector<std::string> out;
  for (auto& [n, t] : impl_->templates) out.push_back(n);
  return out;
}

}  // namespace textedge
