"""The Sphinx extension of the boardcore site (``docs/conf.py`` loads it).

Everything here reads the *installed* boardcore:

* **Typed signatures for compiled code.**  Autodoc reads the compiled modules (their
  docstrings are there, ``SPHINX_AUTODOC_IGNORE_NATIVE_MODULE_TYPE_STUBS=1``) and this
  extension replaces each compiled function's untyped signature with the one of its
  ``.pyi`` stub.
* **Pictures made at build time.**  One seeded mid-game position per game of
  ``boardcore.GAMES``, drawn with ``state.svg()`` into ``_generated/pictures/``; the
  ``{boardcore-gallery}`` directive shows them all, and each game page shows its own
  at the end of its ``## Pictures`` section (a section added at the end of the page
  when it has none).
* **The rules pages.**  ``_generated/rules/<game>.md`` is ``boardcore rules <game>``.
* **Lists of games from the registry.**  A toctree line holding ``{game}`` (and
  ``{title}``) stands for one line per game of ``boardcore.GAMES``, in that order.
* **Optional pages.**  A page of ``OPTIONAL_PAGES`` is left out (with its toctree line)
  while it cannot be built: the RL guide and the reference of ``boardcore.envs``.
* **Every public module documented.**  A warning (an error under ``-W``) names any
  public module of the installed package that no reference page documents.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import posixpath
import re
from functools import cache
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import boardcore
import boardcore.rules
from boardcore._registry import GAME_CLASSES

LOGGER = logging.getLogger(__name__)

#: Pages a toctree may name before they can be built: the RL guide (written on another
#: branch) and the reference of ``boardcore.envs`` (documented once the module exists).
OPTIONAL_PAGES = {
    "rl": lambda srcdir: (srcdir / "rl.md").is_file(),
    "reference/envs": lambda srcdir: importlib.util.find_spec("boardcore.envs") is not None,
}
#: The seed of every gallery position.
SEED = 2026
#: Public modules that need no reference page: the CLI has its own page; the rules
#: pages and each game's moves, picture and set-up modules are reached through
#: ``boardcore rules``, ``state.explain()``, ``state.svg()`` and ``state_from_dict()``.
UNDOCUMENTED = re.compile(r"boardcore\.(__main__|rules|\w+\.(moves|picture|positions))")

GENERATED = "_generated"


# --- typed signatures from the stubs -------------------------------------------------


@cache
def _stub(module: str) -> dict[str, ast.AST]:
    """Every function, method and annotated name of a compiled module's stub."""
    try:
        path = Path(importlib.import_module(module).__file__ or "")
    except ImportError:
        return {}
    stub = path.parent / (path.name.split(".")[0] + ".pyi")
    if not stub.is_file():
        return {}
    found: dict[str, ast.AST] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef):
                found.setdefault(prefix + node.name, node)

    walk(ast.parse(stub.read_text(encoding="utf-8")).body, "")
    return found


def stub_signature(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                   signature: str | None, return_annotation: str) -> tuple[str, str] | None:
    """Return a compiled function's signature as its stub writes it (``self`` dropped)."""
    # A method descriptor has no __module__: its class (__objclass__) has.
    module = (getattr(obj, "__module__", None)
              or getattr(getattr(obj, "__objclass__", None), "__module__", None) or "")
    qualname = getattr(obj, "__qualname__", None)
    if not module.startswith("boardcore._engine") or not isinstance(qualname, str):
        return None
    node = _stub(module).get(qualname)
    if not isinstance(node, ast.FunctionDef):
        return None
    args = node.args
    if what in ("method", "class") and args.args and args.args[0].arg in ("self", "cls"):
        args = ast.arguments(posonlyargs=args.posonlyargs, args=args.args[1:],
                             vararg=args.vararg, kwonlyargs=args.kwonlyargs,
                             kw_defaults=args.kw_defaults, kwarg=args.kwarg,
                             defaults=args.defaults)
    returns = ast.unparse(node.returns) if node.returns is not None else ""
    return f"({ast.unparse(args)})", returns


def rule_prefix(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                lines: list[str]) -> None:
    """Keep ``#: J2: the board ...`` from reading as an attribute of type ``J2``.

    Napoleon takes ``word: text`` at the start of an attribute's docstring for its type;
    boardcore's comments start with a rule number instead.  Runs before napoleon.
    """
    if what in ("data", "attribute", "property") and lines:
        lines[0] = re.sub(r"^([A-Z]\d+): ", r"\1 — ", lines[0])


def escape_types(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                 lines: list[str]) -> None:
    """Keep ``np.bool_`` in a field's type from reading as a link target (after napoleon)."""
    for i, line in enumerate(lines):
        if line.lstrip().startswith(":vartype "):
            head, _, kind = line.partition(": ")
            lines[i] = head + ": " + re.sub(r"(\w)_\b", r"\1\\_", kind) if kind else line


# --- pictures, rules pages, the gallery ----------------------------------------------


def position(name: str) -> tuple[Any, int, int]:
    """The gallery's position of game ``name``: halfway through a seeded random game.

    Three players where the game takes them (else four, else two).  Returns the state,
    its number of players and the length in actions of the whole game.
    """
    for players in (3, 4, 2):
        try:
            game = boardcore.make(name, players=players)  # type: ignore[call-overload]
        except boardcore.ConfigurationError:
            continue
        break
    state = game.new_state(seed=SEED)
    finished = state.copy()
    finished.rollout(seed=SEED)
    actions = finished.history()
    for action in actions[: len(actions) // 2]:
        state.apply(action)
    return state, players, len(actions)


def _display_name(name: str) -> str:
    return GAME_CLASSES[name].title


#: game -> (title, caption) of its picture, or None when the game draws none yet.
PICTURES: dict[str, tuple[str, str] | None] = {}


def generate(app: Sphinx) -> None:
    """Write the pictures and the rules pages under ``_generated/`` (before reading)."""
    root = Path(app.srcdir) / GENERATED
    (root / "pictures").mkdir(parents=True, exist_ok=True)
    (root / "rules").mkdir(parents=True, exist_ok=True)
    for name in boardcore.GAMES:
        title = _display_name(name)
        state, players, total = position(name)
        played = len(state.history())
        caption = (f"{title}, {players} players: `boardcore.make({name!r}, "
                   f"players={players}).new_state(seed={SEED})` after {played} of the "
                   f"{total} actions of a random game.")
        try:
            picture = state.svg()
        except (ImportError, NotImplementedError) as exc:
            LOGGER.info("boardcore: no picture of %s yet (%s)", name, exc)
            PICTURES[name] = None
        else:
            _write(root / "pictures" / f"{name}.svg", picture)
            PICTURES[name] = (title, caption)
        _write(root / "rules" / f"{name}.md", boardcore.rules.text(name))


def _write(path: Path, text: str) -> None:
    # Rewrite only what changed, so an incremental build re-reads only that.
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def figure(name: str, link: bool) -> list[str]:
    """The MyST lines that show game ``name``'s picture (or say there is none yet)."""
    entry = PICTURES.get(name)
    if entry is None:
        return [f"*{_display_name(name)} draws no picture yet.*", ""]
    title, caption = entry
    if link:
        caption = f"[{title}](/games/{name}.md) — " + caption.split(": ", 1)[1]
    return [f"```{{figure}} /{GENERATED}/pictures/{name}.svg",
            f":alt: a {title} position drawn by state.svg()",
            ":width: 100%",
            "",
            caption,
            "```",
            ""]


class Gallery(SphinxDirective):
    """``{boardcore-gallery}``: one picture per game of ``boardcore.GAMES``."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        """Return the figures, parsed as MyST."""
        lines: list[str] = []
        for name in boardcore.GAMES:
            lines += figure(name, link=True)
        container = nodes.container(classes=["boardcore-gallery"])
        self.state.nested_parse(StringList(lines, source="boardcore-gallery"),
                                self.content_offset, container)
        return [container]


def missing_pages(app: Sphinx) -> list[str]:
    """The optional pages that cannot be built now."""
    return [page for page, ready in OPTIONAL_PAGES.items() if not ready(Path(app.srcdir))]


def leave_out(app: Sphinx, config: Any) -> None:
    """Exclude the optional pages that cannot be built now."""
    config.exclude_patterns.extend(f"{page}.md" for page in missing_pages(app))


def each_game(line: str) -> str:
    """The lines ``line`` stands for: one per game, ``{game}`` and ``{title}`` filled in."""
    return "".join(line.replace("{game}", name).replace("{title}", cls.title)
                   for name, cls in GAME_CLASSES.items())


def edit_source(app: Sphinx, docname: str, source: list[str]) -> None:
    """Put each game's picture on its page, write out the lists of games, and drop
    optional pages that do not exist."""
    text = re.sub(r"^.*\{game\}.*\n", lambda m: each_game(m.group(0)), source[0],
                  flags=re.MULTILINE)
    game = docname.removeprefix("games/")
    if docname.startswith("games/") and game in boardcore.GAMES:
        block = "\n".join(figure(game, link=False))
        heading = re.search(r"^## Pictures[ \t]*\n", text, flags=re.MULTILINE)
        if heading:
            after = re.search(r"^## ", text[heading.end():], flags=re.MULTILINE)
            end = heading.end() + after.start() if after else len(text)
            text = f"{text[:end].rstrip()}\n\n{block}\n{text[end:]}"
        else:
            text = f"{text.rstrip()}\n\n## Pictures\n\n{block}\n"
    for page in missing_pages(app):
        line = posixpath.relpath(page, posixpath.dirname(docname) or ".")
        text = re.sub(rf"^{re.escape(line)}[ \t]*\n", "", text, flags=re.MULTILINE)
    source[0] = text


# --- every public module documented ---------------------------------------------------


def public_modules() -> list[str]:
    """Every public module of the installed package (no part of its name private)."""
    names = ["boardcore"]
    for info in pkgutil.walk_packages(boardcore.__path__, "boardcore."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(n for n in names if not UNDOCUMENTED.fullmatch(n))


def check_modules(app: Sphinx, env: Any) -> None:
    """Warn for every public module that no page documents with ``automodule``."""
    documented = set(env.domaindata["py"]["modules"])
    for name in public_modules():
        if name not in documented:
            LOGGER.warning("boardcore: public module %s has no reference page "
                           "(add docs/reference/%s.md)", name,
                           name.removeprefix("boardcore.") if "." in name else "boardcore",
                           type="boardcore", subtype="reference")


def setup(app: Sphinx) -> dict[str, Any]:
    """Connect the hooks and the directive."""
    app.connect("autodoc-process-signature", stub_signature)
    app.connect("autodoc-process-docstring", rule_prefix, priority=100)
    app.connect("autodoc-process-docstring", escape_types, priority=900)
    app.connect("config-inited", leave_out)
    app.connect("builder-inited", generate)
    app.connect("source-read", edit_source)
    app.connect("env-check-consistency", check_modules)
    app.add_directive("boardcore-gallery", Gallery)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
