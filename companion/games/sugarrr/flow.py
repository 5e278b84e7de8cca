"""Sugarrr! table flow: what a scan or a tap means in the current state.

``action_for(state, item)`` turns one input into one rules action, or raises:
:class:`BadScan` (not a Sugarrr! card), :class:`AmbiguousAction` (the player must tap a
column first), :class:`IllegalAction` (not allowed now). It never changes anything.

Touch commands: ``column N`` (1-based), ``done``, ``swap N``, ``pass``, ``deck N``.

>>> s = rules.new_game(["Ana", "Ben"])
>>> action_for(s, Touch("done", 0.0))
Done()
>>> rules.step(s, rules.Done())
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: First draw a card from the Fruit Deck and scan it to start column 1.
"""

from __future__ import annotations

import re

from companion.core.errors import AmbiguousAction, BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch

from . import rules
from .cards import CARDS, card


NEW_GAME = "New game: scan the five starting column cards."


def new_entry() -> None:
    """Sugarrr! has no half-entered input: every scan or tap is one action."""
    return None


def read(state: rules.State, entry: None, item: Input) -> tuple[None, rules.Action, str]:
    """The contract's flow step (``companion.core.game``): one input, one action."""
    return None, action_for(state, item), ""


def action_for(state: rules.State, item: Input) -> rules.Action:
    """The rules action this input asks for (see module docstring for errors)."""
    if isinstance(item, CardScanned):
        code = card(item.code).code
        _check_seat(state, item.seat)
        return _scan(state, code)
    if isinstance(item, Touch):
        return _command(state, item.command)
    if isinstance(item, ButtonPressed) and item.name == "confirm":
        return _command(state, "done")  # the Confirm button is the Done tap
    raise IllegalAction(None, "Sugarrr! does not use the tray.")


def _check_seat(state: rules.State, seat: int | None) -> None:
    """A reader bound to a seat (1-based) may only scan on its player's turn; set-up and
    new-column cards are anyone's to scan. An unbound reader is the active player's."""
    if seat is None or state.phase in (rules.SETUP_PHASE, rules.NEW_COLUMN, rules.OVER):
        return
    if not 1 <= seat <= len(state.players):
        raise IllegalAction(None, f"A reader is set up for seat {seat}, but only {len(state.players)} are playing.")
    if seat - 1 != state.active:
        raise IllegalAction(None, f"It is {state.players[state.active]}'s turn: that card came from "
                                  f"{state.players[seat - 1]}'s reader.")


def _scan(state: rules.State, code: str) -> rules.Action:
    phase = state.phase
    if phase in (rules.SETUP_PHASE, rules.NEW_COLUMN):
        return rules.StartColumn(code)
    if phase == rules.ATTRACT:
        return rules.TakeSaur(code)
    if phase == rules.HAND:
        return rules.HandCard(code)
    if phase == rules.PLAYING:
        return rules.PlayCard(code, state.chosen)
    if phase == rules.TURN:
        the_card = rules.require_unseen(state, code, "played on a column")
        if state.chosen is not None:
            return rules.PlayCard(code, state.chosen)
        fits = rules.legal_columns(state, code)
        if len(fits) == 1:
            return rules.PlayCard(code, fits[0])
        if not fits:
            tops = ", ".join(CARDS[c].name for c in state.top_cards if c)
            raise IllegalAction(code, f"{the_card.name} does not go on any column: it needs the same fruit "
                                      f"or number as a top card ({tops}).")
        cols = ", ".join(str(i + 1) for i in fits[:-1]) + f" and {fits[-1] + 1}"
        raise AmbiguousAction(code, f"{the_card.name} fits columns {cols}: tap a column first, then scan it again.")
    raise IllegalAction(code, "The game is over.")


def _command(state: rules.State, command: str) -> rules.Action:
    words = command.strip().lower().split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    number = int(args[0]) if args and re.fullmatch(r"[0-9]{1,4}", args[0]) else None
    if verb == "column" and number is not None:
        return rules.ChooseColumn(number - 1)
    if verb == "done":
        return rules.HandDone() if state.phase == rules.HAND else rules.Done()
    if verb == "swap" and number is not None:
        return rules.Swap(number)
    if verb == "pass":
        return rules.Pass()
    if verb == "deck" and number is not None:
        return rules.SetDeck(number)
    if verb in ("column", "swap", "deck"):
        raise BadCommand(command, f"{verb.capitalize()} needs a number, like '{verb} 2'.")
    raise BadCommand(command, f"I don't know the command {command!r}.")


def prompt(state: rules.State, entry: None = None) -> str:
    """What the table should do next, in a few words, for the bottom of the screen."""
    who = state.players[state.active]
    col = (state.pending[0] + 1) if state.pending else None
    return {
        rules.SETUP_PHASE: f"Set-up: scan the card that starts column {col}.",
        rules.NEW_COLUMN: f"Draw a card from the Fruit Deck and scan it to start column {col}.",
        rules.TURN: f"{who}: scan a card to Play, or tap Swap" + (" or Pass." if state.final_left is not None else "."),
        rules.PLAYING: f"{who}: scan more cards for column {(state.chosen or 0) + 1}, or tap Done.",
        rules.ATTRACT: f"{who}: take Fruit-O-Saurs totalling {state.attract_left} from The Valley and scan them.",
        rules.HAND: f"{who}: scan the cards left in your hand, then tap Done.",
        rules.OVER: "Game over: scores are final.",
    }[state.phase]
