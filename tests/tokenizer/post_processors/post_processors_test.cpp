// Post-processors: every expectation below was recorded from the reference (Hugging Face
// tokenizers 0.23.2 through Node): a WordLevel tokenizer.json with vocabulary
// {<unk>:0, hello:1, world:2, <s>:3, </s>:4, [CLS]:5, [SEP]:6, a:7, b:8}, the post-processor
// under test, and encode(text, null, {addSpecialTokens: true}).getIds() for "hello world"
// (ids [1, 2] before post-processing) and "" (no ids).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/json_dom.hpp"
#include "tokenizer/post_processors/post_processor.hpp"

using textedge::LoadError;
using textedge::TokenId;
using textedge::detail::JsonDocument;
using textedge::detail::post_processor_from_json;
using textedge::detail::PostProcessor;

namespace {

std::unique_ptr<PostProcessor> make_processor(std::string_view json) {
  JsonDocument doc(json, "post_processor.json");
  return post_processor_from_json(doc.root());
}

std::vector<TokenId> processed(const PostProcessor& p, std::vector<TokenId> ids) {
  p.process(ids);
  return ids;
}

struct Case {
  const char* name;
  const char* json;
  std::vector<TokenId> hello_world;  // from ids [1, 2]
  std::vector<TokenId> empty;        // from no ids
};

const std::vector<Case>& reference_cases() {
  static const std::vector<Case> cases = {
    {"template_bos", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],"pair":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"<s>","type_id":1}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}})json",
     {3, 1, 2}, {3}},
    {"template_bos_eos", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[4],"tokens":["</s>"]}}})json",
     {3, 1, 2, 4}, {3, 4}},
    {"template_eos_only", R"json({"type":"TemplateProcessing","single":[{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[4],"tokens":["</s>"]}}})json",
     {1, 2, 4}, {4}},
    {"template_sequence_only", R"json({"type":"TemplateProcessing","single":[{"Sequence":{"id":"A","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{}})json",
     {1, 2}, {}},
    {"template_multi_id_special", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"X","ids":[3,7,8],"tokens":["<s>"]}}})json",
     {3, 7, 8, 1, 2}, {3, 7, 8}},
    {"template_empty_ids_special", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[],"tokens":[]}}})json",
     {1, 2}, {}},
    {"template_repeated_sequence", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"<s>","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[4],"tokens":["</s>"]}}})json",
     {3, 1, 2, 1, 2, 3}, {3, 3}},
    {"template_no_sequence", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}})json",
     {3}, {3}},
    {"template_empty", R"json({"type":"TemplateProcessing","single":[],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}})json",
     {}, {}},
    {"template_type_ids_ignored", R"json({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":5}},{"Sequence":{"id":"A","type_id":7}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}})json",
     {3, 1, 2}, {3}},
    {"template_pair_may_use_unknown_special", R"json({"type":"TemplateProcessing","single":[{"Sequence":{"id":"A","type_id":0}}],"pair":[{"Sequence":{"id":"A","type_id":0}},{"Sequence":{"id":"B","type_id":1}},{"SpecialToken":{"id":"</s>","type_id":0}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}})json",
     {1, 2}, {}},
    {"byte_level", R"json({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":false,"use_regex":true})json",
     {1, 2}, {}},
    {"byte_level_without_use_regex", R"json({"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false})json",
     {1, 2}, {}},
    {"roberta", R"json({"type":"RobertaProcessing","sep":["</s>",4],"cls":["<s>",3],"trim_offsets":true,"add_prefix_space":true})json",
     {3, 1, 2, 4}, {3, 4}},
    {"roberta_minimal", R"json({"type":"RobertaProcessing","sep":["</s>",4],"cls":["<s>",3]})json",
     {3, 1, 2, 4}, {3, 4}},
    {"bert", R"json({"type":"BertProcessing","sep":["[SEP]",6],"cls":["[CLS]",5]})json",
     {5, 1, 2, 6}, {5, 6}},
    {"bert_id_outside_vocab", R"json({"type":"BertProcessing","sep":["[SEP]",99],"cls":["[CLS]",4294967295]})json",
     {4294967295, 1, 2, 99}, {4294967295, 99}},
    {"sequence_empty", R"json({"type":"Sequence","processors":[]})json",
     {1, 2}, {}},
    {"sequence_llama3", R"json({"type":"Sequence","processors":[{"type":"ByteLevel","add_prefix_space":true,"trim_offsets":false,"use_regex":true},{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],"pair":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"<s>","type_id":1}},{"Sequence":{"id":"B","type_id":1}}],"special_tokens":{"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}}}]})json",
     {3, 1, 2}, {3}},
    {"sequence_twice", R"json({"type":"Sequence","processors":[{"type":"BertProcessing","sep":["[SEP]",6],"cls":["[CLS]",5]},{"type":"BertProcessing","sep":["</s>",4],"cls":["<s>",3]}]})json",
     {3, 5, 1, 2, 6, 4}, {3, 5, 6, 4}},
  };
  return cases;
}

class ReferenceProcess : public testing::TestWithParam<Case> {};

TEST_P(ReferenceProcess, MatchesReference) {
  const Case& c = GetParam();
  auto p = make_processor(c.json);
  EXPECT_EQ(processed(*p, {1, 2}), c.hello_world);
  EXPECT_EQ(processed(*p, {}), c.empty);
}

INSTANTIATE_TEST_SUITE_P(PostProcessors, ReferenceProcess, testing::ValuesIn(reference_cases()),
                         [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(PostProcessorModels, RealTokenizerFiles) {
  // The post_processor of each model file, parsed in place; expectations from the same
  // templates in the reference (single = [special, $A]).
  struct Model {
    const char* dir;
    std::vector<TokenId> expected;
  };
  for (const Model& m : {Model{"llama3_1", {128000, 1, 2}}, Model{"gemma3", {2, 1, 2}}, Model{"llama2", {1, 1, 2}},
                         Model{"qwen3", {1, 2}}, Model{"deepseek_v3", {1, 2}}, Model{"gptoss", {1, 2}}}) {
    SCOPED_TRACE(m.dir);
    JsonDocument doc = JsonDocument::load(std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + m.dir + "/tokenizer.json");
    auto p = post_processor_from_json(doc.root().get("post_processor"));
    EXPECT_EQ(processed(*p, {1, 2}), m.expected);
  }
}

TEST(PostProcessorDescribe, NamesTheTree) {
  EXPECT_EQ(make_processor(R"({"type":"Sequence","processors":[{"type":"ByteLevel","add_prefix_space":true,)"
                           R"("trim_offsets":false},{"type":"BertProcessing","sep":["[SEP]",6],"cls":["[CLS]",5]}]})")
                ->describe(),
            "Sequence[ByteLevel, BertProcessing]");
}

// ---- Invalid configurations, refused by the reference at load time.

class InvalidPostProcessor : public testing::TestWithParam<const char*> {};

TEST_P(InvalidPostProcessor, ThrowsLoadError) { EXPECT_THROW(make_processor(GetParam()), LoadError); }

#define TEXTEDGE_A R"({"Sequence":{"id":"A","type_id":0}})"
#define TEXTEDGE_BOS R"({"SpecialToken":{"id":"<s>","type_id":0}})"
#define TEXTEDGE_SPECIALS R"({"<s>":{"id":"<s>","ids":[3],"tokens":["<s>"]}})"

INSTANTIATE_TEST_SUITE_P(
    PostProcessors, InvalidPostProcessor,
    testing::Values(
        R"({"type":"Bogus"})", R"({"type":"BertProcessing","sep":["[SEP]",6]})",
        R"({"type":"BertProcessing","sep":["[SEP]",6,3],"cls":["[CLS]",5]})",
        R"({"type":"BertProcessing","sep":["[SEP]",-1],"cls":["[CLS]",5]})",
        R"({"type":"BertProcessing","sep":["[SEP]",4294967296],"cls":["[CLS]",5]})",
        R"({"type":"BertProcessing","sep":[6,"[SEP]"],"cls":["[CLS]",5]})",
        R"({"type":"RobertaProcessing","sep":["</s>",2]})", R"({"type":"ByteLevel"})",
        R"({"type":"ByteLevel","add_prefix_space":true})", R"({"type":"Sequence"})",
        R"({"type":"Sequence","processors":[{"type":"Bogus"}]})",
        R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_A R"(],"special_tokens":{}})",
        R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_A R"(],"pair":[)" TEXTEDGE_A R"(]})",
        R"({"type":"TemplateProcessing","pair":[)" TEXTEDGE_A R"(],"special_tokens":{}})",
        R"({"type":"TemplateProcessing","single":[{"Sequence":{"id":"C","type_id":0}}],"pair":[],"special_tokens":{}})",
        R"({"type":"TemplateProcessing","single":[{"Sequence":{"id":"A","type_id":-1}}],"pair":[],"special_tokens":{}})",
        R"({"type":"TemplateProcessing","single":[{"Sequence":{"id":"A"}}],"pair":[],"special_tokens":{}})",
        R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>"}}],"pair":[],"special_tokens":)" TEXTEDGE_SPECIALS "}",
        R"({"type":"TemplateProcessing","single":["<s>","$A"],"pair":[],"special_tokens":)" TEXTEDGE_SPECIALS "}",
        R"({"type":"TemplateProcessing","single":"<s> $A","pair":[],"special_tokens":)" TEXTEDGE_SPECIALS "}",
        R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_BOS R"(],"pair":[],"special_tokens":{"<s>":{"id":"<s>","ids":[3]}}})",
        R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_BOS R"(],"pair":[],"special_tokens":{"<s>":{"ids":[3],"tokens":["<s>"]}}})",
        R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_BOS R"(],"pair":[],"special_tokens":[{"id":"<s>","ids":[3],"tokens":["<s>"]}]})"));

// The reference loads these but panics on every encode that adds special tokens (an unknown
// special token) or on every encode at all (sequence B in the single template); textedge
// refuses them when loading.
TEST(InvalidPostProcessor, SingleTemplateMustBeUsable) {
  EXPECT_THROW(make_processor(R"({"type":"TemplateProcessing","single":[)" TEXTEDGE_BOS "," TEXTEDGE_A
                              R"(],"pair":[],"special_tokens":{}})"),
               LoadError);
  EXPECT_THROW(make_processor(R"({"type":"TemplateProcessing","single":[{"Sequence":{"id":"B","type_id":1}}],)"
                              R"("pair":[],"special_tokens":{}})"),
               LoadError);
}

TEST(InvalidPostProcessor, MessageNamesThePath) {
  try {
    make_processor(R"({"type":"Sequence","processors":[{"type":"TemplateProcessing","single":[)" TEXTEDGE_A ","
                   R"({"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[],"special_tokens":{}}]})");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.json_path(), "$.processors[0].single[1]");
    EXPECT_NE(std::string(e.what()).find("</s>"), std::string::npos);
  }
}

}  // namespace
