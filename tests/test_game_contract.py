"""Every registered game through the same checks (OpenSpiel's api_test, for the table).

A game joins these tests by registering in ``companion/games/__init__.py`` with a demo
trace: its recorded session replays to its golden result and to one state digest; a
rejected input never changes anything; from every state the table reaches, some input
is accepted until the game is over; undo then the same input again is the same game;
a power cut loses nothing accepted; and the commands answer for it without a traceback.
The toy game of ``tests/toy_game.py`` runs every check too (``tests/toy_helpers.py``
registers it, in a child process as well).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.codes import make_code
from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import (ButtonPressed, CardScanned, Touch, TrayLevel, TrayTilted, input_from_dict,
                                   input_to_dict)
from companion.core.game import PLAYER_KEYS, RESULT_KEYS, TABLE, NoCards, State
from companion.core.store import EventStore
from companion.games import GAMES
from companion.table.replay import replay
from companion.table.window import UI_COMMANDS
from companion.table.session import Session
from companion.table.verdicts import decide, is_undo, state_digest
from toy_helpers import TOY, child_source, companion_command, every_game, registered

DATA = Path(__file__).parent / "data"
WITH_DEMO = [slug for slug, g in GAMES.items() if g.demo]


def test_every_game_has_a_recorded_session():
    assert WITH_DEMO == list(GAMES)


@pytest.fixture(scope="module", params=every_game(WITH_DEMO))
def played(request):
    """``(game, trace options, accepted inputs, final session)`` of the game's demo trace,
    replayed through the whole stack (emulated devices, no window); the toy game is
    registered while its tests run."""
    slug = request.param
    with registered() if slug == TOY else contextlib.nullcontext():
        runner = replay(DATA / GAMES[slug].demo, window=False)
        session = runner.session
        inputs = session.store.inputs(session.game_id)
        record = session.store.games()[0]
        yield slug, record.config, list(record.players), inputs, session


def fresh(slug, players, config, path=":memory:") -> Session:
    return Session.start(slug, players, EventStore(path), FakeClock(), resume=False, options=config, tap_off=0)


def states_along(slug, players, config, inputs):
    """Every ``(state, entry)`` the table passed through, from set-up to the end."""
    session = fresh(slug, players, config)
    seen = [(session.state, session.entry)]
    for item in inputs:
        verdict = session.handle(item)
        assert verdict.verdict == "accepted", f"{item}: {verdict}"
        seen.append((session.state, session.entry))
    return session, seen


# ---------------------------------------------------------------- the golden session

def test_the_demo_replays_to_its_golden_result_and_one_digest(played, tmp_path):
    slug, config, players, inputs, session = played
    golden = DATA / GAMES[slug].demo.replace(".trace", ".golden.json")
    result = session.result()
    assert result is not None, "the demo trace must play the game to its end"
    assert result.to_dict() == json.loads(golden.read_text())
    again = replay(DATA / GAMES[slug].demo, window=False).session
    assert state_digest(again.state) == state_digest(session.state)
    rebuilt, _ = states_along(slug, players, config, inputs)
    assert state_digest(rebuilt.state) == state_digest(session.state)


def test_the_state_and_result_have_the_contract_shape(played):
    slug, _, players, _, session = played
    state = session.state
    assert isinstance(state, State)
    assert state.players == tuple(players) and state.over and isinstance(state.turn, int)
    data = session.result().to_dict()
    assert tuple(data) == RESULT_KEYS and data["game"] == slug
    assert all(tuple(p) == PLAYER_KEYS for p in data["players"])
    assert set(data["winners"]) <= set(players)
    json.dumps(data)  # JSON-ready
    assert session.result().text().strip()
    assert session.rules.result(fresh(slug, players, session.store.games()[0].config).state) is None


def test_the_table_view_is_deterministic(played):
    slug, config, players, inputs, _ = played
    _, seen = states_along(slug, players, config, inputs[:40])
    rules = GAMES[slug].rules
    for state, _ in seen:
        assert state_digest(rules.public_view(state, TABLE)) == state_digest(rules.public_view(state, TABLE))


# ---------------------------------------------------------------- inputs, legal and not

def candidates(slug, state, entry, app) -> list:
    """What a table could do now: tap any button the screen shows (not the window's own
    menus), scan any card of the game, tilt the tray toward any seat or let it level,
    press Confirm. Undo is left out: it is always there and proves nothing."""
    from companion.ui.app import TableInfo

    desc = GAMES[slug]
    view = desc.rules.public_view(state, TABLE)
    app.show(lambda surface: desc.screen.draw_game(surface, view, TableInfo(entry=entry)))
    touches = []
    for b in app.buttons:
        words = b.command.split()
        if words and words[0] in UI_COMMANDS and not (words[0] in ("swap", "deck") and len(words) > 1):
            continue
        if not is_undo(Touch(b.command, 0.0)):
            touches.append(Touch(b.command, 0.0))
    out = touches + [TrayTilted(seat, 20.0, 0.0) for seat in range(1, 5)] + [TrayLevel(0.0), ButtonPressed("confirm", 0.0)]
    if desc.has_cards:
        out += [CardScanned(c.code, "scanner", 0.0) for c in desc.cards()]
    return out


def accepted(slug, state, entry, item) -> bool:
    try:
        decide(GAMES[slug], state, entry, item)
    except (BadScan, BadCommand, IllegalAction):
        return False
    return True


def test_from_every_state_the_table_reaches_some_input_is_accepted(played, app):
    slug, config, players, inputs, _ = played
    _, seen = states_along(slug, players, config, inputs)
    stuck = []
    for n, (state, entry) in enumerate(seen):
        if state.over:
            continue
        if not any(accepted(slug, state, entry, item) for item in candidates(slug, state, entry, app)):
            stuck.append((n, state.phase))
    assert not stuck, f"no input is accepted at {stuck[:5]}"


def noise(slug, rng: random.Random, players: int) -> list:
    """Random inputs, mostly wrong: garbled and foreign scans, unknown and broken commands,
    out-of-range numbers, tilts toward any seat, buttons."""
    desc = GAMES[slug]
    codes = [c.code for c in desc.cards()] if desc.has_cards else []
    other = [make_code(g.prefix, "A01") for g in GAMES.values() if g.slug != slug]
    words = ["done", "pass", "start", "column", "column 0", "column 99", "swap", "swap 9", "deck -1", "deck 9999",
             "cell", "cell 9 9", "cell 0 0", "palette Z", "palette R", "keep", "keep Q", "blast 7", "refill XYZ",
             "quick 5-6 R 30", "no-blasts", "vault 9", "give 9", "bid 6", "bid -1", "bid x", "grab", "bake",
             "xyzzy", "", "   ", "é ü", "cell -1 -1", "return 9 R R", "tilt"]
    out = []
    for _ in range(120):
        roll = rng.random()
        if roll < 0.3 and codes:
            out.append(CardScanned(rng.choice(codes), "scanner", 0.0, rng.choice([None, 1, players, players + 1])))
        elif roll < 0.4:
            out.append(CardScanned(rng.choice(["SR", "", "??????", "SRS17M", "X" * 40, None] + other), "scanner", 0.0))
        elif roll < 0.8:
            out.append(Touch(rng.choice(words), 0.0))
        elif roll < 0.9:
            out.append(TrayTilted(rng.randint(0, 6), rng.uniform(-40, 40), 0.0))
        else:
            out.append(rng.choice([TrayLevel(0.0), ButtonPressed("confirm", 0.0), ButtonPressed("other", 0.0)]))
    return out


def test_a_rejected_input_changes_nothing_and_stores_nothing(played):
    slug, config, players, inputs, _ = played
    rng = random.Random(f"contract-{slug}")
    session = fresh(slug, players, config)
    checkpoints = set(rng.sample(range(len(inputs)), min(12, len(inputs)))) | {0}
    for n, item in enumerate(inputs):
        if n in checkpoints:
            for bad in noise(slug, rng, len(players)):
                if accepted(slug, session.state, session.entry, bad):
                    continue  # a random input that happens to be legal here: not this test's business
                digest, entry = state_digest(session.state), session.entry
                stored = len(session.store.inputs(session.game_id))
                verdict = session.handle(bad)
                assert verdict.verdict in ("rejected", "ignored"), bad
                assert verdict.reason, f"{bad} was {verdict.verdict} without a reason"
                assert state_digest(session.state) == digest and session.entry == entry, bad
                assert len(session.store.inputs(session.game_id)) == stored
        assert session.handle(item).verdict == "accepted", item


def test_undo_then_the_same_input_again_is_the_same_game(played):
    slug, config, players, inputs, _ = played
    rng = random.Random(f"undo-{slug}")
    points = set(rng.sample(range(len(inputs) - 1), min(15, len(inputs) - 1)))
    session = fresh(slug, players, config)
    for n, item in enumerate(inputs):
        if n in points and not session.over:
            before = state_digest(session.state)
            session.handle(item)
            after = state_digest(session.state)
            v = session.handle(Touch("undo", item.t))
            if v.verdict == "rejected":  # only when the input showed hidden information
                assert "hidden" in v.reason
                continue
            assert state_digest(session.state) == before
            assert session.handle(item).verdict == "accepted"
            assert state_digest(session.state) == after
        else:
            assert session.handle(item).verdict == "accepted"
    assert session.over


def test_undo_reaches_the_input_that_ended_the_game_and_the_history_keeps_the_corrected_end(played, tmp_path):
    # A child taps Done too soon: Undo takes the end back (even one that showed every
    # hand), the game is unfinished again in the store (its result out of the history),
    # a restart resumes it there, and the corrected end is the only result kept.
    slug, config, players, inputs, session = played
    db = tmp_path / "table.db"
    table = fresh(slug, players, config, db)
    for item in inputs[:-1]:
        assert table.handle(item).verdict == "accepted"
    before = state_digest(table.state)
    assert table.handle(inputs[-1]).verdict == "accepted" and table.over
    assert table.store.games()[0].finished is not None
    assert table.undo_label()  # the final screen offers it
    v = table.handle(Touch("undo", inputs[-1].t + 1))
    assert v.verdict == "accepted", v.reason
    assert "not over" in v.message and not table.over
    assert state_digest(table.state) == before
    record = table.store.games()[0]
    assert record.finished is None and record.result is None
    history = companion("history", "--store", str(db))
    clean(history)
    assert "unfinished" in history.stdout and "won by" not in history.stdout
    table.store.close()
    resumed = Session.start(slug, [], EventStore(db), FakeClock(), tap_off=0)  # a power cut after the Undo
    assert not resumed.over and state_digest(resumed.state) == before
    assert resumed.handle(inputs[-1]).verdict == "accepted" and resumed.over
    games = resumed.store.games()
    assert len(games) == 1 and games[0].result == session.result().to_dict()


# ---------------------------------------------------------------- a power cut

CHILD = """
import json, sys
from companion.core.clock import FakeClock
from companion.core.events import input_from_dict
from companion.core.store import EventStore
from companion.table.session import Session
game, players, options, db = json.loads(sys.argv[1])
s = Session.start(game, players, EventStore(db), FakeClock(), options=options, tap_off=0)
for line in sys.stdin:
    v = s.handle(input_from_dict(json.loads(line)))
    print(v.verdict, v.seq, flush=True)
"""


def test_a_power_cut_loses_no_accepted_input(played, tmp_path):
    slug, config, players, inputs, _ = played
    db = tmp_path / "table.db"
    proc = subprocess.Popen([sys.executable, "-c", child_source(CHILD), json.dumps([slug, players, config, str(db)])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    kill_after = len(inputs) * 2 // 3
    proc.stdin.write("".join(json.dumps(input_to_dict(i)) + "\n" for i in inputs))
    proc.stdin.flush()
    confirmed = 0
    while confirmed < kill_after:
        line = proc.stdout.readline()
        assert line.startswith("accepted"), line
        confirmed += 1
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = EventStore(db)
    record = store.unfinished(slug)
    stored = store.inputs(record.id)
    assert len(stored) >= confirmed and stored == inputs[:len(stored)]
    resumed = Session.start(slug, [], store, FakeClock(), tap_off=0)
    expected, _ = states_along(slug, players, config, stored)
    assert state_digest(resumed.state) == state_digest(expected.state)
    for item in inputs[len(stored):]:  # and the game plays on to the same end
        assert resumed.handle(item).verdict == "accepted"
    assert resumed.result().to_dict() == expected_result(slug, config, players, inputs)


def expected_result(slug, config, players, inputs):
    session, _ = states_along(slug, players, config, inputs)
    return session.result().to_dict()


# ---------------------------------------------------------------- the commands

def companion(*args, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*companion_command(), *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, timeout=120)


def clean(proc, ok=(0,)):
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in ok, (proc.returncode, proc.stderr)
    if proc.returncode:
        assert proc.stderr.startswith("companion: ") and proc.stderr.count("\n") == 1, proc.stderr


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_cards_and_labels_answer_for_every_game(slug, tmp_path):
    desc = GAMES[slug]
    cards = companion("cards", slug, "--json")
    labels = companion("labels", slug, "--out", str(tmp_path / "l.pdf"))
    if desc.has_cards:
        clean(cards)
        listed = json.loads(cards.stdout)
        assert [c["code"] for c in listed] == [c.code for c in desc.cards()]
        assert all(c["code"].startswith(desc.prefix) for c in listed)
        clean(labels)
        assert (tmp_path / "l.pdf").stat().st_size > 1000
    else:
        with pytest.raises(NoCards):
            desc.cards()
        for proc in (cards, labels):
            clean(proc, ok=(2,))
            assert desc.name in proc.stderr and "no cards" in proc.stderr
        assert not (tmp_path / "l.pdf").exists()


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_score_answers_for_every_game(slug):
    desc = GAMES[slug]
    for text in ("", "Ana SR0000\n", "Ana: NOPE00\n", "\x00\x01binary"):
        clean(companion("score", slug, "-", stdin=text), ok=(2,))
    if desc.has_cards:
        codes = [c.code for c in desc.cards()]
        proc = companion("score", slug, "-", "--json", stdin=f"Ana: {codes[0]}\nBen: {codes[1]}\n")
        if proc.returncode == 0:
            assert tuple(json.loads(proc.stdout)) == RESULT_KEYS
        else:
            clean(proc, ok=(2,))  # e.g. a game that needs a whole hand says so


def test_history_and_replay_answer_for_every_game_finished_or_not(played, tmp_path):
    slug, config, players, inputs, session = played
    db = tmp_path / "table.db"
    finished = Session.start(slug, players, EventStore(db), FakeClock(), options=config, tap_off=0)
    for item in inputs:
        finished.handle(item)
    unfinished = Session.start(slug, players, EventStore(db), FakeClock(), options=config, tap_off=0, resume=False)
    for item in inputs[:len(inputs) // 2]:
        unfinished.handle(item)
    proc = companion("history", "--store", str(db))
    clean(proc)
    name = GAMES[slug].name
    lines = [line for line in proc.stdout.splitlines() if name in line]
    assert len(lines) == 2
    winners = session.result().winners
    assert any("unfinished" in line for line in lines)
    assert any((f"won by {' and '.join(winners)}" if winners else "nobody won") in line for line in lines)
    # a trace cut in half replays to a clear "no final scores", not a traceback
    trace = (DATA / GAMES[slug].demo).read_text().splitlines(keepends=True)
    half = tmp_path / "half.trace"
    half.write_text("".join(trace[:len(trace) // 2]))
    cut = companion("replay", str(half))
    clean(cut, ok=(2,))  # bad input (the trace has no end), not a device or store problem (1)
    assert "the trace ends before the game does" in cut.stderr
    clean(companion("replay", str(DATA / GAMES[slug].demo), "--json"))
