"""textedge: the text boundary of an LLM serving engine, for Python.

Tokenizer (Hugging Face tokenizers' API, id-exact), streaming detokenization with stop strings
(DecodeStream, TextStream, StreamBatch: one C++ call per engine step), chat templates
(transformers' apply_chat_template) and output parsing (reasoning, tool calls).
"""

from . import _core, compat, decoders
from ._core import (
    AddedToken,
    ChatTemplate,
    Encoding,
    Error,
    InputError,
    LoadError,
    OutputParser,
    PromptCache,
    SchemaError,
    StreamBatch,
    TemplateError,
    TextStream,
    Tokenizer,
    __version__,
    detect_format,
    list_formats,
    list_reasoning_formats,
    schema_to_regex,
    tool_call_regex,
)

__all__ = [
    "AddedToken",
    "ChatTemplate",
    "Encoding",
    "Error",
    "InputError",
    "LoadError",
    "OutputParser",
    "PromptCache",
    "SchemaError",
    "StreamBatch",
    "TemplateError",
    "TextStream",
    "Tokenizer",
    "__version__",
    "compat",
    "decoders",
    "detect_format",
    "list_formats",
    "list_reasoning_formats",
    "schema_to_regex",
    "tool_call_regex",
]
