"""The toy game (``tests/toy_game.py``) registered for a test, as a real game is by its one
line in ``companion/games/__init__.py``: put in :data:`companion.games.GAMES` and its card
code prefix reserved (:func:`companion.core.codes.register_prefix`), both taken back after
the test.

A test asks for it with the ``toy_game`` fixture or the ``toy_game`` mark (``tests/conftest.py``);
a test parametrised over the games takes :func:`every_game` (the real games, then the toy's
slug marked to be registered) or wraps its own values in :func:`toy_param`; a module-scoped
fixture uses :func:`registered`. A child process (``python -m companion``, a ``python -c``
program) knows only the real games: :func:`companion_command` and :func:`child_source` give
it the toy too, when this process has it registered.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Iterable, Iterator

import pytest

TOY = "toy"  # toy_game.SLUG, without importing the game (and pygame) at collection
_HERE = Path(__file__).resolve().parent
_PRELUDE = f"import sys; sys.path.insert(0, {str(_HERE)!r}); import toy_helpers; toy_helpers.register()\n"


def register(monkeypatch: pytest.MonkeyPatch | None = None):
    """Register the toy game and return its descriptor. ``monkeypatch`` takes it back at
    its undo; None registers it for good (a child process's registry lasts as long as it)."""
    import toy_game
    from companion import games
    from companion.core import codes

    patch = monkeypatch if monkeypatch is not None else pytest.MonkeyPatch()
    patch.setitem(games.GAMES, toy_game.SLUG, toy_game.GAME)
    for table in (codes.PREFIXES, codes.GAME_NAMES):  # (so the undo takes out what register_prefix puts in)
        patch.setitem(table, toy_game.SLUG, "")
    codes.register_prefix(toy_game.SLUG, toy_game.PREFIX, toy_game.NAME)
    return toy_game.GAME


@contextlib.contextmanager
def registered() -> Iterator:
    """The toy game registered while the ``with`` block runs (for a module-scoped fixture)."""
    with pytest.MonkeyPatch.context() as patch:
        yield register(patch)


def toy_param(*values):
    """A ``pytest.param`` of ``values`` whose test runs with the toy game registered."""
    return pytest.param(*values, marks=pytest.mark.toy_game)


def every_game(slugs: Iterable[str]) -> list:
    """``slugs`` (the real games a test runs on), then the toy game's, marked to be registered."""
    return [*slugs, toy_param(TOY)]


def registered_here() -> bool:
    """Is the toy game registered in this process now?"""
    from companion.games import GAMES

    return TOY in GAMES


def child_source(source: str) -> str:
    """``source``, a ``python -c`` program, registering the toy game first when this process has it."""
    return _PRELUDE + source if registered_here() else source


def companion_command() -> list[str]:
    """``python -m companion``, as a child process: with the toy game registered first when
    this process has it (the same CLI, given the same registry)."""
    if not registered_here():
        return [sys.executable, "-m", "companion"]
    return [sys.executable, "-c", _PRELUDE + "from companion.cli import main; sys.exit(main())"]
