#!/usr/bin/env bash
# Chat template rendering, textedge against Python Jinja2 in transformers' environment, in the
# same run: the model's template compiled once and rendered repeatedly for one request (default
# bench/data/chat_six_messages_two_tools.json: six messages, two tools, two tool calls), and the
# compile time. Both sides start from the request's JSON text (Python: json.loads, then
# transformers' variables and Template.render); Jinja2's render from values already built is
# printed beside it. Both sides print the prompt of their last timed render, and every round's
# prompts must be identical, byte for byte, or the script fails.
#
# The shared machine's speed drifts between a side's run and the other's, so the two alternate
# for ROUNDS rounds; each round's ratio is printed, then the ratio of each side's best time.
#
# Usage: scripts/bench_render.sh [REQUEST.json]      Env: MODELS (default "qwen3"), ROUNDS (3), TEXTEDGE.
set -euo pipefail
cd "$(dirname "$0")/.."
request=${1:-bench/data/chat_six_messages_two_tools.json}
models=(${MODELS:-qwen3})
rounds=${ROUNDS:-3}
textedge=${TEXTEDGE:-${BUILD_DIR:-build}/textedge}
for m in "${models[@]}"; do
  results=()
  for ((r = 0; r < rounds; r++)); do
    results+=("$("$textedge" bench render -m "models/$m" "$request")")
    results+=("$(/usr/bin/python3 tools/reference/bench_render.py "models/$m" "$request")")
  done
  python3 - "$m" "${results[@]}" <<'PY'
import json, sys
m, runs = sys.argv[1], [json.loads(r) for r in sys.argv[2:]]
te, ref = runs[0::2], runs[1::2]
for i, (a, b) in enumerate(zip(te, ref), 1):
    p, q = a.get("prompt"), b.get("prompt")
    if p is None or p != q:
        at = next((k for k, (x, y) in enumerate(zip(p or "", q or "")) if x != y), min(len(p or ""), len(q or "")))
        sys.exit(f"bench_render: {m} round {i}: textedge's prompt differs from Jinja2's at character {at}"
                 + ("" if p is None else f": {p[at:at + 40]!r} vs {q[at:at + 40]!r}")
                 + (" (textedge printed no prompt)" if p is None else ""))
for i, (a, b) in enumerate(zip(te, ref), 1):
    print(f"{m} round {i}: render {a['render_us']:.2f} us vs Jinja2 {b['render_us']:.1f} us ({b['render_us'] / a['render_us']:.1f}x; "
          f"from built values {b['render_values_us']:.1f} us, {b['render_values_us'] / a['render_us']:.1f}x); "
          f"compile {a['compile_us']:.0f} us vs {b['compile_us']:.0f} us ({b['compile_us'] / a['compile_us']:.0f}x)")
best = lambda rs, k: min(r[k] for r in rs)
t, j, jv = best(te, "render_us"), best(ref, "render_us"), best(ref, "render_values_us")
print(f"{m} best of {len(te)}: render {t:.2f} us vs Jinja2 {j:.1f} us ({j / t:.1f}x; from built values {jv:.1f} us, "
      f"{jv / t:.1f}x); compile {best(te, 'compile_us'):.0f} us vs {best(ref, 'compile_us'):.0f} us "
      f"({best(ref, 'compile_us') / best(te, 'compile_us'):.0f}x); prompt {te[0]['bytes']} bytes, identical on both sides")
PY
done
