// In-place string rewrites shared by the decoders, with the semantics of Rust's str::replace.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

#include "base/utf8.hpp"

namespace textedge::detail::decoders {

// replace_all's loop for a non-empty `from` and a `to` no longer than it: the n bytes at `in`
// written to `out` (which may be `in`) with every occurrence replaced; returns the bytes written.
inline std::size_t replace_short(const char* in, std::size_t n, std::string_view from, std::string_view to, char* out) {
  const std::size_t m = from.size();
  std::size_t write = 0, read = 0;
  while (read < n) {
    bool match = in[read] == from[0] && n - read >= m;
    for (std::size_t k = 1; match && k < m; ++k) match = in[read + k] == from[k];
    if (match) {
      for (char c : to) out[write++] = c;
      read += m;
    } else {
      out[write++] = in[read++];
    }
  }
  return write;
}

// Replaces every non-overlapping occurrence of `from`, left to right. An empty `from` inserts
// `to` at every character boundary, both ends included (so "" becomes `to`), as Rust does.
// Allocates only when `to` is longer than `from` and there is a match.
inline void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (from.empty()) {
    std::string out;
    out.reserve(s.size() + (s.size() + 1) * to.size());
    out.append(to);
    for (std::size_t i = 0; i < s.size();) {
      std::size_t n = utf8_length(static_cast<unsigned char>(s[i]));
      out.append(s, i, n);
      out.append(to);
      i += n;
    }
    s.swap(out);
    return;
  }
  if (to.size() <= from.size() && s.size() <= 64) {
    // Short strings (the usual token): one in-place byte loop, no library calls.
    s.resize(replace_short(s.data(), s.size(), from, to, s.data()));
    return;
  }
  std::size_t pos = s.find(from);
  if (pos == std::string::npos) return;
  if (to.size() <= from.size()) {
    char* data = s.data();
    std::size_t write = pos, read = pos;
    while (true) {
      std::memcpy(data + write, to.data(), to.size());
      write += to.size();
      read += from.size();
      std::size_t next = s.find(from, read);
      std::size_t end = next == std::string::npos ? s.size() : next;
      std::memmove(data + write, data + read, end - read);
      write += end - read;
      read = end;
      if (next == std::string::npos) break;
    }
    s.resize(write);
    return;
  }
  std::string out;
  out.reserve(s.size() + to.size() - from.size());
  std::size_t read = 0;
  while (pos != std::string::npos) {
    out.append(s, read, pos - read);
    out.append(to);
    read = pos + from.size();
    pos = s.find(from, read);
  }
  out.append(s, read, std::string::npos);
  s.swap(out);
}

// WordPiece's clean-up of tokenization artifacts (spaces before punctuation, split English
// contractions), also used by CTC. The rules run one after another, in this order.
inline void cleanup_artifacts(std::string& s) {
  // Every rule starts with a space.
  if (s.find(' ') == std::string::npos) return;
  static constexpr std::string_view kRules[][2] = {
      {" .", "."},   {" ?", "?"},     {" !", "!"},   {" ,", ","},   {" ' ", "'"},   {" n't", "n't"},
      {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
  };
  for (const auto& rule : kRules) replace_all(s, rule[0], rule[1]);
}

}  // namespace textedge::detail::decoders
