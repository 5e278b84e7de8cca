"""The session: verdicts for every scan, nothing rejected is stored, resume rebuilds."""

import pytest

from companion.core.clock import FakeClock
from companion.core.codes import make_code
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.table.session import GameInProgress, Session
from companion.table.verdicts import state_digest
from sugarrr_helpers import STARTS, fruit

NAMES = ["Ana", "Ben"]


@pytest.fixture
def session(tmp_path):
    store = EventStore(tmp_path / "table.db")
    s = Session.start("sugarrr", NAMES, store, FakeClock())
    for i, code in enumerate(STARTS):
        assert s.handle(CardScanned(code, "scanner", float(i * 2))).verdict == "accepted"
    return s


def scan(s, code, t):
    return s.handle(CardScanned(code, "scanner", t))


def test_the_same_code_within_the_tap_off_window_is_ignored_then_caught_after(session):
    code = fruit("Pineapple", 5)
    assert scan(session, code, 20.0).verdict == "accepted"
    assert scan(session, code, 20.6).verdict == "ignored"
    v = scan(session, code, 22.0)
    assert v.verdict == "rejected" and "already in column 1" in v.reason


@pytest.mark.parametrize("raw, reason", [
    (None, "unreadable"),
    ("SRS7", "did not read right"),
    (make_code("SD", "C01"), "Sweet Deals"),
    (STARTS[2], "already in column 3"),
    (fruit("Blueberries", 5), "does not go on any column"),
])
def test_bad_scans_are_rejected_with_a_reason_and_change_nothing(session, raw, reason):
    before = state_digest(session.state)
    stored = len(session.store.inputs(session.game_id))
    v = scan(session, raw, 30.0)
    assert v.verdict == "rejected" and reason in v.reason
    assert state_digest(session.state) == before
    assert len(session.store.inputs(session.game_id)) == stored
    assert session.last_ok is False and session.last_message == v.reason


def test_tapping_a_column_then_scanning_plays_there(session):
    assert session.handle(Touch("column 2", 30.0)).verdict == "accepted"
    assert scan(session, fruit("Strawberry", 2), 31.0).verdict == "accepted"
    assert session.state.columns[1][-1] == fruit("Strawberry", 2)


def test_every_accepted_input_is_stored_and_a_restart_rebuilds_the_same_state(session, tmp_path):
    scan(session, fruit("Pineapple", 5), 40.0)
    scan(session, "garbage!", 41.0)
    session.handle(Touch("done", 42.0))
    accepted_inputs = session.store.inputs(session.game_id)
    assert len(accepted_inputs) == 5 + 2
    again = Session.start("sugarrr", NAMES, EventStore(tmp_path / "table.db"), FakeClock())
    assert again.game_id == session.game_id and again.resumed_inputs == 7
    assert state_digest(again.state) == state_digest(session.state)


def test_other_players_never_silently_replace_an_unfinished_game(session, tmp_path):
    store = EventStore(tmp_path / "table.db")
    with pytest.raises(GameInProgress, match="Ana, Ben"):
        Session.start("sugarrr", ["Cy", "Di", "Ed"], store, FakeClock())
    assert [g.id for g in store.games()] == [session.game_id] and store.unfinished("sugarrr").inputs == 5
    new = Session.start("sugarrr", ["Cy", "Di", "Ed"], store, FakeClock(), new_game=True)
    assert new.game_id != session.game_id
    old = [g for g in store.games() if g.id == session.game_id][0]
    assert old.inputs == 5 and old.result == {"abandoned": True}


def test_a_bad_player_count_stores_nothing(tmp_path):
    store = EventStore(tmp_path / "table.db")
    with pytest.raises(ValueError, match="2-4 players"):
        Session.start("sugarrr", ["Solo"], store, FakeClock())
    assert store.games() == []


def test_tapping_a_column_lets_the_same_card_be_scanned_again_at_once(session):
    code = fruit("Strawberry", 2)
    v = scan(session, code, 50.0)
    assert v.verdict == "accepted" and "tap the column it goes on" in v.message and session.last_ok is None and v.step
    session.handle(Touch("column 1", 50.3))
    assert scan(session, code, 50.6).verdict == "accepted"


def test_a_store_that_cannot_save_rejects_the_input_and_changes_nothing(session):
    before = state_digest(session.state)
    session.store.close()
    v = scan(session, fruit("Pineapple", 5), 60.0)
    assert v.verdict == "rejected" and "could not save" in v.reason
    assert state_digest(session.state) == before


def test_odd_numbers_in_touch_commands_are_refused_not_crashes(session):
    for command in ("deck ²", "column 99999999", "deck -3", "swap 0", "column 9", "fly"):
        v = session.handle(Touch(command, 70.0))
        assert v.verdict == "rejected" and v.reason, command


def test_a_reader_bound_to_a_seat_scans_only_on_that_players_turn(session):
    v = session.handle(CardScanned(fruit("Pineapple", 5), "left", 80.0, seat=2))
    assert v.verdict == "rejected" and v.reason == "It is Ana's turn: that card came from Ben's reader."
    v = session.handle(CardScanned(fruit("Pineapple", 5), "right", 81.0, seat=1))
    assert v.verdict == "accepted"


def test_the_same_card_from_another_reader_is_a_new_tap_not_a_repeat(session):
    code = fruit("Pineapple", 5)
    assert session.handle(CardScanned(code, "left", 90.0, seat=2)).verdict == "rejected"  # out of turn
    assert session.handle(CardScanned(code, "right", 90.4, seat=1)).verdict == "accepted"


def test_a_real_play_is_green_and_not_a_step(session):
    v = session.handle(Touch("column 1", 30.0))
    assert v.verdict == "accepted"
    v = scan(session, fruit("Pineapple", 5), 31.0)
    assert v.verdict == "accepted" and not v.step and session.last_ok is True


def test_a_failing_rules_call_is_refused_and_changes_nothing(session, monkeypatch):
    # A bug in a game must never take the table down: the input is refused with a reason.
    def broken(state, action):
        raise ValueError("too many values to unpack")

    monkeypatch.setattr(session.rules, "check", broken)
    before = state_digest(session.state)
    stored = len(session.store.inputs(session.game_id))
    v = session.handle(Touch("column 1", 40.0))
    assert v.verdict == "rejected" and "did not count" in v.reason
    assert state_digest(session.state) == before and len(session.store.inputs(session.game_id)) == stored


@pytest.mark.toy_game
def test_a_hidden_card_is_never_named_by_a_verdict_nor_after_a_restart(tmp_path):
    # The toy game (tests/toy_game.py) deals its cards face down: the session's tap-off,
    # refusals and resume speak of a hidden card without its code.
    from companion.table.session import TAPPED_TWICE
    from toy_game import CARDS

    store = EventStore(tmp_path / "table.db")
    s = Session.start("toy", NAMES, store, FakeClock(), options={"rounds": "2"})
    code = next(iter(CARDS))
    v = scan(s, code, 1.0)
    assert (v.verdict, v.secret, v.code, v.message) == ("accepted", True, None, "Ana has 1 card in hand.")
    v = scan(s, code, 1.5)
    assert (v.verdict, v.secret, v.code, v.reason) == ("ignored", True, None, TAPPED_TWICE)
    v = scan(s, code, 3.0)
    assert (v.verdict, v.secret, v.code) == ("rejected", True, None) and "in the game already" in v.reason
    v = scan(s, code[:5] + "?", 4.0)
    assert v.secret and v.code is None and v.reason == "That card could not be read: scan it again."
    other = make_code("SR", "S71")
    v = scan(s, other, 5.0)
    assert not v.secret and v.code == other and v.reason == "That card is from Sugarrr!, not High Card."
    assert len(store.inputs(s.game_id)) == 1
    again = Session.start("toy", NAMES, EventStore(tmp_path / "table.db"), FakeClock(10.0))
    assert state_digest(again.state) == state_digest(s.state) and again.resumed_inputs == 1
    assert again.last_saved == {"seq": 1, "event": "scan", "code": "hidden", "said": "Ana has 1 card in hand."}
    v = scan(again, code, 11.0)  # the last input saved, again: the rules refuse it, still hidden
    assert (v.verdict, v.secret, v.code) == ("rejected", True, None) and "in the game already" in v.reason
