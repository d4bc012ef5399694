// ChatTemplate::apply_request's refusals of an OpenAI chat request: each error says what is wrong
// and where (the byte offset of the offending value in the request).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "textedge/chat_template.hpp"

namespace textedge {
namespace {

const ChatTemplate kLength = ChatTemplate::from_string("{{ messages | length }}", {}, "length.jinja");

// apply_request's InputError: its message and its byte offset.
void expect_input_error(const ChatTemplate& t, const std::string& request, const std::string& message,
                        std::size_t offset) {
  try {
    t.apply_request(request);
    ADD_FAILURE() << "accepted " << request;
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), message + " at byte offset " + std::to_string(offset)) << request;
    EXPECT_EQ(e.byte_offset(), offset) << request;
  }
}

// apply_request's other errors: what they say.
void expect_error(const ChatTemplate& t, const std::string& request, const std::string& message) {
  try {
    t.apply_request(request);
    ADD_FAILURE() << "accepted " << request;
  } catch (const Error& e) {
    EXPECT_EQ(e.what(), message) << request;
  }
}

TEST(ChatRequest, NotJsonOrNotAnObject) {
  std::string truncated = R"({"messages": [)";
  try {
    kLength.apply_request(truncated);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("the request is not valid JSON (", 0), 0u) << e.what();
  }
  expect_input_error(kLength, "  [1]", "the request must be a JSON object, got an array", 2);
  expect_input_error(kLength, R"("hi")", "the request must be a JSON object, got a string", 0);
}

TEST(ChatRequest, MessagesMissingOrNotAnArray) {
  expect_input_error(kLength, R"({"tools": []})", "the request has no \"messages\"", 0);
  std::string object = R"({"tools": [], "messages": {"role": "user"}})";
  expect_input_error(kLength, object, "messages must be a JSON array, got an object", object.find("{\"role"));
  std::string null = R"({"messages":null})";
  expect_input_error(kLength, null, "messages must be a JSON array, got null", null.find("null"));
}

TEST(ChatRequest, FlagsMustBeBooleans) {
  std::string add = R"({"messages": [], "add_generation_prompt": "yes"})";
  expect_input_error(kLength, add, "add_generation_prompt must be true or false, got a string", add.find("\"yes\""));
  // A member of the same name inside another value is not the one meant.
  std::string cont =
      R"({"chat_template_kwargs": {"continue_final_message": 2}, "messages": [], "continue_final_message": 1})";
  expect_input_error(kLength, cont, "continue_final_message must be true or false, got a number", cont.rfind('1'));
}

TEST(ChatRequest, KwargsMustBeAnObject) {
  std::string kwargs = R"({"messages": [], "chat_template_kwargs": [1]})";
  expect_input_error(kLength, kwargs, "chat_template_kwargs must be a JSON object, got an array", kwargs.find("[1]"));
  EXPECT_EQ(kLength.apply_request(R"({"messages": [], "chat_template_kwargs": null})"), "0");
}

TEST(ChatRequest, ContinueFinalMessage) {
  expect_error(kLength, R"({"messages": [{"role": "user", "content": "x"}], "continue_final_message": true})",
               "continue_final_message and add_generation_prompt are not compatible (add_generation_prompt is true "
               "unless set to false)");
  std::string empty = R"({"messages": [], "continue_final_message": true, "add_generation_prompt": false})";
  expect_input_error(kLength, empty, "continue_final_message is set but messages is empty", empty.find("[]"));
  std::string image =
      R"({"add_generation_prompt": false, "continue_final_message": true, "messages": [{"role": "user", "content": "a"},
          {"role": "assistant", "content": [{"type": "image"}]}]})";
  expect_input_error(kLength, image,
                     "continue_final_message is set but we could not find any text to continue in the final message "
                     "(messages[1])",
                     image.find("[{\"role"));
  auto roles_only = ChatTemplate::from_string("{% for m in messages %}{{ m.role }}{% endfor %}");
  expect_error(roles_only,
               R"({"messages": [{"role": "assistant", "content": "Once"}], "continue_final_message": true,
                   "add_generation_prompt": false})",
               "continue_final_message is set but the final message does not appear in the chat after applying the "
               "chat template (the template may delete portions of it)");
  EXPECT_EQ(ChatTemplate::from_string("<{{ messages[0].content }}>")
                .apply_request(R"({"messages": [{"role": "assistant", "content": "Once"}],
                                  "continue_final_message": true, "add_generation_prompt": false})"),
            "<Once");
}

// A model with several named templates: the choice fails with the file it came from.
TEST(ChatRequest, TemplateChoiceNamesTheFile) {
  auto dir = std::filesystem::path(testing::TempDir()) / "chat_request_named";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tokenizer_config.json")
      << R"({"chat_template": [{"name": "rag", "template": "R"}, {"name": "tool_use", "template": "T"}]})";
  auto t = ChatTemplate::load(dir.string());
  std::string config = (dir / "tokenizer_config.json").string();
  expect_error(t, R"({"messages": []})",
               config + ": several chat templates and none is named \"default\"; choose one with template_name");
  ChatOptions nope;
  nope.template_name = "nope";
  try {
    t.apply_request(R"({"messages": []})", nope);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), config + ": no chat template named \"nope\"");
  }
}

// A request's messages render the same through apply_request (which reads the request's members
// selectively) and apply (the messages alone), whichever way a template reaches their lists and
// dicts, duplicate keys and dicts of more than 64 members included.
TEST(ChatRequest, MessagesListsAndDictsReadWhenReached) {
  std::string many_members;  // containers past a dict's first 64 members stay read whole
  for (int i = 0; i < 70; ++i) many_members += "\"k" + std::to_string(i) + "\": [" + std::to_string(i) + ", {\"x\": \"y\"}], ";
  const std::string messages = R"([
    {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "url": "u"}]},
    {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
      "function": {"name": "f", "arguments": {"city": "Paris", "n": [1, 2.5, true, null]}}}]},
    {"role": "tool", "content": "{\"t\": 21}", "tool_call_id": "c1", "extra": {}, "empty": [], "extra": "later"},
    {"role": "user", "content": [{"type": "text", "text": "dup"}], "content": [{"type": "text", "text": "kept"}],
     "meta": {"a": 1}, "meta": {"b": [2]}},
    {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "url": "u"}]},
    {)" + many_members + R"("role": "user", "content": "many"}
  ])";
  const char* templates[] = {
      "{% for m in messages %}{{ m.tool_calls[0].function.name if m.tool_calls }}{{ m.content[0].text if m.content is "
      "not string and m.content }}|{% endfor %}",
      "{{ messages | tojson }}",
      "{% for m in messages %}{{ m | tojson }}|{{ m }}|{{ m | length }}|{{ m.items() | list }}|{{ m | dictsort }}{% "
      "endfor %}",
      "{% for m in messages %}{% for k, v in m.items() %}{{ k }}={{ v }};{% endfor %}{{ m.values() | list }}{% endfor "
      "%}",
      "{% for m in messages %}{{ m.get('meta') }}{{ m['content'] }}{{ m.extra is mapping }}{{ m.empty | length }}{% "
      "endfor %}",
      "{% for m in messages %}{{ 'tool_calls' in m }}{{ m.tool_calls is defined }}{{ m == messages[loop.index0] }}{% "
      "endfor %}{{ messages[0] == messages[4] }}{{ messages[0] == messages[3] }}",
      "{% for m in messages %}{% for k in m %}{{ k }}{{ m[k] }}{% endfor %}{% endfor %}",
      "{{ messages[5].k69[1].x }}{{ messages[5].k1 }}{{ messages | map(attribute='content') | list }}",
  };
  for (const char* source : templates) {
    ChatTemplate t = ChatTemplate::from_string(source, {}, "reach.jinja");
    EXPECT_EQ(t.apply_request(R"({"messages": )" + messages + "}"), t.apply(messages)) << source;
  }
}

// apply() only checks the tools and documents of a template that never names them: the same text
// is refused with the same error as by a template that reads them, and valid text renders as if absent.
TEST(ChatRequest, ToolsAndDocumentsNoTemplateReadsAreStillChecked) {
  const ChatTemplate reads = ChatTemplate::from_string("{{ tools }}{{ documents }}", {}, "reads.jinja");
  auto render = [](const ChatTemplate& t, const ChatOptions& o) {
    try {
      return t.apply(R"([{"role": "user", "content": "hi"}])", o);
    } catch (const InputError& e) {
      return std::string(e.what()) + " @" + std::to_string(e.byte_offset());
    }
  };
  for (const char* text : {R"([{"a": 1,}])", "[1, 2", "[\"\\x\"]", "[] []", "[[[[[[[[[[[[[[[[", "\"\xC3\"",
                           R"([{"type": "function", "n": [1, {"x": null}]}])"}) {
    ChatOptions tools, documents;
    tools.tools = text;
    documents.documents = text;
    for (const ChatOptions& o : {tools, documents}) {
      std::string read = render(reads, o);
      bool invalid = read.find(" is not valid JSON (") != std::string::npos;
      EXPECT_EQ(invalid, std::string(text).find("function") == std::string::npos) << text << ": " << read;
      EXPECT_EQ(render(kLength, o), invalid ? read : "1") << text;
    }
  }
}
}  // namespace
}  // namespace textedge
