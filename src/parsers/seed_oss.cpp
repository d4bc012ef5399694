// seed_oss: ByteDance Seed-OSS (its chat template; vLLM's seed_oss tool parser, which adapts
// vLLM's qwen3_coder parser; llama.cpp's Seed-OSS format):
//   <seed:tool_call>\n<function=f>\n<parameter=k>v</parameter>\n...</function>\n</seed:tool_call>
// one call per <seed:tool_call>, several in a row. The body is qwen3_coder's (the same scanner,
// qwen3_coder.cpp): one leading and one trailing newline of a value dropped, values typed by the
// tool's JSON schema (string parameters stream as written, others held to </parameter>).
// Reasoning: <seed:think>...</seed:think> (reasoning format seed_oss).
#include "parsers/family.hpp"
#include "parsers/function_parameter.hpp"

namespace textedge::detail {

extern const Family kSeedOss;
constexpr Family kSeedOss{
    .name = "seed_oss",
    .models = "Seed-OSS-36B",
    .example = "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n<parameter=days>3</parameter>\n"
        "</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=get_time>\n<parameter=tz>Asia/Tokyo</parameter>\n"
        "</function>\n</seed:tool_call>",
    .reasoning = "seed_oss",
    .make = [](Emitter& em, const OutputParserOptions& o) -> std::unique_ptr<ToolScanner> {
      return make_function_parameter_scanner(em, o, "<seed:tool_call>", "</seed:tool_call>");
    },
    .markers = {"<seed:tool_call>", "</seed:tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"},
    .detect = [](std::string_view t) { return contains(t, "<seed:tool_call>"); },
    .call_regex = [](const ToolRegex& tool) -> std::string {
          MemberStyle style{[](std::string_view k) { return "<parameter=" + regex_literal(k) + ">"; }, "</parameter>\\n", "",
                            "</parameter>"};
          return "<seed:tool_call>\\n<function=" + tool.name_regex() + ">\\n" + tool.members(style) + "</function>\\n</seed:tool_call>";
        },
    .envelope = {"", "\\n", "", true},
};

}  // namespace textedge::detail
