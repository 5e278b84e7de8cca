"""What the table should do now: whose card the next scan is, and the prompt line
(used by the rules' messages, the flow and the screen)."""

from __future__ import annotations

from .cards import HAND_SIZE, MAX_BID
from .model import (BAKE_DISCARD, BAKE_DRAW, BAKE_GRAB, BAKE_TAKE, BID, CHOOSE, DEAL, DISCARD, DRAW, OFFER, REVEAL,
                    SCORE, SWAP, VOTE, State)


def article(label: str) -> str:
    """``a Pie``, ``an Ice Cream``."""
    return ("an " if label[0] in "AEIOU" else "a ") + label


def scanner(state: State) -> int | None:
    """The seat whose card the next scan is, when the scanner is passed around (a
    reader bound to a seat says so itself); None when no scan is expected."""
    p = state.phase
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
            return f"{state.name(seat)}: scan your 7 cards, face down, where nobody sees them (card {k} of 7)."
        return f"{state.name(seat)}: scan your 7 cards for scoring (card {k} of 7)."
    if p == OFFER:
        extra = [] if state.bake_used[state.active] else ["start your Bake Sale"]
        if not state.close_refused:
            extra.append("ask to Close Early")
        return f"{who}: tap the dessert you offer" + (", or " + " or ".join(extra) if extra else "") + "."
    if p == VOTE:
        return f"{state.name(state.voters[0])}: close the game early? Tap Yes or No."
    if p == BID:
        b = state.bidding
        bidder, high = state.name(b.to_act), b.high
        if high is None:
            return f"{bidder}: bid 0 to {MAX_BID} coins for the {state.offer}, or pass."
        if b.holds_high(b.to_act):
            return f"{bidder}: raise, or pass to keep your bid of {high}."
        return f"{bidder}: bid {high} or more, or pass."
    if p == REVEAL:
        return f"{state.name(scanner(state))}: show the card you bid ({state.price} coin{'s' * (state.price != 1)}) and scan it."
    if p == CHOOSE:
        return f"{who}: tap whose card you take."
    if p == SWAP:
        if state.take is None:
            card = "your Grab & Go" if state.grab else f"the card you bid ({state.price} coin{'s' * (state.price != 1)})"
            return f"{state.name(state.winner)}: scan {card}, face down."
        return f"{who}: scan the {state.offer} you give {state.name(state.winner)}, face down."
    if p == DISCARD:
        return f"{who}: put the {state.offer} face up and scan it."
    if p in (DRAW, BAKE_DRAW):
        return f"{who}: draw a card and scan it, face down."
    if p == BAKE_DISCARD:
        holder = state.name(state.bake.holder)
        if state.tracked:
            return f"{holder}: put any card face up and scan it."
        drew = "draw a card, " if state.bake.top_owner is None else ""
        return f"{holder}: {drew}put any card face up, then tap Done."
    if p == BAKE_TAKE:
        return f"{state.name(state.bake.decider)}: take the face-up card, or pass."
    if p == BAKE_GRAB:
        return f"{state.name(state.bake.grabber)}: put your Grab & Go face up and scan it."
    return "Game over: the scores are final."
