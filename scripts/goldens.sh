#!/usr/bin/env bash
# Regenerates the reference goldens that the tests compare textedge against, into the build's
# goldens directory G (TEXTEDGE_GOLDENS_DIR of $BUILD_DIR/CMakeCache.txt, else $BUILD_DIR/goldens;
# the tests read it through CMake's TEXTEDGE_GOLDENS_DIR), but only what is out of date:
#   G/corpus/       the test corpus (scripts/make_corpus.py; fails when a category it relies on is empty)
#   G/MODEL.jsonl, G/MODEL.stream.jsonl   per model, Hugging Face tokenizers through Node
#                   (tests/tokenizer/reference_test.cpp, tests/streaming/detokenizer_test.cpp)
#   G/schema.jsonl  python3-jsonschema's labels (tests/schema/schema_test.cpp)
#   G/jinja.jsonl   Python Jinja2 (tests/chat/jinja/jinja_test.cpp), on tests/data/jinja_cases.json, the
#                   chat templates in $JINJA_TEMPLATES (default tests/data/chat_templates) and the models'
#   G/chat.jsonl    transformers' apply_chat_template on Jinja2 (tests/chat/chat_template_test.cpp)
#   G/padding.jsonl truncation and padding as transformers' fast tokenizers do them, Hugging Face
#                   tokenizers through Node (tests/python/test_compat_padding.py)
# Each output has a stamp (G/NAME.stamp) holding the signature of everything it was made from:
# the path, size and modification time of every input file (the generator scripts, this script,
# the models, the corpus, the installed reference package) and the versions of the tools (Node,
# tokenizers, Python, Jinja2, jsonschema). An output is stale when its signature changed in any
# way (a file newer or older, added or gone, another version), or when it is missing. Every
# generator writes a temporary file and renames it; every goldens file ends with a count line.
#
# Usage: scripts/goldens.sh [--force] [--check] [MODEL...]     (default: all six models)
#   --check   generate nothing; list what is stale and why, and exit 1 if anything is.
# Env: BUILD_DIR (default build), GOLDENS_DIR (overrides G), JOBS (models generated in parallel;
#      default 2), NODE (default node), PYTHON (the corpus's; default python3),
#      SCHEMA_PYTHON (the Python with python3-jsonschema; default /usr/bin/python3),
#      JINJA_PYTHON (the Python with python3-jinja2; default /usr/bin/python3), JINJA_TEMPLATES.
set -euo pipefail
cd "$(dirname "$0")/.."
self=scripts/goldens.sh

ALL_MODELS=(qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2)
force=0
check=0
models=()
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    --check) check=1 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) models+=("$arg") ;;
  esac
done
[ ${#models[@]} -eq 0 ] && models=("${ALL_MODELS[@]}")

BUILD_DIR=${BUILD_DIR:-build}
if [ -z "${GOLDENS_DIR:-}" ] && [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
  GOLDENS_DIR=$(sed -n 's/^TEXTEDGE_GOLDENS_DIR:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
fi
# Absolute, so that the stamps (which name the corpus files) do not depend on how it is spelled.
goldens=$(realpath -m "${GOLDENS_DIR:-$BUILD_DIR/goldens}")
corpus=$goldens/corpus
NODE=${NODE:-node}
PYTHON=${PYTHON:-python3}
SCHEMA_PYTHON=${SCHEMA_PYTHON:-/usr/bin/python3}
JINJA_PYTHON=${JINJA_PYTHON:-/usr/bin/python3}
JINJA_TEMPLATES=${JINJA_TEMPLATES:-tests/data/chat_templates}
JOBS=${JOBS:-2}
reference=tools/reference

if [ "$check" = 0 ]; then
  if [ ! -d "$reference/node_modules/tokenizers" ]; then
    echo "goldens: $reference/node_modules/tokenizers is missing; run scripts/setup.sh" >&2
    exit 1
  fi
  for m in "${models[@]}"; do
    if [ ! -f "models/$m/tokenizer.json" ]; then
      echo "goldens: models/$m/tokenizer.json is missing; run scripts/setup.sh" >&2
      exit 1
    fi
  done
  mkdir -p "$corpus"
fi

# The versions that change what the generators write, one per line.
python_versions() {  # PYTHON MODULE...: the interpreter, and each module's version and location
  "$1" - "${@:2}" <<'PY'
import importlib, importlib.metadata, sys, unicodedata
print("python", sys.executable, sys.version.split()[0], "unicode", unicodedata.unidata_version)
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    print(name, importlib.metadata.version(name), module.__file__)
PY
}
node_versions="node $("$NODE" --version)
tokenizers $(sed -n 's/^ *"version": *"\(.*\)",*$/\1/p' "$reference/node_modules/tokenizers/package.json" 2>/dev/null | head -1)"
corpus_versions=$(python_versions "$PYTHON")
schema_versions=$(python_versions "$SCHEMA_PYTHON" jsonschema)
jinja_versions=$(python_versions "$JINJA_PYTHON" jinja2)

# The signature of a set of inputs: the given version lines, then one line per input file (each
# file of a directory) with its size and modification time, or "missing".
signature() {
  local versions=$1 p
  shift
  printf '%s\n' "$versions"
  for p in "$@"; do
    if [ -e "$p" ]; then
      find "$p" -type f -printf '%p %s %T@\n' | LC_ALL=C sort
    else
      echo "$p missing"
    fi
  done
}

# Why NAME (stamp $goldens/NAME.stamp, signature $2, outputs after) must be rebuilt; empty when
# it is up to date.
stale_reason() {
  local stamp=$goldens/$1.stamp key=$2 out
  shift 2
  [ "$force" = 1 ] && { echo "forced"; return; }
  for out in "$@"; do
    [ -f "$out" ] || { echo "$out is missing"; return; }
  done
  [ -f "$stamp" ] || { echo "no stamp"; return; }
  [ "$(cat "$stamp")" = "$key" ] && return
  # The first input whose line differs (a file by its path, a version as it is now), or the first
  # one gone.
  local line gone=""
  line=$(diff <(cat "$stamp") <(printf '%s\n' "$key") | sed -n 's/^> //p' | head -1)
  [ -n "$line" ] || { line=$(diff <(cat "$stamp") <(printf '%s\n' "$key") | sed -n 's/^< //p' | head -1); gone=" (gone)"; }
  echo "changed: $(awk '{ if (NF == 3 && $3 ~ /^[0-9.]+$/) print $1; else print }' <<<"$line")$gone"
}

write_stamp() {  # NAME KEY: written after its outputs, through a temporary file
  printf '%s\n' "$2" >"$goldens/$1.stamp.tmp"
  mv "$goldens/$1.stamp.tmp" "$goldens/$1.stamp"
}

stale_names=()
# Decides whether NAME must be rebuilt; in --check mode, records and reports it instead.
needs_build() {
  local name=$1 reason
  reason=$(stale_reason "$@")
  [ -z "$reason" ] && return 1
  if [ "$check" = 1 ]; then
    echo "goldens: stale: $name ($reason)" >&2
    stale_names+=("$name")
    return 1
  fi
  echo "goldens: $name ($reason)" >&2
  return 0
}

model_configs=()
model_jsons=()
for m in "${ALL_MODELS[@]}"; do
  model_jsons+=("models/$m/tokenizer.json")
  model_configs+=("models/$m/tokenizer_config.json")
done

# JSON Schema goldens.
schema_key=$(signature "$schema_versions" tests/data/schema_cases.json "$reference/schema_goldens.py" "$self")
if needs_build schema "$schema_key" "$goldens/schema.jsonl"; then
  "$SCHEMA_PYTHON" "$reference/schema_goldens.py" tests/data/schema_cases.json "$goldens/schema.jsonl"
  write_stamp schema "$schema_key"
fi

# The corpus (make_corpus.py rewrites only files whose content changed, so an unchanged corpus
# leaves the model goldens' signatures as they were).
corpus_key=$(signature "$corpus_versions" scripts/make_corpus.py "$self" "${model_jsons[@]}")
if needs_build corpus "$corpus_key" "$corpus/categories.txt"; then
  "$PYTHON" scripts/make_corpus.py --out "$corpus" || { echo "goldens: FAILED for the corpus" >&2; exit 1; }
  write_stamp corpus "$corpus_key"
fi

corpus_files=()
for f in "$corpus"/*.jsonl; do [ -f "$f" ] && corpus_files+=("$f"); done
pids=()
names=()
for m in "${models[@]}"; do
  key=$(signature "$node_versions" "${corpus_files[@]}" "$corpus/categories.txt" "models/$m/tokenizer.json" \
        "$reference/goldens.js" "$reference/stream_goldens.js" "$reference/node_modules/tokenizers" "$self")
  if needs_build "$m" "$key" "$goldens/$m.jsonl" "$goldens/$m.stream.jsonl"; then
    # Throttle to $JOBS concurrent generators (each also uses the reference's own threads).
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    (
      "$NODE" "$reference/goldens.js" "models/$m" "$goldens/$m.jsonl" "${corpus_files[@]}"
      "$NODE" "$reference/stream_goldens.js" "models/$m" "$goldens/$m.stream.jsonl" "${corpus_files[@]}"
      write_stamp "$m" "$key"
    ) &
    pids+=($!)
    names+=("$m")
  fi
done

# Jinja goldens (independent of the tokenizer goldens above).
jinja_args=("$goldens/jinja.jsonl" tests/data/jinja_cases.json)
[ -d "$JINJA_TEMPLATES" ] && jinja_args+=(--templates "$JINJA_TEMPLATES")
jinja_configs=()
for c in "${model_configs[@]}"; do [ -f "$c" ] && jinja_configs+=("$c"); done
[ ${#jinja_configs[@]} -gt 0 ] && jinja_args+=(--models "${jinja_configs[@]}")
jinja_key=$(signature "$jinja_versions" tests/data/jinja_cases.json "$JINJA_TEMPLATES" "${model_configs[@]}" \
            "$reference/jinja_env.py" "$reference/jinja_goldens.py" "$self")
if needs_build jinja "$jinja_key" "$goldens/jinja.jsonl"; then
  "$JINJA_PYTHON" "$reference/jinja_goldens.py" "${jinja_args[@]}" || { echo "goldens: FAILED for jinja" >&2; exit 1; }
  write_stamp jinja "$jinja_key"
fi

# Chat-template goldens: the template corpus, the models' templates and textedge's default.
chat_key=$(signature "$jinja_versions" tests/data/chat_conversations.json tests/data/chat_templates \
           "${model_configs[@]}" src/chat/default_template.jinja "$reference/chat_goldens.py" "$reference/jinja_env.py" \
           "$self")
if needs_build chat "$chat_key" "$goldens/chat.jsonl"; then
  "$JINJA_PYTHON" "$reference/chat_goldens.py" "$goldens/chat.jsonl" || { echo "goldens: FAILED for chat" >&2; exit 1; }
  write_stamp chat "$chat_key"
fi

padding_models=()
for m in "${ALL_MODELS[@]}"; do padding_models+=("models/$m"); done
padding_key=$(signature "$node_versions" "${model_jsons[@]}" "${model_configs[@]}" "$reference/padding_goldens.js" \
              "$reference/node_modules/tokenizers" "$self")
if needs_build padding "$padding_key" "$goldens/padding.jsonl"; then
  "$NODE" "$reference/padding_goldens.js" "$goldens/padding.jsonl" "${padding_models[@]}" ||
    { echo "goldens: FAILED for padding" >&2; exit 1; }
  write_stamp padding "$padding_key"
fi

failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "goldens: FAILED for ${failed[*]}" >&2
  exit 1
fi
if [ "$check" = 1 ]; then
  [ ${#stale_names[@]} -gt 0 ] && { echo "goldens: stale in $goldens: ${stale_names[*]}; run scripts/goldens.sh" >&2; exit 1; }
  echo "goldens: up to date in $goldens (${models[*]}, schema, corpus, jinja, chat, padding)" >&2
  exit 0
fi
echo "goldens: up to date in $goldens" >&2
exit 0
