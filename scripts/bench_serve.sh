#!/usr/bin/env bash
# textedge serve's speed (issue 12, section 6), written to $BUILD_DIR/bench/serve.json and
# printed as a short table (`make bench-serve`; scripts/plot_serve.py draws the figures):
#   capacity  textedge serve over the scripted engine (~200-token answer at --scripted-rate 50),
#             1, 64, 256 and 1000 concurrent streaming clients on loopback: delivered tokens/s,
#             server CPU per 1,000 tokens, added inter-chunk delay, every text exact
#   peer      one llama-server (random-weight Qwen3), the same streamed chat requests (Qwen3
#             template, tools, 128 tokens, ignore_eos, fixed seed) from 32 clients to its own
#             /v1/chat/completions and through textedge serve --engine llamacpp://: TTFT,
#             throughput, CPU of each process; rounds alternate the order
#   prompt    template + tokenize of a 100-message ~32k-token conversation: textedge serve's
#             POST /tokenize against llama-server's POST /apply-template + POST /tokenize, over
#             keep-alive connections, median of PROMPT_REPEAT; the ids (and prompts) compared
# The load generator is build/textedge_serve_load (bench/serve_load.cpp); its inputs come from
# bench/serve_data.py. Environment (defaults):
#   BUILD_DIR (build)  TEXTEDGE ($BUILD_DIR/textedge)  SERVE_LOAD ($BUILD_DIR/textedge_serve_load)
#   OUT ($BUILD_DIR/bench/serve.json)  STEPS ("capacity peer prompt")
#   CONCURRENCY ("1 64 256 1000")  DURATION (20 s per capacity run)  RAMP (1 s)  RATE (50)
#   SERVE_THREADS ("default 2": the capacity runs once per textedge --threads value, default
#                 meaning no flag: textedge's own default, read from its "listening on" line)
#   PEER_CLIENTS (32)  PEER_DURATION (30 s)  PEER_ROUNDS (2)  PEER_TTFT_REQUESTS (30, one client)  LLAMA_SLOTS (32)  LLAMA_CTX (65536)
#   LLAMA_ARGS (extra llama-server flags)  PROMPT_REPEAT (20)  PROMPT_ROUNDS (2)
#   LLAMA_SERVER, ENGINE_MODEL (else from $BUILD_DIR/engine.env or scripts/engine.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build}
TEXTEDGE=${TEXTEDGE:-$BUILD_DIR/textedge}
LOAD=${SERVE_LOAD:-$BUILD_DIR/textedge_serve_load}
OUT=${OUT:-$BUILD_DIR/bench/serve.json}
STEPS=${STEPS:-capacity peer prompt}
CONCURRENCY=${CONCURRENCY:-1 64 256 1000}
DURATION=${DURATION:-20}
RAMP=${RAMP:-1}
RATE=${RATE:-50}
SERVE_THREADS=${SERVE_THREADS:-default 2}
PEER_CLIENTS=${PEER_CLIENTS:-32}
PEER_DURATION=${PEER_DURATION:-30}
PEER_ROUNDS=${PEER_ROUNDS:-4}
PEER_TTFT_REQUESTS=${PEER_TTFT_REQUESTS:-30}
LLAMA_SLOTS=${LLAMA_SLOTS:-32}
LLAMA_CTX=${LLAMA_CTX:-65536}
LLAMA_THREADS=${LLAMA_THREADS:-1}
LLAMA_ARGS=${LLAMA_ARGS:-}
PROMPT_REPEAT=${PROMPT_REPEAT:-20}
PROMPT_ROUNDS=${PROMPT_ROUNDS:-2}
PY=/usr/bin/python3
MODEL=$ROOT/models/qwen3

log() { echo "bench-serve: $*" >&2; }
die() { log "$*"; exit 1; }
for f in "$TEXTEDGE" "$LOAD"; do [ -x "$f" ] || die "$f is missing: build it (make build, or cmake --build $BUILD_DIR --target textedge_cli textedge_serve_load)"; done
[ -f "$MODEL/tokenizer.json" ] || die "models/qwen3 is missing: run scripts/setup.sh"
TEXTEDGE=$(realpath "$TEXTEDGE")
LOAD=$(realpath "$LOAD")

WORK=$(mktemp -d /tmp/bench_serve.XXXXXX)
PIDS=()
cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -eq 0 ]; then rm -rf "$WORK"; else log "failed: the runs' files and the servers' logs are in $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T_START=$(date +%s)
step_start() { STEP_T0=$(date +%s); log "$*"; }
step_done() { log "  ... $* in $(($(date +%s) - STEP_T0)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))"; }

# CPU seconds (user + system) a process has used so far.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' "/proc/$1/stat"; }

# Starts textedge serve on a free port; sets SERVE_PID and SERVE_URL.
start_serve() {
  local name=$1
  shift
  "$TEXTEDGE" serve -m "$MODEL" --port 0 "$@" >"$WORK/$name.out" 2>"$WORK/$name.log" &
  SERVE_PID=$!
  PIDS+=("$SERVE_PID")
  for _ in $(seq 600); do
    if grep -q "listening on" "$WORK/$name.out" 2>/dev/null; then
      SERVE_URL=$(sed -n 's/.*listening on \(http:\/\/[0-9.]*:[0-9]*\).*/\1/p' "$WORK/$name.out" | head -1)
      return 0
    fi
    kill -0 "$SERVE_PID" 2>/dev/null || { cat "$WORK/$name.log" >&2; die "textedge serve exited"; }
    sleep 0.1
  done
  die "textedge serve did not start"
}

stop_pid() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

ctx_switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s + 0 }'; }
diff_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a - b }'; }
free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

log "inputs in $WORK (bench/serve_data.py)"
$PY bench/serve_data.py "$WORK"
ANSWER_TOKENS=$("$TEXTEDGE" encode -m "$MODEL" <"$WORK/expect.txt" | $PY -c 'import json, sys; print(len(json.load(sys.stdin)))')
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cat >"$WORK/meta.json" <<EOF
{"date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)", "commit": "$(git rev-parse --short HEAD)",
 "dirty": $( [ -n "$(git status --porcelain --untracked-files=no)" ] && echo true || echo false ),
 "host": "$(uname -n)", "kernel": "$(uname -r)", "cores": $(nproc), "loadavg_start": "$(loadavg)",
 "answer_tokens": $ANSWER_TOKENS, "rate": $RATE, "duration_s": $DURATION, "ramp_s": $RAMP,
 "command": "BUILD_DIR=$BUILD_DIR STEPS='$STEPS' scripts/bench_serve.sh"}
EOF
RUNS=$WORK/runs.jsonl
: >"$RUNS"
# One line per measurement: {"step", ..., "load": <the load generator's JSON>, cpu figures}.
record() {
  local step=$1 extra=$2 file=$3
  $PY - "$step" "$extra" "$file" >>"$RUNS" <<'EOF'
import json, sys
step, extra, path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
with open(path) as f:
    load = json.load(f)
print(json.dumps({"step": step, **extra, "load": load}, ensure_ascii=False))
EOF
}

# ---------------------------------------------------------------- capacity
if [[ " $STEPS " == *" capacity "* ]]; then
  max_c=0
  for c in $CONCURRENCY; do [ "$c" -gt "$max_c" ] && max_c=$c; done
  need=$((2 * max_c + 256))
  if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    [ "$(ulimit -n)" -ge "$need" ] || die "$max_c connections need ~$need file descriptors (server and clients); ulimit -n is $(ulimit -n), hard limit $(ulimit -Hn)"
  fi
  log "file descriptors: ulimit -n $(ulimit -n) (needs ~$need for $max_c clients plus the server's side)"
  step_start "[capacity] textedge serve over scripted: ($ANSWER_TOKENS-token answer at $RATE tokens/s per stream), --threads: $SERVE_THREADS"
  for th in $SERVE_THREADS; do
    threads=()
    [ "$th" != default ] && threads=(--threads "$th")
    start_serve "capacity-$th" --engine "scripted:$WORK/scripted.jsonl" --scripted-rate "$RATE" \
      --max-concurrent $((max_c + 24)) --max-queue 1024 "${threads[@]}"
    nthreads=$(sed -n 's/.*I\/O threads \([0-9]*\).*/\1/p' "$WORK/capacity-$th.out" | head -1)
    [ -n "$nthreads" ] || die "textedge serve's listening line does not name its I/O threads"
    log "  textedge serve $SERVE_URL (pid $SERVE_PID), --max-concurrent $((max_c + 24)), --threads $th ($nthreads)"
    # A short warm-up.
    "$LOAD" --url "$SERVE_URL" --body "$WORK/body_scripted.json" --concurrency 4 --requests-per-client 1 \
      --expect-text "$WORK/expect.txt" >/dev/null || die "warm-up failed"
    for c in $CONCURRENCY; do
      t0=$(date +%s)
      cpu0=$(cpu_s "$SERVE_PID")
      cs0=$(ctx_switches "$SERVE_PID")
      la0=$(loadavg)
      rc=0
      "$LOAD" --url "$SERVE_URL" --body "$WORK/body_scripted.json" --concurrency "$c" --duration "$DURATION" \
        --ramp "$RAMP" --rate "$RATE" --expect-text "$WORK/expect.txt" --timeout $((DURATION + 90)) \
        --label "capacity-$c" >"$WORK/capacity-$th-$c.json" || rc=$?
      cpu1=$(cpu_s "$SERVE_PID")
      cs1=$(ctx_switches "$SERVE_PID")
      record capacity "{\"concurrency\": $c, \"server_threads\": $nthreads, \"threads_flag\": \"$th\", \"server_cpu_s\": $(diff_s "$cpu1" "$cpu0"), \"server_context_switches\": $((cs1 - cs0)), \"exit\": $rc, \"loadavg_before\": \"$la0\", \"loadavg_after\": \"$(loadavg)\"}" "$WORK/capacity-$th-$c.json"
      $PY - "$WORK/capacity-$th-$c.json" "$cpu0" "$cpu1" "$c" "$(($(date +%s) - t0))" "$nthreads" >&2 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); cpu = float(sys.argv[3]) - float(sys.argv[2])
a = d["added_delay_ms"]
print(f"bench-serve:   {sys.argv[6]} thread(s), {sys.argv[4]:>4} clients: {d['tokens_per_s']:6.0f} tokens/s ({d['steady_chunks_per_s']:.0f} steady), "
      f"{d['ok']} requests, {d['errors']} errors, {d['mismatches']} mismatches, added delay p50 {a.get('p50', float('nan')):.3f} "
      f"p99 {a.get('p99', float('nan')):.3f} ms, server {1000 * 1000 * cpu / max(1, d['completion_tokens']):.1f} CPU-ms/1k tokens ({sys.argv[5]} s)")
EOF
    done
    stop_pid "$SERVE_PID"
  done
  step_done "capacity"
fi

# ---------------------------------------------------------------- the peer: llama-server
if [[ " $STEPS " == *" peer "* || " $STEPS " == *" prompt "* ]]; then
  if [ -z "${LLAMA_SERVER:-}" ] || [ -z "${ENGINE_MODEL:-}" ]; then
    if [ -f "$BUILD_DIR/engine.env" ]; then
      set -a
      . "$BUILD_DIR/engine.env"
      set +a
    else
      eval "$(bash scripts/engine.sh)"
    fi
  fi
  [ -x "$LLAMA_SERVER" ] && [ -f "$ENGINE_MODEL" ] || die "no llama-server or model: run make engine"
  step_start "[peer] starting llama-server (-c $LLAMA_CTX -np $LLAMA_SLOTS -t $LLAMA_THREADS $LLAMA_ARGS)"
  LPORT=$(free_port)
  # shellcheck disable=SC2086
  "$LLAMA_SERVER" -m "$ENGINE_MODEL" -c "$LLAMA_CTX" -np "$LLAMA_SLOTS" --host 127.0.0.1 --port "$LPORT" \
    --no-webui --jinja -t "$LLAMA_THREADS" $LLAMA_ARGS >"$WORK/llama.log" 2>&1 &
  LLAMA_PID=$!
  PIDS+=("$LLAMA_PID")
  LLAMA_URL=http://127.0.0.1:$LPORT
  for _ in $(seq 1200); do
    curl -sf "$LLAMA_URL/health" >/dev/null 2>&1 && break
    kill -0 "$LLAMA_PID" 2>/dev/null || { tail -20 "$WORK/llama.log" >&2; die "llama-server exited"; }
    sleep 0.1
  done
  curl -sf "$LLAMA_URL/health" >/dev/null || die "llama-server did not become healthy"
  LLAMA_VERSION=$("$LLAMA_SERVER" --version 2>&1 | grep -m1 version || true)
  start_serve peer --engine "llamacpp://127.0.0.1:$LPORT"
  step_done "llama-server $LLAMA_URL (pid $LLAMA_PID, $LLAMA_VERSION) and textedge serve $SERVE_URL (pid $SERVE_PID) up"
  $PY - "$WORK/meta.json" "$LLAMA_VERSION" "$LLAMA_CTX" "$LLAMA_SLOTS" "$LLAMA_ARGS" "$LLAMA_THREADS" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["llama_server"] = {"version": sys.argv[2], "ctx": int(sys.argv[3]), "slots": int(sys.argv[4]), "extra_args": sys.argv[5],
                     "threads": int(sys.argv[6])}
json.dump(m, open(sys.argv[1], "w"))
EOF
fi

if [[ " $STEPS " == *" peer "* ]]; then
  step_start "[peer] $PEER_CLIENTS clients, ${PEER_DURATION} s per run, $PEER_ROUNDS rounds (direct and through textedge, alternating)"
  for url in "$LLAMA_URL" "$SERVE_URL"; do  # warm-up: one request each way
    "$LOAD" --url "$url" --body "$WORK/body_peer.json" --concurrency 2 --requests-per-client 1 >"$WORK/warmup.json" ||
      log "  warm-up against $url: $($PY -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["errors"], "errors:", d["error_kinds"])' "$WORK/warmup.json")"
  done
  # The first token alone: one client, requests one after the other, the engine otherwise idle
  # (its prompt cache holds the prompt), so that what the frontend adds is not lost in the
  # engine's batching.
  for round in $(seq "$PEER_ROUNDS"); do
    for path in direct textedge; do
      url=$LLAMA_URL
      [ "$path" = textedge ] && url=$SERVE_URL
      "$LOAD" --url "$url" --body "$WORK/body_peer_ttft.json" --concurrency 1 --requests-per-client "$PEER_TTFT_REQUESTS" \
        --label "peer-ttft-$path-$round" >"$WORK/peer-ttft-$path-$round.json" || true  # errors are counted
      record peer_ttft "{\"path\": \"$path\", \"round\": $round}" "$WORK/peer-ttft-$path-$round.json"
      $PY - "$WORK/peer-ttft-$path-$round.json" "$path" "$round" >&2 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); t = d["ttft_ms"]
print(f"bench-serve:   one client, round {sys.argv[3]} {sys.argv[2]:>8}: TTFT p50 {t.get('p50', float('nan')):.2f} ms, "
      f"p99 {t.get('p99', float('nan')):.2f} ms ({d['ok']} requests, {d['errors']} errors)")
EOF
    done
  done
  for round in $(seq "$PEER_ROUNDS"); do
    order="direct textedge"
    [ $((round % 2)) -eq 0 ] && order="textedge direct"
    for path in $order; do
      url=$LLAMA_URL
      [ "$path" = textedge ] && url=$SERVE_URL
      t0=$(date +%s)
      l0=$(cpu_s "$LLAMA_PID")
      s0=$(cpu_s "$SERVE_PID")
      la0=$(loadavg)
      rc=0
      "$LOAD" --url "$url" --body "$WORK/body_peer.json" --concurrency "$PEER_CLIENTS" --duration "$PEER_DURATION" \
        --timeout $((PEER_DURATION + 120)) --label "peer-$path-$round" >"$WORK/peer-$path-$round.json" || rc=$?
      l1=$(cpu_s "$LLAMA_PID")
      s1=$(cpu_s "$SERVE_PID")
      record peer "{\"path\": \"$path\", \"round\": $round, \"llama_cpu_s\": $(diff_s "$l1" "$l0"), \"textedge_cpu_s\": $(diff_s "$s1" "$s0"), \"exit\": $rc, \"loadavg_before\": \"$la0\", \"loadavg_after\": \"$(loadavg)\"}" "$WORK/peer-$path-$round.json"
      $PY - "$WORK/peer-$path-$round.json" "$path" "$round" "$(diff_s "$l1" "$l0")" "$(diff_s "$s1" "$s0")" "$(($(date +%s) - t0))" >&2 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); t = d["ttft_ms"]
print(f"bench-serve:   round {sys.argv[3]} {sys.argv[2]:>8}: {d['tokens_per_s']:7.1f} tokens/s, TTFT p50 {t.get('p50', float('nan')):.2f} "
      f"p99 {t.get('p99', float('nan')):.2f} ms, {d['ok']} requests, {d['errors']} errors, CPU llama-server {sys.argv[4]} s, "
      f"textedge {sys.argv[5]} s ({sys.argv[6]} s)")
EOF
    done
  done
  step_done "peer"
fi

# ---------------------------------------------------------------- the prompt path
if [[ " $STEPS " == *" prompt "* ]]; then
  step_start "[prompt] template + tokenize of the 100-message conversation, $PROMPT_REPEAT repetitions x $PROMPT_ROUNDS rounds"
  # textedge's own account of the time (its /metrics histograms' sums), before and after.
  curl -sf "$SERVE_URL/metrics" >"$WORK/metrics-before.txt" || true
  for round in $(seq "$PROMPT_ROUNDS"); do
    for flavor in textedge llamacpp; do
      url=$SERVE_URL
      [ "$flavor" = llamacpp ] && url=$LLAMA_URL
      "$LOAD" --mode prompt --flavor "$flavor" --url "$url" --body "$WORK/conversation.json" --repeat "$PROMPT_REPEAT" \
        --ids-out "$WORK/ids-$flavor.json" --prompt-out "$WORK/prompt-$flavor.txt" >"$WORK/prompt-$flavor-$round.json"
      record prompt "{\"flavor\": \"$flavor\", \"round\": $round}" "$WORK/prompt-$flavor-$round.json"
    done
  done
  curl -sf "$SERVE_URL/metrics" >"$WORK/metrics-after.txt" || true
  # What each side made of it: textedge's prompt (textedge render, the same code as the
  # server's), and llama-server's prompt tokenized by textedge, to tell template differences
  # from tokenizer differences.
  "$TEXTEDGE" render -m "$MODEL" --request "$WORK/conversation.json" >"$WORK/prompt-textedge.txt"
  "$TEXTEDGE" encode -m "$MODEL" <"$WORK/prompt-llamacpp.txt" >"$WORK/ids-textedge-of-llama-prompt.json"
  $PY - "$WORK" >"$WORK/compare.json" <<'EOF'
import json, sys
w = sys.argv[1]
te = json.load(open(f"{w}/ids-textedge.json")); ll = json.load(open(f"{w}/ids-llamacpp.json"))
te_of_ll = json.load(open(f"{w}/ids-textedge-of-llama-prompt.json"))
pt = open(f"{w}/prompt-textedge.txt", encoding="utf-8").read(); pl = open(f"{w}/prompt-llamacpp.txt", encoding="utf-8").read()
def first_diff(a, b):
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), None if len(a) == len(b) else n)
out = {"ids_equal": te == ll, "textedge_tokens": len(te), "llamacpp_tokens": len(ll),
       "prompts_equal": pt == pl, "textedge_prompt_chars": len(pt), "llamacpp_prompt_chars": len(pl),
       "tokenizers_agree_on_llama_prompt": te_of_ll == ll}
i = first_diff(pt, pl)
if i is not None:
    out["prompt_first_difference"] = {"char": i, "textedge": pt[max(0, i - 60):i + 60], "llamacpp": pl[max(0, i - 60):i + 60]}
    # Every differing stretch, compactly (difflib on lines).
    import difflib
    diffs = [l for l in difflib.unified_diff(pt.splitlines(), pl.splitlines(), "textedge", "llama-server", n=0, lineterm="")
             if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))]
    out["prompt_differing_lines"] = len(diffs)
    out["prompt_diff_sample"] = diffs[:12]
j = first_diff(te, ll)
if j is not None:
    out["ids_first_difference"] = {"index": j, "textedge": te[max(0, j - 5):j + 5], "llamacpp": ll[max(0, j - 5):j + 5]}
def metrics(path):
    m = {}
    try:
        for line in open(path):
            if line.startswith("textedge_") and " " in line:
                k, v = line.rsplit(" ", 1)
                m[k] = float(v)
    except OSError:
        pass
    return m
before, after = metrics(f"{w}/metrics-before.txt"), metrics(f"{w}/metrics-after.txt")
server = {}
for name in ("template", "tokenize"):
    n = after.get(f"textedge_{name}_seconds_count", 0) - before.get(f"textedge_{name}_seconds_count", 0)
    if n > 0:
        server[f"{name}_ms_mean"] = 1000 * (after[f"textedge_{name}_seconds_sum"] - before.get(f"textedge_{name}_seconds_sum", 0)) / n
        server[f"{name}_count"] = n
out["textedge_server_side"] = server
print(json.dumps(out, ensure_ascii=False))
EOF
  step_done "prompt"
fi
[ -n "${SERVE_PID:-}" ] && stop_pid "$SERVE_PID"
[ -n "${LLAMA_PID:-}" ] && stop_pid "$LLAMA_PID"

# ---------------------------------------------------------------- serve.json and the table
mkdir -p "$(dirname "$OUT")"
$PY - "$WORK" "$OUT" "$(loadavg)" "$(($(date +%s) - T_START))" <<'EOF'
import json, os, statistics, sys
w, out, load_end, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
meta = json.load(open(f"{w}/meta.json")); meta["loadavg_end"] = load_end; meta["seconds"] = seconds
runs = [json.loads(l) for l in open(f"{w}/runs.jsonl")]
res = {"meta": meta, "capacity": [], "peer": {"runs": [], "ttft_one_client": []}, "prompt": {"runs": []}, "goals": {}}
def q(d, k, key="p50"):
    return d.get(k, {}).get(key)
for r in runs:
    d = r["load"]
    if r["step"] == "capacity":
        tok = d["completion_tokens"]
        r["server_cpu_per_1k_tokens_s"] = 1000 * r["server_cpu_s"] / tok if tok else None
        r["ideal_tokens_per_s"] = r["concurrency"] * meta["rate"]
        r["server_context_switches_per_token"] = r["server_context_switches"] / tok if tok else None
        # Tokens/s while every client streams: content chunks in the steady window, scaled by
        # tokens per chunk (the scripted answer's tokens are one chunk each, plus EOS).
        r["steady_tokens_per_s"] = d["steady_chunks_per_s"] * tok / d["content_chunks"] if d["content_chunks"] else None
        res["capacity"].append(r)
    elif r["step"] == "peer":
        tok = d["completion_tokens"]
        r["textedge_cpu_per_1k_tokens_s"] = 1000 * r["textedge_cpu_s"] / tok if tok else None
        r["llama_cpu_per_1k_tokens_s"] = 1000 * r["llama_cpu_s"] / tok if tok else None
        res["peer"]["runs"].append(r)
    elif r["step"] == "peer_ttft":
        res["peer"]["ttft_one_client"].append(r)
    elif r["step"] == "prompt":
        res["prompt"]["runs"].append(r)
if os.path.exists(f"{w}/compare.json"):
    res["prompt"]["compare"] = json.load(open(f"{w}/compare.json"))
g = res["goals"]
for flag in dict.fromkeys(r["threads_flag"] for r in res["capacity"]):
    big = max((r for r in res["capacity"] if r["threads_flag"] == flag), key=lambda r: r["concurrency"])
    d = big["load"]
    g["capacity" if flag == "default" else f"capacity (--threads {flag})"] = {
        "goal": f"{big['concurrency']} streams: p99 added delay under 1 ms, every text exact",
        "server_threads": big["server_threads"], "p99_added_delay_ms": q(d, "added_delay_ms", "p99"),
        "delivered_vs_offered_steady": (big["steady_tokens_per_s"] or 0) / big["ideal_tokens_per_s"], "errors": d["errors"],
        "mismatches": d["mismatches"],
        "met": d["errors"] == 0 and d["mismatches"] == 0 and (q(d, "added_delay_ms", "p99") or 1e9) < 1.0}
peer = res["peer"]["runs"]
if peer:
    def agg(path):
        rs = [r for r in peer if r["path"] == path]
        return {"tokens_per_s": statistics.median(r["load"]["tokens_per_s"] for r in rs),
                "ttft_p50_ms": statistics.median(q(r["load"], "ttft_ms") for r in rs),
                "ttft_p99_ms": statistics.median(q(r["load"], "ttft_ms", "p99") for r in rs),
                "llama_cpu_per_1k_tokens_s": statistics.median(r["llama_cpu_per_1k_tokens_s"] for r in rs),
                "textedge_cpu_per_1k_tokens_s": statistics.median(r["textedge_cpu_per_1k_tokens_s"] for r in rs),
                "errors": sum(r["load"]["errors"] for r in rs), "runs": len(rs)}
    a, b = agg("direct"), agg("textedge")
    res["peer"]["summary"] = {"direct": a, "textedge": b}
    # Each round's two runs are adjacent in time: their ratio drifts less with the machine's load.
    rounds = sorted({r["round"] for r in peer})
    per_round = []
    for n in rounds:
        d = [r for r in peer if r["round"] == n and r["path"] == "direct"]
        t = [r for r in peer if r["round"] == n and r["path"] == "textedge"]
        if d and t:
            per_round.append(t[0]["load"]["tokens_per_s"] / d[0]["load"]["tokens_per_s"])
    res["peer"]["summary"]["throughput_ratio_per_round"] = per_round
    ratio = statistics.median(per_round) if per_round else b["tokens_per_s"] / a["tokens_per_s"]
    added = b["ttft_p50_ms"] - a["ttft_p50_ms"]
    one = res["peer"]["ttft_one_client"]
    if one:
        t1 = {p: statistics.median(q(r["load"], "ttft_ms") for r in one if r["path"] == p) for p in ("direct", "textedge")}
        res["peer"]["ttft_one_client_summary"] = {"direct_p50_ms": t1["direct"], "textedge_p50_ms": t1["textedge"],
                                                  "added_p50_ms": t1["textedge"] - t1["direct"]}
    g["peer"] = {"goal": "throughput within 2% of direct, TTFT p50 added under 1 ms",
                 "throughput_ratio": ratio, "ttft_p50_added_ms_32_clients": added,
                 "ttft_p50_added_ms_one_client": res["peer"].get("ttft_one_client_summary", {}).get("added_p50_ms"),
                 "met": ratio >= 0.98 and res["peer"].get("ttft_one_client_summary", {}).get("added_p50_ms", added) < 1.0}
pr = res["prompt"]["runs"]
if pr:
    med = {f: statistics.median(r["load"]["ms"]["p50"] for r in pr if r["flavor"] == f) for f in ("textedge", "llamacpp")}
    res["prompt"]["summary"] = {"textedge_ms": med["textedge"], "llamacpp_ms": med["llamacpp"],
                                "speedup": med["llamacpp"] / med["textedge"],
                                "tokens": pr[0]["load"]["tokens"]}
    g["prompt"] = {"goal": "at least 10x faster than llama-server's /apply-template + /tokenize",
                   "speedup": med["llamacpp"] / med["textedge"], "met": med["llamacpp"] / med["textedge"] >= 10,
                   "ids_equal": res["prompt"].get("compare", {}).get("ids_equal")}
with open(out, "w") as f:
    json.dump(res, f, indent=1, ensure_ascii=False)

# The table.
f2 = lambda v, p=2: "-" if v is None else f"{v:.{p}f}"
print(f"\ntextedge serve, {meta['date']}, {meta['commit']}{' (dirty)' if meta['dirty'] else ''}, {meta['cores']} cores, "
      f"load average {meta['loadavg_start']} -> {load_end}, {seconds} s")
if res["capacity"]:
    print(f"\ncapacity (scripted engine, {meta['answer_tokens']}-token answer at {meta['rate']} tokens/s per stream, {meta['duration_s']} s per run;\n"
          f"tokens/s: usage over the whole run, ramp and tail included; steady: while every client streams)")
    print(f"{'threads':>7} {'clients':>7} {'tokens/s':>9} {'steady':>7} {'offered':>7} {'CPU-ms/1k tok':>13} {'csw/tok':>7} {'TTFT p50':>9} {'p99':>7} "
          f"{'added p50':>10} {'p99':>7} {'max':>7} {'errors':>6} {'mismatch':>8}")
    for r in res["capacity"]:
        d = r["load"]
        print(f"{r['server_threads']:>7} {r['concurrency']:>7} {d['tokens_per_s']:>9.0f} {r['steady_tokens_per_s'] or 0:>7.0f} {r['ideal_tokens_per_s']:>7} "
              f"{f2(1000 * r['server_cpu_per_1k_tokens_s'] if r['server_cpu_per_1k_tokens_s'] is not None else None, 1):>13} "
              f"{f2(r['server_context_switches_per_token']):>7} "
              f"{f2(q(d, 'ttft_ms')):>9} {f2(q(d, 'ttft_ms', 'p99')):>7} {f2(q(d, 'added_delay_ms'), 3):>10} "
              f"{f2(q(d, 'added_delay_ms', 'p99'), 3):>7} {f2(q(d, 'added_delay_ms', 'max'), 1):>7} {d['errors']:>6} {d['mismatches']:>8}")
if peer:
    print(f"\npeer ({len(peer)} runs, {peer[0]['load']['concurrency']} clients, 128 tokens each; medians over rounds)")
    print(f"{'path':>9} {'tokens/s':>9} {'TTFT p50':>9} {'p99':>8} {'llama CPU-ms/1k':>15} {'textedge CPU-ms/1k':>18} {'errors':>6}")
    for name, s in ((k, v) for k, v in res["peer"]["summary"].items() if k in ("direct", "textedge")):
        print(f"{name:>9} {s['tokens_per_s']:>9.1f} {s['ttft_p50_ms']:>9.2f} {s['ttft_p99_ms']:>8.2f} "
              f"{1000 * s['llama_cpu_per_1k_tokens_s']:>15.1f} {1000 * s['textedge_cpu_per_1k_tokens_s']:>18.1f} {s['errors']:>6}")
    print("throughput through textedge / direct, per round: " +
          ", ".join(f"{x:.3f}" for x in res["peer"]["summary"]["throughput_ratio_per_round"]) +
          f" (median {g['peer']['throughput_ratio']:.3f})")
    if "ttft_one_client_summary" in res["peer"]:
        s = res["peer"]["ttft_one_client_summary"]
        print(f"one client at a time, 8-token requests: TTFT p50 direct {s['direct_p50_ms']:.2f} ms, through textedge "
              f"{s['textedge_p50_ms']:.2f} ms (added {s['added_p50_ms']:+.2f} ms)")
if pr:
    s = res["prompt"]["summary"]; c = res["prompt"].get("compare", {})
    print(f"\nprompt path ({s['tokens']} tokens): textedge {s['textedge_ms']:.2f} ms, llama-server {s['llamacpp_ms']:.2f} ms "
          f"({s['speedup']:.1f}x); ids equal: {c.get('ids_equal')}, prompts equal: {c.get('prompts_equal')}")
    ss = c.get("textedge_server_side", {})
    if ss:
        print(f"textedge's own timers (mean): template {ss.get('template_ms_mean', float('nan')):.2f} ms, "
              f"tokenize {ss.get('tokenize_ms_mean', float('nan')):.2f} ms")
print("\ngoals: " + "; ".join(f"{k}: {'met' if v['met'] else 'NOT met'}" for k, v in g.items()))
print(f"wrote {out}")
EOF
