// A BPE model large enough to load on two threads (over kParallelMinItems merges): 200 CJK
// characters (U+4E00...) as tokens 0-199, and a merge for each pair of them, rank a * 200 + b
// making token 200 + rank: 40,000 merges.
#pragma once

#include <string>

inline constexpr int kCjkPairChars = 200;

// The UTF-8 of character i (U+4E00 + i).
inline std::string cjk_pair_char(int i) {
  char32_t c = 0x4E00 + i;
  return std::string{static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
                     static_cast<char>(0x80 | (c & 0x3F))};
}

// The model's JSON object. The merge of rank `bad_left` has "zz" on its left, that of rank
// `bad_right` "?" on its right: tokens not in the vocabulary (-1: none).
inline std::string cjk_pairs_model_json(int bad_left = -1, int bad_right = -1) {
  std::string vocab, merges;
  for (int a = 0; a < kCjkPairChars; ++a) vocab += std::string(a ? "," : "") + "\"" + cjk_pair_char(a) + "\":" + std::to_string(a);
  for (int a = 0; a < kCjkPairChars; ++a)
    for (int b = 0; b < kCjkPairChars; ++b) {
      int rank = a * kCjkPairChars + b;
      vocab += ",\"" + cjk_pair_char(a) + cjk_pair_char(b) + "\":" + std::to_string(kCjkPairChars + rank);
      merges += std::string(rank ? "," : "") + "\"" + (rank == bad_left ? "zz" : cjk_pair_char(a)) + " " +
                (rank == bad_right ? "?" : cjk_pair_char(b)) + "\"";
    }
  return R"({"type":"BPE","vocab":{)" + vocab + R"(},"merges":[)" + merges + "]}";
}
