"""Turning a scanned code into a card of the game being played, or a clear refusal.

Each game keeps its catalogue in ``games/<game>/cards.toml``; its ``parts/cards.py`` builds
the card objects. This module holds the part every game shares: the lookup that tells a
garbled scan, a card from another game and an unknown code apart.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import Any, Mapping, TypeVar

from .codes import GAME_NAMES, check_code, game_of, normalise
from .errors import BadScan, WrongGame

C = TypeVar("C")


def load_toml(package: str, name: str = "cards.toml") -> dict[str, Any]:
    """Read a TOML data file shipped inside ``package`` (an installed folder, as pip
    installs it: read beside the package's ``__init__.py``, which keeps
    ``importlib.resources``' zip readers off the table's start)."""
    folder = Path(importlib.import_module(package).__file__).parent
    return tomllib.loads((folder / name).read_text(encoding="utf-8"))


def lookup(raw: str | None, game: str, cards: Mapping[str, C]) -> C:
    """The card for a scanned code in ``game``'s catalogue ``cards`` (code -> card).

    Raises :class:`BadScan` with a message for the table when the read is empty or
    garbled, belongs to another game, or is a well-formed code no card has.
    """
    if raw is None:
        raise BadScan(None, "The scanner sent something unreadable: scan the card again.")
    check_code(raw)
    code = normalise(raw)
    other = game_of(code)
    if other != game:
        raise WrongGame(code, GAME_NAMES.get(other, "another game") if other else None, GAME_NAMES[game])
    card = cards.get(code)
    if card is None:
        raise BadScan(code, f"{code} is not a {GAME_NAMES[game]} card I know: check the sticker.")
    return card


def from_other_game(raw: str | None, playing: str) -> WrongGame | None:
    """The refusal for a scan that is a good card code of another game than ``playing``
    (a display name), for a game with no cards of its own; None when the scan is not one."""
    try:
        other = game_of(raw or "")
    except BadScan:
        return None
    if other is not None and GAME_NAMES.get(other) == playing:
        return None
    return WrongGame(normalise(raw or ""), GAME_NAMES.get(other) if other else None, playing)
