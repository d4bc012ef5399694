#!/usr/bin/python3
"""textedge from Python, one thread, side by side in one run with what it replaces and with itself
from C++ (issue 14's goals; the figures go to docs/python.md and docs/performance.md):

  DecodeStream.step per call        vs the reference's Node binding per token (vLLM's window loop,
                                      tools/reference/bench_stream.js) and `textedge bench stream`
  StreamBatch.step, 256 streams x 1 id (one call per engine step)
  encode of ~4 KB chunks            vs `textedge bench encode --threads 1` on the same chunks
  encode_batch of those chunks      vs the encode loop (the C++ thread pool: near 2x on 2 cores)
  ChatTemplate.apply_chat_template  vs `textedge bench render` and vs Jinja2 in this process (set
    (Qwen3, six messages, two tools)   up as transformers does: tools/reference/chat_goldens.py)

Every pair is checked to have produced the same output (ids digests, streamed text digests,
prompts), or the script fails. The sides alternate for --rounds rounds (the machine is shared);
each figure is the best round, each ratio the ratio of the two bests.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--model models/qwen3]
        [--file build/corpus/bench.txt] [--rounds 3] [--textedge build/textedge] [--json OUT]
"""
import argparse
import json
import os
import subprocess
import sys
import time

import textedge

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools/reference"))
from chat_goldens import apply_chat_template as jinja2_apply, compile_template, special_tokens_of  # noqa: E402

STREAM_TOKENS = 20000  # what `textedge bench stream` and bench_stream.js stream
REQUEST = os.path.join(ROOT, "bench/data/chat_six_messages_two_tools.json")


def chunks_of(data, target=4096):
    """tools/reference/bench_common.js chunkText: cut after the first newline past 4096 bytes."""
    out, start = [], 0
    while start < len(data):
        end = min(len(data), start + target)
        if end < len(data):
            nl = data.find(b"\n", end)
            end = len(data) if nl < 0 else nl + 1
        out.append(data[start:end].decode("utf-8"))
        start = end
    return out


class Fnv1a64:
    """bench_common.js's digests, so that the sides' outputs can be compared."""

    def __init__(self):
        self.h = 0xCBF29CE484222325

    def bytes(self, b):
        h = self.h
        for byte in b:
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        self.h = h

    def hex(self):
        return f"{self.h:016x}"


def ids_digest(chunks_of_ids):
    f = Fnv1a64()
    for ids in chunks_of_ids:
        f.bytes(len(ids).to_bytes(4, "little"))
        f.bytes(b"".join(i.to_bytes(4, "little") for i in ids))
    return f.hex()


def text_digest(text):
    f = Fnv1a64()
    f.bytes(text.encode("utf-8"))
    return f.hex()


def best_window(fn, seconds=0.3, windows=5):
    """Seconds per unit: fn() does some work and returns how many units; the best of windows."""
    fn()
    best = float("inf")
    for _ in range(windows):
        units, start = 0, time.perf_counter()
        while True:
            units += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        best = min(best, elapsed / units)
    return best


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="models/qwen3")
    ap.add_argument("--file", default=os.path.join(ROOT, "build/corpus/bench.txt"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--textedge", default=os.path.join(ROOT, os.environ.get("BUILD_DIR", "build"), "textedge"))
    ap.add_argument("--node", default="node")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    model = os.path.join(ROOT, args.model) if not os.path.isabs(args.model) else args.model
    errors = []

    tok = textedge.Tokenizer.from_pretrained(model)
    data = open(args.file, "rb").read()
    chunks = chunks_of(data)
    encodings = [e.ids for e in tok.encode_batch(chunks, add_special_tokens=False)]
    python_ids_digest = ids_digest(encodings)
    stream_ids = []
    for ids in encodings:
        stream_ids.extend(ids)
        if len(stream_ids) >= STREAM_TOKENS:
            break
    stream_ids = stream_ids[:STREAM_TOKENS]

    # --- Python side
    def decode_stream():
        ds = textedge.decoders.DecodeStream(skip_special_tokens=False)
        step = ds.step
        for i in stream_ids:
            step(tok, i)
        return len(stream_ids)

    pieces = []
    ds = textedge.decoders.DecodeStream(skip_special_tokens=False)
    for i in stream_ids:
        piece = ds.step(tok, i)
        if piece is not None:
            pieces.append(piece)
    streamed_digest = text_digest("".join(pieces))

    step_ids = [stream_ids[k * 256:(k + 1) * 256] for k in range(len(stream_ids) // 256)]

    def stream_batch():  # as an engine calls it: its sampler's ids for this step zipped with the handles
        batch = textedge.StreamBatch(tok)
        handles = [batch.create([], ignore_eos=True) for _ in range(256)]
        steps = len(step_ids)
        for k in range(steps):
            batch.step(list(zip(handles, step_ids[k])))
        for h in handles:
            batch.release(h)
        return steps

    def stream_batch_prepared():  # the step list built once: the call alone
        batch = textedge.StreamBatch(tok)
        handles = [batch.create([], ignore_eos=True) for _ in range(256)]
        step_list = [(h, stream_ids[j]) for j, h in enumerate(handles)]
        steps = 100
        for _ in range(steps):
            batch.step(step_list)
        for h in handles:
            batch.release(h)
        return steps

    encode = tok.encode

    def encode_loop():
        for c in chunks:
            encode(c, add_special_tokens=False)
        return len(data)

    def encode_batch():
        tok.encode_batch(chunks, add_special_tokens=False)
        return len(data)

    request_text = open(REQUEST, encoding="utf-8").read()
    request = json.loads(request_text)
    template = textedge.ChatTemplate.from_pretrained(model)

    def render_textedge(req):
        return template.apply_chat_template(req["messages"], tools=req.get("tools"),
                                            add_generation_prompt=req.get("add_generation_prompt", True))

    config = json.load(open(os.path.join(model, "tokenizer_config.json"), encoding="utf-8"))
    jinja_template = compile_template(config["chat_template"])
    special = special_tokens_of(config)
    prompt = render_textedge(request)
    if jinja2_apply(jinja_template, request, special) != prompt:
        errors.append("render: textedge's prompt from Python differs from Jinja2's")

    def render_values():
        render_textedge(request)
        return 1

    def render_json():
        render_textedge(json.loads(request_text))
        return 1

    def render_jinja2():
        jinja2_apply(jinja_template, request, special)
        return 1

    # --- the rounds: each side in turn
    names = ["decode_stream_ns", "stream_batch_256_us", "stream_batch_256_call_us", "encode_MBps", "encode_batch_MBps", "render_values_us",
             "render_json_us", "jinja2_render_us", "cpp_stream_ns", "cpp_encode_MBps", "cpp_render_us",
             "ref_stream_sync_ns", "ref_stream_async_ns"]
    rounds = {n: [] for n in names}
    for r in range(args.rounds):
        print(f"python_bench: round {r + 1} of {args.rounds}", file=sys.stderr)
        rounds["decode_stream_ns"].append(best_window(decode_stream) * 1e9)
        rounds["stream_batch_256_us"].append(best_window(stream_batch) * 1e6)
        rounds["stream_batch_256_call_us"].append(best_window(stream_batch_prepared) * 1e6)
        rounds["encode_MBps"].append(1 / best_window(encode_loop, 0.5, 3) / 1e6)
        rounds["encode_batch_MBps"].append(1 / best_window(encode_batch, 0.5, 3) / 1e6)
        rounds["render_values_us"].append(best_window(render_values) * 1e6)
        rounds["render_json_us"].append(best_window(render_json) * 1e6)
        rounds["jinja2_render_us"].append(best_window(render_jinja2) * 1e6)
        stream = run_json([args.textedge, "bench", "stream", "-m", model, args.file])
        rounds["cpp_stream_ns"].append(stream["ns_per_token"])
        enc = run_json([args.textedge, "bench", "encode", "-m", model, args.file, "--threads", "1"])
        rounds["cpp_encode_MBps"].append(enc["MBps"])
        if enc["ids_fnv1a64"] != python_ids_digest:
            errors.append(f"encode: C++ ids digest {enc['ids_fnv1a64']} != Python's {python_ids_digest}")
        render = run_json([args.textedge, "bench", "render", "-m", model, REQUEST])
        rounds["cpp_render_us"].append(render["render_us"])
        ref = run_json([args.node, "tools/reference/bench_stream.js", model, args.file])
        rounds["ref_stream_sync_ns"].append(ref["sync"]["ns_per_token"])
        rounds["ref_stream_async_ns"].append(ref["async"]["ns_per_token"])
        if ref["sync"]["text_fnv1a64"] != streamed_digest:
            errors.append(f"stream: the reference streamed {ref['sync']['text_fnv1a64']}, DecodeStream {streamed_digest}")

    higher_is_better = {"encode_MBps", "encode_batch_MBps", "cpp_encode_MBps"}
    best = {n: (max(v) if n in higher_is_better else min(v)) for n, v in rounds.items()}
    b = best
    rows = [
        ("DecodeStream.step", f"{b['decode_stream_ns']:.0f} ns/call",
         f"reference (Node, vLLM's windows) sync {b['ref_stream_sync_ns']:.0f} ns, async {b['ref_stream_async_ns']:.0f} ns "
         f"({b['ref_stream_sync_ns'] / b['decode_stream_ns']:.1f}x, {b['ref_stream_async_ns'] / b['decode_stream_ns']:.0f}x); "
         f"C++ TextStream {b['cpp_stream_ns']:.1f} ns", "goal <= 300 ns"),
        ("StreamBatch.step 256 x 1", f"{b['stream_batch_256_us']:.1f} us/step (zip included)",
         f"the call alone (list built once) {b['stream_batch_256_call_us']:.1f} us", "goal < 30 us"),
        ("encode, ~4 KB chunks", f"{b['encode_MBps']:.2f} MB/s",
         f"C++ {b['cpp_encode_MBps']:.2f} MB/s: C++/Python {b['cpp_encode_MBps'] / b['encode_MBps']:.2f}x", "goal <= 1.2x"),
        ("encode_batch (C++ pool)", f"{b['encode_batch_MBps']:.2f} MB/s",
         f"{b['encode_batch_MBps'] / b['encode_MBps']:.2f}x the encode loop on {os.cpu_count()} CPUs", "goal near 2x"),
        ("apply_chat_template", f"{b['render_values_us']:.1f} us (from json.loads: {b['render_json_us']:.1f} us)",
         f"C++ {b['cpp_render_us']:.1f} us: Python/C++ {b['render_values_us'] / b['cpp_render_us']:.2f}x; "
         f"Jinja2 {b['jinja2_render_us']:.1f} us: {b['jinja2_render_us'] / b['render_values_us']:.1f}x",
         "goal <= 1.5x C++, >= 10x Jinja2"),
    ]
    print(f"textedge from Python, {os.path.relpath(model, ROOT)}, {os.path.relpath(args.file, ROOT)}, "
          f"{len(stream_ids)} streamed ids, best of {args.rounds} rounds, load {os.getloadavg()[0]:.2f}")
    for name, figure, beside, goal in rows:
        print(f"  {name:26} {figure:38} {beside}  [{goal}]")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"best": best, "rounds": rounds}, f, indent=1)
    if errors:
        sys.exit("python_bench: FAILED:\n  " + "\n  ".join(errors))


if __name__ == "__main__":
    main()
