#!/usr/bin/python3
"""Times Python Jinja2 (transformers' environment, as tools/reference/chat_goldens.py sets it up)
rendering one chat request with a model's template: the template compiled once, then rendered
repeatedly, from the request's JSON text (as textedge's apply_request does) and from values already
built; plus the compile time. Each time is the best of ten windows of a tenth of --min-seconds.

    /usr/bin/python3 tools/reference/bench_render.py MODEL_DIR REQUEST.json [--min-seconds S]

Prints one JSON line: {"render_us", "render_values_us", "compile_us", "bytes", "prompt"}: the prompt
is the last timed render's, which scripts/bench_render.sh compares with textedge's.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chat_goldens import apply_chat_template, compile_template, special_tokens_of  # noqa: E402


def main():
    model_dir, request_path = sys.argv[1], sys.argv[2]
    min_seconds = float(sys.argv[sys.argv.index("--min-seconds") + 1]) if "--min-seconds" in sys.argv else 1.0
    config = json.load(open(os.path.join(model_dir, "tokenizer_config.json"), encoding="utf-8"))
    source = config["chat_template"]
    request = json.load(open(request_path, encoding="utf-8"))
    special = special_tokens_of(config)

    # The clock read once a batch of calls, the batch doubling while one takes under a thousandth
    # of the window, as textedge's `bench` times itself (cli/main.cpp, time_per_unit).
    def window(fn, seconds):
        rounds, batch, elapsed, start = 0, 1, 0.0, time.perf_counter()
        while True:
            for _ in range(batch):
                fn()
            rounds += batch
            before, elapsed = elapsed, time.perf_counter() - start
            if elapsed >= seconds:
                return elapsed / rounds
            if elapsed - before < seconds / 1000:
                batch *= 2

    # The best of ten windows (as timeit advises: interference only adds time), as textedge's
    # `bench render` measures itself.
    def timed(fn):
        fn()
        return min(window(fn, min_seconds / 10) for _ in range(10))

    request_text = open(request_path, encoding="utf-8").read()
    template = compile_template(source)
    prompts = {}

    # From the request's JSON text, as textedge's apply_request renders it; and from values
    # already built (Jinja2's render alone). Each keeps its last prompt for the check.
    def render_text():
        prompts["text"] = apply_chat_template(template, json.loads(request_text), special)

    def render_built_values():
        prompts["values"] = apply_chat_template(template, request, special)

    render = timed(render_text)
    render_values = timed(render_built_values)
    compile_s = timed(lambda: compile_template(source))
    prompt = prompts["text"]
    if prompts["values"] != prompt:
        sys.exit("bench_render.py: the render from built values differs from the render from JSON text")
    print(json.dumps({"render_us": round(render * 1e6, 2), "render_values_us": round(render_values * 1e6, 2),
                      "compile_us": round(compile_s * 1e6, 1), "bytes": len(prompt.encode("utf-8")),
                      "prompt": prompt}))


if __name__ == "__main__":
    main()
