#!/usr/bin/env bash
# make demo: the main job on the default model (Qwen3), checked live against the reference.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${MODEL:-models/qwen3}
te=build/textedge
ref=tools/reference

sample=$(mktemp); trap 'rm -f "$sample" "$sample".*' EXIT
python3 - "$sample" <<'PY'
import json, sys
lines = [
    "Hello, world! textedge owns the text boundary of an LLM serving engine.",
    "def greet(name: str) -> str:\n    return f\"Hi {name}!\"  # 2024-06-01",
    "Grüße aus Köln — 東京で寿司を食べました。 Привет, мир! مرحبا بالعالم नमस्ते दुनिया",
    "Emoji: 🧑‍🚀 👍🏽 🇯🇵 ❤️‍🔥 and ZWJ families 👨‍👩‍👧‍👦",
    "<|im_start|>user\nWhat's 12345 × 678?<|im_end|>\n<|im_start|>assistant\n",
    "   leading spaces, tabs\t\tand\r\nnewlines\n\n\n",
]
open(sys.argv[1], "w").write("\n".join(json.dumps(l, ensure_ascii=False) for l in lines) + "\n")
PY

echo "== textedge demo: $model"
python3 - "$($te info -m "$model")" <<'PY'
import json, sys
i = json.loads(sys.argv[1])
print(f"   model {i['model']}, vocabulary {i['vocab_size']}, {i['added_tokens']} added tokens")
print(f"   pipeline: normalizer {i['normalizer']} | pre-tokenizer {i['pre_tokenizer']}")
print(f"             post-processor {i['post_processor']} | decoder {i['decoder']}")
PY

$te encode -m "$model" --jsonl < "$sample" > "$sample.te"
node $ref/encode.js "$model" < "$sample" > "$sample.ref"
$te decode -m "$model" < "$sample.te" > "$sample.dec"
python3 - "$sample" <<'PY'
import json, sys
base = sys.argv[1]
texts = [json.loads(l) for l in open(base)]
ours = [json.loads(l) for l in open(base + ".te")]
refs = [json.loads(l) for l in open(base + ".ref")]
decs = [json.loads(l) for l in open(base + ".dec")]
same = 0
for text, a, b, d in zip(texts, ours, refs, decs):
    ok = a == b
    same += ok
    shown = text if len(text) < 60 else text[:57] + "..."
    print(f"\n   {json.dumps(shown, ensure_ascii=False)}")
    print(f"   -> {len(a)} ids {a[:12]}{' ...' if len(a) > 12 else ''}")
    print(f"   ids identical to Hugging Face tokenizers: {'yes' if ok else 'NO'}; decode round trip: {'exact' if d == text else 'differs'}")
print(f"\n   {same}/{len(texts)} samples id-identical to the reference (checked live)")
if same != len(texts):
    sys.exit(1)
PY

echo
echo "== streaming: the emoji sample's ids one per engine step, stop string \" and ZWJ\""
python3 -c 'import json,sys; [print(json.dumps([i])) for i in json.loads(open(sys.argv[1]).readlines()[3])]' "$sample.te" \
  > "$sample.steps"
$te stream -m "$model" --stop " and ZWJ" < "$sample.steps" > "$sample.stream"
node -e '
const { Tokenizer } = require("./'$ref'/node_modules/tokenizers");
const fs = require("fs");
const ids = JSON.parse(fs.readFileSync(process.argv[1] + ".te", "utf8").split("\n")[3]);
Tokenizer.fromFile(process.argv[2] + "/tokenizer.json").decode(ids, false).then((t) => console.log(JSON.stringify(t)));
' "$sample" "$model" > "$sample.refdec"
python3 - "$sample" <<'PY'
import json, sys
base = sys.argv[1]
steps = [json.loads(l) for l in open(base + ".stream")]
ref = json.loads(open(base + ".refdec").read())
text = "".join(s["text"] for s in steps)
last = steps[-1]
print("   deltas: " + " ".join(json.dumps(s["text"], ensure_ascii=False) for s in steps))
want = ref[: ref.find(" and ZWJ")]
print(f"   {len(steps)} steps, no half characters: {'yes' if all(chr(0xFFFD) not in s['text'] for s in steps) else 'NO'}; "
      f"finish_reason {last['finish_reason']}, stop_reason {json.dumps(last['stop_reason'], ensure_ascii=False)}")
print(f"   streamed text equals the reference's decode, cut at the stop: {'yes' if text == want else 'NO'}")
if text != want:
    sys.exit(1)
PY

echo
echo "== chat template: six messages, two tools, two tool calls, rendered with Qwen3's template"
request=bench/data/chat_six_messages_two_tools.json
$te render -m "$model" --request "$request" > "$sample.prompt"
$te render -m "$model" --request "$request" --ids > "$sample.prompt_ids"
/usr/bin/python3 - "$model" "$request" "$sample" <<'PY'
import json, os, sys
sys.path.insert(0, "tools/reference")
from chat_goldens import apply_chat_template, compile_template, special_tokens_of
model, request_path, base = sys.argv[1:4]
config = json.load(open(os.path.join(model, "tokenizer_config.json"), encoding="utf-8"))
want = apply_chat_template(compile_template(config["chat_template"]), json.load(open(request_path, encoding="utf-8")),
                           special_tokens_of(config))
got = open(base + ".prompt", encoding="utf-8").read()
ids = json.loads(open(base + ".prompt_ids").read())
lines = got.split("\n")
print("   " + "\n   ".join(l if len(l) < 100 else l[:97] + "..." for l in lines[:6]) + "\n   ...")
print(f"   {len(got)} characters, {len(ids)} ids; identical to transformers' Jinja2 rendering: {'yes' if got == want else 'NO'}")
if got != want:
    sys.exit(1)
PY

echo
echo "== speed, side by side (one thread each, same text, same run)"
MODELS="$(basename "$model")" bash scripts/bench_compare.sh
MODELS="$(basename "$model")" bash scripts/bench_stream.sh 2>/dev/null
MODELS="$(basename "$model")" bash scripts/bench_render.sh

echo
echo "== serving: textedge serve in front of llama.cpp's llama-server, through the official OpenAI client"
eval "$(bash scripts/engine.sh)"
LLAMA_SERVER=$LLAMA_SERVER ENGINE_MODEL=$ENGINE_MODEL TEXTEDGE_BIN=$te node scripts/demo_serve.mjs
