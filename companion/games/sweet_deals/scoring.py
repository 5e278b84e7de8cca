"""Sweet Deals scoring: coins, set bonuses, and the best use of every wild card
(Sweet Deals rulebook, "Scoring" and "Special Cards").

A hand scores the Coin Value of its 7 cards plus, for each dessert, the bonus for how
many cards count as it (:data:`~.cards.BONUS`). With ``hybrid="card"`` (the usual) each
hybrid counts as its own card says (``Card.counts``): Pie & Ice Cream as both its
desserts ("it counts as Pie AND Ice Cream", "Scoring"), Strudel Cupcake as one of them
("This card counts as Strudel or Cupcake", "Special Cards"). The house rules ``"and"``
and ``"or"`` force one reading on every hybrid. Each Sprinkles counts as whichever
dessert the player chooses. The companion chooses for the player:
:func:`score_hand` finds the choice that scores the most and says what it chose.

How: the choices only change the bonus, never the coins. Sprinkles are interchangeable,
so what matters is how many go to each dessert, not which goes where; for each way of
counting the "or" hybrids (at most 2^4), a small dynamic programme over the seven
desserts shares the wilds out (:func:`_share_wilds`). :func:`brute_force_bonus` tries
every assignment one by one; tests and the bench compare the two.

>>> from .parts.cards import code_for
>>> tim = [code_for("Pie", 1), code_for("Pie", 2), code_for("Pie & Ice Cream"), code_for("Ice Cream", 2),
...        code_for("Cupcake", 4), code_for("Chocolate", 2), code_for("Strudel", 2)]
>>> s = score_hand(tim)
>>> s.coins, s.bonus, s.total
(13, 11, 24)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Sequence

from companion.core.game import PlayerResult, Result

from .parts.cards import BONUS, CARDS, DESSERTS, GAME, HAND_SIZE, HYBRID_MODES, SWEET_SIX, Card
from .messages import count, say


def reading(card: Card, hybrid: str = "card") -> str:
    """How ``card`` (a hybrid) counts under the game option ``hybrid``: ``"and"`` (both
    its desserts) or ``"or"`` (one of them). ``"card"`` means the card's own text
    (cards.toml ``counts``); ``"and"``/``"or"`` are house rules for every hybrid."""
    return card.counts if hybrid == "card" else hybrid


def bonus_for(count: int) -> int:
    """Bonus points for ``count`` cards of one dessert (0 or 1: none; 6 or more: Sweet 6)."""
    return BONUS[min(count, len(BONUS) - 1)]


@dataclass(frozen=True)
class HandScore:
    """One hand's score.

    ``coins`` is the sum of Coin Values; ``counts`` (dessert, how many cards count as
    it) for every dessert with at least one; ``bonuses`` (dessert, count, points) for
    each set that scores; ``choices`` (card name, code, dessert) for each Sprinkles and
    each "or" hybrid, as counted; ``both`` (card name, code, "X and Y") for each hybrid
    counted as both its desserts; ``sweet_six`` the dessert with 6 or more, if any.
    """

    cards: tuple[str, ...]
    coins: int
    counts: tuple[tuple[str, int], ...]
    bonuses: tuple[tuple[str, int, int], ...]
    choices: tuple[tuple[str, str, str], ...]
    sweet_six: str | None = None
    both: tuple[tuple[str, str, str], ...] = ()

    @property
    def counted_as(self) -> tuple[tuple[str, str, str], ...]:
        """Every Sprinkles and hybrid with what it counted as."""
        return self.choices + self.both

    @property
    def bonus(self) -> int:
        return sum(points for _, _, points in self.bonuses)

    @property
    def total(self) -> int:
        return self.coins + self.bonus

    def breakdown(self) -> dict:
        """JSON-ready: coins, each bonus, what each Sprinkles and hybrid counted as, the total."""
        return {"coins": self.coins,
                "bonuses": {d: {"cards": n, "points": p} for d, n, p in self.bonuses},
                "counted_as": [{"card": name, "code": code, "as": d} for name, code, d in self.counted_as],
                "bonus": self.bonus,
                "points": self.total}

    def line(self) -> str:
        """One readable line in the rulebook's words ("Scoring": the Total Coin Value, then
        the bonus points for each kind): ``13 coins + 7 points for 3 of a kind (Pie) + 4
        points for 2 of a kind (Ice Cream) = 24 points (Sprinkles as Pie)``."""
        parts = [say("sheet_coins", coins=count(self.coins, "coin"))] + [
            say("sheet_sweet_six" if n >= 6 else "sheet_bonus", dessert=d, n=n, points=p) for d, n, p in self.bonuses]
        text = " + ".join(parts) + " = " + say("sheet_total", total=self.total)
        if self.counted_as:
            text += " (" + ", ".join(say("counted_as", card=name, dessert=d) for name, _, d in self.counted_as) + ")"
        return text


def _cards(codes: Sequence[str]) -> list[Card]:
    try:
        return [CARDS[c] for c in codes]
    except KeyError as exc:
        raise ValueError(say("not_sweet_deals_card", args=exc.args[0])) from None


def _split(cards: list[Card], hybrid: str) -> tuple[dict[str, int], list[Card], list[Card]]:
    """Fixed counts per dessert, the "or" hybrids, the wilds."""
    if hybrid not in HYBRID_MODES:
        raise ValueError(say("sheet_bad_hybrid", hybrid_modes=HYBRID_MODES, hybrid=hybrid))
    fixed = dict.fromkeys(DESSERTS, 0)
    ors: list[Card] = []
    wilds: list[Card] = []
    for c in cards:
        if c.kind == "wild":
            wilds.append(c)
        elif c.kind == "hybrid" and reading(c, hybrid) == "or":
            ors.append(c)
        else:
            for d in c.desserts:
                fixed[d] += 1
    return fixed, ors, wilds


#: bonus by count, indexed directly (a count never passes 7 cards + 7 wilds).
_B: tuple[int, ...] = tuple(bonus_for(n) for n in range(2 * HAND_SIZE + 1))


def _empty_splits(max_wilds: int = HAND_SIZE, max_empty: int = len(DESSERTS)) -> list[list[tuple[int, tuple]]]:
    """``table[e][w]``: the most bonus ``w`` wilds make on ``e`` desserts nobody holds,
    and how many go to each (biggest part first). Desserts nobody holds are all alike,
    so this is worked out once, not per hand."""
    table = [[(0, ())] + [(-10**9, ())] * max_wilds]
    for e in range(1, max_empty + 1):
        row = []
        for w in range(max_wilds + 1):
            best = (-10**9, ())
            for x in range(w, -1, -1):
                rest_points, rest = table[e - 1][w - x]
                v = _B[x] + rest_points
                if v > best[0]:
                    best = (v, tuple(p for p in (x,) + rest if p))
            row.append(best)
        table.append(row)
    return table


_EMPTY = _empty_splits()


def _share_wilds(counts: dict[str, int], wilds: int) -> tuple[int, dict[str, int]]:
    """The most bonus points a hand makes with ``wilds`` Sprinkles added to ``counts``,
    and how many go to each dessert.

    A dynamic programme over the desserts the hand holds, biggest set first, each taking
    as many wilds as it can before fewer (so among equal scores the wilds pile onto the
    biggest set, the choice a player would make); whatever is left goes to desserts
    nobody holds, split as :data:`_EMPTY` says."""
    if not wilds:
        return sum(_B[c] for c in counts.values()), {}
    held = sorted((d for d in DESSERTS if counts[d]), key=lambda d: (-counts[d], DESSERTS.index(d)))
    empty = [d for d in DESSERTS if not counts[d]]
    tail = [points for points, _ in _EMPTY[len(empty)][:wilds + 1]]
    # best[i][w]: most bonus from held[i:] and the empty desserts with w wilds to share.
    best, pick = [tail], []
    for d in reversed(held):
        c, nxt = counts[d], best[-1]
        row, arg = [], []
        for w in range(wilds + 1):
            top, at = -10**9, 0
            for x in range(w, -1, -1):
                v = _B[c + x] + nxt[w - x]
                if v > top:
                    top, at = v, x
            row.append(top)
            arg.append(at)
        best.append(row)
        pick.append(arg)
    best.reverse()
    pick.reverse()
    share, w = {}, wilds
    for d, arg in zip(held, pick):
        if arg[w]:
            share[d] = arg[w]
        w -= arg[w]
    for d, x in zip(empty, _EMPTY[len(empty)][w][1]):
        share[d] = x
    return best[0][wilds], share


def best_counts(codes: Sequence[str], hybrid: str = "card") -> tuple[int, dict[str, int], list[tuple[Card, str]]]:
    """The highest bonus this hand can make, the counts per dessert that make it, and
    the dessert each Sprinkles and "or" hybrid counts as (card, dessert)."""
    cards = _cards(codes)
    fixed, ors, wilds = _split(cards, hybrid)
    top: tuple[int, dict[str, int], list[tuple[Card, str]]] | None = None
    for sides in itertools.product(*[c.desserts for c in ors]):
        counts = dict(fixed)
        for d in sides:
            counts[d] += 1
        points, share = _share_wilds(counts, len(wilds))
        if top is None or points > top[0]:
            for d, x in share.items():
                counts[d] += x
            as_wild = [d for d in DESSERTS for _ in range(share.get(d, 0))]
            choices = list(zip(ors, sides)) + list(zip(wilds, as_wild))
            top = (points, counts, choices)
    assert top is not None
    return top


def brute_force_bonus(codes: Sequence[str], hybrid: str = "card") -> int:
    """The highest bonus found by trying every dessert for every Sprinkles and every
    side of every "or" hybrid, one assignment at a time (7^wilds x 2^hybrids): the
    reference :func:`best_counts` is tested and benchmarked against."""
    cards = _cards(codes)
    fixed, ors, wilds = _split(cards, hybrid)
    options = [c.desserts for c in ors] + [DESSERTS] * len(wilds)
    top = 0
    for assignment in itertools.product(*options):
        counts = dict(fixed)
        for d in assignment:
            counts[d] += 1
        top = max(top, sum(bonus_for(n) for n in counts.values()))
    return top


def score_hand(codes: Sequence[str], hybrid: str = "card") -> HandScore:
    """Score one hand of exactly :data:`~.cards.HAND_SIZE` cards (rulebook, "Scoring").
    Raises ValueError for another size, an unknown code or the same card twice."""
    codes = tuple(codes)
    if len(codes) != HAND_SIZE:
        raise ValueError(say("sheet_hand_size", hand_size=HAND_SIZE, n=len(codes)))
    if len(set(codes)) != len(codes):
        raise ValueError(say("same_card_hand_twice"))
    cards = _cards(codes)
    _, counts, choices = best_counts(codes, hybrid)
    bonuses = tuple((d, counts[d], bonus_for(counts[d])) for d in DESSERTS if bonus_for(counts[d]))
    six = next((d for d in DESSERTS if counts[d] >= SWEET_SIX), None)
    both = tuple((c.name, c.code, say("sep_and").join(c.desserts))
                 for c in cards if c.kind == "hybrid" and reading(c, hybrid) == "and")
    return HandScore(codes, sum(c.coins for c in cards),
                     tuple((d, counts[d]) for d in DESSERTS if counts[d]), bonuses,
                     tuple((c.name, c.code, d) for c, d in choices), six, both)


def sweet_six(codes: Iterable[str], hybrid: str = "card") -> str | None:
    """The dessert this hand has 6 (or more) of, counting hybrids and Sprinkles as the
    player would, or None (rulebook, "Continue Play": "Sweet Six!")."""
    found = sweet_six_count(codes, hybrid)
    return found[0] if found else None


def sweet_six_count(codes: Iterable[str], hybrid: str = "card") -> tuple[str, int] | None:
    """``(dessert, cards)``: the dessert this hand has 6 or more of and how many cards
    count as it (7 for a hand of 7 Cupcakes: what the table is told), or None."""
    codes = tuple(codes)
    if len(codes) < SWEET_SIX:
        return None
    cards = _cards(codes)
    fixed, ors, wilds = _split(cards, hybrid)
    for d in DESSERTS:
        n = fixed[d] + sum(d in c.desserts for c in ors) + len(wilds)
        if n >= SWEET_SIX:
            return d, n
    return None


def result_of(players: Sequence[str], hands: Sequence[Sequence[str]], hybrid: str = "card",
              reason: str | None = None, notes: tuple[str, ...] = ()) -> Result:
    """The game's :class:`~companion.core.game.Result`: most points wins; a tie goes to
    the most coins; still tied, the win is shared (rulebook, "Continue Play")."""
    sheets = [score_hand(h, hybrid) for h in hands]
    rows = tuple(PlayerResult(name, s.total, s.breakdown(), s.line(), s) for name, s in zip(players, sheets))
    top = max(s.total for s in sheets)
    best = [i for i, s in enumerate(sheets) if s.total == top]
    tie_break = None
    if len(best) > 1:
        most = max(sheets[i].coins for i in best)
        by_coins = [i for i in best if sheets[i].coins == most]
        tie_break = "coins" if len(by_coins) == 1 else "shared"
        best = by_coins
    return Result(GAME, rows, tuple(players[i] for i in best), tie_break, reason, notes)
