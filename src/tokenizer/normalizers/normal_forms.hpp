// The four Unicode normalization forms exactly as the reference computes them: utf8proc does
// the work, restricted to the Unicode 9.0 data of the reference's normalization crate.
#pragma once

#include <string>

namespace textedge::detail::normalizers {

enum class NormalForm { kNfc, kNfd, kNfkc, kNfkd };

// Rewrites `text` (valid UTF-8) in the given form. Characters assigned after Unicode 9.0 are
// left untouched and, as in the reference, neither reorder nor compose with their neighbours.
void apply_normal_form(std::string& text, NormalForm form);

// Builds the lookup tables apply_normal_form uses (otherwise built on first use), so loading a
// tokenizer pays for it rather than its first encode.
void prepare_normal_forms();

}  // namespace textedge::detail::normalizers
