"""Doctests: every public module's examples and the README's tour run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import boardcore

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["boardcore", "boardcore.errors", "boardcore.protocol", "boardcore.records",
           "boardcore.simulate", "boardcore.stats", "boardcore.cli", "boardcore._report",
           "boardcore._words", *(f"boardcore.{g}" for g in boardcore.GAMES),
           *(f"boardcore._engine.{g}" for g in boardcore.GAMES)]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(module, name)
    examples = 0
    for test in tests:
        examples += len(test.examples)
        runner.run(test)
    failed, _ = runner.summarize(verbose=False)
    assert failed == 0
    assert examples > 0, f"{name} has no doctest"


@pytest.mark.parametrize("page", ["README.md", "docs/cli.md",
                                  *(f"docs/games/{g}.md" for g in boardcore.GAMES)])
def test_markdown_examples(page: str) -> None:
    path = ROOT / page
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{page} has no example"
