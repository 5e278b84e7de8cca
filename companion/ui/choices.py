"""The words and rows of a game option's buttons on the start screen: the option's line,
each choice's button words, how many go in a row. Split from :mod:`companion.ui.start`."""

from __future__ import annotations

from typing import Any

from ..core.game import Option
from . import theme
from .messages import text

W = 800   # the start screen's design width (companion.ui.start.W)
GAP = 8   # between buttons (companion.ui.start.GAP)


def option_label(option: Option) -> str:
    """The option's line on the start screen: its help, which names it in the players'
    words (``Solo: one player, ...``), from the game's catalogue."""
    return option.help[:1].upper() + option.help[1:]


def choice_label(value: str | None, option: Option | None = None) -> str:
    """A choice's button: None is "Usual" (the game decides) or "Random" (drawn at Start)."""
    if value is None:
        return text("random") if option is not None and option.blank == "random" else text("default")
    return str(value).replace("-", " ")


def _per_row(labels: list[str]) -> int:
    """How many of a choice's buttons go in a row: up to 4, fewer while a label would
    not fit its button on one line at the buttons' size."""
    from .widgets import width_of

    font = theme.font(theme.MEDIUM, True)
    widest = max((width_of(font, words) for words in labels), default=0)
    per_row = max(1, min(len(labels), 4))
    while per_row > 2 and widest > (W - 32 - GAP * (per_row - 1)) // per_row - 16:
        per_row -= 1
    return per_row


def choice_buttons(option: Option) -> list[tuple[Any, str]]:
    """A choice's buttons on the start screen, in order: ``(value, words)``, from the
    option's :attr:`~companion.core.game.Option.labels` when it has them, else None
    first (when the default is None: "Usual" or "Random") and each choice by its value."""
    if option.labels:
        return [(v, words) for v, words in option.labels]
    values: list[Any] = ([None] if option.default is None else []) + list(option.choices)
    return [(v, choice_label(v, option)) for v in values]
