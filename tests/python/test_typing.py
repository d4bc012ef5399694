# The package's stubs (_core.pyi, py.typed) type-check a script that uses the API, with
# Debian's mypy.
import os
import pathlib
import subprocess
import sys


def test_mypy_accepts_the_api_as_engines_use_it():
    here = pathlib.Path(__file__).resolve().parent
    env = dict(os.environ, MYPYPATH=os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null",
                        str(here / "typing" / "uses_the_api.py")], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_package_itself_type_checks_strictly():
    package = pathlib.Path(os.environ.get("PYTHONPATH", "")) / "textedge"
    env = dict(os.environ, MYPYPATH=os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir=/dev/null",
                        "-p", "textedge"], capture_output=True, text=True, env=env)
    assert package.is_dir(), package
    assert r.returncode == 0, r.stdout + r.stderr
