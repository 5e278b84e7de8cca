"""Every input gets exactly one verdict line a child can read, in every game's every phase.

The walk: each game's recorded demo is played to the first state of each of its phases
(and to its end); there the table sends, one at a time from that same state, every touch
command the game knows (each as the flow tries it, bare, and with a number), the
screen's own commands, the session's, an unknown command, a card of another game and a
card of this game. Headless text mode (what ``companion run --headless --simulate``
prints, and what the logs show) must answer each with exactly one line that is not
empty, names no card code, and is not a bare ``OK``.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.codes import make_code
from companion.core.commands import SESSION_COMMANDS, game_commands
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.logs import TextLog
from companion.table.replay import replay
from companion.table.runner import Runner
from companion.table.session import Session
from companion.table.window import UI_COMMANDS
from toy_helpers import every_game

DATA = Path(__file__).parent / "data"


def all_codes() -> set[str]:
    """Every card code of every game registered now, and a made-up one of each game's prefix."""
    return ({c.code for g in GAMES.values() if g.has_cards for c in g.cards()}
            | {make_code(g.prefix, "A01") for g in GAMES.values()})


def foreign(slug: str) -> str:
    """A card of another game than ``slug``."""
    return next(c.code for g in GAMES.values() if g.slug != slug and g.has_cards for c in g.cards())


def phase_points(slug):
    """``(players, options, inputs, [n, ...])``: the demo's accepted inputs and the count
    before the first state of each phase, and the end."""
    runner = replay(DATA / GAMES[slug].demo, window=False)
    session = runner.session
    record = session.store.games()[0]
    inputs = session.store.inputs(session.game_id)
    fresh = Session.start(slug, list(record.players), EventStore(":memory:"), FakeClock(), resume=False,
                          options=record.config, tap_off=0)
    seen, points = set(), []
    for n, item in enumerate(inputs):
        key = (fresh.state.phase, type(fresh.entry).__name__ if fresh.entry is not None else None)
        if key not in seen:
            seen.add(key)
            points.append(n)
        fresh.handle(item)
    points.append(len(inputs))
    return list(record.players), record.config, inputs, points


def touches(slug, state) -> list[str]:
    """Every touch the walk sends from ``state``."""
    desc = GAMES[slug]
    out = []
    for command in game_commands(desc):
        out += list(command.samples(state))
        out += [command.word, re.sub(r"\b[A-Z]\b", "2", command.usage), f"{command.word} 99"]
    out += list(UI_COMMANDS) + ["draft 12", "menu quick", "swap 2", "deck 30"]
    out += [c.usage for c in SESSION_COMMANDS] + ["resume", "xyzzy"]
    return list(dict.fromkeys(out))


class Walk:
    """A headless table (text log and runner, as ``companion run --headless``) that can
    go back to one saved state after each input."""

    def __init__(self, slug, players, options, inputs):
        self.out = io.StringIO()
        self.session = Session.start(slug, players, EventStore(":memory:"), FakeClock(), resume=False,
                                     options=options, tap_off=0)
        for item in inputs:
            assert self.session.handle(item).verdict == "accepted", item
        self.log = TextLog(self.out, self.session)
        self.session.listeners.append(self.log)
        self.runner = Runner(self.session, self.session.clock, text_out=self.out, simulate=True)
        self.log.start()
        s = self.session
        self.saved = (s.state, s.entry, list(s.undo.done), list(s.pauses.spans), s.turn_started, s.last_message,
                      s.last_ok, self.log._ended, dict(self.log._counts))

    def restore(self):
        s = self.session
        (s.state, s.entry, done, pauses, s.turn_started, s.last_message, s.last_ok, self.log._ended,
         counts) = self.saved
        s.undo.done, s.pauses.spans, self.log._counts = list(done), list(pauses), dict(counts)
        s.taps.forget()
        self.runner.menu, self.runner.deck_draft = None, None
        if s.store.games()[0].finished is None and s.over:
            s._finish(0.0)

    def send(self, line: str) -> list[str]:
        """The verdict lines ``line`` got (status lines, indented, and the score table
        printed at the end, left out)."""
        self.out.seek(0)
        self.out.truncate()
        self.runner.typed(line, now=True)
        said = self.out.getvalue().splitlines()
        self.restore()
        table = self.session.result().text().splitlines() if self.session.over else []
        return [x for x in said if not x.startswith("  ") and x not in table]


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_every_input_in_every_phase_gets_one_readable_verdict_line(slug):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    players, options, inputs, points = phase_points(slug)
    desc = GAMES[slug]
    own_card = [next(iter(desc.cards())).code] if desc.has_cards else []
    problems, codes_known = [], all_codes()
    for n in points:
        walk = Walk(slug, players, options, inputs[:n])
        sent = ["/" + t for t in touches(slug, walk.session.state)] + [foreign(slug)] + own_card
        for line in sent:
            said = walk.send(line)
            where = f"{slug} at input {n} ({walk.session.state.phase}) {line!r}"
            if len(said) != 1:
                problems.append(f"{where}: {len(said)} lines {said}")
                continue
            text = said[0]
            body = text.split(":", 1)[1] if text.startswith(("Not allowed", "ignored")) else text
            if not body.strip():
                problems.append(f"{where}: empty verdict {text!r}")
            if text.startswith("OK"):
                problems.append(f"{where}: a bare OK {text!r}")
            codes = set(re.findall(r"[0-9A-Z]{6}", text)) & codes_known
            if codes:
                problems.append(f"{where}: names a card code {sorted(codes)}: {text!r}")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
