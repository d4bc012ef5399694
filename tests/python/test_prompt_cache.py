# textedge.PromptCache and Tokenizer.encode_cached: a conversation turn by turn on all six models,
# rendered by each model's template, gives encode's ids and reuses the earlier turns; a cache
# shared by threads takes turns instead of racing.
import threading

import pytest

import textedge
from conftest import MODELS, SOURCE_DIR

# gpt-oss and Llama 2 ship no template in their tokenizer directories: the project's copies (with
# Llama 2's special tokens passed as the template's variables).
SPECIAL_TOKENS = {"llama2": {"bos_token": "<s>", "eos_token": "</s>"}}
TEMPLATES = {
    "gptoss": SOURCE_DIR / "tests/data/parsers/templates/llama.cpp__openai-gpt-oss-120b.jinja",
    "llama2": SOURCE_DIR / "tests/data/chat_templates/chujiezheng__llama-2-chat.jinja",
}

TURNS = [
    "Hello! Plan me a trip to Kyōto and 東京, please 🌸",
    "  And the food?\n\n- ramen\n- お好み焼き\n",
    "```python\nfor day in range(10):\n    print(day)\n```",
    "ภาษาไทย 👩‍👩‍👧‍👦 done.   ",
]


def template_for(model: str) -> textedge.ChatTemplate:
    if model in TEMPLATES:
        return textedge.ChatTemplate.from_string(TEMPLATES[model].read_text(encoding="utf-8"))
    return textedge.ChatTemplate.from_pretrained(str(SOURCE_DIR / "models" / model))


@pytest.mark.parametrize("name", MODELS)
def test_a_conversation_turn_by_turn_gives_encodes_ids(name):
    tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / name))
    chat = template_for(name)
    caches = {False: textedge.PromptCache(), True: textedge.PromptCache()}  # one per add_special_tokens
    messages = [{"role": "system", "content": "You are brief."}]
    previous = ""
    for turn, content in enumerate(TURNS):
        messages.append({"role": "user", "content": content})
        prompt = chat.apply_chat_template(messages, add_generation_prompt=True, **SPECIAL_TOKENS.get(name, {}))
        for special, cache in caches.items():
            expected = tok.encode(prompt, add_special_tokens=special).ids
            assert tok.encode_cached(prompt, cache, add_special_tokens=special).ids == expected, (name, turn, special)
            assert cache.text == prompt
            assert cache.reused_bytes + cache.encoded_bytes == len(prompt.encode())
            if turn > 0 and prompt.startswith(previous):
                assert cache.reused_bytes > 0, (name, turn)
        previous = prompt
        messages.append({"role": "assistant", "content": f"Answer {turn}: sure, 好的 ✅"})


def test_a_cache_from_another_tokenizer_or_cleared_starts_again():
    qwen = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    llama = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "llama3_1"))
    cache = textedge.PromptCache()
    prompt = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    qwen.encode_cached(prompt, cache)
    assert llama.encode_cached(prompt + "ok", cache).ids == llama.encode(prompt + "ok").ids
    assert cache.reused_bytes == 0
    cache.clear()
    assert cache.text == ""
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate, as tokenizers' encode
        qwen.encode_cached("\ud800", cache)


def test_threads_sharing_one_cache_take_turns():
    tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    cache = textedge.PromptCache()
    base = "<|im_start|>system\nBe brief.<|im_end|>\n" * 200
    prompts = [base + f"<|im_start|>user\nquestion {i} " + "words " * i + "<|im_end|>\n" for i in range(40)]
    expected = {p: tok.encode(p).ids for p in prompts}
    failures = []

    def work(offset):
        for k in range(len(prompts)):
            p = prompts[(k + offset) % len(prompts)]
            if tok.encode_cached(p, cache).ids != expected[p]:
                failures.append(p)

    threads = [threading.Thread(target=work, args=(i * 7,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
