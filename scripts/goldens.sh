#!/usr/bin/env bash
# Regenerates the reference goldens that the tests compare textedge against
# (build/goldens/MODEL.jsonl for tests/tokenizer/reference_test.cpp, MODEL.stream.jsonl for
# tests/streaming/detokenizer_test.cpp), for every model, and build/goldens/schema.jsonl (tests/schema/schema_test.cpp,
# from tests/data/schema_cases.json), but only what is out of date:
#   - the corpus (build/corpus/*.jsonl, categories.txt) is rebuilt when scripts/make_corpus.py or a model's
#     tokenizer.json is newer than build/corpus/.stamp (make_corpus.py rewrites only files whose
#     content changed, so an unchanged corpus does not invalidate the goldens);
#   - a model's goldens are rebuilt when the corpus, its tokenizer.json, tools/reference/goldens.js,
#     this script or the reference package is newer than build/goldens/MODEL.stamp;
#   - build/goldens/jinja.jsonl (tests/chat/jinja/jinja_test.cpp) is rebuilt with Python Jinja2 (Debian's
#     python3-jinja2 under /usr/bin/python3) when tests/data/jinja_cases.json, the chat templates in
#     $JINJA_TEMPLATES (default tests/data/chat_templates, a copy of ../shared/chat-templates), a tokenizer_config.json,
#     tools/reference/jinja_*.py or this script is newer than it.
# When everything is up to date it only compares modification times.
#
# Usage: scripts/goldens.sh [--force] [MODEL...]     (default: all six models)
# Env: JOBS (models generated in parallel; default 2), NODE (default node), PYTHON (default python3),
#      SCHEMA_PYTHON (the Python with python3-jsonschema; default /usr/bin/python3),
#      JINJA_PYTHON (default /usr/bin/python3), JINJA_TEMPLATES (default tests/data/chat_templates).
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_MODELS=(qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2)
force=0
models=()
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) models+=("$arg") ;;
  esac
done
[ ${#models[@]} -eq 0 ] && models=("${ALL_MODELS[@]}")

NODE=${NODE:-node}
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-2}
corpus=build/corpus
goldens=build/goldens
reference=tools/reference
mkdir -p "$corpus" "$goldens"

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

# True when $1 is missing or any of the remaining paths is newer than it.
out_of_date() {
  local stamp=$1; shift
  [ "$force" = 1 ] && return 0
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$@" -newer "$stamp" -print -quit 2>/dev/null)" ]
}

# JSON Schema goldens (tests/schema/schema_test.cpp): texts labelled by Debian's python3-jsonschema.
SCHEMA_PYTHON=${SCHEMA_PYTHON:-/usr/bin/python3}
if out_of_date "$goldens/schema.stamp" tests/data/schema_cases.json "$reference/schema_goldens.py" \
   || [ ! -f "$goldens/schema.jsonl" ]; then
  echo "goldens: schema" >&2
  touch "$goldens/schema.stamp.new"
  "$SCHEMA_PYTHON" "$reference/schema_goldens.py" tests/data/schema_cases.json "$goldens/schema.jsonl"
  mv "$goldens/schema.stamp.new" "$goldens/schema.stamp"
fi

corpus_inputs=(scripts/make_corpus.py)
for m in "${ALL_MODELS[@]}"; do
  [ -f "models/$m/tokenizer.json" ] && corpus_inputs+=("models/$m/tokenizer.json")
done
if out_of_date "$corpus/.stamp" "${corpus_inputs[@]}" || [ ! -f "$corpus/categories.txt" ]; then
  echo "goldens: building corpus" >&2
  # Stamp first: anything changing while make_corpus.py runs will be newer than it.
  touch "$corpus/.stamp.new"
  "$PYTHON" scripts/make_corpus.py --out "$corpus"
  mv "$corpus/.stamp.new" "$corpus/.stamp"
fi

corpus_files=("$corpus"/*.jsonl)
pids=()
names=()
for m in "${models[@]}"; do
  stamp="$goldens/$m.stamp"
  if out_of_date "$stamp" "${corpus_files[@]}" "$corpus/categories.txt" "models/$m/tokenizer.json" \
       "$reference/goldens.js" "$reference/stream_goldens.js" "$reference/node_modules/tokenizers/package.json" "$0" \
     || [ ! -f "$goldens/$m.jsonl" ] || [ ! -f "$goldens/$m.stream.jsonl" ]; then
    # Throttle to $JOBS concurrent generators (each also uses the reference's own threads).
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    (
      touch "$goldens/$m.stamp.new"
      "$NODE" "$reference/goldens.js" "models/$m" "$goldens/$m.jsonl" "${corpus_files[@]}"
      "$NODE" "$reference/stream_goldens.js" "models/$m" "$goldens/$m.stream.jsonl" "${corpus_files[@]}"
      mv "$goldens/$m.stamp.new" "$stamp"
    ) &
    pids+=($!)
    names+=("$m")
  fi
done

# Jinja goldens (independent of the tokenizer goldens above).
JINJA_PYTHON=${JINJA_PYTHON:-/usr/bin/python3}
JINJA_TEMPLATES=${JINJA_TEMPLATES:-tests/data/chat_templates}
jinja_args=("$goldens/jinja.jsonl" tests/data/jinja_cases.json)
jinja_inputs=(tests/data/jinja_cases.json "$reference/jinja_env.py" "$reference/jinja_goldens.py" "$0")
if [ -d "$JINJA_TEMPLATES" ]; then
  jinja_args+=(--templates "$JINJA_TEMPLATES")
  jinja_inputs+=("$JINJA_TEMPLATES")
fi
jinja_configs=()
for m in "${ALL_MODELS[@]}"; do
  [ -f "models/$m/tokenizer_config.json" ] && jinja_configs+=("models/$m/tokenizer_config.json")
done
if [ ${#jinja_configs[@]} -gt 0 ]; then
  jinja_args+=(--models "${jinja_configs[@]}")
  jinja_inputs+=("${jinja_configs[@]}")
fi
jinja_stale=0
if out_of_date "$goldens/jinja.jsonl" "${jinja_inputs[@]}"; then
  echo "goldens: jinja" >&2
  jinja_stale=1
  "$JINJA_PYTHON" "$reference/jinja_goldens.py" "${jinja_args[@]}" || { echo "goldens: FAILED for jinja" >&2; exit 1; }
fi

# Chat-template goldens (tests/chat/chat_template_test.cpp): transformers' apply_chat_template on
# Jinja2 over the template corpus, the models' templates and textedge's default.
chat_inputs=(tests/data/chat_conversations.json tests/data/chat_templates "$reference/chat_goldens.py"
             src/chat/default_template.jinja "${jinja_configs[@]}")
if out_of_date "$goldens/chat.jsonl" "${chat_inputs[@]}"; then
  echo "goldens: chat" >&2
  "$JINJA_PYTHON" "$reference/chat_goldens.py" "$goldens/chat.jsonl" || { echo "goldens: FAILED for chat" >&2; exit 1; }
fi

failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${names[$i]}")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "goldens: FAILED for ${failed[*]}" >&2
  exit 1
fi
[ ${#pids[@]} -eq 0 ] && [ "$jinja_stale" = 0 ] && echo "goldens: up to date (${models[*]}, jinja)" >&2
exit 0
