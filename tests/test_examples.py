"""The examples run as documented: the REINFORCE example learns in its short mode."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def test_reinforce_learns_in_quick_mode(capsys: object) -> None:
    spec = importlib.util.spec_from_file_location("reinforce_just4fun",
                                                  ROOT / "examples" / "reinforce_just4fun.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rates = module.main(["--quick"])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "win rate" in out and len(rates) == 16
    # A random learner wins about 51 % against RandomAgent; 16 short iterations lift it
    # well clear of that (the seeds are fixed, so this run is the same every time).
    first, last = np.mean(rates[:4]), np.mean(rates[-4:])
    assert last > 0.6 and last > first + 0.1, (first, last)
