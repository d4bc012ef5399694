// The whole public API, one header per layer in the order a request crosses them.
#pragma once
#include "textedge/chat_template.hpp"
#include "textedge/detokenizer.hpp"
#include "textedge/error.hpp"
#include "textedge/output_parser.hpp"
#include "textedge/schema.hpp"
#include "textedge/stream.hpp"
#include "textedge/tokenizer.hpp"
#include "textedge/version.hpp"
