"""The final count (Sugar Heist rulebook, "Ending the Game", "Grandma"): each Candy Card
stashed in a vault is 1 point, each Grandma 6. "The player with the highest score and
most candy wins": a tie on points goes to the tied player with the most candy stashed;
still tied, they share the win (docs/rules-notes.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from companion.core.catalogue import lookup
from companion.core.errors import BadScan
from companion.core.game import PlayerResult, Result

from .parts.cards import CARDS, FLAVOURS, GAME, PURE_SUGAR, SETUP
from .messages import count, say

GRANDMA_POINTS: int = SETUP["grandma_points"]


@dataclass(frozen=True)
class ScoreSheet:
    """One player's count: ``candies`` per flavour (Pure Sugar counted as the flavour
    of its vault when known, else as Pure Sugar), ``grandmas``, the Battle Cards held."""

    name: str
    candies: tuple[tuple[str, int], ...]
    grandmas: int
    battle: tuple[str, ...] = ()

    @property
    def candy(self) -> int:
        return sum(n for _, n in self.candies)

    @property
    def total(self) -> int:
        return self.candy + GRANDMA_POINTS * self.grandmas

    def breakdown(self) -> dict:
        return {"candy": self.candy, "grandmas": self.grandmas, "flavours": dict(self.candies),
                "battle_cards": list(self.battle)}

    def line(self) -> str:
        """One readable line in the rulebook's words: ``8 Candy Cards stashed, 1 point each:
        2 Nutty Butt, 6 Chocolate Rockets; 1 Grandma, 6 points; holds Mom, Spy (no points)``
        (Sugar Heist rulebook, "Ending the Game" and "Grandma"; issue 38)."""
        candies = ", ".join(f"{n} {f}" for f, n in self.candies if n)
        parts = [say("candy_stashed", cards=count(self.candy, say("candy_card")), flavours=candies) if candies
                 else say("no_candy")]
        if self.grandmas:
            parts.append(say("grandma_x", grandmas=count(self.grandmas, "Grandma"),
                             grandma_points=GRANDMA_POINTS * self.grandmas))
        others = [b for b in self.battle if b != "Grandma"]
        line = "; ".join(parts)
        return line + (say("holds_names", names=', '.join(others)) if others else "")


def sheet(name: str, stashed: Iterable[tuple[str, str | None]], battle: Iterable[str]) -> ScoreSheet:
    """``stashed``: (candy code, the flavour of its vault or None) pairs."""
    count: Counter[str] = Counter()
    for code, flavour in stashed:
        c = CARDS[code]
        count[flavour if c.is_pure and flavour else c.flavour] += 1
    order = [f for f in FLAVOURS + (PURE_SUGAR,) if count[f]]
    battle = tuple(sorted(battle))
    grandmas = sum(CARDS[c].name == "Grandma" for c in battle)
    return ScoreSheet(name, tuple((f, count[f]) for f in order), grandmas, tuple(CARDS[c].name for c in battle))


def rank(sheets: tuple[ScoreSheet, ...], reason: str | None) -> Result:
    best = max(s.total for s in sheets)
    tied = [s for s in sheets if s.total == best]
    tie_break = None
    if len(tied) > 1:
        most = max(s.candy for s in tied)
        still = [s for s in tied if s.candy == most]
        tie_break = say("most_candy") if len(still) == 1 else "shared"
        tied = still
    players = tuple(PlayerResult(s.name, s.total, s.breakdown(), s.line(), s) for s in sheets)
    return Result(GAME, players, tuple(s.name for s in tied), tie_break, reason)


def score_holdings(holdings: list[tuple[str, list[str]]]) -> Result:
    """``companion score sugar-heist``: each line lists one player's stashed candies and
    the Battle Cards they hold at the end. Raises ValueError for a bad holding."""
    seen: dict[str, str] = {}
    sheets = []
    for name, codes in holdings:
        stashed, battle = [], []
        for raw in codes:
            try:
                c = lookup(raw, GAME, CARDS)
            except BadScan as exc:
                raise ValueError(say("player_problem", name=name, problem=exc.message)) from None
            if c.code in seen:
                raise ValueError(say("listed_for_one_card", code=c.code, card=c.name, seen=seen[c.code], name=name))
            seen[c.code] = name
            if c.is_candy:
                stashed.append((c.code, None))
            elif c.is_battle:
                battle.append(c.code)
            else:
                raise ValueError(say("vault_card_list_candies", name=name, code=c.code))
        sheets.append(sheet(name, stashed, battle))
    if not sheets:
        raise ValueError(say("no_players_score"))
    return rank(tuple(sheets), None)
