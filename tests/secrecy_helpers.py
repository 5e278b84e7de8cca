"""The differential secrecy check (issue 36): two tables play the same game, input by
input, with the same public history and different hidden cards (a few card identities
swapped, as if those cards had lain elsewhere in the shuffled deck), and everything the
table shows or says -- the verdict and its words, the prompt, ``/help`` and the command
list, the screen (its text, its picture, its buttons), the text and JSON logs, the
history and the venue messages -- must be byte for byte the same until the rules reveal
a swapped card.

A game is played from a list of lines as ``companion run --headless --simulate`` types
them (``/command`` a touch, anything else a scan); :func:`compare` adds mistakes to it:
a card held face down or in a hand scanned when it cannot be used, and taps of the game's
commands at random moments (each accepted mistake is taken back with Undo, unless it
revealed a card). The check ends at the first input that reveals a swapped card (a
:class:`~companion.core.events.Revealed` whose cards include one, or one that does not
say), that scans a swapped card openly (the two inputs then differ in public), or that
one table takes and the other refuses (the rules checked the hidden card against what
was said in public: a bid, an offer; the two histories part there). Until then a
refusal of a hidden card must read the same whatever the card is.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from typing import Callable, Iterable

from companion.core import commands
from companion.core.clock import FakeClock
from companion.core.events import Revealed
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.history import as_json, describe
from companion.table.logs import TextLog, json_logger
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui.history import HistoryScreen
from companion.ui.widgets import record_text
from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings

#: Venue message fields that differ between any two tables: the wall clock, the outbox's
#: stream id, the disk's free megabytes as measured at that moment.
UNSHARED = ("wall", "stream", "disk_free_mb")


class Watched:
    """One table as ``companion run --headless --simulate`` runs it, with the text and JSON
    logs, a venue publisher (its outbox; no broker) and the screen listening."""

    def __init__(self, slug: str, players, options: dict, app, picture: bool = True):
        self.store = EventStore(":memory:")
        self.session = Session.start(slug, list(players), self.store, FakeClock(), options=options, tap_off=0,
                                     resume=False)
        self.session.teach()  # a first game's lessons show in the first round: they must not differ either
        self.text, self.json = io.StringIO(), io.StringIO()
        log = TextLog(self.text, self.session)
        self.venue = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1", "secret-diff"), self.session)
        self.verdicts: list = []
        self.session.listeners += [log, json_logger(self.json), self.venue,
                                   lambda item, verdict: verdict and self.verdicts.append(verdict)]
        log.start()
        self.runner = Runner(self.session, self.session.clock)
        self.app, self.sent, self.picture = app, 0, picture

    def feed(self, line: str, t: float):
        """Type ``line`` at time ``t``: its verdict (None when it made none)."""
        self.session.clock.set(t)
        before = len(self.verdicts)
        self.runner.typed(line, now=True)
        return self.verdicts[-1] if len(self.verdicts) > before else None

    def seen(self, marks: tuple[int, int]) -> dict:
        """Everything the table showed and said since the logs stood at ``marks``."""
        s = self.session
        with record_text() as drawn:
            self.app.show(self.runner.draw)
        rows = self.venue.outbox.pending(limit=100000, after=self.sent)
        venue = [(r.topic, {k: v for k, v in json.loads(r.payload).items() if k not in UNSHARED}) for r in rows]
        self.sent = rows[-1].id if rows else self.sent
        v = self.verdicts[-1] if self.verdicts else None
        return {
            "verdict": v and (v.verdict, v.reason, v.message, v.code, v.secret, v.step,
                              [e.message for e in v.events], v.why),  # (why: a refusal's Why? words)
            "said": (s.last_message, s.last_ok), "prompt": s.prompt(), "lesson": s.lesson(), "undo": (s.undo_label(), s.undo_question()),
            "screen text": [d.text for d in drawn],
            "screen picture": self.picture and hashlib.sha256(bytes(self.app.surface.get_buffer().raw)).hexdigest(),
            "screen buttons": [(b.command, tuple(b.rect)) for b in self.app.buttons],
            "help": s.help_text(),  # (it holds the command list a refusal of a typo gives)
            "view": repr(s.view),
            "text log": self.text.getvalue()[marks[0]:],
            "json log": [json.loads(x) for x in self.json.getvalue()[marks[1]:].splitlines()],
            "history": ([(describe(g), as_json([g])[0]) for g in self.store.games()],
                        HistoryScreen(self.store, GAMES).rows()),
            "venue": venue,
        }

    def marks(self) -> tuple[int, int]:
        return len(self.text.getvalue()), len(self.json.getvalue())


def reveals(verdict, swapped: set[str]) -> bool:
    """Does this verdict make a swapped card public (or reveal without saying which)?"""
    if verdict is None:
        return False
    for event in verdict.events:
        if isinstance(event, Revealed):
            cards = event.cards()
            if cards is None or swapped & set(cards):
                return True
    return False


@dataclass
class Compared:
    """What one differential game did: inputs compared, mistakes tried, why it stopped."""
    inputs: int = 0
    mistakes: int = 0
    hidden_mistakes: int = 0
    stopped: str = "the end"
    log: list = field(default_factory=list)


def compare(slug: str, players, options: dict, lines: Iterable[str], sigma: dict[str, str], app,
            hidden_now: Callable, rng: random.Random, mistakes: float = 0.2, picture: bool = True,
            urge: Callable | None = None, unlike: float = 0.3) -> Compared:
    """Play ``lines`` at table A and the same lines with codes mapped by ``sigma`` (a
    permutation of card codes: the swapped cards) at table B, with mistakes added at the
    rate ``mistakes``; assert both tables show and say the same after every input until
    a swapped card is revealed or scanned openly. ``hidden_now(state)`` lists table A's
    cards hidden at the moment (face down, in hands), the likeliest to be scanned by
    mistake repeated; ``urge(state)``, when given, the rate of mistakes at that moment
    (a player trying their face-down card in their own turn). A share ``unlike`` of the
    hidden mistakes scans a card hidden at each table chosen independently: if both are
    refused, the refusals must read the same (only a reveal may tell hidden cards apart);
    if either is taken, the check ends there."""
    a, b = Watched(slug, players, options, app, picture), Watched(slug, players, options, app, picture)
    swapped = {c for c, d in sigma.items() if c != d}
    out = Compared()
    t = 10.0

    def both(line: str, what: str, other: str | None = None) -> bool:
        """Feed ``line`` to A and its image (or ``other``, a different hidden card) to B;
        compare; False when the check must end."""
        nonlocal t
        t += 1.0
        marks = a.marks(), b.marks()
        va, vb = a.feed(line, t), b.feed(sigma.get(line, line) if other is None else other, t)
        out.log.append((what, line, other))
        if other is not None:  # two hidden cards, unlike: both refused in the same words, or the check ends
            if not (va is not None and va.secret and vb is not None and vb.secret) or va.verdict != vb.verdict \
                    or va.verdict == "accepted":
                out.stopped = f"two unlike hidden cards not both refused, {what} {line} / {other}"
                return False
        if reveals(va, swapped) or reveals(vb, swapped):
            out.stopped = f"a swapped card revealed by {what} {line}"
            return False
        if line in swapped and not (va is not None and va.secret and vb is not None and vb.secret):
            out.stopped = f"a swapped card scanned openly by {what} {line}"
            return False
        if line in swapped and va.verdict != vb.verdict:  # the rules told the two cards apart (a claim checked):
            out.stopped = f"a swapped card taken at one table only, {what} {line}"  # no more a same history
            return False
        seen_a, seen_b = a.seen(marks[0]), b.seen(marks[1])
        for key in seen_a:
            assert seen_a[key] == seen_b[key], (f"{slug}: after {what} {line!r} (input {out.inputs}), {key} differs",
                                                seen_a[key], seen_b[key], out.log[-6:])
        out.inputs += 1
        return not a.session.over

    def mistake() -> bool:
        """One wrong input (taken back with Undo if it was accepted); False to end."""
        hidden = list(hidden_now(a.session.state))
        other = None
        if hidden and rng.random() < 0.7:
            mine = [c for c in hidden if c in swapped]  # most often one of the cards that differ
            line, what = rng.choice(mine if mine and rng.random() < 0.7 else hidden), "hidden card scanned"
            out.hidden_mistakes += 1
            theirs = list(hidden_now(b.session.state))
            if rng.random() < unlike and theirs:  # or each table a hidden card of its own, chosen apart
                other, what = rng.choice(theirs), "unlike hidden cards scanned"
        else:
            s = a.session
            tries = [x for c in commands.game_commands(s.desc) for x in c.samples(s.view)] + ["help", "done"]
            line, what = "/" + rng.choice(tries), "tap"
        out.mistakes += 1
        n = len(a.verdicts)
        if not both(line, what, other):
            return False
        if len(a.verdicts) > n and a.verdicts[-1].verdict == "accepted" and a.verdicts[-1].seq is not None:
            return both("/undo", "undo of a mistake")
        return True

    for line in lines:
        rate = 2 * mistakes if any(c in swapped for c in hidden_now(a.session.state)) else mistakes
        if urge is not None:
            rate = max(rate, urge(a.session.state))
        if rng.random() < rate and not mistake():
            return out
        if not both(line, "input"):
            return out
    return out


def swap_two(codes: list[str], name_of: Callable[[str], str], rng: random.Random,
             first: Iterable[str] = ()) -> dict[str, str]:
    """A permutation that swaps one card (from ``first`` when given) with another of a
    different name: ``{x: y, y: x}``."""
    pool = list(first) or codes
    x = rng.choice(pool)
    y = rng.choice([c for c in codes if name_of(c) != name_of(x)])
    return {x: y, y: x}
