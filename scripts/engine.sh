#!/usr/bin/env bash
# Builds the real engine the server tests, demo and benchmarks run: llama.cpp's llama-server,
# from the source that the npm package node-llama-cpp (pinned below) carries as a git bundle.
# Release, CPU only, no curl, static, into a cache outside the repository keyed by the bundle's
# commit, so later runs reuse it. Then the model it serves: tools/engine/make_model.py writes a
# random-weight Qwen3 GGUF with the real tokenizer of models/qwen3, cached by its inputs.
# Prints two lines for `eval`: LLAMA_SERVER=... and ENGINE_MODEL=...
#   TEXTEDGE_CACHE  cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/textedge)
set -euo pipefail
cd "$(dirname "$0")/.."

package=node-llama-cpp@3.21.1
cache=${TEXTEDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/textedge}
mkdir -p "$cache/npm"
log() { echo "engine: $*" >&2; }

tarball="$cache/npm/${package/@/-}.tgz"
if [ ! -f "$tarball" ]; then
  log "fetching $package from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack "$package" --silent >/dev/null)
  mv "$tmp"/*.tgz "$tarball"
  rm -rf "$tmp"
fi
bundle="$cache/npm/${package/@/-}.bundle"
if [ ! -f "$bundle" ]; then
  tmp=$(mktemp -d)
  tar -xzf "$tarball" -C "$tmp" package/llama/gitRelease.bundle
  mv "$tmp/package/llama/gitRelease.bundle" "$bundle"
  rm -rf "$tmp"
fi
commit=$(git bundle list-heads "$bundle" | awk '$2 == "HEAD" {print $1}')
[ -n "$commit" ] || { log "no HEAD in $bundle"; exit 1; }
root="$cache/llama.cpp/$commit"
server="$root/build/bin/llama-server"

bash scripts/apt_install.sh engine cmake g++ git python3-numpy python3-yaml

if [ ! -f "$root/.built" ]; then
  start=$(date +%s)
  if [ ! -d "$root/src/.git" ]; then
    log "cloning llama.cpp $commit from the bundle"
    rm -rf "$root/src"
    mkdir -p "$root"
    git clone -q "$bundle" "$root/src" 2>/dev/null
    git -C "$root/src" checkout -q "$commit"
  fi
  log "building llama-server (Release, CPU, no curl) in $root/build: once per machine (about 6 minutes on 2 cores)"
  cmake -S "$root/src" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
    >"$root/configure.log" 2>&1 || { tail -n 30 "$root/configure.log" >&2; exit 1; }
  # Progress: one line per 10% of the build.
  cmake --build "$root/build" -j "${JOBS:-$(nproc)}" --target llama-server 2>&1 | tee "$root/build.log" |
    sed -un 's/^\[ *\([0-9]*\)%\].*/\1/p' |
    awk '{ p = int($1 / 10) * 10; if (p > last) { print "engine: build " p "%" > "/dev/stderr"; last = p } }'
  [ "${PIPESTATUS[0]}" -eq 0 ] || { tail -n 40 "$root/build.log" >&2; exit 1; }
  touch "$root/.built"
  log "built llama-server in $(($(date +%s) - start)) s"
fi

key=$(cat tools/engine/make_model.py models/qwen3/tokenizer.json models/qwen3/tokenizer_config.json | sha256sum | cut -c1-16)
model="$cache/models/qwen3-random-$key.gguf"
if [ ! -f "$model" ]; then
  [ -f models/qwen3/tokenizer.json ] || { log "models/qwen3 is missing: run scripts/setup.sh first"; exit 1; }
  log "writing the random-weight Qwen3 model"
  mkdir -p "$cache/models"
  PYTHONPATH="$root/src/gguf-py" /usr/bin/python3 tools/engine/make_model.py models/qwen3 "$model.tmp"
  mv "$model.tmp" "$model"
fi
echo "LLAMA_SERVER=$server"
echo "ENGINE_MODEL=$model"
