// Request bodies into structs: every field checked, errors naming the field as OpenAI does.
#include "server/openai_request.hpp"

#include <gtest/gtest.h>

#include "server/api_error.hpp"

using namespace textedge::server;

namespace {

constexpr std::size_t kVocab = 1000;

ChatRequest chat(const std::string& body, ContentFormat f = ContentFormat::kString) { return read_chat_request(body, f, kVocab); }

// The ApiError a body gives, as "status param code".
std::string error_of(const std::string& body) {
  try {
    chat(body);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.param() + " " + e.code();
  }
  return "no error";
}

const std::string kMsgs = R"("messages":[{"role":"user","content":"hi"}])";

}  // namespace

TEST(ChatRequest, Defaults) {
  ChatRequest r = chat("{" + kMsgs + "}");
  EXPECT_EQ(r.messages_json, R"([{"role":"user","content":"hi"}])");
  EXPECT_FALSE(r.params.max_tokens);
  EXPECT_EQ(r.params.n, 1u);
  EXPECT_FALSE(r.params.stream);
  EXPECT_EQ(r.params.top_logprobs, -1);
  EXPECT_TRUE(r.params.skip_special_tokens);
  EXPECT_TRUE(r.add_generation_prompt);
  EXPECT_EQ(r.tool_choice, ToolChoice::kAuto);
}

TEST(ChatRequest, Fields) {
  ChatRequest r = chat("{" + kMsgs + R"(,"model":"m","max_tokens":5,"max_completion_tokens":7,"n":2,"stream":true,
    "stream_options":{"include_usage":true},"temperature":0.5,"top_p":0.9,"top_k":40,"min_p":0.1,"seed":-3,
    "frequency_penalty":1,"presence_penalty":-1,"logit_bias":{"7":-100},"stop":["a","b"],"stop_token_ids":[9],
    "min_tokens":2,"ignore_eos":true,"skip_special_tokens":false,"include_stop_str_in_output":true,"logprobs":true,
    "top_logprobs":3,"chat_template_kwargs":{"enable_thinking":false},"continue_final_message":true,
    "add_generation_prompt":false,"user":"ignored"})");
  EXPECT_EQ(r.params.model, "m");
  EXPECT_EQ(*r.params.max_tokens, 7u);  // max_completion_tokens wins
  EXPECT_EQ(r.params.n, 2u);
  EXPECT_TRUE(r.params.include_usage);
  EXPECT_EQ(*r.params.sampling.temperature, 0.5);
  EXPECT_EQ(*r.params.sampling.top_k, 40);
  EXPECT_EQ(*r.params.sampling.seed, -3);
  ASSERT_EQ(r.params.sampling.logit_bias.size(), 1u);
  EXPECT_EQ(r.params.sampling.logit_bias[0].first, 7u);
  EXPECT_EQ(r.params.stop, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.params.stop_token_ids, (std::vector<textedge::TokenId>{9}));
  EXPECT_EQ(r.params.top_logprobs, 3);
  EXPECT_EQ(r.chat_template_kwargs, R"({"enable_thinking":false})");
  EXPECT_TRUE(r.continue_final_message);
}

TEST(ChatRequest, ContentPartsAndToolCallArguments) {
  std::string body = R"({"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},
    {"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}}]},
    {"role":"tool","tool_call_id":"c","content":"ok"},{"role":"assistant"}]})";
  EXPECT_EQ(chat(body).messages_json,
            R"([{"role":"user","content":"a\nb"},{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function",)"
            R"("function":{"name":"f","arguments":{"x":1}}}]},{"role":"tool","tool_call_id":"c","content":"ok"},)"
            R"({"role":"assistant","content":""}])");
  EXPECT_TRUE(chat(body, ContentFormat::kOpenAI)
                  .messages_json.starts_with(R"([{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},)"));
}

TEST(ChatRequest, ContentFormatIsDetectedFromLoopsOverContent) {
  EXPECT_EQ(detect_content_format("{% for part in message.content %}{{ part.text }}{% endfor %}"), ContentFormat::kOpenAI);
  EXPECT_EQ(detect_content_format("{% for c in message['content'] %}{% endfor %}"), ContentFormat::kOpenAI);
  EXPECT_EQ(detect_content_format("{% if '</think>' in content %}{% endif %}{{ message.content }}"), ContentFormat::kString);
}

TEST(ChatRequest, ToolChoices) {
  std::string tools = R"(,"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}])";
  EXPECT_EQ(chat("{" + kMsgs + tools + R"(,"tool_choice":"none"})").tool_choice, ToolChoice::kNone);
  EXPECT_EQ(chat("{" + kMsgs + tools + R"(,"tool_choice":"required"})").tool_choice, ToolChoice::kRequired);
  ChatRequest named = chat("{" + kMsgs + tools + R"(,"tool_choice":{"type":"function","function":{"name":"f"}}})");
  EXPECT_EQ(named.tool_choice, ToolChoice::kNamed);
  EXPECT_EQ(named.tool_name, "f");
  EXPECT_EQ(error_of("{" + kMsgs + tools + R"(,"tool_choice":{"type":"function","function":{"name":"g"}}})"),
            "400 tool_choice invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"tool_choice":"required"})"), "400 tool_choice invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + tools + R"(,"tool_choice":"sometimes"})"), "400 tool_choice invalid_value");
}

TEST(ChatRequest, ErrorsNameTheField) {
  EXPECT_EQ(error_of("{"), "400  invalid_json");
  EXPECT_EQ(error_of("[]"), "400  invalid_json");
  EXPECT_EQ(error_of("{}"), "400 messages missing_required_parameter");
  EXPECT_EQ(error_of(R"({"messages":[]})"), "400 messages invalid_value");
  EXPECT_EQ(error_of(R"({"messages":{}})"), "400 messages invalid_type");
  EXPECT_EQ(error_of(R"({"messages":[{"content":"x"}]})"), "400 messages[0].role missing_required_parameter");
  EXPECT_EQ(error_of(R"({"messages":[{"role":"user","content":5}]})"), "400 messages[0].content invalid_type");
  EXPECT_EQ(error_of(R"({"messages":[{"role":"user","content":[{"type":"image_url","image_url":{}}]}]})"),
            "400 messages[0].content[0].type invalid_value");
  EXPECT_EQ(error_of(R"({"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":"{oops"}}]}]})"),
            "400 messages[0].tool_calls[0].function.arguments invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"max_tokens":"5"})"), "400 max_tokens invalid_type");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"max_tokens":0})"), "400 max_tokens invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"temperature":3})"), "400 temperature invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"n":0})"), "400 n invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"stream":"yes"})"), "400 stream invalid_type");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"stream_options":{"include_usage":true}})"), "400 stream_options invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"stop":[""]})"), "400 stop[0] invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"stop":5})"), "400 stop invalid_type");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"logit_bias":{"abc":1}})"), "400 logit_bias invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"logit_bias":{"5000":1}})"), "400 logit_bias invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"stop_token_ids":[1000]})"), "400 stop_token_ids[0] invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"top_logprobs":2})"), "400 top_logprobs invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"top_logprobs":21,"logprobs":true})"), "400 top_logprobs invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"min_tokens":9,"max_tokens":3})"), "400 min_tokens invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"response_format":{"type":"xml"}})"), "400 response_format.type invalid_value");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"tools":[{"type":"function"}]})"), "400 tools[0].function missing_required_parameter");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"chat_template_kwargs":[]})"), "400 chat_template_kwargs invalid_type");
  EXPECT_EQ(error_of("{" + kMsgs + R"(,"continue_final_message":true})"), "400 continue_final_message invalid_value");
}

TEST(CompletionRequest, Prompts) {
  auto r = read_completion_request(R"({"prompt":"hi"})", kVocab);
  ASSERT_EQ(r.prompts.size(), 1u);
  EXPECT_EQ(r.prompts[0].text, "hi");
  EXPECT_EQ(*r.params.max_tokens, 16u);  // OpenAI's default for completions
  r = read_completion_request(R"({"prompt":[1,2,3],"logprobs":2})", kVocab);
  EXPECT_EQ(r.prompts[0].ids, (std::vector<textedge::TokenId>{1, 2, 3}));
  EXPECT_EQ(r.params.top_logprobs, 2);
  r = read_completion_request(R"({"prompt":[[1],[2,3]]})", kVocab);
  EXPECT_EQ(r.prompts.size(), 2u);
  EXPECT_THROW(read_completion_request(R"({"prompt":[1,5000]})", kVocab), ApiError);
  EXPECT_THROW(read_completion_request(R"({"prompt":[]})", kVocab), ApiError);
  EXPECT_THROW(read_completion_request(R"({})", kVocab), ApiError);
}

TEST(ApiError, JsonShape) {
  ApiError e(429, "busy", "", "rate_limit_exceeded");
  EXPECT_EQ(e.to_json(), R"({"error":{"message":"busy","type":"rate_limit_error","param":null,"code":"rate_limit_exceeded"}})");
  EXPECT_EQ(invalid_type("n", "an integer").to_json(),
            R"({"error":{"message":"Invalid type for 'n': expected an integer.","type":"invalid_request_error","param":"n","code":"invalid_type"}})");
}
