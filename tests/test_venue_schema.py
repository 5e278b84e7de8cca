"""Every venue message is checked against its topic's JSON Schema (companion/venue/schemas/):
what the tables publish in the recorded games matches it, and the dashboard drops, counts
and never keeps a message that does not (no broker here: :meth:`Dashboard.handle` is fed
directly; tests/test_venue_hostile.py does the same through a real Mosquitto and a
browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from companion.core.events import INPUT_KINDS
from companion.venue import schema
from companion.venue.dashboard import Dashboard, flags, unreadable_words
from companion.venue.outbox import Row
from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings
from toy_helpers import toy_param
from venue_helpers import event_msg, hostile, result_msg, status_msg, wire

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parent.parent
@pytest.mark.parametrize("trace", ["sugarrr-family", "sugar-heist-family", "sweet-deals-family",
                                   "sugar-blast-family", toy_param("toy-family")])
def test_every_message_a_table_publishes_in_the_recorded_games_matches_its_schema(trace):
    """Each recorded game played at a table with the real publisher: every message it
    would send (the outbox), the last will and the goodbye match their topic's schema,
    and the biggest is a tenth of the size limit at most."""
    from companion.table.replay import replay

    seen = []

    def on_start(session):
        pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "table-1", "corner-cafe"), session)
        session.listeners.append(pub)
        pub.start()
        seen.append(pub)

    replay(DATA / f"{trace}.trace", window=False, on_start=on_start)
    pub = seen[0]
    pub.connect()
    pub.close(timeout=0)  # (no broker: its goodbye joins the outbox)
    rows = pub.outbox.pending(limit=100_000)
    aspects = {}
    for row in rows:
        aspect = row.topic.rpartition("/")[2]
        schema.read(aspect, row.payload)  # raises Unreadable, saying which
        aspects[aspect] = aspects.get(aspect, 0) + 1
    assert set(aspects) == {"status", "events", "result"} and aspects["result"] >= 1
    assert json.loads(rows[-1].payload)["online"] is False
    assert max(len(r.payload) for r in rows) <= schema.MAX_BYTES // 10
    assert pub.invalid == 0
    assert schema.read("status", pub.will())["will"] is True


def test_the_schemas_are_valid_and_agree_with_the_code():
    for aspect in schema.ASPECTS + schema.REQUESTS:
        jsonschema.Draft202012Validator.check_schema(schema.schema(aspect))
    assert schema.schema("events")["properties"]["input"]["enum"] == list(INPUT_KINDS.values())
    from companion.venue.settings import NAME

    assert schema.schema("events")["properties"]["table"]["pattern"] == f"^{NAME.pattern}$"


def test_the_shipped_broker_refuses_what_the_dashboard_would():
    """``message_size_limit`` in hardware/mosquitto/sugar-cafe.conf is the dashboard's
    :data:`MAX_BYTES`."""
    conf = (ROOT / "hardware" / "mosquitto" / "sugar-cafe.conf").read_text()
    assert re.search(r"(?m)^message_size_limit (\d+)$", conf).group(1) == str(schema.MAX_BYTES)
    import venue_helpers

    assert venue_helpers.MAX_BYTES == schema.MAX_BYTES


def test_the_schemas_are_published_in_the_docs():
    """docs/venue.md carries each schema as it is in the package."""
    doc = (ROOT / "docs" / "venue.md").read_text()
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, re.S)]
    for aspect in schema.ASPECTS + schema.REQUESTS:
        assert schema.schema(aspect) in blocks, aspect


def good_tables() -> Dashboard:
    d = Dashboard(None, "cafe")
    for n in (1, 2):
        assert d.handle(f"sugar/cafe/tables/table-{n}/status", wire(status_msg(f"table-{n}", seq=1)))
        assert d.handle(f"sugar/cafe/tables/table-{n}/events", wire(event_msg(1, f"table-{n}")))
    return d


def test_a_hostile_message_is_dropped_counted_and_never_kept():
    d = good_tables()
    before = {n: d.table_json(n, now=0.0) for n in ("table-1", "table-2")}
    cases = hostile()
    for what, aspect, payload in cases:
        assert not d.handle(f"sugar/cafe/tables/table-3/{aspect}", payload), what
        assert d.tables["table-3"].status == {} and d.tables["table-3"].seqs == [], what
    assert d.tables["table-3"].unreadable == len(cases)
    shown = d.table_json("table-3", now=0.0)
    assert shown["unreadable_text"] == f"Table 3 sent {len(cases)} unreadable messages"
    assert "HOSTILE" not in json.dumps(shown) and not d.results
    for n in ("table-1", "table-2"):
        assert d.table_json(n, now=0.0) == before[n]  # untouched
    # the same on a good table's own topics: its card stays as it was, and says so
    own = [(what, aspect, payload.replace(b"table-3", b"table-1")) for what, aspect, payload in cases
           if what != "another table's name inside"]
    for what, aspect, payload in own:
        assert not d.handle(f"sugar/cafe/tables/table-1/{aspect}", payload), what
    after = d.table_json("table-1", now=0.0)
    assert after["unreadable"] == len(own) and "HOSTILE" not in json.dumps(after)
    assert {k: v for k, v in after.items() if not k.startswith(("unreadable", "version"))} == \
        {k: v for k, v in before["table-1"].items() if not k.startswith(("unreadable", "version"))}
    assert flags(d.tables["table-1"], 0.0) == []
    assert d.handle("sugar/cafe/tables/table-1/events", wire(event_msg(2, "table-1")))  # still live
    assert d.tables["table-1"].seqs == [1, 2]


def test_the_words_for_unreadable_messages():
    assert unreadable_words("table-3", 1) == "Table 3 sent 1 unreadable message"
    assert unreadable_words("bar", 2) == "bar sent 2 unreadable messages"
    assert unreadable_words("table-3", 0) == ""


def test_names_no_table_can_have_and_too_many_tables_are_counted_for_the_venue(monkeypatch):
    from companion.venue import dashboard as dash

    d = Dashboard(None, "cafe")
    assert not d.handle("sugar/cafe/tables/not a name/status", wire(status_msg()))
    assert d.tables == {} and d.stray == 1
    monkeypatch.setattr(dash, "MAX_TABLES", 2)
    for n in (1, 2, 3):
        d.handle(f"sugar/cafe/tables/t{n}/status", wire(status_msg(f"t{n}")))
    assert sorted(d.tables) == ["t1", "t2"] and d.stray == 2
    assert d.notices() == ["2 unreadable messages came for no table this page can show (left out)"]


def test_a_bad_line_in_the_history_file_is_left_out_and_counted(tmp_path):
    """A history file an older dashboard wrote, when it kept whatever result came: its
    bad lines are left out (and said), the good ones read, nothing written back."""
    history = tmp_path / "cafe.jsonl"
    good = result_msg("table-1")
    lines = [json.dumps(good), json.dumps({**good, "players": ["HOSTILE"], "game_id": 2}), "HOSTILE {",
             json.dumps(result_msg("table-2", players=[{"name": "Cy", "score": "x", "breakdown": {}}])), ""]
    history.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe\n")
    before = history.read_bytes()
    d = Dashboard(None, "cafe", history=history)
    assert [(g["table"], g["winners"]) for g in d.finished()] == [("table-1", ["Ana"])]
    assert d.history_unreadable == 4
    assert d.notices() == ["4 lines of the history file were not a finished game (left out)"]
    assert "HOSTILE" not in json.dumps(d.finished()) and history.read_bytes() == before
    assert d.handle("sugar/cafe/tables/table-2/result", wire(result_msg("table-2")))
    assert len(history.read_bytes().splitlines()) == len(before.splitlines()) + 1


def test_the_publisher_sends_no_message_its_schema_refuses(caplog):
    """A message of the table's own that does not match (a bug) is logged and not sent."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.session import Session

    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
    pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), session)
    bad = Row(1, 1, "sugar/cafe/tables/t1/status", wire({**status_msg(), "clocks": {"turn": "soon"}}), 1, True)
    good = Row(2, 1, "sugar/cafe/tables/t1/status", wire(status_msg()), 1, True)
    assert not pub._valid(bad) and pub._valid(good) and pub.invalid == 1
    assert "$.clocks" in caplog.text and "soon" not in caplog.text


def _mutants(msg: dict, depth: int = 2):
    """``msg`` with one value replaced by one of each JSON type (and a few edge values), at
    every field down to ``depth`` levels, and with one field left out or one added."""
    odd = [None, True, False, 0, 1, -1, 1.0, 2.5, 1e300, "", "x" * 300, [], [1], {}, {"k": 1}]
    if isinstance(msg, dict):
        for key in list(msg):
            for value in odd:
                yield {**msg, key: value}
            yield {k: v for k, v in msg.items() if k != key}
            if depth > 1 and isinstance(msg[key], (dict, list)):
                for inner in _mutants(msg[key], depth - 1):
                    yield {**msg, key: inner}
        yield {**msg, "extra": 1}
    elif isinstance(msg, list):
        for i in range(min(len(msg), 3)):
            for value in odd:
                yield msg[:i] + [value] + msg[i + 1:]
            if depth > 1 and isinstance(msg[i], (dict, list)):
                for inner in _mutants(msg[i], depth - 1):
                    yield msg[:i] + [inner] + msg[i + 1:]


@pytest.mark.parametrize("aspect, msg", [("status", status_msg("table-3")), ("events", event_msg(5, "table-3")),
                                         ("result", result_msg("table-3"))])
def test_the_compiled_schema_answers_as_jsonschema_does(aspect, msg):
    """The dashboard checks messages with the schema compiled by fastjsonschema (fast enough
    for a Pi); jsonschema, the reference implementation of draft 2020-12, must agree on
    every message: a valid one, each hostile one, and thousands with one value of the
    wrong type, out of range, missing or extra (a disagreement is a hole in one of them)."""
    from fastjsonschema import JsonSchemaException

    reference, compiled = schema._validator(aspect), schema._compiled(aspect)
    tried = disagree = 0
    cases = list(_mutants(msg)) + [msg] + [json.loads(p) for _, a, p in hostile() if a == aspect and
                                             _json_or_none(p) is not None]
    for case in cases:
        tried += 1
        want = reference.is_valid(case)
        try:
            compiled(case)
            got = True
        except JsonSchemaException:
            got = False
        if got != want:
            disagree += 1
            print(aspect, "jsonschema" if want else "compiled", "alone takes", json.dumps(case)[:200])
    assert tried > 200 and disagree == 0


def _json_or_none(payload: bytes):
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None
