"""Sweet Deals at the table: what taps and scans mean, and secret hands that stay secret
on the screen, in the logs and in the history until the final reveal."""

from __future__ import annotations

import json

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Touch
from companion.core.game import TABLE
from companion.core.store import EventStore
from companion.table.history import describe
from companion.games.sweet_deals import flow, rules
from companion.games.sweet_deals.parts.cards import CARDS
from companion.games.sweet_deals.rules import ShownFaceUp
from companion.table.session import Session
from companion.table.verdicts import log_record

from test_sweet_deals_rules import HANDS, PLAYERS, C, deal


def read(state, item):
    entry, action, _ = flow.read(state, flow.new_entry(), item)
    assert entry is None
    return action


def scan(code, seat=None, t=0.0):
    return CardScanned(code, "scanner", t, seat)


def tap(command, t=0.0):
    return Touch(command, t)


# ---------------------------------------------------------------- reading inputs

def test_taps_become_the_action_of_whoever_the_game_waits_on():
    s = deal()
    assert read(s, tap("offer Pie")) == rules.Offer(0, "Pie")
    assert read(s, tap("bake")) == rules.StartBakeSale(0)
    assert read(s, tap("close")) == rules.AskClose(0)
    s, _ = rules.step(s, rules.Offer(0, "Pie"))
    assert read(s, tap("bid 2")) == rules.Bid(1, 2)
    assert read(s, tap("pass")) == rules.Pass(1)
    assert read(s, tap("grab 3")) == rules.Grab(2)
    s, _ = rules.step(s, rules.Bid(1, 1))
    assert read(s, tap("bid 2")) == rules.Bid(2, 2)


@pytest.mark.parametrize("command", ["offer", "offer cake", "bid", "bid two", "grab", "grab x", "take x",
                                     "dance", "", "six"])
def test_unparseable_taps_are_bad_commands(command):
    with pytest.raises(BadCommand):
        read(deal(), tap(command))


def test_scans_are_the_card_of_the_player_the_prompt_names_or_of_the_readers_seat():
    s = rules.new_game(PLAYERS)
    assert read(s, scan(HANDS[0][0])) == rules.HandCard(0, HANDS[0][0])
    assert read(s, scan(HANDS[2][0], seat=3)) == rules.HandCard(2, HANDS[2][0])
    with pytest.raises(IllegalAction, match="seat 9"):
        read(s, scan(HANDS[2][0], seat=9))
    s = deal()
    with pytest.raises(IllegalAction, match="No card is needed now"):
        read(s, scan(HANDS[0][0]))
    with pytest.raises(IllegalAction):
        read(s, ButtonPressed("confirm", 0.0))


def test_a_misread_secret_card_is_refused_without_its_code():
    s = rules.new_game(PLAYERS)
    garbled = HANDS[0][0][:3] + ("7" if HANDS[0][0][3] != "7" else "8") + HANDS[0][0][4:]
    with pytest.raises(BadScan) as err:
        read(s, scan(garbled))
    assert garbled not in err.value.message and err.value.code is None
    assert flow.secret(s, scan(garbled))
    with pytest.raises(BadScan):                      # another game's card: refused all the same
        read(s, scan("SRS71M"))


def test_open_hands_scan_nothing_until_the_end_and_nothing_is_secret():
    s = rules.new_game(PLAYERS, mode="open")
    assert not flow.secret(s, scan(HANDS[0][0]))
    with pytest.raises(IllegalAction, match="only at the end"):
        read(s, scan(HANDS[0][0]))
    assert "Take out all 7 Chocolate" in flow.prompt(s, None)


def test_every_phase_has_a_prompt_naming_who_acts():
    s = deal()
    assert flow.prompt(s, None).startswith("Shawn: tap the dessert you offer")
    s, _ = rules.step(s, rules.Offer(0, "Pie"))
    assert flow.prompt(s, None) == "Jillian: bid 0 to 5 coins for the Pie, or pass."


# ---------------------------------------------------------------- hidden information

def _names_and_codes(codes):
    return {c for c in codes} | {CARDS[c].name for c in codes}


def _hidden(state, public):
    """Every card in a hand the table has not seen, as codes and names."""
    return _names_and_codes({c for h in state.hands for c in h} - public)


def _assert_hidden(texts, state, public):
    secret = _hidden(state, public)
    for text in texts:
        leaked = [w for w in secret if w in text]
        assert not leaked, f"{leaked} in {text!r}"


def test_tracked_hands_never_reach_the_table_before_the_final_reveal():
    """Rules level: after every hand is scanned, no card name or code of a hand is in
    public_view(state, TABLE), a flow prompt or message, or an event message."""
    s = rules.new_game(PLAYERS)
    public: set[str] = set()
    texts: list[str] = []
    for seat, hand in enumerate(HANDS):
        for code in hand:
            item = scan(code)
            assert flow.secret(s, item)
            entry, action, message = flow.read(s, None, item)
            s, events = rules.step(s, action)
            texts += [message, flow.prompt(s, None)] + [e.message for e in events]
    texts.append(repr(rules.public_view(s, TABLE)))
    _assert_hidden(texts, s, public)
    inputs = [tap("offer pie"), tap("bid 1"), tap("bid 2"), tap("pass"), tap("bid 2"), tap("pass"),
              scan(C("Donut", 2, 1)), scan(C("Strudel", 2, 1)), tap("take 3"), scan(C("Pie", 1, 2)),
              # Jillian offers a Donut: April wins it with her Strudel 4; they swap face down.
              tap("offer donut"), tap("pass"), tap("bid 4"), tap("pass"),
              scan(C("Strudel", 4)), scan(C("Donut", 2, 1)),
              # Tim offers Ice Cream: nobody bids; it goes face up and he draws.
              tap("offer ice cream"), tap("pass"), tap("pass"), tap("pass"),
              scan(C("Ice Cream", 2, 1)), scan(C("Cupcake", 2, 1))]
    for item in inputs:
        before = s
        if isinstance(item, CardScanned):
            assert flow.secret(s, item)
        entry, action, message = flow.read(s, None, item)
        s, events = rules.step(s, action)
        public |= {e.card for e in events if isinstance(e, ShownFaceUp)}
        texts = [message, flow.prompt(s, None), repr(rules.public_view(s, TABLE))] + [e.message for e in events]
        _assert_hidden(texts, s, public)
        assert s != before
    assert s.active == 3 and s.turn == 4 and len(public) == 3
    assert C("Strudel", 4) in s.hands[1] and C("Cupcake", 2, 1) in s.hands[2]
    # A seat sees its own hand, and only its own.
    mine = rules.public_view(s, 2)
    assert mine.hands[2] == s.hands[2] and set(mine.hands[1]) == {"?"}


def test_refused_secret_scans_do_not_name_the_card():
    s = deal()
    s, _ = rules.step(s, rules.Offer(0, "Pie"))
    for command in ("bid 1", "bid 2", "pass", "pass"):
        s, _ = rules.step(s, read(s, tap(command)))
    assert s.phase == rules.SWAP
    for code in [C("Cupcake", 4), C("Mochi"), C("Sprinkles", copy=2), C("Donut", 1, 2)]:
        with pytest.raises(IllegalAction) as err:
            rules.check(s, read(s, scan(code)))
        assert CARDS[code].name not in err.value.message and code not in err.value.message


def test_session_logs_screen_and_history_show_no_tracked_card(tmp_path):
    """The whole path: a Session with tracked hands, its JSON log lines, its verdicts,
    its view and prompt, and `companion history` before the game ends."""
    store = EventStore(tmp_path / "table.db")
    session = Session.start("sweet-deals", PLAYERS, store, FakeClock(), options={"mode": "tracked"})
    lines: list[str] = []
    t = 0.0

    def feed(item):
        nonlocal t
        t += 2.0
        item = type(item)(**{**item.__dict__, "t": t})
        verdict = session.handle(item)
        lines.extend(json.dumps(r) for r in log_record(item, verdict))
        lines.extend([verdict.message or "", verdict.reason or "", session.prompt(), repr(session.view)])
        lines.append(" ".join(describe(g) + json.dumps(g.__dict__, default=list) for g in store.games()))
        return verdict

    for hand in HANDS:
        for code in hand:
            assert feed(scan(code)).verdict == "accepted"
    assert feed(scan(HANDS[0][0])).verdict == "rejected"           # a card scanned twice
    for command in ("offer pie", "bid 1", "bid 2", "pass", "pass"):
        assert feed(tap(command)).verdict == "accepted"
    assert feed(scan(C("Cupcake", 4))).verdict == "rejected"       # Tim bid 2, not 4
    assert feed(scan(C("Pie", 2, 1))).verdict == "accepted"
    assert feed(scan(C("Pie", 1, 2))).verdict == "accepted"
    secret = {c for h in session.state.hands for c in h}
    text = "\n".join(lines)
    for word in _names_and_codes(secret) | _names_and_codes({C("Pie", 2, 1), C("Pie", 1, 2)}):
        assert word not in text, word
    assert '"code": "hidden"' in text


def test_undo_takes_back_a_secret_scan_but_not_a_revealed_card(tmp_path):
    session = Session.start("sweet-deals", PLAYERS, EventStore(tmp_path / "t.db"), FakeClock(),
                            options={"mode": "tracked"}, tap_off=0)
    t = 0.0
    for hand in HANDS:
        for code in hand:
            t += 1
            assert session.handle(scan(code, t=t)).verdict == "accepted"
    for command in ("offer pie", "bid 1", "bid 2", "pass", "bid 2", "pass"):
        t += 1
        assert session.handle(tap(command, t)).verdict == "accepted"
    before = session.state
    assert session.handle(scan(C("Donut", 2, 1), t=t + 1)).verdict == "accepted"   # Jillian shows her card
    undo = session.handle(tap("undo", t + 2))
    assert undo.verdict == "rejected" and "hidden" in undo.reason
    assert session.state != before
    session.handle(scan(C("Strudel", 2, 1), t=t + 3))
    session.handle(tap("take 3", t + 4))
    mid = session.state
    assert session.handle(scan(C("Pie", 1, 2), t=t + 5)).verdict == "accepted"      # the secret swap
    undone = session.handle(tap("undo", t + 6))
    assert undone.verdict == "accepted" and session.state == mid
    assert "Pie 1" not in undone.message and C("Pie", 1, 2) not in undone.message
