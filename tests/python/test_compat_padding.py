"""textedge.compat.Tokenizer's truncation and padding against transformers' fast tokenizers (Hugging
Face tokenizers with the truncation and padding transformers sets from __call__'s arguments),
through the goldens of tools/reference/padding_goldens.js, on all six models."""
import json

import numpy as np
import pytest

import textedge.compat
from conftest import MODELS, SOURCE_DIR, goldens_dir


def cases():
    path = goldens_dir() / "padding.jsonl"
    assert path.exists(), f"{path} is missing: run scripts/goldens.sh (make test does)"
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    end = lines.pop()
    assert end == {"end": {"cases": len(lines)}}, f"{path} is incomplete"
    return lines


CASES = cases()
TOKENIZERS = {}


def compat(model):
    if model not in TOKENIZERS:
        TOKENIZERS[model] = textedge.compat.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / model))
    return TOKENIZERS[model]


def test_every_model_has_truncation_and_padding_cases():
    models = {c["model"] for c in CASES}
    assert models == set(MODELS)
    padded = {c["model"] for c in CASES if c["padding"]}
    assert {"qwen3", "gemma3", "deepseek_v3", "gptoss"} <= padded


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['model']}-{c['truncation']}-{c['padding']}-{c['add_special_tokens']}")
def test_call_truncates_and_pads_as_the_reference(case):
    tok = compat(case["model"])
    trunc, pad = case["truncation"], case["padding"]
    kwargs = {"add_special_tokens": case["add_special_tokens"]}
    if trunc:
        tok.truncation_side = trunc["side"]
        kwargs.update(truncation=True, max_length=trunc["max_length"])
    if pad:
        kwargs["padding_side"] = pad["side"]
        kwargs["pad_to_multiple_of"] = pad["multiple_of"]
        if pad["length"] is None:
            kwargs["padding"] = True
        else:
            kwargs.update(padding="max_length", max_length=pad["length"])
            if trunc:
                assert trunc["max_length"] == pad["length"]
    try:
        out = tok(case["texts"], **kwargs)
    finally:
        tok.truncation_side = "right"
    assert out["input_ids"] == case["input_ids"]
    assert out["attention_mask"] == case["attention_mask"]
    # One text at a time gives each row (padding to a fixed length only: "longest" is per batch).
    if not pad or pad["length"] is not None:
        for text, ids in zip(case["texts"], case["input_ids"]):
            tok.truncation_side = trunc["side"] if trunc else "right"
            try:
                assert tok(text, **kwargs)["input_ids"] == ids
                assert tok.encode(text, **kwargs) == ids
            finally:
                tok.truncation_side = "right"


def test_max_length_alone_truncates_and_model_max_length_is_the_default():
    tok = compat("llama2")
    text = "The quick brown fox jumps over the lazy dog"
    assert tok(text, max_length=4)["input_ids"] == tok(text, truncation=True, max_length=4)["input_ids"]
    assert len(tok(text, max_length=4)["input_ids"]) == 4
    # llama2's config has no model_max_length: truncation=True without max_length keeps everything.
    assert tok(text, truncation=True)["input_ids"] == tok(text)["input_ids"]
    qwen = compat("qwen3")
    assert qwen.model_max_length == 131072
    long = "word " * 140000
    assert len(qwen(long, truncation=True)["input_ids"]) == 131072


def test_tensors_and_optional_outputs():
    tok = compat("qwen3")
    out = tok(["a b c", "a"], padding=True, return_tensors="np", return_token_type_ids=True, return_length=True)
    assert isinstance(out["input_ids"], np.ndarray) and out["input_ids"].dtype == np.int64
    assert out["input_ids"].shape == out["attention_mask"].shape == out["token_type_ids"].shape
    assert out["length"].tolist() == [out["input_ids"].shape[1]] * 2
    single = tok("a b c", return_tensors="np")
    assert single["input_ids"].shape == (1, len(tok("a b c")["input_ids"]))
    assert "attention_mask" not in tok("a", return_attention_mask=False)
    with pytest.raises(ValueError, match="different lengths"):
        tok(["a b c", "a"], return_tensors="np")
    with pytest.raises(NotImplementedError, match="'tf'"):
        tok("a", return_tensors="tf")


def test_refusals_name_what_is_unsupported():
    tok = compat("llama3_1")  # no pad_token in its config
    with pytest.raises(ValueError, match="does not have a padding token"):
        tok(["a", "a b"], padding=True)
    for kwargs, word in (({"text_pair": "b"}, "text_pair"), ({"stride": 2}, "stride"),
                         ({"return_offsets_mapping": True}, "return_offsets_mapping"),
                         ({"truncation": "only_second"}, "only_second")):
        with pytest.raises(NotImplementedError, match=word):
            tok("a", **kwargs)
    with pytest.raises(ValueError, match="padding='sideways'"):
        tok("a", padding="sideways")
    with pytest.raises(TypeError, match="'colour'"):
        tok("a", colour=True)
    with pytest.raises(ValueError, match="shorter than the 1 special tokens"):
        tok("a b c", truncation=True, max_length=0)
