"""Sugar Blast's final scoring (rulebooks/sugar-blast.txt, "Goal Cards" and "Solo Play"):
each player's score is the candies kept; the game ends when a player meets the Goal Card
(or, solo, wins or loses), and the headline says which."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.game import PlayerResult
from companion.core.game import Result as CoreResult

from .parts import board as B
from .messages import count, say
from .state import GOALS, KINDS, OVER, SOLO, State


def kept_line(kept: dict[str, int]) -> str:
    """A player's score line: what the score counts, the Candies kept, by kind (issue 38:
    "Orange 2 Yellow 1" did not say what it counted).

    >>> kept_line({"O": 2, "Y": 1}), kept_line({"R": 1}), kept_line({})
    ('3 Candies kept: 2 Orange, 1 Yellow', '1 Candy kept: 1 Red', 'no Candies kept')
    """
    kinds = ", ".join(f"{v} {B.NAMES[c]}" for c, v in kept.items() if v)
    if not kinds:
        return say("sheet_kept_none")
    return say("sheet_kept", candies=count(sum(kept.values()), say("sheet_candy")), kinds=kinds)


def headline(reason: str, winner: str | None, goal: str | None) -> str:
    """The one sentence of how the game ended."""
    if reason == "goal":
        return say("headline_goal", who=winner, goal=GOALS[goal]["text"])
    if reason == "solo-win":
        return say("headline_solo_win", who=winner, n_candies=count(SOLO["win_kept_in_one_turn"], "candy"))
    return say("headline_solo_loss")


def result(state: State) -> CoreResult | None:
    """The game's :class:`~companion.core.game.Result` once it is over, else None."""
    if state.phase != OVER:
        return None
    reason = "goal" if state.goal is not None and state.winner is not None else (
        "solo-win" if state.winner is not None else "solo-loss")
    kept = tuple({k: n for k, n in zip(KINDS, c) if n} for c in state.kept)
    return Result(state.players, kept, None if state.winner is None else state.players[state.winner],
                  state.goal, reason, state.turn).outcome()


# ---------------------------------------------------------------- the outcome

@dataclass(frozen=True)
class Result:
    """How a game ended: each player's kept candies (``{letter: n}``, letters in KINDS
    order), the winner's name (None: the solo player lost), the Goal Card and why it ended
    (``"goal"``, ``"solo-win"``, ``"solo-loss"``), after ``turns`` turns."""

    players: tuple[str, ...]
    kept: tuple[dict[str, int], ...]
    winner: str | None
    goal: str | None
    reason: str
    turns: int

    @property
    def winners(self) -> tuple[str, ...]:
        return (self.winner,) if self.winner else ()

    def outcome(self) -> CoreResult:
        """The companion's one :class:`~companion.core.game.Result`: each player's score is
        the candies kept; the breakdown lists them by kind (this object is ``detail``)."""
        players = tuple(PlayerResult(n, sum(k.values()), {"kept": dict(k)}, kept_line(k), k)
                        for n, k in zip(self.players, self.kept))
        notes = (f"Goal Card: {GOALS[self.goal]['text']}",) if self.goal else ()
        notes += (f"{self.turns} turn{'s' * (self.turns != 1)}",)
        return CoreResult("sugar-blast", players, self.winners, None, self.reason, notes,
                          headline(self.reason, self.winner, self.goal), detail=self)

    def to_dict(self) -> dict:
        return self.outcome().to_dict()

    def text(self) -> str:
        """The final table as plain text (``companion demo`` / ``replay``)."""
        width = max(len(p) for p in self.players) + 2
        head = "Player".ljust(width) + "".join(f"{k:>4}" for k in KINDS) + f"{'Total':>7}"
        lines = [head, "-" * len(head)]
        for name, kept in zip(self.players, self.kept):
            mark = " *" if name == self.winner else ""
            lines.append(name.ljust(width) + "".join(f"{kept.get(k, 0):>4}" for k in KINDS)
                         + f"{sum(kept.values()):>7}{mark}")
        lines.append(headline(self.reason, self.winner, self.goal))
        return "\n".join(lines)
