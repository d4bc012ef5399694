#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (tests/fuzz/corpus/<target>/) from the repo's own data.

fuzz_tokenizer_load: each real tokenizer.json in models/, cut down. A real file takes 2-33 MB and a second or more to load, far too slow for one fuzzer execution.
Each seed keeps the file's whole structure (normalizer, pre_tokenizer, post_processor, decoder,
added_tokens, the model's options) with a small vocabulary and the first merges that it can
build: the base symbols (the byte alphabet, ASCII, byte-fallback tokens), then merges in rank
order whose two parts are already in it, each adding its result. Ids are renumbered densely in
their original order, and the post-processor's ids follow.

fuzz_jinja: the models' chat templates, textedge's default one and tests/data/jinja_cases.json's
templates (scripts/fuzz.sh adds tests/data/chat_templates/ as read-only seeds).
fuzz_json_reader: the requests of tests/data/chat_conversations.json and a few hard cases.
fuzz_schema: tests/data/schema_cases.json's schemas and the conversations' tools arrays, each
behind the fuzzer's two option bytes. fuzz_encode, fuzz_stream: a few hand-made inputs.

Usage: scripts/fuzz_seeds.py (from anywhere; writes into the checkout)
"""
import json
import os
import random

MODELS = ["qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"]
MERGES_KEPT = 40
ADDED_KEPT = 8


def is_base_symbol(token):
    if token.startswith("<0x") and token.endswith(">") and len(token) == 6:
        return True  # byte fallback
    if len(token) != 1:
        return False
    code = ord(token)
    return code < 0x80 or 0xA1 <= code <= 0x143 or token == "\u2581"  # ASCII, the byte alphabet, ▁


def merge_parts(merge):
    return merge if isinstance(merge, list) else merge.split(" ", 1)


def post_processor_tokens(processor):
    if not processor:
        return set()
    if processor.get("type") == "Sequence":
        return set().union(*(post_processor_tokens(p) for p in processor.get("processors", [])))
    if processor.get("type") == "TemplateProcessing":
        return {t for entry in processor.get("special_tokens", {}).values() for t in entry.get("tokens", [])}
    return {processor[k][0] for k in ("sep", "cls") if k in processor}


def renumber_post_processor(processor, new_id):
    if not processor:
        return
    if processor.get("type") == "Sequence":
        for p in processor.get("processors", []):
            renumber_post_processor(p, new_id)
    elif processor.get("type") == "TemplateProcessing":
        for entry in processor.get("special_tokens", {}).values():
            entry["ids"] = [new_id[t] for t in entry["tokens"]]
    else:
        for k in ("sep", "cls"):
            if k in processor:
                processor[k][1] = new_id[processor[k][0]]


def reduce(tokenizer):
    model = tokenizer["model"]
    vocab = model["vocab"]
    kept = {t for t in vocab if is_base_symbol(t)}
    if model.get("unk_token") in vocab:
        kept.add(model["unk_token"])
    merges = []
    for merge in model["merges"]:
        left, right = merge_parts(merge)
        if left in kept and right in kept and left + right in vocab:
            merges.append(merge)
            kept.add(left + right)
            if len(merges) == MERGES_KEPT:
                break

    added = tokenizer["added_tokens"]
    wanted = post_processor_tokens(tokenizer.get("post_processor")) | {model.get("unk_token")}
    stride = max(1, len(added) // ADDED_KEPT)
    added = [a for i, a in enumerate(added) if i < ADDED_KEPT // 2 or i % stride == 0 or a["content"] in wanted]

    old_ids = sorted({vocab[t] for t in kept} | {a["id"] for a in added})
    renumbered = {old: new for new, old in enumerate(old_ids)}
    model["vocab"] = {t: renumbered[i] for t, i in sorted(vocab.items(), key=lambda e: e[1]) if t in kept}
    model["merges"] = merges
    for a in added:
        a["id"] = renumbered[a["id"]]
    tokenizer["added_tokens"] = added
    new_id = dict(model["vocab"])
    new_id.update({a["content"]: a["id"] for a in added})
    renumber_post_processor(tokenizer.get("post_processor"), new_id)
    return tokenizer


def write(target, name, data):
    """Writes one seed (bytes or text) atomically."""
    out_dir = os.path.join("tests/fuzz/corpus", target)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    with open(path + ".tmp", "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
    os.replace(path + ".tmp", path)
    return path


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def tokenizer_seeds():
    for name in MODELS:
        tokenizer = reduce(read_json(os.path.join("models", name, "tokenizer.json")))
        path = write("fuzz_tokenizer_load", name + ".json", json.dumps(tokenizer, ensure_ascii=False, separators=(",", ":")))
        model = tokenizer["model"]
        print(f"{path}: {len(model['vocab'])} vocab, {len(model['merges'])} merges, "
              f"{len(tokenizer['added_tokens'])} added, {os.path.getsize(path)} bytes")


def jinja_seeds():
    for name in MODELS:
        template = read_json(os.path.join("models", name, "tokenizer_config.json")).get("chat_template")
        if isinstance(template, str):
            write("fuzz_jinja", name + ".jinja", template)
    with open("src/chat/default_template.jinja", encoding="utf-8") as f:
        write("fuzz_jinja", "default.jinja", f.read())
    seen = set()
    for case in read_json("tests/data/jinja_cases.json"):
        if case["template"] not in seen:
            seen.add(case["template"])
            write("fuzz_jinja", "case_" + case["name"].replace("/", "_") + ".jinja", case["template"])


def json_reader_seeds():
    for case in read_json("tests/data/chat_conversations.json"):
        write("fuzz_json_reader", case["name"] + ".json", json.dumps(case["request"], ensure_ascii=False))
    hard = {
        "escapes": r'["\u0000\ud83d\ude00\u00e9\t\n\"\\\/\b\f\r", "\ud800", "x\udc00y"]',
        "numbers": "[0, -0, -0.0, 1e400, -1e-400, 9223372036854775807, -9223372036854775808, 2.5e+3, 1E-2]",
        "duplicates": '{"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k3": "x", "k0": null}',
        "nested": "[" * 40 + "{}" + "]" * 40,
        "long_string": json.dumps(["a long string that crosses several sixteen-byte blocks " * 4 + '"q"']),
    }
    for name, text in hard.items():
        write("fuzz_json_reader", name + ".json", text)


def schema_seeds():
    for case in read_json("tests/data/schema_cases.json"):
        text = json.dumps(case["schema"])
        # flags: default max_depth (3) and any_depth (2), then strict too
        write("fuzz_schema", "schema_" + case["name"] + ".bin", bytes([0x2C, 0]) + text.encode())
        write("fuzz_schema", "strict_" + case["name"] + ".bin", bytes([0x2E, 0]) + text.encode())
    formats = 10  # the fuzzer's format list
    k = 0
    for case in read_json("tests/data/chat_conversations.json"):
        if "tools" in case["request"]:
            text = json.dumps(case["request"]["tools"]).encode()
            for flags in (0x2D, 0x6D, 0xAD):  # default depths; parallel; get_weather only
                write("fuzz_schema", f"tools_{case['name']}_{flags:02x}.bin", bytes([flags, k % formats]) + text)
                k += 1


def encode_seeds():
    texts = [
        "Hello world! The quick brown fox, 12345 times.\n\n  Indented\tand tabbed.",
        "naïve café 漢字かなカナ 한국어 Ελληνικά русский עברית العربية हिन्दी 🙂👍🏽 🇫🇷",
        "<|im_start|>user\nHi<|im_end|>\n<s>[INST] x [/INST]</s><bos><start_of_turn>",
        "def f(x):\n    return x ** 2  # comment\n\n\n\r\n    ",
    ]
    for i, text in enumerate(texts):
        for model in range(4):
            write("fuzz_encode", f"text{i}_model{model}.bin", bytes([model]) + text.encode())
    invalid = [b"abc\xff", b"\xe6\xbc", b"x\xed\xa0\x80y", b"\xf4\x90\x80\x80", b"\xc0\xafok", b"\xf0\x9f\x99"]
    for i, text in enumerate(invalid):
        write("fuzz_encode", f"invalid{i}_strict.bin", bytes([i % 4]) + text)
        write("fuzz_encode", f"invalid{i}_lossy.bin", bytes([0x20 | (i % 4)]) + text)


def stream_seeds():
    # Records of three bytes (see tests/fuzz/fuzz_stream.cpp): ids of each kind and step
    # boundaries, on each model and special-token mode, with and without a prompt and stops.
    rng = random.Random(11)
    for i in range(16):
        header = bytes([i % 4 | (i // 4 % 4) << 2 | (0x10 if i % 3 else 0) | (0x20 if i % 2 else 0) | (0x40 if i % 5 == 0 else 0),
                        rng.randrange(8), rng.randrange(256), rng.randrange(256)])
        records = b""
        for _ in range(24):
            kind = rng.choice([0, 0, 1, 1, 1, 2, 3])
            records += bytes([kind << 6 | rng.randrange(64), rng.randrange(256), rng.randrange(256)])
        write("fuzz_stream", f"seed{i:02d}.bin", header + records)


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    tokenizer_seeds()
    jinja_seeds()
    json_reader_seeds()
    schema_seeds()
    encode_seeds()
    stream_seeds()


if __name__ == "__main__":
    main()
