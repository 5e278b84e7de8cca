"""Generate the bundled Sweet Deals table session (tests/data/sweet-deals-family.trace).

A seeded simulation of four people playing with tracked hands: the 48-card deck for four
players shuffled, seven cards dealt to each and scanned by passing the scanner round,
then turns of offers, bids, ties, secret swaps, Grab & Go, Bake Sales and one refused
Close Early vote, until somebody gets Sweet Six. Every scan is written as the bytes a
USB-serial scanner would send (CR, LF or CRLF), with table mistakes mixed in: a garbled
read, a double read, a card from another game, a bid nobody's hand can pay, a swap
scan of the wrong card, a broken command.

    python scripts/make_sweet_deals_trace.py [--seed N] [--out FILE]

Re-run it only on purpose: tests compare the trace's replay with a golden result
(written beside it as ``.golden.json``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.core.codes import make_code  # noqa: E402
from companion.core.errors import CompanionError  # noqa: E402
from companion.core.events import CardScanned, Touch  # noqa: E402
from companion.games.sweet_deals import flow, rules  # noqa: E402
from companion.games.sweet_deals.parts.cards import CARDS, DESSERTS  # noqa: E402

PLAYERS = ["Mum", "Dad", "Maya", "Leo"]
OPTIONS = {"mode": "tracked"}
MAX_TURNS = 200


class OutOfStep(RuntimeError):
    pass


class Table:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.t = 0.0
        self.lines: list[dict] = []
        self.state = rules.new_game(PLAYERS, **OPTIONS)
        deck = list(self.state.deck)
        self.rng.shuffle(deck)
        self.deck = deck
        self.hands = [[self.deck.pop() for _ in range(7)] for _ in PLAYERS]
        self.mistakes = {2: "garbled", 3: "broken", 4: "double", 5: "other-game", 6: "unpayable", 7: "wrong-swap"}
        self.close_asked = False

    # ------------------------------------------------------------ emitting
    def wait(self, lo: float, hi: float) -> None:
        self.t = round(self.t + self.rng.uniform(lo, hi), 3)

    def scan(self, code: str, expect: bool = True) -> None:
        self.wait(1.2, 3.5)
        self.lines.append({"t": self.t, "device": "scanner", "data": code + self.rng.choice(["\r", "\n", "\r\n"])})
        self.feed(CardScanned(code, "scanner", self.t), expect)

    def touch(self, command: str, expect: bool = True) -> None:
        self.wait(0.8, 2.5)
        self.lines.append({"t": self.t, "touch": command})
        self.feed(Touch(command, self.t), expect)

    def feed(self, item, expect: bool) -> None:
        try:
            _, action, _ = flow.read(self.state, None, item)
            self.state, _ = rules.step(self.state, action)
            ok = True
        except CompanionError:
            ok = False
        if ok != expect:
            raise OutOfStep(f"t={self.t}: {item} expected {'accept' if expect else 'reject'} in {self.state.phase}")

    # ------------------------------------------------------------ what a player thinks
    def counts(self, p: int) -> dict[str, int]:
        n = dict.fromkeys(DESSERTS, 0)
        for c in self.hands[p]:
            for d in CARDS[c].desserts:
                n[d] += 1
        return n

    def target(self, p: int) -> str:
        n = self.counts(p)
        return max(DESSERTS, key=lambda d: (n[d], sum(CARDS[c].coins for c in self.hands[p] if d in CARDS[c].desserts)))

    def collecting(self, p: int) -> set[str]:
        n = self.counts(p)
        best = sorted(DESSERTS, key=lambda d: -n[d])[:2]
        return {d for d in best if n[d] >= 2} | {self.target(p)}

    def spare(self, p: int) -> list[str]:
        """Cards this player would give away, least wanted first."""
        keep = self.collecting(p)
        cards = [c for c in self.hands[p] if CARDS[c].kind not in ("wild", "grab")
                 and not set(CARDS[c].desserts) & keep]
        return sorted(cards, key=lambda c: (CARDS[c].coins, c))

    def wants(self, p: int, label: str) -> bool:
        desserts = {d for c in CARDS.values() if c.label == label for d in c.desserts}
        return bool(desserts & self.collecting(p)) or label == "Sprinkles"

    # ------------------------------------------------------------ playing
    def play(self) -> None:
        for hand in self.hands:
            for code in hand:
                self.scan(code)
        while not self.state.over:
            if self.state.turn > MAX_TURNS:
                raise OutOfStep("no Sweet Six in time")
            self.take_turn(self.state.active)

    def draw_card(self) -> str:
        if not self.deck:
            self.deck = list(self.state.discards)
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def give(self, p: int, code: str) -> None:
        self.hands[p].remove(code)

    def take_turn(self, p: int) -> None:
        turn = self.state.turn
        mistake = self.mistakes.get(turn)
        if mistake == "other-game":
            self.scan(make_code("SR", "S71"), expect=False)
        if mistake == "broken":
            self.touch("bid 9", expect=False)
        if turn == 9 and not self.close_asked:
            self.close_asked = True
            self.touch("close")
            n = len(PLAYERS)
            voters = [(p + i) % n for i in range(1, n)]
            self.touch("yes")
            self.touch("no")
            assert self.state.voters == () and not self.state.over, voters
        if not self.state.bake_used[p] and turn > 4 and self.rng.random() < 0.12:
            return self.bake_sale(p)
        self.offer_turn(p, mistake)

    def offer_turn(self, p: int, mistake: str | None) -> None:
        spare = self.spare(p) or sorted(self.hands[p], key=lambda c: (CARDS[c].coins, c))
        code = spare[0]
        label = CARDS[code].label
        self.touch(f"offer {label.lower()}")
        n = len(PLAYERS)
        bidders = [(p + i) % n for i in range(1, n)]
        grabbed = None
        while self.state.phase == rules.BID:
            b = self.state.bidding
            q = b.to_act
            if (grabbed is None and self.wants(q, label) and self.counts(q)[self.target(q)] >= 3
                    and any(CARDS[c].kind == "grab" for c in self.hands[q]) and self.rng.random() < 0.7):
                grabbed = q
                self.touch(f"grab {q + 1}")
                break
            high = b.high
            if mistake == "unpayable" and q == bidders[0]:
                mistake = None
                values = {CARDS[c].coins for c in self.hands[q]}
                missing = [v for v in range(6) if v not in values and (high is None or v >= high)]
                if missing:
                    self.touch(f"bid {missing[0]}", expect=False)
            offers = [CARDS[c].coins for c in self.spare(q) if high is None or CARDS[c].coins >= high]
            if b.holds_high(q):
                higher = sorted({v for v in offers if v > high})
                if higher and self.rng.random() < 0.5:
                    self.touch(f"bid {higher[0]}")
                else:
                    self.touch("pass")
            elif self.wants(q, label) and offers:
                self.touch(f"bid {min(offers)}")
            else:
                self.touch("pass")
        s = self.state
        if s.phase == rules.DISCARD:
            self.scan(code)
            self.give(p, code)
            new = self.draw_card()
            self.scan(new)
            self.hands[p].append(new)
            return
        if s.phase == rules.REVEAL:
            shown = {}
            for q in s.tied:
                card = next(c for c in self.spare(q) + self.hands[q] if CARDS[c].coins == s.price)
                self.scan(card)
                shown[q] = card
            mine = self.target(p)
            pick = max(s.tied, key=lambda q: (mine in CARDS[shown[q]].desserts, CARDS[shown[q]].coins))
            self.touch(f"take {pick + 1}")
            self.scan(code)
            self.swap(p, code, pick, shown[pick])
            return
        if s.phase == rules.SWAP:
            w = s.winner
            if s.grab:
                theirs = next(c for c in self.hands[w] if CARDS[c].kind == "grab")
            else:
                theirs = next(c for c in self.spare(w) + self.hands[w] if CARDS[c].coins == s.price)
            if mistake == "garbled":
                self.scan(theirs[:3] + ("7" if theirs[3] != "7" else "8") + theirs[4:], expect=False)
            if mistake == "wrong-swap":
                wrong = [c for c in self.hands[w] if CARDS[c].coins != s.price]
                if wrong:
                    self.scan(wrong[0], expect=False)
            self.scan(theirs)
            if mistake == "double":
                self.t = round(self.t + 0.35, 3)
                self.lines.append({"t": self.t, "device": "scanner", "data": theirs + "\r\n"})  # ignored
            self.scan(code)
            self.swap(p, code, w, theirs)

    def swap(self, p: int, mine: str, q: int, theirs: str) -> None:
        self.give(p, mine)
        self.give(q, theirs)
        self.hands[p].append(theirs)
        self.hands[q].append(mine)

    def bake_sale(self, p: int) -> None:
        self.touch("bake")
        new = self.draw_card()
        self.scan(new)
        self.hands[p].append(new)
        self.bake_discard(p)
        while self.state.phase in (rules.BAKE_TAKE, rules.BAKE_DISCARD) and not self.state.over:
            q = self.state.bake.decider
            top = self.state.discards[-1]
            if self.wants(q, CARDS[top].label) and self.rng.random() < 0.8:
                self.touch("take")
                self.hands[q].append(top)
                self.bake_discard(q)
            else:
                self.touch("pass")

    def bake_discard(self, p: int) -> None:
        spare = self.spare(p) or sorted(self.hands[p], key=lambda c: (CARDS[c].coins, c))
        card = spare[0]
        self.scan(card)
        self.give(p, card)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "tests/data/sweet-deals-family.trace"))
    args = ap.parse_args()
    table = Table(args.seed)
    table.play()
    if table.state.ended != rules.SWEET_SIX_END:
        raise SystemExit(f"seed {args.seed} ended by {table.state.ended}, not Sweet Six: try another seed")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps({"trace": 1, "game": "sweet-deals", "players": PLAYERS, "options": OPTIONS}) + "\n")
        for line in table.lines:
            f.write(json.dumps(line) + "\n")
    result = rules.result(table.state)
    golden = Path(args.out[:-len(".trace")] + ".golden.json") if args.out.endswith(".trace") else None
    text = json.dumps(result.to_dict(), indent=1) + "\n"
    if golden is not None:
        golden.write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"{len(table.lines)} records, {table.state.turn} turns, {table.t:.0f} s of play; "
          f"{result.notes[0] if result.notes else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
