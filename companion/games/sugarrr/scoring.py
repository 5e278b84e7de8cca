"""Sugarrr! final scoring (Sugarrr! rulebook, "Scoring"). Pure; no I/O.

>>> from .parts.cards import code_for
>>> sheet = score_pile("Casey", [code_for("fruit", "Pear", 2), code_for("saur", "Pear", 3), code_for("salad")])
>>> sheet.total, sheet.saur_cards
(4, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion.core.game import PlayerResult
from companion.core.game import Result as CoreResult

from .messages import count
from .parts.cards import CARDS, FRUITS

@dataclass(frozen=True)
class FruitScore:
    """One fruit in a score pile: ``cards`` eaten, each worth ``per_card`` points (the sum
    of the matching Fruit-O-Saurs' values, ``saurs``)."""

    fruit: str
    cards: int
    saurs: tuple[int, ...]

    @property
    def per_card(self) -> int:
        return sum(self.saurs)

    @property
    def points(self) -> int:
        return self.cards * self.per_card


@dataclass(frozen=True)
class ScoreSheet:
    """A player's final score (Sugarrr! rulebook, "Scoring")."""

    name: str
    fruits: tuple[FruitScore, ...]
    salads: int
    saur_cards: int

    @property
    def total(self) -> int:
        return sum(f.points for f in self.fruits) + self.salads

    def line(self) -> str:
        """One readable line that says in the rulebook's words what each pile counts
        (Sugarrr! rulebook, "Scoring"; issue 38: "Strawberry 1 x 0 = 0" said nothing): each
        fruit its Fruit-O-Saurs eat, the Fruit Salads, then what scores zero ("Fruit cards
        not eaten by Fruit-O-Saurs", "Fruit-O-Saurs with no Fruit cards to eat"):

        >>> from .parts.cards import code_for
        >>> pile = [code_for("fruit", "Pear", 2), code_for("fruit", "Pear", 4), code_for("saur", "Pear", 3),
        ...         code_for("saur", "Pear", 1), code_for("fruit", "Grapes", 5), code_for("saur", "Strawberry", 2),
        ...         code_for("salad")]
        >>> for part in score_pile("Casey", pile).line().split("; "):
        ...     print(part)
        Pear: 2 cards x 4 points (Fruit-O-Saurs 1 + 3) = 8
        Fruit Salad: 1 card x 1 point = 1
        not eaten by a Fruit-O-Saur, 0 points: Grapes 1 card
        no Fruit cards to eat, 0 points: Strawberry Fruit-O-Saur 2
        """
        parts, uneaten, hungry = [], [], []
        for f in self.fruits:
            if f.cards and f.saurs:
                saurs = f"Fruit-O-Saur{'s' if len(f.saurs) > 1 else ''} {' + '.join(map(str, f.saurs))}"
                parts.append(f"{f.fruit}: {count(f.cards, 'card')} x {count(f.per_card, 'point')} ({saurs}) "
                             f"= {f.points}")
            elif f.cards:
                uneaten.append(f"{f.fruit} {count(f.cards, 'card')}")
            elif f.saurs:
                hungry.append(f"{f.fruit} Fruit-O-Saur{'s' if len(f.saurs) > 1 else ''} "
                              f"{' + '.join(map(str, f.saurs))}")
        if self.salads:
            parts.append(f"Fruit Salad: {count(self.salads, 'card')} x 1 point = {self.salads}")
        if uneaten:
            parts.append("not eaten by a Fruit-O-Saur, 0 points: " + ", ".join(uneaten))
        if hungry:
            parts.append("no Fruit cards to eat, 0 points: " + ", ".join(hungry))
        return "; ".join(parts) or "no cards"

    def breakdown(self) -> dict:
        """JSON-ready: per fruit ``{"cards", "fruit_o_saurs", "per_card", "points"}``,
        then ``"Fruit Salad"`` and ``"fruit_o_saur_cards"``."""
        out: dict = {f.fruit: {"cards": f.cards, "fruit_o_saurs": list(f.saurs),
                               "per_card": f.per_card, "points": f.points} for f in self.fruits}
        out["Fruit Salad"] = {"cards": self.salads, "points": self.salads}
        out["fruit_o_saur_cards"] = self.saur_cards
        return out


@dataclass(frozen=True)
class Result:
    """The outcome of a game: every sheet in seat order, the winners' names, and the
    tie-break that decided it (None when points alone did)."""

    sheets: tuple[ScoreSheet, ...]
    winners: tuple[str, ...]
    tie_break: str | None

    def outcome(self, reason: str | None = None) -> CoreResult:
        """The companion's one :class:`~companion.core.game.Result` (sheets kept as ``detail``)."""
        players = tuple(PlayerResult(s.name, s.total, s.breakdown(), s.line(), s) for s in self.sheets)
        names = list(self.winners)
        headline = (f"{names[0]} is the Win-O-Saur!" if len(names) == 1
                    else f"{', '.join(names[:-1])} and {names[-1]} are Win-O-Saurs!")
        return CoreResult("sugarrr", players, self.winners, self.tie_break, reason, headline=headline, detail=self)

    def to_dict(self) -> dict:
        return self.outcome().to_dict()


def score_pile(name: str, codes: Iterable[str]) -> ScoreSheet:
    """Score one pile of card codes (Sugarrr! rulebook, "Scoring"): each fruit card is
    worth the total value of its Fruit-O-Saurs; each Fruit Salad is worth 1."""
    cards = [CARDS[c] for c in codes]
    fruits = []
    for fruit in FRUITS:
        n = sum(1 for c in cards if c.kind == "fruit" and c.fruit == fruit)
        saurs = tuple(sorted(c.value for c in cards if c.kind == "saur" and c.fruit == fruit))
        fruits.append(FruitScore(fruit, n, saurs))
    return ScoreSheet(name, tuple(fruits), sum(c.kind == "salad" for c in cards),
                      sum(c.kind == "saur" for c in cards))


def result_of(names: Iterable[str], piles: Iterable[Iterable[str]]) -> Result:
    """Rank the piles: most points wins; a tie goes to the tied player with the most
    Fruit-O-Saur cards; still tied, they all win (rulebook, "Scoring")."""
    sheets = tuple(score_pile(n, p) for n, p in zip(names, piles))
    best = max(s.total for s in sheets)
    tied = [s for s in sheets if s.total == best]
    if len(tied) == 1:
        return Result(sheets, (tied[0].name,), None)
    most = max(s.saur_cards for s in tied)
    still = [s for s in tied if s.saur_cards == most]
    if len(still) == 1:
        return Result(sheets, (still[0].name,), "most Fruit-O-Saur cards")
    return Result(sheets, tuple(s.name for s in still), "shared")
