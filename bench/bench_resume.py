"""Resume a 300-input game in a fresh process, to the first drawn frame (issue 15).

    .venv/bin/python bench/bench_resume.py [--quick]

The store (a SQLite file in a temp dir) holds one unfinished Sugar Blast game of exactly
300 accepted inputs, all of them real play: a 4-player game to the "four twos" Goal Card
simulated by ``scripts/make_sugar_blast_trace.py`` (seed 1: swaps, Blast choices, tilts
toward the seats, refills tapped candy by candy), replayed through the whole stack
(``companion.table.replay``: emulated tray chip, real driver and detector) into a scratch
store, and its first 300 accepted inputs put through a real Session into the bench's
store. Beside it, the game's resume point (``companion.table.resume_point``) as the table
kept it when it was last idle, :data:`BEHIND` inputs before the stop (a burst of play,
then the power cut): the restart replays those 10. A second copy has no resume point (the
first start after an upgrade, whose point is another program's): it replays all 300.

- **Measured**: ``python -m firstframe run --game sugar-blast --store DB`` (the real
  ``companion run``, which resumes the unfinished game: open the store, replay 300
  inputs through flow and rules, open the 800x480 window, draw) from the moment before
  the process is spawned to ``FIRST-FRAME`` read back from its stdout.
- **Information**, the same way: the copy with no resume point.
- **Baseline**, the same way: a fresh process starting an empty game (a new store,
  ``--names`` and ``--goal four-twos``) to its first frame.

- **Cold start**, the same way: the start screen (``run`` with no game, no names and an
  empty store; ``firstframe --start-screen`` lets the dummy window count as a screen
  people see), and the resumed game above, each from spawn to its first frame.

Alternating, after one warm-up of each (page cache, and the bytecode written as an
installed package has it): at least 5 runs of each (``--quick`` 3), then more until the
ratio's bootstrap interval and the cold starts' p99 intervals are clear of their targets,
at most 10 (``--quick`` 4). The store is built outside the CPU quota at 1/8 of a core
(``benchlib.full_speed``): no table builds it. Targets: the median resume <=
1.5x the median empty start; at 1/8 of a core (``run.py --zero``), both cold starts
p99 <= 1.5 s (at full speed they are information).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import (ROOT, at_speed, bootstrap_ratio, full_speed, judge, main, med, pct,  # noqa: E402
                      quantile_verdict, row)

INPUTS = 300
BEHIND = 10  # the resume point was kept this many inputs before the stop
PLAYERS = ["Mum", "Dad", "Leo", "Maya"]
GOAL = "four-twos"
TARGET_RATIO = 1.5
COLD_START_MS = 1500.0  # issue 24: exec to the first frame at 1/8 of a core (a Zero 2 W)


def build_store(db: Path, tmp: str) -> str:
    """Write the unfinished 300-input game to ``db``, and its resume point beside it as
    the table keeps it (``DB.resume``), :data:`BEHIND` inputs before the last; returns
    the game's state digest."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_sugar_blast_trace as sim
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.replay import replay
    from companion.table.session import Session
    from companion.table.verdicts import state_digest

    sim.PLAYERS, sim.GOAL = PLAYERS, GOAL
    table = sim.simulate(1)
    trace = Path(tmp) / "long.trace"
    header = {"trace": 1, "game": "sugar-blast", "players": PLAYERS, "options": {"goal": GOAL}}
    trace.write_text("\n".join([json.dumps(header)] + [json.dumps(line) for line in table.lines]) + "\n")
    scratch = Path(tmp) / "scratch.db"
    replay(trace, store=str(scratch), window=False)
    source = EventStore(str(scratch))
    game = source.games()[-1]
    inputs = source.inputs(game.id)
    source.close()
    if len(inputs) <= INPUTS:
        raise SystemExit(f"the simulated game has only {len(inputs)} inputs")
    clock = FakeClock(0.0)
    store = EventStore(str(db))
    session = Session.start("sugar-blast", PLAYERS, store, clock, resume=False, options={"goal": GOAL})
    for n, item in enumerate(inputs[:INPUTS]):
        if n == INPUTS - BEHIND and not session.keep_resume_point():
            raise SystemExit(f"no resume point could be kept beside {db}")
        clock.set(item.t)
        verdict = session.handle(item)
        if verdict is None or verdict.verdict != "accepted":
            raise SystemExit(f"input {item} was not accepted on the second pass")
    record = store.unfinished("sugar-blast")
    assert record is not None and record.inputs == INPUTS, record
    digest = state_digest(session.state)
    store.close()
    return digest


def copy_store(db: Path, to: Path, point: bool = True) -> Path:
    """Copy the store ``db`` to ``to``, with its resume point (``point``) or none."""
    import shutil

    shutil.copy(db, to)
    if point:
        shutil.copy(Path(f"{db}.resume"), Path(f"{to}.resume"))
    return to


def cache_home(pycache: str) -> str:
    """The ``XDG_CACHE_HOME`` of the children timed with bytecode in ``pycache``: their
    own, not this machine's user's (which other runs and tests write to)."""
    return str(Path(pycache).with_name(Path(pycache).name + "-xdg"))


def child_env(pycache: str | None = None) -> dict[str, str]:
    """The environment of a ``python -m firstframe`` child (timed here, counted by
    bench_instructions.py): headless SDL, the bench folder and the project importable.

    The child keeps its compiled bytecode in ``pycache`` (``PYTHONPYCACHEPREFIX``) and may
    write it there, as an installed package has it (pip compiles it at install): an
    environment with ``PYTHONDONTWRITEBYTECODE`` would otherwise time compiling every
    module from source on each start. Its compiled dataclass methods
    (:mod:`companion.core.codecache`) go beside it (:func:`cache_home`), as a table keeps
    them after its first start."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if pycache:
        env["PYTHONPYCACHEPREFIX"] = pycache
        env["XDG_CACHE_HOME"] = cache_home(pycache)
    return env


def table_python(pycache: str) -> str:
    """The interpreter of the children timed with bytecode in ``pycache``: a venv (beside
    it, made once) as ``hardware/install.sh`` makes one on the Pi, of this Python, whose
    site-packages sees the libraries this bench's Python has (pygame-ce and the rest, as
    the Pi's venv sees Debian's with ``--system-site-packages``), and setuptools'
    ``distutils-precedence.pth`` when they have it (a venv on Pi OS does). The program is
    a plain package on the path (:func:`child_env`), as the wheel install.sh installs.

    Not this checkout's own venv: its editable install of the program adds a ``.pth``
    finder that imports ``pathlib``, ``re`` and ``urllib`` at every start (18 M
    instructions, about 0.2 s at 1/8 of a core) that no installed table has."""
    venv = Path(pycache).with_name(Path(pycache).name + "-venv")
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        site = next((venv / "lib").glob("python*/site-packages"))
        libraries = [p for p in sys.path if p.endswith("-packages") and Path(p).is_dir()]
        # (named to be read before setuptools' hook, which imports from them)
        (site / "00-table-libraries.pth").write_text("".join(f"{p}\n" for p in libraries))
        for hook in libraries[:1]:
            if (Path(hook) / "distutils-precedence.pth").exists():
                (site / "distutils-precedence.pth").write_text((Path(hook) / "distutils-precedence.pth").read_text())
    return str(python)


def first_frame(args: list[str], pycache: str | None = None, replayed: list | None = None) -> float:
    """Milliseconds from spawning ``python -m firstframe ARGS`` to its FIRST-FRAME line,
    in :func:`child_env`, by :func:`table_python` (with a ``pycache``). With ``replayed``
    (and ``--log-format json``), the JSON start line's ``replayed_inputs`` (how many
    stored inputs the start replayed: not those its resume point gave) is appended."""
    env = child_env(pycache)
    python = table_python(pycache) if pycache else sys.executable
    t0 = time.perf_counter()
    proc = subprocess.Popen([python, "-m", "firstframe", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True)
    for line in proc.stdout:
        if line.strip() == "FIRST-FRAME":
            t1 = time.perf_counter()
            break
        if replayed is not None and line.startswith('{"event": "start"'):
            replayed.append(json.loads(line).get("replayed_inputs"))
    else:
        proc.wait()
        raise SystemExit(f"no first frame from {args}: {proc.stderr.read()[-400:]}")
    proc.wait()
    return (t1 - t0) * 1000


def rows(quick: bool = False) -> list[dict]:
    limit = at_speed(None, COLD_START_MS)
    # At least `least` runs of each, then more until every verdict is clear, at most `most`.
    least, most = (3, 4) if quick else (5, 10)
    with tempfile.TemporaryDirectory(prefix="bench-resume-") as tmp:
        db = Path(tmp) / "resume.db"
        with full_speed():  # the recorded game's store: no table builds it
            build_store(db, tmp)
            whole = copy_store(db, Path(tmp) / "no-point.db", point=False)
        pyc = str(Path(tmp) / "pycache")
        resume_ms, empty_ms, start_ms, whole_ms = [], [], [], []
        replayed: dict[str, list] = {"point": [], "none": []}
        i = 0
        while True:
            empty_db = Path(tmp) / f"empty-{i}.db"
            e = first_frame(["run", "--game", "sugar-blast", "--store", str(empty_db), "--names", ",".join(PLAYERS),
                             "--goal", GOAL, "--log-format", "json"], pyc)
            r = first_frame(["run", "--game", "sugar-blast", "--store", str(db), "--log-format", "json"], pyc,
                            replayed["point"])
            s = first_frame(["--start-screen", "run", "--store", str(Path(tmp) / f"start-{i}.db"),
                             "--log-format", "json"], pyc)
            w = first_frame(["run", "--game", "sugar-blast", "--store", str(whole), "--log-format", "json"], pyc,
                            replayed["none"])
            if i:  # the first of each warms the page cache and writes the bytecode
                empty_ms.append(e)
                resume_ms.append(r)
                start_ms.append(s)
                whole_ms.append(w)
            i += 1
            if len(resume_ms) >= least:
                with full_speed():
                    interval = bootstrap_ratio(resume_ms, empty_ms, seed=24)
                unsure = [judge(*interval, TARGET_RATIO)[1]]
                if limit is not None:
                    unsure += [quantile_verdict(ms, limit)["unsure"] for ms in (start_ms, resume_ms)]
                if not any(unsure) or len(resume_ms) >= most:
                    break
    ratio = med(resume_ms) / med(empty_ms)
    target = f"<= {COLD_START_MS / 1000:g} s at 1/8 core" if limit is None else f"p99 <= {COLD_START_MS / 1000:g} s"

    def cold(ms: list[float], what: str, ok: bool = True, why: str = "") -> dict:
        v = {"ok": None} if limit is None else quantile_verdict(ms, limit)
        if not ok:
            v = {"ok": False}
        return row(f"fresh process to the first frame: {what}", target, median=med(ms), p99=pct(ms, 99), n=len(ms),
                   **v, note=f"{len(ms)} runs; spawn to FIRST-FRAME read back; max {max(ms):.0f} ms{why}")
    # each resumed run says how many inputs it replayed: the point's 10, or all 300
    from_point = set(replayed["point"]) == {BEHIND}
    whole_replay = set(replayed["none"]) == {INPUTS}
    ok, unsure = judge(*interval, TARGET_RATIO)
    return [row(f"resume a {INPUTS}-input game, fresh process to first frame", f"<= {TARGET_RATIO:g}x empty start",
                median=med(resume_ms), p99=pct(resume_ms, 99), baseline=med(empty_ms),
                baseline_name="empty game, same way", ratio=ratio, ok=ok, unsure=unsure, interval=interval,
                interval_of="ratio of medians", rounds=len(resume_ms), n=len(resume_ms),
                note=f"{len(resume_ms)} runs each, alternating; Sugar Blast, 4 players, goal {GOAL}; "
                     f"empty start p99 {pct(empty_ms, 99):.0f} ms"),
            cold(start_ms, "the start screen (run, no game, empty store)"),
            cold(resume_ms, f"a resumed {INPUTS}-input game (resume point {BEHIND} inputs behind)", from_point,
                 f"; replayed {sorted(set(replayed['point']), key=str)} inputs (its point's {BEHIND})"),
            row(f"fresh process to the first frame: a resumed {INPUTS}-input game, no resume point",
                "information (the first start after an upgrade)", median=med(whole_ms), p99=pct(whole_ms, 99),
                n=len(whole_ms), ok=None if whole_replay else False,
                note=f"{len(whole_ms)} runs; replayed {sorted(set(replayed['none']), key=str)} inputs (all {INPUTS}); "
                     f"max {max(whole_ms):.0f} ms")]


if __name__ == "__main__":
    sys.exit(main(rows, "resume"))
