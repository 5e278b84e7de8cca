"""Generate the bundled Sugar Blast table session (tests/data/sugar-blast-family.trace).

A seeded simulation of a family playing with a real bag of candies: the board is filled
from the bag (no 3 in a row, as the rulebook asks) and tapped into the screen candy by
candy; each turn a player taps two candies to swap, chooses the Blast to solve and the
candies to keep, tilts the tray toward themselves and lets go (accelerometer samples at
100 Hz around each tilt only: the replay holds the last sample, so level samples close
each tilt), then taps in the candies drawn from the bag. Table mistakes are mixed in: a
swap that makes no Blast, and a tilt toward the wrong seat.

    python scripts/make_sugar_blast_trace.py [--seed N] [--out FILE]

Writes the trace and, beside it, ``sugar-blast-family.golden.json`` (the result the
simulation reached by the rules alone). Re-run only on purpose: tests replay the trace
through the emulated chip, the real driver and detector, and compare with the golden.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.core.errors import IllegalAction  # noqa: E402
from companion.core.events import Touch, TrayLevel, TrayTilted  # noqa: E402
from companion.games.sugar_blast.parts import board as B  # noqa: E402
from companion.games.sugar_blast import flow, rules  # noqa: E402
from companion.devices.tray import EmulatedTray  # noqa: E402

PLAYERS = ["Mum", "Leo", "Maya"]
GOAL = "five-different"
RATE_HZ = 100


class Table:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.t = 0.0
        self.lines: list[dict] = []
        self.state = rules.new_game(PLAYERS, GOAL)
        self.entry = flow.new_entry()
        self.stats = {"refills": 0, "cascades": 0, "tilt_seats": set(), "rejected": []}

    # ------------------------------------------------------------ emitting
    def wait(self, lo: float, hi: float) -> None:
        self.t = round(self.t + self.rng.uniform(lo, hi), 3)

    def feed(self, item, expect: bool = True) -> list:
        try:
            entry, action, said = flow.read(self.state, self.entry, item)
            events = []
            if action is not None:
                self.state, events = rules.step(self.state, action)
            self.entry = entry
        except IllegalAction as err:
            if expect:
                raise SystemExit(f"simulation error at t={self.t}: {item} was refused: {err.message}")
            self.stats["rejected"].append(err.message)
            return []
        if not expect:
            raise SystemExit(f"simulation error at t={self.t}: {item} was meant to be refused")
        if isinstance(action, rules.Refill):
            self.stats["refills"] += 1
            if self.state.phase in (rules.KEEP, rules.CHOOSE):
                self.stats["cascades"] += 1
        return events

    def touch(self, command: str, expect: bool = True, lo: float = 0.6, hi: float = 2.0) -> None:
        self.wait(lo, hi)
        self.lines.append({"t": self.t, "touch": command})
        self.feed(Touch(command, self.t), expect)

    def tilt(self, seat: int, expect: bool = True) -> None:
        """Samples of the tray tilted toward ``seat`` and let go (sensor taped flat, X
        toward seat 1, as :class:`companion.devices.tray.EmulatedTray`); the detector reports
        the tilt during the hold and level after it."""
        self.wait(1.0, 2.5)
        angle = self.rng.uniform(20.0, 30.0)
        d = EmulatedTray.DIRECTIONS[seat]
        phases = [(0.35, 0.0, 0.0), (0.1, 0.0, 1.0), (0.5, 1.0, 1.0), (0.1, 1.0, 0.0), (0.45, 0.0, 0.0)]
        start = self.t
        for length, a0, a1 in phases:
            n = round(length * RATE_HZ)
            for i in range(n):
                a = math.radians(angle * (a0 + (a1 - a0) * i / n))
                g = [d[k] * math.sin(a) for k in range(2)] + [math.cos(a)]
                self.lines.append({"t": round(self.t, 3), "device": "tray", "g": [round(v, 3) for v in g]})
                self.t += 1 / RATE_HZ
        self.t = round(self.t, 3)
        self.feed(TrayTilted(seat, angle, start + 0.8), expect)
        self.feed(TrayLevel(self.t), expect)
        if expect:
            self.stats["tilt_seats"].add(seat)

    # ------------------------------------------------------------ the game
    def fill_board(self) -> None:
        """Candies from the bag onto the board, re-mixed until no 3 in a row."""
        bag = [k for k in rules.KINDS for _ in range(rules.PER_KIND)]
        while True:
            self.rng.shuffle(bag)
            board = tuple("".join(bag[r * B.COLS:(r + 1) * B.COLS]) for r in range(B.ROWS))
            if not B.start_runs(board) and not B.no_blasts(board):
                break
        for k in rules.KINDS:
            cells = [(r, c) for r in range(B.ROWS) for c in range(B.COLS) if board[r][c] == k]
            if cells:
                self.touch(f"palette {k}", lo=1.0, hi=2.0)
            for r, c in cells:
                self.touch(f"cell {r} {c}", lo=0.4, hi=1.2)
        self.touch("start")

    def turn(self, n: int) -> None:
        s = self.state
        swaps = B.legal_swaps(s.board)
        if not swaps:
            if rules.can_draw(s):
                kinds = [k for k, c in zip(rules.KINDS, s.bag) if c]
                candy = self.rng.choice(kinds)
                cells = [(r, c) for r in range(B.ROWS) for c in range(B.COLS) if s.board[r][c] != candy]
                r, c = self.rng.choice(cells)
                self.touch(f"palette {candy}")
                self.touch(f"cell {r} {c}")
            else:
                self.touch("no-blasts")
        else:
            if n == 2:  # a swap that makes no Blast: refused, then let go of the first candy
                bad = next((a, b) for a, b in B.pairs(s.board) if not B.makes_blast(s.board, a, b))
                self.touch(f"cell {bad[0][0]} {bad[0][1]}")
                self.touch(f"cell {bad[1][0]} {bad[1][1]}", expect=False)
                self.touch(f"cell {bad[0][0]} {bad[0][1]}")
            swap = self.rng.choice(swaps)
            self.touch(f"cell {swap.frm[0]} {swap.frm[1]}", lo=2.0, hi=6.0)
            self.touch(f"cell {swap.to[0]} {swap.to[1]}")
        wrong_done = False
        while self.state.phase not in (rules.TURN, rules.OVER):
            s = self.state
            if s.phase == rules.CHOOSE:
                self.touch(f"blast {self.rng.randint(1, len(s.pending))}")
            elif s.phase == rules.KEEP:
                have = s.kept[s.active]
                options = flow.keep_options(s)
                options.sort(key=lambda o: -sum(1 for k in set(o) if have[rules.KINDS.index(k)] == 0))
                self.touch("keep " + " ".join(options[0]))
            elif s.phase == rules.TILT:
                seat = s.seats[s.active]
                if n in (3, 7) and not wrong_done:  # the wrong player tips the tray first
                    other = next(x for x in s.seats if x != seat)
                    self.tilt(other, expect=False)
                    wrong_done = True
                self.tilt(seat)
            elif s.phase == rules.RETURN:
                p, options = flow.return_options(s)
                self.touch(f"return {p + 1} " + " ".join(options[0]))
            elif s.phase == rules.REFILL:
                self.refill()
            else:
                raise SystemExit(f"unexpected phase {s.phase}")

    def refill(self) -> None:
        s = self.state
        order = B.refill_order(s.board, s.seats[s.active])
        pool = [k for k, c in zip(rules.KINDS, s.bag) for _ in range(c)]
        self.rng.shuffle(pool)
        drawn = pool[:len(order)]
        if len(drawn) < len(order):  # the bag is short: all of it, then discarded candies
            spare = [k for k, c in zip(rules.KINDS, s.discards) for _ in range(c)]
            self.rng.shuffle(spare)
            drawn += spare[:len(order) - len(drawn)]
        palette = self.entry.palette
        for cell, candy in zip(order, drawn):
            if candy != palette:
                self.touch(f"palette {candy}", lo=0.5, hi=1.5)
                palette = candy
            self.touch(f"cell {cell[0]} {cell[1]}", lo=0.4, hi=1.2)


def simulate(seed: int) -> Table:
    table = Table(seed)
    table.fill_board()
    n = 0
    while table.state.phase != rules.OVER:
        n += 1
        if n > 80:
            raise SystemExit("the game did not end in 80 turns")
        table.turn(n)
        rules.check_conservation(table.state)
    return table


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=str(ROOT / "tests" / "data" / "sugar-blast-family.trace"))
    args = p.parse_args(argv)
    table = simulate(args.seed)
    out = Path(args.out)
    header = {"trace": 1, "game": "sugar-blast", "players": PLAYERS, "options": {"goal": GOAL}}
    with out.open("w", encoding="utf-8") as f:
        f.write(f"# Sugar Blast family game, generated by scripts/make_sugar_blast_trace.py --seed {args.seed}\n")
        f.write(json.dumps(header) + "\n")
        for line in table.lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    golden = out.with_name(out.name.replace(".trace", ".golden.json"))
    golden.write_text(json.dumps(rules.result(table.state).to_dict(), indent=1) + "\n", encoding="utf-8")
    st = table.stats
    print(f"{out}: {len(table.lines)} records, {out.stat().st_size // 1024} KiB, turns {table.state.turn}, "
          f"refills {st['refills']}, cascades {st['cascades']}, seats tilted {sorted(st['tilt_seats'])}, "
          f"refused {len(st['rejected'])}: {st['rejected']}")
    print(rules.result(table.state).text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
