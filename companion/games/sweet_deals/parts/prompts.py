"""What the table should do now: whose card the next scan is, and the prompt line
(used by the rules' messages, the flow and the screen)."""

from __future__ import annotations

from .cards import HAND_SIZE, MAX_BID
from ..state import (BAKE_DISCARD, BAKE_DRAW, BAKE_GRAB, BAKE_TAKE, BID, CHOOSE, DEAL, DISCARD, DRAW, OFFER, REVEAL,
                     SCORE, SWAP, VOTE, State)
from ..messages import count, say


def article(label: str) -> str:
    """``a Pie``, ``an Ice Cream``."""
    return say("an_dessert" if label[0] in "AEIOU" else "a_dessert", label=label)


def scanner(state: State) -> int | None:
    """The seat whose card the next scan is, when the scanner is passed around (a
    reader bound to a seat says so itself); None when no scan is expected."""
    p = state.phase
    if p == SCORE and state.claim is not None:
        return state.six[0]                 # the shouter shows their Sweet Six first
    if p in (DEAL, SCORE):
        return next((i for i, h in enumerate(state.hands) if len(h) < HAND_SIZE), None)
    if p == REVEAL:
        done = {s for s, _ in state.shown}
        return next(s for s in state.tied if s not in done)
    if p == SWAP:
        return state.winner if state.take is None else state.active
    if p in (DISCARD, DRAW, BAKE_DRAW):
        return state.active
    if p == BAKE_DISCARD and state.tracked:
        return state.bake.holder
    if p == BAKE_GRAB:
        return state.bake.grabber
    return None


def waiting(state: State) -> str:
    """What the table should do now, in one sentence for the prompt line."""
    p, who = state.phase, state.name(state.active)
    if p in (DEAL, SCORE):
        seat = scanner(state)
        k = len(state.hands[seat]) + 1
        if p == DEAL:
            return say("prompt_deal", name=state.name(seat), k=k)
        if state.claim is not None:
            return say("prompt_show_six", name=state.name(seat), k=k)
        return say("prompt_score", name=state.name(seat), k=k)
    if p == OFFER:
        extra = [] if state.bake_used[state.active] else [say("start_your_bake_sale")]
        if not state.close_refused:
            extra.append(say("ask_close_early"))
        if extra:
            return say("offer_or", who=who, extra=say("sep_or").join(extra))
        return say("offer", who=who)
    if p == VOTE:
        return say("close_game_early_tap", name=state.name(state.voters[0]))
    if p == BID:
        b = state.bidding
        bidder, high = state.name(b.to_act), b.high
        if high is None:
            return say("bid_0_coins_for", bidder=bidder, max_bid=MAX_BID, offer=state.offer)
        if b.holds_high(b.to_act):
            return say("raise_pass_keep_your", bidder=bidder, high=high)
        return say("bid_more_pass", bidder=bidder, high=high)
    if p == REVEAL:
        return say("prompt_reveal", name=state.name(scanner(state)), coins=count(state.price, "coin"))
    if p == CHOOSE:
        return say("tap_whose_card_you", who=who)
    if p == SWAP:
        if state.take is None:
            card = say("your_grab_go") if state.grab else say("card_you_bid_coin", coins=count(state.price, "coin"))
            return say("scan_face_down", name=state.name(state.winner), card=card)
        return say("scan_you_give_face", who=who, offer=state.offer, name=state.name(state.winner))
    if p == DISCARD:
        return say("put_face_up_scan", who=who, offer=state.offer)
    if p in (DRAW, BAKE_DRAW):
        if state.draw_count == 0:       # the deck ran out: the face-up cards make a new one
            return say("shuffle_then_draw", cards=count(len(state.discards), "card"), who=who)
        return say("draw_card_scan_face", who=who)
    if p == BAKE_DISCARD:
        holder = state.name(state.bake.holder)
        if state.tracked:
            return say("prompt_bake_discard_tracked", holder=holder)
        if state.bake.top_owner is None:
            if state.open_deck == 0:
                return say("shuffle_draw_put_face", holder=holder,
                           cards=count(state.open_face_up, "card"))
            return say("draw_put_any_card_face", holder=holder)
        return say("put_any_card_face", holder=holder)
    if p == BAKE_TAKE:
        return say("take_face_up_card", name=state.name(state.bake.decider))
    if p == BAKE_GRAB:
        return say("put_your_grab_go", name=state.name(state.bake.grabber))
    return say("prompt_over")
