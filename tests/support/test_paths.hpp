// Where tests find the real tokenizers (fetched by scripts/setup.sh).
#pragma once

#include <string>

inline std::string model_path(const std::string& name) { return std::string(TEXTEDGE_SOURCE_DIR) + "/models/" + name; }
