"""The venue outbox has a bound, a warning before it, and drops nothing silently
(companion/venue/outbox.py): the issue's "the outbox grows for ever"."""

from __future__ import annotations

import logging

import pytest

from companion.core.clock import FakeClock
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.table.session import Session
from companion.venue import outbox as outbox_module
from companion.venue.outbox import Outbox, OutboxFull
from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings
from venue_helpers import Mosquitto, Recorder, free_port, wait_for

EVENTS, STATUS = "sugar/cafe/tables/t1/events", "sugar/cafe/tables/t1/status"


def test_the_shipped_bound_and_warning():
    assert outbox_module.WARN_AT < outbox_module.LIMIT
    assert outbox_module.LIMIT >= 10_000  # days of a busy table's messages with its broker away


def test_older_statuses_go_first_then_new_messages_are_left_out_and_counted():
    box = Outbox(EventStore(":memory:"), limit=10, warn_at=6)
    for seq in range(1, 4):  # an event and a status each
        box.put([(EVENTS, {"seq": seq}, 1, False), (STATUS, {"seq": seq}, 1, True)], seq=seq)
    assert box.count() == 6 and box.level() == "warn"
    box.put([(EVENTS, {"seq": 4}, 1, False), (STATUS, {"seq": 4}, 1, True)], seq=4)
    # The outbox was at its warning: the older statuses went before the new ones came in
    # (the newest says what they said); every event stayed.
    topics = [(r.topic, r.seq) for r in box.pending()]
    assert [s for t, s in topics if t == STATUS] == [3, 4] and [s for t, s in topics if t == EVENTS] == [1, 2, 3, 4]
    assert box.superseded == 2 and box.count() == len(topics) == box.waiting()
    seq, full = 4, 0
    while full < 2 and seq < 50:
        seq += 1
        try:
            box.put([(EVENTS, {"seq": seq}, 1, False), (STATUS, {"seq": seq}, 1, True)], seq=seq)
        except OutboxFull as err:
            full += 1
            assert "the venue outbox is full" in str(err)
    assert full == 2 and box.level() == "full" and box.count() <= 10
    assert box.left_out == 4  # two inputs' event and status, counted
    events = [r.seq for r in box.pending() if r.topic == EVENTS]
    assert events == sorted(events) and events[:4] == [1, 2, 3, 4]  # what was queued is kept, in order
    assert box.next_seq() == seq + 1  # the numbers go on: the dashboard sees the gap


def test_the_panel_warns_before_the_bound_and_says_when_it_is_full(tmp_path, caplog):
    """No broker: the outbox fills; the panel says so before and at the bound, the log says
    it once per level; when the broker comes, what was kept goes out in order, with a gap
    in the numbers where messages were left out."""
    port = free_port()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
    shown = []
    pub = VenuePublisher(VenueSettings.parse(f"mqtt://127.0.0.1:{port}", "t1"), session, report=shown.append)
    pub.outbox.limit, pub.outbox.warn_at = 40, 20
    session.listeners.append(pub)
    pub.start()
    pub.connect()
    words = lambda: [s.detail for s in shown]  # noqa: E731
    try:
        wait_for(lambda: "Venue: no broker" in words(), what="no broker on the panel")
        n = 0
        while pub.outbox.level() is None:
            n += 1
            session.handle(Touch("frobnicate", float(n)))
        wait_for(lambda: any(w.startswith("Venue: outbox") and w.endswith("%") for w in words()),
                 what="the warning on the panel")
        with caplog.at_level(logging.WARNING, logger="companion.venue.publish"):
            while pub.outbox.left_out == 0:
                n += 1
                session.handle(Touch("frobnicate", float(n)))
            for _ in range(5):
                n += 1
                session.handle(Touch("frobnicate", float(n)))
            wait_for(lambda: "Venue: outbox full" in words(), what="full on the panel")
        said = [r.getMessage() for r in caplog.records]
        # Logged at the 1st and 10th message left out, not at each of the six inputs.
        assert pub.outbox.left_out == 12 and sum("outbox is full" in m for m in said) == 2, said
        assert sum("full, new ones are left out" in m for m in said) == 1
        broker = Mosquitto(tmp_path / "broker", port=port).start()
        try:
            recorder = Recorder(broker.url)
            wait_for(lambda: shown[-1].status == "connected", what="connected once the broker came")
            wait_for(lambda: pub.outbox.count() == 0, what="the outbox sent")
            seqs = [e["seq"] for e in recorder.payloads("events")]
            recorder.close()
        finally:
            broker.stop()
        assert seqs == sorted(seqs) and seqs[0] == 1 and len(seqs) < n  # kept in order; a gap where left out
        assert seqs[-1] < n
    finally:
        pub.close(timeout=0.5)
