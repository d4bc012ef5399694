# The wheel: setuptools drives CMake to build textedge._core for the running interpreter, then
# packages python/textedge/ with it. `python3 -m pip wheel --no-build-isolation --no-deps .`
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(textedge VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        # TEXTEDGE_BUILD_DIR: an already configured build directory to build the module in (the
        # tests package the module `make build` made); otherwise a fresh one under build_temp.
        reuse = os.environ.get("TEXTEDGE_BUILD_DIR")
        build_dir = pathlib.Path(reuse).resolve() if reuse else pathlib.Path(self.build_temp).resolve() / "cmake"
        if not reuse:
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                            f"-DPython_EXECUTABLE={sys.executable}", "-DTEXTEDGE_BUILD_PYTHON=ON",
                            "-DTEXTEDGE_BUILD_TESTS=OFF", "-DTEXTEDGE_BUILD_BENCHMARKS=OFF", "-DTEXTEDGE_BUILD_CLI=OFF",
                            "-DTEXTEDGE_INSTALL=OFF"], check=True)
        jobs = os.environ.get("JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build_dir), "-j", jobs, "--target", "textedge_python"], check=True)
        built = next((build_dir / "python" / "textedge").glob("_core*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(version=VERSION, ext_modules=[Extension("textedge._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
