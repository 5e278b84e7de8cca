"""Why a Battle Card is refused, in words built from public facts only (Sugar Heist
rulebook, "Playing Battle Cards", "Mom"): a refusal about a face-down card says no more
than that it was refused (issue 21)."""

from __future__ import annotations

from .cards import CARDS
from ..messages import listing, say
from ..state import State


def _who(state: State, seat: int) -> str:
    return state.players[seat]


def no_target_reason(state: State, actor: int) -> str:
    """Why a face-down card has no target now, from public facts only: the same words
    whichever card it is, so the refusal tells no more than that it cannot be played
    ("You may only use Attack Cards on players with 2 or more Vaults", "Once you've
    played a Mom, you cannot be targeted again that turn", "Each player may only be
    Heisted once per turn", "Once a vault is locked, other players may not target that
    vault")."""
    facts = []
    for seat in range(len(state.players)):
        if seat == actor:
            continue
        who = _who(state, seat)
        vaults = state.vaults[seat]
        if len(vaults) < 2:
            facts.append(say("fact_one_vault" if vaults else "fact_no_vaults", who=who))
        elif seat in state.protected:
            facts.append(say("fact_mom", who=who))
        else:
            said = []
            if seat in state.heisted:
                said.append(say("fact_heisted", who=who))
            if seat in state.stolen:
                said.append(say("fact_stolen", who=who))
            if not any(v.candies and not v.locked for v in vaults):
                said.append(say("fact_no_unlocked", who=who))
            facts += said
    if not facts:
        return say("no_target_for_that_card")
    return say("nobody_can_be_targeted", facts=listing(facts))


def mom_refusal(state: State, card: str) -> str:
    """Why a Battle Card scanned in a Mom window is refused, in words that never say
    more about a face-down card than its refusal itself shows: every card of a player who
    may not play a Mom now gets one message, Mom or not ("Mom": the targeted player
    reveals it; "When playing multiples they must be revealed at the same time")."""
    f = state.stack[-1]
    seat = next((s for s, h in enumerate(state.held) if card in h), None)
    if seat is None:
        return say("mom_not_held") if CARDS[card].name == "Mom" else say("only_mom_can_be")
    names = listing([_who(state, s) for s in f.waiting], "or")
    if seat in f.waiting:  # a Mom of theirs is played: this card is not one
        return say("not_a_mom_keep_it", who=_who(state, seat))
    if seat == f.actor == state.active and f.style == "steal" and not state.final:
        return say("steal_window_attack_only", who=_who(state, seat), names=names)
    if not f.waiting:
        return say("nobody_may_play_mom", who=_who(state, seat))
    return say("only_they_play_mom", names=names, who=_who(state, seat))
