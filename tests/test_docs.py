"""Doctests: every public module's examples, the README and every page of the site run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

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
#: What an optional extra's modules and pages import: without it they are skipped.  The
#: wheels' tests install no extra ([tool.cibuildwheel] test-requires; make test-wheel-step
#: runs them so in CI): a page or module missing here fails there.
EXTRAS = {"boardcore.openspiel": ("pyspiel",), "docs/openspiel.md": ("pyspiel",),
          "boardcore.envs.aec": ("gymnasium", "pettingzoo"),
          "boardcore.envs.single": ("gymnasium",), "docs/rl.md": ("gymnasium", "pettingzoo"),
          "boardcore.web": ("starlette",), "docs/web.md": ("starlette",)}


def _needs_extra(name: str) -> None:
    """Skip ``name`` (a module or a page) when the extra it imports is not installed."""
    for prefix, modules in EXTRAS.items():
        if name == prefix or name.startswith(prefix + "."):
            for module in modules:
                pytest.importorskip(module, reason=f"{name} needs {module}")
#: Modules that need no example: private helpers, the rules pages' loader, and each
#: game's moves, picture and set-up modules (shown through state.explain(), state.svg()
#: and state_from_dict()).
NO_EXAMPLE = re.compile(r"boardcore\.(\w+\.)*_\w+|boardcore\.rules|"
                        r"boardcore\.\w+\.(moves|picture|positions)")


def _run(tests: list[doctest.DocTest]) -> int:
    """Run ``tests``, assert that none failed, return how many examples ran."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in tests:
        result = runner.run(test)
        examples += result.attempted
        assert result.failed == 0, f"{test.name}: {result.failed} example(s) failed"
    return examples


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    _needs_extra(name)
    module = importlib.import_module(name)
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
    _needs_extra(page)
    text = (ROOT / page).read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__main__"}, page, page, 0)
    examples = _run([test])
    if ">>> " in text:
        assert examples > 0, f"{page} shows examples that do not run"
