"""Does every message fit? A check every game's tests can call.

A message fits when the game's screen draws it whole (no "...", no lost line) at font
size :data:`~companion.ui.theme.MIN_SIZE` or more, at 800x480. The screens are drawn off
screen from the game's recorded demo session (``Game.demo`` in ``tests/data``): every
verdict and prompt the demo produced is drawn on the state it was said in, and every
string of the game's message catalogue (``messages.py``, when the game has one) as the
verdict on one state of each phase.

In a game's tests::

    from companion.ui.fit import unfit_messages

    def test_every_message_fits():
        assert unfit_messages(find_game("sugarrr")) == []
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..core.game import TABLE, Game

DATA = Path(__file__).resolve().parent.parent.parent / "tests" / "data"

#: Stand-ins for a catalogue message's ``{fields}``: long names, two-digit numbers.
SAMPLE_TEXT = "Grandma Josephine"
SAMPLE_NUMBER = "10"
_NUMBERY = ("n", "count", "num", "number", "total", "left", "score", "value", "points", "col", "column",
            "seat", "turn", "lock", "bid", "coins", "cards", "size", "holes", "need", "amount")


@dataclass
class Said:
    """What the table was told on one state: ``view`` (the TABLE view), ``info`` fields."""

    view: Any
    verdict: str
    ok: bool | None
    prompt: str
    phase: str = ""
    extras: dict = field(default_factory=dict)


def demo_said(game: Game, data: Path = DATA) -> list[Said]:
    """Replay the game's demo and keep every verdict and prompt with the state it was
    said on (the new-game message first)."""
    from ..replay import replay

    if not game.demo or not (data / game.demo).exists():
        return []
    said: list[Said] = []
    holder: dict[str, Any] = {}

    def listen(item, verdict) -> None:
        session = holder["session"]
        if verdict is None or verdict.verdict == "ignored":
            return
        ok = verdict.verdict == "accepted"
        text = (verdict.message or "OK") if ok else (verdict.reason or "")
        said.append(Said(session.view, text, ok, session.prompt(), str(session.state.phase)))

    def begin(session) -> None:
        holder["session"] = session
        said.append(Said(session.view, session.last_message, None, session.prompt(), str(session.state.phase)))

    replay(data / game.demo, window=False, listeners=[listen], on_start=begin)
    return said


def catalogue(game: Game) -> list[str]:
    """Every string of the game's ``messages`` module (constants, and strings inside
    dicts, tuples and lists), its ``{fields}`` filled with long sample values."""
    try:
        module = game.module("messages")
    except ModuleNotFoundError:
        return []
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

    for name, value in vars(module).items():
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


def unfit_messages(game: Game, messages: Iterable[str] = (), size: tuple[int, int] = (800, 480),
                   data: Path = DATA) -> list[str]:
    """Every problem found drawing the game's messages on its screen at ``size``: one
    line per message cut off or drawn under the minimum size. Empty when all fit.

    Checked: each verdict and prompt of the demo on its own state, and each of
    ``messages`` plus the game's catalogue as a red and as a green verdict on one state
    of each phase of the demo. A problem is a message drawn cut off or too small, or a
    rejection (red verdict) not drawn at all."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from . import chrome
    from .app import TableInfo
    from .widgets import record_text

    said = demo_said(game, data)
    if not said:
        raise ValueError(f"{game.name} has no demo session to draw its screen from ({game.demo})")
    by_phase: dict[str, Said] = {}
    for s in said:
        if not getattr(s.view, "over", False):
            by_phase.setdefault(s.phase, s)
    wanted = list(dict.fromkeys([*messages, *catalogue(game), game.new_game_message]))
    pygame.font.init()
    surface = pygame.Surface(size)
    problems: dict[str, str] = {}
    screen = game.screen

    def draw(view, info, text: str, where: str, must_show: bool = False) -> None:
        surface.fill((0, 0, 0))
        with record_text() as drawn:
            buttons = screen.draw_game(surface, view, info)
            chrome.overlay(surface, info, buttons)
        mine = [d for d in drawn if d.text == text]
        if not mine and must_show:
            problems.setdefault(text, f"{where}: not drawn at all: {text!r}")
        for d in mine:
            if not d.readable:
                why = "cut off" if d.clipped else f"at size {d.size} (< 20)"
                problems.setdefault(text, f"{where} {why} in a {d.rect[2]}x{d.rect[3]} box: {text!r}")

    for s in said:
        if getattr(s.view, "over", False) or not s.verdict:
            continue
        info = TableInfo(verdict=s.verdict, verdict_ok=s.ok, prompt=s.prompt, game_name=game.name)
        # A rejection must be seen with its reason; an accepted verdict or a prompt may be
        # said by the screen its own way (Sugar Blast's big tilt and refill prompts).
        draw(s.view, info, s.verdict, f"verdict ({s.phase})", must_show=s.ok is False)
        if s.prompt:
            draw(s.view, info, s.prompt, f"prompt ({s.phase})")
    for text in wanted:
        for phase, s in by_phase.items():
            for ok in (False, True):
                info = TableInfo(verdict=text, verdict_ok=ok, prompt=s.prompt, game_name=game.name)
                draw(s.view, info, text, f"catalogue verdict ({phase})", must_show=not ok)
    return list(problems.values())


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
