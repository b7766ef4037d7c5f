"""Build the compiled engines: every src/engine/X.pyx is boardcore._engine.X."""

import os
import shutil
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
ENGINE = Path("src/engine")
# Engine modules subclass _state's EngineState, so Cython must find its .pxd under the
# package path boardcore/_engine/: the .pxd files are copied there (mtimes kept, so an
# unchanged header does not force a rebuild).  Edit only src/engine/*.pxd.
PXD = Path("build/pxd")
DEBUG = os.environ.get("BOARDCORE_DEBUG") == "1"
SHARED = "boardcore._engine._cyutility"   # Cython's utility code, once for all modules

sources = sorted(p for p in (HERE / ENGINE).glob("*.pyx"))
if not sources:
    sys.exit("setup.py: no .pyx found under src/engine (is MANIFEST.in missing from the sdist?)")

package_pxd = HERE / PXD / "boardcore" / "_engine"
package_pxd.mkdir(parents=True, exist_ok=True)
for init in (package_pxd.parent / "__init__.pxd", package_pxd / "__init__.pxd"):
    init.touch()
for pxd in (HERE / ENGINE).glob("*.pxd"):
    target = package_pxd / pxd.name
    if not target.exists() or target.stat().st_mtime != pxd.stat().st_mtime:
        shutil.copy2(pxd, target)

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
extensions.append(
    Extension(SHARED, [str(ENGINE / "_cyutility.c")], extra_compile_args=compile_args)
)

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
        include_path=[str(ENGINE), str(PXD)],
        compiler_directives=directives,
        shared_utility_qualified_name=SHARED,
        nthreads=os.cpu_count() or 1,
    ),
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
