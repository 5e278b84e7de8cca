"""Sugarrr! data: the set-up numbers, the phases, the game State, the actions a table
takes, the outcome events, and the small card helpers (rulebooks/sugarrr.txt). Pure data;
the legality is in ``checks``, the game in ``rules`` (which re-exports every name here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion.core.codes import make_code
from companion.core.game import State as CoreState
from companion.core.events import Outcome

from .parts.cards import CARDS, SETUP, Card
from .messages import say

COLUMNS: int = SETUP["columns"]
MARKET_ROW: int = SETUP["market_row"]
HAND_SIZE: int = SETUP["hand_size"]
COLUMN_LIMIT: int = SETUP["column_limit"]

# Phases of a game.
SETUP_PHASE = "setup"          # scanning the five starting column cards
TURN = "turn"                  # the active player chooses Swap, Play (or Pass in the Final Round)
PLAYING = "playing"            # cards are going onto the chosen column; Done ends the play
ATTRACT = "attract"            # scanning Fruit-O-Saurs taken from The Valley
NEW_COLUMN = "new-column"      # scanning the card drawn to start a new column
HAND = "hand"                  # Final Round: scanning the cards left in the active player's hand
OVER = "over"


def card_code(short: str) -> str:
    """Full code from a five-character payload without its check character (for examples)."""
    return make_code(short[:2], short[2:])


# ---------------------------------------------------------------- state and actions

@dataclass(frozen=True)
class State(CoreState):
    """A whole Sugarrr! game as the companion knows it. Cards are codes.

    ``columns`` holds each column bottom to top; ``piles`` each player's score pile
    (fruit and Fruit-O-Saurs, sorted); ``valley`` the Fruit-O-Saurs not yet attracted;
    ``removed`` cards of columns taken out of the game at 10+ cards. ``deck`` and
    ``market`` are counts of the Fruit Deck and the Market Row.
    """

    players: tuple[str, ...]
    phase: str
    active: int
    columns: tuple[tuple[str, ...], ...]
    valley: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    removed: tuple[str, ...]
    deck: int
    market: int
    turn: int = 1
    chosen: int | None = None            # the column chosen for this turn's Play
    played: tuple[str, ...] = ()          # cards played this turn, in order
    attract_left: int = 0                 # Fruit-O-Saur total still to take
    pending: tuple[int, ...] = ()         # columns waiting for a new starting card
    closed: bool = False                  # the turn's play is resolved; only new columns remain
    final_round: bool = False             # the Fruit Deck has run out
    final_left: int | None = None         # final turns still to take, this one included
    hand: tuple[str, ...] = ()            # hand cards scanned by the active player at the end

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def where(self, code: str) -> str | None:
        """Where a card is, as words for a message, or None when it is still unseen."""
        for i, col in enumerate(self.columns):
            if code in col:
                return f"in column {i + 1}"
        for i, pile in enumerate(self.piles):
            if code in pile:
                return f"in {self.players[i]}'s score pile"
        if code in self.removed:
            return "out of the game (its column was removed)"
        if code in self.hand:
            return f"counted in {self.players[self.active]}'s hand"
        return None

    @property
    def top_cards(self) -> tuple[str | None, ...]:
        """Each column's top card, or None for an empty column."""
        return tuple(col[-1] if col else None for col in self.columns)


@dataclass(frozen=True)
class StartColumn:
    """A card drawn from the Fruit Deck starts the next column waiting for one
    (set-up, after a Gather, after a column of 10+ is removed)."""

    card: str


@dataclass(frozen=True)
class ChooseColumn:
    """The active player picks the column (0-based) for this turn's Play."""

    column: int


@dataclass(frozen=True)
class PlayCard:
    """One card from the active player's hand onto ``column`` (0-based)."""

    card: str
    column: int


@dataclass(frozen=True)
class Done:
    """The active player has played all the cards they want: Gather or Attract follows."""


@dataclass(frozen=True)
class TakeSaur:
    """A Fruit-O-Saur taken from The Valley while attracting."""

    card: str


@dataclass(frozen=True)
class Swap:
    """Swap ``count`` (1-5) cards from the hand with the Market Row. ``unplayed`` is a card
    scanned for a Play that was waiting for its column: it was not played and goes back
    into the hand, and the table is told so (issue 36)."""

    count: int
    unplayed: str | None = None


@dataclass(frozen=True)
class Pass:
    """Do nothing (Final Round only); ``unplayed`` as for :class:`Swap`."""

    unplayed: str | None = None


@dataclass(frozen=True)
class HandCard:
    """A card left in the active player's hand at the end, added to their score pile."""

    card: str


@dataclass(frozen=True)
class HandDone:
    """Every card left in the active player's hand has been scanned."""


@dataclass(frozen=True)
class SetDeck:
    """The table counted the Fruit Deck and says it holds ``count`` cards."""

    count: int


Action = StartColumn | ChooseColumn | PlayCard | Done | TakeSaur | Swap | Pass | HandCard | HandDone | SetDeck


# ---------------------------------------------------------------- outcome events

@dataclass(frozen=True)
class ColumnStarted(Outcome):
    """``card`` (a code) drawn from the Fruit Deck starts column ``column`` (0-based): produced by each
    :class:`StartColumn` (Sugarrr! rulebook, "Set Up", "Gather Fruit", "Column Height")."""

    column: int
    card: str


@dataclass(frozen=True)
class PlayAccepted(Outcome):
    """``card`` was played onto column ``column`` (0-based), which now holds ``size`` cards: produced by
    each :class:`PlayCard` (Sugarrr! rulebook, "Play")."""

    card: str
    column: int
    size: int


@dataclass(frozen=True)
class Gathered(Outcome):
    """Seat ``player`` (0-based) Gathers Fruit: the last card's number matched the cards in column ``column``
    (0-based), and all of them, ``cards`` (bottom to top), go to their score pile. Produced at :class:`Done`
    (Sugarrr! rulebook, "Gather Fruit")."""

    player: int
    column: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class AttractPrompt(Outcome):
    """Seat ``player`` (0-based) Attracts Fruit-O-Saurs: take from The Valley cards whose ``total`` equals the
    number of cards played (0: no Fruit-O-Saurs there add up to it, nothing to take). Produced at :class:`Done`
    when the play does not Gather Fruit (Sugarrr! rulebook, "Attract Fruit-O-Saurs")."""

    player: int
    total: int


@dataclass(frozen=True)
class SaurTaken(Outcome):
    """Seat ``player`` (0-based) took the Fruit-O-Saur ``card`` from The Valley into their score pile; ``left``
    is the total still to take (0: the Attract is done). Produced by each :class:`TakeSaur`."""

    player: int
    card: str
    left: int


@dataclass(frozen=True)
class ColumnRemoved(Outcome):
    """Column ``column`` (0-based) had 10 or more cards at the end of the turn: its ``cards`` (bottom to top)
    are removed from the game (Sugarrr! rulebook, "Column Height")."""

    column: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class FinalRound(Outcome):
    """The Fruit Deck ran out (a draw emptied it, or the table counted it at 0): the Final Round is triggered,
    once (Sugarrr! rulebook, "Game End": "When the Fruit Deck runs out, the Final Round is triggered")."""


@dataclass(frozen=True)
class DeckCounted(Outcome):
    """The table counted the Fruit Deck (:class:`SetDeck`): it now holds ``deck`` cards."""

    deck: int


@dataclass(frozen=True)
class HandAdded(Outcome):
    """After their final turn, seat ``player`` (0-based) added the ``cards`` scanned from their hand (none:
    an empty hand) to their score pile: produced by :class:`HandDone` (Sugarrr! rulebook, "Game End")."""

    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class HandScored(Outcome):
    """After their final turn, seat ``player`` (0-based) scanned ``card`` from their hand; it is added to their
    score pile at :class:`HandDone` (Sugarrr! rulebook, "Game End")."""

    player: int
    card: str


# ---------------------------------------------------------------- helpers

def name(code: str) -> str:
    return CARDS[code].name


def fits(before: Card | None, card: Card) -> bool:
    """May ``card`` go on ``before``? Fruit or number must match; Fruit Salad goes on
    anything and anything goes on it; anything starts an empty column."""
    if before is None or before.kind == "salad" or card.kind == "salad":
        return True
    return card.fruit == before.fruit or card.number == before.number


def _a(word: str) -> str:
    return f"{word}" if word.endswith("s") else f"a {word}"


def _an(number: int) -> str:
    return f"an {number}" if number in (8, 11, 18) else f"a {number}"


def mismatch(before: Card, card: Card) -> str:
    """The player-facing reason ``card`` cannot go on ``before``."""
    return say("mismatch", card=card.name, before=before.name, fruit=_a(before.fruit), number=_an(before.number))


def can_total(values: Iterable[int], total: int) -> bool:
    """Can some of ``values`` add up to exactly ``total``? (subset sum; total >= 0)"""
    reachable = 1  # bit i set: i is reachable
    for v in values:
        reachable |= reachable << v
    return bool(reachable >> total & 1)


def legal_columns(state: State, code: str) -> tuple[int, ...]:
    """Columns (0-based) where this card may be played as the first card of a Play."""
    card = CARDS[code]
    return tuple(i for i, col in enumerate(state.columns)
                 if fits(CARDS[col[-1]] if col else None, card))
