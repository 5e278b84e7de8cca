"""Sugarrr! rules: state, legal actions, apply, scoring (../shared/rulebooks/sugarrr.txt).

Pure: no I/O, no pygame; imports only ``companion.core``, this game's ``cards`` and the
standard library. ``check(state, action)`` raises :class:`IllegalAction`; ``apply``
trusts its caller and returns ``(new_state, events)``; ``step`` does both.

The companion sees only what is scanned: the five columns, every card played, the
Fruit-O-Saurs in The Valley and in score piles, and (at the end) the hands. Hands, the
Market Row and the Fruit Deck stay unseen; the Fruit Deck and Market Row are counted.

>>> s = new_game(["Ana", "Ben"])
>>> for c in ["SRP21", "SRS31", "SRG51", "SRA61", "SRB81"]:
...     s, _ = step(s, StartColumn(card_code(c)))
>>> s.phase, s.deck
('turn', 98)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from companion.core.codes import make_code
from companion.core.errors import IllegalAction
from companion.core.events import GameOver, Outcome, TurnEnded  # noqa: F401  (core events this game returns)
from companion.core.game import Result as CoreResult

from .cards import CARDS, FRUIT_DECK_SIZE, SAUR_CODES, SETUP, Card
from .messages import count, listing, say
from .scoring import FruitScore, Result, ScoreSheet, result_of, score_pile  # noqa: F401  (part of the rules API)

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
class State:
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
    """Swap ``count`` (1-5) cards from the hand with the Market Row."""

    count: int


@dataclass(frozen=True)
class Pass:
    """Do nothing (Final Round only)."""


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
    column: int
    card: str


@dataclass(frozen=True)
class PlayAccepted(Outcome):
    card: str
    column: int
    size: int


@dataclass(frozen=True)
class Gathered(Outcome):
    player: int
    column: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class AttractPrompt(Outcome):
    player: int
    total: int


@dataclass(frozen=True)
class SaurTaken(Outcome):
    player: int
    card: str
    left: int


@dataclass(frozen=True)
class ColumnRemoved(Outcome):
    column: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class FinalRound(Outcome):
    pass


@dataclass(frozen=True)
class DeckCounted(Outcome):
    deck: int


@dataclass(frozen=True)
class HandScored(Outcome):
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


def result(state: State) -> CoreResult | None:
    """The outcome once the game is over (the contract's ``Result``), else None."""
    if state.phase != OVER:
        return None
    return result_of(state.players, state.piles).outcome("deck-out")


def public_view(state: State, viewer) -> State:
    """Everything the companion knows of a Sugarrr! game is on the table for all to see
    (hands are only scanned at the very end, into score piles), so every viewer sees it."""
    return state


def score_holdings(holdings: list[tuple[str, list[str]]]) -> CoreResult:
    """Score each player's pile (``companion score sugarrr``): ``[(name, [code, ...])]``.
    Raises ValueError for a repeated name or a code that is not a Sugarrr! card."""
    names = [name for name, _ in holdings]
    if len(set(names)) != len(names):
        raise ValueError("two players have the same name")
    for _, codes in holdings:
        for code in codes:
            if code not in CARDS:
                raise ValueError(f"{code} is not a Sugarrr! card")
    return result_of(names, [codes for _, codes in holdings]).outcome()


def new_game(players: Iterable[str]) -> State:
    """A game at set-up, before the five starting column cards are scanned.

    Raises ValueError for a player count outside 2-4 or repeated names.
    """
    players = tuple(players)
    if not SETUP["min_players"] <= len(players) <= SETUP["max_players"]:
        raise ValueError(f"Sugarrr! is for {SETUP['min_players']}-{SETUP['max_players']} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("two players have the same name")
    deck = FRUIT_DECK_SIZE - MARKET_ROW - HAND_SIZE * len(players)
    return State(players=players, phase=SETUP_PHASE, active=0, columns=((),) * COLUMNS,
                 valley=SAUR_CODES, piles=((),) * len(players), removed=(), deck=deck,
                 market=MARKET_ROW, pending=tuple(range(COLUMNS)))


# ---------------------------------------------------------------- legality

def require_unseen(state: State, code: str, verb: str) -> Card:
    """The card, if it is a Fruit Deck card not yet seen anywhere; else :class:`IllegalAction`."""
    card = CARDS[code]
    if card.kind == "saur":
        owner = next((i for i, pile in enumerate(state.piles) if code in pile), None)
        if owner is None:
            raise IllegalAction(code, say("saur_not_playable_valley", card=card.name, verb=verb))
        raise IllegalAction(code, say("saur_not_playable_pile", card=card.name, who=state.players[owner], verb=verb))
    where = state.where(code)
    if where:
        raise IllegalAction(code, say("seen_before", card=card.name, where=where))
    return card


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` (message for the table) unless ``action`` is legal now."""
    phase, who = state.phase, state.players[state.active]
    if phase == OVER:
        raise IllegalAction(None, say("over"))
    if isinstance(action, SetDeck):
        if state.final_left is not None:
            raise IllegalAction(None, say("deck_settled"))
        if not 0 <= action.count <= FRUIT_DECK_SIZE:
            raise IllegalAction(None, say("deck_range", most=FRUIT_DECK_SIZE))
        return
    if isinstance(action, StartColumn):
        if phase not in (SETUP_PHASE, NEW_COLUMN):
            raise IllegalAction(action.card, say("no_column_waiting"))
        require_unseen(state, action.card, "used to start a column")
        if state.deck == 0:
            raise IllegalAction(action.card, say("deck_empty_scan"))
        return
    if phase in (SETUP_PHASE, NEW_COLUMN):
        col = state.pending[0] + 1
        raise IllegalAction(None, say("start_column_first", col=col))
    if isinstance(action, ChooseColumn):
        if phase != TURN:
            raise IllegalAction(None, say("already_playing", who=who, col=state.chosen + 1) if phase == PLAYING
                                else say("not_time_column"))
        if not 0 <= action.column < COLUMNS:
            raise IllegalAction(None, say("column_range", n=COLUMNS))
        return
    if isinstance(action, PlayCard):
        if phase not in (TURN, PLAYING):
            raise IllegalAction(action.card, _busy(state))
        card = require_unseen(state, action.card, "played on a column")
        if not 0 <= action.column < COLUMNS:
            raise IllegalAction(action.card, say("column_range", n=COLUMNS))
        if phase == PLAYING and action.column != state.chosen:
            raise IllegalAction(action.card, say("same_column", col=state.chosen + 1))
        if len(state.played) >= HAND_SIZE:
            raise IllegalAction(action.card, say("hand_limit_played", who=who, cards=count(HAND_SIZE, "card"), n=HAND_SIZE))
        col = state.columns[action.column]
        before = CARDS[col[-1]] if col else None
        if not fits(before, card):
            raise IllegalAction(action.card, mismatch(before, card))
        return
    if isinstance(action, Done):
        if phase != PLAYING:
            if phase == TURN:
                raise IllegalAction(None, say("play_first_final" if state.final_left is not None else "play_first"))
            raise IllegalAction(None, _busy(state))
        return
    if isinstance(action, TakeSaur):
        if phase != ATTRACT:
            raise IllegalAction(action.card, say("attract_only"))
        card = CARDS[action.card]
        if card.kind != "saur":
            raise IllegalAction(action.card, say("not_a_saur", card=card.name, need=state.attract_left))
        if action.card not in state.valley:
            raise IllegalAction(action.card, say("saur_not_in_valley", card=card.name, where=state.where(action.card)))
        if card.value > state.attract_left:
            raise IllegalAction(action.card, say("saur_too_big", card=card.name, who=who, need=state.attract_left))
        rest = [CARDS[c].value for c in state.valley if c != action.card]
        if not can_total(rest, state.attract_left - card.value):
            raise IllegalAction(action.card, say("saur_cannot_finish", card=card.name, rest=state.attract_left - card.value,
                                                 need=state.attract_left))
        return
    if isinstance(action, Swap):
        if phase != TURN:
            raise IllegalAction(None, _busy(state))
        if not 1 <= action.count <= HAND_SIZE:
            raise IllegalAction(None, say("swap_range", n=HAND_SIZE))
        if action.count > state.market:
            raise IllegalAction(None, say("market_short", cards=count(state.market, "card")) if state.market
                                else say("market_empty"))
        return
    if isinstance(action, Pass):
        if phase != TURN:
            raise IllegalAction(None, _busy(state))
        if state.final_left is None:
            raise IllegalAction(None, say("pass_final_only"))
        return
    if isinstance(action, HandCard):
        if phase != HAND:
            raise IllegalAction(action.card, say("hand_not_now"))
        require_unseen(state, action.card, "in a hand")
        if len(state.hand) >= HAND_SIZE:
            raise IllegalAction(action.card, say("hand_full", n=HAND_SIZE))
        return
    if isinstance(action, HandDone):
        if phase != HAND:
            raise IllegalAction(None, _busy(state))
        return
    raise IllegalAction(None, say("unknown_action", action=type(action).__name__))


def _busy(state: State) -> str:
    who = state.players[state.active]
    if state.phase == PLAYING:
        return say("busy_playing", who=who, col=(state.chosen or 0) + 1)
    if state.phase == ATTRACT:
        return say("busy_attract", who=who, need=state.attract_left)
    if state.phase == HAND:
        return say("hand_scan", who=who, scanned=count(len(state.hand), "card"))
    if state.phase == TURN:
        return say("busy_turn_final" if state.final_left is not None else "busy_turn", who=who)
    return say("not_now")


# ---------------------------------------------------------------- application

def step(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Check then apply. Raises :class:`IllegalAction`; on error nothing changes."""
    check(state, action)
    return apply(state, action)


def apply(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Apply a legal action (call :func:`check` first). Returns the new state and the
    outcome events, in the order a player would see them."""
    events: list[Outcome] = []
    who = state.players[state.active]
    if isinstance(action, SetDeck):
        state = replace(state, deck=action.count, final_round=action.count == 0)
        events.append(DeckCounted(say("deck_counted", deck=count(action.count, "card")), action.count))
        if action.count == 0:
            events.append(FinalRound(say("deck_out_after_turn")))
            if state.pending:
                state = _columns_stay_empty(state, events)
        return state, events
    if isinstance(action, StartColumn):
        col = state.pending[0]
        columns = _set(state.columns, col, (action.card,))
        state = _draw(replace(state, columns=columns, pending=state.pending[1:]), 1, events)
        events.insert(0, ColumnStarted(say("column_started", card=name(action.card), col=col + 1), col, action.card))
        if state.deck == 0:
            state = replace(state, pending=())
        if not state.pending:
            if state.phase == SETUP_PHASE:
                state = replace(state, phase=TURN)
                events.append(TurnEnded(say("setup_done", who=state.players[0]), -1, 0))
            elif state.closed:
                state = _next(state, events)
            else:
                state = _close_turn(state, events)
        return state, events
    if isinstance(action, ChooseColumn):
        return replace(state, chosen=action.column), events
    if isinstance(action, PlayCard):
        col = state.columns[action.column] + (action.card,)
        state = replace(state, phase=PLAYING, chosen=action.column, played=state.played + (action.card,),
                        columns=_set(state.columns, action.column, col))
        events.append(PlayAccepted(say("play_accepted", card=name(action.card), col=action.column + 1, cards=count(len(col), "card")),
                                   action.card, action.column, len(col)))
        return state, events
    if isinstance(action, Done):
        col_i = state.chosen
        col = state.columns[col_i]
        last = CARDS[state.played[-1]]
        n = len(state.played)
        if last.kind == "fruit" and last.number == len(col):
            piles = _add(state.piles, state.active, col)
            state = replace(state, piles=piles, columns=_set(state.columns, col_i, ()))
            then = say("gather_draw") if state.deck > 0 else say("gather_no_draw")
            events.append(Gathered(say("gathered", who=who, card=last.name, cards=count(len(col), "card"), col=col_i + 1)
                                   + then, state.active, col_i, col))
            if state.deck > 0:
                return replace(state, phase=NEW_COLUMN, pending=(col_i,)), events
            return _close_turn(state, events), events
        why = say("why_salad") if last.kind == "salad" else say("why_count", cards=count(len(col), "card"),
                                                                 number=last.number)
        if can_total((CARDS[c].value for c in state.valley), n):
            events.append(AttractPrompt(say("attract", who=who, why=why, need=n), state.active, n))
            return replace(state, phase=ATTRACT, attract_left=n), events
        events.append(AttractPrompt(say("attract_none", who=who, why=why, need=n), state.active, 0))
        return _close_turn(state, events), events
    if isinstance(action, TakeSaur):
        card = CARDS[action.card]
        left = state.attract_left - card.value
        state = replace(state, valley=tuple(c for c in state.valley if c != action.card),
                        piles=_add(state.piles, state.active, (action.card,)), attract_left=left)
        events.append(SaurTaken(say("saur_taken", who=who, card=card.name) + (say("saur_more", need=left) if left else ""),
                                state.active, action.card, left))
        return (_close_turn(state, events) if left == 0 else state), events
    if isinstance(action, Swap):
        events.append(Outcome(say("swapped", who=who, cards=count(action.count, "card"))))
        return _close_turn(state, events), events
    if isinstance(action, Pass):
        events.append(Outcome(say("passed", who=who)))
        return _close_turn(state, events), events
    if isinstance(action, HandCard):
        state = replace(state, hand=state.hand + (action.card,))
        events.append(HandScored(say("hand_scored", card=name(action.card), who=who,
                                     scanned=count(len(state.hand), "card")), state.active, action.card))
        return state, events
    if isinstance(action, HandDone):
        state = replace(state, piles=_add(state.piles, state.active, state.hand), hand=())
        return _advance(state, events), events
    raise TypeError(f"not an action: {action!r}")


def _set(columns: tuple, i: int, value: tuple) -> tuple:
    return columns[:i] + (value,) + columns[i + 1:]


def _add(piles: tuple, player: int, cards: Iterable[str]) -> tuple:
    return _set(piles, player, tuple(sorted(piles[player] + tuple(cards))))


def _draw(state: State, n: int, events: list[Outcome]) -> State:
    """Take ``n`` cards from the Fruit Deck; what it cannot give comes out of the Market
    Row (players refill their hands from it). An empty deck triggers the Final Round."""
    short = max(0, n - state.deck)
    state = replace(state, deck=max(0, state.deck - n), market=max(0, state.market - short))
    if state.deck == 0 and not state.final_round:
        state = replace(state, final_round=True)
        events.append(FinalRound(say("deck_ran_out")))
    return state


def _columns_stay_empty(state: State, events: list[Outcome]) -> State:
    """The Fruit Deck ran out while columns wait for a starting card: they stay empty
    and play goes on (rulebook, "Gather": a new column is drawn from the Fruit Deck; with
    none left there is nothing to draw; docs/rules-notes.md)."""
    waiting = [c + 1 for c in state.pending]
    events.append(Outcome(say("column_stays_empty" if len(waiting) == 1 else "columns_stay_empty",
                              cols=listing(waiting))))
    state = replace(state, pending=())
    if state.phase == SETUP_PHASE:
        events.append(TurnEnded(say("setup_done", who=state.players[0]), -1, 0))
        return replace(state, phase=TURN)
    return _next(state, events) if state.closed else _close_turn(state, events)


def _close_turn(state: State, events: list[Outcome]) -> State:
    """End of a turn: refill from the deck for each card played, remove columns of 10+
    (rulebook, "Column Height"), then wait for new column cards or pass the turn."""
    state = _draw(state, len(state.played), events)
    pending = []
    columns, removed = state.columns, state.removed
    for i, col in enumerate(columns):
        if len(col) >= COLUMN_LIMIT:
            columns, removed = _set(columns, i, ()), removed + col
            pending.append(i)
            events.append(ColumnRemoved(say("column_removed", col=i + 1, cards=count(len(col), "card")), i, col))
    state = replace(state, columns=columns, removed=tuple(sorted(removed)), closed=True,
                    pending=tuple(pending) if state.deck > 0 else ())
    if state.pending:
        events.append(Outcome(say("draw_for_column", col=state.pending[0] + 1)))
        return replace(state, phase=NEW_COLUMN)
    return _next(state, events)


def _next(state: State, events: list[Outcome]) -> State:
    """After a closed turn: in the Final Round the player adds their hand to their score
    pile (rulebook, "Game End"); otherwise the turn passes."""
    if state.final_left is not None:
        who = state.players[state.active]
        events.append(Outcome(say("hand_scan", who=who, scanned=count(0, "card"))))
        return replace(state, phase=HAND)
    return _advance(state, events)


def _advance(state: State, events: list[Outcome]) -> State:
    """Pass the turn to the left, counting down the Final Round."""
    final_left = state.final_left
    if final_left is not None:
        final_left -= 1
        if final_left == 0:
            result = result_of(state.players, state.piles)
            state = replace(state, phase=OVER, final_left=0, chosen=None, played=(), closed=False)
            events.append(GameOver(say("game_over_one" if len(result.winners) == 1 else "game_over_many",
                                       who=listing(list(result.winners))),
                                   result.outcome("deck-out")))
            return state
    elif state.final_round:
        final_left = len(state.players)
        events.append(FinalRound(say("final_round")))
    nxt = (state.active + 1) % len(state.players)
    events.append(TurnEnded(say("turn", who=state.players[nxt]), state.active, nxt))
    return replace(state, phase=TURN, active=nxt, turn=state.turn + 1, chosen=None, played=(),
                   attract_left=0, pending=(), closed=False, final_left=final_left, hand=())


def all_places(state: State) -> dict[str, str]:
    """Every seen card's place (for invariant checks): code -> "column"/"pile"/"valley"/"removed"/"hand"."""
    places: dict[str, str] = {}
    groups = [("column", c) for col in state.columns for c in col] + \
             [("pile", c) for pile in state.piles for c in pile] + \
             [("valley", c) for c in state.valley] + [("removed", c) for c in state.removed] + \
             [("hand", c) for c in state.hand]
    for place, code in groups:
        if code in places:
            raise AssertionError(f"{code} is in two places: {places[code]} and {place}")
        places[code] = place
    return places
