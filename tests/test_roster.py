"""Players remembered (issue 38): the roster on the start screen, the last table's players
in one tap, History from the start screen with each finished game's score sheet, and each
player's figures per game, on the screen and in ``companion history --format json``.
Driven by real mouse clicks on a headless window, as tests/test_start_screen.py does."""

import json
import os
import random
import re
import sqlite3
from pathlib import Path

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion import cli
from companion.core.clock import FakeClock
from companion.core.store import SCHEMA_VERSION, EventStore
from companion.games import GAMES
from companion.table.history import sheets
from companion.table.replay import data_dir, replay
from companion.table.session import start_session
from companion.table.window import drawable_result
from companion.ui.app import App
from companion.ui.history import HistoryScreen
from companion.ui.start import GameScreen, HistoryStep, KeyboardScreen, PlayersScreen, RosterScreen, StartFlow
from companion.ui.widgets import record_text

DATA = Path(__file__).parent / "data"
SIZES = ((800, 480), (1024, 600), (720, 1280))


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


def click(app, flow, command):
    """Draw the flow, post a mouse click on the button for ``command``, let it handle it."""
    app.show(flow.draw)
    rect = next(b.rect for b in app.buttons if b.command == command)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    return flow.step(app)


def shown_text(app, flow) -> list[str]:
    with record_text() as drawn:
        app.show(flow.draw)
    return [d.text for d in drawn]


def format3_store(path: Path) -> Path:
    """A store as the companion of store format 3 wrote it (main before the roster):
    tests/data/store-format3.sql is its dump."""
    db = sqlite3.connect(path)
    db.executescript((DATA / "store-format3.sql").read_text())
    db.close()
    return path


def played_store(path: Path) -> EventStore:
    """A store holding the Sugarrr! family game (Mum, Dad, Maya, Leo: played through the
    real rules, so its score sheet can be rebuilt) and an unfinished Sugar Heist game."""
    replay(data_dir() / "sugarrr-family.trace", store=str(path), window=False).session.store.close()
    store = EventStore(path)
    store.new_game("sugar-heist", ["Mia", "Dad"], 2_000_000.0)
    return store


# ---------------------------------------------------------------- the store

def test_a_format_3_store_is_upgraded_with_every_player_of_its_games_in_the_roster(tmp_path):
    path = format3_store(tmp_path / "old.db")
    before = EventStore(path, readonly=True)  # `companion history` reads it as it is, without upgrading it
    assert before.roster() == ["Mia", "Dad", "Mum", "Leo", "Ben", "Cy", "Ana"]
    games_before = before.games()
    before.close()
    store = EventStore(path)
    assert store.migrated_from == 3 and store.backup.exists()
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert store.games() == games_before  # every game, result and input count as it was
    # newest game's players first, in seat order; Ana and Ben last seen in the game set aside
    assert store.roster() == ["Mia", "Dad", "Mum", "Leo", "Ben", "Cy", "Ana"]
    assert store.last_players() == ("Mia", "Dad")
    store.new_game("sugarrr", ["Leo", "ana"], 1_800_000_000.0)  # "ana" is Ana, spelt as she is now
    assert store.roster()[:2] == ["Leo", "ana"] and len(store.roster()) == 7
    store.close()
    copy = sqlite3.connect(store.backup)  # the copy kept aside is the old format, untouched
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 3
    assert "roster" not in {n for (n,) in copy.execute("SELECT name FROM sqlite_master")}


def test_companion_history_json_reads_a_format_3_store_and_counts_its_finished_games(tmp_path, capsys):
    path = format3_store(tmp_path / "old.db")
    assert cli.main(["history", "--store", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in data["games"]] == [4, 3, 2, 1]
    (sugarrr,) = data["figures"]  # the set-aside Sweet Deals and the unfinished Sugar Heist count for nothing
    assert sugarrr["game"] == "sugarrr" and sugarrr["name"] == "Sugarrr!"
    rows = {p["player"]: p for p in sugarrr["players"]}
    assert rows["Ana"] == {"player": "Ana", "played": 1, "won": 1, "best": 30, "average": 30.0,
                           "current_streak": 1, "longest_streak": 1}
    assert rows["Mum"]["played"] == 1 and rows["Mum"]["won"] == 0 and set(rows) == {"Ana", "Ben", "Mia", "Dad",
                                                                                   "Mum", "Leo"}
    assert EventStore(path, readonly=True)._db.execute("PRAGMA user_version").fetchone()[0] == 3  # not upgraded


# ---------------------------------------------------------------- the figures, counted two ways

def test_figures_match_an_independent_count_and_leave_unfinished_and_abandoned_games_out(tmp_path, capsys):
    """Played, won, best, average and streaks, against a count made here from the games
    as they were generated (wins and losses as a string of W and L, streaks its runs)."""
    rnd = random.Random(38)
    store = EventStore(tmp_path / "t.db")
    pool = ["Mia", "Dad", "Mum", "Leo", "Zoë"]
    played: dict[tuple[str, str], list[tuple[int, bool]]] = {}
    for n in range(60):
        game = rnd.choice(["sugarrr", "sweet-deals"])
        names = rnd.sample(pool, rnd.randint(2, 4))
        gid = store.new_game(game, names, 1_000.0 + n)
        fate = rnd.random()
        if fate < 0.15:
            continue  # unfinished
        if fate < 0.3:
            store.abandon(gid, 1_000.5 + n)  # set aside or left: out of the figures
            continue
        scores = {name: rnd.randint(0, 12) for name in names}
        top = max(scores.values())
        winners = [name for name in names if scores[name] == top] if rnd.random() < 0.9 else []  # a few: nobody won
        store.finish(gid, 1_000.5 + n, {"game": game, "players": [{"name": k, "score": v, "breakdown": {}}
                                                                   for k, v in scores.items()],
                                        "winners": winners, "tie_break": None, "reason": "test"})
        for name in names:
            played.setdefault((game, name), []).append((scores[name], name in winners))
    expected = {}
    for (game, name), games in played.items():
        marks = "".join("W" if won else "L" for _, won in games)
        scores = [s for s, _ in games]
        expected[(game, name)] = {"player": name, "played": len(games), "won": marks.count("W"), "best": max(scores),
                                  "average": round(sum(scores) / len(scores), 1),
                                  "current_streak": len(marks) - len(marks.rstrip("W")),
                                  "longest_streak": max((len(r) for r in re.findall("W+", marks)), default=0)}
    store.close()
    assert cli.main(["history", "--store", str(tmp_path / "t.db"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    got = {(g["game"], p["player"]): p for g in data["figures"] for p in g["players"]}
    assert got == expected
    screen = HistoryScreen(EventStore(tmp_path / "t.db", readonly=True), GAMES)
    on_screen = {(g, f.name): f.to_dict() for g, rows in screen.figures.items() for f in rows}
    assert on_screen == expected
    assert any(e["longest_streak"] >= 2 for e in expected.values())  # the data has streaks to count


# ---------------------------------------------------------------- the quick-name key

def test_a_key_after_the_quick_name_replaces_it_rather_than_being_added_to_it(app):
    """Issue 38: "typing after the unlabelled quick-name key gives "Player 2dad"". The key
    says what it does (Use Player 2) and, like the name shown when the keyboard opens, the
    next key typed replaces it."""
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 2"):
        click(app, flow, command)
    assert isinstance(flow.screen, KeyboardScreen) and "Use Player 2" in shown_text(app, flow)
    for command in ("key M", "quick", "key D", "key A", "key D", "done"):
        click(app, flow, command)
    assert flow.names[1] == "Dad"


# ---------------------------------------------------------------- taps through the App

def test_remembered_names_are_tapped_and_the_last_players_are_one_tap(app, tmp_path):
    store = played_store(tmp_path / "t.db")
    flow = StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result))
    click(app, flow, "game sugarrr")
    assert "Same players as last time: Mia, Dad" in shown_text(app, flow)
    click(app, flow, "same")
    assert flow.chosen_names() == ["Mia", "Dad"]
    click(app, flow, "players 3")
    click(app, flow, "name 3")
    assert isinstance(flow.screen, RosterScreen)
    words = shown_text(app, flow)
    assert words.index("Mia") < words.index("Mum") < words.index("Maya")  # newest first
    assert "in seat 1" in words and "in seat 2" in words  # Mia and Dad sit already: greyed, not tappable
    commands = {b.command for b in app.buttons}
    leo = flow.roster.index("Leo") + 1
    assert f"pick {flow.roster.index('Mia') + 1}" not in commands and f"pick {leo}" in commands
    click(app, flow, f"pick {leo}")
    assert isinstance(flow.screen, PlayersScreen) and flow.chosen_names() == ["Mia", "Dad", "Leo"]
    choice = click(app, flow, "next")
    session = start_session(choice, store, FakeClock(3_000_000.0))
    assert session.state.players == ("Mia", "Dad", "Leo") and store.roster()[:3] == ["Mia", "Dad", "Leo"]


def test_a_new_name_is_remembered_and_a_name_is_removed_only_after_yes(app, tmp_path):
    store = played_store(tmp_path / "t.db")
    flow = StartFlow(store, GAMES, now=lambda: 9_000_000.0)
    for command in ("game sugarrr", "name 1", "new"):
        click(app, flow, command)
    assert isinstance(flow.screen, KeyboardScreen) and flow.screen.name == ""  # a new name starts empty
    for command in ("key Z", "key O", "key E", "done"):
        click(app, flow, command)
    assert flow.names[0] == "Zoe" and store.roster()[0] == "Zoe" and flow.roster[0] == "Zoe"
    click(app, flow, "name 2")
    click(app, flow, "removing")
    assert "Tap the name to remove" in shown_text(app, flow)
    click(app, flow, f"forget {flow.roster.index('Leo') + 1}")
    assert "Remove Leo?" in shown_text(app, flow)
    assert {b.command for b in app.buttons} == {"keep", "remove"}  # only the question can be answered
    click(app, flow, "keep")
    assert "Leo" in store.roster()
    click(app, flow, f"forget {flow.roster.index('Leo') + 1}")
    click(app, flow, "remove")
    assert "Leo" not in store.roster() and "Leo" not in flow.roster
    assert any("Leo" in g.players for g in store.games())  # his games stay in the history


def test_history_from_the_start_screen_opens_a_score_sheet_and_the_figures(app, tmp_path):
    store = played_store(tmp_path / "t.db")
    flow = StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result))
    click(app, flow, "history")
    assert isinstance(flow.screen, HistoryStep)
    app.show(flow.draw)
    finished, unfinished = [g for g in store.games() if g.finished], [g for g in store.games() if not g.finished]
    commands = {b.command for b in app.buttons}
    assert f"open {finished[0].id}" in commands and f"open {unfinished[0].id}" not in commands
    assert "newgame" not in commands  # the start screen is where a new game is chosen
    click(app, flow, f"open {finished[0].id}")
    words = shown_text(app, flow)
    # Sugarrr!'s own final screen, rebuilt from the stored inputs: the winner and each fruit's sum
    assert "Mum is the Win-O-Saur!" in words and "7 × 6" in words and "63" in words
    click(app, flow, "back")
    click(app, flow, "figures")
    words = shown_text(app, flow)
    assert "Sugarrr!: wins and scores" in words and "Most wins in a row" in words
    mum = next(f for f in flow.screen.history.figures["sugarrr"] if f.name == "Mum")
    assert (mum.played, mum.won, mum.best, mum.current_streak) == (1, 1, 63, 1)
    click(app, flow, "back")
    click(app, flow, "back")
    assert isinstance(flow.screen, GameScreen)


def test_after_a_game_history_opens_its_score_sheet_in_the_running_table():
    runner = replay(data_dir() / "sugar-heist-family.trace")
    runner.new_session = lambda choice: start_session(choice, runner.session.store, runner.clock)
    try:
        def tap(command):
            runner.render(force=True)
            rect = next(b.rect for b in runner.app.buttons if b.command == command)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
            runner.poll_window()

        game_id = runner.session.game_id
        final = runner.session.result().winner_line()
        tap("history")
        tap(f"open {game_id}")
        assert runner.window.screen.sheet[1] is not None  # the full result, rebuilt from the inputs
        with record_text() as drawn:
            runner.render(force=True)
        texts = [d.text for d in drawn]
        assert any(final.split("!")[0] in t for t in texts), texts  # the game's own sheet again
        tap("back")
        tap("figures")
        assert runner.window.screen.showing == "sugar-heist"
    finally:
        runner.app.close()


# ---------------------------------------------------------------- every new screen at every size

def new_screens(store):
    """(label, flow) at each new screen, the flow left showing it."""
    flow = StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result))
    steps = [("start", ()), ("players", ("game sweet-deals", "players 8")), ("roster", ("name 2",)),
             ("removing", ("removing",)), ("remove-asks", ("forget 1",)), ("keyboard", ("keep", "new")),
             ("history", ("cancel", "back", "history"))]
    for label, commands in steps:
        for command in commands:
            flow.handle(command)
        yield label, flow
    for g in store.games():
        if g.finished is not None:
            flow.handle(f"open {g.id}")
            yield f"sheet-{g.game}", flow
            flow.handle("back")
    flow.handle("figures")
    yield "figures", flow


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_new_screen_reads_whole_at_every_panel_size(tmp_path, size):
    for slug in ("sugar-blast", "sweet-deals"):
        replay(data_dir() / f"{slug}-family.trace", store=str(tmp_path / "t.db"), window=False).session.store.close()
    store = EventStore(tmp_path / "t.db")
    store.remember_player("Uncle Bartholomew", 1.0)
    app = App(size=size)
    try:
        seen = []
        for label, flow in new_screens(store):
            with record_text() as drawn:
                app.show(flow.draw)
            assert [d.text for d in drawn if not d.readable] == [], label
            assert all(b.rect.width >= 48 and b.rect.height >= 48 for b in app.buttons), label
            rects = [b.rect for b in app.buttons]
            assert not [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.colliderect(b)], label
            app.save(tmp_path / f"{size[0]}x{size[1]}" / f"{label}.png", as_panel=True)
            seen.append(label)
        assert {"sheet-sugar-blast", "sheet-sweet-deals", "figures", "remove-asks"} <= set(seen)
        assert app.frame().get_size() == size
    finally:
        app.close()


def test_the_last_players_are_offered_only_to_a_game_that_takes_that_many(app):
    store = EventStore(":memory:")
    store.new_game("sweet-deals", ["Mia", "Dad", "Mum", "Leo", "Zoë"], 1.0)
    flow = StartFlow(store, GAMES)
    click(app, flow, "game sugarrr")  # 2 to 4 play Sugarrr!: five names are not offered
    assert "same" not in {b.command for b in app.buttons}
    click(app, flow, "back")
    click(app, flow, "game sweet-deals")
    click(app, flow, "same")
    assert flow.chosen_names() == ["Mia", "Dad", "Mum", "Leo", "Zoë"]
    store.new_game("sugarrr", ["Player 1", "Player 2"], 2.0)  # quick names name nobody: nothing to offer
    flow = StartFlow(store, GAMES)
    click(app, flow, "game sugarrr")
    assert "same" not in {b.command for b in app.buttons} and "Player 1" not in flow.roster
