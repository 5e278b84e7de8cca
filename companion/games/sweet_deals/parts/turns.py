"""What each Sweet Deals action does: one handler per action (Sweet Deals rulebook, "On
Your Turn", "Drawing", "Bake Sale", "Closing Early", "Special Cards").

A handler takes ``(state, action)`` and returns ``(state, events)``. It trusts its
caller: the action has passed :func:`.checks.check`, which holds every refusal, so a
handler never refuses. Accepted face-up cards are named in their event; a card scanned
face down never is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.core.events import GameOver, Outcome, TurnEnded

from companion.core.game import Result

from .. import scoring
from .auction import Bidding
from .cards import CARDS, HAND_SIZE
from ..state import (BAKE_DISCARD, BAKE_DRAW, BAKE_GRAB, BAKE_TAKE, BID, CHOOSE, CLOSED_EARLY, DEAL, DISCARD, DRAW,
                    OFFER, OVER, REVEAL, SCORE, SWAP, SWEET_SIX_END, VOTE, AskClose, Bake, Bid, Choose, Done, Draw,
                    FaceUp, Grab, GrabCard, HandCard, HandsShown, Offer, Pass, Reveal, Said, ShoutSweetSix,
                    ShownFaceUp, StartBakeSale, State, SwapCard, Take, Vote)
from .prompts import article
from ..messages import count, say

Events = list[Outcome]


def _set_hand(state: State, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return state.hands[:seat] + (hand,) + state.hands[seat + 1:]


def _without(hand: tuple[str, ...], code: str) -> tuple[str, ...]:
    i = hand.index(code)
    return hand[:i] + hand[i + 1:]


# ---------------------------------------------------------------- turn and game end

def final_result(state: State) -> Result | None:
    """The final result once the game is over, else None; its notes say who shouted
    Sweet Six or that everyone voted to close early."""
    if not state.over:
        return None
    notes: tuple[str, ...] = ()
    if state.six is not None:
        seat, dessert = state.six
        notes = (say("sweet_six_shouted_by", name=state.name(seat)) + (f" ({dessert})" if dessert else "") + ".",)
    elif state.ended == CLOSED_EARLY:
        notes = (say("everyone_voted_close_early"),)
    return scoring.result_of(state.players, state.hands, state.hybrid, state.ended, notes)


def _end_turn(state: State, events: Events) -> tuple[State, Events]:
    nxt = state.next_seat(state.active)
    done = replace(state, phase=OFFER, active=nxt, turn=state.turn + 1, offer=None, bidding=None, tied=(),
                   shown=(), winner=None, price=None, grab=False, give=None, take=None, bake=None, voters=(),
                   close_refused=False)
    events.append(TurnEnded(say("turn_name", name=state.name(nxt)), state.active, nxt))
    return done, events


def _end_game(state: State, events: Events, reason: str, six: tuple[int, str | None] | None = None,
              ) -> tuple[State, Events]:
    state = replace(state, ended=reason, six=six, bidding=None, bake=None, voters=())
    if state.tracked:
        state = replace(state, phase=OVER)
        res = final_result(state)
        events.append(HandsShown(say("everyone_shows_their_hand")))
        events.append(GameOver(res.winner_line(), res))
        return state, events
    first = state.name(0)
    events.append(Said(say("everyone_scan_your_7", first=first)))
    return replace(state, phase=SCORE, hands=((),) * len(state.players)), events


def _sweet_six(state: State, seats: list[int], events: Events) -> tuple[State, Events] | None:
    """Tracked: the game ends the moment a hand of 7 has 6 of a kind (rulebook,
    "Continue Play"). None when nobody has."""
    for seat in seats:
        hand = state.hands[seat]
        if len(hand) == HAND_SIZE:
            found = scoring.sweet_six_count(hand, state.hybrid)
            if found:
                dessert, n = found
                events.append(Said(say("sweet_six_open", name=state.name(seat), n=n, dessert=dessert)))
                return _end_game(state, events, SWEET_SIX_END, (seat, dessert))
    return None


# ---------------------------------------------------------------- deal and scoring scans

def hand_card(s: State, a: HandCard) -> tuple[State, Events]:
    """A card of a hand: tracked at the deal, open at the end (rulebook, "Deal", "Scoring")."""
    hand = s.hands[a.seat]
    s = replace(s, hands=_set_hand(s, a.seat, hand + (a.card,)))
    k = len(hand) + 1
    named = "" if s.phase == DEAL else f"{CARDS[a.card].name}: "
    events: Events = [Said(say("card_for", named=named, k=k, hand_size=HAND_SIZE, name=s.name(a.seat)))]
    if s.claim is not None and k == HAND_SIZE:
        return _check_claim(s, events)
    if any(len(h) < HAND_SIZE for h in s.hands):
        return s, events
    if s.phase == SCORE:
        s = replace(s, phase=OVER)
        res = final_result(s)
        events.append(GameOver(res.winner_line(), res))
        return s, events
    s = replace(s, phase=OFFER)
    events.append(Said(say("every_hand_plays_first", name=s.name(s.active))))
    return _sweet_six(s, list(range(len(s.players))), events) or (s, events)


# ---------------------------------------------------------------- offer and bidding

def offer(s: State, a: Offer) -> tuple[State, Events]:
    """Offer a dessert by name (rulebook, "On Your Turn", step 1: "say (only) the name of
    it"). Never checked against the hidden hand here: the table hears only a name, so a
    refusal would tell everyone what the hand lacks. The card is checked when it is
    scanned (the swap, or face up when nobody bids)."""
    s = replace(s, phase=BID, offer=a.label, bidding=Bidding.open(len(s.players), a.seat))
    return s, [Said(say("offers_name_article", name=s.name(a.seat), article=article(a.label)))]


def bid(s: State, a: Bid) -> tuple[State, Events]:
    """A bid of 0-5 coins that matches or raises (rulebook, "On Your Turn", step 2). The
    table hears only the number ("Only say the coin value when bidding"), so the hand is
    not checked here: the winner's swap card, or a tied bidder's revealed card, is."""
    return _bidding_moved(s, s.bidding.bid(a.seat, a.coins), say("bids", name=s.name(a.seat), bid=a.coins))


def pass_(s: State, a: Pass) -> tuple[State, Events]:
    """Pass on a bid, or on a Bake Sale's face-up card; tracked, also "I have no such
    card" from the player a tie reveal, a swap, a discard or a Bake Sale grab waits on
    (:func:`_no_such_card`)."""
    if s.phase == BAKE_TAKE:
        return _bake_pass(s, a)
    if s.phase in (REVEAL, SWAP, DISCARD, BAKE_GRAB):
        return _no_such_card(s, a)
    b = s.bidding
    said = say("keeps_bid", name=s.name(a.seat), high=b.high) if b.holds_high(a.seat) else say("passes_name",
                                                                                               name=s.name(a.seat))
    return _bidding_moved(s, b.passed(a.seat), said)


def _no_such_card(s: State, a: Pass) -> tuple[State, Events]:
    """Tracked: the player whose card the table waits for says they have none (tap Pass).

    An offer, a bid and a Grab & Go are claims about a hidden hand, checked only when
    their card is scanned. A claim that cannot be backed falls: a tied bidder drops out
    of the tie; a winner with no card worth the bid (or no Grab & Go), or an offerer with
    no such dessert to give or put face up, ends the turn with no swap; a Bake Sale
    grabber with no Grab & Go leaves the face-up card where it is (docs/rules-notes.md,
    "A claim the hand cannot back"). Undo may still take the claim back instead, until a
    card is shown face up.
    """
    name = s.name(a.seat)
    if s.phase == REVEAL:
        done = {seat for seat, _ in s.shown}
        tied = tuple(t for t in s.tied if t != a.seat)
        said = say("drops_out_of_tie", name=name, coins=count(s.price, "coin"))
        if not tied:
            s = replace(s, phase=DISCARD, tied=(), shown=(), price=None)
            return s, [Said(say("nobody_showed", said=said, who=s.name(s.active), offer=s.offer))]
        s = replace(s, tied=tied, phase=CHOOSE if all(t in done for t in tied) else REVEAL)
        return s, [Said(said)]
    if s.phase == BAKE_GRAB:
        s = replace(s, phase=BAKE_TAKE, bake=replace(s.bake, grabber=None))
        return s, [Said(say("grab_is_off", name=name))]
    if s.phase == SWAP and a.seat == s.winner and s.take is None:
        what = say("a_grab_go") if s.grab else say("a_card_worth", coins=count(s.price, "coin"))
        return _end_turn(s, [Said(say("no_card_no_swap", name=name, what=what))])
    key = "no_offered_card" if s.phase == SWAP else "no_offered_discard"
    return _end_turn(s, [Said(say(key, name=name, offer=s.offer))])


def _bidding_moved(s: State, b: Bidding, said: str) -> tuple[State, Events]:
    s = replace(s, bidding=b)
    out = b.outcome()
    if out is None:
        return s, [Said(said)]
    kind, seats = out
    who = s.name(s.active)
    if kind == "none":
        if s.tracked:
            s = replace(s, phase=DISCARD)
            return s, [Said(say("everyone_passed", said=said))]
        face_up = s.open_face_up + 1
        if s.open_deck == 0:            # the deck ran out: the face-up cards make a new one
            s = replace(s, open_deck=face_up - 1, open_face_up=0)
            return _end_turn(s, [Said(say("everyone_passed_shuffle", said=said, who=who, offer=s.offer,
                                          cards=count(face_up, "card")))])
        s = replace(s, open_deck=s.open_deck - 1, open_face_up=face_up)
        return _end_turn(s, [Said(say("everyone_passed_put_face", said=said, who=who, offer=s.offer))])
    price = b.high
    if kind == "won":
        winner = s.name(seats[0])
        if s.tracked:
            s = replace(s, phase=SWAP, winner=seats[0], price=price)
            return s, [Said(say("wins_with_bid", said=said, winner=winner, price=price))]
        return _end_turn(s, [Said(say("wins_with_bid_swap", said=said, winner=winner, price=price, who=who))])
    names = say("sep_and").join(s.name(t) for t in seats)
    s = replace(s, phase=REVEAL if s.tracked else CHOOSE, tied=seats, price=price)
    return s, [Said(say("are_tied_at_show", said=said, names=names, price=price))]


def grab(s: State, a: Grab) -> tuple[State, Events]:
    """Grab & Go interrupts bidding or a Bake Sale (rulebook, "Special Cards", "Notes").
    Tracked: the Grab & Go is checked when it is scanned, not against the hidden hand."""
    name = s.name(a.seat)
    if s.phase == BAKE_TAKE:
        return _bake_grab(s, a)
    said = say("plays_grab_go_for", name=name, offer=s.offer)
    if s.tracked:
        s = replace(s, phase=SWAP, winner=a.seat, grab=True, bidding=replace(s.bidding, to_act=None))
        return s, [Said(said)]
    return _end_turn(s, [Said(say("swap_for_grab_go", said=said, name=s.name(s.active), other=name, offer=s.offer))])


def reveal(s: State, a: Reveal) -> tuple[State, Events]:
    """A tied bidder shows the card they bid (rulebook, "On Your Turn", step 4)."""
    s = replace(s, shown=s.shown + ((a.seat, a.card),))
    if len(s.shown) == len(s.tied):
        s = replace(s, phase=CHOOSE)
    return s, [ShownFaceUp(say("shows_name_article", name=s.name(a.seat), article=article(CARDS[a.card].name)), a.card)]


def choose(s: State, a: Choose) -> tuple[State, Events]:
    """The offering player picks one of the tied cards (rulebook, "On Your Turn", step 4)."""
    who, winner = s.name(s.active), s.name(a.seat)
    if not s.tracked:
        return _end_turn(s, [Said(say("takes_card_swap_your", who=who, winner=winner))])
    take = dict(s.shown)[a.seat]
    s = replace(s, phase=SWAP, winner=a.seat, take=take)
    return s, [Said(say("takes_who_winner_card", who=who, winner=winner, card=CARDS[take].name))]


def swap_card(s: State, a: SwapCard) -> tuple[State, Events]:
    """One card of the swap, scanned face down; the second completes it (rulebook, "On
    Your Turn", step 4)."""
    giver, winner = s.active, s.winner
    if a.seat == winner and s.take is None:
        s = replace(s, take=a.card)
    else:
        s = replace(s, give=a.card)
    if s.give is None or s.take is None:
        return s, [Said(say("card_scanned", name=s.name(a.seat)))]
    hands = _set_hand(s, giver, _without(s.hands[giver], s.give) + (s.take,))
    s = replace(s, hands=hands)
    s = replace(s, hands=_set_hand(s, winner, _without(s.hands[winner], s.take) + (s.give,)))
    events: Events = [Said(say("have_swapped", name=s.name(giver), other=s.name(winner)))]
    return _sweet_six(s, [giver, winner], events) or _end_turn(s, events)


# ---------------------------------------------------------------- face-up cards and draws

def face_up(s: State, a: FaceUp) -> tuple[State, Events]:
    """A card face up: the offered card nobody bid on ("Drawing"), or a Bake Sale discard."""
    if s.phase == DISCARD:
        s = replace(s, hands=_set_hand(s, a.seat, _without(s.hands[a.seat], a.card)),
                    discards=s.discards + (a.card,), phase=DRAW)
        return s, [ShownFaceUp(say("puts_face_up", name=s.name(a.seat), article=article(CARDS[a.card].name)), a.card)]
    s = replace(s, hands=_set_hand(s, a.seat, _without(s.hands[a.seat], a.card)),
                discards=s.discards + (a.card,))
    s = _bake_offered(s, a.seat)
    events: Events = [ShownFaceUp(say("puts_face_up", name=s.name(a.seat), article=article(CARDS[a.card].name)),
                                  a.card)]
    return _sweet_six(s, [a.seat], events) or (s, events)


def draw(s: State, a: Draw) -> tuple[State, Events]:
    """A card drawn face down ("Drawing"; Bake Sale step 1). When the deck is empty the
    prompt tells the table to shuffle the face-up cards into a new one, and a card from
    the face-up pile is then a card of the new deck (ASSUMED, docs/rules-notes.md)."""
    discards = s.discards
    if a.card in discards:
        discards = ()   # the deck ran out: the discards were shuffled into a new one
    s = replace(s, discards=discards, hands=_set_hand(s, a.seat, s.hands[a.seat] + (a.card,)))
    if s.phase == BAKE_DRAW:
        s = replace(s, phase=BAKE_DISCARD)
        return s, [Said(say("drew_card", name=s.name(a.seat)))]
    events: Events = [Said(say("drew_card", name=s.name(a.seat)))]
    return _sweet_six(s, [a.seat], events) or _end_turn(s, events)


# ---------------------------------------------------------------- Bake Sale

def start_bake_sale(s: State, a: StartBakeSale) -> tuple[State, Events]:
    """The active player's one Bake Sale per game, instead of an offer ("Bake Sale")."""
    used = s.bake_used[:a.seat] + (True,) + s.bake_used[a.seat + 1:]
    s = replace(s, bake_used=used, bake=Bake(a.seat, a.seat), phase=BAKE_DRAW if s.tracked else BAKE_DISCARD)
    return s, [Said(say("starts_bake_sale", name=s.name(a.seat)))]


def _bake_offered(s: State, seat: int) -> State:
    """``seat`` has put a card face up: the next player decides on it."""
    return replace(s, phase=BAKE_TAKE, bake=replace(s.bake, holder=seat, top_owner=seat,
                                                    decider=s.next_seat(seat), passes=()))


def done(s: State, a: Done) -> tuple[State, Events]:
    """Open hands: a card is face up (Bake Sale step 2)."""
    deck, face_up = s.open_deck, s.open_face_up
    if s.bake.top_owner is None:        # the Bake Sale's first step: a card was drawn
        if deck == 0:
            deck, face_up = face_up, 0
        deck -= 1
    s = replace(_bake_offered(s, a.seat), open_deck=deck, open_face_up=face_up + 1)
    return s, [Said(say("put_card_face_up", name=s.name(a.seat)))]


def take(s: State, a: Take) -> tuple[State, Events]:
    """Take the face-up card, then put one face up (Bake Sale steps 3-4)."""
    if s.tracked:
        top = s.discards[-1]
        s = replace(s, discards=s.discards[:-1], hands=_set_hand(s, a.seat, s.hands[a.seat] + (top,)))
        said = say("takes_name_card", name=s.name(a.seat), card=CARDS[top].name)
    else:
        said = say("takes_card", name=s.name(a.seat))
        s = replace(s, open_face_up=s.open_face_up - 1)
    s = replace(s, phase=BAKE_DISCARD, bake=replace(s.bake, holder=a.seat, decider=None))
    return s, [Said(said)]


def _bake_pass(s: State, a: Pass) -> tuple[State, Events]:
    b = s.bake
    passes = b.passes + (a.seat,)
    said = say("passes_name", name=s.name(a.seat))
    if len(passes) >= len(s.players) - 1:
        return _end_turn(s, [Said(say("everyone_passed_bake_sale", said=said))])
    nxt = s.next_seat(a.seat)
    while nxt == b.top_owner or nxt in passes:
        nxt = s.next_seat(nxt)
    s = replace(s, bake=replace(b, passes=passes, decider=nxt))
    return s, [Said(said)]


def _bake_grab(s: State, a: Grab) -> tuple[State, Events]:
    b, name = s.bake, s.name(a.seat)
    if s.tracked:
        s = replace(s, phase=BAKE_GRAB, bake=replace(b, grabber=a.seat))
        return s, [Said(say("plays_grab_go", name=name))]
    s = replace(s, bake=replace(b, top_owner=a.seat, passes=()))
    return s, [Said(say("bake_grab", name=name))]


def grab_card(s: State, a: GrabCard) -> tuple[State, Events]:
    """Tracked: the grabber's Grab & Go goes face up; the face-up card goes to them."""
    b = s.bake
    top = s.discards[-1]
    s = replace(s, discards=s.discards[:-1] + (a.card,),
                hands=_set_hand(s, a.seat, _without(s.hands[a.seat], a.card) + (top,)),
                phase=BAKE_TAKE, bake=replace(b, top_owner=a.seat, passes=(), grabber=None))
    events: Events = [ShownFaceUp(say("auction_grab", name=s.name(a.seat), card=CARDS[top].name),
                                  a.card)]
    return _sweet_six(s, [a.seat], events) or (s, events)


# ---------------------------------------------------------------- Close Early, Sweet Six

def ask_close(s: State, a: AskClose) -> tuple[State, Events]:
    """Ask to Close Early, at the start of your turn ("Closing Early")."""
    n = len(s.players)
    s = replace(s, phase=VOTE, voters=tuple((a.seat + i) % n for i in range(1, n)))
    return s, [Said(say("asks_close_early", name=s.name(a.seat)))]


def vote(s: State, a: Vote) -> tuple[State, Events]:
    """A yes or no; it has to be unanimous ("Closing Early")."""
    name = s.name(a.seat)
    if not a.yes:
        s = replace(s, phase=OFFER, voters=(), close_refused=True)
        return s, [Said(say("says_no_so_game", name=name))]
    s = replace(s, voters=s.voters[1:])
    if s.voters:
        return s, [Said(say("says_yes", name=name))]
    return _end_game(s, [Said(say("says_yes_everyone_agreed", name=name))], CLOSED_EARLY)


def shout_sweet_six(s: State, a: ShoutSweetSix) -> tuple[State, Events]:
    """Open hands: a player shouts "Sweet Six!" ("Continue Play"). Play stops and the
    shouter's hand is scanned first; :func:`_check_claim` then decides whether the game
    has ended (docs/rules-notes.md, "Sweet Six shouted with open hands")."""
    name = s.name(a.seat)
    s = replace(s, phase=SCORE, hands=((),) * len(s.players), ended=SWEET_SIX_END, six=(a.seat, None), claim=s,
                bidding=None, bake=None, voters=())
    return s, [Said(say("shouts_sweet_six", name=name))]


def _check_claim(s: State, events: Events) -> tuple[State, Events]:
    """Open hands: the shouter's 7 cards are in. 6 of a kind: the game ends and everyone
    else scans for scoring. Not: the rulebook ends the game only "if a player gets 6 of a
    kind", so there is no Sweet Six and play goes on from where the shout stopped it."""
    seat = s.six[0]
    found = scoring.sweet_six_count(s.hands[seat], s.hybrid)
    name = s.name(seat)
    if found is None:
        back = s.claim
        events.append(Said(say("no_sweet_six", name=name)))
        return back, events
    dessert, n = found
    first = next(i for i, h in enumerate(s.hands) if len(h) < HAND_SIZE)
    events.append(Said(say("sweet_six_shown", name=name, n=n, dessert=dessert, first=s.name(first))))
    return replace(s, six=(seat, dessert), claim=None), events


HANDLERS: dict[type, Callable] = {
    HandCard: hand_card, Offer: offer, Bid: bid, Pass: pass_, Grab: grab, Reveal: reveal, Choose: choose,
    SwapCard: swap_card, FaceUp: face_up, Draw: draw, StartBakeSale: start_bake_sale, Done: done, Take: take,
    GrabCard: grab_card, AskClose: ask_close, Vote: vote, ShoutSweetSix: shout_sweet_six,
}
