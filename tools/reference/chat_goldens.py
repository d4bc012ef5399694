#!/usr/bin/python3
"""Renders the chat-template goldens with Python Jinja2 set up as Hugging Face transformers sets
it up (apply_chat_template), for tests/chat/chat_template_test.cpp.

    /usr/bin/python3 tools/reference/chat_goldens.py OUT.jsonl

Templates: every tests/data/chat_templates/*.jinja (third-party corpus, see SOURCES.md there),
the chat_template of each models/*/tokenizer_config.json that has one, and textedge's default
(src/chat/default_template.jinja). Conversations: tests/data/chat_conversations.json (OpenAI
request bodies). Corpus templates get a generic set of special tokens; model templates get the
model's own, as transformers passes them. strftime_now formats jinja_env.PINNED_NOW (2026-01-15
10:30:00) so goldens do not depend on the day they were made (textedge's test pins the same time
and checks the meta line's "now").

Each output line: {"template", "conversation", "prompt"} or {"template", "conversation",
"error"} (the exception's type and message), after a {"meta"} line; a last {"end": {"cases": N}}.
Uses Debian's python3-jinja2 (run with /usr/bin/python3).
"""
import glob
import json
import os
import sys

import jinja2
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jinja_env import PINNED_NOW  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GENERIC_SPECIAL_TOKENS = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}
SPECIAL_TOKEN_KEYS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"]


class AssistantTracker(Extension):
    """transformers' {% generation %} block: renders its body."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def compile_template(source):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return PINNED_NOW.strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker, loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(source)


def special_tokens_of(config):
    out = {}
    for key in SPECIAL_TOKEN_KEYS:
        v = config.get(key)
        if isinstance(v, dict):
            v = v.get("content")
        if isinstance(v, str):
            out[key] = v
    extra = config.get("additional_special_tokens")
    if isinstance(extra, list):
        out["additional_special_tokens"] = [t.get("content") if isinstance(t, dict) else t for t in extra]
    return out


def apply_chat_template(template, request, special_tokens):
    """transformers' apply_chat_template + render_jinja_template, for one conversation."""
    messages = request["messages"]
    add_generation_prompt = request.get("add_generation_prompt", True)
    continue_final_message = request.get("continue_final_message", False)
    if add_generation_prompt and continue_final_message:
        raise ValueError("continue_final_message and add_generation_prompt are not compatible.")
    variables = dict(special_tokens)
    variables.update(request.get("chat_template_kwargs") or {})
    variables.update(messages=messages, tools=request.get("tools"), documents=request.get("documents"),
                     add_generation_prompt=add_generation_prompt)
    rendered = template.render(**variables)
    if continue_final_message:
        final = messages[-1]["content"]
        if isinstance(final, (list, tuple)):
            for block in reversed(final):
                if "text" in block:
                    final = block["text"]
                    break
            else:
                raise ValueError("continue_final_message is set but we could not find any text to continue in the final message!")
        if final.strip() not in rendered:
            raise ValueError("continue_final_message is set but the final message does not appear in the chat after "
                             "applying the chat template! This can happen if the chat template deletes portions of "
                             "the final message. Please verify the chat template and final message in your chat to "
                             "ensure they are compatible.")
        at = rendered.rindex(final.strip())
        if rendered[at:at + len(final.lstrip())] == final:
            rendered = rendered[:at + len(final.lstrip())]
        else:
            rendered = rendered[:at + len(final.strip())]
    return rendered


def templates():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/data/chat_templates/*.jinja"))):
        with open(path, encoding="utf-8", newline="") as f:
            yield os.path.basename(path), f.read(), GENERIC_SPECIAL_TOKENS
    for path in sorted(glob.glob(os.path.join(ROOT, "models/*/tokenizer_config.json"))):
        config = json.load(open(path, encoding="utf-8"))
        source = config.get("chat_template")
        model = os.path.basename(os.path.dirname(path))
        if isinstance(source, list):
            for entry in source:
                yield f"model:{model}:{entry['name']}", entry["template"], special_tokens_of(config)
        elif isinstance(source, str):
            yield f"model:{model}", source, special_tokens_of(config)
        else:
            default = os.path.join(ROOT, "src/chat/default_template.jinja")
            if os.path.exists(default):
                yield f"default:{model}", open(default, encoding="utf-8").read(), special_tokens_of(config)


def main():
    out_path = sys.argv[1]
    conversations = json.load(open(os.path.join(ROOT, "tests/data/chat_conversations.json"), encoding="utf-8"))
    lines = [json.dumps({"meta": {"jinja2": jinja2.__version__, "now": PINNED_NOW.isoformat()}})]
    for name, source, special in templates():
        try:
            template = compile_template(source)
        except Exception as e:  # noqa: BLE001 - the error is the golden
            for conv in conversations:
                lines.append(json.dumps({"template": name, "conversation": conv["name"],
                                         "error": f"{type(e).__name__}: {e}"}, ensure_ascii=False))
            continue
        for conv in conversations:
            case = {"template": name, "conversation": conv["name"]}
            try:
                case["prompt"] = apply_chat_template(template, conv["request"], special)
            except Exception as e:  # noqa: BLE001
                case["error"] = f"{type(e).__name__}: {e}"
            lines.append(json.dumps(case, ensure_ascii=False))
    lines.append(json.dumps({"end": {"cases": len(lines) - 1}}))
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)
    errors = sum(1 for l in lines if '"error"' in l)
    print(f"chat goldens: {len(lines) - 2} cases, {errors} raise", file=sys.stderr)


if __name__ == "__main__":
    main()
