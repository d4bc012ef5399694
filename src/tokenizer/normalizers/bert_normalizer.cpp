// BertNormalizer: BERT's text cleanup, in this order: drop control characters and turn every
// whitespace into " " (clean_text), surround CJK ideographs with spaces (handle_chinese_chars),
// NFD then drop nonspacing marks (strip_accents; when null it follows lowercase), lowercase.
#include "base/utf8.hpp"
#include "tokenizer/normalizers/normal_forms.hpp"
#include "tokenizer/normalizers/normalizer.hpp"
#include "tokenizer/normalizers/unicode_data.hpp"
#include "tokenizer/normalizers/unicode_text.hpp"

namespace textedge::detail::normalizers {
namespace {

// BERT counts tab, newline and carriage return as whitespace, not as control characters.
bool is_bert_control(char32_t c) { return c != '\t' && c != '\n' && c != '\r' && is_other_unicode8(c); }

// The ranges BERT treats as Chinese characters. U+2B820..U+2B91F (part of CJK Extension E) is
// missing, as in the reference.
bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// Removes NUL, U+FFFD and control characters and maps whitespace to " ". Nothing grows, so the
// text is compacted in place.
void clean_text(std::string& text) {
  std::size_t read = 0, write = 0;
  while (read < text.size()) {
    unsigned char b = static_cast<unsigned char>(text[read]);
    if (b < 0x80) {
      ++read;
      if (b == '\t' || b == '\n' || b == '\r') text[write++] = ' ';
      else if (b >= 0x20 && b != 0x7F) text[write++] = static_cast<char>(b);
      continue;  // other ASCII controls (NUL included) are dropped
    }
    std::size_t start = read;
    char32_t c = next_code_point(text, read);
    if (c == 0xFFFD || is_bert_control(c)) continue;
    if (is_rust_whitespace(c)) {
      text[write++] = ' ';
      continue;
    }
    while (start < read) text[write++] = text[start++];
  }
  text.resize(write);
}

void pad_chinese_chars(std::string& text) {
  // Every listed range is at or above U+3400, whose UTF-8 lead byte is 0xE3; smaller bytes are
  // shorter lead bytes or continuation bytes, so the scan stops on a character boundary.
  std::size_t i = 0;
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0xE3) ++i;
  std::string out;
  std::size_t copied = 0;
  while (i < text.size()) {
    std::size_t start = i;
    if (!is_chinese_char(next_code_point(text, i))) continue;
    if (copied == 0) out.reserve(text.size() + 64);
    out.append(text, copied, start - copied);
    out += ' ';
    out.append(text, start, i - start);
    out += ' ';
    copied = i;
  }
  if (copied == 0) return;
  out.append(text, copied);
  text.swap(out);
}

// Removes General_Category Mn characters (Unicode 8.0) in place.
void remove_nonspacing_marks(std::string& text) {
  std::size_t read = 0, write = 0;
  while (read < text.size()) {
    std::size_t start = read;
    char32_t c = next_code_point(text, read);
    if (is_nonspacing_mark_unicode8(c)) continue;
    while (start < read) text[write++] = text[start++];
  }
  text.resize(write);
}

struct BertOptions {
  bool clean_text;
  bool handle_chinese_chars;
  bool strip_accents;
  bool lowercase;
};

class BertNormalizer final : public Normalizer {
 public:
  explicit BertNormalizer(const BertOptions& options) : options_(options) {
    if (options_.strip_accents) prepare_normal_forms();
  }

  void normalize(std::string& text) const override {
    if (options_.clean_text) clean_text(text);
    if (options_.handle_chinese_chars) pad_chinese_chars(text);
    if (options_.strip_accents && !is_ascii(text)) {
      apply_normal_form(text, NormalForm::kNfd);
      remove_nonspacing_marks(text);
    }
    if (options_.lowercase) lowercase_in_place(text);
  }

  std::string describe() const override { return "BertNormalizer"; }

 private:
  BertOptions options_;
};

}  // namespace

// "clean_text", "handle_chinese_chars" and "lowercase" are required, as in the reference.
std::unique_ptr<Normalizer> bert_normalizer_from_json(const Json& json) {
  BertOptions options{};
  options.clean_text = json.get("clean_text").boolean();
  options.handle_chinese_chars = json.get("handle_chinese_chars").boolean();
  options.lowercase = json.get("lowercase").boolean();
  auto strip_accents = json.find("strip_accents");
  options.strip_accents = strip_accents ? strip_accents->boolean() : options.lowercase;
  return std::make_unique<BertNormalizer>(options);
}

}  // namespace textedge::detail::normalizers
