"""Sweet Deals table flow: what a scan or a tap means in the current state.

Every input is one rules action, so there is no half-entered input (``new_entry()`` is
None). Taps come from the shared screen; the player they are for is whoever the game is
waiting on (the bidder, the voter, the player deciding at a Bake Sale).

Touch commands (seats 1-based):

=====================  =============================================================
``offer NAME``         the active player offers a dessert (``offer pie``, ``offer ice cream``)
``bid N``              the bidder bids N coins (0-5)
``pass``               the bidder passes, or the Bake Sale decider passes; tracked, the
                       player asked for a card has none (a tied bidder, the offerer)
``grab N``             player N plays Grab & Go (bidding or a Bake Sale)
``take N``             the offering player takes tied bidder N's card
``take``               the Bake Sale decider takes the face-up card
``bake``               the active player starts their Bake Sale
``done``               open hands: the card is face up (Bake Sale)
``close``              the active player asks to Close Early
``yes`` / ``no``       the voter's answer
``six N``              open hands: player N shouts "Sweet Six!"
=====================  =============================================================

A scan is a card of a hand: at the deal and in swaps, draws and reveals (tracked), or
for scoring (open). A reader bound to a seat says whose card it is; a passed scanner's
card belongs to the player the prompt names. With tracked hands every scan is
:func:`secret`, and a refused scan's message never names the card.

>>> s = rules.new_game(["Ana", "Ben"], mode="open")
>>> read(s, None, Touch("offer ice cream", 0.0))
(None, Offer(seat=0, label='Ice Cream'), '')
>>> read(s, None, Touch("bid lots", 0.0))
Traceback (most recent call last):
...
companion.core.errors.BadCommand: "bid" needs a number of coins, like "bid 2".
"""

from __future__ import annotations

import re

from companion.core.game import Flow as CoreFlow
from companion.core.catalogue import from_other_game
from companion.core.errors import BadCommand, BadScan, IllegalAction, WrongGame
from companion.core.events import CardScanned, Input, Touch, TouchCommand
from companion.core.game import Command

from . import rules
from .parts.cards import CARDS, LABELS, card
from .parts.prompts import scanner, waiting
from .messages import count, say

NEW_GAME = say("new_game")

_LABELS = {label.lower(): label for label in LABELS}
_NUMBER = re.compile(r"[0-9]{1,2}")


def _seats(verb: str):
    return lambda s: [f"{verb} {p}" for p in range(1, len(s.players) + 1)]


#: The touch commands (``companion.core.commands``): what each is typed as, its buttons' words.
COMMANDS = (
    Command("offer NAME", tries=tuple(f"offer {label.lower()}" for label in LABELS)),
    Command("bid N", tries=tuple(f"bid {n}" for n in range(0, 6))),
    Command("pass", (say("button_pass"),)),
    Command("grab N", ("Grab & Go",), _seats("grab")),
    Command("take N", tries=_seats("take")),
    Command("take", (say("button_take"),)),
    Command("bake", (say("bake_sale"),)),
    Command("done", (say("button_done"),)),
    Command("close", (say("close_early"),)),
    Command("yes", (say("button_yes"),)),
    Command("no", (say("button_no"),)),
    Command("six N", (say("button_sweet_six"), say("button_sweet_six_typed")), _seats("six")),
)


def new_entry() -> None:
    """Sweet Deals has no half-entered input: every scan or tap is one action."""
    return None


def read(state: rules.State, entry: None, item: Input) -> tuple[None, rules.Action, str]:
    """The rules action one input asks for (the contract's flow step). Raises
    :class:`BadScan`, :class:`BadCommand` or :class:`IllegalAction`; changes nothing."""
    if isinstance(item, CardScanned):
        return None, _scan(state, item), ""
    if isinstance(item, Touch):
        return None, _command(state, item.parsed), ""
    raise IllegalAction(None, say("sweet_deals_uses_card"))


def secret(state: rules.State, item: Input) -> bool:
    """True for a card scanned while hands are tracked: a card of a secret hand (a good
    code of another game's card is no secret: the table is told which game it is from;
    nor is a card this deck leaves out for the number of players, "Setup")."""
    if not (isinstance(item, CardScanned) and state.tracked and not state.over and item.code):
        return False
    code = item.code.strip().upper()
    return from_other_game(code, say("game_name")) is None and not (code in CARDS and code not in state.deck)


def prompt(state: rules.State, entry: None = None) -> str:
    """What the table should do now."""
    return (rules.setup_message(state) + " " if rules.setting_up(state) else "") + waiting(state)


# ---------------------------------------------------------------- scans

_SCAN_ACTIONS = {
    rules.DEAL: rules.HandCard, rules.SCORE: rules.HandCard, rules.REVEAL: rules.Reveal,
    rules.SWAP: rules.SwapCard, rules.DISCARD: rules.FaceUp, rules.BAKE_DISCARD: rules.FaceUp,
    rules.DRAW: rules.Draw, rules.BAKE_DRAW: rules.Draw, rules.BAKE_GRAB: rules.GrabCard,
}


def _scan(state: rules.State, item: CardScanned) -> rules.Action:
    try:
        code = card(item.code).code
    except BadScan as err:
        if secret(state, item) and not isinstance(err, WrongGame):   # a misread of a hidden card must not show its code
            raise BadScan(None, say("that_scan_did_not")) from None
        raise
    if state.over:
        raise IllegalAction(None, say("over"))
    kind = _SCAN_ACTIONS.get(state.phase)
    if kind is None or (state.phase == rules.BAKE_DISCARD and not state.tracked):
        if not state.tracked:
            raise IllegalAction(None, say("open_hands_scan_at_end", waiting=waiting(state)))
        raise IllegalAction(None, say("no_card_needed", waiting=waiting(state)))
    if item.seat is not None:
        if not 1 <= item.seat <= len(state.players):
            raise IllegalAction(None, say("reader_set_up_for", seat=item.seat, players=len(state.players)))
        seat = item.seat - 1
    else:
        seat = scanner(state)
    return kind(seat, code)


# ---------------------------------------------------------------- taps

def _seat_arg(verb: str, args: list[str], command: str) -> int:
    if len(args) != 1 or not _NUMBER.fullmatch(args[0]):
        raise BadCommand(command, say("needs_player_number_like", verb=verb))
    return int(args[0]) - 1


def _command(state: rules.State, said: TouchCommand) -> rules.Action:
    command, verb, args = said.text, said.verb, [a.lower() for a in said.args]
    active = state.active
    if verb == "offer":
        label = _LABELS.get(" ".join(args))
        if label is None:
            raise BadCommand(command, say("offer_needs_dessert_name", waiting=waiting(state)))
        return rules.Offer(active, label)
    if verb == "bid":
        if len(args) != 1 or not _NUMBER.fullmatch(args[0]):
            raise BadCommand(command, say("bid_needs_number_coins"))
        return rules.Bid(_bidder(state), int(args[0]))
    if verb == "pass" and not args:
        if state.phase == rules.BAKE_TAKE:
            return rules.Pass(state.bake.decider)
        if state.tracked and state.phase in (rules.REVEAL, rules.SWAP, rules.DISCARD, rules.BAKE_GRAB):
            return rules.Pass(scanner(state))      # "I have no such card": the player the prompt names
        return rules.Pass(_bidder(state))
    if verb == "grab":
        return rules.Grab(_seat_arg(verb, args, command))
    if verb == "take":
        if not args and state.phase == rules.BAKE_TAKE:
            return rules.Take(state.bake.decider)
        if not args:
            raise IllegalAction(None, say("not_now", waiting=waiting(state)))
        return rules.Choose(_seat_arg(verb, args, command))
    if verb in ("six", "sweet-six"):
        return rules.ShoutSweetSix(_seat_arg(verb, args, command))
    simple = {"bake": rules.StartBakeSale, "close": rules.AskClose}
    if verb in simple and not args:
        return simple[verb](active)
    if verb in ("yes", "no") and not args:
        voter = state.voters[0] if state.phase == rules.VOTE else active
        return rules.Vote(voter, verb == "yes")
    if verb == "done" and not args:
        return rules.Done(state.bake.holder if state.bake is not None else active)
    raise BadCommand(command, say("i_dont_know_command", command=command))


def _bidder(state: rules.State) -> int:
    """Whose bid a tap is: the player the bidding waits on (else the active player, and
    the rules say why that is not now)."""
    if state.phase == rules.BID and state.bidding.to_act is not None:
        return state.bidding.to_act
    return state.active


def hidden_refusal(view: rules.State, entry: None = None) -> str:
    """What the table says when a card of a secret hand is refused, from the table's view
    only: what the card had to be, never what it was ("Deal each player 7 Dessert Cards
    facedown"; "Swap: Secretly swap cards with the winner")."""
    p = view.phase
    coins = count(view.price, "coin") if view.price is not None else ""
    if p == rules.SWAP and view.take is None:
        words = say("hidden_not_grab") if view.grab else say("hidden_not_worth", coins=coins)
    elif p == rules.SWAP or p == rules.DISCARD:
        words = say("hidden_not_offer", offer=view.offer)
    elif p == rules.REVEAL:
        words = say("hidden_not_worth", coins=coins)
    elif p == rules.BAKE_GRAB:
        words = say("hidden_not_grab")
    else:
        words = say({rules.DEAL: "hidden_not_dealt", rules.SCORE: "hidden_not_dealt", rules.DRAW: "hidden_not_drawn",
                     rules.BAKE_DRAW: "hidden_not_drawn", rules.BAKE_DISCARD: "hidden_not_yours"}.get(p, "hidden_not_now"))
    return words + " " + prompt(view)  # (a Message + str: the refusal keeps its key, for its Why?)


def lesson(view: rules.State, entry=None) -> str | None:
    """A first game's prompt for this step, in the rulebook's words ("Deal", "On Your
    Turn", "Drawing")."""
    key = {rules.DEAL: "lesson_deal", rules.OFFER: "lesson_offer", rules.BID: "lesson_bid",
           rules.REVEAL: "lesson_reveal", rules.CHOOSE: "lesson_choose", rules.SWAP: "lesson_swap",
           rules.DISCARD: "lesson_discard", rules.DRAW: "lesson_discard"}.get(view.phase)
    return say(key, who=view.name(view.active)) if key else None


def undo_words(before: rules.State, item, action, events: tuple) -> str | None:
    """What an Undo of this input takes back, from the action it made, cards by their
    names ("Mia's bid of 3 coins"); never asked for a card of a secret hand (the session
    says whose it was). None: the table's words for it."""
    if action is None:
        return None
    name = before.name(action.seat)  # (every action names its seat)
    carded = (rules.HandCard, rules.Reveal, rules.SwapCard, rules.FaceUp, rules.Draw, rules.GrabCard)
    card_name = CARDS[action.card].name if isinstance(action, carded) else ""
    kind = type(action)
    if kind is rules.Vote:
        return say("undo_vote_yes" if action.yes else "undo_vote_no", name=name)
    key = {rules.HandCard: "undo_hand_card", rules.Offer: "undo_offer", rules.Bid: "undo_bid", rules.Pass: "undo_pass",
           rules.Grab: "undo_grab", rules.Reveal: "undo_reveal", rules.Choose: "undo_choose",
           rules.SwapCard: "undo_swap", rules.FaceUp: "undo_face_up", rules.Draw: "undo_draw",
           rules.StartBakeSale: "undo_bake_sale", rules.Done: "undo_done", rules.Take: "undo_take",
           rules.GrabCard: "undo_grab_card", rules.AskClose: "undo_ask_close",
           rules.ShoutSweetSix: "undo_sweet_six"}.get(kind)
    if key is None:
        return None
    label = action.label if kind is rules.Offer else ""
    coins = count(action.coins, "coin") if kind is rules.Bid else ""
    return say(key, name=name, card=card_name, label=label, coins=coins)


class SweetDealsFlow(CoreFlow[rules.State]):
    """Sweet Deals's flow as the table's contract, :class:`companion.core.game.Flow` (rulebooks/sweet-deals.txt)."""

    commands = COMMANDS
    new_entry = staticmethod(new_entry)
    read = staticmethod(read)
    prompt = staticmethod(prompt)
    secret = staticmethod(secret)
    hidden_refusal = staticmethod(hidden_refusal)
    undo_words = staticmethod(undo_words)
    lesson = staticmethod(lesson)


#: The one SweetDealsFlow, which the descriptor's loader gives.
FLOW = SweetDealsFlow()
