"""Doctests: every public module's examples, the README and every page of the site run."""

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


def _pages() -> list[str]:
    """The README and every Markdown page of the site (not what a build generates)."""
    docs = ROOT / "docs"
    pages = [p.relative_to(ROOT).as_posix() for p in sorted(docs.rglob("*.md"))
             if not any(part.startswith("_") for part in p.relative_to(docs).parts)]
    return ["README.md", *pages]


PAGES = _pages()


def test_every_page_of_the_site_is_collected() -> None:
    # A new page joins the examples run below by being in docs/: nothing to register.
    if not (ROOT / "docs").is_dir():
        pytest.skip("no docs/ beside the tests (an sdist or wheel test)")
    expected = {"docs/getting-started.md", "docs/cli.md", "docs/agents.md",
                *(f"docs/games/{g}.md" for g in boardcore.GAMES)}
    assert expected <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_markdown_examples(page: str) -> None:
    path = ROOT / page
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if ">>> " in path.read_text(encoding="utf-8"):
        assert result.attempted > 0, f"{page} shows examples that do not run"
