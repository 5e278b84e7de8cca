"""Sweet Deals legality: ``check(state, action)`` raises :class:`IllegalAction` with a
message a child can read, or returns when the action is legal now (Sweet Deals rulebook,
"On Your Turn", "Drawing", "Bake Sale", "Closing Early", "Special Cards").

One small function per action (:data:`CHECKS`); each reads the state and the action and
changes nothing: what the action then does is :mod:`.turns`. With tracked hands every
scan is a secret input, so no refusal here names the card scanned.

>>> from ..rules import new_game
>>> s = new_game(["Ana", "Ben"], mode="open")
>>> check(s, Offer(0, "Donut"))
>>> check(s, Offer(1, "Donut"))
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: It is Ana's turn to offer.
"""

from __future__ import annotations

from typing import Callable

from companion.core.errors import IllegalAction
from companion.core.i18n import Message, key_of

from .cards import CARDS, HAND_SIZE
from ..state import (BAKE_DISCARD, BAKE_DRAW, BAKE_GRAB, BAKE_TAKE, BID, CHOOSE, DEAL, DISCARD, DRAW, OFFER, REVEAL,
                    SCORE, SWAP, VOTE, Action, AskClose, Bid, Choose, Done, Draw, FaceUp, Grab, GrabCard, HandCard,
                    Offer, Pass, Reveal, ShoutSweetSix, StartBakeSale, State, SwapCard, Take, Vote)
from .prompts import waiting
from ..messages import count, say


def _no(message: str) -> IllegalAction:
    return IllegalAction(None, message)


def _in_hand(state: State, seat: int, code: str, what: str) -> None:
    if code not in state.hands[seat]:
        raise _no(say("that_card_not_hand", name=state.name(seat), what=what))


def _not_now(state: State) -> IllegalAction:
    return _no(say("not_now", waiting=waiting(state)))


# ---------------------------------------------------------------- deal and scoring scans

def _hand_card(s: State, a: HandCard) -> None:
    """A card of a hand, at the deal (tracked) or at the end (open): a card of this deck
    in no hand yet, at most 7 to a hand, the Sweet Six shouter's first ("Deal", "Scoring")."""
    if s.phase not in (DEAL, SCORE):
        raise _not_now(s)
    if a.card not in s.deck:
        raise _no(say("that_card_not_used", players=len(s.players)))
    if s.holder(a.card) is not None:
        raise _no(say("that_card_already_hand"))
    if s.claim is not None and a.seat != s.six[0]:
        raise _no(say("shouter_first", name=s.name(s.six[0])))
    if len(s.hands[a.seat]) >= HAND_SIZE:
        raise _no(say("already_has_cards", name=s.name(a.seat), hand_size=HAND_SIZE))


# ---------------------------------------------------------------- offer and bidding

def _offer(s: State, a: Offer) -> None:
    """The active player names a dessert of this deck ("On Your Turn", step 1); never
    checked against the hidden hand (the table hears only a name)."""
    if s.phase != OFFER:
        raise _not_now(s)
    if a.seat != s.active:
        raise _no(say("turn_offer", name=s.name(s.active)))
    if a.label not in {CARDS[c].label for c in s.deck}:
        raise _no(say("there_no_deck_for", label=a.label, players=len(s.players)))


def _bid(s: State, a: Bid) -> None:
    """0-5 coins that match or raise, in turn ("On Your Turn", step 2: :meth:`.Bidding.problem`)."""
    if s.phase != BID:
        raise _not_now(s)
    problem = s.bidding.problem(a.seat, a.coins)
    if problem:
        # (the bidder's name first; the words keep their key, so the refusal finds its rule)
        raise _no(Message(f"{s.name(a.seat)}: {problem}", key_of(problem)) if a.seat == s.bidding.to_act else problem)


def _pass(s: State, a: Pass) -> None:
    """Pass on a bid in turn ("On Your Turn", step 2), on a Bake Sale's face-up card
    ("Bake Sale", step 3), or, tracked, "I have no such card" from the player the table
    waits on (:func:`_no_such_card`)."""
    if s.phase == BAKE_TAKE:
        if a.seat != s.bake.decider:
            raise _no(say("turn_take_pass", name=s.name(s.bake.decider)))
        return
    if s.phase in (REVEAL, SWAP, DISCARD, BAKE_GRAB):
        return _no_such_card(s, a)
    if s.phase != BID:
        raise _not_now(s)
    if a.seat != s.bidding.to_act:
        raise _no(say("turn_bid", name=s.name(s.bidding.to_act)))


def _no_such_card(s: State, a: Pass) -> None:
    """Only the player whose card the table waits for may say they have none: a tied
    bidder yet to show, the Bake Sale grabber, the swap's winner before their card, or
    the offerer before theirs (docs/rules-notes.md, "A claim the hand cannot back")."""
    if s.phase == REVEAL:
        done = {seat for seat, _ in s.shown}
        if a.seat not in s.tied or a.seat in done:
            raise _no(say("only_show_card", names=say("sep_and").join(s.name(t) for t in s.tied if t not in done)))
        return
    if s.phase == BAKE_GRAB:
        if a.seat != s.bake.grabber:
            raise _no(say("who_puts_grab_go", name=s.name(s.bake.grabber)))
        return
    if s.phase == SWAP and a.seat == s.winner and s.take is None:
        return
    if a.seat != s.active or (s.phase == SWAP and s.give is not None):
        raise _not_now(s)


def _grab(s: State, a: Grab) -> None:
    """Grab & Go interrupts the bidding, by anyone but the offerer, or a Bake Sale
    ("Special Cards", "Notes")."""
    name = s.name(a.seat)
    if s.phase == BAKE_TAKE:
        return _bake_grab(s, a)
    if s.phase != BID:
        raise _no(say("grab_go_can_only"))
    if a.seat == s.active:
        raise _no(say("you_offered_so_you", name=name, offer=s.offer))


def _bake_grab(s: State, a: Grab) -> None:
    """A Bake Sale grab: not by who put the card up nor by who decides on it, and not for
    a face-up Grab & Go ("Special Cards")."""
    b, name = s.bake, s.name(a.seat)
    if a.seat == b.top_owner:
        raise _no(say("you_put_that_card", name=name))
    if a.seat == b.decider:
        raise _no(say("your_turn_so_tap", name=name))
    if s.tracked and CARDS[s.discards[-1]].kind == "grab":
        raise _no(say("face_up_card_already"))


def _reveal(s: State, a: Reveal) -> None:
    """A tied bidder shows a card of their hand worth the bid ("On Your Turn", step 4)."""
    if s.phase != REVEAL:
        raise _not_now(s)
    done = {seat for seat, _ in s.shown}
    if a.seat not in s.tied or a.seat in done:
        raise _no(say("only_show_card", names=say("sep_and").join(s.name(t) for t in s.tied if t not in done)))
    _in_hand(s, a.seat, a.card, say("show_bid_card", coins=count(s.price, "coin")))
    if CARDS[a.card].coins != s.price:
        raise _no(say("reveal_not_bid_card", coins=count(s.price, "coin")))


def _choose(s: State, a: Choose) -> None:
    """The offering player picks one of the tied bidders ("On Your Turn", step 4)."""
    if s.phase != CHOOSE:
        raise _not_now(s)
    if a.seat not in s.tied:
        raise _no(say("not_tied_for_high", name=s.name(a.seat), names=say("sep_or").join(s.name(t) for t in s.tied)))


def _swap_card(s: State, a: SwapCard) -> None:
    """One card of the swap ("On Your Turn", step 4): the winner's card worth the bid (or
    their Grab & Go), the offerer's card of the dessert offered; one each."""
    if s.phase != SWAP:
        raise _not_now(s)
    giver, winner = s.active, s.winner
    if a.seat == winner and s.take is None:
        _in_hand(s, a.seat, a.card, waiting(s))
        if s.grab and CARDS[a.card].kind != "grab":
            raise _no(say("that_card_not_grab"))
        if not s.grab and CARDS[a.card].coins != s.price:  # the bid is checked now, on the card scanned
            raise _no(say("swap_not_bid_card", coins=count(s.price, "coin")))
    elif a.seat == giver and s.give is None:
        _in_hand(s, a.seat, a.card, say("scan_you_offered", offer=s.offer))
        if CARDS[a.card].label != s.offer:
            raise _no(say("swap_not_offered", offer=s.offer))
    elif a.seat in (giver, winner):
        raise _no(say("your_card_already_scanned", name=s.name(a.seat), waiting=waiting(s)))
    else:
        raise _no(say("only_swap", name=s.name(giver), other=s.name(winner), waiting=waiting(s)))


# ---------------------------------------------------------------- face-up cards and draws

def _face_up(s: State, a: FaceUp) -> None:
    """The offered card nobody bid on, from the offerer's hand ("Drawing"), or the Bake
    Sale holder's discard ("Bake Sale", step 2)."""
    if s.phase == DISCARD and a.seat == s.active:
        _in_hand(s, a.seat, a.card, say("put_face_up", offer=s.offer))
        if CARDS[a.card].label != s.offer:
            raise _no(say("discard_not_offered", offer=s.offer))
        return
    if s.phase == BAKE_DISCARD and s.tracked and a.seat == s.bake.holder:
        _in_hand(s, a.seat, a.card, say("put_one_your_cards"))
        return
    if s.phase in (DISCARD, BAKE_DISCARD) and s.tracked:
        holder = s.active if s.phase == DISCARD else s.bake.holder
        raise _no(say("who_puts_card_face", name=s.name(holder)))
    raise _not_now(s)


def _draw(s: State, a: Draw) -> None:
    """The active player draws a card of this deck in no hand; a face-up card only once
    the deck has run out and they were shuffled into a new one ("Drawing")."""
    if s.phase not in (DRAW, BAKE_DRAW):
        raise _not_now(s)
    if a.seat != s.active:
        raise _no(say("who_draws", name=s.name(s.active)))
    if a.card not in s.deck:
        raise _no(say("that_card_not_used", players=len(s.players)))
    if s.holder(a.card) is not None:
        raise _no(say("that_card_hand_not"))
    if a.card in s.discards and s.draw_pile:
        raise _no(say("that_card_face_up"))


# ---------------------------------------------------------------- Bake Sale

def _start_bake_sale(s: State, a: StartBakeSale) -> None:
    """The active player's one Bake Sale per game, instead of an offer ("Bake Sale")."""
    if s.phase != OFFER:
        raise _not_now(s)
    if a.seat != s.active:
        raise _no(say("turn_bake_sale_starts", name=s.name(s.active)))
    if s.bake_used[a.seat]:
        raise _no(say("has_had_their_bake", name=s.name(a.seat)))


def _done(s: State, a: Done) -> None:
    """Open hands: the Bake Sale holder has put a card face up ("Bake Sale", step 2)."""
    if s.phase != BAKE_DISCARD:
        raise _not_now(s)
    if s.tracked:
        raise _no(say("scan_card_you_put"))
    if a.seat != s.bake.holder:
        raise _no(say("who_puts_card_face", name=s.name(s.bake.holder)))


def _take(s: State, a: Take) -> None:
    """The player deciding on the face-up card takes it ("Bake Sale", step 3)."""
    if s.phase != BAKE_TAKE:
        raise _not_now(s)
    if a.seat != s.bake.decider:
        raise _no(say("turn_take_pass", name=s.name(s.bake.decider)))


def _grab_card(s: State, a: GrabCard) -> None:
    """Tracked: the grabber's own Grab & Go goes face up ("Special Cards")."""
    if s.phase != BAKE_GRAB:
        raise _not_now(s)
    if a.seat != s.bake.grabber:
        raise _no(say("who_puts_grab_go", name=s.name(s.bake.grabber)))
    _in_hand(s, a.seat, a.card, say("scan_your_grab_go"))
    if CARDS[a.card].kind != "grab":
        raise _no(say("that_card_not_grab"))


# ---------------------------------------------------------------- Close Early, Sweet Six

def _ask_close(s: State, a: AskClose) -> None:
    """At the start of your turn, once a turn if the table said no ("Closing Early")."""
    if s.phase != OFFER:
        raise _no(say("you_can_only_ask"))
    if a.seat != s.active:
        raise _no(say("turn_ask_close_early", name=s.name(s.active)))
    if s.close_refused:
        raise _no(say("table_said_no_this"))


def _vote(s: State, a: Vote) -> None:
    """Each other player votes in turn ("Closing Early")."""
    if s.phase != VOTE:
        raise _not_now(s)
    if a.seat != s.voters[0]:
        raise _no(say("vote_name", name=s.name(s.voters[0])))


def _shout_sweet_six(s: State, a: ShoutSweetSix) -> None:
    """Open hands only, and not while hands are being scanned ("Continue Play")."""
    if s.tracked:
        raise _no(say("with_tracked_hands_companion"))
    if s.phase == SCORE:
        raise _not_now(s)


CHECKS: dict[type, Callable[[State, Action], None]] = {
    HandCard: _hand_card, Offer: _offer, Bid: _bid, Pass: _pass, Grab: _grab, Reveal: _reveal, Choose: _choose,
    SwapCard: _swap_card, FaceUp: _face_up, Draw: _draw, StartBakeSale: _start_bake_sale, Done: _done, Take: _take,
    GrabCard: _grab_card, AskClose: _ask_close, Vote: _vote, ShoutSweetSix: _shout_sweet_six,
}


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` (a message for the table) unless ``action`` is legal
    now: the game is on, the seat is at the table, and the action's own rule
    (:data:`CHECKS`) allows it. Reads ``state``, never changes it."""
    if state.over:
        raise _no(say("over"))
    seat = action.seat
    if not 0 <= seat < len(state.players):
        raise _no(say("there_no_seat_are", seat=seat + 1, players=len(state.players)))
    rule = CHECKS.get(type(action))
    if rule is None:
        raise _no(say("i_dont_know_what", name=type(action).__name__))
    rule(state, action)
