#include "parse_command.hpp"

#include <simdjson.h>

#include <cstdio>
#include <iostream>

#include "read_input.hpp"
#include "textedge/error.hpp"
#include "textedge/output_parser.hpp"

namespace textedge::cli {

namespace {
void print_deltas(const std::vector<ChatDelta>& deltas) {
  std::string line = "[";
  for (std::size_t i = 0; i < deltas.size(); ++i) line += (i ? "," : "") + to_json(deltas[i]);
  line += "]\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
}
}  // namespace

int run_parse_command(const ParseCommand& c) {
  if (c.list) {
    std::string s = "formats:";
    for (auto& f : list_formats()) s += " " + f;
    s += "\nreasoning:";
    for (auto& r : list_reasoning_formats()) s += " " + r;
    s += "\n";
    for (auto& f : format_infos())  // who writes each format
      s += "\n  " + f.name + std::string(f.name.size() < 14 ? 14 - f.name.size() : 1, ' ') + f.models +
           (f.forced || f.name == "none" ? "" : " (tool-regex cannot force it)");
    std::puts(s.c_str());
    return 0;
  }
  try {
    OutputParserOptions o;
    o.format = c.format;
    o.reasoning = c.reasoning;
    o.starts_in_reasoning = c.starts_in_reasoning;
    o.partial_calls = !c.no_partial_calls && !c.whole;  // a whole message holds calls until valid (parse_output)
    if (!c.tools.empty()) o.tools_json = read_input(c.tools);
    OutputParser parser(o);
    std::vector<ChatDelta> deltas;
    simdjson::dom::parser json;
    std::string line;
    std::size_t number = 0;
    while (std::getline(std::cin, line)) {
      ++number;
      if (line.empty()) continue;
      std::string_view text;
      if (json.parse(line).get_string().get(text))
        throw Error("stdin line " + std::to_string(number) + ": expected a JSON string");
      if (!c.whole) deltas.clear();
      parser.feed(text, deltas);
      if (!c.whole) print_deltas(deltas);
    }
    if (!c.whole) deltas.clear();
    parser.finish(deltas);
    if (!c.whole) {
      print_deltas(deltas);
      return 0;
    }
    ParsedMessage m;
    merge_deltas(deltas, m);
    std::string out = to_json(m) + "\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "textedge: %s\n", e.what());
    return 1;
  }
}

}  // namespace textedge::cli
