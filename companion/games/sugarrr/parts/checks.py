"""Sugarrr! legality: ``check(state, action)`` raises :class:`IllegalAction` with a
message a child can read, or returns when the action is legal now. One small function
per action (:data:`CHECKS`); pure."""

from __future__ import annotations

from typing import Callable

from companion.core.errors import IllegalAction

from ..state import (ATTRACT, COLUMNS, HAND, HAND_SIZE, NEW_COLUMN, OVER, PLAYING, SETUP_PHASE, TURN, ChooseColumn,
                     Done, HandCard, HandDone, Pass, PlayCard, SetDeck, StartColumn, State, Swap, TakeSaur, can_total,
                     fits, mismatch)
from .cards import CARDS, FRUIT_DECK_SIZE, Card
from ..messages import count, say


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


def busy(state: State) -> str:
    """What the active player is in the middle of, as the reason another input is refused."""
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


def _waiting_for_a_column(state: State) -> None:
    """While columns wait for a starting card, only that card (or a deck count) goes."""
    if state.phase in (SETUP_PHASE, NEW_COLUMN):
        raise IllegalAction(None, say("start_column_first", col=state.pending[0] + 1))


# ---------------------------------------------------------------- one check per action

def deck_most(state: State) -> int:
    """The most cards the Fruit Deck can hold now: every Fruit Deck card (fruit and Fruit
    Salad) but the 5 in each hand (dealt at set-up and refilled to 5 after each turn:
    rulebook, "Setup" and "Gather"; those played this turn are in the columns), the
    columns, the score piles and the columns taken out of the game. The Market Row's
    cards are left in: players may refill from it, so the companion cannot know it."""
    hands = HAND_SIZE * len(state.players) - len(state.played)
    placed = sum(len(col) for col in state.columns) + len(state.removed) + \
        sum(1 for pile in state.piles for code in pile if CARDS[code].is_fruit_deck)
    return max(0, FRUIT_DECK_SIZE - hands - placed)


def _set_deck(state: State, action: SetDeck) -> None:
    """The table's count of the Fruit Deck: any time until the deck runs out, and never
    more than the cards that can be in it (:func:`deck_most`). "When the Fruit Deck runs
    out, the Final Round is triggered" (rulebook, "Game End"): once triggered (by a draw or
    by a count of 0) no count takes it back, not even during the turn that emptied it."""
    if state.final_round:
        raise IllegalAction(None, say("deck_settled"))
    most = deck_most(state)
    if not 0 <= action.count <= most:
        raise IllegalAction(None, say("deck_range", most=most))


def _start_column(state: State, action: StartColumn) -> None:
    """A card from the Fruit Deck starts a waiting column (rulebook, "Setup", "Gather")."""
    if state.phase not in (SETUP_PHASE, NEW_COLUMN):
        raise IllegalAction(action.card, say("no_column_waiting"))
    require_unseen(state, action.card, "used to start a column")
    if state.deck == 0:
        raise IllegalAction(action.card, say("deck_empty_scan"))


def _choose_column(state: State, action: ChooseColumn) -> None:
    _waiting_for_a_column(state)
    if state.phase != TURN:
        raise IllegalAction(None, say("already_playing", who=state.players[state.active], col=state.chosen + 1)
                            if state.phase == PLAYING else say("not_time_column"))
    if not 0 <= action.column < COLUMNS:
        raise IllegalAction(None, say("column_range", n=COLUMNS))


def _play_card(state: State, action: PlayCard) -> None:
    """"Play": cards onto one column, each matching the one below by fruit or number
    (rulebook, "Play"), at most a hand of them."""
    _waiting_for_a_column(state)
    if state.phase not in (TURN, PLAYING):
        raise IllegalAction(action.card, busy(state))
    card = require_unseen(state, action.card, "played on a column")
    if not 0 <= action.column < COLUMNS:
        raise IllegalAction(action.card, say("column_range", n=COLUMNS))
    if state.phase == PLAYING and action.column != state.chosen:
        raise IllegalAction(action.card, say("same_column", col=state.chosen + 1))
    if len(state.played) >= HAND_SIZE:
        raise IllegalAction(action.card, say("hand_limit_played", who=state.players[state.active],
                                             cards=count(HAND_SIZE, "card"), n=HAND_SIZE))
    col = state.columns[action.column]
    before = CARDS[col[-1]] if col else None
    if not fits(before, card):
        raise IllegalAction(action.card, mismatch(before, card))


def _done(state: State, action: Done) -> None:
    _waiting_for_a_column(state)
    if state.phase == TURN:
        raise IllegalAction(None, say("play_first_final" if state.final_left is not None else "play_first"))
    if state.phase != PLAYING:
        raise IllegalAction(None, busy(state))


def _take_saur(state: State, action: TakeSaur) -> None:
    """"Take Fruit-O-Saur cards whose total equals the number of cards you played"
    (rulebook, "Attract"), only ones that leave a total The Valley can still make."""
    _waiting_for_a_column(state)
    if state.phase != ATTRACT:
        raise IllegalAction(action.card, say("attract_only"))
    card = CARDS[action.card]
    need = state.attract_left
    if card.kind != "saur":
        raise IllegalAction(action.card, say("not_a_saur", card=card.name, need=need))
    if action.card not in state.valley:
        raise IllegalAction(action.card, say("saur_not_in_valley", card=card.name, where=state.where(action.card)))
    if card.value > need:
        raise IllegalAction(action.card, say("saur_too_big", card=card.name, who=state.players[state.active], need=need))
    rest = [CARDS[c].value for c in state.valley if c != action.card]
    if not can_total(rest, need - card.value):
        raise IllegalAction(action.card, say("saur_cannot_finish", card=card.name, rest=need - card.value, need=need))


def _swap(state: State, action: Swap) -> None:
    """"Swap (if cards are available in the Market Row)" 1 to 5 cards."""
    _waiting_for_a_column(state)
    if state.phase != TURN:
        raise IllegalAction(None, busy(state))
    if not 1 <= action.count <= HAND_SIZE:
        raise IllegalAction(None, say("swap_range", n=HAND_SIZE))
    if action.count > state.market:
        raise IllegalAction(None, say("market_short", cards=count(state.market, "card")) if state.market
                            else say("market_empty"))


def _pass(state: State, action: Pass) -> None:
    """Pass is a choice of the Final Round only (rulebook, "Game End")."""
    _waiting_for_a_column(state)
    if state.phase != TURN:
        raise IllegalAction(None, busy(state))
    if state.final_left is None:
        raise IllegalAction(None, say("pass_final_only"))


def _hand_card(state: State, action: HandCard) -> None:
    _waiting_for_a_column(state)
    if state.phase != HAND:
        raise IllegalAction(action.card, say("hand_not_now"))
    require_unseen(state, action.card, "in a hand")
    if len(state.hand) >= HAND_SIZE:
        raise IllegalAction(action.card, say("hand_full", n=HAND_SIZE))


def _hand_done(state: State, action: HandDone) -> None:
    _waiting_for_a_column(state)
    if state.phase != HAND:
        raise IllegalAction(None, busy(state))


CHECKS: dict[type, Callable] = {
    SetDeck: _set_deck, StartColumn: _start_column, ChooseColumn: _choose_column, PlayCard: _play_card, Done: _done,
    TakeSaur: _take_saur, Swap: _swap, Pass: _pass, HandCard: _hand_card, HandDone: _hand_done,
}


def check(state: State, action) -> None:
    """Raise :class:`IllegalAction` (message for the table) unless ``action`` is legal now."""
    if state.phase == OVER:
        raise IllegalAction(None, say("over"))
    rule = CHECKS.get(type(action))
    if rule is None:
        raise IllegalAction(None, say("unknown_action", action=type(action).__name__))
    rule(state, action)
