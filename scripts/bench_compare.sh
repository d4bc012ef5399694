#!/usr/bin/env bash
# Measures textedge against the reference (Hugging Face tokenizers via Node), single-threaded,
# on the same text in the same run, for each of the six models, and prints a table:
#   encode MB/s (textedge, reference, speed-up; then the speed-up of the first pass alone, whose
#   caches have seen none of the text: the repeated passes find the text's rarer words in each
#   side's word cache as far as it holds them), load ms (the best of five loads in one process,
#   both, speed-up; then the speed-up of each process's first load: fresh memory on these VMs
#   moves a first load 3-10x from run to run),
#   decode MB/s (both, speed-up), and whether both produced the same ids and the same decoded text.
# Each side warms up with one untimed pass whose output it prints as a digest (FNV-1a 64 of the
# ids, and of the decoded text: tools/reference/bench_common.js); different or missing digests are
# printed as MISMATCH and make the script exit non-zero.
#
# Usage: scripts/bench_compare.sh [FILE]      (default: build/corpus/bench.txt, ~3 MB of mostly
#                                              English prose and code, some multilingual text;
#                                              build/corpus/bench2.txt is the second corpus, from
#                                              other sources: `make bench` runs both)
# Env: MODELS="qwen3 llama2" to pick models; TEXTEDGE=path/to/textedge (default
#      $BUILD_DIR/textedge, BUILD_DIR default build); MIN_SECONDS (reference repetitions, default 1);
#      ROUNDS (default 3): each model's two sides run in turn that many times and each side's best
#      round counts (interference only slows a side; one reference round of gemma3 on this shared
#      VM ran at a quarter of its speed), with the range of the rounds' encode ratios beside it.
# Raw results (one JSON line per model and tool) go to $BUILD_DIR/bench/compare-<FILE's name>.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-build/corpus/bench.txt}
models=(${MODELS:-qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2})
textedge=${TEXTEDGE:-${BUILD_DIR:-build}/textedge}
min_seconds=${MIN_SECONDS:-1}
rounds=${ROUNDS:-3}
NODE=${NODE:-node}
PYTHON=${PYTHON:-python3}

if [ ! -f "$file" ] && { [ $# -eq 0 ] || [ "$file" = build/corpus/bench2.txt ]; }; then
  echo "bench_compare: building $file" >&2
  "$PYTHON" scripts/make_corpus.py
fi
[ -f "$file" ] || { echo "bench_compare: no such file: $file" >&2; exit 1; }
[ -x "$textedge" ] || { echo "bench_compare: $textedge not built (run make build or set TEXTEDGE)" >&2; exit 1; }
[ -d tools/reference/node_modules/tokenizers ] || { echo "bench_compare: run scripts/setup.sh first" >&2; exit 1; }

mkdir -p "${BUILD_DIR:-build}/bench"
results=${BUILD_DIR:-build}/bench/compare-$(basename "$file" .txt).jsonl
: >"$results"

# Runs a command and appends {"model", "tool", "result": JSON or null, "error": text} to $results.
record() {
  local model=$1 tool=$2; shift 2
  local out err status=0
  err=$(mktemp)
  out=$("$@" 2>"$err") || status=$?
  "$PYTHON" - "$model" "$tool" "$status" "$out" "$err" >>"$results" <<'EOF'
import json, sys
model, tool, status, out, err_path = sys.argv[1:6]
err = open(err_path, encoding="utf-8", errors="replace").read().strip()
result = None
for line in reversed(out.strip().splitlines()):
    try:
        result = json.loads(line)
        break
    except ValueError:
        continue
if status != "0" or result is None:
    msg = (err or out or "no output").splitlines()
    print(json.dumps({"model": model, "tool": tool, "result": None, "error": msg[-1][:160] if msg else "failed"}))
else:
    print(json.dumps({"model": model, "tool": tool, "result": result}))
EOF
  rm -f "$err"
}

size=$(wc -c <"$file")
echo "bench_compare: $file ($size bytes), single thread, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for m in "${models[@]}"; do
  for ((round = 1; round <= rounds; round++)); do
    echo "bench_compare: $m (round $round of $rounds)" >&2
    record "$m" textedge_encode "$textedge" bench encode -m "models/$m" "$file" --threads 1
    record "$m" textedge_decode "$textedge" bench decode -m "models/$m" "$file"
    record "$m" reference env RAYON_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false \
      "$NODE" tools/reference/bench.js "models/$m" "$file" --min-seconds "$min_seconds"
  done
done

"$PYTHON" - "$results" "$file" <<'EOF'
import json, sys
rows = {}  # model -> tool -> its rounds, in order
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    rows.setdefault(r["model"], {}).setdefault(r["tool"], []).append(r)
def get_one(entry, *keys):
    v = entry.get("result") if entry else None
    for k in keys:
        if not isinstance(v, dict) or k not in v:
            return None
        v = v[k]
    return v
# A side's best round: the most MB/s, the fewest ms; digests and counts must agree in every round.
def get(entries, *keys):
    values = [get_one(e, *keys) for e in entries or []]
    if not values or any(v is None for v in values):
        return None
    if keys[-1] in ("MBps", "first_MBps"):
        return max(values)
    if keys[-1] in ("load_ms", "first_load_ms"):
        return min(values)
    return values[0] if all(v == values[0] for v in values) else "differs"
def round_ratios(te, ref):
    pairs = [(get_one(a, "MBps"), get_one(b, "encode", "MBps")) for a, b in zip(te or [], ref or [])]
    ratios = [a / b for a, b in pairs if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > 0]
    if not ratios:
        return "-"
    return f"{min(ratios):.1f}x" if len(ratios) == 1 else f"{min(ratios):.1f}-{max(ratios):.1f}x"
def num(x, fmt):
    return format(x, fmt) if isinstance(x, (int, float)) else "-"
def ratio(a, b):
    return f"{a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > 0 else "-"
header = ["model", "enc MB/s textedge", "enc MB/s ref", "speed-up", "rounds", "first pass", "load ms textedge", "load ms ref", "speed-up",
          "first load", "dec MB/s textedge", "dec MB/s ref", "speed-up", "ids", "text"]
table, errors = [], []
for model, r in rows.items():
    te, td, ref = r.get("textedge_encode"), r.get("textedge_decode"), r.get("reference")
    t_mb, r_mb = get(te, "MBps"), get(ref, "encode", "MBps")
    t_first, r_first = get(te, "first_MBps"), get(ref, "encode", "first_MBps")
    t_load, r_load = get(te, "load_ms"), get(ref, "load_ms")
    t_first_load, r_first_load = get(te, "first_load_ms"), get(ref, "first_load_ms")
    t_dec, r_dec = get(td, "MBps"), get(ref, "decode", "MBps")
    checks = []
    for what, mine, theirs in (("ids", (get(te, "tokens"), get(te, "ids_fnv1a64")),
                                (get(ref, "encode", "tokens"), get(ref, "encode", "ids_fnv1a64"))),
                               ("text", (get(td, "bytes"), get(td, "text_fnv1a64")),
                                (get(ref, "decode", "bytes"), get(ref, "decode", "text_fnv1a64")))):
        if None not in mine + theirs and mine == theirs:
            checks.append("same")
        else:
            checks.append("MISMATCH")
            errors.append(f"{model}: {what} MISMATCH: textedge {mine[0]} ({mine[1]}), reference {theirs[0]} ({theirs[1]})")
    table.append([model, num(t_mb, ".2f"), num(r_mb, ".2f"), ratio(t_mb, r_mb), round_ratios(te, ref), ratio(t_first, r_first), num(t_load, ".0f"), num(r_load, ".0f"),
                  ratio(r_load, t_load), ratio(r_first_load, t_first_load), num(t_dec, ".2f"), num(r_dec, ".2f"), ratio(t_dec, r_dec)] + checks)
    for e in (te or []) + (td or []) + (ref or []):
        if e.get("error"):
            errors.append(f"{model} {e['tool']}: {e['error']}")
widths = [max(len(str(row[i])) for row in [header] + table) for i in range(len(header))]
fmt = lambda row: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
print(f"single-thread throughput on {sys.argv[2]}; speed-up = how many times faster textedge is, each side's best round;"
      " rounds = the range of the rounds' encode speed-ups")
print(fmt(header))
print("  ".join("-" * w for w in widths))
for row in table:
    print(fmt(row))
for e in errors:
    print("bench_compare: error: " + e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
