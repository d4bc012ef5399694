# The wheel: `pip wheel --no-build-isolation --no-deps .` (offline, Debian's setuptools), installed
# into a fresh venv with the system site packages, imports and works from there (not from the
# source tree or build/python). The module is the one the build directory made
# (TEXTEDGE_BUILD_DIR), so the test costs a packaging, not a second build.
import os
import pathlib
import subprocess
import sys

from conftest import SOURCE_DIR


def test_wheel_installs_into_a_venv_and_imports(tmp_path):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["TEXTEDGE_BUILD_DIR"] = os.environ.get("TEXTEDGE_BUILD_DIR", str(SOURCE_DIR / "build"))
    # pip copies the source tree; keep its build directories out (setuptools reads only python/).
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                    "-w", str(tmp_path / "dist"), str(SOURCE_DIR)], check=True, env=env, capture_output=True)
    wheels = list((tmp_path / "dist").glob("textedge-*.whl"))
    assert len(wheels) == 1, wheels
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp_path / "venv")], check=True)
    py = tmp_path / "venv" / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--no-index", "--no-deps", str(wheels[0])], check=True,
                   capture_output=True, env=env)
    code = ("import textedge, sys; t = textedge.Tokenizer.from_pretrained(sys.argv[1]); "
            "assert t.decode(t.encode('héllo 🎉').ids) == 'héllo 🎉'; print(textedge.__file__)")
    r = subprocess.run([str(py), "-c", code, str(SOURCE_DIR / "models" / "qwen3")], capture_output=True, text=True,
                       env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert str(tmp_path / "venv") in r.stdout, r.stdout
