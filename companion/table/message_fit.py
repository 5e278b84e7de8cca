"""Does every message fit? A check every game's tests can call.

A message fits when the game's screen draws it whole (no "...", no lost line) at font
size :data:`~companion.ui.theme.MIN_SIZE` or more, at 800x480. The screens are drawn off
screen from the game's recorded demo session (``Game.demo`` in ``tests/data``): every
verdict and prompt the demo produced is drawn on the state it was said in, and every
string of the game's message catalogue (``messages.py``, when the game has one) as the
verdict on one state of each phase.

In a game's tests::

    from .message_fit import unfit_messages

    def test_every_message_fits():
        assert unfit_messages(find_game("sugarrr")) == []
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..core.game import Game
from ..ui.fit import catalogue, fill
from .replay import data_dir, replay

DATA = data_dir()


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

    from ..ui import chrome
    from ..ui.app import TableInfo
    from ..ui.widgets import record_text

    from ..core.why import Rule

    # A refusal by a rule has a Why? button beside its words (companion.ui.verdict): a refusal of the demo,
    # and each catalogue sentence that is a rule's refusal (its why.toml), are drawn with one.
    why = Rule("a section", "a rule")

    text_of = game.messages().get("TEXT", {})
    ruled = {fill(text_of[k]) for k in (game.load_why() if game.load_why is not None else {}) if k in text_of}
    said = demo_said(game, data)
    if not said:
        raise ValueError(f"{game.name} has no demo session to draw its screen from ({game.demo})")
    by_phase: dict[str, Said] = {}
    for s in said:
        if not s.view.over:
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
        if s.view.over or not s.verdict:
            continue
        info = TableInfo(verdict=s.verdict, verdict_ok=s.ok, prompt=s.prompt, game_name=game.name,
                         why=why if s.ok is False else None)
        # A rejection must be seen with its reason; an accepted verdict or a prompt may be
        # said by the screen its own way (Sugar Blast's big tilt and refill prompts).
        draw(s.view, info, s.verdict, f"verdict ({s.phase})", must_show=s.ok is False)
        if s.prompt:
            draw(s.view, info, s.prompt, f"prompt ({s.phase})")
    for text in wanted:
        for phase, s in by_phase.items():
            for ok in (False, True):
                info = TableInfo(verdict=text, verdict_ok=ok, prompt=s.prompt, game_name=game.name,
                                 why=why if not ok and text in ruled else None)
                draw(s.view, info, text, f"catalogue verdict ({phase})", must_show=not ok)
    return list(problems.values())
