"""One game, one name, everywhere: the registry matches the files on disk."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import boardcore
from boardcore import rules

ROOT = Path(__file__).resolve().parent.parent
ORDER = ("just4fun", "three_or_more", "fool", "rummikub_junior")


def test_games_are_in_the_documented_order() -> None:
    assert list(boardcore.GAMES) == [g for g in ORDER if g in boardcore.GAMES]


def test_every_engine_is_registered_and_every_game_complete() -> None:
    engines = {p.stem for p in (ROOT / "src/engine").glob("*.pyx") if not p.stem.startswith("_")}
    assert engines == set(boardcore.GAMES)
    for name in boardcore.GAMES:
        for path in (
            f"src/engine/{name}.pyi",
            f"src/engine/{name}_seat.pxi",
            f"src/pyapi/{name}.py",
            f"src/pyapi/rules/{name}.md",
            f"tests/reference/{name}.py",
            f"tests/test_{name}.py",
            f"tests/test_differential_{name}.py",
            f"bench/test_{name}.py",
            f"docs/games/{name}.md",
        ):
            assert (ROOT / path).is_file(), path
        module = importlib.import_module(f"boardcore.{name}")
        cls = type(boardcore.make(name, players=module.__dict__[_class(name)].min_players))
        assert cls.name == name and cls.__name__ == _class(name)
        assert cls.state_class.__name__ == _class(name) + "State"
        assert hasattr(module, _class(name) + "View")
        assert rules.text(name).startswith("# ")


def test_engines_stay_readable() -> None:
    # docs/adding-a-game.md: an engine stays under about 800 lines; what one seat knows
    # and tables built at import are included from .pxi files beside it.
    for path in (ROOT / "src/engine").glob("*.pyx"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 820, f"{path.name}: {lines} lines"


def test_every_rule_has_a_named_test() -> None:
    for name in boardcore.GAMES:
        page = (ROOT / "src/pyapi/rules" / f"{name}.md").read_text(encoding="utf-8")
        ids = re.findall(r"^- ([A-Z][0-9]+)\.", page, flags=re.MULTILINE)
        assert ids, name
        tests = (ROOT / "tests" / f"test_{name}.py").read_text(encoding="utf-8")
        missing = [i for i in ids if not re.search(rf"def test_{i}_", tests)]
        assert not missing, f"{name}: rules without a test: {missing}"


def test_rules_pages_follow_the_specification() -> None:
    """The numbered rules are the specification's, word for word, where it is at hand.

    The specification lives beside the developers' checkout, never in the package: the
    pages shipped here add only their own introduction for users.
    """
    spec = ROOT.parent / "shared" / "rules"
    if not spec.is_dir():  # a clone, an sdist or a wheel test: nothing to compare
        return
    for name in boardcore.GAMES:
        ours = rules.text(name)
        theirs = (spec / f"{name}.md").read_text(encoding="utf-8")
        assert ours[ours.index("\n## "):] == theirs[theirs.index("\n## "):], name


def _class(name: str) -> str:
    return {"just4fun": "Just4Fun", "three_or_more": "ThreeOrMore", "fool": "Fool",
            "rummikub_junior": "RummikubJunior"}[name]
