// Helpers for tests/tokenizer/reference_test.cpp: reading the reference goldens and the corpus (JSON
// Lines written by tools/reference/goldens.js and scripts/make_corpus.py), running checks on
// all cores, and printing mismatches exactly (escaped, truncated, with ids around the first
// difference).
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace reference {

using Ids = std::vector<std::uint32_t>;

struct GoldenCase {
  std::size_t line = 0;  // 1-based line in the goldens file
  std::string category;
  bool is_encode = false;  // an encode case (has "text"); otherwise decode-only
  std::string text;
  Ids ids;                       // encode: ids with add_special_tokens=false; decode-only: the ids to decode
  bool has_ids_special = false;  // add_special_tokens=true gave other ids
  Ids ids_special;
  std::string decode[2];             // decode(ids, skip_special_tokens=false / true)
  std::string decode_special[2];     // decode(ids_special, false / true)
  std::optional<std::string> error;  // the reference refused the text
};

struct Goldens {
  std::string path;
  std::string reference;  // e.g. "tokenizers 0.23.2"
  std::vector<GoldenCase> cases;
};

inline std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

inline std::size_t env_size(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return *end ? fallback : static_cast<std::size_t>(n);
}

// Where scripts/goldens.sh wrote the goldens (and their corpus, in corpus/): CMake's
// TEXTEDGE_GOLDENS_DIR (BUILD/goldens unless set), or the environment's TEXTEDGE_GOLDENS_DIR.
// Every test reads its goldens from here.
inline std::string goldens_dir() { return env_or("TEXTEDGE_GOLDENS_DIR", TEXTEDGE_GOLDENS_DIR); }
inline std::string corpus_dir() { return env_or("TEXTEDGE_CORPUS_DIR", goldens_dir() + "/corpus"); }

// Calls on_line(line_number, padded view) for every non-empty line of a JSON Lines file.
inline void for_each_json_line(const std::string& path,
                               const std::function<void(std::size_t, simdjson::ondemand::document&)>& on_line) {
  simdjson::padded_string file;
  if (simdjson::padded_string::load(path).get(file)) throw std::runtime_error("cannot read " + path);
  simdjson::ondemand::parser parser;
  const char* base = file.data();
  const std::size_t size = file.size();
  std::size_t pos = 0, line = 0;
  while (pos < size) {
    const void* nl = std::memchr(base + pos, '\n', size - pos);
    std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - base) : size;
    ++line;
    if (end > pos) {
      // The rest of the file (plus the padded_string's padding) follows the line, so the
      // parser may read past its end as simdjson requires.
      simdjson::ondemand::document doc;
      if (auto err = parser.iterate(base + pos, end - pos, size - pos + simdjson::SIMDJSON_PADDING).get(doc)) {
        throw std::runtime_error(path + ":" + std::to_string(line) + ": " + simdjson::error_message(err));
      }
      on_line(line, doc);
    }
    pos = end + 1;
  }
}

namespace detail {

inline void check(simdjson::error_code err, const std::string& where) {
  if (err) throw std::runtime_error(where + ": " + simdjson::error_message(err));
}

inline std::string get_string(simdjson::ondemand::value value, const std::string& where) {
  std::string_view s;
  check(value.get_string().get(s), where);
  return std::string(s);
}

inline Ids get_ids(simdjson::ondemand::value value, const std::string& where) {
  Ids ids;
  simdjson::ondemand::array array;
  check(value.get_array().get(array), where);
  for (auto element : array) {
    std::uint64_t id = 0;
    check(element.get_uint64().get(id), where);
    if (id > UINT32_MAX) throw std::runtime_error(where + ": id out of 32-bit range");
    ids.push_back(static_cast<std::uint32_t>(id));
  }
  return ids;
}

inline void get_pair(simdjson::ondemand::value value, std::string (&out)[2], const std::string& where) {
  simdjson::ondemand::array array;
  check(value.get_array().get(array), where);
  std::size_t n = 0;
  for (auto element : array) {
    if (n >= 2) throw std::runtime_error(where + ": expected 2 strings");
    std::string_view s;
    check(element.get_string().get(s), where);
    out[n++] = std::string(s);
  }
  if (n != 2) throw std::runtime_error(where + ": expected 2 strings");
}

}  // namespace detail

// Reads a goldens file written through scripts/goldens.sh: JSON Lines whose last line is
// {"end": {"cases": N}}. Calls field(key, value, where) for every field of every other line, then
// line_done(line), which says whether that line was a case. Throws std::runtime_error (with file
// and line) when the file is missing, malformed or truncated, or N is not the number of cases.
template <class Field, class LineDone>
void read_goldens(const std::string& path, Field field, LineDone line_done) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error("goldens missing: " + path + " (run scripts/goldens.sh)");
  std::optional<std::uint64_t> declared;
  std::size_t cases = 0;
  for_each_json_line(path, [&](std::size_t line, simdjson::ondemand::document& doc) {
    const std::string where = path + ":" + std::to_string(line);
    if (declared) throw std::runtime_error(where + ": data after the end line");
    simdjson::ondemand::object object;
    detail::check(doc.get_object().get(object), where);
    for (auto f : object) {
      std::string_view key;
      detail::check(f.unescaped_key().get(key), where);
      simdjson::ondemand::value value;
      detail::check(f.value().get(value), where);
      if (key != "end") {
        field(key, value, where);
        continue;
      }
      simdjson::ondemand::object end;
      detail::check(value.get_object().get(end), where);
      for (auto m : end) {
        std::string_view k;
        detail::check(m.unescaped_key().get(k), where);
        if (k == "cases") {
          std::uint64_t n = 0;
          detail::check(m.value().get_uint64().get(n), where);
          declared = n;
        }
      }
      if (!declared) throw std::runtime_error(where + ": end line without \"cases\"");
    }
    if (!declared && line_done(line)) ++cases;
  });
  if (!declared) throw std::runtime_error(path + ": truncated (no end line); run scripts/goldens.sh --force");
  if (*declared != cases) {
    throw std::runtime_error(path + ": end line declares " + std::to_string(*declared) + " cases, file has " +
                             std::to_string(cases));
  }
}

// Reads goldens_dir()/MODEL.jsonl (see read_goldens).
inline Goldens load_goldens(const std::string& path) {
  Goldens g;
  g.path = path;
  GoldenCase c;
  bool is_case = false;
  auto field = [&](std::string_view key, simdjson::ondemand::value value, const std::string& where) {
    if (key == "meta") {
      simdjson::ondemand::object meta;
      detail::check(value.get_object().get(meta), where);
      for (auto m : meta) {
        std::string_view k;
        detail::check(m.unescaped_key().get(k), where);
        if (k == "reference") g.reference = detail::get_string(m.value(), where);
      }
    } else if (key == "cat") {
      c.category = detail::get_string(value, where);
    } else if (key == "text") {
      c.text = detail::get_string(value, where);
      c.is_encode = true;
      is_case = true;
    } else if (key == "ids" || key == "decode_ids") {
      c.ids = detail::get_ids(value, where);
      is_case = true;
    } else if (key == "ids_special") {
      c.ids_special = detail::get_ids(value, where);
      c.has_ids_special = true;
    } else if (key == "decode") {
      detail::get_pair(value, c.decode, where);
    } else if (key == "decode_special") {
      detail::get_pair(value, c.decode_special, where);
    } else if (key == "error") {
      c.error = detail::get_string(value, where);
    }
  };
  read_goldens(path, field, [&](std::size_t line) {
    bool was_case = is_case;
    if (was_case) {
      c.line = line;
      g.cases.push_back(std::move(c));
    }
    c = GoldenCase();
    is_case = false;
    return was_case;
  });
  return g;
}

struct CorpusText {
  std::string category;  // file name without .jsonl
  std::size_t line = 0;
  std::string text;
};

// Reads every CATEGORY.jsonl (one JSON string per line) of the corpus directory, in name order.
inline std::vector<CorpusText> load_corpus(const std::vector<std::string>& files) {
  std::vector<CorpusText> out;
  for (const auto& path : files) {
    std::string category = path.substr(path.find_last_of('/') + 1);
    category = category.substr(0, category.size() - std::strlen(".jsonl"));
    for_each_json_line(path, [&](std::size_t line, simdjson::ondemand::document& doc) {
      std::string_view s;
      detail::check(doc.get_string().get(s), path + ":" + std::to_string(line));
      out.push_back({category, line, std::string(s)});
    });
  }
  return out;
}

// Splits text into ~4 KB pieces ending after a newline (as the benchmarks do), so every piece
// is valid UTF-8 when the text is.
inline std::vector<std::string> chunk_lines(const std::string& text, std::size_t target = 4096) {
  std::vector<std::string> chunks;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(text.size(), start + target);
    if (end < text.size()) {
      std::size_t nl = text.find('\n', end);
      end = nl == std::string::npos ? text.size() : nl + 1;
    }
    chunks.push_back(text.substr(start, end - start));
    start = end;
  }
  return chunks;
}

// ------------------------------------------------------------------------------------- printing

// Length of the UTF-8 sequence starting at s[i], or 0 if it is not a valid one.
inline std::size_t utf8_length(std::string_view s, std::size_t i, char32_t* cp) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    unsigned char cb = static_cast<unsigned char>(s[i + k]);
    if ((cb & 0xC0) != 0x80) return 0;
    c = (c << 6) | (cb & 0x3F);
  }
  static constexpr char32_t min_for_length[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < min_for_length[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *cp = c;
  return n;
}

// Exact, terminal-safe rendering: printable ASCII as is, everything else escaped
// (\n, \t, \r, \u{XXXX} for other characters, \xNN for bytes that are not UTF-8).
inline std::string escape(std::string_view s, std::size_t max_bytes = 200) {
  std::string out = "\"";
  std::size_t i = 0;
  char buf[16];
  while (i < s.size()) {
    if (i >= max_bytes) {
      out += "\"...(" + std::to_string(s.size() - i) + " more bytes)";
      return out;
    }
    char32_t cp = 0;
    std::size_t n = utf8_length(s, i, &cp);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(s[i]));
      out += buf;
      ++i;
      continue;
    }
    if (cp == '\n')
      out += "\\n";
    else if (cp == '\t')
      out += "\\t";
    else if (cp == '\r')
      out += "\\r";
    else if (cp == '"')
      out += "\\\"";
    else if (cp == '\\')
      out += "\\\\";
    else if (cp >= 0x20 && cp < 0x7F)
      out += static_cast<char>(cp);
    else {
      std::snprintf(buf, sizeof buf, "\\u{%X}", static_cast<unsigned>(cp));
      out += buf;
    }
    i += n;
  }
  return out + "\"";
}

// The part of s around byte offset pos (moved to character boundaries), escaped.
inline std::string escape_around(std::string_view s, std::size_t pos, std::size_t radius = 48) {
  auto is_continuation = [&](std::size_t i) {
    return i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
  };
  std::size_t begin = pos > radius ? pos - radius : 0;
  for (int k = 0; k < 3 && begin > 0 && is_continuation(begin); ++k) --begin;
  std::size_t end = std::min(s.size(), pos + radius);
  for (int k = 0; k < 3 && end < s.size() && is_continuation(end); ++k) ++end;
  std::string out = begin > 0 ? "..." : "";
  out += escape(s.substr(begin, end - begin), 4 * radius);
  if (end < s.size()) out += "...";
  return out;
}

inline std::size_t first_difference(std::string_view a, std::string_view b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return i;
  }
  return n;
}

inline std::size_t first_difference(const Ids& a, const Ids& b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return i;
  }
  return n;
}

// "[... 11 'he' 12 'llo' >13 ' world'< 14 ...]": the ids around position pos, with their
// tokens when token_of gives one.
inline std::string ids_around(const Ids& ids, std::size_t pos,
                              const std::function<std::string(std::uint32_t)>& token_of, std::size_t radius = 4) {
  std::string out = "[";
  std::size_t begin = pos > radius ? pos - radius : 0;
  std::size_t end = std::min(ids.size(), pos + radius + 1);
  if (begin > 0) out += "... ";
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += ' ';
    if (i == pos) out += '>';
    out += std::to_string(ids[i]);
    std::string token = token_of ? token_of(ids[i]) : std::string();
    if (!token.empty()) out += ' ' + escape(token, 40);
    if (i == pos) out += '<';
  }
  if (pos >= ids.size()) out += end > begin ? " ><end>" : "><end>";
  if (end < ids.size()) out += " ...";
  return out + "] (" + std::to_string(ids.size()) + " ids)";
}

inline std::string ids_head(const Ids& ids, std::size_t max = 24) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size() && i < max; ++i) out += (i ? " " : "") + std::to_string(ids[i]);
  if (ids.size() > max) out += " ... (" + std::to_string(ids.size()) + " ids)";
  return out + "]";
}

// ------------------------------------------------------------------------------------- parallel

inline unsigned test_threads() {
  std::size_t n = env_size("TEXTEDGE_TEST_THREADS", 0);
  if (n == 0) n = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(n, 64));
}

// Runs body(i, worker) for i in [0, n) on test_threads() threads; worker is in [0, threads).
// Small blocks keep the load balanced when a few cases are much bigger than the rest.
inline void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t, unsigned)>& body) {
  std::atomic<std::size_t> next{0};
  auto work = [&](unsigned worker) {
    for (;;) {
      std::size_t begin = next.fetch_add(4);
      if (begin >= n) return;
      for (std::size_t i = begin; i < std::min(n, begin + 4); ++i) body(i, worker);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& t : pool) t.join();
}

}  // namespace reference
