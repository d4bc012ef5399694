"""Renders Jinja cases with the reference environment (jinja_env.py) and writes one JSON line per case.

Usage: /usr/bin/python3 tools/reference/jinja_goldens.py OUT.jsonl CASES.json [--templates DIR] [--models CONFIG...]
  CASES.json   a JSON list of {"name", "template", "context"}
  --templates  every DIR/*.jinja, rendered with each conversation in CONVERSATIONS
  --models     the chat_template of each tokenizer_config.json (when it has one), likewise
Each case line is self-contained, so the C++ test needs nothing else:
  {"name", "template", "context", "ok": true, "output"} or {..., "ok": false, "error_type", "message"}.
A {"meta": {"jinja2", "now"}} line comes first (now: the time strftime_now formats, pinned), and
{"end": {"cases": N}} last, so a truncated file is refused.
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jinja2  # noqa: E402

from jinja_env import PINNED_NOW, make_environment  # noqa: E402

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather in a city.",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "The city name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}]

SPECIAL = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}

CONVERSATIONS = {
    "system_user_assistant": dict(SPECIAL, add_generation_prompt=False, messages=[
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Hello! What is 2+2?"},
        {"role": "assistant", "content": "2+2 equals 4."}]),
    "user_assistant_user_gen": dict(SPECIAL, add_generation_prompt=True, messages=[
        {"role": "user", "content": "Hi there"},
        {"role": "assistant", "content": "Hello! How can I help you today?"},
        {"role": "user", "content": "Tell me a joke about \"quotes\" & <tags>."}]),
    "tools": dict(SPECIAL, add_generation_prompt=True, tools=TOOLS, messages=[
        {"role": "system", "content": "You can call tools."},
        {"role": "user", "content": "What's the weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "call_1", "function": {
            "name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}}]},
        {"role": "tool", "content": "{\"temperature\": 21}", "tool_call_id": "call_1", "name": "get_weather"},
        {"role": "user", "content": "Thanks! 日本語も大丈夫？"}]),
}


def render(env, source, context):
    try:
        return {"ok": True, "output": env.from_string(source).render(**context)}
    except Exception as e:  # the engine must fail wherever Jinja2 fails
        return {"ok": False, "error_type": type(e).__name__, "message": str(e)}


def main():
    args = sys.argv[1:]
    out_path, cases_path = args[0], args[1]
    templates_dir, configs = None, []
    rest = args[2:]
    while rest:
        flag = rest.pop(0)
        if flag == "--templates":
            templates_dir = rest.pop(0)
        elif flag == "--models":
            while rest and not rest[0].startswith("--"):
                configs.append(rest.pop(0))
    cases = []
    with open(cases_path, encoding="utf-8") as f:
        for case in json.load(f):
            cases.append((case["name"], case["template"], case.get("context", {})))
    real = []
    if templates_dir:
        for path in sorted(glob.glob(os.path.join(templates_dir, "*.jinja"))):
            with open(path, encoding="utf-8", newline="") as f:
                real.append(("template/" + os.path.basename(path), f.read()))
    for path in configs:
        with open(path, encoding="utf-8") as f:
            source = json.load(f).get("chat_template")
        if isinstance(source, str):
            real.append(("model/" + os.path.basename(os.path.dirname(path)), source))
    for name, source in real:
        for conv, context in CONVERSATIONS.items():
            cases.append((name + "/" + conv, source, context))
    env = make_environment(now=PINNED_NOW)
    lines = [json.dumps({"meta": {"jinja2": jinja2.__version__, "now": PINNED_NOW.isoformat()}})]
    for name, source, context in cases:
        result = {"name": name, "template": source, "context": context}
        result.update(render(env, source, context))
        lines.append(json.dumps(result, ensure_ascii=False))
    lines.append(json.dumps({"end": {"cases": len(cases)}}))
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)


if __name__ == "__main__":
    main()
