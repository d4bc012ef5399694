#pragma once
#include "textedge/error.hpp"
#include "textedge/tokenizer.hpp"
#include "textedge/detokenizer.hpp"
#include "textedge/stream.hpp"
#include "textedge/chat_template.hpp"
