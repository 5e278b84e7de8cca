"""Every part of a screen says what it is (issue 22, item 8): The Valley's row, each of
the two clocks, the legend of the final table's ``7 × 6``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.table.replay import replay
from companion.ui.widgets import record_text

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def sugarrr():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    runner = replay(DATA / "sugarrr-family.trace", window=True, snapshots=None)
    return runner


def drawn_by(runner, draw=None):
    with record_text() as drawn:
        runner.app.show(draw or runner.draw)
    return drawn


def test_the_final_table_says_what_its_numbers_are(sugarrr):
    texts = [d.text for d in drawn_by(sugarrr)]
    assert "cards × points a card" in texts and "7 × 6" in texts


def test_the_valley_and_both_clocks_are_named_while_playing(tmp_path):
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.app import App
    from sugarrr_helpers import STARTS

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    for code in STARTS:
        session.handle(CardScanned(code, "scanner", clock.now()))
    clock.set(170.0)
    app = App()
    try:
        runner = Runner(session, clock, app=app)
        drawn = drawn_by(runner)
        texts = [d.text for d in drawn]
        assert "The Valley" in texts
        assert "this turn" in texts and "Game" in texts and "01:10" in texts
        assert all(d.readable for d in drawn if d.text.strip())
    finally:
        app.close()


def test_sweet_deals_rows_say_the_bake_sale_is_one_still_to_play():
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.app import App

    demo = replay(DATA / "sweet-deals-family.trace", window=False).session
    record = demo.store.games()[0]
    s = Session.start("sweet-deals", list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                      options=record.config, tap_off=0)
    for item in demo.store.inputs(demo.game_id):
        if s.state.phase == "bid":
            break
        s.handle(item)
    app = App()
    try:
        texts = [d.text for d in drawn_by(Runner(s, s.clock, app=app))]
    finally:
        app.close()
    rows = [t for t in texts if t.startswith("7 cards")]
    assert len(rows) == len(record.players) and all(t == "7 cards, 1 Bake Sale" for t in rows)


def test_sugar_heist_swap_shows_the_player_rows_take_a_card():
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.app import App

    demo = replay(DATA / "sugar-heist-family.trace", window=False).session
    record = demo.store.games()[0]
    s = Session.start("sugar-heist", list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                      options=record.config, tap_off=0)
    for item in demo.store.inputs(demo.game_id):
        if s.state.stage == "swap" and s.state.frame is None:
            break
        s.handle(item)
    app = App()
    try:
        texts = [d.text for d in drawn_by(Runner(s, s.clock, app=app))]
        commands = [b.command for b in app.buttons]
    finally:
        app.close()
    others = [p for seat, p in enumerate(s.state.players) if seat != s.state.active]
    shown = " ".join(texts)
    assert all(f"Tap here for a card from {p}'s" in shown for p in others)
    assert commands.count("from 2") == 2  # the name and the marked end of the row


def test_while_dad_scans_his_deal_his_row_is_the_lit_one():
    """The trial: the screen named Mum's turn while Dad was scanning his deal."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.games.sweet_deals import screen
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui import theme
    from companion.ui.app import App

    demo = replay(DATA / "sweet-deals-family.trace", window=False).session
    record = demo.store.games()[0]
    s = Session.start("sweet-deals", list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                      options=record.config, tap_off=0)
    for item in demo.store.inputs(demo.game_id)[:7]:  # Mum's seven cards
        assert s.handle(item).verdict == "accepted"
    assert s.state.phase == "deal" and s.state.active == 0
    app = App()
    try:
        Runner(s, s.clock, app=app).render(force=True)
        rows = screen.player_rows(len(record.players))
        colour = [tuple(app.surface.get_at((r.left + 4, r.centery)))[:3] for r in rows]
    finally:
        app.close()
    assert colour[1] == theme.HIGHLIGHT[:3] and colour[0] != theme.HIGHLIGHT[:3]


@pytest.mark.toy_game
def test_the_toy_games_screen_names_its_clocks_and_reads_whole_in_every_phase():
    """A game's own panel inside the shared chrome (the toy game, tests/toy_game.py): in
    each phase of its demo the turn clock (the seconds since the turn began, set-up
    counting from the game's start) and the game clock are named, each player's row
    says what its numbers count, Reveal is there only once everyone has played, and every
    text drawn is whole at 20 px or more; the final table too."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.app import App
    from companion.ui.chrome import clock as shown

    demo = replay(DATA / "toy-family.trace", window=False).session
    record = demo.store.games()[0]
    clock = FakeClock(0.0)
    s = Session.start("toy", list(record.players), EventStore(":memory:"), clock, resume=False,
                      options=record.config, tap_off=0)
    app = App()
    phases = []
    try:
        runner = Runner(s, clock, app=app)
        for item in demo.store.inputs(demo.game_id):
            clock.set(item.t)
            assert s.handle(item).verdict == "accepted"
            if s.state.phase in phases:
                continue
            phases.append(s.state.phase)
            clock.set(item.t + 70.0)
            drawn = drawn_by(runner)
            texts = [d.text for d in drawn]
            assert all(d.readable for d in drawn if d.text.strip()), [d.text for d in drawn if not d.readable]
            assert ("reveal" in [b.command for b in app.buttons]) == (s.state.phase == "reveal")
            if not s.over:
                assert "this turn" in texts and "Game" in texts and texts.count(shown(clock.now() - s.turn_started)) >= 1
                rows = [t for t in texts if t != s.prompt() and any(t.startswith(f"{p}: ") for p in record.players)]
                assert len(rows) == 4 and all(" in hand" in t and t.endswith(("points", "point")) for t in rows), rows
    finally:
        app.close()
    assert phases == ["deal", "play", "reveal", "over"]
    assert "Mum wins! (tie decided by most cards)" in texts and "Mum: 30 points, 8 cards taken" in texts

