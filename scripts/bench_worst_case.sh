#!/usr/bin/env bash
# Worst-case inputs: text without any whitespace (one letter repeated, random letters, CJK,
# Burmese), at 256 KiB and 1 MiB, encoded as ONE piece by every model. Prints seconds per pass
# and the 1 MiB / 256 KiB time ratio (4 means linear).
# Usage: scripts/bench_worst_case.sh      Env: MODELS, TEXTEDGE (default build/textedge)
set -euo pipefail
cd "$(dirname "$0")/.."
models=(${MODELS:-qwen3 llama3_1 gemma3 deepseek_v3 gptoss llama2})
textedge=${TEXTEDGE:-build/textedge}
dir=build/worst_case
mkdir -p "$dir"
python3 - "$dir" <<'PY'
import random, sys
out = sys.argv[1]
rng = random.Random(1)
kinds = {
    "repeated_letter": lambda n: "a" * n,
    "random_letters": lambda n: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n)),
    "cjk": lambda n: "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(n // 3)),
    "burmese": lambda n: "".join(chr(rng.randint(0x1000, 0x109F)) for _ in range(n // 3)),
}
for name, make in kinds.items():
    for size in (256 << 10, 1 << 20):
        text = make(size).encode()[:size].decode("utf-8", "ignore")
        open(f"{out}/{name}_{size >> 10}k.txt", "w").write(text)
PY
printf "%-12s %-16s %12s %12s %8s\n" model input "256KiB s" "1MiB s" ratio
for m in "${models[@]}"; do
  for kind in repeated_letter random_letters cjk burmese; do
    small=$("$textedge" bench encode -m "models/$m" "$dir/${kind}_256k.txt" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
    large=$("$textedge" bench encode -m "models/$m" "$dir/${kind}_1024k.txt" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
    python3 -c "print(f'%-12s %-16s %12.3f %12.3f %8.2f' % ('$m', '$kind', $small, $large, $large / $small))"
  done
done
