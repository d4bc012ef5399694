# textedge.Tokenizer against the reference goldens (Hugging Face tokenizers 0.23.2): ids with
# and without special tokens, decode with and without skip_special_tokens, as tokenizers'
# Python API spells them.
import array
import os
import signal
import threading
import time

import numpy as np
import pytest

import textedge
from conftest import SOURCE_DIR, goldens_dir, read_jsonl


def test_encode_and_decode_match_the_reference(model):
    name, tok = model
    cases = read_jsonl(goldens_dir() / f"{name}.jsonl")
    checked = 0
    for c in cases:
        if "text" in c and "ids" in c:
            assert tok.encode(c["text"], add_special_tokens=False).ids == c["ids"], c["text"][:80]
            if "ids_special" in c:
                assert tok.encode(c["text"]).ids == c["ids_special"], c["text"][:80]
            else:
                assert tok.encode(c["text"]).ids == c["ids"], c["text"][:80]
            ids = c["ids"]
        elif "decode_ids" in c:
            ids = c["decode_ids"]
        else:
            continue
        d, d_skip = c["decode"]
        assert tok.decode(ids, skip_special_tokens=False) == d
        assert tok.decode(ids) == d_skip  # tokenizers' default skips special tokens
        checked += 1
    assert checked > 1000


def test_batches_and_buffers(model):
    name, tok = model
    texts = [c["text"] for c in read_jsonl(goldens_dir() / f"{name}.jsonl") if "text" in c and "ids" in c][:300]
    one = [tok.encode(t).ids for t in texts]
    assert [e.ids for e in tok.encode_batch(texts)] == one
    assert tok.decode_batch(one) == [tok.decode(ids) for ids in one]
    ids = one[0]
    for buf in (array.array("I", ids), array.array("q", ids), np.array(ids, dtype=np.uint32),
                np.array(ids, dtype=np.int64), np.array(ids, dtype=np.uint32)[::-1][::-1], tuple(ids)):
        assert tok.decode(buf) == tok.decode(ids)


def test_vocabulary_api(model):
    name, tok = model
    vocab = tok.get_vocab()
    assert len(vocab) == tok.get_vocab_size()
    for token, i in list(vocab.items())[:2000]:
        assert tok.token_to_id(token) == i
        assert tok.id_to_token(i) == token
    added = tok.get_added_tokens_decoder()
    assert added and all(vocab[t.content] == i for i, t in added.items())
    assert tok.get_vocab_size(with_added_tokens=False) <= tok.get_vocab_size()
    assert tok.id_to_token(10**9) is None and tok.token_to_id("no such token ☃☃☃") is None
    e = tok.encode("Hello world")
    assert len(e) == len(e.ids) == len(e.tokens) and e.tokens == [tok.id_to_token(i) for i in e.ids]


def test_errors_are_python_exceptions_with_textedge_messages(tmp_path):
    with pytest.raises(textedge.LoadError, match="cannot open"):
        textedge.Tokenizer.from_file(str(tmp_path / "missing.json"))
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {"type": "Nope"}}')
    with pytest.raises(textedge.LoadError) as e:
        textedge.Tokenizer.from_file(str(bad))
    assert str(bad) in str(e.value) and "$.model" in str(e.value)
    assert issubclass(textedge.LoadError, ValueError) and issubclass(textedge.TemplateError, textedge.Error)
    tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    with pytest.raises(ValueError, match="out of range"):
        tok.decode([-1])
    with pytest.raises(TypeError):
        tok.decode(["a"])
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate has no UTF-8, as in tokenizers
        tok.encode("a\udcff")
    with pytest.raises(TypeError, match="must be str"):
        tok.encode(b"bytes")


def test_threads_give_the_same_results_and_run_in_parallel():
    tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    text = (SOURCE_DIR / "README.md").read_text() * 4
    want = tok.encode(text).ids
    results = []

    def work():
        for _ in range(20):
            results.append(tok.encode(text).ids == want and tok.decode(want) == tok.decode(want))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 160 and all(results)


def test_a_child_forked_after_loading_loads_and_encodes():
    # Python engines fork their workers after loading a tokenizer, whose loads and batches run
    # on a process-wide pool of threads the child does not have: the child must neither hang
    # nor differ. Each load runs its phases on the pool (llama2 is large enough).
    path = str(SOURCE_DIR / "models" / "llama2")
    tok = textedge.Tokenizer.from_pretrained(path)
    text = "Hello naïve café 東京 🙂 return x;"
    want = tok.encode(text).ids
    assert [e.ids for e in tok.encode_batch([text] * 8)] == [want] * 8  # the batch workers too
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # the child: no pytest from here, only an exit status
            try:
                child = textedge.Tokenizer.from_pretrained(path)
                ok = child.encode(text).ids == want and [e.ids for e in child.encode_batch([text] * 8)] == [want] * 8
            except BaseException:
                ok = False
            os._exit(0 if ok else 1)
        deadline = time.monotonic() + 120
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail("the forked child hung")
            time.sleep(0.02)
        assert os.waitstatus_to_exitcode(status) == 0
        textedge.Tokenizer.from_pretrained(path)  # and the parent's pool still works


def test_the_gil_is_released_while_textedge_works():
    # A Python thread counts while the main thread is inside one long textedge call. Holding the
    # GIL, the call would let it run one switch interval (5 ms) at most; released, it runs the whole
    # call. So the count during a call of >= 150 ms, against the counting rate alone, tells them
    # apart far beyond any machine's noise (a call holding the GIL: ~3%; released: 50-100%).
    import time

    tok = textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / "qwen3"))
    text = (SOURCE_DIR / "README.md").read_text()
    while True:  # long enough that one encode takes 150 ms here
        start = time.perf_counter()
        ids = tok.encode(text).ids
        if time.perf_counter() - start >= 0.15:
            break
        text *= 2
    state = {"count": 0, "stop": False}

    def count():
        while not state["stop"]:
            state["count"] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before, start = state["count"], time.perf_counter()
        time.sleep(0.1)
        rate = (state["count"] - before) / (time.perf_counter() - start)
        # (decode is left out: building its Python str, which needs the GIL, costs as much as decoding.)
        for name, call in (("encode", lambda: tok.encode(text)),
                           ("encode_batch", lambda: tok.encode_batch([text] * 2))):
            before, start = state["count"], time.perf_counter()
            call()
            seconds = time.perf_counter() - start
            share = (state["count"] - before) / (rate * seconds)
            assert share > 0.2, f"{name}: Python ran {share:.0%} of a {seconds:.2f} s call (the GIL held?)"
    finally:
        state["stop"] = True
        counter.join()
