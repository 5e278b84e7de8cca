"""Power cut: the real ``companion run`` is killed (SIGKILL) in the middle of a game and
started again. Every input it reported as accepted is still in the store, in order, and
the rebuilt state is the state it had before the kill. SIGTERM stops it cleanly.

The inputs are the first records of the recorded family game (tests/data), typed into
``companion run --headless --simulate --log-format json`` as a person would: a code is a
scan, ``/done`` and ``/column 2`` are touches. Every read from the child has a timeout.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.games import find_game
from companion.table.session import Session
from companion.table.verdicts import decide, state_digest
from companion.table.trace import read

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "tests" / "data" / "sugarrr-family.trace"
COMPANION = Path(sys.executable).parent / "companion"
NAMES = ["Mum", "Dad", "Maya", "Leo"]
RECORDS = 60        # how much of the recorded game the tests use
KILL_AFTER = 43     # inputs confirmed before the power cut: mid-turn, cards on a column, Done not tapped
TIMEOUT = 15.0      # seconds any one read from the child may take before the test fails

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals and ptys: POSIX only")


# ---------------------------------------------------------------- the recorded inputs

def trace_lines(records: int = RECORDS) -> list[str]:
    """What a person would type for the first ``records`` trace records: scanner bytes
    become the code (a chunk without a terminator is the first half of a split scan and is
    joined to the next), touches become ``/command``."""
    lines, pending = [], ""
    for record in read(TRACE).records[:records]:
        if record.kind == "touch":
            lines.append("/" + record.command)
            continue
        text = pending + record.data.decode("latin-1")
        if not text.endswith(("\r", "\n")):
            pending = text
            continue
        pending = ""
        code = text.strip("\r\n")
        if code:
            lines.append(code)
    return lines


def scanned(line: dict) -> str | None:
    """What the reader sent, from a scan's log line: ``raw`` when the session cleaned it up
    or could not read it as a code, else ``code``."""
    return line["raw"] if "raw" in line else line["code"]


def input_from_log(line: dict):
    """The stored input behind one JSON log line of ``companion run``."""
    if line["event"] == "scan":
        return CardScanned(scanned(line), line["reader"], line["t"])
    if line["event"] == "touch":
        return Touch(line["command"], line["t"])
    raise AssertionError(f"not an input line: {line}")


def label(item) -> str:
    """The typed form of an input (its code, or ``/command``): what identifies it apart from time."""
    return item.code if isinstance(item, CardScanned) else "/" + item.command


def expected_session(inputs) -> Session:
    """The same game built in this process from ``inputs`` (all must be accepted)."""
    session = Session.start("sugarrr", NAMES, EventStore(":memory:"), FakeClock(), tap_off=0)
    for item in inputs:
        verdict = session.handle(item)
        assert verdict.verdict == "accepted", f"{item} was accepted by the killed process but not here: {verdict}"
    return session


def legal(state, typed: str) -> bool:
    """Would the rules accept this typed line now? (pure: changes nothing)"""
    item = Touch(typed[1:], 0.0) if typed.startswith("/") else CardScanned(typed.upper(), "keyboard", 0.0)
    try:
        decide(find_game("sugarrr"), state, None, item)
    except (BadScan, BadCommand, IllegalAction):
        return False
    return True


def stored(path: Path):
    """``(game record, inputs)`` of the unfinished game in the store file, opened afresh."""
    store = EventStore(path)
    try:
        record = store.unfinished("sugarrr")
        assert record is not None, f"no unfinished game in {path}: {store.games()}"
        return record, store.inputs(record.id)
    finally:
        store.close()


# ---------------------------------------------------------------- the child process

class Companion:
    """``companion run`` in a child process, fed line by line; stdout read by a thread so
    that no read can hang the test."""

    def __init__(self, store: Path, tmp: Path):
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        self._stderr = open(tmp / f"stderr-{id(self)}.txt", "w+")
        self.proc = subprocess.Popen(
            [str(COMPANION), "run", "--game", "sugarrr", "--names", ",".join(NAMES), "--headless", "--simulate",
             "--log-format", "json", "--store", str(store), "--tap-off", "0"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env, text=True, bufsize=1)
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)  # end of output

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()

    def next_json(self, timeout: float = TIMEOUT) -> dict:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"companion printed nothing for {timeout} s; stderr:\n{self.stderr()}")
        if line is None:
            pytest.fail(f"companion stopped early (status {self.proc.poll()}); stderr:\n{self.stderr()}")
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            pytest.fail(f"companion printed a line that is not JSON: {line!r}")

    def start_line(self) -> dict:
        line = self.next_json()
        assert line["event"] == "start", line
        return line

    def write(self, typed: str) -> None:
        self.proc.stdin.write(typed + "\n")
        self.proc.stdin.flush()

    def send(self, typed: str) -> dict:
        """Type one line and return its verdict line (outcome lines are skipped)."""
        self.write(typed)
        while True:
            line = self.next_json()
            if "verdict" in line:
                expected = typed.upper() if not typed.startswith("/") else typed[1:]
                got = scanned(line) if line["event"] == "scan" else line.get("command")
                assert got == expected, f"verdict for {got!r} while waiting for {typed!r}"
                return line

    def rest(self, timeout: float = TIMEOUT) -> list[dict]:
        """Every line until the end of output."""
        lines = []
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                pytest.fail(f"companion did not finish its output within {timeout} s")
            if line is None:
                return lines
            lines.append(json.loads(line))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        self._stderr.close()


@pytest.fixture
def run_companion(tmp_path):
    started: list[Companion] = []

    def start(store: Path) -> Companion:
        child = Companion(store, tmp_path)
        started.append(child)
        return child

    yield start
    for child in started:  # never leave a child running, whatever failed
        child.close()


def power_cut(child: Companion) -> None:
    child.proc.send_signal(signal.SIGKILL)
    assert child.proc.wait(timeout=TIMEOUT) == -signal.SIGKILL


def feed(child: Companion, lines: list[str]) -> list:
    """Type each line, wait for its verdict; the inputs reported accepted, in order, checking
    that their seq numbers follow on."""
    accepted = []
    for typed in lines:
        verdict = child.send(typed)
        if verdict["verdict"] == "accepted":
            accepted.append(input_from_log(verdict))
            assert verdict["seq"] == len(accepted), verdict
    return accepted


# ---------------------------------------------------------------- tests

def test_trace_inputs_are_a_real_mix():
    lines = trace_lines()
    assert len(lines) > KILL_AFTER + 5
    assert any(line.startswith("/column") for line in lines[:KILL_AFTER])
    assert any(line == "/done" for line in lines[:KILL_AFTER])


def test_sigkill_mid_game_loses_nothing_and_resumes(tmp_path, run_companion):
    db = tmp_path / "table.db"
    lines = trace_lines()
    before, after = lines[:KILL_AFTER], lines[KILL_AFTER:]

    child = run_companion(db)
    assert child.start_line()["resumed_inputs"] == 0
    accepted = feed(child, before)
    assert 10 < len(accepted) < len(before), "the trace should give both accepted and rejected inputs"
    power_cut(child)

    expected = expected_session(accepted)
    assert expected.state.phase == "playing" and expected.state.played, "the power cut should come mid-turn"
    digest = state_digest(expected.state)

    # (a) the store file holds exactly the accepted inputs, in order
    record, inputs = stored(db)
    assert list(record.players) == NAMES
    assert record.inputs == len(accepted)
    assert inputs == accepted

    # (b) resuming from the file rebuilds the same state
    store = EventStore(db)
    try:
        resumed = Session.start("sugarrr", NAMES, store, FakeClock(), tap_off=0)
        assert resumed.game_id == record.id
        assert resumed.resumed_inputs == len(accepted)
        assert state_digest(resumed.state) == digest
        assert resumed.state == expected.state
    finally:
        store.close()

    # (c) the real CLI resumes the game and carries on numbering
    child = run_companion(db)
    start = child.start_line()
    assert start["game_id"] == record.id
    assert start["resumed_inputs"] == len(accepted)
    nxt = next(line for line in after if legal(expected.state, line))
    verdict = child.send(nxt)
    assert verdict["verdict"] == "accepted", verdict
    assert verdict["seq"] == len(accepted) + 1
    child.proc.stdin.close()
    assert child.proc.wait(timeout=TIMEOUT) == 0, child.stderr()
    assert child.rest()[-1]["event"] == "stop"

    _, inputs = stored(db)
    assert inputs == accepted + [input_from_log(verdict)]


def test_sigkill_with_inputs_in_flight_keeps_an_ordered_prefix(tmp_path, run_companion):
    """Killed while several typed inputs are still being handled: the store holds every
    confirmed input and then some leading part of the in-flight ones that the rules accept,
    in order: nothing half-written, nothing skipped, and it still replays."""
    db = tmp_path / "table.db"
    lines = trace_lines()
    child = run_companion(db)
    child.start_line()
    confirmed = feed(child, lines[:KILL_AFTER - 10])
    in_flight = lines[KILL_AFTER - 10:KILL_AFTER]
    child.proc.stdin.write("".join(typed + "\n" for typed in in_flight))
    child.proc.stdin.flush()
    power_cut(child)

    state = expected_session(confirmed).state
    would_accept = []
    for typed in in_flight:  # the verdicts the child would have given, in order (tap-off 0)
        if legal(state, typed):
            item = Touch(typed[1:], 0.0) if typed.startswith("/") else CardScanned(typed.upper(), "keyboard", 0.0)
            state, _, _, _ = decide(find_game("sugarrr"), state, None, item)
            would_accept.append(typed.upper() if not typed.startswith("/") else typed)
    assert would_accept, "the in-flight lines should include accepted inputs"

    _, inputs = stored(db)
    assert inputs[:len(confirmed)] == confirmed
    extra = [label(item) for item in inputs[len(confirmed):]]
    assert extra == would_accept[:len(extra)]

    store = EventStore(db)
    try:
        resumed = Session.start("sugarrr", NAMES, store, FakeClock(), tap_off=0)
        assert resumed.resumed_inputs == len(inputs)
        assert state_digest(resumed.state) == state_digest(expected_session(inputs).state)
    finally:
        store.close()


def test_sigterm_stops_cleanly_and_keeps_every_input(tmp_path, run_companion):
    db = tmp_path / "table.db"
    child = run_companion(db)
    child.start_line()
    accepted = feed(child, trace_lines()[:12])
    assert accepted
    child.proc.send_signal(signal.SIGTERM)
    try:
        status = child.proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        pytest.fail("companion did not stop within 5 s of SIGTERM")
    assert status == 0, child.stderr()
    assert child.rest()[-1] == {"event": "stop", "game_id": 1}

    _, inputs = stored(db)
    assert inputs == accepted


CUTS_AFTER_TOUCH = (7, 66, 93)  # trace lines typed before each cut: the last is /column 4, /swap 2, /swap 3


def test_a_touch_repeated_after_each_resume_is_asked_about_not_doubled(tmp_path, run_companion):
    """Power cuts right after a touch was saved (its verdict unseen): each restart says
    what the last saved input was and did (start line, JSON), and the family repeating
    that touch is asked first instead of it counting twice. Over three cuts the store
    holds each typed input once: no doubled input, the same state as an uncut game."""
    db = tmp_path / "table.db"
    lines = trace_lines(200)[:CUTS_AFTER_TOUCH[-1]]
    accepted: list = []
    typed_so_far = 0
    child = run_companion(db)
    child.start_line()
    for cut in CUTS_AFTER_TOUCH:
        accepted += feed_from(child, lines[typed_so_far:cut], len(accepted))
        typed_so_far = cut
        last = lines[cut - 1]
        assert last.startswith("/") and label(accepted[-1]) == last, "the cut should come right after a touch"
        power_cut(child)
        state_before = expected_session(accepted).state
        assert legal(state_before, last), f"repeating {last} would count again without the question"

        child = run_companion(db)
        start = child.start_line()
        assert start["resumed_inputs"] == len(accepted)
        said = start["last_input"]
        assert said["seq"] == len(accepted) and said["event"] == "touch" and said["command"] == last[1:]
        assert said["said"], "the start line says what the last saved input did"

        verdict = child.send(last)  # the family did not see it count, and does it again
        assert verdict["verdict"] == "rejected", verdict
        assert "same as the last thing saved before the restart" in verdict["reason"]
        _, inputs = stored(db)
        assert inputs == accepted, "the repeated touch was stored"
    power_cut(child)
    _, inputs = stored(db)
    assert [label(i) for i in inputs] == [label(i) for i in accepted]
    assert state_digest(expected_session(inputs).state) == state_digest(
        expected_session(accepted).state)


def test_a_repeat_asked_about_counts_when_done_once_more(tmp_path):
    """After the question, the same touch again counts (the family meant it); and any
    other input first ends the asking."""
    from companion.table.session import Session

    db = tmp_path / "table.db"
    lines = trace_lines(200)[:66]
    store = EventStore(db)
    session = Session.start("sugarrr", NAMES, store, FakeClock(), tap_off=0)
    for typed in lines:
        session.handle(Touch(typed[1:], 0.0) if typed.startswith("/") else CardScanned(typed.upper(), "k", 0.0))
    n = len(store.inputs(session.game_id))
    store.close()

    store = EventStore(db)
    clock = FakeClock(100.0)
    resumed = Session.start("sugarrr", NAMES, store, clock, tap_off=0)
    assert resumed.last_saved["command"] == "swap 2"
    assert "The last thing saved: a tap (" in resumed.last_message and "swap 2" not in resumed.last_message
    first = resumed.handle(Touch("swap 2", 101.0))
    assert first.verdict == "rejected" and len(store.inputs(resumed.game_id)) == n
    again = resumed.handle(Touch("swap 2", 102.0))
    assert again.verdict == "accepted" and len(store.inputs(resumed.game_id)) == n + 1
    store.close()


def test_no_question_long_after_the_resume(tmp_path):
    from companion.table.repeat_guard import REPEAT_WINDOW
    from companion.table.session import Session

    db = tmp_path / "table.db"
    store = EventStore(db)
    session = Session.start("sugarrr", NAMES, store, FakeClock(), tap_off=0)
    for typed in trace_lines(200)[:66]:
        session.handle(Touch(typed[1:], 0.0) if typed.startswith("/") else CardScanned(typed.upper(), "k", 0.0))
    store.close()
    store = EventStore(db)
    resumed = Session.start("sugarrr", NAMES, store, FakeClock(100.0), tap_off=0)
    assert resumed.handle(Touch("swap 2", 100.0 + REPEAT_WINDOW + 1)).verdict == "accepted"
    store.close()


def feed_from(child: Companion, lines: list[str], already: int) -> list:
    """:func:`feed` for a resumed game whose numbering goes on from ``already``."""
    accepted = []
    for typed in lines:
        verdict = child.send(typed)
        if verdict["verdict"] == "accepted":
            accepted.append(input_from_log(verdict))
            assert verdict["seq"] == already + len(accepted), verdict
    return accepted


def test_an_undo_repeated_after_a_resume_is_asked_about_too(tmp_path):
    """The last saved input was an Undo (the screen's); the GPIO Undo button right after
    the restart would take back one more: it asks first."""
    from companion.core.events import ButtonPressed

    db = tmp_path / "table.db"
    store = EventStore(db)
    session = Session.start("sugarrr", NAMES, store, FakeClock(), tap_off=0)
    for typed in trace_lines(200)[:12]:
        session.handle(Touch(typed[1:], 0.0) if typed.startswith("/") else CardScanned(typed.upper(), "k", 0.0))
    assert session.handle(Touch("undo", 1.0)).verdict == "accepted"
    n = len(store.inputs(session.game_id))
    store.close()
    store = EventStore(db)
    resumed = Session.start("sugarrr", NAMES, store, FakeClock(50.0), tap_off=0)
    assert resumed.last_saved["command"] == "undo" and resumed.last_saved["said"].startswith("Undone")
    first = resumed.handle(ButtonPressed("undo", 51.0))
    assert first.verdict == "rejected" and "Undo" in first.reason and len(store.inputs(resumed.game_id)) == n
    assert resumed.handle(ButtonPressed("undo", 52.0)).verdict == "accepted"
    store.close()
