"""Sweet Deals keeps its secrets (issue 21): two tables whose hidden hands differ, fed the
same public inputs, must show and say the same things, input by input, until the rules
reveal the difference: the shared screen's text, the prompt, /help and the command list
after a typo, every verdict and refusal, the text and JSON logs, and the history.

The hidden inputs (cards scanned face down: the deal, a swap, a draw) differ between the
two tables; every tap, and every card the rules put face up, is the same."""

from __future__ import annotations

import io
import json
import os

import pytest

from companion.table.history import as_json, describe
from companion.core import commands
from companion.core.clock import FakeClock
from companion.core.store import EventStore
from companion.games.sweet_deals.parts.cards import code_for
from companion.table.logs import TextLog, json_logger
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui.widgets import record_text

C = code_for

# The two deals (2 players, the 33-card deck). Shared by both: Ana's Strudel 1 (which a
# Bake Sale puts face up) and Ben's Donut 4 (which goes face up when nobody bids). The
# rest differ: only the first table's Ana holds the Mochi, a Grab & Go and a Cupcake 2;
# only the second's Ben holds the Cupcake 4 and the Donut Strudel.
DEALS = (
    [[C("Cupcake", 1, 1), C("Cupcake", 2, 1), C("Strudel", 1, 1), C("Donut", 1, 1), C("Grab & Go", copy=1),
      C("Sprinkles", copy=1), C("Mochi")],
     [C("Strudel", 2, 1), C("Strudel", 3), C("Donut", 2, 1), C("Donut", 4), C("Cupcake", 1, 2),
      C("Sprinkles", copy=2), C("Grab & Go", copy=2)]],
    [[C("Cupcake", 1, 3), C("Cupcake", 3), C("Strudel", 1, 1), C("Donut", 1, 2), C("Sprinkles", copy=3),
      C("Sprinkles", copy=4), C("Strudel Cupcake")],
     [C("Strudel", 2, 2), C("Strudel", 4), C("Donut", 2, 2), C("Donut", 4), C("Cupcake", 4), C("Grab & Go", copy=3),
      C("Donut Strudel")]],
)


def hidden(first: str, second: str) -> tuple[str, str]:
    """A card scanned face down: a different card at each table."""
    return first, second

# (input at the first table, input at the second): a tap, or a card scanned.
INPUTS = [
    *zip(DEALS[0][0] + DEALS[0][1], DEALS[1][0] + DEALS[1][1]),   # the deal, face down
    "/help", "/dance",
    "/offer mochi", "/undo",                      # only the first table's Ana holds one
    "/offer strudel cupcake", "/undo",            # only the second's
    "/offer cupcake", "/help", "/dance",
    "/grab 2", "/help", "/undo",                  # only the first table's Ben holds a Grab & Go...
    "/bid 5", "/undo",                            # ...nobody a 5...
    "/bid 2", "/help",                            # Ben wins the Cupcake with 2
    hidden(C("Strudel", 2, 1), C("Strudel", 2, 2)),   # Ben's card worth 2, face down
    "/undo",                                      # a secret scan taken back
    hidden(C("Strudel", 2, 1), C("Strudel", 2, 2)),
    "/help",
    hidden(C("Cupcake", 1, 1), C("Cupcake", 1, 3)),   # Ana's Cupcake: they have swapped
    "/offer donut", "/pass", "/help",             # Ben offers a Donut; nobody bids
    C("Donut", 4),                                # it goes face up: the same card at both tables
    hidden(C("Sprinkles", copy=5), C("Grab & Go", copy=4)),   # Ben draws, face down
    "/bake",                                      # Ana's Bake Sale
    hidden(C("Cupcake", 3), C("Cupcake", 2, 1)),  # she draws, face down
    C("Strudel", 1, 1),                           # and puts her Strudel 1 face up
    "/help", "/grab 1", "/take",                  # Ben takes it
    C("Strudel", 1, 1),                           # and puts it face up again
    "/pass",                                      # Ana passes: the Bake Sale is over
    "/close", "/no", "/help",
    "/offer strudel", "/bid 1",                   # Ben offers a Strudel; Ana wins with 1
    hidden(C("Donut", 1, 1), C("Donut", 1, 2)),
    hidden(C("Strudel", 3), C("Strudel", 4)),
    "/dance", "/help",
    "/close", "/yes",                             # the game ends: every hand is shown
]


class Table:
    """One table: a session with the text and JSON logs, drawn on the shared screen."""

    def __init__(self, path, app, players=("Ana", "Ben")):
        self.store = EventStore(path)
        self.session = Session.start("sweet-deals", list(players), self.store, FakeClock(),
                                     options={"mode": "tracked"}, tap_off=0)
        self.clock = self.session.clock
        self.text, self.json = io.StringIO(), io.StringIO()
        log = TextLog(self.text, self.session)
        self.session.listeners += [log, json_logger(self.json)]
        log.start()
        self.runner = Runner(self.session, self.clock)
        self.app = app

    def feed(self, line: str, t: float) -> dict:
        """Type ``line`` as under --simulate; everything the table saw and was told."""
        self.clock.set(t)
        mark = (len(self.text.getvalue()), len(self.json.getvalue()))
        self.runner.typed(line, now=True)
        s = self.session
        with record_text() as drawn:
            self.app.show(self.runner.draw)
        undo = s.undo_label() is not None
        return {
            "verdict": (s.last_message, s.last_ok),
            "prompt": s.prompt(),
            "screen": [d.text for d in drawn],
            "help": commands.help_text(s.desc, s.state, s.entry, s.prompt(), undo),
            "commands": commands.listing(s.desc, s.state, s.entry, undo),
            "view": repr(s.view),
            "text log": self.text.getvalue()[mark[0]:],
            "json log": [json.loads(x) for x in self.json.getvalue()[mark[1]:].splitlines()],
            "history": [(describe(g), as_json([g])[0]) for g in self.store.games()],
        }


def test_two_tables_with_different_hidden_hands_see_the_same_until_the_reveal(tmp_path, app):
    """Sweet Deals rulebook, "Deal": "Deal each player 7 Dessert Cards facedown"; "On Your
    Turn": "Offer a Dessert: ... say (only) the name of it", "Bidding: ... A bid is a coin
    value on one card in your hand", "Swap: Secretly swap cards with the winner"; "Notes":
    "Only say the dessert name when offering. Only say the coin value when bidding." The
    table hears names and numbers; the cards stay hidden until the rules show them (a card
    put face up, and every hand when the game ends)."""
    tables = [Table(tmp_path / "a.db", app), Table(tmp_path / "b.db", app)]
    last = len(INPUTS) - 1
    for n, item in enumerate(INPUTS):
        lines = item if isinstance(item, tuple) else (item, item)
        if n == last:
            before = [(t.text.getvalue(), t.json.getvalue()) for t in tables]
        seen = [table.feed(line, 10.0 + 2 * n) for table, line in zip(tables, lines)]
        if n < last:
            for key in seen[0]:
                assert seen[0][key] == seen[1][key], (n, item, key)
    # The last input ends the game and shows every hand: now the tables differ.
    assert all(t.session.over for t in tables)
    assert tables[0].session.result().to_dict() != tables[1].session.result().to_dict()
    assert seen[0]["text log"] != seen[1]["text log"]
    # ...and before it, no hidden card was ever named: not the deals, draws or swaps.
    for (text, js), table, deal in zip(before, tables, DEALS):
        assert "Everyone shows their hand" not in text
        for code in {c for h in table.session.state.hands for c in h} | {c for h in deal for c in h}:
            if code not in (C("Donut", 4), C("Strudel", 1, 1)):
                assert code not in text and code not in js, code


def test_the_inputs_are_accepted_where_a_table_would_expect(tmp_path, app):
    """The scenario above is a real game: every card scan and every tap meant as a move
    is accepted at both tables; the typos, Offer + Undo of a dessert one table lacks,
    Grab & Go and bids are answered alike."""
    tables = [Table(tmp_path / "a.db", app), Table(tmp_path / "b.db", app)]
    for n, item in enumerate(INPUTS):
        lines = item if isinstance(item, tuple) else (item, item)
        for table, line in zip(tables, lines):
            table.feed(line, 10.0 + 2 * n)
            ok = table.session.last_ok
            if line in ("/dance",):
                assert ok is False, (n, line)
            elif line == "/grab 1":
                assert ok is False, (n, line)            # Ana put that card face up herself
            elif not line.startswith("/"):
                assert ok is True, (n, line, table.session.last_message)
    assert "Ana has no" not in tables[0].text.getvalue() and "none is worth" not in tables[1].text.getvalue()


# Three players; the tables differ in every hand but agree on the taps. Ben and Cy tie at 2
# for Ana's Cupcake: the first card a tied bidder shows is where the rules reveal the
# difference (the first table's Ben shows a Donut 2, the second's a Strudel 2).
TIE_DEALS = (
    [[C("Cupcake", 1, 1), C("Cupcake", 1, 2), C("Strudel", 1, 1), C("Donut", 1, 1), C("Sprinkles", copy=1), C("Mochi"),
      C("Grab & Go", copy=1)],
     [C("Donut", 2, 1), C("Strudel", 3), C("Strudel", 4), C("Cupcake", 3), C("Sprinkles", copy=2),
      C("Grab & Go", copy=2), C("Donut", 1, 2)],
     [C("Strudel", 2, 1), C("Donut", 4), C("Cupcake", 4), C("Sprinkles", copy=3), C("Grab & Go", copy=3),
      C("Donut", 1, 3), C("Strudel", 1, 2)]],
    [[C("Cupcake", 2, 1), C("Cupcake", 1, 3), C("Strudel", 1, 3), C("Donut", 3), C("Sprinkles", copy=4),
      C("Strudel Cupcake"), C("Grab & Go", copy=4)],
     [C("Strudel", 2, 2), C("Donut", 2, 2), C("Cupcake", 2, 2), C("Donut Strudel"), C("Sprinkles", copy=5),
      C("Cupcake", 1, 2), C("Donut", 1, 1)],
     [C("Donut", 2, 1), C("Strudel", 4), C("Cupcake", 4), C("Cupcake", 3), C("Strudel", 1, 1), C("Donut", 1, 2),
      C("Mochi")]],
)
TIE_INPUTS = [
    *zip([c for h in TIE_DEALS[0] for c in h], [c for h in TIE_DEALS[1] for c in h]),
    "/offer cupcake", "/bid 2", "/help", "/bid 2", "/dance", "/help", "/pass",   # Ben and Cy tie at 2
    "/help", "/dance", "/undo", "/pass",          # the tie, taken back and made again
    hidden(C("Donut", 2, 1), C("Strudel", 2, 2)),   # Ben shows his card: the rules reveal it
]


def test_a_tie_reveal_is_where_two_tables_first_differ(tmp_path, app):
    """Sweet Deals rulebook, "On Your Turn": "Swap: Secretly swap cards with the winner
    -or- players with tied high bids must reveal the desserts on their cards." Up to the
    reveal the two tables see and log the same; the revealed card is the first thing
    that differs."""
    players = ("Ana", "Ben", "Cy")
    tables = [Table(tmp_path / "a.db", app, players), Table(tmp_path / "b.db", app, players)]
    for n, item in enumerate(TIE_INPUTS):
        lines = item if isinstance(item, tuple) else (item, item)
        seen = [table.feed(line, 10.0 + 2 * n) for table, line in zip(tables, lines)]
        if n < len(TIE_INPUTS) - 1:
            for key in seen[0]:
                assert seen[0][key] == seen[1][key], (n, item, key)
    assert [t.session.last_message for t in tables] == ["Ben shows a Donut 2.", "Ben shows a Strudel 2."]
    assert seen[0]["screen"] != seen[1]["screen"] and seen[0]["json log"] != seen[1]["json log"]


def _cli(tmp_path, name: str, lines: list[str], fmt: str) -> list[str]:
    import subprocess
    import sys

    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--game", "sweet-deals", "--names", "Ana,Ben",
                           "--headless", "--simulate", "--tap-off", "0", "--log-format", fmt,
                           "--store", str(tmp_path / f"{name}-{fmt}.db")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_companion_run_prints_the_same_for_both_tables_until_the_end(tmp_path, fmt):
    """The same two tables through ``companion run --headless --simulate`` with the text
    and the JSON log (``--log-format json``): every line the same, but for the clock
    times, until the line where the game ends and the hands are shown."""
    first = [x[0] if isinstance(x, tuple) else x for x in INPUTS]
    second = [x[1] if isinstance(x, tuple) else x for x in INPUTS]
    a, b = _cli(tmp_path, "a", first, fmt), _cli(tmp_path, "b", second, fmt)

    def same(line: str) -> str:
        if fmt == "json":
            record = json.loads(line)
            record.pop("t", None)
            return json.dumps(record)
        return line

    end = next(i for i, line in enumerate(a) if "Everyone shows their hand" in line)
    assert len(a) > 60 and end > 60
    assert [same(x) for x in a[:end]] == [same(x) for x in b[:end]]
    assert a[end:] != b[end:]
