"""Build the compiled engines: every src/engine/X.pyx is boardcore._engine.X.

How the build spends its time (2 cores, ``pip install .``; ``docs/packaging.md``):
every module is one job -- Cython (in a subprocess) then the C compiler -- and the jobs
run on every core at once, the longest first, so that no core waits at a barrier
between "all Cython" and "all C" and the last job to start is a short one.  Cython runs
only when the extensions are built, never when pip merely asks for the metadata.
"""

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
ENGINE = Path("src/engine")
# Engine modules subclass _state's EngineState, so Cython must find its .pxd under the
# package path boardcore/_engine/: the .pxd files are copied there (mtimes kept, so an
# unchanged header does not force a rebuild).  Edit only src/engine/*.pxd.
PXD = Path("build/pxd")
DEBUG = os.environ.get("BOARDCORE_DEBUG") == "1"
# BOARDCORE_NO_SIMD=1 (GCC and Clang): compile the portable C paths where an engine has
# SSE2 code, as every platform without SSE2 does (docs/packaging.md; make test-nosimd).
NO_SIMD = os.environ.get("BOARDCORE_NO_SIMD") == "1"
SHARED = "boardcore._engine._cyutility"   # Cython's utility code, once for all modules

# -O3 where the time goes: the games' kernels (every move of every play-out), the search
# loops and the batched environment's step.  The rest -- _state (the Python boundary:
# argument parsing, lists, dicts; its simulate loop only calls the kernels), _random and
# Cython's shared utility code -- runs the same at -O1 (a Python-driven game: 7,254
# instructions per move at -O1, 7,204 at -O3, the same time; docs/packaging.md) and
# compiles in half the time.
LIGHT = {"_state", "_random", "_cyutility"}

DIRECTIVES = {
    "language_level": 3,
    "binding": True,
    "embedsignature": True,
    "embedsignature.format": "python",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "autotestdict": False,
    "auto_pickle": False,
    # Every state method runs inside a critical section on the state, and all work
    # without the GIL is on private memory (_state.pyx, docs/packaging.md): importing
    # boardcore on a free-threaded Python keeps the GIL off.
    "freethreading_compatible": True,
}

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


def _flags(stem):
    # No fused multiply-add where the source has a multiply and an add (GCC fuses them
    # on aarch64 by default): the search's scores round alike on every platform.
    same = ["-ffp-contract=off"] + (["-U__SSE2__"] if NO_SIMD else [])
    if DEBUG:
        return ["-O0", "-g", *same]
    return ["-O1" if stem in LIGHT else "-O3", "-g0", *same]


macros = [] if DEBUG else [("CYTHON_WITHOUT_ASSERTIONS", "1")]
extensions = [
    Extension(f"boardcore._engine.{p.stem}", [str(ENGINE / p.name)],
              extra_compile_args=_flags(p.stem), define_macros=macros)
    for p in sources
]
extensions.append(Extension(SHARED, [str(ENGINE / "_cyutility.c")],
                            extra_compile_args=_flags("_cyutility")))

# One Cython job, run in a fresh interpreter (Cython is not thread-safe): cythonize()
# itself decides whether the .c is out of date, so an unchanged module costs nothing.
_CYTHON_JOB = """
import json, sys
from Cython.Build import cythonize
from setuptools import Extension
name, source, options = json.loads(sys.argv[1])
cythonize([Extension(name, [source])], **options)
"""


def _cost(ext):
    """A rough guess of a job's seconds, to start the longest first."""
    stem = ext.name.rsplit(".", 1)[1]
    size = (HERE / ENGINE / f"{stem}.pyx").stat().st_size if stem != "_cyutility" else 30_000
    return size * (0.5 if stem in LIGHT else 1.0)


class BuildExt(build_ext):
    """Cythonize and compile every module as one job, all cores at once, longest first."""

    def build_extensions(self):
        self.check_extensions_list(self.extensions)
        if self.compiler.compiler_type == "msvc":  # its own flags: /O2, no debug info,
            for ext in self.extensions:            # no contraction under /fp:precise
                ext.extra_compile_args = [a for a in ext.extra_compile_args
                                          if not a.startswith(("-O", "-g", "-f", "-U"))]
        jobs = self.parallel if isinstance(self.parallel, int) and self.parallel > 1 else 0
        jobs = jobs or os.cpu_count() or 1
        order = sorted(self.extensions, key=_cost, reverse=True)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for future in [pool.submit(self._build_one, ext) for ext in order]:
                future.result()

    def _build_one(self, ext):
        ext.sources = [cythonize_one(ext, self.force)]
        self.build_extension(ext)


def cythonize_one(ext, force=False):
    """Cython for one extension (a no-op for an up-to-date one); the path of its C file.

    Also what ``.ci/windows.py`` runs before it cross-compiles the C for Windows.
    """
    source = ext.sources[0]     # _cyutility.c: Cython writes the shared utility module
    options = {
        "include_path": [str(ENGINE), str(PXD)],
        "compiler_directives": DIRECTIVES,
        "shared_utility_qualified_name": SHARED,
        "quiet": True,
    }
    if force or os.environ.get("CYTHON_FORCE_REGEN") == "1":
        options["force"] = True
    command = [sys.executable, "-c", _CYTHON_JOB, json.dumps([ext.name, source, options])]
    if subprocess.run(command).returncode != 0:
        raise RuntimeError(f"Cython failed on {source}")
    return str(Path(source).with_suffix(".c"))


if __name__ == "__main__":   # as pip's build backend and `python setup.py` run it
    setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
