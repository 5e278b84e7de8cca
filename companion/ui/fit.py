"""Does every message fit? The measuring half: the strings of a game's message catalogue
(:func:`catalogue`, :func:`fill`) and what reads badly in a drawn frame
(:func:`overlaps`). :func:`companion.table.message_fit.unfit_messages` draws every
message on the game's recorded demo with these; a game's tests call it."""

from __future__ import annotations

import os
import string
from typing import Any, Iterable

from ..core.game import TABLE, Game

#: Stand-ins for a catalogue message's ``{fields}``: long names, two-digit numbers.
SAMPLE_TEXT = "Grandma Josephine"
SAMPLE_NUMBER = "10"
_NUMBERY = ("n", "count", "num", "number", "total", "left", "score", "value", "points", "col", "column",
            "seat", "turn", "lock", "bid", "coins", "cards", "size", "holes", "need", "amount")


def catalogue(game: Game) -> list[str]:
    """Every string of the game's ``messages`` module (constants, and strings inside
    dicts, tuples and lists), its ``{fields}`` filled with long sample values."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(fill(value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (tuple, list, frozenset, set)):
            for v in value:
                walk(v)

    for name, value in game.messages().items():
        if not name.startswith("_") and not callable(value) and not isinstance(value, type(os)):
            walk(value)
    return [m for m in dict.fromkeys(found) if m.strip()]


def fill(template: str) -> str:
    """``template`` with each ``{field}`` replaced by a sample (a number for count-like
    names, a long name otherwise); a string that is not a template comes back as is."""
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError:
        return template
    if not fields:
        return template
    values: dict[str, str] = {}
    for f in fields:
        key = f.split(".")[0].split("[")[0]
        numbery = any(part in _NUMBERY for part in key.lower().split("_"))
        values[key] = SAMPLE_NUMBER if numbery else SAMPLE_TEXT
    try:
        return template.format_map(_Default(values))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return template


class _Default(dict):
    def __missing__(self, key):
        return SAMPLE_TEXT


def public(game: Game, state: Any) -> Any:
    """The table's view of ``state``."""
    return game.rules.public_view(state, TABLE)


#: Pixels two things may touch by before it counts as overlapping (anti-aliased edges).
TOUCH_PX = 1


def overlaps(drawn, surface=None, buttons: Iterable = ()) -> list[str]:
    """What reads badly in one frame recorded with :func:`companion.ui.widgets.record_text`
    besides size: a text whose letters run into another text's, a text partly on a
    button it does not label (the widgets' buttons and the touch targets ``buttons``), a
    text standing out of the box it was given, and a text something drawn after it
    covers (``surface``: the finished frame; anything under a menu's shade is meant to
    be covered). One line per problem."""
    import pygame

    Rect = pygame.Rect
    out: list[str] = []
    shown = drawn.visible() if hasattr(drawn, "visible") else drawn
    texts = [d for d in shown if d.text.strip() and d.ink[2] and d.ink[3]]
    inks = [Rect(d.ink).inflate(-2 * TOUCH_PX, -2 * TOUCH_PX) for d in texts]
    for i, a in enumerate(texts):
        for j in range(i + 1, len(texts)):
            b = texts[j]
            if (a.text, a.ink) == (b.text, b.ink):
                continue  # the same text drawn again (a clock checked for its redraw)
            if inks[i].colliderect(inks[j]):
                out.append(f"{a.text!r} runs into {b.text!r}")
    taps = list(dict.fromkeys(tuple(getattr(b, "rect", b)) for b in buttons))
    for i, a in enumerate(taps):
        for b in taps[i + 1:]:
            if Rect(a).inflate(-2 * TOUCH_PX, -2 * TOUCH_PX).colliderect(Rect(b)) and not (
                    Rect(a).contains(Rect(b)) or Rect(b).contains(Rect(a))):
                out.append(f"the buttons at {a} and {b} overlap")
    targets = {tuple(b) for b in getattr(drawn, "buttons", ())} | set(taps)
    for d, ink in zip(texts, inks):
        for t in targets:
            r = Rect(t)
            if d.owner == t or not ink.colliderect(r) or r.contains(ink):
                continue
            if d.owner is not None and Rect(d.owner).contains(r):
                continue  # a touch target inside the button it labels
            out.append(f"{d.text!r} runs into the button at {tuple(r)}")
    for d, ink in zip(texts, inks):
        if not Rect(d.rect).inflate(2, 2).contains(ink):
            out.append(f"{d.text!r} stands out of its {d.rect[2]}x{d.rect[3]} box")
        elif surface is not None and not surface.get_rect().contains(ink):
            out.append(f"{d.text!r} is off the screen")
    if surface is not None:
        for mark in getattr(drawn, "marks", ()):
            if mark is None:
                continue
            d, where, before = mark
            if where is not surface:
                continue
            area = Rect(d.ink).clip(surface.get_rect())
            if area.size != before.get_size():
                continue
            now = surface.subsurface(area)
            if pygame.image.tobytes(now, "RGB") == pygame.image.tobytes(before, "RGB"):
                continue
            same = pygame.transform.threshold(None, now, None, (24, 24, 24, 255), None, 0, before)
            changed = area.width * area.height - same
            if changed > max(6, area.width * area.height // 25):
                out.append(f"{d.text!r} is drawn over ({changed} px changed)")
    return list(dict.fromkeys(out))
