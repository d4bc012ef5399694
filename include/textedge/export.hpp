// TEXTEDGE_API marks the declarations the shared library exports. The library is built with
// hidden visibility, so everything else (textedge::detail, and the simdjson, PCRE2 and utf8proc
// code inside it) stays private and cannot clash with an engine's own copies.
#pragma once

#if defined(_WIN32) && defined(TEXTEDGE_SHARED)
#if defined(TEXTEDGE_BUILDING)
#define TEXTEDGE_API __declspec(dllexport)
#else
#define TEXTEDGE_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define TEXTEDGE_API __attribute__((visibility("default")))
#else
#define TEXTEDGE_API
#endif
