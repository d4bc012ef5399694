#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/): installs clang-14 and libclang-rt-14-dev when missing
# (idempotent, as setup.sh), builds them in FUZZ_BUILD_DIR (default build-fuzz) with
# AddressSanitizer and UndefinedBehaviorSanitizer, then
#   scripts/fuzz.sh run [TARGET...]      fuzzes each target for FUZZ_SECONDS (default 60), or for
#                                        FUZZ_RUNS executions when that is set, from its corpus,
#                                        adding what it finds to a scratch directory (the repo is
#                                        not written; FUZZ_KEEP_DIR=DIR keeps them for a later run)
#                                        No TARGET: every target (each parser family has one).
#   scripts/fuzz.sh regress [TARGET...]  runs each target once over its corpus and
#                                        tests/fuzz/regressions/<target>/ (quick: for CI), and
#                                        over FUZZ_KEEP_DIR/<target>/ when that is set (a corpus
#                                        grown by another build, replayed under the sanitizers)
# Any crash, sanitizer report, timeout (FUZZ_TIMEOUT seconds for one input, default 10) or
# out-of-memory fails the run; libFuzzer writes the input to FUZZ_BUILD_DIR/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
shift || true
build=${FUZZ_BUILD_DIR:-build-fuzz}
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
targets=("$@")
case "$mode" in run | regress) ;; *) echo "usage: $0 run|regress [TARGET...]" >&2; exit 2 ;; esac

bash scripts/apt_install.sh fuzz clang-14 libclang-rt-14-dev

# FUZZ_CHECKS: the sanitizers (default address,undefined; long counting runs use `undefined` with
# FUZZ_CXXFLAGS=-D_GLIBCXX_ASSERTIONS in a FUZZ_BUILD_DIR of their own: docs/fuzzing.md).
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTEXTEDGE_FUZZ_CHECKS="${FUZZ_CHECKS:-address,undefined}" -DCMAKE_CXX_FLAGS="${FUZZ_CXXFLAGS:-}" \
  -DTEXTEDGE_BUILD_FUZZERS=ON -DTEXTEDGE_BUILD_TESTS=OFF -DTEXTEDGE_BUILD_BENCHMARKS=OFF -DTEXTEDGE_BUILD_CLI=OFF \
  -DTEXTEDGE_INSTALL=OFF >/dev/null
mkdir -p "$build/artifacts"
# No targets named: all of them (tests/fuzz/CMakeLists.txt: one per fuzz_*.cpp, one per parser family).
cmake --build "$build" -j "${JOBS:-$(nproc)}" ${targets[@]+--target "${targets[@]}"} >"$build/artifacts/build.log" 2>&1 ||
  { tail -n 40 "$build/artifacts/build.log"; exit 1; }
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$build"/tests/fuzz/fuzz_*; do [ -x "$f" ] && targets+=("$(basename "$f")"); done
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=()
for t in "${targets[@]}"; do
  flags=(-timeout="$timeout" -rss_limit_mb=4096 -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1)
  [ -f "tests/fuzz/$t.dict" ] && flags+=(-dict="tests/fuzz/$t.dict")
  # parse_fuzzer.cpp takes up to 2 KB of text; searched at up to 512 bytes (several calls with
  # arguments and reasoning fit): fuzz_parse_apertus over its grown corpus ran 2.0k executions a
  # second at 2 KB against 3.8k at 512 (60 s each, side by side, 2026-12-03).
  [[ $t == fuzz_parse_* ]] && flags+=(-dict=tests/fuzz/fuzz_parse.dict -max_len="${FUZZ_PARSE_MAX_LEN:-512}")
  # fuzz_stream: 172 ids a stream are plenty for its checks; left to grow to 3 KB (1000 ids), it
  # ran 1.7k executions a second against 7.2k at this cap (2026-12-02).
  [ "$t" = fuzz_stream ] && flags+=(-max_len=520)
  # Read-only seeds besides the corpus: the regressions, and for templates the collected ones.
  seeds=()
  [ -d "tests/fuzz/corpus/$t" ] && seeds+=("tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && seeds+=("tests/fuzz/regressions/$t")
  [ "$t" = fuzz_jinja ] && seeds+=(tests/data/chat_templates)
  [ "$mode" = regress ] && [ -n "${FUZZ_KEEP_DIR:-}" ] && [ -d "$FUZZ_KEEP_DIR/$t" ] && seeds+=("$FUZZ_KEEP_DIR/$t")
  echo "fuzz: $t ($mode)"
  if [ "$mode" = regress ]; then
    [ ${#seeds[@]} -gt 0 ] || { echo "fuzz: $t has no corpus (tests/fuzz/corpus/$t/)" >&2; failed+=("$t"); continue; }
    "$build/tests/fuzz/$t" "${flags[@]}" -runs=0 "${seeds[@]}" 2>"$build/artifacts/$t.log" ||
      { tail -n 40 "$build/artifacts/$t.log"; failed+=("$t"); }
  else
    # libFuzzer adds what it finds to the first directory only: a scratch directory, read with
    # the corpus. FUZZ_KEEP_DIR keeps each target's grown corpus there, so a long run can go on later.
    if [ -n "${FUZZ_KEEP_DIR:-}" ]; then
      scratch=$FUZZ_KEEP_DIR/$t
      mkdir -p "$scratch"
    else
      scratch=$(mktemp -d)
    fi
    if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); else limit=(-max_total_time="$seconds"); fi
    "$build/tests/fuzz/$t" "${flags[@]}" "${limit[@]}" "$scratch" "${seeds[@]}" 2>"$build/artifacts/$t.log" ||
      { tail -n 60 "$build/artifacts/$t.log"; failed+=("$t"); }
    [ -n "${FUZZ_KEEP_DIR:-}" ] || rm -rf "$scratch"
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|cov: .* ft: " "$build/artifacts/$t.log" |
    tail -n 4 | sed 's/^/  /'
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets passed"
