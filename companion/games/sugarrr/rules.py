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

from dataclasses import replace
from functools import lru_cache
from typing import Iterable

from companion.core.game import Rules as CoreRules
from companion.core.events import GameOver, Outcome, TurnEnded  # noqa: F401  (core events this game returns)
from companion.core.game import Result as CoreResult

from .state import *  # noqa: F401,F403  (rules is the one entry point: re-export the data)
from .state import (ATTRACT, COLUMN_LIMIT, COLUMNS, HAND, HAND_SIZE, MARKET_ROW, NEW_COLUMN, OVER, PLAYING,
                    SETUP_PHASE, TURN, Action, AttractPrompt, ChooseColumn, ColumnRemoved, ColumnStarted, DeckCounted,
                    Done, FinalRound, Gathered, HandAdded, HandCard, HandDone, HandScored, Pass, PlayAccepted, PlayCard,
                    SaurTaken, SetDeck, StartColumn, State, Swap, TakeSaur, can_total, card_code, fits, legal_columns,
                    mismatch, name)
from .parts.cards import CARDS, FRUIT_DECK_SIZE, SAUR_CODES, SETUP
from .parts.checks import busy, check, deck_most, require_unseen  # noqa: F401  (part of the rules API)
from .messages import count, listing, say
from .scoring import FruitScore, Result, ScoreSheet, result_of, score_pile  # noqa: F401  (part of the rules API)


def result(state: State) -> CoreResult | None:
    """The outcome once the game is over (the contract's ``Result``), else None."""
    if state.phase != OVER:
        return None
    return result_of(state.players, state.piles).outcome("deck-out")


def counters(view: State) -> dict[str, int]:
    """The pile the table counts, for the text log: the Fruit Deck."""
    return {"Fruit Deck": view.deck}


def live_scores(view: State) -> list[int]:
    """Each player's score so far, in seat order: their score pile scored as it stands
    (Sugarrr! rulebook, "Scoring"), the number the screen shows beside each name."""
    return list(_pile_totals(tuple(view.players), view.piles))


@lru_cache(maxsize=4)
def _pile_totals(players: tuple[str, ...], piles: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """The piles change only when fruit is gathered or attracted: most inputs reuse this."""
    return tuple(score_pile(who, pile).total for who, pile in zip(players, piles))


def public_view(state: State, viewer) -> State:
    """Everything the companion knows of a Sugarrr! game is on the table for all to see
    (hands are only scanned at the very end, into score piles), so every viewer sees it."""
    return state


def score_holdings(holdings: list[tuple[str, list[str]]]) -> CoreResult:
    """Score each player's pile (``companion score sugarrr``): ``[(name, [code, ...])]``.
    Raises ValueError for a repeated name or a code that is not a Sugarrr! card."""
    names = [name for name, _ in holdings]
    if len(set(names)) != len(names):
        raise ValueError(say("setup_same_name"))
    for _, codes in holdings:
        for code in codes:
            if code not in CARDS:
                raise ValueError(say("score_not_a_card", code=code))
    return result_of(names, [codes for _, codes in holdings]).outcome()


def new_game(players: Iterable[str]) -> State:
    """A game at set-up, before the five starting column cards are scanned.

    Raises ValueError for a player count outside 2-4 or repeated names.
    """
    players = tuple(players)
    if not SETUP["min_players"] <= len(players) <= SETUP["max_players"]:
        raise ValueError(say("setup_players", least=SETUP["min_players"], most=SETUP["max_players"], n=len(players)))
    if len(set(players)) != len(players):
        raise ValueError(say("setup_same_name"))
    deck = FRUIT_DECK_SIZE - MARKET_ROW - HAND_SIZE * len(players)
    return State(players=players, phase=SETUP_PHASE, active=0, columns=((),) * COLUMNS,
                 valley=SAUR_CODES, piles=((),) * len(players), removed=(), deck=deck,
                 market=MARKET_ROW, pending=tuple(range(COLUMNS)))


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
    if isinstance(action, SetDeck):  # (never once the Final Round is triggered: checks._set_deck)
        state = replace(state, deck=action.count, final_round=action.count == 0)
        events.append(DeckCounted(say("deck_counted", deck=count(action.count, "card")), action.count))
        if action.count == 0:
            events.append(FinalRound(_final_round(state, ended=bool(state.pending))))
            if state.pending:
                state = _columns_stay_empty(state, events)
        return state, events
    if isinstance(action, StartColumn):
        return _start_column(state, action, events), events
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
        return _done(state, who, events), events
    if isinstance(action, TakeSaur):
        card = CARDS[action.card]
        left = state.attract_left - card.value
        state = replace(state, valley=tuple(c for c in state.valley if c != action.card),
                        piles=_add(state.piles, state.active, (action.card,)), attract_left=left)
        events.append(SaurTaken(say("saur_taken", who=who, card=card.name) + (say("saur_more", need=left) if left else ""),
                                state.active, action.card, left))
        return (_close_turn(state, events) if left == 0 else state), events
    if isinstance(action, Swap):
        _unplayed(action.unplayed, who, events)
        events.append(Outcome(say("swapped", who=who, cards=count(action.count, "card"))))
        return _close_turn(state, events), events
    if isinstance(action, Pass):
        _unplayed(action.unplayed, who, events)
        events.append(Outcome(say("passed", who=who)))
        return _close_turn(state, events), events
    if isinstance(action, HandCard):
        state = replace(state, hand=state.hand + (action.card,))
        events.append(HandScored(say("hand_scored", card=name(action.card), who=who,
                                     scanned=count(len(state.hand), "card")), state.active, action.card))
        return state, events
    if isinstance(action, HandDone):
        events.append(HandAdded(say("hand_added", who=who, cards=count(len(state.hand), "card")) if state.hand
                                else say("hand_none", who=who), state.active, state.hand))
        state = replace(state, piles=_add(state.piles, state.active, state.hand), hand=())
        return _advance(state, events), events
    raise TypeError(f"not an action: {action!r}")


def _unplayed(code: str | None, who: str, events: list[Outcome]) -> None:
    """A card scanned for a Play, still waiting for its column when the player chose Swap
    or Pass instead: it was not played (rulebook, "choose 1 action: Swap or Play"), and
    the table is told (issue 36)."""
    if code is not None:
        events.append(Outcome(say("not_played", card=name(code), who=who)))


def _start_column(state: State, action: StartColumn, events: list[Outcome]) -> State:
    """A card scanned onto an empty column; the set-up ends, or the turn closes, once no
    column waits for one (Sugarrr! rulebook, "Set Up" and "Taking a Turn")."""
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
    return state


def _done(state: State, who: str, events: list[Outcome]) -> State:
    """The player is done playing: the column is gathered when its last card's number
    equals its length, else Fruit-O-Saurs may be attracted (Sugarrr! rulebook, "Taking a Turn"
    and "Column Height")."""
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
            return replace(state, phase=NEW_COLUMN, pending=(col_i,))
        return _close_turn(state, events)
    why = say("why_salad") if last.kind == "salad" else say("why_count", cards=count(len(col), "card"),
                                                             number=last.number)
    if can_total((CARDS[c].value for c in state.valley), n):
        events.append(AttractPrompt(say("attract", who=who, why=why, need=n), state.active, n))
        return replace(state, phase=ATTRACT, attract_left=n)
    events.append(AttractPrompt(say("attract_none", who=who, why=why, need=n), state.active, 0))
    return _close_turn(state, events)


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
        events.append(FinalRound(say("deck_ran_out") + _final_round(state, ended=True)))
    return state


def _final_round(state: State, ended: bool) -> str:
    """The Final Round's words, said once when it is triggered, as they are true then
    (rulebook, "Game End": "All players take one more turn"; issue 38): ``ended`` when the
    turn that emptied the deck ends now (a refill at its end, a column that cannot be
    started), so the round starts with the next player; else that turn is still on. In the
    set-up the first player's first turn comes before the round."""
    if state.phase == SETUP_PHASE:
        return say("deck_out_after_turn", who=state.players[0])
    if ended:
        return say("deck_out_now", who=state.players[(state.active + 1) % len(state.players)])
    return say("deck_out_after_turn", who=state.players[state.active])


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
    elif state.final_round:  # (announced once, when the deck ran out: FinalRound)
        final_left = len(state.players)
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


class SugarrrRules(CoreRules[State]):
    """Sugarrr!'s rules as the table's contract, :class:`companion.core.game.Rules` (rulebooks/sugarrr.txt)."""

    new_game = staticmethod(new_game)
    check = staticmethod(check)
    apply = staticmethod(apply)
    step = staticmethod(step)
    result = staticmethod(result)
    public_view = staticmethod(public_view)
    counters = staticmethod(counters)
    live_scores = staticmethod(live_scores)
    score_holdings = staticmethod(score_holdings)


#: The one SugarrrRules, which the descriptor's loader gives.
RULES = SugarrrRules()
