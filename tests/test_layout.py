"""One game, one name, everywhere: every place a game touches, checked from the registry.

``docs/adding-a-game.md`` lists the places a new game touches; each test here checks one
of them for every game of ``boardcore._registry.CLASSES``, so that a game missing one
fails by name.  Everything else that lists the games -- ``GAMES``, the Gymnasium ids,
the summary's words, the docs' lists of pages, the memory and differential tests -- is
read from the registry and needs no check.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import inspect
import re
from pathlib import Path
from typing import Any, get_args

import pytest

import boardcore
from boardcore import rules
from boardcore._registry import CLASSES, GAME_CLASSES, AnyGame, AnyState, GameName
from boardcore.protocol import Game
from boardcore.values import Move, Snapshot, View

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "src" / "engine"
PYAPI = ROOT / "src" / "pyapi"
#: The Python half of a position: each module of a game's package, and what it gives
#: the methods of ``Game`` of the same names.
HALF = {"positions": ("view", "fields", "set_up"),
        "moves": ("action_to_str", "parse_action", "explain", "reveals"),
        "picture": ("text", "draw")}
#: The modules of a game's package: its class, its values and its half of a position.
PACKAGE = ("__init__", "values", *HALF)


def _files(name: str) -> list[str]:
    """Every file a game of that name must have (docs/adding-a-game.md, the checklist)."""
    return [
        f"src/pyapi/rules/{name}.md",
        f"src/engine/{name}.pyx",
        f"src/engine/{name}_seat.pxi",
        f"src/engine/{name}.pyi",
        *(f"src/pyapi/{name}/{module}.py" for module in PACKAGE),
        f"tests/reference/{name}.py",
        f"tests/test_{name}.py",
        f"bench/test_{name}.py",
        f"docs/games/{name}.md",
        f"docs/reference/{name}.md",
    ]


def test_the_registry_is_the_one_list_of_games() -> None:
    assert boardcore.GAMES == tuple(cls.name for cls in CLASSES)
    assert list(GAME_CLASSES) == list(boardcore.GAMES)
    engines = {p.stem for p in ENGINE.glob("*.pyx") if not p.stem.startswith("_")}
    packages = {p.parent.name for p in PYAPI.glob("*/positions.py")}     # a game's half
    pages = {p.stem for p in (PYAPI / "rules").glob("*.md")}
    assert engines == packages == pages == set(boardcore.GAMES)


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_every_game_has_every_file(name: str) -> None:
    missing = [path for path in _files(name) if not (ROOT / path).is_file()]
    assert not missing, f"{name}: {missing}"
    golden = list((ROOT / "tests" / "data").glob(f"{name}_playthrough_*.json"))
    assert len(golden) >= 3, f"{name}: {len(golden)} golden playthroughs"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.name)
def test_every_game_class_is_complete(cls: type[Game[Any]]) -> None:
    module = importlib.import_module(f"boardcore.{cls.name}")
    assert module.__dict__[cls.__name__] is cls
    for kind, base in (("State", None), ("Snapshot", Snapshot), ("View", View),
                       ("Move", Move), ("Position", dict), ("Document", dict),
                       ("ViewJSON", dict), ("MoveJSON", dict)):
        value = module.__dict__[cls.__name__ + kind]
        assert base is None or issubclass(value, base), (cls.name, kind)
    assert cls.state_class is module.__dict__[cls.__name__ + "State"]
    assert cls.snapshot_class is module.__dict__[cls.__name__ + "Snapshot"]
    assert cls.title and rules.text(cls.name).startswith("# ")
    assert re.fullmatch(rf"boardcore/{cls.__name__}-v\d+", cls.gymnasium_id)
    labels = [*cls.end_reasons, *(s for s in cls.stat_names if s != "end")]
    assert sorted(cls.words) == sorted(labels), cls.name       # every label explained
    # Its package gives the Python half of a position: a function for every method.
    for kind, names in HALF.items():
        half = importlib.import_module(f"boardcore.{cls.name}.{kind}")
        assert getattr(cls, f"_{kind}") is half, kind
        for function in names:
            assert callable(getattr(half, function)), (kind, function)


def test_the_type_checkers_lists_match_the_registry() -> None:
    # GameName, AnyGame, AnyState and make's overloads are spelled out for mypy.
    assert get_args(GameName) == boardcore.GAMES
    assert get_args(AnyGame) == CLASSES
    assert get_args(AnyState) == tuple(cls.state_class for cls in CLASSES)
    tree = ast.parse(inspect.getsource(boardcore))
    overloads = [node for node in tree.body if isinstance(node, ast.FunctionDef)
                 and node.name == "make" and node.decorator_list]
    named = []
    for node in overloads:
        literal = node.args.args[0].annotation
        assert isinstance(literal, ast.Subscript) and isinstance(node.returns, ast.Name)
        name = ast.literal_eval(literal.slice)
        cls = GAME_CLASSES[name]
        assert node.returns.id == cls.__name__, name
        options = [arg.arg for arg in node.args.kwonlyargs if arg.arg != "players"]
        assert options == list(cls.option_defaults), name
        named.append(name)
    assert tuple(named) == boardcore.GAMES


def test_the_package_ships_every_game() -> None:
    # pyproject.toml lists the packages the wheel ships (each game's among them).
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    packages = re.search(r"^packages = \[(.*?)\]", text, flags=re.MULTILINE | re.DOTALL)
    assert packages is not None
    listed = set(re.findall(r'"([\w.]+)"', packages.group(1)))
    on_disk = {"boardcore." + p.parent.relative_to(PYAPI).as_posix().replace("/", ".")
               for p in PYAPI.glob("*/__init__.py")}
    assert on_disk | {"boardcore", "boardcore._engine"} == listed


def test_the_changelog_names_every_rules_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for cls in CLASSES:
        assert f"- {cls.name}: rules_version {cls.rules_version}" in text, cls.name


def test_the_docs_list_the_games_from_the_registry() -> None:
    # A toctree line with {game} stands for every game (docs/_ext/boardcore_docs.py):
    # no page lists them by hand.
    for page in ("docs/index.md", "docs/reference/games.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        blocks = re.findall(r"```\{toctree\}(.*?)```", text, flags=re.DOTALL)
        assert any("{game}" in block for block in blocks), page
        for block in blocks:
            assert not any(re.search(rf"\b{name}\b", block) for name in boardcore.GAMES), page


def test_every_rule_has_a_named_test() -> None:
    for name in boardcore.GAMES:
        page = (PYAPI / "rules" / f"{name}.md").read_text(encoding="utf-8")
        ids = re.findall(r"^- ([A-Z][0-9]+)\.", page, flags=re.MULTILINE)
        assert ids, name
        tests = (ROOT / "tests" / f"test_{name}.py").read_text(encoding="utf-8")
        missing = [i for i in ids if not re.search(rf"def test_{i}_", tests)]
        assert not missing, f"{name}: rules without a test: {missing}"


def test_rules_pages_follow_the_specification() -> None:
    """The numbered rules are the specification's, word for word, where it is at hand.

    The specification lives beside the developers' checkout, never in the package: the
    pages shipped here add only their own introduction for users, and, last, what a
    set-up position is checked against ("Set-up positions": boardcore's decisions).
    """
    spec = ROOT.parent / "shared" / "rules"
    for name in boardcore.GAMES:
        ours = rules.text(name)
        assert ours.count("\n## Set-up positions\n") == 1, name
        assert "\n## " not in ours[ours.index("\n## Set-up positions\n") + 1:], name
        if not spec.is_dir():  # a clone, an sdist or a wheel test: nothing to compare
            continue
        theirs = (spec / f"{name}.md").read_text(encoding="utf-8")
        numbered = ours[ours.index("\n## "):ours.index("\n## Set-up positions\n")]
        assert numbered == theirs[theirs.index("\n## "):], name


# -- the builds: what CI, the proofs and the wheel workflow run ---------------------

def test_every_test_file_a_build_leg_names_exists() -> None:
    """The SIMD-off leg, the aarch64 and free-threaded proofs run tests they name.

    A name that matches no file runs nothing, quietly: the per-game differential files
    became one and ``make test-nosimd`` found no differential tests.  ``.ci/`` is in the
    repository only (the sdist ships the Makefile).
    """
    legs = [ROOT / "Makefile", *sorted((ROOT / ".ci").glob("*"))]
    named = 0
    for leg in (p for p in legs if p.is_file()):
        for pattern in re.findall(r"tests/[\w*/.-]+\.py", leg.read_text(encoding="utf-8")):
            named += 1
            assert list(ROOT.glob(pattern)), f"{leg.name} names {pattern}: no such file"
    assert named, "the Makefile names no test file"


#: The platforms of the wheel workflow's runners (.github/workflows/wheels.yml, one job
#: per runner), as cibuildwheel names them.
WHEEL_PLATFORMS = {
    "linux-x86_64": ("manylinux_x86_64", "musllinux_x86_64"),
    "linux-aarch64": ("manylinux_aarch64", "musllinux_aarch64"),
    "windows-x86_64": ("win_amd64",), "windows-arm64": ("win_arm64",),
    "macos-x86_64": ("macosx_x86_64",), "macos-arm64": ("macosx_arm64",),
}
#: Interpreters and platforms numpy, the one dependency, has no wheel for: a wheel
#: there could not be tested without building numpy (``pip download numpy
#: --only-binary=:all: --platform win_arm64 --python-version 3.10`` finds none).
NO_NUMPY_WHEEL = {"cp310-win_arm64"}


def test_the_wheels_built_are_every_platform_numpy_serves() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text[text.index("\n[tool.cibuildwheel]\n"):]
    build, skip = (re.search(rf'^{key} = "([^"]*)"', section, flags=re.MULTILINE)
                   for key in ("build", "skip"))
    assert build is not None and skip is not None
    workflow = ROOT / ".github" / "workflows" / "wheels.yml"
    if workflow.is_file():      # the repository (not an sdist): its runners are these
        runners = re.findall(r"^ +- os: ([\w-]+)", workflow.read_text(encoding="utf-8"),
                             flags=re.MULTILINE)
        assert sorted(runners) == sorted(WHEEL_PLATFORMS)
    pythons = [p.split("-")[0] for p in build.group(1).split()]
    platforms = [tag for tags in WHEEL_PLATFORMS.values() for tag in tags]
    built = {f"{py}-{tag}" for py in pythons for tag in platforms
             if not any(fnmatch.fnmatchcase(f"{py}-{tag}", s) for s in skip.group(1).split())}
    assert built == {f"{py}-{tag}" for py in pythons for tag in platforms} - NO_NUMPY_WHEEL


# -- the engines: one structure, no way up but the snapshot -------------------------


def _class_body(text: str, name: str) -> str:
    """The indented body of ``cdef class name`` in Cython source ``text``."""
    start = re.search(rf"^cdef class {name}\b.*:\n", text, flags=re.MULTILINE)
    assert start is not None, name
    end = re.search(r"^\S", text[start.end():], flags=re.MULTILINE)
    return text[start.end():start.end() + end.start() if end else len(text)]


#: C types of Cython declarations; any other type names a Python object.
C_TYPE = re.compile(r"(u?int\d*_t|\w+_t|int|bint|char|double|float|size_t|Py_ssize_t|void)")


def _object_fields(body: str) -> set[str]:
    """The Python-object fields a cdef class body declares (``cdef object game`` ...)."""
    fields = set()
    for line in body.splitlines():
        m = re.match(r"    cdef (?:readonly |public )?(?:const )?(\w+)\s+([^(]*?)\s*(#.*)?$", line)
        if m is None or "*" in m.group(2) or C_TYPE.fullmatch(m.group(1)):
            continue
        fields.update(n.strip().split("[")[0] for n in m.group(2).split(","))
    return fields


def test_copy_takes_a_reference_to_every_object_field() -> None:
    # copy() copies a state's bytes, then takes a reference to each Python object it
    # holds: a field it left out would be freed while the copy still points at it.
    copy = _class_body((ENGINE / "_state.pyx").read_text(encoding="utf-8"), "EngineState")
    copy = copy[copy.index("    def copy(self):"):]
    copy = copy[:copy.index("\n    def ", 1)]
    taken = set(re.findall(r"Py_INCREF\(c\.(\w+)\)", copy))
    held = _object_fields(_class_body((ENGINE / "_state.pxd").read_text(encoding="utf-8"),
                                      "EngineState"))
    assert held == {"game", "seed", "_setup", "_root"} and taken == held
    for name, cls in GAME_CLASSES.items():
        body = _class_body((ENGINE / f"{name}.pyx").read_text(encoding="utf-8"),
                           cls.state_class.__name__)
        assert not _object_fields(body), f"{name}: a state holds Python objects only in _state"


@pytest.mark.parametrize("name", boardcore.GAMES)
def test_an_engine_is_its_rules_its_kernel_and_its_state_class(name: str) -> None:
    # The structure of docs/development.md: <game>.pyx holds the rules, the kernel
    # slots and the state class, and at its end includes <game>_seat.pxi (the slots of
    # what one seat knows) -- no other include.  Its state class hands out its values
    # (_values) and reads set-up values (_fill); it writes no Python answers (views,
    # text, documents, notation: the game's package does), imports nothing but the
    # errors, the shared values and numpy, and reads nothing of its Game but through
    # _state.pyx.
    text = (ENGINE / f"{name}.pyx").read_text(encoding="utf-8")
    assert re.findall(r"^include \"(.*)\"", text, flags=re.MULTILINE) == [f"{name}_seat.pxi"]
    assert text.rstrip().endswith(f'include "{name}_seat.pxi"')
    imports = re.findall(r"^(?:from (\S+) import|import (\S+))", text, flags=re.MULTILINE)
    assert {a or b for a, b in imports} <= {"boardcore.errors", "boardcore.values", "numpy"}
    cls = GAME_CLASSES[name].state_class.__name__
    body = _class_body(text, cls)
    assert re.search(r"^    cdef dict _values\(self, const void \*position\):", body, re.M)
    stub = _class_body((ENGINE / f"{name}.pyi").read_text(encoding="utf-8").replace(
        f"class {cls}(EngineState):", f"cdef class {cls}:"), cls)
    base = (ENGINE / "_state.pyi").read_text(encoding="utf-8")
    extras = {m for m in re.findall(r"    def (\w+)\(", stub) if f"def {m}(" not in base}
    assert set(re.findall(r"^    def (\w+)\(", body, re.M)) <= {"__cinit__"} | extras


def test_only_seat_files_are_included() -> None:
    seat = {f"{name}_seat.pxi" for name in boardcore.GAMES}
    assert {p.name for p in ENGINE.glob("*.pxi")} == seat
    for path in ENGINE.glob("_*.pyx"):
        assert "\ninclude " not in path.read_text(encoding="utf-8"), path.name


def test_no_engine_reads_a_private_attribute_of_its_game() -> None:
    for path in [*ENGINE.glob("*.pyx"), *ENGINE.glob("*.pxi"), *ENGINE.glob("*.pxd")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bgame\._\w", text), path.name
        assert "import_module" not in text and "from boardcore." + "moves" not in text
