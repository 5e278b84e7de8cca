"""Sugarrr! table flow: what a scan or a tap means in the current state.

``read(state, entry, item)`` turns one input into one rules action, or only changes the
half-entered :class:`Entry`, or raises: :class:`BadScan` (not a Sugarrr! card),
:class:`BadCommand` (a touch command it cannot read), :class:`IllegalAction` (not
allowed now). It never changes anything.

The entry holds two things that are a step, not a rule action:

- a card that fits two or more columns, scanned before a column was chosen: a normal
  step ("tap the column it goes on"), not a rejection. The screen's columns then send
  ``place N``, which plays the waiting card on column N at once (no second scan). A
  ``column N`` tap keeps its old meaning (choose the column; the card is scanned again),
  so a stored game or a recorded trace replays exactly as it was played;
- the name of the player whose empty hand one Done has just counted (Final Round):
  a second Done right after it (a habit from before issue 36, when an empty hand took two,
  and so in games stored then) is answered as a step, not refused.

A card waiting for its column is never dropped without a word: Swap or Pass instead
says it was not played (it goes back into the hand), a ``column N`` tap says it was not
played, and a deck count keeps it waiting.

Touch commands: ``column N`` (1-based), ``place N`` (the waiting card goes on column N),
``done``, ``swap N``, ``pass``, ``deck N``.

>>> s = rules.new_game(["Ana", "Ben"])
>>> read(s, new_entry(), Touch("done", 0.0))[1]
Done()
>>> rules.step(s, rules.Done())
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: First draw a card from the Fruit Deck and scan it to start column 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.core.game import Flow as CoreFlow
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch, TouchCommand
from companion.core.game import Command

from . import rules
from .parts.cards import CARDS, FRUIT_DECK_SIZE, card
from .messages import count, listing, say

NEW_GAME = say("new_game")


@dataclass(frozen=True)
class Entry:
    """The half-entered input: ``card`` a scanned card waiting for its column (it fits
    several), ``empty_hand`` the player whose empty hand the last input (one Done) counted."""

    card: str | None = None
    empty_hand: str | None = None


#: The numbers each command takes (a column, how many cards to swap, the cards left in
#: the Fruit Deck), said when one is missing or not a number.
NUMBER_RANGES = {"column": (1, rules.COLUMNS), "place": (1, rules.COLUMNS), "swap": (1, rules.HAND_SIZE), "deck": (0, FRUIT_DECK_SIZE)}


#: The touch commands (``companion.core.commands``): what each is typed as, its buttons' words.
COMMANDS = (
    Command("column N", tries=lambda s: [f"column {i}" for i in range(1, rules.COLUMNS + 1)]),
    # "column" is the word a prompt asks to tap for a waiting card ("tap column 1 or 2 for ...")
    Command("place N", ("column",), lambda s: [f"place {i}" for i in range(1, rules.COLUMNS + 1)]),
    Command("done", ("Done",)),
    Command("swap N", ("Swap",), lambda s: [f"swap {n}" for n in range(1, rules.HAND_SIZE + 1)],
            menu=f"how many cards to swap, 1 to {rules.HAND_SIZE}"),
    Command("pass", ("Pass",)),
    Command("deck N", ("Deck",), lambda s: [f"deck {s.deck}"],
            menu=f"the cards left in the Fruit Deck, 0 to {FRUIT_DECK_SIZE}", example="deck 40"),
)


def new_entry() -> Entry:
    return Entry()


def read(state: rules.State, entry: Entry | None, item: Input) -> tuple[Entry, rules.Action | None, str]:
    """The contract's flow step (``companion.core.game``): ``(entry, action, message)``;
    action None when the input only changed the entry (``message`` says what to do)."""
    entry = entry or Entry()
    if isinstance(item, CardScanned):
        code = card(item.code).code
        _check_seat(state, item.seat)
        return _scan(state, code)
    if isinstance(item, Touch):
        return _command(state, entry, item.parsed)
    if isinstance(item, ButtonPressed) and item.name == "confirm":
        return _command(state, entry, TouchCommand.parse("done"))  # the Confirm button is the Done tap
    raise IllegalAction(None, say("no_tray"))


def action_for(state: rules.State, item: Input, entry: Entry | None = None) -> rules.Action | None:
    """The rules action this input asks for (None: it only changes the entry)."""
    return read(state, entry, item)[1]


def _check_seat(state: rules.State, seat: int | None) -> None:
    """A reader bound to a seat (1-based) may only scan on its player's turn; set-up and
    new-column cards are anyone's to scan. An unbound reader is the active player's."""
    if seat is None or state.phase in (rules.SETUP_PHASE, rules.NEW_COLUMN, rules.OVER):
        return
    if not 1 <= seat <= len(state.players):
        raise IllegalAction(None, say("seat_unknown", seat=seat, n=len(state.players)))
    if seat - 1 != state.active:
        raise IllegalAction(None, say("wrong_reader", who=state.players[state.active], other=state.players[seat - 1]))


def _scan(state: rules.State, code: str) -> tuple[Entry, rules.Action | None, str]:
    phase = state.phase
    if phase in (rules.SETUP_PHASE, rules.NEW_COLUMN):
        return Entry(), rules.StartColumn(code), ""
    if phase == rules.ATTRACT:
        return Entry(), rules.TakeSaur(code), ""
    if phase == rules.HAND:
        return Entry(), rules.HandCard(code), ""
    if phase == rules.PLAYING:
        return Entry(), rules.PlayCard(code, state.chosen), ""
    if phase == rules.TURN:
        the_card = rules.require_unseen(state, code, "played on a column")
        if state.chosen is not None:
            return Entry(), rules.PlayCard(code, state.chosen), ""
        fits = rules.legal_columns(state, code)
        if len(fits) == 1:
            return Entry(), rules.PlayCard(code, fits[0]), ""
        if not fits:
            tops = ", ".join(CARDS[c].name for c in state.top_cards if c)
            raise IllegalAction(code, say("fits_nowhere", card=the_card.name, tops=tops))
        return Entry(card=code), None, say("fits_several", card=the_card.name, cols=listing([i + 1 for i in fits]))
    raise IllegalAction(code, say("over"))


def _command(state: rules.State, entry: Entry, said: TouchCommand) -> tuple[Entry, rules.Action | None, str]:
    command, verb, args = said.text, said.verb, [a.lower() for a in said.args]
    number = int(args[0]) if args and re.fullmatch(r"[0-9]{1,4}", args[0]) else None
    if verb == "column" and number is not None:
        if entry.card is not None and state.phase == rules.TURN:  # the old meaning: the card is scanned again
            return Entry(), rules.ChooseColumn(number - 1), say(
                "column_chosen_card_dropped", card=CARDS[entry.card].name, who=state.players[state.active], col=number)
        return Entry(), rules.ChooseColumn(number - 1), ""
    if verb == "place" and number is not None:
        if entry.card is None or state.phase != rules.TURN:
            raise IllegalAction(None, say("no_card_waiting", prompt=prompt(state, entry)))
        return Entry(), rules.PlayCard(entry.card, number - 1), ""
    if verb == "done":
        return _done(state, entry)
    waiting = entry.card if state.phase == rules.TURN else None  # not played: Swap and Pass say so
    if verb == "swap" and number is not None:
        return Entry(), rules.Swap(number, waiting), ""
    if verb == "pass":
        return Entry(), rules.Pass(waiting), ""
    if verb == "deck" and number is not None:  # a count in between keeps a scanned card waiting
        return Entry(card=entry.card), rules.SetDeck(number), ""
    if verb in NUMBER_RANGES:
        low, high = NUMBER_RANGES[verb]
        raise BadCommand(command, say("needs_number", verb=verb.capitalize(), low=low, high=high,
                                      example=f"{verb} {min(2, high)}"))
    raise BadCommand(command, say("unknown_command", command=command))


def _done(state: rules.State, entry: Entry) -> tuple[Entry, rules.Action | None, str]:
    """Done: the end of a Play, or (Final Round) of the cards scanned from a hand; one Done
    scores an empty hand ("After your final turn, add any cards in your hand to your score
    pile", rulebook, "Game End"), and the table is told it was empty."""
    if entry.card is not None and state.phase == rules.TURN:  # Done would leave the scanned card out
        cols = listing([i + 1 for i in rules.legal_columns(state, entry.card)])
        raise IllegalAction(None, say("card_waiting", card=CARDS[entry.card].name, cols=cols))
    if entry.empty_hand is not None:  # a second Done after an empty hand: told, not refused
        return Entry(), None, say("hand_counted_already", who=entry.empty_hand, prompt=prompt(state))
    if state.phase != rules.HAND:
        return Entry(), rules.Done(), ""
    empty = None if state.hand else state.players[state.active]
    return Entry(empty_hand=empty), rules.HandDone(), ""


def prompt(state: rules.State, entry: Entry | None = None) -> str:
    """What the table should do next, in a few words, for the bottom of the screen."""
    who = state.players[state.active]
    col = (state.pending[0] + 1) if state.pending else None
    phase = state.phase
    final = state.final_left is not None
    if phase == rules.SETUP_PHASE:
        return say("prompt_setup", col=col)
    if phase == rules.NEW_COLUMN:
        return say("prompt_new_column", col=col)
    if phase == rules.TURN and entry is not None and entry.card is not None:
        cols = listing([i + 1 for i in rules.legal_columns(state, entry.card)], "or")
        return say("prompt_pick_column", who=who, card=CARDS[entry.card].name, cols=cols)
    if phase == rules.TURN and state.chosen is not None:  # a column tapped first is shown while it waits
        return say("prompt_turn_chosen", who=who, col=state.chosen + 1)
    if phase == rules.TURN:
        return say("prompt_turn_final" if final else "prompt_turn", who=who)
    if phase == rules.PLAYING:
        return say("prompt_playing", who=who, col=(state.chosen or 0) + 1)
    if phase == rules.ATTRACT:
        return say("prompt_attract", who=who, need=state.attract_left)
    if phase == rules.HAND:
        return say("hand_scan", who=who, scanned=count(len(state.hand), "card"))
    return say("prompt_over")



def menu_number(view: rules.State, verb: str) -> int | None:
    """The deck menu starts at the Fruit Deck's count (other menus at their own start)."""
    return view.deck if verb == "deck" else None

def lesson(view: rules.State, entry) -> str | None:
    """A first game's prompt for this step, in the rulebook's words ("Taking a Turn")."""
    who = view.players[view.active]
    if view.phase == rules.SETUP_PHASE and view.pending:
        return say("lesson_setup", col=view.pending[0] + 1)
    if view.phase == rules.NEW_COLUMN:
        return say("lesson_new_column")
    if view.phase == rules.TURN and (entry is None or entry.card is None):  # (a card waiting: its own prompt)
        return say("lesson_turn", who=who)
    if view.phase == rules.PLAYING:
        return say("lesson_playing", who=who)
    if view.phase == rules.ATTRACT:
        return say("lesson_attract", who=who, need=view.attract_left)
    return None


def undo_words(before: rules.State, item, action, events: tuple) -> str | None:
    """What an Undo of this input takes back, named from the action it made (cards by
    their names): "Mia's play of Strawberry 2 onto column 3" (None: the table's words)."""
    who = before.players[before.active]
    if isinstance(action, rules.StartColumn):
        return say("undo_start", card=rules.name(action.card), col=before.pending[0] + 1 if before.pending else 1)
    if isinstance(action, rules.PlayCard):
        return say("undo_play", who=who, card=rules.name(action.card), col=action.column + 1)
    if isinstance(action, rules.ChooseColumn):
        return say("undo_column", who=who, col=action.column + 1)
    if isinstance(action, rules.Done):
        gathered = next((e for e in events if isinstance(e, rules.Gathered)), None)
        return say("undo_done_gather", who=who, col=gathered.column + 1) if gathered else \
            say("undo_done_attract", who=who)
    if isinstance(action, rules.TakeSaur):
        return say("undo_saur", who=who, card=rules.name(action.card))
    if isinstance(action, rules.Swap):
        return say("undo_swap", who=who, cards=count(action.count, "card"))
    if isinstance(action, rules.Pass):
        return say("undo_pass", who=who)
    if isinstance(action, rules.HandCard):
        return say("undo_hand_card", who=who, card=rules.name(action.card))
    if isinstance(action, rules.HandDone):
        return say("undo_hand_done", who=who)
    if isinstance(action, rules.SetDeck):
        return say("undo_deck", deck=action.count)
    return None


class SugarrrFlow(CoreFlow[rules.State]):
    """Sugarrr!'s flow as the table's contract, :class:`companion.core.game.Flow` (rulebooks/sugarrr.txt)."""

    commands = COMMANDS
    new_entry = staticmethod(new_entry)
    read = staticmethod(read)
    prompt = staticmethod(prompt)
    menu_number = staticmethod(menu_number)
    undo_words = staticmethod(undo_words)
    lesson = staticmethod(lesson)


#: The one SugarrrFlow, which the descriptor's loader gives.
FLOW = SugarrrFlow()
