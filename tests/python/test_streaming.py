# DecodeStream, TextStream and StreamBatch against the streaming goldens: for every case the
# concatenated steps equal the reference decode of prompt + generated ids, less the prompt's.
import pytest

import textedge
from conftest import goldens_dir, read_jsonl


def stream_cases(name):
    return [c for c in read_jsonl(goldens_dir() / f"{name}.stream.jsonl") if "ids" in c]


def expected(tok, c, skip, eager=False):
    """decode(prompt + ids) less the prompt's certain text (what a stream of the prompt alone
    emits before its end: a character the prompt leaves incomplete comes with the first text).
    eager: as DecodeStream streams it (byte-fallback runs released character by character)."""
    full = c["decode"][-1][1 if skip else 0]
    if eager:
        certain = textedge.decoders.DecodeStream(skip_special_tokens=skip).step(tok, c["prompt"]) or ""
    else:
        certain = textedge.TextStream(tok, [], skip_special_tokens=skip, ignore_eos=True).step(c["prompt"])[0]
    assert full.startswith(certain)
    return full[len(certain):]


def test_decode_stream_is_tokenizers_decode_stream(model):
    name, tok = model
    checked = 0
    for c in stream_cases(name):
        for skip in (False, True):
            ds = textedge.decoders.DecodeStream(ids=c["prompt"] or None, skip_special_tokens=skip)
            pieces = [ds.step(tok, i) for i in c["ids"]]
            assert all(p is None or p != "" for p in pieces)
            text = "".join(p for p in pieces if p is not None)
            if "\ufffd" in c["decode"][-1][1 if skip else 0]:
                continue  # invalid bytes: decode may replace a whole byte run, where tokenizers' DecodeStream fails
            want = expected(tok, c, skip, eager=True)
            checked += 1
            # DecodeStream has no end: what it still holds is the last character(s), incomplete or
            # (byte fallback) in a run of byte tokens not closed yet.
            assert want.startswith(text) and len(want) - len(text) <= 8, (name, c["cat"], skip)
    assert checked >= 100


def test_text_stream_and_stream_batch_match_the_reference_at_every_cut(model):
    name, tok = model
    cases = stream_cases(name)
    batch = textedge.StreamBatch(tok)
    for skip in (False, True):
        handles = [batch.create(c["prompt"], skip_special_tokens=skip, ignore_eos=True) for c in cases]
        got = [""] * len(cases)
        step = 0
        while True:
            steps = [(h, c["ids"][step:step + 3]) for h, c in zip(handles, cases) if step < len(c["ids"])]
            if not steps:
                break
            index = {h: i for i, h in enumerate(handles)}
            for (h, _), (text, reason, _) in zip(steps, batch.step(steps)):
                got[index[h]] += text
                assert reason is None
            step += 3
        for h, (text, _, _) in zip(handles, batch.step([(h, [], True) for h in handles])):
            got[handles.index(h)] += text
        for h in handles:
            batch.release(h)
        assert len(batch) == 0
        for c, text in zip(cases, got):
            assert text == expected(tok, c, skip), (name, c["cat"], skip)
            s = textedge.TextStream(tok, c["prompt"], skip_special_tokens=skip, ignore_eos=True)
            one = "".join(s.step([i])[0] for i in c["ids"]) + s.finish()[0]
            assert one == text


def test_stop_strings_and_limits():
    import pathlib
    tok = textedge.Tokenizer.from_pretrained(str(pathlib.Path(__file__).resolve().parents[2] / "models" / "qwen3"))
    ids = tok.encode("The answer is 42. END of story").ids
    s = textedge.TextStream(tok, [], stop=["END"])
    out = [s.step([i]) for i in ids[:8]]
    text = "".join(t for t, _, _ in out)
    assert text == "The answer is 42. " and out[-1][1] == "stop" and out[-1][2] == "END"
    s = textedge.TextStream(tok, [], max_tokens=2)
    assert s.step(ids)[1] == "length"
    eos = tok.token_to_id("<|im_end|>")
    s = textedge.TextStream(tok, [], stop_token_ids=[eos])
    assert s.step(ids[:2] + [eos]) == ("The answer", "stop", eos)
    with pytest.raises(textedge.Error):
        s.step([1])
