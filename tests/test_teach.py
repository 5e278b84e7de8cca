"""A first game that teaches (issue 38: "a first-game mode per game that walks a new
table through its first turns with prompts ("Now scan a card that matches the Fruit or
the number"), stopping when they have it"): the start screen's "First game: show me
how", the lessons in the rulebook's words, and their end after the first round."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch, TurnEnded
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.replay import replay
from companion.table.session import Session, start_session
from companion.ui.start import StartFlow
from sugarrr_helpers import STARTS, fruit

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_games_options_offer_a_first_game_that_teaches(slug):
    """The options screen has "First game: show me how"; switched on, the game starts
    with its lessons, and off (the default) it does not."""
    for on in (False, True):
        flow = StartFlow(EventStore(":memory:"), GAMES)
        flow.handle(f"game {slug}")
        if GAMES[slug].options:  # the options screen; a game with none has it on the players screen
            flow.handle("next")
            assert type(flow.screen).__name__ == "OptionsScreen"
        import pygame

        from companion.ui.widgets import record_text

        pygame.font.init()
        surface = pygame.Surface((800, 480))
        if on:
            flow.handle("toggle teach")
        with record_text() as drawn:
            buttons = flow.draw(surface)
        teach = [b.rect for b in buttons if b.command == "toggle teach"]
        assert teach, [b.command for b in buttons]
        assert not any(b.rect.colliderect(teach[0]) for b in buttons if b.command != "toggle teach")
        words = " ".join(d.text for d in drawn)
        assert "First game: show me how" in words and ("(on)" in words) is on
        flow.handle("next")
        assert flow.choice is not None and flow.choice.teach is on
        session = start_session(flow.choice, EventStore(":memory:"), FakeClock())
        assert session.teacher.on is on


def test_sugarrr_first_game_walks_the_first_round_then_plays_on_as_normal():
    """The lessons quote the rulebook ("Each card you play must match the Fruit or the
    number of the card before it in the column"; "On your turn, choose 1 action: Swap or
    Play"), and stop once both players have finished a turn."""
    s = Session.start("sugarrr", ["Mia", "Ben"], EventStore(":memory:"), FakeClock(), resume=False, tap_off=0)
    s.teach()
    assert "start each column" in s.lesson()
    for code in STARTS:
        s.handle(CardScanned(code, "scan", 1.0))
    assert s.lesson().startswith("Mia: on your turn, choose 1 action: Swap or Play")
    s.handle(Touch("column 1", 2.0))   # Pineapple 2
    assert s.handle(CardScanned(fruit("Pineapple", 5), "scan", 3.0)).verdict == "accepted"
    assert s.lesson().startswith("Mia: now scan a card that matches the Fruit or the number")
    s.handle(Touch("done", 4.0))       # 2 cards, last a 5: Attract 1
    assert "Attract" in s.lesson() and "add up to 1" in s.lesson()
    assert s.teacher.on
    while s.state.phase == "attract":
        saur = next(c for c in s.state.valley if GAMES["sugarrr"].catalogue()[c].value == 1)
        s.handle(CardScanned(saur, "scan", 5.0))
    assert s.lesson().startswith("Ben: on your turn")     # Mia's turn is over: Ben's first
    assert s.handle(Touch("swap 2", 6.0)).verdict == "accepted"
    assert s.lesson() is None and not s.teacher.on          # everyone has had a turn: as normal
    assert s.prompt().startswith("Mia:")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_each_games_lessons_show_in_its_first_round_then_stop(slug):
    """The game's recorded demo with its lessons on: several steps have a lesson (never
    a card code), the window shows it as the prompt, and after every seat has ended a
    turn there are none."""
    desc = GAMES[slug]
    runner = replay(DATA / desc.demo, window=False)
    record = runner.session.store.games()[0]
    inputs = runner.session.store.inputs(runner.session.game_id)
    s = Session.start(slug, list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                      options=record.config, tap_off=0)
    s.teach()
    codes = re.compile("|".join(re.escape(c.code) for g in GAMES.values() if g.has_cards for c in g.cards()))
    lessons, ended = set(), set()
    for item in inputs:
        lesson = s.lesson()
        if lesson:
            assert not codes.search(lesson), lesson
            assert not ended or len(ended) < len(s.state.players), "a lesson after the first round"
            lessons.add(lesson.split(":")[0] if ":" in lesson[:12] else lesson[:30])
        v = s.handle(item)
        if v is not None and v.verdict == "accepted":
            ended |= {e.player for e in v.events if isinstance(e, TurnEnded) and e.player >= 0}
    assert len(lessons) >= 3, lessons
    assert s.lesson() is None and not s.teacher.on
