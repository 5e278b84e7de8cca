"""Sugar Blast data: the candies, the game State, the actions a table takes and the outcome
events the rules return (rulebooks/sugar-blast.txt). Pure data; the logic is in ``rules``,
which re-exports every name here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterable

from companion.core.game import State as CoreState
from companion.core.events import GameOver as CoreGameOver
from companion.core.events import Outcome, TurnEnded  # noqa: F401  (TurnEnded: the core event this game returns)

from .parts import board as B
from .parts.board import Blast, Board, Cell
from .messages import count, describe, say  # noqa: F401  (describe: part of the rules API)

KINDS = B.KINDS
PER_KIND: int = B.DATA["candies"]["per_kind"]
SOLO = B.DATA["solo"]
RETURN_EACH: int = B.DATA["shortage"]["return_each"]
GOALS: dict[str, dict] = {g["id"]: g for g in B.DATA["goal"]}
SEATING: dict[int, tuple[int, ...]] = {int(k): tuple(v) for k, v in B.DATA["seats"]["by_players"].items()}
CELLS = B.ROWS * B.COLS

SETUP, TURN, CHOOSE, KEEP, TILT, RETURN, REFILL, CASCADE, OVER = (
    "setup", "turn", "choose", "keep", "tilt", "return", "refill", "cascade", "over")

Counts = tuple[int, ...]  # candies per kind, in KINDS order


def counts(letters: Iterable[str]) -> Counts:
    letters = list(letters)
    return tuple(letters.count(k) for k in KINDS)


def plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b))


def minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b))


def fits(part: Counts, whole: Counts) -> bool:
    return all(x <= y for x, y in zip(part, whole))


def words(c: Counts) -> str:
    return ", ".join(f"{n} {B.NAMES[k]}" for k, n in zip(KINDS, c) if n) or "nothing"


# ---------------------------------------------------------------- state and actions

@dataclass(frozen=True)
class Waiting:
    """A Blast made at the same time as the one being solved, waiting for its turn
    ("choose 1 to solve before the other"): ``number`` as the table was told it ("Blast 2"),
    ``blast`` as it was found, ``cells`` where its matched candies are now (they move with
    the slide), ``first`` the number of the Blast chosen to be solved first, ``broken`` ""
    while it stands, else what broke it: "removal" (the Blast solved first removed some of
    its candies) or "slide" (the tilt moved them apart)."""

    number: int
    blast: Blast
    cells: tuple[Cell, ...]
    first: int
    broken: str = ""


#: Candies per kind in a game, by solo (cards.toml: ``per_kind``, and solo's ``removed``
#: kinds at 0): :attr:`State.supply`, which the rules ask several times an input.
_SUPPLY: dict[bool, Counts] = {solo: tuple(0 if solo and k in SOLO["removed"] else PER_KIND for k in KINDS)
                               for solo in (False, True)}

@dataclass(frozen=True)
class State(CoreState):
    """A whole Sugar Blast game. ``board`` is None in quick mode, and so are the per-kind
    ``bag`` and ``discards``; the ``*_n`` totals are kept in both modes. ``pending`` holds
    the Blasts to choose from (CHOOSE) or the one being solved (KEEP, first); ``waiting``
    the others found with the chosen one, until the Blasts are looked for again after its
    refill (docs/rules-notes.md, "Two or more Blasts at once")."""

    players: tuple[str, ...]
    seats: tuple[int, ...]
    goal: str | None
    solo: bool
    quick: bool
    phase: str
    active: int
    board: Board | None
    bag: Counts | None
    discards: Counts | None
    kept: tuple[Counts, ...]
    bag_n: int
    discards_n: int
    on_board_n: int
    pending: tuple[Blast, ...] = ()
    removing: int = 0                    # quick mode: candies the Blast being solved removes
    turn_kept: int = 0
    to_return: tuple[int, ...] = ()
    winner: int | None = None
    turn: int = 1
    waiting: tuple[Waiting, ...] = ()
    dealt: int | None = None             # set-up: the seed of the board the table drew (DealBoard), else None
    auto_keep: bool = False              # forced keeps are taken without a tap (StartGame(auto_keep=True))
    auto_kept: tuple[str, ...] = ()      # what the Blast being tilted kept without a tap (the screen says it)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def supply(self) -> Counts:
        """Candies in this game per kind (orange removed in solo)."""
        return _SUPPLY[bool(self.solo)]

    @property
    def total(self) -> int:
        return sum(self.supply)

    @property
    def holes(self) -> int:
        return CELLS - self.on_board_n


@dataclass(frozen=True)
class PlaceCandy:
    """Set-up entry: ``candy`` (or ``.`` to clear) at (row, col)."""
    row: int
    col: int
    candy: str


@dataclass(frozen=True)
class SetBoard:
    """Set-up entry of a whole board (may have empty cells until StartGame)."""
    board: Board


@dataclass(frozen=True)
class DealBoard:
    """"Set up from the screen": the table drew ``board`` (a full legal starting board,
    ``parts.deal.deal(seed, supply)``) and the players lay the real candies out as shown
    (Sugar Blast rulebook, "Setup"). ``seed`` is kept in the state to say the board was drawn."""
    board: Board
    seed: int


@dataclass(frozen=True)
class StartGame:
    """The board is full and checked: the first turn starts. ``auto_keep``: where a Blast
    leaves only one legal choice of candies to keep, it is taken without a tap (the
    screen's Start and Ready); False for the ``start`` of games recorded before, which
    asked every keep."""
    auto_keep: bool = False


@dataclass(frozen=True)
class SwapCandies:
    """Swap the neighbouring candies at cells ``a`` and ``b``, each (row, col) from 0 at the top left, to
    make a Blast (Sugar Blast rulebook, "Gameplay")."""
    a: Cell
    b: Cell


@dataclass(frozen=True)
class NoBlastsDraw:
    """"No Blasts?": ``candy`` taken from the bag goes to ``cell``; that board candy goes
    into the bag."""
    candy: str
    cell: Cell


@dataclass(frozen=True)
class QuickBlast:
    """Quick mode: a Blast the table made. ``count`` is the number of candies removed;
    it may be left out where a kind removes one number only (3-Blast 3, 4-Blast a whole
    row or column, Box-Blast its 3 x 3 box) and must be given for a 5-6-Blast (every
    candy of that colour on the board: 5 to 12). See ``checks.quick_allowed``."""
    kind: str
    candy: str
    count: int | None = None


@dataclass(frozen=True)
class NoMoreBlasts:
    """Quick mode: no (more) Blasts this turn; the turn ends. With a twin: "No Blasts?"
    with an empty bag (nothing to draw), so the turn passes."""


@dataclass(frozen=True)
class ChooseBlast:
    """"If there are 2 or more Blasts at the same time, choose 1 to solve before the other": solve
    Blast ``index`` (0-based, of those in ``State.pending``) first (Sugar Blast rulebook, "Gameplay")."""
    index: int


@dataclass(frozen=True)
class KeepCandies:
    """The candies kept from the Blast being solved, as candy letters: "Keep the Candies based on the Blast
    you made and discard the rest" (Sugar Blast rulebook, "Every Time You Make a Blast")."""
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Tilted:
    """"Tilt the board in your direction" and release it: ``seat`` is a seat number 1-4 (its board edge in
    cards.toml ``[seats]``), not a player; only the active player's seat is legal ("Every Time You Make a Blast")."""
    seat: int


@dataclass(frozen=True)
class ReturnCandies:
    """Player ``player`` (0-based, turn order) puts ``kinds`` (candy letters: 2, or fewer when they hold
    fewer) back in the Bag when the board cannot be refilled (Sugar Blast rulebook, "Important!")."""
    player: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Refill:
    """The candies placed in the empty cells: ``((row, col), candy)`` pairs. Empty in
    quick mode. ``Refill.of({(r, c): "R"})`` builds one from a mapping."""
    cells: tuple[tuple[Cell, str], ...]

    @classmethod
    def of(cls, placed: dict[Cell, str]) -> "Refill":
        return cls(tuple(sorted(placed.items())))


Action = (PlaceCandy | SetBoard | DealBoard | StartGame | SwapCandies | NoBlastsDraw | QuickBlast | NoMoreBlasts
          | ChooseBlast | KeepCandies | Tilted | ReturnCandies | Refill)


# ---------------------------------------------------------------- outcome events

@dataclass(frozen=True)
class BlastFound(Outcome):
    """The Blasts on the board after a swap, a "No Blasts?" draw or a refill (one is solved next; 2 or more
    wait for :class:`ChooseBlast`), or the one chosen, or one entered in quick mode (no cells there)."""
    blasts: tuple[Blast, ...]


@dataclass(frozen=True)
class BlastBroken(Outcome):
    """Blast ``number`` (as the table was told it: "Blast 2"), ``blast``, found with the one chosen first, no
    longer stands: broken ``by`` "removal" (the Blast solved first removed some of its candies, said at
    :class:`KeepCandies`) or "slide" (the tilt moved its candies apart, said at :class:`Tilted`). It is gone;
    the Blasts on the board are looked for again after the refill (Sugar Blast rulebook, "Important! If there
    are 2 or more Blasts at the same time, choose 1 to solve before the other")."""
    number: int
    blast: Blast
    by: str


@dataclass(frozen=True)
class BlastSolved(Outcome):
    """Player ``player`` (0-based) solved ``blast``: they keep ``kept`` (candy letters) and ``discarded``
    removed candies go to the discards. Produced by :class:`KeepCandies` ("Every Time You Make a Blast")."""
    player: int
    blast: Blast
    kept: tuple[str, ...]
    discarded: int


@dataclass(frozen=True)
class CandiesSlid(Outcome):
    """The board was tilted toward seat ``seat`` (1-4, a board edge) and the candies slid against that edge:
    ``board`` is the board after, None in quick mode. Produced by :class:`Tilted`."""
    seat: int
    board: Board | None


@dataclass(frozen=True)
class RefillPrompt(Outcome):
    """Fill the ``n`` empty spaces from the Bag, bottom to top; it holds ``bag_count`` candies (fewer than ``n``:
    the discards make up the rest). Produced after a tilt, or once the shortage returns are in."""
    n: int
    bag_count: int
    sound: ClassVar[str] = "refill"  # the table's refill sound (companion.ui.sound)


@dataclass(frozen=True)
class ShortageUseDiscards(Outcome):
    """"If you can't refill the board, use the discarded Candies": all ``from_bag`` candies in the Bag, then
    ``from_discards`` discarded ones, fill the spaces (Sugar Blast rulebook, "Important!"). Not in solo."""
    from_bag: int
    from_discards: int


@dataclass(frozen=True)
class ShortageReturnTwo(Outcome):
    """Bag and discards cannot fill the board: each of ``players`` (0-based, those holding any candy) must put
    2 back in the Bag, fewer when they hold fewer (Sugar Blast rulebook, "Important!"). Not in solo."""
    players: tuple[int, ...]


@dataclass(frozen=True)
class CandiesReturned(Outcome):
    """Player ``player`` (0-based) put ``kinds`` (candy letters) back in the Bag after a
    :class:`ShortageReturnTwo`. Produced by :class:`ReturnCandies`."""
    player: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class GoalMet(Outcome):
    """After a Blast, player ``player`` (0-based) meets the Goal Card ``goal`` (its id in cards.toml); the
    GameOver that follows makes them the winner (Sugar Blast rulebook, "Goal Cards")."""
    player: int
    goal: str


@dataclass(frozen=True)
class GameOver(CoreGameOver):
    """The core ``GameOver`` with how this game ended: ``winner`` (0-based seat; None: the
    solo player lost), the Goal Card, and ``reason`` (goal, solo-win, solo-loss)."""

    winner: int | None = None
    goal: str | None = None
    reason: str = ""
