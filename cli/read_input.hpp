// Whole-file reads for the CLI, with errors that name the file and the reason.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "textedge/error.hpp"

namespace textedge::cli {

// The bytes of the file at `path`, or of stdin for "-". Throws Error("cannot read PATH: REASON")
// for a file that is missing, unreadable or a directory.
inline std::string read_input(const std::string& path) {
  const std::string name = path == "-" ? "stdin" : path;
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw Error("cannot read " + name + ": " + std::strerror(errno));
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  int error = std::ferror(f) ? errno : 0;  // a directory opens, then fails to read (EISDIR)
  if (f != stdin) std::fclose(f);
  if (error) throw Error("cannot read " + name + ": " + std::strerror(error));
  return data;
}

}  // namespace textedge::cli
