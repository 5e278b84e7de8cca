"""Time to rebuild a 300-input game from the store, as a ratio against reading its inputs.

    .venv/bin/python bench/bench_rebuild.py [--inputs 300] [--repeat 20]

The store (a SQLite file in a temp dir, as at the table) holds one unfinished Sugarrr!
game of exactly ``--inputs`` accepted inputs: every accepted input of the recorded family
game up to the last turn start before the Final Round (about 170), then players stalling
legally, tapping a column and then Swap 1 (each Swap ends a turn), until the count is
reached. Every input is put through a real Session, so all of them are accepted inputs.

Baseline: ``EventStore.inputs(game_id)`` on the open store (read and decode the inputs).
Measured: ``Session.start`` on a freshly opened ``EventStore`` of the same file: open,
find the unfinished game, read its inputs, replay them all through flow and rules.
Both are repeated ``--repeat`` times, alternately; medians and their ratio are printed.
No timing is asserted: the script exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.table import Session, state_digest
from companion.trace import read

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "tests" / "data" / "sugarrr-family.trace"
GAME = "sugarrr"


def trace_inputs(path: Path):
    """The trace's inputs in order (split reads joined), with their times."""
    trace = read(path)
    out, pending = [], b""
    for record in trace.records:
        if record.kind == "touch":
            out.append(Touch(record.command, record.t))
            continue
        data = pending + record.data
        if not data.endswith((b"\r", b"\n")):
            pending = data
            continue
        pending = b""
        code = data.strip(b"\r\n").decode("latin-1")
        if code:
            out.append(CardScanned(code, record.device, record.t))
    return trace, out


def build_store(db: Path, target: int) -> tuple[int, str, int]:
    """Write an unfinished game of exactly ``target`` accepted inputs to ``db``.
    Returns ``(game_id, state digest, how many inputs came from the trace)``."""
    trace, inputs = trace_inputs(TRACE)
    players = list(trace.players)

    # Dry run in memory: the longest run of the trace's accepted inputs that ends at the
    # start of a turn (phase "turn", nothing chosen) before the Final Round begins.
    probe = Session.start(GAME, players, EventStore(":memory:"), FakeClock(), resume=False)
    cut, accepted = 0, 0
    for n, item in enumerate(inputs, 1):
        probe.clock.set(item.t)
        if probe.handle(item).verdict != "accepted":
            continue
        accepted += 1
        state = probe.state
        if state.final_round or accepted > target:
            break
        if state.phase == "turn" and state.chosen is None:
            cut = n
    if cut == 0:
        raise SystemExit("the trace has no turn start to cut at")

    clock = FakeClock(0.0)
    store = EventStore(db)
    session = Session.start(GAME, players, store, clock, resume=False)
    for item in inputs[:cut]:
        clock.set(item.t)
        session.handle(item)
    from_trace = len(store.inputs(session.game_id))
    t, column = clock.now(), 0
    while len(store.inputs(session.game_id)) < target:
        t += 1.5
        clock.set(t)
        left = target - len(store.inputs(session.game_id))
        if session.state.chosen is None or left == 1:
            item = Touch(f"column {column % 5 + 1}", t)
            column += 1
        else:
            item = Touch("swap 1", t)
        verdict = session.handle(item)
        if verdict.verdict != "accepted":
            raise SystemExit(f"padding input {item} was not accepted: {verdict.reason}")
    record = store.unfinished(GAME)
    assert record is not None and record.id == session.game_id and record.inputs == target, record
    digest = state_digest(session.state)
    store.close()
    return session.game_id, digest, from_trace


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=300, help="accepted inputs in the stored game")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-rebuild-") as tmp:
        db = Path(tmp) / "table.db"
        game_id, digest, from_trace = build_store(db, args.inputs)
        reader = EventStore(db)
        base_ms, meas_ms = [], []
        for i in range(args.repeat + 1):  # the first round warms up imports and page cache
            t0 = time.perf_counter()
            items = reader.inputs(game_id)
            t1 = time.perf_counter()
            assert len(items) == args.inputs

            t2 = time.perf_counter()
            store = EventStore(db)
            session = Session.start(GAME, [], store, FakeClock())  # no names: resume what is unfinished
            t3 = time.perf_counter()
            assert session.game_id == game_id and session.resumed_inputs == args.inputs
            assert state_digest(session.state) == digest, "the rebuilt state differs from the stored game's"
            store.close()
            if i:
                base_ms.append((t1 - t0) * 1000)
                meas_ms.append((t3 - t2) * 1000)
        reader.close()

    b_med, m_med = statistics.median(base_ms), statistics.median(meas_ms)
    print(f"rebuild: an unfinished game of {args.inputs} stored inputs ({from_trace} from {TRACE.name}, "
          f"{args.inputs - from_trace} column/swap taps), {args.repeat} runs each, on-disk store")
    print(f"  baseline  EventStore.inputs (read + decode):           median {b_med:8.3f} ms   "
          f"min {min(base_ms):8.3f}   max {max(base_ms):8.3f}")
    print(f"  measured  Session.start (open + read + replay rules):  median {m_med:8.3f} ms   "
          f"min {min(meas_ms):8.3f}   max {max(meas_ms):8.3f}")
    print(f"  ratio measured/baseline:  median {m_med / b_med:5.1f}x")
    print(f"  (info) measured median = {m_med / 1000:.4f} of one second; per input {m_med / args.inputs * 1000:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
