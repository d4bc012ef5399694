# ChatTemplate against Jinja2's goldens (the chat goldens the C++ tests read), and the output
# parser, schema and tool-call regexes from Python.
import json
import pathlib

import pytest

import textedge
from conftest import SOURCE_DIR, goldens_dir, read_jsonl


def test_apply_chat_template_matches_transformers_for_the_real_models():
    rendered = 0
    for model in ("qwen3", "llama3_1", "deepseek_v3", "gemma3", "gptoss"):
        chat = textedge.ChatTemplate.from_pretrained(str(SOURCE_DIR / "models" / model))
        messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi 👋"},
                    {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "2+2?"}]
        as_json = chat.apply_chat_template(json.dumps(messages), add_generation_prompt=True)
        assert chat.apply_chat_template(messages, add_generation_prompt=True) == as_json
        ids = chat.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / model))
        assert ids == tok.encode(as_json, add_special_tokens=False).ids  # no second BOS
        rendered += 1
    assert rendered == 5


def test_template_kwargs_and_errors():
    chat = textedge.ChatTemplate.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    msgs = [{"role": "user", "content": "hi"}]
    off = chat.apply_chat_template(msgs, add_generation_prompt=True, enable_thinking=False)
    assert off.endswith("<think>\n\n</think>\n\n")
    assert "enable_thinking" in chat.extra_variables
    with pytest.raises(textedge.TemplateError, match="line 1"):
        textedge.ChatTemplate.from_string("{% if %}")
    with pytest.raises(TypeError, match=r"conversation\[0\]\.content"):
        chat.apply_chat_template([{"role": "user", "content": object()}])


def test_output_parser_streams_openai_deltas():
    p = textedge.OutputParser("hermes", reasoning="qwen3")
    text = '<think>hm</think>ok <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    deltas = []
    for ch in text:
        deltas += p.feed(ch)
    deltas += p.finish()
    content = "".join(d.get("content", "") for d in deltas)
    reasoning = "".join(d.get("reasoning_content", "") for d in deltas)
    calls = [c for d in deltas for c in d.get("tool_calls", [])]
    assert (content, reasoning) == ("ok ", "hm")
    assert calls[0]["function"]["name"] == "f" and calls[0]["type"] == "function"
    assert "".join(c["function"]["arguments"] for c in calls) == '{"a": 1}'
    assert p.made_calls
    with pytest.raises(textedge.Error, match="unknown tool call format"):
        textedge.OutputParser("nope")


def test_regexes():
    import re
    r = textedge.schema_to_regex({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]})
    assert re.fullmatch(r, '{"a": 12}') and not re.fullmatch(r, '{"a": "x"}')
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
    assert textedge.tool_call_regex(tools, "hermes").startswith("<tool_call>")
    with pytest.raises(textedge.SchemaError):
        textedge.schema_to_regex({"not": {}})


def test_python_values_reach_the_template_as_json_dumps_writes_them():
    import enum

    class Color(enum.IntEnum):
        RED = 7

    chat = textedge.ChatTemplate.from_string("{{ messages | tojson }}|{{ n }}")
    value = {"a": 1.0, "b": 1e300, "c": -(2 ** 63), "d": -5, "e": True, "f": None, "g": [0.1, "x\u2028\"\\"],
             "h": (1, 2), "i": Color.RED, "j": -0.0, "k": 123456789012345678}
    messages = [{"role": "user", "content": "x", "extra": value}]
    from_objects = chat.apply_chat_template(messages, n=2 ** 63 - 1)
    from_json = chat.apply_chat_template(json.dumps(messages), n=2 ** 63 - 1)
    assert from_objects == from_json
    assert from_objects.endswith("|9223372036854775807")
    with pytest.raises(ValueError, match=r"conversation\[0\]\.extra\.g\[1\]: nan is not JSON"):
        chat.apply_chat_template([{"role": "user", "extra": {"g": [1, float("nan")]}}])
    with pytest.raises(TypeError, match=r"template_kwargs\.n: set is not JSON"):
        chat.apply_chat_template(messages, n={1})
    deep: list = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(ValueError, match="nested too deeply"):
        chat.apply_chat_template([{"role": "user", "content": deep}])


def test_python_values_reach_the_template_as_jinja2_sees_them():
    # transformers hands the Python objects to Jinja2: a tuple stays a tuple, a dict prints as
    # Python writes it. The C++ template engine reads them directly (no JSON text between).
    import sys
    sys.path.insert(0, str(SOURCE_DIR / "tools" / "reference"))
    from chat_goldens import compile_template

    source = ("{% for m in messages %}{{ m }}|{{ m.extra }}|{{ m.extra.h is sequence }}|{{ m.extra.h | length }}|"
              "{{ m.extra | tojson }}\n{% endfor %}{{ tools }}|{{ n }}|{{ t }}")
    chat = textedge.ChatTemplate.from_string(source)
    jinja = compile_template(source)
    value = {"a": 1.0, "b": 1e300, "c": -(2 ** 63), "d": -5, "e": True, "f": None, "g": [0.1, "x\u2028\"\\'"],
             "h": (1, "two", (3,)), "j": -0.0, "k": 2 ** 63 - 1, "é": "ü 👋", "": {}}
    messages = [{"role": "user", "content": "x", "extra": value}, {"role": "assistant", "content": "", "extra": {"h": ()}}]
    tools = ({"type": "function", "function": {"name": "f"}},)
    expected = jinja.render(messages=messages, tools=tools, n=(), t=[True, None])
    assert chat.apply_chat_template(messages, tools=tools, n=(), t=[True, None]) == expected


def test_python_values_are_read_before_the_render_releases_the_gil():
    # The render runs without the GIL: what it reads must not be the caller's objects, which
    # another thread may change meanwhile.
    import threading

    chat = textedge.ChatTemplate.from_string("{% for m in messages %}{{ m.content }}{% endfor %}")
    messages = [{"role": "user", "content": "a" * 1000} for _ in range(200)]
    stop = threading.Event()

    def mutate():
        i = 0
        while not stop.is_set():
            messages[i % 200]["content"] = "a" * 1000  # a new str: the old one may be freed
            i += 1

    t = threading.Thread(target=mutate)
    t.start()
    try:
        for _ in range(200):
            assert chat.apply_chat_template(messages) == "a" * 200000
    finally:
        stop.set()
        t.join()
