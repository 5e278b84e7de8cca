"""Sugar Heist: what the table is asked to do now (the flow's prompt), and the
half-entered input it is asked from (:class:`Entry`). Read only; never changes anything."""

from __future__ import annotations

from dataclasses import dataclass

from . import battle as B
from .cards import CARDS
from ..state import BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, Move, State
from ..messages import say


@dataclass(frozen=True)
class Entry:
    """What has been scanned or tapped towards the next action."""

    cards: tuple[str, ...] = ()          # a pair being stashed
    vault: int | None = None             # the vault tapped for it (0-based)
    flavour: str | None = None           # declared for two Pure Sugars
    pay: str | None = None               # the candy paid for a purchase
    moves: tuple[Move, ...] = ()         # a swap being entered
    card: str | None = None              # a swap card waiting for "give N"
    giver: int | None = None             # "from N"
    seat: int | None = None              # "join N"
    ask: int | None = None               # the vault the table was asked to empty (tap it again: yes)


def seat_name(state: State, seat: int) -> str:
    """The name of the player at ``seat`` (0-based)."""
    return state.players[seat]


def empty_question(state: State, seat: int, index: int, flavour: str) -> str:
    """The question before a vault of another flavour is emptied."""
    v = state.vaults[seat][index]
    return say("would_empty_vault", who=seat_name(state, seat), vault=index + 1, count=v.count, old=v.flavour,
               flavour=flavour)


def haul_flavour(state: State) -> str | None:
    """The one flavour the candies being placed make (None: not known yet, or mixed)."""
    f = state.frame
    if f.step == "haul":
        return f.flavours[0] if f.flavours else None
    flavours = B.prize_flavours(f.haul)
    return flavours.pop() if len(flavours) == 1 else None


def two_pure(cards, entry: Entry) -> bool:
    """Is the pair ``cards`` two Pure Sugars still waiting for a flavour to be named?"""
    return all(CARDS[c].is_pure for c in cards) and entry.flavour is None


def prompt(state: State, entry: Entry) -> str:
    """What the table should do next, in a few words."""
    if state.over:
        return say("prompt_over")
    placing = state.frame.step in ("haul", "prize") if state.frame else len(entry.cards) == 2
    if entry.ask is not None and placing:
        seat = state.frame.target if state.frame and state.frame.step == "prize" else (
            state.frame.actor if state.frame else state.seat)
        if entry.ask < len(state.vaults[seat]) and state.vaults[seat][entry.ask].candies:
            flavour = haul_flavour(state) if state.frame and state.frame.step in ("haul", "prize") else (
                CARDS[entry.cards[0]].flavour if entry.cards else None)
            if entry.cards and all(CARDS[c].is_pure for c in entry.cards):
                flavour = entry.flavour
            return empty_question(state, seat, entry.ask, flavour or say("word_other_candy"))
    if state.frame:
        return prompt_frame(state, entry)
    who = seat_name(state, state.seat)
    stage = state.stage
    if stage == STASH:
        if len(entry.cards) == 2:
            if two_pure(entry.cards, entry):
                return say("tap_flavour_two_pure", who=who)
            return say("tap_vault_for_pair", who=who, card=CARDS[entry.cards[0]].name)
        if entry.cards and entry.vault is not None:
            return say("scan_partner_for_vault", who=who, card=CARDS[entry.cards[0]].name, v=entry.vault + 1)
        if entry.cards:
            return say("scan_partner_tap_its", who=who, card=CARDS[entry.cards[0]].name)
        then = say("two_players_set_aside") if state.set_aside and state.turn == 1 and not state.stashed else ""
        return say("stash_pair_scan_two", who=who) + (say("tap_done") if state.stashed else
                                                      say("tap_cant_stash")) + then
    if stage == REVEAL:
        return say("prompt_reveal", who=who, k=len(state.revealed) + 1)
    if stage == SWAP:
        if entry.card:
            return say("tap_who_gets", card=CARDS[entry.card].name)
        if entry.moves:
            return say("scan_more_cards_this")
        return say("swap_scan_card_that", who=who)
    if stage == BUY:
        if state.final:
            return say("prompt_last_turn", who=who)
        if entry.pay:
            return say("scan_card_you_buy", who=who, card=CARDS[entry.pay].name)
        return say("pay_candy_from_vault", who=who)
    if stage == DISCARD:
        return say("discard_down_6_scan", who=who)
    if stage == FINAL:
        return say("stash_pairs_left_your", who=who)
    return ""


def prompt_frame(state: State, entry: Entry) -> str:
    """The prompt while a Battle Card is being played out (``state.frame`` is set)."""
    f = state.frame
    name = CARDS[f.card].name
    actor = seat_name(state, f.actor)
    step = f.step
    if step == "target":
        if CARDS[f.card].kind == "attack":
            if f.actor != state.active:  # "You may not Steal during another player's turn": a Heist only
                return say("tap_heist_players", actor=actor, active=seat_name(state, state.active))
            return say("tap_heist_steal_or_keep" if f.withdrawable else "tap_heist_steal_players", actor=actor)
        return say("prompt_target_or_keep" if f.withdrawable else "prompt_target", actor=actor, name=name)
    if step == "mom":
        if f.style == "steal":
            return say("scan_mom_block_steal", names=', '.join(seat_name(state, s) for s in f.waiting), actor=actor)
        return say("scan_mom_block_tap", names=', '.join(seat_name(state, s) for s in f.waiting))
    if step == "duel":
        if state.battle_draw == 0 and not state.battle_discard:
            return say("flip_or_call_off", who=seat_name(state, B.flipper(state)))
        return say("flip_top_battle_card", who=seat_name(state, B.flipper(state)))
    if step == "haul" and f.haul_max - len(f.haul) <= 0:  # never "scan up to 0 more"
        return say("prompt_haul_full", actor=actor)
    if step == "haul" and f.vault is None:
        return say("prompt_next_steal", actor=actor, haul_max=f.haul_max - len(f.haul), target=seat_name(state, f.target))
    if step == "haul":
        if f.haul_max - len(f.haul) <= 0:  # never "scan up to 0 more"
            return say("prompt_haul_full", actor=actor)
        return (say("prompt_haul", actor=actor, haul_max=f.haul_max - len(f.haul), target=seat_name(state, f.target),
                    vault=f.vault + 1))
    if step == "prize":
        if f.haul_max - len(f.haul) <= 0:
            return say("prompt_prize_full", target=seat_name(state, f.target))
        return say("prompt_prize", target=seat_name(state, f.target), haul_max=f.haul_max - len(f.haul))
    if step == "spy":
        return say("prompt_spy", actor=actor, target=seat_name(state, f.target))
    if step == "flavour":
        return say("tap_flavour_for", actor=actor, name=name)
    if step == "keep":
        return say("tap_flavour_you_keep", actor=actor, names=', '.join(f.flavours))
    if step == "collect":
        return say("scan_every_card_from", who=seat_name(state, f.waiting[0]), flavours=f.flavours[0])
    if step == "new-vault":
        return say("take_free_vault_card", actor=actor)
    if step == "pinata":
        return say("pi_ata_turn_over", k=len(f.cards) + 1, n=len(state.players))
    if step == "pick":
        return say("scan_pi_ata_card", who=seat_name(state, f.waiting[0]))
    if step == "join":
        return say("crib_fight_tap_join")
    if step == "royale":
        return say("battle_royale_draw_battle", who=seat_name(state, f.waiting[0]))
    if step == "stash":
        return say("stash_pairs_vault_tap", actor=actor, new_vault=f.new_vault + 1)
    return ""
