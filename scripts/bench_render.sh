#!/usr/bin/env bash
# Chat template rendering, textedge against Python Jinja2 in transformers' environment, in the
# same run: the model's template compiled once and rendered repeatedly for one request (default
# bench/data/chat_six_messages_two_tools.json: six messages, two tools, two tool calls), and the
# compile time. Both sides start from the request's JSON text (Python: json.loads, then
# transformers' variables and Template.render); Jinja2's render from values already built is
# printed beside it.
#
# Usage: scripts/bench_render.sh [REQUEST.json]      Env: MODELS (default "qwen3"), TEXTEDGE.
set -euo pipefail
cd "$(dirname "$0")/.."
request=${1:-bench/data/chat_six_messages_two_tools.json}
models=(${MODELS:-qwen3})
textedge=${TEXTEDGE:-${BUILD_DIR:-build}/textedge}
for m in "${models[@]}"; do
  te=$("$textedge" bench render -m "models/$m" "$request")
  ref=$(/usr/bin/python3 tools/reference/bench_render.py "models/$m" "$request")
  python3 - "$m" "$te" "$ref" <<'PY'
import json, sys
m, te, ref = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
assert te["bytes"] == ref["bytes"], f"prompts differ in size: {te['bytes']} vs {ref['bytes']}"
print(f"{m}: render {te['render_us']:.1f} us vs Jinja2 {ref['render_us']:.1f} us ({ref['render_us'] / te['render_us']:.1f}x; "
      f"Jinja2 from built values {ref['render_values_us']:.1f} us, {ref['render_values_us'] / te['render_us']:.1f}x); "
      f"compile {te['compile_us']:.0f} us vs {ref['compile_us']:.0f} us ({ref['compile_us'] / te['compile_us']:.0f}x); "
      f"prompt {te['bytes']} bytes")
PY
done
