"""The start screen, driven by real mouse clicks posted to a headless window: the
session that results is the one ``companion run --game --names`` would start."""

import os

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.core.clock import FakeClock
from companion.core.store import EventStore
from companion.games import GAMES
from companion.games.sugar_blast import GOAL_NAMES
from companion.table.replay import replay
from companion.ui.app import App
from companion.table.session import start_session
from companion.ui.start import KeyboardScreen, OptionsScreen, PlayersScreen, StartChoice, StartFlow
from companion.ui.widgets import record_text
from toy_helpers import every_game

DATA = os.path.join(os.path.dirname(__file__), "data")


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


def test_game_players_and_names_start_the_session_the_cli_would(app):
    store, clock = EventStore(":memory:"), FakeClock(50.0)
    flow = StartFlow(store, GAMES)
    for command in ("game sugarrr", "players 3", "name 2"):
        click(app, flow, command)
    assert isinstance(flow.screen, KeyboardScreen)
    for command in ("key M", "key I", "key A", "done"):
        click(app, flow, command)
    choice = click(app, flow, "next")
    assert choice is not None and choice.names == ("Player 1", "Mia", "Player 3")
    session = start_session(choice, store, clock)
    assert session.game == "sugarrr" and session.state.players == ("Player 1", "Mia", "Player 3")
    assert [g.players for g in store.games()] == [("Player 1", "Mia", "Player 3")]


def test_options_are_generated_and_a_bad_mix_is_refused_on_screen_without_storing(app):
    store = EventStore(":memory:")
    flow = StartFlow(store, GAMES)
    for command in ("game sugar-blast", "players 2", "next"):
        click(app, flow, command)
    assert isinstance(flow.screen, OptionsScreen)
    app.show(flow.draw)
    commands = {b.command for b in app.buttons}
    assert {"toggle quick", "choose goal", "choose goal four-twos"} <= commands
    assert "toggle solo" not in commands  # issue 38: offered with two players, then refused
    assert store.games() == []
    click(app, flow, "back")
    click(app, flow, "players 1")
    click(app, flow, "next")
    app.show(flow.draw)
    # no Goal Card in solo ("toggle teach": every game's "First game: show me how", issue 38)
    assert {b.command for b in app.buttons} == {"toggle quick", "toggle teach", "back", "next"}
    click(app, flow, "toggle quick")
    choice = click(app, flow, "next")
    assert choice.options == {"goal": None, "solo": True, "quick": True}
    session = start_session(choice, store, FakeClock(1.0))
    assert store.games()[0].config == {"goal": None, "solo": True, "quick": True}
    assert session.state.players == ("Player 1",)


def test_a_choice_option_takes_the_tapped_value(app):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sweet-deals", "players 5", "next", "choose mode open", "choose hybrid or"):
        click(app, flow, command)
    choice = click(app, flow, "next")
    assert choice.options == {"mode": "open", "hybrid": "or"} and len(choice.names) == 5


def test_one_tap_resumes_the_unfinished_game(app):
    store, clock = EventStore(":memory:"), FakeClock(10.0)
    first = start_session(StartChoice("sugar-heist", ("Ana", "Ben"), {"all_cards": False, "alternate": True}),
                          store, clock)
    flow = StartFlow(store, GAMES)
    choice = click(app, flow, "resume sugar-heist")
    session = start_session(choice, store, clock)
    assert session.game_id == first.game_id and session.state.players == ("Ana", "Ben")
    assert len(store.games()) == 1


def test_a_new_game_of_the_same_kind_sets_the_unfinished_one_aside(app):
    store, clock = EventStore(":memory:"), FakeClock(10.0)
    flow = StartFlow(store, GAMES)
    for command in ("game sugarrr", "next"):
        click(app, flow, command)
    start_session(flow.choice, store, clock)
    flow = StartFlow(store, GAMES)
    for command in ("game sugarrr", "players 3"):
        click(app, flow, command)
    session = start_session(click(app, flow, "next"), store, clock)
    games = store.games()
    assert [g.id for g in games if g.finished is None] == [session.game_id]
    assert games[1].result == {"abandoned": True}


def test_keyboard_capitals_words_and_refuses_an_empty_name(app):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 1", "key A", "key N", "key space", "key space", "key L", "key I"):
        click(app, flow, command)
    assert flow.screen.name == "An Li"
    click(app, flow, "clear")
    click(app, flow, "done")
    assert isinstance(flow.screen, KeyboardScreen) and flow.screen.message
    click(app, flow, "quick")
    click(app, flow, "done")
    assert flow.names[0] == "Player 1"


def test_a_name_typed_on_a_german_keyboard_on_the_first_start_screen_is_read_through_the_keymap(app):
    """Issue 37: outside a text field the window reads keys by position (a scanner's);
    the name keyboard is a text field, so a German keyboard's Z is a Z there."""
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 1"):
        click(app, flow, command)
    pygame.event.clear()
    for text, scancode in (("Z", 28), ("o", 18), ("e", 8)):  # the key where a US keyboard has Y types Z here
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=text, scancode=scancode))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40))
    flow.step(app)
    assert flow.names[0] == "Zoe"


def test_a_typed_name_with_a_terminal_code_is_refused_as_the_command_line_refuses_it(app):
    # A USB keyboard can type what the on-screen one cannot: the same rule as --names.
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 1"):
        click(app, flow, command)
    flow.handle("typed Mum\x1b[31m")  # what the window hands over for a name typed on a keyboard
    assert isinstance(flow.screen, KeyboardScreen) and flow.names[0] != "Mum\x1b[31m"
    assert flow.screen.message == "Type the name again: a key in it cannot be shown."
    flow.handle("typed Mum\u200dy")  # a zero-width joiner is part of some names
    assert flow.names[0] == "Mum\u200dy"


def test_two_players_cannot_share_a_name(app):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 2", "key P", "key L", "key A", "key Y", "key E", "key R", "key space",
                    "key 1", "done"):
        click(app, flow, command)
    assert click(app, flow, "next") is None and "Player 1" in flow.screen.message


def test_every_start_screen_reads_at_20_px_or_more(app):
    store = EventStore(":memory:")
    store.new_game("sweet-deals", ["Grandma Josephine", "Uncle Bartholomew", "Mia"], 0.0)
    flows = []
    for slug in ("sugarrr", "sugar-blast", "sugar-heist", "sweet-deals"):
        flow = StartFlow(store, GAMES)
        flows.append(flow.screen)
        flow.handle(f"game {slug}")
        flow.handle(f"players {flow.game.max_players}")
        flows.append(flow.screen)
        flow.handle("name 1")
        flows.append(flow.screen)
        flow.handle("cancel")
        if flow.game.options:
            flow.handle("next")
            flows.append(flow.screen)
    for screen in flows:
        with record_text() as drawn:
            app.show(screen.draw)
        assert [d for d in drawn if not d.readable] == [], type(screen).__name__
        assert all(b.rect.width >= 48 and b.rect.height >= 48 for b in app.buttons), type(screen).__name__


def test_new_game_from_the_final_screen_starts_the_next_session_in_the_same_runner():
    runner = replay(os.path.join(DATA, "sugar-blast-family.trace"))
    try:
        assert runner.session.over
        old = runner.session
        said = []
        old.listeners.append(lambda item, verdict: said.append(item))
        runner.new_session = lambda choice: start_session(choice, old.store, runner.clock)

        def tap(command):
            runner.render(force=True)
            rect = next(b.rect for b in runner.app.buttons if b.command == command)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
            runner.poll_window()

        tap("history")
        runner.render(force=True)
        assert {"back", "newgame"} <= {b.command for b in runner.app.buttons}
        for command in ("newgame", "game sugar-heist", "players 2", "next", "next"):
            tap(command)
        assert runner.session is not old and runner.session.game == "sugar-heist" and not runner.session.over
        assert runner.window.screen is None
        runner.touch("done", now=True)  # the old session's listeners now hear the new game
        assert said and said[-1].command == "done"
    finally:
        runner.app.close()


def test_companion_run_without_game_or_names_asks_the_start_screen(tmp_path, monkeypatch):
    """The wiring of ``companion run``: the start screen's choice becomes the session
    (the screen itself is replaced here; the tests above drive it with clicks)."""
    from companion import cli
    from companion.table import build
    from companion.table.runner import Runner
    from companion.ui import start

    asked = []
    monkeypatch.setattr(build, "virtual_screen", lambda: False)
    monkeypatch.setattr(start, "choose", lambda app, store, games, **kw: asked.append(store.games()) or
                        StartChoice("sweet-deals", ("Ana", "Ben", "Cy"), {"mode": "open", "hybrid": None}))
    monkeypatch.setattr(Runner, "loop", lambda self, frame=0: None)
    db = tmp_path / "t.db"
    assert cli.main(["run", "--simulate", "--store", str(db)]) == 0
    assert asked == [[]]  # asked before anything was stored
    (record,) = EventStore(db).games()
    assert (record.game, record.players, record.config) == ("sweet-deals", ("Ana", "Ben", "Cy"),
                                                           {"mode": "open", "hybrid": None})
    # With names given, no start screen: the first game as before.
    assert cli.main(["run", "--simulate", "--names", "Mo,Jo", "--new-game", "--store", str(db)]) == 0
    assert len(asked) == 1 and EventStore(db).games()[0].game == "sugarrr"


def test_an_idle_start_screen_is_not_redrawn_and_a_finger_tap_counts_once(app, monkeypatch):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    shows = []
    real = app.show
    monkeypatch.setattr(app, "show", lambda draw: shows.append(1) or real(draw))
    flow.step(app)
    for _ in range(5):
        flow.step(app)
    assert len(shows) == 1
    rect = next(b.rect for b in app.buttons if b.command == "game sweet-deals")
    x, y = rect.center[0] / 800, rect.center[1] / 480
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x, y=y, finger_id=0, touch_id=0))
    # SDL's copy of the tap as a mouse click, marked as coming from touch
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1, touch=True))
    flow.step(app)
    assert flow.game.slug == "sweet-deals" and isinstance(flow.screen, PlayersScreen)
    flow.step(app)
    assert len(shows) == 2  # one redraw for the tap, then idle again
    # the copy did not also press what the next screen has under that point
    assert flow.count == 2 and flow.choice is None


def test_a_new_game_the_store_cannot_take_is_refused_on_the_start_screen():
    from companion.core.errors import StoreError

    runner = replay(os.path.join(DATA, "sugar-blast-family.trace"), window=False)
    old = runner.session

    def full(choice):
        raise StoreError("could not save to the game store: database or disk is full")

    runner.new_session = full
    for command in ("newgame", "game sugarrr", "next"):
        runner.touch(command)
    assert runner.session is old and "disk is full" in runner.window.screen.screen.message
    assert runner.window.screen.choice is None


def test_a_name_typed_on_a_usb_keyboard_in_any_script_reaches_the_start_screen_after_a_game():
    runner = replay(os.path.join(DATA, "sugar-blast-family.trace"))
    try:
        for command in ("newgame", "game sugarrr", "name 1"):
            runner.touch(command)
        runner.render(force=True)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="李雷"))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        runner.poll_window()
        assert runner.window.screen.names[0] == "李雷" and runner.session.over  # no scan reached the old game
    finally:
        runner.app.close()


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_start_with_every_default_gives_a_game(app, slug):
    """Tapping the game, then Start (Next, Start) without changing anything plays a game:
    no option is preselected that the game then refuses (Sugar Blast's "Usual" goal was
    not a Goal Card). A goal left to chance is a real Goal Card, kept with the game."""
    store, clock = EventStore(":memory:"), FakeClock(50.0)
    flow = StartFlow(store, GAMES)
    click(app, flow, f"game {slug}")
    choice = click(app, flow, "next")
    if GAMES[slug].options:
        assert choice is None and isinstance(flow.screen, OptionsScreen)
        choice = click(app, flow, "next")
    assert choice is not None, getattr(flow.screen, "message", "")
    session = start_session(choice, store, clock)
    assert session.game == slug and not session.over
    if slug == "sugar-blast":
        assert session.state.goal in GOAL_NAMES and store.games()[0].config["goal"] == session.state.goal


def test_a_random_goal_is_labelled_random_and_solo_still_has_none(app):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugar-blast", "players 2", "next"):
        click(app, flow, command)
    with record_text() as drawn:
        app.show(flow.draw)
    shown = [d.text for d in drawn]
    assert "Draw one" in shown and "Usual" not in shown  # issue 38: the card's words, not "Random"
    click(app, flow, "back")
    click(app, flow, "players 1")
    click(app, flow, "next")
    choice = click(app, flow, "next")
    assert choice is not None and choice.options["goal"] is None and choice.options["solo"] is True


def test_a_name_too_long_for_the_keyboard_is_refused_in_words_never_cut_short(app):
    flow = StartFlow(EventStore(":memory:"), GAMES)
    for command in ("game sugarrr", "name 1"):
        click(app, flow, command)
    flow.handle("typed " + "Bartholomew Fitzwilliam-Smythe")  # 30 letters on a USB keyboard
    assert isinstance(flow.screen, KeyboardScreen) and flow.names[0] != "Bartholomew Fitzwilliam-Smy"
    assert flow.screen.message == "That name has more than 24 letters: type a shorter one."
    click(app, flow, "clear")
    for _ in range(24):
        click(app, flow, "key A")
    assert len(flow.screen.name) == 24 and flow.screen.message == ""
    click(app, flow, "key B")  # one key more: refused, and it says so
    assert flow.screen.name == "A" + "a" * 23 and flow.screen.message == "A name can have 24 letters: that is the most."


def test_solo_mode_is_one_player_and_is_never_offered_as_a_choice(app):
    """Sugar Blast rulebook, "Solo-Mode Rules": "Setup: Place the gameboard in front of
    you. Remove all orange candies from the game and return them to the box." Solo is
    one player: the count decides it, so two players are never offered solo (issue 38:
    it was offered, then refused in lower case), and one player gets no Goal Card."""
    for players, solo in ((1, True), (2, False), (4, False)):
        flow = StartFlow(EventStore(":memory:"), GAMES)
        for command in ("game sugar-blast", f"players {players}", "next"):
            click(app, flow, command)
        with record_text() as drawn:
            app.show(flow.draw)
        assert "toggle solo" not in {b.command for b in app.buttons}
        assert not any("Solo" in d.text for d in drawn)
        choice = click(app, flow, "next")
        assert choice is not None and choice.options["solo"] is solo, flow.screen.message


def test_all_cards_is_offered_only_to_the_two_players_it_changes_something_for(app):
    """Sugar Heist rulebook, "Setup": "For 2 Player games, refer to the player count chart
    below and remove the listed cards prior to setup." and "2 Players: Remove 1 Battle
    Royale, remove 1 Crib Fight, and remove 4 Vaults." With 3 or 4 nothing is removed:
    keeping every card is no choice there."""
    for players, offered in ((2, True), (3, False), (4, False)):
        flow = StartFlow(EventStore(":memory:"), GAMES)
        for command in ("game sugar-heist", f"players {players}", "next"):
            click(app, flow, command)
        app.show(flow.draw)
        assert ("toggle all_cards" in {b.command for b in app.buttons}) is offered
        assert "toggle alternate" in {b.command for b in app.buttons}


def test_every_option_button_speaks_the_cards_words_never_an_option_value(app):
    """Issue 38: the option screens spoke code ("hybrid card / and / or + Usual", Goal Card
    shorthand such as two-twos-and-a-three). Every button of every option screen is in
    words from the cards, and each option's line says what it changes in one line."""
    from companion.ui.start import option_label

    for slug, game in GAMES.items():
        if not game.options:
            continue
        flow = StartFlow(EventStore(":memory:"), GAMES)
        for command in (f"game {slug}", "players 2", "next"):
            click(app, flow, command)
        with record_text() as drawn:
            app.show(flow.draw)
        said = [d.text for d in drawn]
        lines = {d.text: d.ink[3] for d in drawn}  # the height its letters cover
        line = __import__("companion.ui.theme", fromlist=["font"]).font(20).get_linesize()
        for option in flow.screen.shown():
            assert option_label(option) in said, option.name  # drawn whole
            if option.kind == "choice":  # above its row of buttons: one line
                assert lines[option_label(option)] < 1.5 * line, option.name
            for value in option.choices:
                if "-" in value or value in ("card", "and", "or"):
                    assert value not in said and value.replace("-", " ") not in said, (slug, value)
        assert all(d.readable for d in drawn), [d.text for d in drawn if not d.readable]


def test_a_whole_number_option_has_minus_and_plus_and_does_not_crash_the_screen(app):
    """Issue 38: a game option of kind "int" made OptionsScreen._layout divide by zero (it
    has no choices, so its row of buttons had none). It is a number with - and +, kept
    within its bounds."""
    from dataclasses import replace

    from companion.core.game import Option

    game = replace(GAMES["sugarrr"], options=(Option("rounds", "int", "Rounds: how many hands to play", 3,
                                                     least=1, most=5),))
    flow = StartFlow(EventStore(":memory:"), {"sugarrr": game})
    for command in ("game sugarrr", "next"):
        click(app, flow, command)
    assert isinstance(flow.screen, OptionsScreen)
    app.show(flow.draw)
    assert {"choose rounds 2", "choose rounds 4"} <= {b.command for b in app.buttons}
    for command in ("choose rounds 4", "choose rounds 5"):
        click(app, flow, command)
    flow.handle("choose rounds 9")  # typed past the most: refused
    assert flow.options["rounds"] == 5
    app.show(flow.draw)
    assert "choose rounds 6" not in {b.command for b in app.buttons}  # no + past the most
