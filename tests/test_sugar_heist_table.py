"""The recorded Sugar Heist game through the whole stack (emulated scanner, session,
logs): every face-down Battle Card stays out of the logs, the prompt and the table view
until it is played or shown at the end, and an input that revealed a card cannot be
taken back."""

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from companion.core.events import Touch
from companion.core.game import TABLE
from companion.games.sugar_heist.parts.cards import CARDS
from companion.games.sugar_heist.state import CardPlayed, FinalReveal
from companion.table.replay import replay
from companion.table.verdicts import log_record

TRACE = Path(__file__).parent / "data" / "sugar-heist-family.trace"


@pytest.fixture(scope="module")
def recorded():
    """Everything the table could see after each input, and the hidden cards by then."""
    seen = []
    box = {}

    def listen(item, verdict):
        session = box["session"]
        if verdict is None:
            return
        state = session.state
        hidden = {c for h in state.held for c in h} if not state.over else set()
        public = json.dumps(log_record(item, verdict)) + "\n" + session.prompt() + "\n" + \
            repr(asdict(session.rules.public_view(state, TABLE))) + "\n" + (verdict.message or "")
        shown = {e.card for e in verdict.events if isinstance(e, CardPlayed)}
        if any(isinstance(e, FinalReveal) for e in verdict.events):
            shown |= {c for h in state.held for c in h}
        seen.append((public, hidden, shown, verdict))

    import companion.table.session as table
    start = table.Session.start

    def capture(*args, **kwargs):
        session = start(*args, **kwargs)
        box["session"] = session
        return session

    table.Session.start = capture
    try:
        runner = replay(TRACE, window=False, listeners=[listen])
    finally:
        table.Session.start = start
    return runner.session, seen


def test_the_demo_buys_face_down_cards_and_ends(recorded):
    session, seen = recorded
    assert session.over
    assert sum(1 for _, _, _, v in seen if v.secret and v.verdict == "accepted") >= 5


def test_no_hidden_card_code_reaches_a_log_line_the_prompt_or_the_table_view(recorded):
    _, seen = recorded
    checked = 0
    for public, hidden, shown, verdict in seen:
        for code in hidden - shown:
            assert code not in public, (code, CARDS[code].name, public[:300])
            checked += 1
    assert checked > 100


def test_a_secret_scan_is_logged_as_hidden(recorded):
    _, seen = recorded
    first = [json.loads(p.split("\n")[0])[0] for p, _, _, v in seen if v.secret]
    assert first and all(line["event"] == "scan" and line["code"] == "hidden" for line in first)


def test_an_input_that_revealed_a_card_cannot_be_undone(recorded):
    session, seen = recorded
    # replay the same inputs up to the first card played, then ask for an Undo
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.session import Session

    inputs = session.store.inputs(session.game_id)
    fresh = Session.start("sugar-heist", list(session.state.players), EventStore(":memory:"), FakeClock(),
                          resume=False, tap_off=0)
    for item in inputs:
        verdict = fresh.handle(item)
        if any(isinstance(e, CardPlayed) for e in verdict.events):
            break
    undo = fresh.handle(Touch("undo", 1e6))
    assert undo.verdict == "rejected" and "cannot be taken back" in undo.reason


def playable(table, item) -> bool:
    """Would scanning ``item`` again be accepted now (rules and flow, tap-off aside)?"""
    from companion.core.errors import CompanionError
    from companion.table.verdicts import decide

    try:
        decide(table.desc, table.state, table.entry, item)
    except CompanionError:
        return False
    return True


def test_an_attack_bought_then_scanned_again_at_once_is_played_not_taken_for_a_double_read():
    # The family's evening: Leo buys an Attack and scans it again straight away to play
    # it; the tap-off (1 s) must not swallow that scan, or they tap Done and lose the Heist.
    from pathlib import Path

    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.games.sugar_heist.parts.cards import CARDS
    from companion.table.replay import replay
    from companion.table.session import Session

    demo = replay(Path(__file__).parent / "data" / "sugar-heist-family.trace", window=False).session
    record = demo.store.games()[0]
    inputs = demo.store.inputs(demo.game_id)
    table = Session.start("sugar-heist", list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                          options=record.config)  # the default tap-off
    bought = None
    for item in inputs:
        held = sum(len(h) for h in table.state.held)
        assert table.handle(item).verdict == "accepted"
        if isinstance(item, CardScanned) and CARDS[item.code].kind == "attack" and \
                sum(len(h) for h in table.state.held) > held and playable(table, item):
            bought = item
            break
    assert bought is not None
    again = table.handle(CardScanned(bought.code, bought.reader, bought.t + 0.4))
    assert again.verdict == "accepted", again
    assert table.state.frame is not None and table.state.frame.card == bought.code  # the Attack is being played
    # once it is being played, the same card read again at once is the reader's double read
    twice = table.handle(CardScanned(bought.code, bought.reader, bought.t + 0.5))
    assert twice.verdict == "ignored" and twice.reason == "That card was just scanned: it counts once."
