#!/usr/bin/env bash
# Streaming detokenization, textedge against the reference in the same run, per model:
#   textedge: `textedge bench stream` (one stream one id at a time; the same with three stop
#     strings; one StreamBatch step of 256 streams; priming from 1k/32k/1M-token prompts);
#   reference: tools/reference/bench_stream.js, vLLM's slow path on Hugging Face tokenizers
#     (a prefix window and a full window decoded per token), through the binding's synchronous
#     Decoder ("sync") and through Tokenizer.decode ("async"), single-threaded.
# Both sides stream the same ids (FILE's ~4 KB chunks encoded without special tokens, the first
# 20k ids), warm up with one untimed pass and print digests of the ids and of the streamed text;
# the script fails unless all of them agree (textedge itself fails when its streams' text is not
# its decode's, or when a stop string would end the timed pass early).
# Prints one table; raw JSON lines go to $BUILD_DIR/bench/stream.jsonl.
#
# Usage: scripts/bench_stream.sh [FILE]     (default build/corpus/bench.txt)
# Env: MODELS="qwen3 llama2", TEXTEDGE (default build/textedge), NODE, PYTHON.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-build/corpus/bench.txt}
models=(${MODELS:-qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2})
textedge=${TEXTEDGE:-${BUILD_DIR:-build}/textedge}
NODE=${NODE:-node}
PYTHON=${PYTHON:-python3}
[ -f "$file" ] || "$PYTHON" scripts/make_corpus.py
[ -x "$textedge" ] || { echo "bench_stream: $textedge not built (run make build)" >&2; exit 1; }
mkdir -p "${BUILD_DIR:-build}/bench"
results=${BUILD_DIR:-build}/bench/stream.jsonl
: >"$results"
echo "bench_stream: $file, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for m in "${models[@]}"; do
  echo "bench_stream: $m" >&2
  te=$("$textedge" bench stream -m "models/$m" "$file")
  ref=$(RAYON_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false "$NODE" tools/reference/bench_stream.js "models/$m" "$file")
  echo "{\"model\": \"$m\", \"textedge\": $te, \"reference\": $ref}" >>"$results"
done
"$PYTHON" - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
errors = []
for r in rows:
    t, ref = r["textedge"], r["reference"]
    ids = {"textedge": (t.get("tokens"), t.get("ids_fnv1a64")), "reference": (ref.get("tokens"), ref.get("ids_fnv1a64"))}
    text = {"textedge": t.get("text_fnv1a64"), "reference sync": ref["sync"].get("text_fnv1a64"),
            "reference async": ref["async"].get("text_fnv1a64")}
    if None in ids["textedge"] or len(set(ids.values())) != 1:
        errors.append(f"{r['model']}: the two sides streamed different ids: {ids}")
    if None in text.values() or len(set(text.values())) != 1:
        errors.append(f"{r['model']}: the streamed texts differ: {text}")
header = ["model", "ns/token", "ref sync", "speed-up", "ref async", "speed-up", "with stops", "256-stream step us",
          "prime 1k us", "32k", "1M"]
table = []
for r in rows:
    t, ref = r["textedge"], r["reference"]
    ns, s, a = t["ns_per_token"], ref["sync"]["ns_per_token"], ref["async"]["ns_per_token"]
    table.append([r["model"], f"{ns:.1f}", str(s), f"{s / ns:.0f}x", str(a), f"{a / ns:.0f}x",
                  f"{t['ns_per_token_with_stops']:.1f}", f"{t['batch256_step_us']:.1f}",
                  f"{t['prime_us']['1k']:.2f}", f"{t['prime_us']['32k']:.2f}", f"{t['prime_us']['1M']:.2f}"])
widths = [max(len(row[i]) for row in [header] + table) for i in range(len(header))]
fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
print("streaming detokenization; speed-up = reference ns per token / textedge ns per token")
print(fmt(header))
print("  ".join("-" * w for w in widths))
for row in table:
    print(fmt(row))
if not errors:
    counts = "/".join(sorted({str(r["textedge"]["tokens"]) for r in rows}))
    print(f"both sides streamed the same {counts} ids per model into the same text (ids and text digests equal)")
for e in errors:
    print("bench_stream: error: " + e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
