"""The toy game keeps its hidden cards secret, as every game must (issue 21; the contract's
``Rules.public_view`` and ``Flow.secret``, ``tests/toy_game.py``): a card scanned into a
hand or laid face down reaches no screen, no text or JSON log line, no history and no
venue message before the tap that reveals it.

Two tables whose hidden cards differ, fed the same taps, see and say exactly the same
things, input by input, until the Reveal; and the toy's recorded game leaks no hidden
card's code (nor, before any card of that name is shown, its name) anywhere first."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from companion.core.events import CardScanned, Revealed
from companion.games import GAMES
from companion.table.history import as_json, describe
from companion.table.logs import TextLog, json_logger
from companion.table.replay import replay
from companion.ui.app import App, TableInfo
from companion.ui.history import HistoryScreen
from companion.ui.widgets import record_text
from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings

from secrecy_helpers import Watched

pytestmark = pytest.mark.toy_game  # every test here runs with the toy game registered
DATA = Path(__file__).parent / "data"


def star(rank: int, copy: int) -> str:
    """The code of the toy game's Star ``rank``, copy ``copy``."""
    import toy_game

    return next(code for code, card in toy_game.CARDS.items() if card.name == f"Star {rank}" and card.copy == copy)


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


class Table(Watched):
    """A toy table of two rounds as ``companion run --headless --simulate`` runs it, with
    the text and JSON logs, the screen, the history and a venue publisher (its outbox, no
    broker) listening (:class:`secrecy_helpers.Watched`)."""

    def __init__(self, app: App):
        super().__init__("toy", ("Ana", "Ben"), {"rounds": "2"}, app)

    def typed(self, line: str, t: float) -> dict:
        """Type ``line`` as under --simulate; everything the table then showed and said."""
        marks = self.marks()
        self.feed(line, t)
        return self.seen(marks)


def hidden(first: str, second: str) -> tuple[str, str]:
    """A card scanned face down: a different card at each table."""
    return first, second


# Ana's and Ben's hands differ between the tables; every tap is the same.
INPUTS = [
    hidden(star(9, 1), star(2, 1)), hidden(star(3, 1), star(8, 1)),     # Ana's hand
    "/reveal",                                                          # too early, at both
    hidden(star(5, 1), star(5, 2)), hidden(star(1, 1), star(7, 1)),     # Ben's hand
    "/help", "/undo",                                                   # a hidden card taken back...
    hidden(star(4, 1), star(6, 1)),                                     # ...and another dealt
    star(1, 3),                                                         # a card in no hand, played: refused
    hidden(star(9, 1), star(8, 1)),                                     # Ana lays one face down
    "/help", "/reveal", "/undo",                                        # taken back, laid again
    hidden(star(9, 1), star(8, 1)),
    hidden(star(5, 1), star(5, 2)),                                     # Ben lays one face down
    "/help", "/pause", "/resume",
    "/reveal",                                                          # the cards turn up: now they differ
]


def test_two_tables_with_different_hidden_cards_see_the_same_until_the_reveal(tmp_path, app):
    """Ana's and Ben's hands differ between the tables, and so do the cards they lay; until
    the Reveal the screen (its text, its picture, its buttons), the prompt, help, the
    command list, the view, both logs, the history and the venue's messages are the same."""
    tables = [Table(app), Table(app)]
    last = len(INPUTS) - 1
    for n, item in enumerate(INPUTS):
        lines = item if isinstance(item, tuple) else (item, item)
        seen = [table.typed(line, 10.0 + 2 * n) for table, line in zip(tables, lines)]
        if n < last:
            for key in seen[0]:
                assert seen[0][key] == seen[1][key], (n, item, key)
    assert [t.session.last_message for t in tables] == [
        "Ana shows Star 9. Ben shows Star 5. Ana takes 2 cards.", "Ana shows Star 8. Ben shows Star 5. Ana takes 2 cards."]
    for key in ("screen text", "screen picture", "text log", "json log", "venue", "view"):
        assert seen[0][key] != seen[1][key], key
    # every scan but the refused one was hidden, and counted: logged as "hidden", never by code
    scans = [line for t in tables for line in map(json.loads, t.json.getvalue().splitlines())
             if line.get("event") == "scan"]
    assert len(scans) == 2 * 9 and all(line["code"] == "hidden" for line in scans)
    assert [line["verdict"] for line in scans].count("rejected") == 2
    for table, deal in zip(tables, zip(*[i for i in INPUTS if isinstance(i, tuple)])):
        still_hidden = set(deal) - set(table.session.state.won[0])  # the cards left in the hands
        everything = table.text.getvalue() + table.json.getvalue() + json.dumps(seen[0]["venue"] + seen[1]["venue"])
        assert still_hidden and not [code for code in still_hidden if code in everything]


def test_no_hidden_card_is_in_any_output_of_the_recorded_game_before_its_reveal(app):
    """The toy's demo (tests/data/toy-family.trace: 24 cards dealt and laid face down, a
    garbled read of one, a card dealt by mistake and taken back) through the whole stack,
    with the text and JSON logs, the screen (every text drawn), the history and the
    venue's messages recorded after each input: a hidden card's code is in none of them
    before the Reveal that turns it up, its name in none before a card of that name is
    shown, and the garbled read (never revealed) in none at all."""
    outputs: list[str] = []          # after each input: everything the table showed and said
    hidden: dict[str, int] = {}      # code -> the input that first scanned it, hidden
    revealed: dict[str, int] = {}    # code -> the input whose events turned it up
    held: dict = {}

    def start(session):
        pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1", "secret-toy"), session)
        held.update(session=session, out=io.StringIO(), js=io.StringIO(), pub=pub, sent=0)
        session.listeners += [TextLog(held["out"], session), json_logger(held["js"]), pub]

    def watch(item, verdict):
        if verdict is None:
            return
        s = held["session"]
        if isinstance(item, CardScanned) and verdict.secret:
            assert verdict.code is None
            hidden.setdefault(item.code.strip(), len(outputs))
        for event in verdict.events:
            if isinstance(event, Revealed):
                revealed.setdefault(event.card, len(outputs))
        info = TableInfo(verdict=s.last_message, verdict_ok=s.last_ok, prompt=s.prompt(), undo=s.undo_label(),
                         game_name=s.desc.name)
        result = s.result()
        with record_text() as drawn:
            app.show(lambda surface: s.desc.screen.draw_final(surface, result, info) if result is not None
                     else s.desc.screen.draw_game(surface, s.view, info))
        rows = held["pub"].outbox.pending(limit=100000)
        venue = [r.payload.decode() for r in rows[held["sent"]:]]
        held["sent"] = len(rows)
        history = [(describe(g), as_json([g])[0]) for g in s.store.games()], HistoryScreen(s.store, GAMES).rows()
        outputs.append("\n".join([held["out"].getvalue(), held["js"].getvalue(), *(d.text for d in drawn), *venue,
                                  repr(history)]))
        for log in (held["out"], held["js"]):
            log.seek(0)
            log.truncate()

    # the listeners run in order: the logs and the publisher (added at the start) before watch
    runner = replay(DATA / "toy-family.trace", window=False, on_start=start, listeners=[watch])
    assert runner.session.over and len(outputs) > 60
    names = {code: card.name for code, card in runner.session.desc.catalogue().items()}
    assert len([c for c in hidden if c in names]) == 24 and set(hidden) - set(names) == {"TYS6"}
    assert set(revealed) == {c for c in hidden if c in names}  # every card dealt is laid and shown
    shown_name: dict[str, int] = {}
    for code, n in revealed.items():
        shown_name[names[code]] = min(n, shown_name.get(names[code], n))
    checked = 0
    for code, first in hidden.items():
        name = names.get(code)
        for n, said in enumerate(outputs[first:], first):
            if n < revealed.get(code, len(outputs)):
                assert code not in said, (code, n, said)
                checked += 1
            if name is not None and n < shown_name[name]:
                assert not re.search(rf"(?<!\w){name}(?!\w)", said), (name, n, said)
    assert checked > 24 * 10
    assert not re.search(r"\bStar [1-9]", "".join(outputs[:min(revealed.values())]))  # before any Reveal, no name
