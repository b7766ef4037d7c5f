"""``make test-wheel-step``: the wheel workflow's test step, as cibuildwheel runs it.

cibuildwheel tests each wheel it builds (``.github/workflows/wheels.yml``) by installing
it into a fresh virtual environment with exactly ``[tool.cibuildwheel] test-requires``,
then running ``test-command`` from a temporary directory, with ``{project}`` (and
``{package}``) replaced by the checkout and the environment's ``bin`` first on the PATH.
This does the same here, both read from ``pyproject.toml`` so that they cannot drift
apart from what the workflow runs:

    python .ci/wheel_step.py WHEEL VENV

Exits with the test command's status.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def main(wheel: str, venv: str) -> int:
    """Install ``wheel`` with test-requires into a fresh ``venv``; run test-command."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    requires: list[str] = config.get("test-requires", [])
    if isinstance(requires, str):        # cibuildwheel takes a string of words as well
        requires = requires.split()
    command = config["test-command"]
    if isinstance(command, list):        # ... and a list of commands, run in turn
        command = " && ".join(command)
    command = command.replace("{project}", shlex.quote(str(ROOT)))
    command = command.replace("{package}", shlex.quote(str(ROOT)))

    subprocess.run([sys.executable, "-m", "venv", "--clear", venv], check=True)
    python = str(Path(venv, "bin", "python"))
    subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", wheel, *requires], check=True)
    installed = subprocess.run([python, "-m", "pip", "list", "--format=freeze"],
                               capture_output=True, text=True, check=True).stdout.split()
    print(f"test-requires: {' '.join(requires)}")
    print(f"installed: {' '.join(installed)}")
    print(f"test-command: {command}", flush=True)
    env = {**os.environ, "VIRTUAL_ENV": str(Path(venv).resolve()),
           "PATH": f"{Path(venv, 'bin').resolve()}{os.pathsep}{os.environ['PATH']}"}
    with tempfile.TemporaryDirectory(prefix="wheel-step-") as here:
        return subprocess.run(command, shell=True, cwd=here, env=env).returncode


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
