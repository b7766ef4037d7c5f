"""Doctests: every public module's examples, the README and every page of the site run."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

import boardcore

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list[str]:
    """Every module of the installed package: the site shows their docstrings."""
    names = ["boardcore"]
    for info in pkgutil.walk_packages(boardcore.__path__, "boardcore."):
        if not info.name.endswith(".__main__"):
            names.append(info.name)
    return names


MODULES = _modules()
#: Modules that need no example: private helpers, the rules pages' loader, and each
#: game's drawing and explaining module (shown through state.svg() and state.explain()).
NO_EXAMPLE = re.compile(r"boardcore\.(\w+\.)*_\w+|boardcore\.rules|"
                        r"boardcore\.(moves|pictures)\.\w+")


def _extras() -> frozenset[str]:
    """The packages of boardcore's optional extras (``gymnasium``, ``matplotlib``, ...)."""
    names = set()
    for requirement in importlib.metadata.requires("boardcore") or []:
        project, _, marker = requirement.partition(";")
        if "extra ==" in marker:
            name = re.split(r"[^\w.-]", project.strip(), maxsplit=1)[0]
            names.add(name.lower().replace("-", "_"))   # as imported: open-spiel, open_spiel
    return frozenset(names)


EXTRAS = _extras()


def _skip_without_extra(error: BaseException) -> None:
    """Skip the test where ``error`` is the import of an optional extra that is missing.

    The wheels' tests (``[tool.cibuildwheel] test-requires``) install none of the extras:
    the pages and modules that show them (the Gymnasium and PettingZoo adapters, say)
    are skipped there, by name, and run wherever the extra is installed.
    """
    if isinstance(error, ModuleNotFoundError) and error.name:
        top = error.name.partition(".")[0]
        if top.lower() in EXTRAS:
            pytest.skip(f"needs {top}, from an optional extra that is not installed")


class _Runner(doctest.DocTestRunner):
    """A doctest runner that remembers the exceptions the examples raised."""

    def __init__(self) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS)
        self.raised: list[BaseException] = []

    def report_unexpected_exception(self, out: Any, test: doctest.DocTest,
                                    example: doctest.Example, exc_info: Any) -> None:
        self.raised.append(exc_info[1])
        super().report_unexpected_exception(out, test, example, exc_info)


def _run(tests: list[doctest.DocTest]) -> int:
    """Run ``tests``, assert that none failed, return how many examples ran."""
    runner = _Runner()
    examples = 0
    for test in tests:
        result = runner.run(test)
        examples += result.attempted
        for error in runner.raised:
            _skip_without_extra(error)
        assert result.failed == 0, f"{test.name}: {result.failed} example(s) failed"
    return examples


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        _skip_without_extra(error)
        raise
    tests = doctest.DocTestFinder(exclude_empty=False).find(module, name)
    examples = _run(tests)
    if not NO_EXAMPLE.fullmatch(name):
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
    text = (ROOT / page).read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__main__"}, page, page, 0)
    examples = _run([test])
    if ">>> " in text:
        assert examples > 0, f"{page} shows examples that do not run"
