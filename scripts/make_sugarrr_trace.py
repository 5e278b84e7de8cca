"""Generate the bundled Sugarrr! table session (tests/data/sugarrr-family.trace).

A seeded simulation of four people playing with real cards: a shuffled Fruit Deck,
hands, the Market Row and The Valley. Every scan is written as the bytes a USB-serial
scanner would send (CR, LF or CRLF, sometimes split across two reads), with the usual
table mistakes mixed in: a garbled read, a double read, a card from another game, a
card that was already played, a card that does not fit.

    python scripts/make_sugarrr_trace.py [--seed N] [--out FILE]

Re-run it only on purpose: tests compare the trace's replay with a golden result.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.core.codes import make_code  # noqa: E402
from companion.core.events import CardScanned, Touch  # noqa: E402
from companion.games.sugarrr import flow, rules  # noqa: E402
from companion.games.sugarrr.parts.cards import CARDS  # noqa: E402

PLAYERS = ["Mum", "Dad", "Maya", "Leo"]


class Table:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.t = 0.0
        self.lines: list[dict] = []
        self.state = rules.new_game(PLAYERS)
        self.entry = flow.new_entry()
        deck = sorted(c for c in CARDS if CARDS[c].kind != "saur")
        self.rng.shuffle(deck)
        self.deck = deck
        self.starts = [self.deck.pop() for _ in range(5)]
        self.market = [self.deck.pop() for _ in range(5)]
        self.hands = [[self.deck.pop() for _ in range(5)] for _ in PLAYERS]
        self.mistakes = {2: "garbled", 4: "double", 6: "other-game", 9: "already", 12: "misfit", 15: "split"}

    # ------------------------------------------------------------ emitting
    def wait(self, lo: float, hi: float) -> None:
        self.t = round(self.t + self.rng.uniform(lo, hi), 3)

    def raw(self, data: str) -> None:
        self.lines.append({"t": self.t, "device": "scanner", "data": data})

    def scan(self, code: str, expect: bool = True) -> None:
        self.wait(1.2, 4.0)
        self.raw(code + self.rng.choice(["\r", "\n", "\r\n"]))
        self.feed(CardScanned(code, "scanner", self.t), expect)

    def touch(self, command: str, expect: bool = True) -> None:
        self.wait(0.8, 2.5)
        self.lines.append({"t": self.t, "touch": command})
        self.feed(Touch(command, self.t), expect)

    def feed(self, item, expect: bool) -> None:
        try:
            entry, action, _ = flow.read(self.state, self.entry, item)
            if action is not None:
                self.state, _ = rules.step(self.state, action)
            self.entry = entry
            ok = True
        except Exception:
            ok = False
        if ok != expect:
            raise SystemExit(f"generator out of step at t={self.t}: {item} expected {'accept' if expect else 'reject'}")

    def draw(self) -> str | None:
        if self.deck:
            return self.deck.pop()
        return None

    # ------------------------------------------------------------ playing
    def play(self) -> None:
        for code in self.starts:
            self.scan(code)
        turn = 0
        while self.state.phase != rules.OVER:
            turn += 1
            self.mistake(self.mistakes.get(turn))
            self.take_turn(self.state.active)

    def mistake(self, kind: str | None) -> None:
        if kind == "garbled":      # one character misread: the check character catches it
            code = self.hands[self.state.active][0]
            bad = code[:3] + ("7" if code[3] != "7" else "8") + code[4:]
            self.scan(bad, expect=False)
        elif kind == "other-game":
            self.scan(make_code("SH", "L07"), expect=False)
        elif kind == "already":
            self.scan(self.state.columns[2][-1], expect=False)

    def options(self, hand: list[str]):
        """Every (column, cards) play from this hand, and whether it gathers."""
        for col_i, col in enumerate(self.state.columns):
            for n in range(1, len(hand) + 1):
                for seq in itertools.permutations(hand, n):
                    top = CARDS[col[-1]] if col else None
                    ok = True
                    for code in seq:
                        if not rules.fits(top, CARDS[code]):
                            ok = False
                            break
                        top = CARDS[code]
                    if ok:
                        last = CARDS[seq[-1]]
                        gathers = last.kind == "fruit" and last.number == len(col) + n
                        yield col_i, list(seq), gathers

    def take_turn(self, p: int) -> None:
        hand = self.hands[p]
        final = self.state.final_left is not None
        plays = list(self.options(hand))
        gathers = [o for o in plays if o[2]]
        attracts = [o for o in plays if not o[2] and len(o[1]) <= 3]
        if gathers and (self.rng.random() < 0.85):
            choice = max(gathers, key=lambda o: (len(self.state.columns[o[0]]) + len(o[1]), self.rng.random()))
        elif attracts and self.rng.random() < 0.8:
            choice = max(attracts, key=lambda o: (len(o[1]), self.rng.random()))
        else:
            choice = None
        if choice is None:
            if final and (not self.market or self.rng.random() < 0.5):
                self.touch("pass")
            elif self.market:
                self.swap(p, min(len(self.market), self.rng.randint(1, 3)))
            else:
                self.touch("pass")
            return self.end_turn(p)
        col_i, seq, gathers = choice
        first = seq[0]
        if len(rules.legal_columns(self.state, first)) != 1:
            self.scan(first)                 # fits two columns: the screen asks which (a step, not a refusal)
            self.touch(f"column {col_i + 1}")
        if self.mistakes.get(self.state.turn) == "misfit":
            misfit = [c for c in hand if c not in seq and not rules.fits(CARDS[self.state.columns[col_i][-1]], CARDS[c])]
            if misfit:
                self.touch(f"column {col_i + 1}")
                self.scan(misfit[0], expect=False)
        for i, code in enumerate(seq):
            if self.mistakes.get(self.state.turn) == "split" and i == 0:
                self.wait(1.0, 2.0)
                self.raw(code[:3])
                self.t = round(self.t + 0.03, 3)
                self.raw(code[3:] + "\r\n")
                self.feed(CardScanned(code, "scanner", self.t), True)
            else:
                self.scan(code)
            if self.mistakes.get(self.state.turn) == "double" and i == 0:
                self.t = round(self.t + 0.35, 3)
                self.raw(code + "\r\n")  # the scanner fired twice: ignored, not rejected
            hand.remove(code)
        self.touch("done")
        if gathers:
            if self.state.phase == rules.NEW_COLUMN:
                new = self.draw()
                self.scan(new)
        elif self.state.phase == rules.ATTRACT:
            self.attract(p, len(seq))
        self.refill(p)
        self.end_turn(p)

    def attract(self, p: int, total: int) -> None:
        mine = {}
        for c in self.state.piles[p]:
            if CARDS[c].kind == "fruit":
                mine[CARDS[c].fruit] = mine.get(CARDS[c].fruit, 0) + 1
        need = total
        while need:
            valley = sorted(self.state.valley, key=lambda c: (-mine.get(CARDS[c].fruit, 0), -CARDS[c].value, c))
            for code in valley:
                v = CARDS[code].value
                rest = [CARDS[c].value for c in self.state.valley if c != code]
                if v <= need and rules.can_total(rest, need - v):
                    self.scan(code)
                    need -= v
                    break

    def swap(self, p: int, n: int) -> None:
        give = self.rng.sample(self.hands[p], n)
        take = self.rng.sample(self.market, n)
        for g, k in zip(give, take):
            self.hands[p].remove(g)
            self.hands[p].append(k)
            self.market.remove(k)
            self.market.append(g)
        self.touch(f"swap {n}")

    def refill(self, p: int) -> None:
        hand = self.hands[p]
        while len(hand) < 5:
            if self.market and self.rng.random() < 0.5:
                hand.append(self.market.pop(self.rng.randrange(len(self.market))))
            elif self.deck:
                hand.append(self.deck.pop())
            elif self.market:
                hand.append(self.market.pop())
            else:
                break
        while len(self.market) < 5 and self.deck:
            self.market.append(self.deck.pop())

    def end_turn(self, p: int) -> None:
        while self.state.phase == rules.NEW_COLUMN:
            self.scan(self.draw())
        if self.state.phase == rules.HAND and self.state.active == p:
            for code in list(self.hands[p]):
                self.scan(code)
            self.hands[p].clear()
            self.touch("done")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=str(ROOT / "tests/data/sugarrr-family.trace"))
    args = ap.parse_args()
    table = Table(args.seed)
    table.play()
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps({"trace": 1, "game": "sugarrr", "players": PLAYERS}) + "\n")
        for line in table.lines:
            f.write(json.dumps(line) + "\n")
    result = rules.result_of(table.state.players, table.state.piles)
    print(json.dumps(result.to_dict(), indent=1))
    print(f"{len(table.lines)} records, {table.t:.0f} s of play", file=sys.stderr)


if __name__ == "__main__":
    main()
