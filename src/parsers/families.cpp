// The registry of tool call families (family.hpp). Order is detection order: a family whose
// template markers include another's comes before it (qwen3_coder, glm47 and glm45 also write
// <tool_call>, which alone means hermes; GLM-4.7's template also has glm45's <arg_key>).
#include "parsers/family.hpp"

namespace textedge::detail {

extern const Family kNoCalls, kQwen3Coder, kGlm45, kHermes, kMistral, kLlama3Json, kDeepSeekV3, kDeepSeekV31, kKimiK2,
    kHarmony, kPythonic, kMinimaxM2, kSeedOss, kGlm47, kDeepSeekV32, kStep3, kKimiK3, kMinimax;

constexpr Family kNoCalls{.name = "none", .models = "no tool calls: all of the answer is content"};

const std::vector<const Family*>& families() {
  static const std::vector<const Family*> list = {&kNoCalls,     &kQwen3Coder, &kGlm47,     &kGlm45,   &kHermes,       &kMistral,
                                                  &kLlama3Json,  &kDeepSeekV3, &kDeepSeekV31, &kKimiK2, &kHarmony,      &kPythonic,
                                                  &kMinimaxM2,   &kMinimax,    &kSeedOss,   &kDeepSeekV32, &kStep3, &kKimiK3};
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
