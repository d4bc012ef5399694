#!/usr/bin/python3
"""Inputs of scripts/bench_serve.sh, written deterministically into OUT_DIR:

  scripted.jsonl        the scripted engine's answers: one default answer (~200 Qwen3 tokens of
                        ASCII prose and code, every token a whole character, no '<' so that no
                        parser holds text back)
  expect.txt            that answer's text: every streamed response must assemble to it
  body_scripted.json    the streamed chat request of the capacity runs
  body_peer.json        the streamed chat request sent to llama-server and through textedge
                        (Qwen3 template, a tools array, 128 tokens, ignore_eos, a fixed seed)
  body_peer_ttft.json   the same with 8 tokens, for the one-client TTFT runs
  conversation.json     the prompt-path request: 100 messages (multilingual prose, code, tool
                        calls and their results) and three tools, ~32k Qwen3 tokens

usage: serve_data.py OUT_DIR [CONVERSATION_SCALE]
"""
import json
import random
import sys

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.85


def write(name, text):
    with open(f"{out}/{name}", "w", encoding="utf-8") as f:
        f.write(text)


# ---------------------------------------------------------------- the scripted answer
ANSWER = (
    "A streaming frontend has one job per token: turn an id into text that is certain, decide "
    "whether a stop string has begun, and write a small JSON chunk to the right socket. None of "
    "that should cost more than a few microseconds, so a single core can keep thousands of "
    "streams fed at the pace of the engine.\n\n"
    "```python\n"
    "def serve(requests, engine):\n"
    "    for request in requests:\n"
    "        ids = tokenize(render(request.messages))\n"
    "        for token in engine.generate(ids, max_tokens=request.max_tokens):\n"
    "            yield detokenize(token)\n"
    "```\n\n"
    "The loop above hides the hard parts: characters split across tokens, stop strings split "
    "across chunks, and clients that read slowly. Each of them is handled without copying the "
    "whole text again, which is why the cost per token stays flat as the answer grows. When "
    "a thousand clients stream at once, the same work repeats a thousand times per engine step, "
    "and the only thing that grows is the number of sockets to write."
)
assert "<" not in ANSWER and ANSWER.isascii()
write("scripted.jsonl", json.dumps({"match": "", "text": ANSWER}) + "\n")
write("expect.txt", ANSWER)
write("body_scripted.json", json.dumps({
    "model": "qwen3",
    "messages": [{"role": "user", "content": "Explain what a streaming frontend does per token."}],
    "stream": True, "stream_options": {"include_usage": True}, "max_tokens": 400,
}) + "\n")

# ---------------------------------------------------------------- the peer request
TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string", "description": "City name"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "search_docs", "description": "Full-text search over the project's documentation.",
        "parameters": {"type": "object", "properties": {
            "query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 50}},
            "required": ["query"]}}},
    {"type": "function", "function": {
        "name": "run_code", "description": "Runs a snippet in a sandbox and returns stdout and stderr.",
        "parameters": {"type": "object", "properties": {
            "language": {"type": "string", "enum": ["python", "cpp", "rust", "bash"]},
            "code": {"type": "string"}, "timeout_s": {"type": "number"}}, "required": ["language", "code"]}}},
]
# The random-weight model repeats its last token, and the generation prompt ends in "\n": it
# would answer only newlines, which llama-server's own streaming never sends as deltas (it holds
# trailing whitespace back), so no first token could be timed there. Banning "\n" (id 198) makes
# it repeat a word instead, on both paths alike.
PEER = {
    "model": "qwen3",
    "messages": [
        {"role": "system", "content": "You are a helpful assistant with access to tools."},
        {"role": "user", "content": "What is the weather in Paris and in Tokyo today, in celsius?"}],
    "tools": TOOLS,
    "stream": True, "stream_options": {"include_usage": True},
    "max_tokens": 128, "ignore_eos": True, "seed": 42, "temperature": 0.8,
    "logit_bias": {"198": -100},
}
write("body_peer.json", json.dumps(PEER) + "\n")
# The same request cut to 8 tokens, for timing the first token of one client at a time.
write("body_peer_ttft.json", json.dumps({**PEER, "max_tokens": 8}) + "\n")

# ---------------------------------------------------------------- the conversation
rng = random.Random(20261202)
PROSE = {
    "en": ["The tokenizer splits the text into pieces before the merges run.",
           "Every stream keeps a few pending bytes until a character is complete.",
           "We measured the latency at the ninety-ninth percentile, not the mean.",
           "A slow client must not make the server hold its output forever.",
           "The template decides where the special tokens go, not the tokenizer."],
    "fr": ["Le serveur garde une petite file d'attente pour les requêtes en trop.",
           "Chaque réponse est découpée en morceaux envoyés dès qu'ils sont sûrs.",
           "Les chaînes d'arrêt peuvent commencer dans un jeton et finir dans le suivant.",
           "Nous avons mesuré le débit avec mille connexions simultanées."],
    "de": ["Die Vorlage bestimmt, wo die besonderen Zeichen stehen.",
           "Jede Antwort wird Stück für Stück an den Client geschickt.",
           "Größere Eingaben brauchen länger, aber nicht überproportional.",
           "Der Zähler für die Verzögerung läuft pro Anfrage."],
    "es": ["El servidor responde con un error claro cuando la petición es demasiado larga.",
           "Cada cliente envía sus peticiones una tras otra por la misma conexión.",
           "La plantilla de chat se compila una sola vez al arrancar."],
    "zh": ["分词器先把文本切成小片段，然后再进行合并。",
           "每个流都会保留几个字节，直到一个字符完整为止。",
           "我们在同一台机器上测量了一千个并发连接的延迟。",
           "模板决定特殊标记的位置，而不是分词器。"],
    "ja": ["トークナイザーはまずテキストを小さな断片に分けます。",
           "各ストリームは文字が完成するまで数バイトを保持します。",
           "遅いクライアントのためにサーバーが無限に出力を保持してはいけません。"],
    "ru": ["Сервер держит небольшую очередь для лишних запросов.",
           "Каждый ответ отправляется частями, как только текст становится окончательным.",
           "Мы измерили задержку на девяносто девятом процентиле."],
    "ar": ["يقسم المحلل النص إلى أجزاء صغيرة قبل الدمج.",
           "يحتفظ كل تدفق ببضع بايتات حتى يكتمل الحرف."],
    "hi": ["सर्वर अतिरिक्त अनुरोधों के लिए एक छोटी कतार रखता है।",
           "हर उत्तर टुकड़ों में भेजा जाता है।"],
    "ko": ["토크나이저는 먼저 텍스트를 작은 조각으로 나눕니다.",
           "각 스트림은 문자가 완성될 때까지 몇 바이트를 보관합니다."],
    "emoji": ["Shipping it 🚀 after the benchmark passes ✅ — 🙂👍🏽", "Déjà vu: naïve façade, coöperate, Ångström 🧪"],
}
CODE = [
    "```python\nimport json\n\ndef load(path):\n    with open(path, encoding='utf-8') as f:\n        return [json.loads(line) for line in f if line.strip()]\n\nrows = load('requests.jsonl')\nprint(len(rows), sum(len(r['messages']) for r in rows))\n```",
    "```cpp\n#include <string>\n#include <vector>\n\nstd::vector<std::string> split(std::string_view s, char sep) {\n  std::vector<std::string> out;\n  for (std::size_t start = 0;;) {\n    auto end = s.find(sep, start);\n    out.emplace_back(s.substr(start, end - start));\n    if (end == std::string_view::npos) return out;\n    start = end + 1;\n  }\n}\n```",
    "```rust\nfn percentile(values: &mut Vec<f64>, p: f64) -> f64 {\n    values.sort_by(|a, b| a.partial_cmp(b).unwrap());\n    let k = ((p / 100.0) * values.len() as f64).ceil() as usize;\n    values[k.saturating_sub(1).min(values.len() - 1)]\n}\n```",
    "```bash\nfor c in 1 64 256 1000; do\n  ./load --concurrency \"$c\" --duration 20 > \"out/$c.json\" || echo \"failed at $c\"\ndone\n```",
    "```json\n{\"model\": \"qwen3\", \"stream\": true, \"max_tokens\": 128, \"stop\": [\"</answer>\", \"\\n\\n\"]}\n```",
]


def prose(n):
    langs = list(PROSE)
    parts = []
    for _ in range(n):
        lang = rng.choice(langs)
        parts.append(rng.choice(PROSE[lang]))
    return " ".join(parts)


def block():
    text = prose(rng.randint(4, 9))
    if rng.random() < 0.45:
        text += "\n\n" + rng.choice(CODE) + "\n\n" + prose(rng.randint(1, 3))
    return text


def tool_call(i):
    kind = rng.randrange(3)
    if kind == 0:
        name, args = "get_weather", {"city": rng.choice(["Paris", "東京", "São Paulo", "Zürich", "القاهرة"]),
                                     "unit": rng.choice(["celsius", "fahrenheit"])}
        result = {"city": args["city"], "temperature": round(rng.uniform(-5, 35), 1),
                  "conditions": rng.choice(["clear", "rain", "snow", "fog"]), "humidity": rng.randint(20, 95)}
    elif kind == 1:
        name, args = "search_docs", {"query": prose(1)[:60], "limit": rng.randint(3, 10)}
        result = {"hits": [{"path": f"docs/{rng.choice(['serving', 'performance', 'schema'])}.md",
                            "line": rng.randint(1, 400), "excerpt": prose(2)} for _ in range(rng.randint(2, 4))]}
    else:
        name, args = "run_code", {"language": "python", "code": rng.choice(CODE).split("\n", 1)[1].rsplit("```", 1)[0]}
        result = {"stdout": prose(2), "stderr": "", "exit_code": 0, "elapsed_ms": rng.randint(3, 900)}
    call = {"id": f"call_{i:04d}", "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
    return call, json.dumps(result, ensure_ascii=False)


def conversation(length_scale):
    global rng
    rng = random.Random(20261202)
    msgs = [{"role": "system", "content": "You are a careful multilingual engineering assistant. " + prose(3)}]
    i = 0
    # Turns of user, [assistant tool call, tool result,] assistant, while they fit in 99 messages.
    while True:
        turn = [{"role": "user", "content": block() + " " + prose(int(6 * length_scale))}]
        if rng.random() < 0.5:
            call, result = tool_call(i)
            i += 1
            turn.append({"role": "assistant", "content": "", "tool_calls": [call]})
            turn.append({"role": "tool", "tool_call_id": call["id"], "content": result})
        turn.append({"role": "assistant", "content": block() + " " + prose(int(8 * length_scale))})
        if len(msgs) + len(turn) > 99:
            break
        msgs += turn
    while len(msgs) < 99:  # fill up with short user/assistant pairs (an odd gap: one more system note)
        if 99 - len(msgs) == 1:
            msgs.append({"role": "assistant", "content": block()})
        else:
            msgs += [{"role": "user", "content": block()}, {"role": "assistant", "content": block()}]
    msgs.append({"role": "user", "content": "Summarize everything above in three languages. " + prose(2)})
    return msgs


msgs = conversation(scale)
assert len(msgs) == 100, len(msgs)
write("conversation.json", json.dumps({"model": "qwen3", "messages": msgs, "tools": TOOLS,
                                       "add_generation_prompt": True}, ensure_ascii=False) + "\n")
