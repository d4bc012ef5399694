// The reasoning formats (reasoning_formats.hpp), in detection order: a format whose template
// markers include another's comes first (the <think> formats last, deepseek_r1 and qwen3 before
// think). Sources: each model's chat template, vLLM's vllm/reasoning/*_reasoning_parser.py and
// SGLang's python/sglang/srt/parser/reasoning_parser.py (docs/output_parsing.md, Reasoning).
#include "parsers/reasoning_formats.hpp"

#include <algorithm>

namespace textedge::detail {
namespace {

bool has(std::string_view t, std::string_view s) { return t.find(s) != std::string_view::npos; }
bool has_think(std::string_view t) { return has(t, "<think>") || has(t, "</think>"); }  // R1 templates only strip "</think>"

using RF = ReasoningFormat;

constexpr RF kNone{.name = "none", .models = "no reasoning: all of the answer is content", .passive = true};

// The <think> family. The generation prompt opens the reasoning in QwQ-32B, Qwen3-*-Thinking-2507,
// DeepSeek-R1-0528 (`assistant\n<think>\n`, `<｜Assistant｜><think>\n`) and NVIDIA Nemotron Nano v2
// (`<SPECIAL_11>Assistant\n` then `<think>\n`, unless the system prompt says /no_think).
bool think_prompt_opens(std::string_view t) {
  return has(t, "assistant\\n<think>\\n") || has(t, "<｜Assistant｜><think>\\n") ||
         (has(t, "<SPECIAL_11>Assistant") && has(t, "'<think>\\n'")) ||
         // GLM-4.7: the generation prompt ends with <think> unless enable_thinking is off.
         has(t, "<|assistant|>{{- '</think>' if (enable_thinking is defined and not enable_thinking) else '<think>'");
}

constexpr RF kThink{.name = "think",  // (not "    .name": tests/fuzz/CMakeLists.txt reads those lines as tool families)
    .models = "QwQ, Qwen3 Thinking, OLMo 3 Think, GLM-4.5/4.6, Granite 4.x, Kimi K2 Thinking, StepFun, other <think> models",
    .open = {"<think>"},
    .close = {"</think>"},
    .detect = has_think,
    .prompt_opens = think_prompt_opens,
};
constexpr RF kQwen3{.name = "qwen3",
    .models = "Qwen3, Nemotron Nano v2 (enable_thinking switch)",
    .open = {"<think>"},
    .close = {"</think>"},
    .detect = [](std::string_view t) { return has_think(t) && has(t, "enable_thinking"); },
    .prompt_opens = think_prompt_opens,
};
constexpr RF kDeepSeekR1{.name = "deepseek_r1",
    .models = "DeepSeek-R1 (the template ends the prompt with <think>)",
    .open = {"<think>"},
    .close = {"</think>"},
    .starts_in_reasoning = true,
    .detect = [](std::string_view t) { return has_think(t) && has(t, "<｜Assistant｜>"); },
    .prompt_opens = think_prompt_opens,
};
constexpr RF kMistral{.name = "mistral",
    .models = "Magistral, Mistral Small 4",
    .open = {"[THINK]"},
    .close = {"[/THINK]"},
};
constexpr RF kHarmony{.name = "harmony", .models = "gpt-oss (the harmony tool call format reads the channels)", .passive = true,
                      .tool_format = "harmony"};

// New formats.
constexpr RF kStep3{.name = "step3",
    .models = "Step3 (the prompt opens the reasoning; a <think> it writes is reasoning text)",
    .open = {"<think>"},
    .close = {"</think>"},
    .starts_in_reasoning = true,
    .leading_open = RF::LeadingOpen::text,
    // Step3's templates (<|BOT|>role\n...<|EOT|>) end the generation prompt with '<|BOT|>assistant\n<think>\n'.
    .detect = [](std::string_view t) { return has(t, "<|BOT|>") && has_think(t); },
};
constexpr RF kGranite{.name = "granite",
    .models = "IBM Granite 3.2 (thinking on)",
    .open = {"Here is my thought process:", "Here's my thought process:"},
    .close = {"Here is my response:", "Here's my response:"},
    .detect = [](std::string_view t) { return has(t, "Here is my thought process:") || has(t, "Here's my thought process:"); },
};
constexpr RF kKimi{.name = "kimi",
    .models = "Kimi-VL-Thinking, Kimi k1.5",
    .open = {"◁think▷"},
    .close = {"◁/think▷"},
    .detect = [](std::string_view t) { return has(t, "◁think▷") || has(t, "◁/think▷"); },
};
constexpr RF kSeedOss{.name = "seed_oss",
    .models = "ByteDance Seed-OSS",
    .open = {"<seed:think>"},
    .close = {"</seed:think>"},
    .detect = [](std::string_view t) { return has(t, "<seed:think>"); },
};
constexpr RF kCohere{.name = "cohere",
    .models = "Cohere Command A Reasoning, Command R7B",
    .open = {"<|START_THINKING|>"},
    .close = {"<|END_THINKING|>"},
    // Command 3 wraps the answer in <|START_RESPONSE|>, Command 4 in <|START_TEXT|>.
    .answer_open = {"<|START_RESPONSE|>", "<|START_TEXT|>"},
    .answer_close = {"<|END_RESPONSE|>", "<|END_TEXT|>"},
    .read_by_format = "cohere",  // the cohere tool call format reads Command's blocks itself
    .detect = [](std::string_view t) { return has(t, "<|START_THINKING|>"); },
};
constexpr RF kGemma4{.name = "gemma4",
    .models = "Gemma 4 (thinking on: <|think|> in the system turn)",
    .open = {"<|channel>"},
    .close = {"<channel|>"},
    .label = "thought\n",
    .read_by_format = "gemma4",  // the gemma4 tool call format reads the channel itself
    .detect = [](std::string_view t) { return has(t, "<|channel>") && has(t, "<channel|>"); },
};
constexpr RF kHunyuan{.name = "hunyuan",
    .models = "Tencent Hunyuan-A13B",
    .open = {"<think>"},
    .close = {"</think>"},
    .answer_open = {"<answer>"},
    .answer_close = {"</answer>"},
    // Hunyuan-A13B's template: <|startoftext|> ... <|extra_0|>, '<think>\\n\\n</think>\\n' when thinking is off.
    .detect = [](std::string_view t) { return has_think(t) && has(t, "<|startoftext|>") && has(t, "<|extra_0|>"); },
};
constexpr RF kErnie45{.name = "ernie45",
    .models = "Baidu ERNIE-4.5 Thinking",
    .open = {"<think>"},
    .close = {"</think>"},
    .starts_in_reasoning = true,
    .answer_open = {"<response>"},
    .answer_close = {"</response>"},
    // Not detected: ERNIE-4.5-Thinking's template was not at hand (its <think> would read as think).
};
constexpr RF kKimiK3{.name = "kimi_k3",
    .models = "Kimi K3 (its XTML think channel; the generation prompt opens it)",
    .open = {"<|open|>think<|sep|>"},
    .close = {"<|close|>think<|sep|>"},
    .detect = [](std::string_view t) { return has(t, "open_tag('think'"); },
    .prompt_opens = [](std::string_view) { return true; },
};
constexpr RF kMiniMaxAppendThink{.name = "minimax_append_think",
    .models = "MiniMax-M2 (reasoning kept in the content, the prompt's <think> put back)",
    .close = {"</think>"},  // stays in the content: kept when decoding
    .content_prefix = "<think>",
    .passive = true,
    .detect = [](std::string_view t) { return has(t, "]~b]ai") && has_think(t); },
};

}  // namespace

const std::vector<const ReasoningFormat*>& reasoning_formats() {
  static const std::vector<const ReasoningFormat*> list = {
      &kNone,   &kThink,  &kQwen3, &kDeepSeekR1, &kMistral, &kHarmony, &kStep3,  &kGranite,
      &kKimi,   &kSeedOss, &kCohere, &kGemma4,   &kHunyuan, &kErnie45, &kMiniMaxAppendThink, &kKimiK3};
  return list;
}

const std::vector<const ReasoningFormat*>& reasoning_detection_order() {
  static const std::vector<const ReasoningFormat*> list = {
      &kKimiK3, &kGranite, &kKimi,  &kSeedOss, &kCohere, &kGemma4, &kHunyuan, &kErnie45, &kStep3, &kMiniMaxAppendThink,
      &kDeepSeekR1, &kQwen3, &kThink};
  return list;
}

const ReasoningFormat* find_reasoning_format(std::string_view name) {
  for (const ReasoningFormat* f : reasoning_formats())
    if (f->name == name) return f;
  return nullptr;
}

std::string reasoning_format_names() {
  std::string s;
  for (const ReasoningFormat* f : reasoning_formats()) s += (s.empty() ? "" : ", ") + std::string(f->name);
  return s;
}

std::vector<std::string> reasoning_markers(const ReasoningFormat& f) {
  std::vector<std::string> out;
  auto add = [&](std::string_view m) {
    if (!m.empty() && std::find(out.begin(), out.end(), m) == out.end()) out.emplace_back(m);
  };
  for (auto m : f.open) add(m);
  for (auto m : f.close) add(m);
  for (auto m : f.answer_open) add(m);
  for (auto m : f.answer_close) add(m);
  add(f.content_prefix);
  return out;
}

}  // namespace textedge::detail
