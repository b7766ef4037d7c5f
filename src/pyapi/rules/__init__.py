"""The rules pages of every game, as boardcore implements them (``boardcore rules NAME``)."""

from importlib.resources import files


def text(name: str) -> str:
    """Return the rules page of game ``name`` (one of ``boardcore.GAMES``)."""
    return files(__name__).joinpath(f"{name}.md").read_text(encoding="utf-8")
