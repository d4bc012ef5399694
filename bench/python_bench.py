#!/usr/bin/env python3
"""textedge from Python, one thread: the per-step costs an engine pays.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [models/qwen3]

DecodeStream.step per call (tokenizers' signature; vLLM calls it once per token), StreamBatch.step
of 256 streams with one id each (one call per engine step), TextStream.step per call. Best of
five rounds each (the machine is shared)."""
import sys
import time

import textedge

model = sys.argv[1] if len(sys.argv) > 1 else "models/qwen3"
tok = textedge.Tokenizer.from_pretrained(model)
text = open("README.md", encoding="utf-8").read() * 4
ids = tok.encode(text, add_special_tokens=False).ids[:20000]


def best(fn, rounds=5):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        n = fn()
        times.append((time.perf_counter() - start) / n)
    return min(times)


def decode_stream():
    ds = textedge.decoders.DecodeStream(skip_special_tokens=False)
    step = ds.step
    for i in ids:
        step(tok, i)
    return len(ids)


def text_stream():
    s = textedge.TextStream(tok, [], ignore_eos=True)
    step = s.step
    for i in ids:
        step(i)
    return len(ids)


def stream_batch():
    batch = textedge.StreamBatch(tok)
    handles = [batch.create([], ignore_eos=True) for _ in range(256)]
    steps = 200
    for k in range(steps):
        batch.step([(h, ids[(k + j) % len(ids)]) for j, h in enumerate(handles)])
    for h in handles:
        batch.release(h)
    return steps


def stream_batch_prepared():  # the step list built once: the call alone
    batch = textedge.StreamBatch(tok)
    handles = [batch.create([], ignore_eos=True) for _ in range(256)]
    step_list = [(h, ids[j]) for j, h in enumerate(handles)]
    steps = 200
    for _ in range(steps):
        batch.step(step_list)
    return steps


print(f"model {model}, {len(ids)} ids")
print(f"DecodeStream.step           {best(decode_stream) * 1e9:8.0f} ns per call")
print(f"TextStream.step             {best(text_stream) * 1e9:8.0f} ns per call")
print(f"StreamBatch.step, 256 x 1   {best(stream_batch) * 1e6:8.1f} us per step (building the list in Python included)")
print(f"StreamBatch.step, 256 x 1   {best(stream_batch_prepared) * 1e6:8.1f} us per step (the call alone)")
