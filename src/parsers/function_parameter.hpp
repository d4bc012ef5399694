// The <function=f><parameter=k>v</parameter></function> scanner of qwen3_coder.cpp, shared with
// the families that wrap the same body in other tags (seed_oss: <seed:tool_call>).
#pragma once

#include <memory>
#include <string_view>

#include "parsers/core.hpp"

namespace textedge::detail {

// start / end: the wrapper's tags (string literals: kept as views).
std::unique_ptr<ToolScanner> make_function_parameter_scanner(Emitter& em, const OutputParserOptions& o, std::string_view start,
                                                             std::string_view end);

}  // namespace textedge::detail
