"""A Sweet Deals table played from the rulebook, for the table tests: the test holds the
real cards (a seeded shuffled deck, every hand, the face-up pile) and its seeded players
decide from their own hand and what the table can see; the Session is fed only what a
table types or scans. :func:`independent_score` counts a hand from the rulebook's
"Scoring", sharing nothing with the companion's scoring but the card names."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.games.sweet_deals import rules
from companion.games.sweet_deals.parts.cards import CARDS
from companion.table.session import Session

# ---------------------------------------------------------------- the box, from the rulebook

#: "Setup": what comes out of the box, by player count.
REMOVED = {2: ("Chocolate", "Popsicle", "Chocolate Popsicle", "Pie", "Ice Cream", "Pie & Ice Cream"),
           4: ("Chocolate", "Popsicle", "Chocolate Popsicle")}
REMOVED[3], REMOVED[5] = REMOVED[2], REMOVED[4]
for _n in (6, 7, 8):
    REMOVED[_n] = ()

#: How each hybrid counts ("Scoring": Pie & Ice Cream "counts as Pie AND Ice Cream";
#: "Special Cards": Strudel Cupcake "counts as Strudel or Cupcake"; the other two as the
#: Strudel Cupcake, docs/rules-notes.md).
HYBRIDS = {"Pie & Ice Cream": ("Pie", "Ice Cream", "and"), "Strudel Cupcake": ("Strudel", "Cupcake", "or"),
           "Chocolate Popsicle": ("Chocolate", "Popsicle", "or"), "Donut Strudel": ("Donut", "Strudel", "or")}
SETS = ("Pie", "Ice Cream", "Cupcake", "Chocolate", "Strudel", "Popsicle", "Donut")
BONUS = {2: 4, 3: 7, 4: 14, 5: 17}                 # "Scoring"; "6 Sweet 6! = 22"


def dessert_of(name: str) -> str | None:
    """"Pie 3" -> "Pie"; None for a card that is not a plain dessert."""
    m = re.fullmatch(r"(.+) ([0-9])", name)
    return m.group(1) if m and m.group(1) in SETS else None


def coins_of(name: str) -> int:
    """The Coin Value printed on the card: a dessert's number, Mochi 5, every special 0."""
    m = re.fullmatch(r"(.+) ([0-9])", name)
    return int(m.group(2)) if m else (5 if name == "Mochi" else 0)


def label_of(name: str) -> str:
    """What a player says when offering the card: the dessert, or the card's own name."""
    return dessert_of(name) or name


def box(players: int) -> list[str]:
    """The codes of the cards played with ``players`` people, in catalogue order."""
    gone = REMOVED[players]
    return [code for code, c in CARDS.items() if label_of(c.name) not in gone]


def independent_score(codes) -> tuple[int, int]:
    """``(points, coins)`` of a hand of 7, counted from the rulebook: "add up the Total
    Coin Value of all 7 of your cards. Then add any bonus points" for each dessert,
    trying every dessert for each Sprinkles and both sides of each hybrid that counts as
    one dessert, and keeping the best."""
    names = [CARDS[c].name for c in codes]
    coins = sum(coins_of(n) for n in names)
    fixed, choices = dict.fromkeys(SETS, 0), []
    for n in names:
        if n == "Sprinkles":
            choices.append(SETS)
        elif n in HYBRIDS:
            first, second, reading = HYBRIDS[n]
            if reading == "and":
                fixed[first] += 1
                fixed[second] += 1
            else:
                choices.append((first, second))
        elif dessert_of(n):
            fixed[dessert_of(n)] += 1
    best = 0
    for picks in itertools.product(*choices):
        counts = dict(fixed)
        for d in picks:
            counts[d] += 1
        best = max(best, sum(22 if k >= 6 else BONUS.get(k, 0) for k in counts.values()))
    return coins + best, coins


def independent_winners(names, hands) -> list[str]:
    """"Most points wins! Tie? The player with the most Coins wins! Still tied? Share"."""
    scored = [independent_score(h) for h in hands]
    top = max(scored)
    return [n for n, s in zip(names, scored) if s == top]


# ---------------------------------------------------------------- a table with tracked hands

class TrackedTable:
    """A seeded table playing Sweet Deals with tracked hands through a Session.

    ``hands``, ``deck`` (top last) and ``face_up`` are the real cards, kept by the test.
    ``lie`` is the chance a player offers a dessert or bids a coin value they do not
    hold (the table's mistake, caught when the card is scanned)."""

    def __init__(self, names, seed: int, store: Path, lie: float = 0.05, bake: float = 0.15,
                 bid: float = 0.6, turns: int = 40, mode: str = "tracked"):
        self.names, self.rng = list(names), random.Random(seed)
        self.deck = box(len(names))
        self.rng.shuffle(self.deck)
        self.hands: list[list[str]] = [[] for _ in names]
        self.face_up: list[str] = []
        self.lie, self.bake_chance, self.bid_chance, self.turns = lie, bake, bid, turns
        self.session = Session.start("sweet-deals", self.names, EventStore(store), FakeClock(),
                                     options={"mode": mode}, tap_off=0)
        self.t = 0.0
        self.said: list[str] = []
        self.shuffles = 0
        self.no_swaps = 0

    # -- inputs
    def feed(self, item: str, ok: bool = True):
        self.t += 1.0
        thing = Touch(item[1:], self.t) if item.startswith("/") else CardScanned(item, "scanner", self.t)
        verdict = self.session.handle(thing)
        assert (verdict.verdict == "accepted") == ok, (item, verdict, self.session.prompt())
        self.said.append(verdict.message or verdict.reason or "")
        return verdict

    @property
    def s(self) -> rules.State:
        return self.session.state

    def _count(self, seat: int, label: str) -> int:
        return sum(label_of(CARDS[c].name) == label for c in self.hands[seat])

    def _spare(self, seat: int, cards=None) -> str:
        """The card ``seat`` least wants: of the dessert they hold fewest of, cheapest."""
        cards = cards if cards is not None else self.hands[seat]
        return min(cards, key=lambda c: (self._count(seat, label_of(CARDS[c].name)), coins_of(CARDS[c].name), c))

    def _draw(self, seat: int) -> None:
        empty = "The deck is empty: shuffle" in self.session.prompt()
        assert empty == (not self.deck), self.session.prompt()
        if not self.deck:                    # "shuffle the face-up cards into a new deck"
            self.deck, self.face_up = self.face_up, []
            self.rng.shuffle(self.deck)
            self.shuffles += 1
        card = self.deck.pop()
        self.hands[seat].append(card)
        self.feed(card)

    # -- the game
    def deal(self) -> None:
        """"Deal each player 7 Dessert Cards facedown"; each scans their own."""
        for seat in range(len(self.names)):
            for _ in range(7):
                card = self.deck.pop()
                self.hands[seat].append(card)
                self.feed(card)

    def play(self) -> None:
        """Turns until a Sweet Six, or until ``turns`` turns have passed and the table
        votes to Close Early."""
        self.deal()
        while not self.session.over:
            if self.s.turn > self.turns:
                self.feed("/close")
                for _ in range(len(self.names) - 1):
                    self.feed("/yes")
                break
            self.turn()

    def turn(self) -> None:
        a = self.s.active
        if not self.s.bake_used[a] and self.rng.random() < self.bake_chance:
            self.bake_sale(a)
            return
        if self.rng.random() < self.lie:
            held = {label_of(CARDS[c].name) for c in self.hands[a]}
            label = self.rng.choice(sorted({label_of(CARDS[c].name) for c in box(len(self.names))} - held))
        else:
            label = label_of(CARDS[self._spare(a)].name)
        self.feed(f"/offer {label.lower()}")
        self.bidding(a, label)

    def bidding(self, a: int, label: str) -> None:
        while self.s.phase == rules.BID and not self.session.over:
            b = self.s.bidding
            seat, high = b.to_act, b.high
            grabs = [p for p in range(len(self.names)) if p != a
                     and any(CARDS[c].name == "Grab & Go" for c in self.hands[p])]
            if grabs and self._count(grabs[0], label) and self.rng.random() < 0.3:
                self.feed(f"/grab {grabs[0] + 1}")
                break
            floor = (high + 1 if b.holds_high(seat) else high) if high is not None else 0
            wants = self._count(seat, label) > 0 or self.rng.random() < 0.3
            offers = sorted({coins_of(CARDS[c].name) for c in self.hands[seat]
                             if CARDS[c].name not in ("Mochi",) and coins_of(CARDS[c].name) >= floor})
            if self.rng.random() < self.lie and floor <= 5:
                self.feed(f"/bid {self.rng.randint(floor, 5)}")
            elif wants and offers and offers[0] <= 4 and self.rng.random() < self.bid_chance:
                self.feed(f"/bid {offers[0]}")
            else:
                self.feed("/pass")
        self.after_bidding(a, label)

    def _card_worth(self, seat: int, coins: int) -> str | None:
        cards = [c for c in self.hands[seat] if coins_of(CARDS[c].name) == coins]
        return self._spare(seat, cards) if cards else None

    def _offered(self, a: int, label: str) -> str | None:
        cards = [c for c in self.hands[a] if label_of(CARDS[c].name) == label]
        return cards[0] if cards else None

    def after_bidding(self, a: int, label: str) -> None:
        s = self.s
        if self.session.over:
            return
        if s.phase == rules.DISCARD:
            card = self._offered(a, label)
            if card is None:
                self.feed("/pass")
                self.no_swaps += 1
                return
            self.hands[a].remove(card)
            self.face_up.append(card)
            self.feed(card)
            self._draw(a)
            return
        if s.phase == rules.REVEAL:
            while self.s.phase == rules.REVEAL:
                seat = next(t for t in self.s.tied if t not in dict(self.s.shown))
                card = self._card_worth(seat, self.s.price)
                self.feed(card) if card else self.feed("/pass")
            if self.s.phase == rules.DISCARD:
                self.after_bidding(a, label)
                return
            chosen = self.rng.choice(self.s.tied)
            self.feed(f"/take {chosen + 1}")
            self._swap(a, chosen, dict(self.s.shown)[chosen], label)
            return
        if s.phase == rules.SWAP:
            w = s.winner
            card = (next((c for c in self.hands[w] if CARDS[c].name == "Grab & Go"), None) if s.grab
                    else self._card_worth(w, s.price))
            if card is None:
                self.feed("/pass")
                self.no_swaps += 1
                return
            self.feed(card)
            self._swap(a, w, card, label)

    def _swap(self, a: int, w: int, take: str, label: str) -> None:
        give = self._offered(a, label)
        if give is None:
            self.feed("/pass")
            self.no_swaps += 1
            return
        self.feed(give)
        self.hands[a].remove(give)
        self.hands[w].remove(take)
        self.hands[a].append(take)
        self.hands[w].append(give)

    def bake_sale(self, a: int) -> None:
        """"1. Draw a card. 2. Discard any card face up. 3. Next player Takes it or Passes.
        4. Take? They go to step 2. Pass? Go to step 3. 5. If all players pass, the bake
        sale is over.\""""
        self.feed("/bake")
        self._draw(a)
        holder = a
        while not self.session.over:
            card = self._spare(holder)
            self.hands[holder].remove(card)
            self.face_up.append(card)
            self.feed(card)
            if self.session.over:
                return
            holder = self._take_or_pass()
            if holder is None:
                return

    def _take_or_pass(self) -> int | None:
        """Step 3 of a bake sale: each next player takes the face-up card (one of a label
        they hold, 60 % of the time) or passes. Returns who took it, or None if all passed."""
        while self.s.phase == rules.BAKE_TAKE:
            decider = self.s.bake.decider
            if self._count(decider, label_of(CARDS[self.face_up[-1]].name)) >= 1 and self.rng.random() < 0.6:
                self.feed("/take")
                self.hands[decider].append(self.face_up.pop())
                return decider
            self.feed("/pass")
        return None


# ---------------------------------------------------------------- a table with open hands

def most_of_a_kind(codes) -> int:
    """The most cards of this hand that can count as one dessert (wilds and hybrids too)."""
    names = [CARDS[c].name for c in codes]
    return max(sum(1 for name in names if name == "Sprinkles" or dessert_of(name) == d
                   or (name in HYBRIDS and d in HYBRIDS[name][:2])) for d in SETS)


class OpenTable(TrackedTable):
    """The same players with open hands: the cards move only on the table (the test
    moves them), the companion hears the taps, and every hand is scanned at the end.
    ``false_six`` is the chance a player with 5 of a kind shouts "Sweet Six!" anyway."""

    def __init__(self, names, seed: int, store: Path, false_six: float = 0.5, **kw):
        super().__init__(names, seed, store, lie=0.0, mode="open", **kw)
        self.false_six = false_six
        self.false_shouts = 0

    def _draw_open(self, seat: int, said: str) -> None:
        empty = "The deck is empty: shuffle" in said
        assert empty == (not self.deck), said
        if not self.deck:
            self.deck, self.face_up = self.face_up, []
            self.rng.shuffle(self.deck)
            self.shuffles += 1
        self.hands[seat].append(self.deck.pop())

    def deal(self) -> None:
        for seat in range(len(self.names)):
            for _ in range(7):
                self.hands[seat].append(self.deck.pop())

    def show_hand(self, seat: int) -> None:
        for card in self.hands[seat]:
            self.feed(card)

    def shout_if_six(self) -> bool:
        """"At any point, if a player gets 6 of a kind, they should immediately shout"."""
        for seat in range(len(self.names)):
            most = most_of_a_kind(self.hands[seat])
            wrong = most == 5 and self.false_shouts < 2 and self.rng.random() < self.false_six
            if most >= 6 or wrong:
                real = most >= 6
                self.feed(f"/six {seat + 1}")
                self.show_hand(seat)
                if real:
                    assert "The game ends now" in self.said[-1], self.said[-1]
                    for other in range(len(self.names)):
                        if other != seat:
                            self.show_hand(other)
                    return True
                assert "no Sweet Six and the game goes on" in self.said[-1], self.said[-1]
                self.false_shouts += 1
        return False

    def play(self) -> None:
        self.deal()
        if self.shout_if_six():
            return
        while not self.session.over:
            if self.s.turn > self.turns:
                self.feed("/close")
                for _ in range(len(self.names) - 1):
                    self.feed("/yes")
                for seat in range(len(self.names)):
                    self.show_hand(seat)
                break
            self.turn()
            if self.shout_if_six():
                return

    def after_bidding(self, a: int, label: str) -> None:
        said = self.said[-1]
        if self.s.phase == rules.CHOOSE:
            chosen, price = self.rng.choice(self.s.tied), self.s.price
            self.feed(f"/take {chosen + 1}")
            self._swap(a, chosen, self._card_worth(chosen, price), label)
            return
        if "Everyone passed" in said:
            card = self._offered(a, label)
            self.hands[a].remove(card)
            self.face_up.append(card)
            self._draw_open(a, said)
        elif "wins with a bid of" in said:
            w = next(p for p in range(len(self.names)) if f"{self.names[p]} wins with" in said)
            self._swap(a, w, self._card_worth(w, self._price), label)

    def bidding(self, a: int, label: str) -> None:
        while self.s.phase == rules.BID and not self.session.over:
            b = self.s.bidding
            seat, high = b.to_act, b.high
            floor = (high + 1 if b.holds_high(seat) else high) if high is not None else 0
            wants = self._count(seat, label) > 0 or self.rng.random() < 0.3
            offers = sorted({coins_of(CARDS[c].name) for c in self.hands[seat]
                             if CARDS[c].name != "Mochi" and coins_of(CARDS[c].name) >= floor})
            if wants and offers and offers[0] <= 4 and self.rng.random() < self.bid_chance:
                self.feed(f"/bid {offers[0]}")
                self._price = offers[0]       # the last bid is the high bid
            else:
                self.feed("/pass")
        self.after_bidding(a, label)

    def _swap(self, a: int, w: int, take: str, label: str) -> None:
        give = self._offered(a, label)
        self.hands[a].remove(give)
        self.hands[w].remove(take)
        self.hands[a].append(take)
        self.hands[w].append(give)

    def bake_sale(self, a: int) -> None:
        self.feed("/bake")
        self._draw_open(a, self.session.prompt())
        holder = a
        for _ in range(40):
            card = self._spare(holder)
            self.hands[holder].remove(card)
            self.face_up.append(card)
            self.feed("/done")
            holder = self._take_or_pass()
            if holder is None:
                return
