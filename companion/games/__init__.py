"""The registry: every game the companion knows, found by its slug.

As python-chess keeps ``VARIANTS`` and ``find_variant(name)``: a game is a folder under
``companion/games/`` whose ``__init__`` defines ``GAME`` (a
:class:`companion.core.game.Game`), plus one line below. Nothing outside this package
names a particular game.

>>> find_game("sugarrr").name
'Sugarrr!'
>>> find_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.games.UnknownGame: no game called 'chess': choose one of sugarrr, sugar-blast, ...
"""

from __future__ import annotations

from companion.core.codes import register_prefix
from companion.core.game import Game

from .sugar_blast import GAME as _SUGAR_BLAST
from .sugar_heist import GAME as _SUGAR_HEIST
from .sugarrr import GAME as _SUGARRR
from .sweet_deals import GAME as _SWEET_DEALS

#: slug -> descriptor, in the order the start screen lists them.
GAMES: dict[str, Game] = {g.slug: g for g in (_SUGARRR, _SUGAR_BLAST, _SUGAR_HEIST, _SWEET_DEALS)}

for _game in GAMES.values():  # so a card of one game scanned at another is named
    register_prefix(_game.slug, _game.prefix, _game.name)


class UnknownGame(LookupError, ValueError):
    """No registered game has that slug."""


def find_game(slug: str) -> Game:
    """The descriptor of ``slug``. Raises :class:`UnknownGame` naming the known games."""
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGame(f"no game called {slug!r}: choose one of {', '.join(GAMES)}") from None


def game_for_prefix(prefix: str) -> Game | None:
    """The game whose card codes start with ``prefix``, or None."""
    return next((g for g in GAMES.values() if g.prefix == prefix), None)
