"""Selections never outlive what they were for (issue 22, item 2): a choice the prompt
does not show never lingers, and a tap that does nothing says so and is not stored."""

from __future__ import annotations

from pathlib import Path

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.table.replay import replay
from companion.table.session import Session
from sugarrr_helpers import STARTS, fruit

DATA = Path(__file__).parent / "data"


def test_a_sugarrr_column_tapped_first_is_shown_by_the_prompt_and_after_an_undo():
    s = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), tap_off=0)
    for t, code in enumerate(STARTS, 1):
        assert s.handle(CardScanned(code, "scanner", t)).verdict == "accepted"
    tapped = s.handle(Touch("column 2", 10))
    assert tapped.verdict == "accepted" and tapped.message == ("Ana: column 2 is chosen: scan a card for it, "
                                                               "or tap another column.")
    assert "column 2 is chosen" in s.prompt()
    assert s.handle(CardScanned(fruit("Strawberry", 5), "scanner", 11)).verdict == "accepted"
    undone = s.handle(Touch("undo", 12))
    assert undone.verdict == "accepted"
    # the column choice is back with the state before the card: the prompt says so
    assert s.state.chosen == 1 and "column 2 is chosen" in s.prompt() and "column 2 is chosen" in undone.message


def heist_at(stage_test):
    """A Sugar Heist session from the demo, at the first state ``stage_test`` accepts."""
    demo = replay(DATA / "sugar-heist-family.trace", window=False).session
    record = demo.store.games()[0]
    s = Session.start("sugar-heist", list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                      options=record.config, tap_off=0)
    for item in demo.store.inputs(demo.game_id):
        if stage_test(s):
            return s
        assert s.handle(item).verdict == "accepted"
    raise AssertionError("no such state in the demo")


def test_a_heist_flavour_tap_with_no_pure_sugar_pair_waiting_is_refused_not_kept():
    s = heist_at(lambda s: s.state.frame is None and s.state.stage == "stash" and not s.entry.cards)
    stored = len(s.store.inputs(s.game_id))
    v = s.handle(Touch("flavour nutty butt", 1e6))
    assert v.verdict == "rejected" and v.reason.startswith("No pair of Pure Sugars is waiting for a flavour")
    assert s.entry == type(s.entry)() and len(s.store.inputs(s.game_id)) == stored


def test_a_stray_vault_tap_before_done_says_so():
    s = heist_at(lambda s: s.state.frame is None and s.state.stage == "buy")
    entry = s.entry
    v = s.handle(Touch("vault 1", 1e6))
    assert v.verdict == "rejected" and v.reason.startswith("There is no pair or haul to put in a vault now.")
    assert s.entry == entry


def test_a_vault_tapped_before_the_pair_is_refused_not_kept_unseen():
    s = heist_at(lambda s: s.state.frame is None and s.state.stage == "stash" and not s.entry.cards)
    v = s.handle(Touch("vault 1", 1e6))
    assert v.verdict == "rejected" and v.reason.startswith("Scan the pair first, then tap its vault.")
    assert s.entry == type(s.entry)()
