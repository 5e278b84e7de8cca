"""Undo: a stored input that takes back the newest input still in force, as many times as
asked, across turns; it survives a restart, shows in the log, and stops at hidden
information made public."""

import io
import json

import pytest

from companion.core.clock import FakeClock
from companion.core.events import ButtonPressed, CardScanned, Revealed, Touch
from companion.core.store import EventStore
from companion.table.logs import json_logger
from companion.table.session import Session
from companion.table.verdicts import state_digest
from sugarrr_helpers import STARTS, fruit, salad
from toy_helpers import toy_param

NAMES = ["Ana", "Ben"]


class Table:
    """A Sugarrr! session on a file store, driven by scans and taps one second apart."""

    def __init__(self, path):
        self.path = path
        self.session = Session.start("sugarrr", NAMES, EventStore(path), FakeClock(), tap_off=0)
        self.t = 0.0

    def scan(self, code):
        self.t += 1
        return self.session.handle(CardScanned(code, "scanner", self.t))

    def tap(self, command):
        self.t += 1
        return self.session.handle(Touch(command, self.t))


def gathered(tmp_path, name="t.db"):
    """Ana gathers column 1 (the rulebook's Gather example); column 1 waits for a new card."""
    table = Table(tmp_path / name)
    for code in [fruit("Pineapple", 2)] + STARTS[1:]:
        assert table.scan(code).verdict == "accepted"
    assert table.tap("column 1").verdict == "accepted"
    for code in [fruit("Strawberry", 2), salad(1), fruit("Blueberries", 4)]:
        assert table.scan(code).verdict == "accepted"
    assert table.tap("done").verdict == "accepted"
    assert table.session.state.pending == (0,)
    return table


def test_a_mistaken_new_column_card_is_undone_and_the_right_card_scanned(tmp_path):
    # The fresh-user report: a hand card scanned as the new column card, then the real
    # column card taken as a play. Undo twice, scan the right card: as if it came first.
    right = gathered(tmp_path, "right.db")
    assert right.scan(fruit("Pear", 5)).verdict == "accepted"
    wrong = gathered(tmp_path, "wrong.db")
    v = wrong.scan(fruit("Strawberry", 7))
    assert v.verdict == "accepted" and "Strawberry 7" in v.message
    assert wrong.scan(fruit("Pear", 5)).verdict == "accepted"  # taken as Ben's play
    first = wrong.tap("undo")
    assert first.verdict == "accepted" and first.message.startswith("Undone:")
    second = wrong.tap("undo")
    assert second.verdict == "accepted" and "Strawberry 7" in second.message
    assert wrong.scan(fruit("Pear", 5)).verdict == "accepted"
    assert state_digest(wrong.session.state) == state_digest(right.session.state)


def test_undo_then_the_same_input_again_gives_the_same_state(tmp_path):
    table = gathered(tmp_path)
    before = state_digest(table.session.state)
    assert table.scan(fruit("Pear", 5)).verdict == "accepted"
    after = state_digest(table.session.state)
    assert table.tap("undo").verdict == "accepted"
    assert state_digest(table.session.state) == before
    assert table.scan(fruit("Pear", 5)).verdict == "accepted"
    assert state_digest(table.session.state) == after


def test_undo_goes_back_across_turns_and_the_turn_timer_with_it(tmp_path):
    table = gathered(tmp_path)
    turn_before = table.session.state.turn
    timer_before = table.session.turn_started
    table.scan(fruit("Pear", 5))  # the new column card ends Ana's turn
    assert table.session.state.turn == turn_before + 1
    table.tap("undo")
    assert table.session.state.turn == turn_before and table.session.turn_started == timer_before


def test_undo_is_stored_and_a_restart_rebuilds_the_state_it_left(tmp_path):
    table = gathered(tmp_path)
    table.scan(fruit("Strawberry", 7))
    table.tap("undo")
    digest = state_digest(table.session.state)
    stored = table.session.store.inputs(table.session.game_id)
    assert stored[-1] == Touch("undo", table.t)  # nothing deleted: the undo is an input
    table.session.store.close()
    again = Session.start("sugarrr", NAMES, EventStore(tmp_path / "t.db"), FakeClock(), tap_off=0)
    assert state_digest(again.state) == digest
    assert again.undo_label() is not None  # and the one before can still be taken back


def test_the_gpio_undo_button_is_an_undo(tmp_path):
    table = gathered(tmp_path)
    before = state_digest(table.session.state)
    table.scan(fruit("Pear", 5))
    v = table.session.handle(ButtonPressed("undo", 99.0))
    assert v.verdict == "accepted" and state_digest(table.session.state) == before


def test_nothing_to_take_back_is_a_clear_refusal(tmp_path):
    table = Table(tmp_path / "t.db")
    v = table.tap("undo")
    assert v.verdict == "rejected" and v.reason == "There is nothing to take back."
    assert table.session.store.inputs(table.session.game_id) == []


def test_undo_shows_in_the_json_log(tmp_path):
    table = gathered(tmp_path)
    out = io.StringIO()
    table.session.listeners.append(json_logger(out))
    table.scan(fruit("Pear", 5))
    table.tap("undo")
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    undo = [x for x in lines if x.get("command") == "undo"]
    assert undo and undo[0]["verdict"] == "accepted"
    assert any(x.get("type") == "Undone" for x in lines)


def test_an_input_that_revealed_hidden_cards_cannot_be_undone(tmp_path, monkeypatch):
    table = gathered(tmp_path)
    rules = table.session.rules
    real_apply = rules.apply

    def revealing(state, action):  # as a game whose action flips a face-down card
        state, events = real_apply(state, action)
        return state, [*events, Revealed("Ben flips Bad Dog.")]

    monkeypatch.setattr(rules, "apply", revealing)
    table.scan(fruit("Pear", 5))
    digest = state_digest(table.session.state)
    v = table.tap("undo")
    assert v.verdict == "rejected" and "showed hidden cards" in v.reason and "Bad Dog" in v.reason
    assert state_digest(table.session.state) == digest
    assert table.session.undo_label() is None


def test_a_secret_scan_never_reaches_the_logs_accepted_or_rejected(tmp_path, monkeypatch):
    # A game marks a scan as hidden (a face-down card): no log line may name its code.
    from companion.table.logs import text_logger

    table = gathered(tmp_path)
    monkeypatch.setattr(table.session.flow, "secret", lambda state, item: True, raising=False)
    json_out, text_out = io.StringIO(), io.StringIO()
    table.session.listeners += [json_logger(json_out), text_logger(text_out)]
    hidden = fruit("Pear", 5)
    assert table.scan(hidden).verdict == "accepted"
    assert table.scan(hidden).verdict == "rejected"  # already on a column: refused, still hidden
    assert table.scan("SRP5?X").verdict == "rejected"
    logs = json_out.getvalue() + text_out.getvalue()
    assert hidden not in logs and "SRP5?X" not in logs
    scans = [json.loads(x) for x in json_out.getvalue().splitlines() if '"scan"' in x]
    assert [s["code"] for s in scans] == ["hidden"] * 3


@pytest.mark.toy_game
def test_a_reveal_cannot_be_undone_and_a_hidden_card_never_reaches_the_logs(tmp_path):
    # The toy game (tests/toy_game.py) has what the two tests above pretend: cards scanned
    # face down (Flow.secret) and a tap that turns them up (a Revealed event).
    from companion.table.logs import text_logger
    from toy_game import CARDS

    session = Session.start("toy", NAMES, EventStore(tmp_path / "t.db"), FakeClock(), options={"rounds": "2"},
                            tap_off=0)
    json_out, text_out = io.StringIO(), io.StringIO()
    session.listeners += [json_logger(json_out), text_logger(text_out)]
    codes = list(CARDS)[:4]  # Star 1 (three copies) and Star 2
    for t, code in enumerate(codes + [codes[0], "TYS1?X", codes[0], codes[2]], 1):
        session.handle(CardScanned(code, "scanner", float(t)))
    assert [d.item.code for d in session.undo.done] == codes + [codes[0], codes[2]]  # dealt, then laid face down
    laid = state_digest(session.state)
    v = session.handle(Touch("undo", 10.0))
    assert v.verdict == "accepted" and v.message.startswith("Undone: Ben lays a card face down.")
    assert session.handle(CardScanned(codes[3], "scanner", 11.0)).verdict == "accepted"
    v = session.handle(Touch("reveal", 12.0))
    assert v.verdict == "accepted" and any(isinstance(e, Revealed) for e in v.events)
    shown = state_digest(session.state)
    v = session.handle(Touch("undo", 13.0))
    assert v.verdict == "rejected" and "showed hidden cards" in v.reason and "Ana shows Star 1." in v.reason
    assert state_digest(session.state) == shown != laid and session.undo_label() is None
    scans = [json.loads(x) for x in json_out.getvalue().splitlines() if '"scan"' in x]
    assert [s["code"] for s in scans] == ["hidden"] * 9 and [s["verdict"] for s in scans].count("rejected") == 2
    logs = json_out.getvalue() + text_out.getvalue()
    assert not [code for code in codes + ["TYS1?X"] if code in logs]


@pytest.mark.parametrize("trace, undone", [
    # (Sugarrr!: the last hand added ends the game, and since issue 36 its verdict says so first)
    ("sugarrr-family", "Undone: Mum adds 3 cards from the hand to the score pile. The game is not over yet"),
    toy_param("toy-family", "Undone: Mum shows Star 2. The game is not over")])  # (its end's first sentence)
def test_the_final_screen_offers_undo_and_taking_the_end_back_shows_the_game_again(tmp_path, trace, undone):
    # A child tapped Done too soon: the final screen has Undo between History and New game;
    # it asks first, and the game is back where it was, unfinished in the store.
    import os
    from pathlib import Path

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.table.replay import replay
    from companion.ui.widgets import record_text

    runner = replay(Path(__file__).parent / "data" / f"{trace}.trace")
    runner.new_session = lambda choice: None  # as `companion run` has: the after-game buttons
    with record_text() as drawn:
        runner.render(force=True)
    assert [b.command for b in runner.app.buttons] == ["history", "menu undo", "newgame"]
    assert "Undo" in [d.text for d in drawn]
    runner.touch("menu undo", now=True)
    with record_text() as asked:
        runner.render()
    assert [b.command for b in runner.app.buttons] == ["cancel", "undo"]  # asks first, saying what it does
    assert any(d.text.startswith("The end of the game: play goes back to before it") for d in asked)
    runner.touch("undo", now=True)
    runner.render()
    session = runner.session
    assert not session.over and session.last_message.startswith(undone)
    assert session.store.games()[0].finished is None
    assert "newgame" not in [b.command for b in runner.app.buttons]


def test_the_undo_dialog_asks_whose_move_it_takes_back_not_the_prompt(tmp_path):
    """Issue 38: the Undo dialog quoted what the table said next (the prompt) instead of
    saying what it takes back ("Undo Mia's play of Strawberry 2 onto column 3?"). It asks
    about the move, by whose move it was, and without the prompt that followed it."""
    import pygame

    from companion.ui import chrome
    from companion.ui.app import TableInfo
    from companion.ui.widgets import record_text

    table = Table(tmp_path / "q.db")
    for code in STARTS:
        table.scan(code)
    assert table.session.undo_question() == "Undo Pear 9 starting column 5?"  # set-up is nobody's move
    assert table.tap("column 1").verdict == "accepted"
    played = table.scan(fruit("Strawberry", 2))
    assert played.verdict == "accepted", played.reason
    question = table.session.undo_question()
    assert question == "Undo Ana's play of Strawberry 2 onto column 1?"   # the move itself, in the cards' words
    assert table.session.prompt() not in question
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    with record_text() as drawn:
        chrome.overlay(surface, TableInfo(menu="undo", undo=table.session.undo_label(), undo_question=question), [])
    said = " ".join(d.text for d in drawn)
    assert "Ana's play of Strawberry 2" in said and table.session.prompt() not in said
