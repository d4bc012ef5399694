# The Python tests read the same reference goldens as the C++ tests (scripts/goldens.sh writes
# them into the build directory) and the real tokenizers in models/.
import json
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
MODELS = ["qwen3", "llama3_1", "gemma3", "deepseek_v3", "gptoss", "llama2"]


def goldens_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("TEXTEDGE_GOLDENS_DIR", SOURCE_DIR / "build" / "goldens"))


def read_jsonl(path: pathlib.Path):
    if not path.exists():
        pytest.skip(f"{path} is missing: run `make test` (scripts/goldens.sh writes it)")
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    assert "end" in lines[-1], f"{path} is incomplete"
    return lines[1:-1]


@pytest.fixture(scope="session", params=MODELS)
def model(request):
    import textedge

    return request.param, textedge.Tokenizer.from_pretrained(str(SOURCE_DIR / "models" / request.param))
