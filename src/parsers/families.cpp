// The registry of tool call families (family.hpp). Order is detection order: a family whose
// template markers include another's comes before it (qwen3_coder, glm47 and glm45 also write
// <tool_call>, which alone means hermes, and GLM-4.7's template also has glm45's <arg_key>; so
// does Granite 4, with Granite's <|start_of_role|>; nemotron's <TOOLCALL> comes before
// llama3_json, whose Llama 3 header markers its Llama-based templates share; minimax's bare
// <tool_calls> comes after hunyuan's and jamba's).
#include "parsers/family.hpp"

namespace textedge::detail {

extern const Family kNoCalls, kQwen3Coder, kGlm47, kGlm45, kXlam, kPhi4Mini, kGranite4, kGranite, kGranite20bFc, kHermes,
    kGemma4, kLfm2, kCohere, kApertus, kNemotron, kGigaChat3, kHunyuan, kJamba, kInternLm2, kMistral, kLlama3Json,
    kDeepSeekV3, kDeepSeekV31, kKimiK2, kOlmo3, kHarmony, kPythonic, kMinimaxM2, kMinimax, kSeedOss, kDeepSeekV32, kStep3,
    kKimiK3;

constexpr Family kNoCalls{.name = "none", .models = "no tool calls: all of the answer is content"};

const std::vector<const Family*>& families() {
  static const std::vector<const Family*> list = {
      &kNoCalls,     &kQwen3Coder,  &kGlm47,     &kGlm45,       &kXlam,       &kPhi4Mini,  &kGranite4,
      &kGranite,     &kGranite20bFc, &kHermes,   &kGemma4,      &kLfm2,       &kCohere,    &kApertus,
      &kNemotron,    &kGigaChat3,   &kHunyuan,   &kJamba,       &kInternLm2,  &kMistral,   &kLlama3Json,
      &kDeepSeekV3,  &kDeepSeekV31, &kKimiK2,    &kOlmo3,       &kHarmony,    &kPythonic,  &kMinimaxM2,
      &kMinimax,     &kSeedOss,     &kDeepSeekV32, &kStep3,     &kKimiK3};
  return list;
}

const Family* find_family(std::string_view name) {
  for (const Family* f : families())
    if (f->name == name) return f;
  return nullptr;
}

std::string family_names() {
  std::string s;
  for (const Family* f : families()) s += (s.empty() ? "" : ", ") + std::string(f->name);
  return s;
}

}  // namespace textedge::detail
