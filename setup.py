"""Build the compiled engines: every src/engine/X.pyx is boardcore._engine.X."""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
ENGINE = Path("src/engine")
DEBUG = os.environ.get("BOARDCORE_DEBUG") == "1"

sources = sorted(p for p in (HERE / ENGINE).glob("*.pyx"))
if not sources:
    sys.exit("setup.py: no .pyx found under src/engine (is MANIFEST.in missing from the sdist?)")

compile_args = ["-O0", "-g"] if DEBUG else ["-O3", "-g0"]
macros = [] if DEBUG else [("CYTHON_WITHOUT_ASSERTIONS", "1")]
extensions = [
    Extension(
        f"boardcore._engine.{p.stem}",
        [str(ENGINE / p.name)],
        extra_compile_args=compile_args,
        define_macros=macros,
    )
    for p in sources
]

directives = {
    "language_level": 3,
    "binding": True,
    "embedsignature": True,
    "embedsignature.format": "python",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "autotestdict": False,
    "auto_pickle": False,
}

setup(
    ext_modules=cythonize(
        extensions,
        include_path=[str(ENGINE)],
        compiler_directives=directives,
        nthreads=os.cpu_count() or 1,
    ),
)
