# Checked by mypy (tests/python/test_typing.py) against the package's stubs: how an engine uses
# the API. Not run.
import array

import numpy as np

import textedge
from textedge.compat import Tokenizer as CompatTokenizer
from textedge.decoders import DecodeStream

tok = textedge.Tokenizer.from_pretrained("models/qwen3")
ids: list[int] = tok.encode("hello", add_special_tokens=False).ids
text: str = tok.decode(ids, skip_special_tokens=True) + tok.decode(array.array("I", ids)) + tok.decode(np.array(ids))
texts: list[str] = tok.decode_batch([ids, ids])
vocab: dict[str, int] = tok.get_vocab()
maybe: str | None = tok.id_to_token(0)
cache = textedge.PromptCache()
cached: list[int] = tok.encode_cached("<|im_start|>user\nhi<|im_end|>\n", cache, add_special_tokens=False).ids
reused: int = cache.reused_bytes + cache.encoded_bytes + len(cache.text)

stream = DecodeStream(ids=ids, skip_special_tokens=False)
piece: str | None = stream.step(tok, 42)

batch = textedge.StreamBatch(tok)
handle: int = batch.create(ids, stop=["\n\n"], max_tokens=16)
for delta, finish_reason, stop_reason in batch.step([(handle, [1, 2]), (handle, [3], True)]):
    assert finish_reason in (None, "stop", "length")
batch.release(handle)

one = textedge.TextStream(tok, ids, stop_token_ids=[151645])
out, why, stopped_by = one.step([1])

chat = textedge.ChatTemplate.from_pretrained("models/qwen3")
prompt: str = chat.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True, enable_thinking=False)

parser = textedge.OutputParser("hermes", reasoning="qwen3", tools=[])
for d in parser.feed("<think>") + parser.finish():
    print(d.get("content"))

regex: str = textedge.schema_to_regex({"type": "object"}) + textedge.tool_call_regex([], "hermes", name="f")

compat = CompatTokenizer.from_pretrained("models/qwen3")
prompt_ids = compat.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True)
eos: int | None = compat.eos_token_id
n: int = len(compat) + compat.vocab_size

try:
    textedge.Tokenizer.from_file("missing.json")
except textedge.LoadError as e:
    print(e)
