"""Battle Cards: playing them, their targets, the heist duel and every card's effect
(Sugar Heist rulebook, "Playing Battle Cards", "Attack Card Styles", "Battle Card Index").

A played card becomes a :class:`~.state.Frame` on the state's stack and is walked
through its steps (target, Mom window, duel, haul, ...). The queries here
(:func:`target_problem`, :func:`playable`, :func:`can_add_steal`...) are what
:mod:`.checks` asks; each ``do_*`` applies one action for the top frame that
:mod:`.checks` has passed: it trusts its caller and never refuses. Hidden cards
(bought, kept from a Battle Royale, taken by a Spy) are never named in a message.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CARDS, SETUP
from ..state import (CardPlayed, Flipped, Frame, HeistOver, Note, QuarantineLocked, SafeCracked, State, Target,
                     Vault, VaultUnlocked)
from .turns import draw_battle
from .vaults import add_candies, empty_vault, fitting, put, quarantine_off, set_vault, take_candy, vault_name
from ..messages import count, listing, say
from .reasons import mom_refusal, no_target_reason  # noqa: F401  (part of this module's API)

HEIST_HAUL: int = SETUP["heist_haul"]
STEAL_HAUL: int = SETUP["steal_haul"]
CRIB_PRIZE: int = SETUP["crib_prize"]

#: The target style each targeted card takes (``heist``/``steal`` for Attack Cards).
STYLE = {"Night Raid": "raid", "Quarantine Lock": "lock", "Safe Cracker": "crack", "Spy": "spy",
         "Time Out": "timeout", "Vault Heist": "take"}
KEPT = ("Mom", "Grandma", "Mastermind")
#: Said when a kept card is scanned at the wrong moment; it never names the card.
KEEP_IT = (say("keep_that_card_face"))
MOM_ONLY = say("only_player_being_targeted")
#: Said when a Mastermind comes too late (after the first flip); it never names the card.
FLIP_ONLY = say("that_card_cant_be")


def _name(state: State, seat: int) -> str:
    return state.players[seat]


def top(state: State) -> Frame:
    return state.stack[-1]


def _set_top(state: State, frame: Frame) -> State:
    return replace(state, stack=state.stack[:-1] + (frame,))


def owner(state: State, code: str) -> int | None:
    """The seat holding a face-down Battle Card, or None."""
    return next((s for s, h in enumerate(state.held) if code in h), None)


# ---------------------------------------------------------------- targets

def target_problem(state: State, actor: int, card: str, style: str, seat: int, vault: int | None) -> str | None:
    """Why ``card`` played by ``actor`` may not go against ``seat``'s vault ``vault``
    in ``style``; None when it may ("Playing Battle Cards", "Option 2: Steal": "You may not
    Steal during another player's turn", each card's text)."""
    name = CARDS[card].name
    n = len(state.players)
    if not 0 <= seat < n:
        return say("there_are_only_players", n=n)
    who = _name(state, seat)
    vaults = state.vaults[seat]
    v = vaults[vault] if vault is not None and 0 <= vault < len(vaults) else None
    if vault is not None and v is None:
        return say("has_no_vault", who=who, vault=vault + 1)
    expected = ("heist", "steal") if CARDS[card].kind == "attack" else (STYLE.get(name),)
    if style not in expected:
        return say("played_as_not", name=name, styles=listing(expected, "or"), style=style)
    if style == "steal" and actor != state.active:  # "You may not Steal during another player's turn"
        return say("no_steal_on_others_turn", who=_name(state, actor), active=_name(state, state.active))
    if style == "lock":
        if seat != actor:
            return say("quarantine_lock_goes_one")
        if v is None or not v.candies:
            return say("pick_one_your_vaults")
        if v.locked:
            return say("vault_locked_already", vault=vault + 1)
        return None
    if seat == actor:
        return say("goes_against_another_player", name=name)
    if len(vaults) < 2:
        return say("has_one_vault" if vaults else "has_no_vaults", who=who)
    if seat in state.protected:
        return say("played_mom_this_turn", who=who)
    if style in ("heist", "steal", "raid", "crack", "take") and v is None:
        return say("tap_vault_too")
    if style in ("heist", "steal") and not state.vaults[actor]:
        return say("you_need_vault_your")
    if style == "heist":
        if card not in state.fresh:
            return say("heist_needs_attack_card")
        if seat in state.heisted:
            return say("was_heisted_already_this", who=who)
        if seat in state.stolen:
            return say("you_stole_from_this", who=who)
        if not v.candies:
            return say("vault_empty_nothing_heist", who=who, vault=vault + 1)
        if v.locked and not state.alternate:
            return say("vault_locked_locked_vaults", who=who, vault=vault + 1)
    if style == "steal":
        if seat in state.stolen:
            return say("steals_together", who=who)
        if seat in state.heisted:
            return say("was_heisted_this_turn", who=who)
        if not v.candies:
            return say("vault_empty_nothing_steal", who=who, vault=vault + 1)
        if v.locked:
            return say("vault_locked_steals_cant", who=who, vault=vault + 1)
    if style == "raid" and v.locked:
        return say("vault_locked_night_raid", who=who, vault=vault + 1)
    if style == "crack" and not v.locked:
        return say("vault_not_locked_nothing", who=who, vault=vault + 1)
    if style == "take" and v.candies:
        return say("vault_has_candy_vault", who=who, vault=vault + 1)
    if style == "spy" and not state.held[seat]:
        return say("has_no_hidden_battle", who=who)
    return None


def legal_targets(state: State, actor: int, card: str) -> list[tuple[str, int, int | None]]:
    """Every (style, seat, vault) the card may go against."""
    kind = CARDS[card]
    styles = ("heist", "steal") if kind.kind == "attack" else (STYLE.get(kind.name),)
    out = []
    for style in styles:
        if style is None:
            continue
        for seat in range(len(state.players)):
            options = [None] if style in ("spy", "timeout") else range(len(state.vaults[seat]))
            for vault in options:
                if target_problem(state, actor, card, style, seat, vault) is None:
                    out.append((style, seat, vault))
    return out


def playable(state: State, seat: int, card: str) -> bool:
    """An Attack or Action Card with a legal target, or an Event Card."""
    c = CARDS[card]
    if c.kind == "event":
        return True
    if c.name in KEPT:
        return False
    return bool(legal_targets(state, seat, card))


# ---------------------------------------------------------------- playing a card

def do_play(state: State, card: str, events: list) -> State:
    """Phase 3: the active player plays one of their face-down Battle Cards ("Playing
    Battle Cards")."""
    who = state.active
    state = replace(state, held=put(state.held, who, tuple(h for h in state.held[who] if h != card)))
    state = start(state, card, who, events)
    if state.stack and state.stack[-1].card == card and state.stack[-1].step == "target":
        state = _set_top(state, replace(top(state), withdrawable=True))
    return state


def do_withdraw(state: State, events: list) -> State:
    """A card scanned to play it by mistake goes back face down before its target is
    chosen: nothing has happened yet. The table saw its name, so it is named."""
    f = top(state)
    state = replace(state, stack=state.stack[:-1],
                    held=put(state.held, f.actor, state.held[f.actor] + (f.card,)))
    events.append(Note(say("withdraws", who=_name(state, f.actor), card=CARDS[f.card].name)))
    return state


def start(state: State, card: str, actor: int, events: list) -> State:
    """The card is face up: begin resolving it (events are played at once when drawn)."""
    c = CARDS[card]
    events.append(CardPlayed(say("plays_who_c_name", who=_name(state, actor), card=c.name), actor, card))
    n = len(state.players)
    others = tuple((actor + k) % n for k in range(1, n))
    frame = Frame(card, actor, "target")
    if c.kind == "event":
        if c.name == "Activate Sleeper Cell":
            frame = Frame(card, actor, "mom", waiting=_open(state, others))
        elif c.name == "Bad Dog":
            frame = Frame(card, actor, "flavour")
        elif c.name == "Battle Royale":
            frame = Frame(card, actor, "royale", waiting=others + (actor,))
        elif c.name in ("Candy Magnet", "Mega Candy Magnet"):
            frame = Frame(card, actor, "new-vault")
            if state.vault_pile == 0:
                state = replace(state, vaults=put(state.vaults, actor, state.vaults[actor] + (Vault(card=card),)))
                frame = replace(frame, step="flavour", style="kept", new_vault=len(state.vaults[actor]) - 1)
                events.append(Note(say("no_vault_cards_left", card=c.name, who=_name(state, actor))))
        elif c.name == "Piñata":
            frame = Frame(card, actor, "pinata")
        elif c.name == "Start a Crib Fight":
            frame = Frame(card, actor, "join", duelists=(actor,))
    state = replace(state, stack=state.stack + (frame,))
    if frame.step == "pinata" and (state.draw == 0 or state.final):
        events.append(Note(say("candy_pile_empty_pinata")))
        return finish(state, events)
    return state


def _open(state: State, seats) -> tuple[int, ...]:
    """Seats that may still be hit (no Mom played this turn)."""
    return tuple(s for s in seats if s not in state.protected)


def finish(state: State, events: list, keep: bool = False) -> State:
    """The top card is resolved: discard it (unless it stays on the table), then finish
    a Battle Royale whose players have all drawn."""
    f = top(state)
    state = replace(state, stack=state.stack[:-1])
    if not keep and f.style != "kept":
        state = replace(state, battle_discard=state.battle_discard + (f.card,) + f.more)
    if state.stack and top(state).step == "royale" and not top(state).waiting:
        events.append(Note(say("battle_royale_over")))
        return finish(state, events)
    return state


# ---------------------------------------------------------------- steps

def do_target(state: State, action: Target, events: list) -> State:
    """The played card's target ("Attack Card Styles", each card's text): a Night Raid or
    a Quarantine Lock acts at once, anything else opens the Mom window."""
    f = top(state)
    a, t, v = f.actor, action.seat, action.vault
    name = CARDS[f.card].name
    if action.style == "raid":
        vault = state.vaults[t][v]
        state = replace(state, vaults=put(put(state.vaults, t, state.vaults[t][:v] + state.vaults[t][v + 1:]),
                                          a, state.vaults[a] + (vault,)))
        events.append(Note(say("night_raid_takes_whole", who=_name(state, a), target=_name(state, t),
                               candies=count(vault.count, "candy"))))
        return finish(state, events)
    if action.style == "lock":
        vault = state.vaults[a][v]
        state = set_vault(state, a, v, replace(vault, locked=True, quarantine=f.card))
        events.append(QuarantineLocked(say("quarantine_lock_vault_locked", who=_name(state, a), v=v + 1), a, v))
        return finish(state, events, keep=True)
    flav = state.vaults[t][v].flavour if v is not None else None
    f = replace(f, step="mom", style=action.style, target=t, vault=v, waiting=(t,), flavours=(flav,) if flav else ())
    if action.style == "heist":
        state = replace(state, heisted=state.heisted + (t,))
        what = say("heist_on", target=_name(state, t), flavour=flav)
        events.append(Note(say("declares_heist_scan_mom", who=_name(state, a), what=what, target=_name(state, t))))
    else:
        if action.style == "steal":
            state = replace(state, stolen=state.stolen + (t,))
        events.append(Note(say("targets_with_scan_mom", who=_name(state, a), target=_name(state, t), name=name)))
    return _set_top(state, f)


def do_mom(state: State, card: str, events: list) -> State:
    """A Mom in the Mom window repels the card for her owner ("Mom")."""
    f = top(state)
    seat = owner(state, card)
    state = replace(state, held=put(state.held, seat, tuple(h for h in state.held[seat] if h != card)),
                    battle_discard=state.battle_discard + (card,), protected=state.protected + (seat,))
    events.append(CardPlayed(say("mom_safe_this_turn", who=_name(state, seat)), seat, card))
    if f.target is not None:
        if f.style == "heist":
            events.append(HeistOver(say("heist_stopped_by_mom"), f.actor, seat, False))
        return finish(state, events)
    f = replace(f, waiting=tuple(s for s in f.waiting if s != seat))
    state = _set_top(state, f)
    return after_mom(state, events) if not f.waiting else state


def after_mom(state: State, events: list) -> State:
    """The Mom window closed: the card takes effect."""
    f = top(state)
    name = CARDS[f.card].name
    a, t = f.actor, f.target
    if f.style == "heist":
        f = replace(f, step="duel", duelists=(a, t), need=(2, 2), tally=(0, 0), flips=(), flipper=0)
        events.append(Note(say("heist_flips_first_masterminds", who=_name(state, a))))
        return _set_top(state, f)
    if f.style == "steal":
        events.append(Note(say("scan_up_candies_from", who=_name(state, a), haul=STEAL_HAUL, target=_name(state, t),
                               vault=f.vault + 1)))
        return _set_top(state, replace(f, step="haul", haul_max=STEAL_HAUL))
    if f.style == "crack":
        v = state.vaults[t][f.vault]
        if v.quarantine:
            state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
        state = set_vault(state, t, f.vault, replace(v, locked=False, quarantine=None, cracked=not v.quarantine))
        said = say("safe_cracker_quarantine" if v.quarantine else "safe_cracker_unlocked",
                   vault_name=vault_name(state, t, f.vault))
        events.append(SafeCracked(said, a, t, f.vault, v.quarantine is not None))
        return finish(state, events)
    if f.style == "spy":
        events.append(Note(say("shows_their_battle_cards", target=_name(state, t), who=_name(state, a))))
        return _set_top(state, replace(f, step="spy"))
    if f.style == "timeout":
        state = replace(state, skips=put(state.skips, t, state.skips[t] + 1))
        events.append(Note(say("time_out_skips_their", target=_name(state, t))))
        return finish(state, events)
    if f.style == "take":
        vault = state.vaults[t][f.vault]
        state = replace(state, vaults=put(put(state.vaults, t, state.vaults[t][:f.vault] + state.vaults[t][f.vault + 1:]),
                                          a, state.vaults[a] + (vault,)))
        new = len(state.vaults[a]) - 1
        events.append(Note(say("vault_heist_takes_empty", who=_name(state, a), target=_name(state, t), new=new + 1)))
        return _set_top(state, replace(f, step="stash", new_vault=new))
    if name == "Activate Sleeper Cell":
        hit = f.waiting
        # "All other players skip their next turn ... When your current turn ends, immediately
        # take another turn": drawn in another player's turn (a Battle Royale), the player
        # who drew it takes the turn right after that one, and the active player skips too.
        state = replace(state, skips=tuple(k + (s in hit) for s, k in enumerate(state.skips)),
                        extra=state.extra + (a,))
        again = "dad_jokes_again" if a == state.active else "dad_jokes_next"
        events.append(Note(say("dad_jokes_one" if len(hit) == 1 else "dad_jokes_many" if hit else "dad_jokes_nobody",
                               names=listing([_name(state, s) for s in hit], ", "))))
        events.append(Note(say(again, who=_name(state, a), active=_name(state, state.active))))
        return finish(state, events)
    if name == "Mega Candy Magnet":
        return _set_top(state, replace(f, step="keep"))
    # Bad Dog, Candy Magnet: each player hit gives up that flavour
    return _collect(state, replace(f, step="collect"), events)


def _collect(state: State, f: Frame, events: list) -> State:
    if not f.waiting:
        events.append(Note(say("nobody_has_hand_over")))
        return finish(_set_top(state, f), events)
    return _set_top(state, f)


def do_more_steal(state: State, card: str, events: list) -> State:
    """Steal: another of the attacker's Attack Cards against the same player, in the same
    Mom window ("You may perform multiple Steals against 1 player during a turn. When
    playing multiples they must be revealed at the same time"): one Mom answers them all;
    without one each Steal takes up to 2 candies in turn."""
    f = top(state)
    state = replace(state, held=put(state.held, f.actor, tuple(h for h in state.held[f.actor] if h != card)))
    f = replace(f, more=f.more + (card,), steals_left=f.steals_left + 1)
    events.append(CardPlayed(say("another_steal", who=_name(state, f.actor), target=_name(state, f.target),
                                 n=1 + len(f.more)), f.actor, card))
    return _set_top(state, f)


def can_add_steal(state: State, seat: int | None, card: str) -> bool:
    """Is ``card`` (held by ``seat``) another Steal for the Mom window open now?"""
    f = top(state)
    return (f.step == "mom" and f.style == "steal" and seat == f.actor == state.active
            and CARDS[card].kind == "attack" and not state.final)  # "You may not Steal during another player's turn"


def next_steal(state: State, events: list) -> State:
    """One Steal's haul is done: the next Steal revealed with it takes its haul (from any
    unlocked vault of the target), or the card is over."""
    f = top(state)
    if f.step != "haul" or f.steals_left <= 0:
        return finish(state, events)
    t = f.target
    if not [i for i, v in enumerate(state.vaults[t]) if v.candies and not v.locked]:
        events.append(Note(say("nothing_left_to_steal", target=_name(state, t))))
        return finish(state, events)
    events.append(Note(say("next_steal", who=_name(state, f.actor), target=_name(state, t), haul=STEAL_HAUL)))
    return _set_top(state, replace(f, vault=None, flavours=(), haul=(), haul_max=STEAL_HAUL,
                                   steals_left=f.steals_left - 1))


def do_no_mom(state: State, events: list) -> State:
    """The Mom window closes with no Mom played ("Mom"): the card takes effect."""
    f = top(state)
    if f.waiting:
        events.append(Note(say("no_mom_from", names=', '.join(_name(state, s) for s in f.waiting))))
    return after_mom(state, events)


def do_mastermind(state: State, card: str, events: list) -> State:
    """Mastermind: before the first flip, its owner (a duelist) needs only 1 Attack Card."""
    f = top(state)
    seat = owner(state, card)
    i = f.duelists.index(seat)
    state = replace(state, held=put(state.held, seat, tuple(h for h in state.held[seat] if h != card)),
                    battle_discard=state.battle_discard + (card,))
    events.append(CardPlayed(say("mastermind_played", who=_name(state, seat)), seat, card))
    return _set_top(state, replace(f, need=put(f.need, i, 1)))


def flipper(state: State) -> int:
    f = top(state)
    return f.duelists[f.flipper]


def do_flip(state: State, card: str, events: list) -> State:
    """One card flipped in a Heist or Crib Fight: the first to flip enough Attack Cards
    wins; the flipped cards go back into the Battle Draw Pile."""
    f = top(state)
    c = CARDS[card]
    who = flipper(state)
    if state.battle_draw == 0 and not state.battle_discard and f.flips:
        events.append(Note(say("battle_pile_reshuffle_flips")))
        state = _set_top(replace(state, battle_draw=len(f.flips)), replace(f, flips=()))
        f = top(state)
    state = draw_battle(state, events, card)
    hit = c.kind == "attack"
    i = f.flipper
    tally = put(f.tally, i, f.tally[i] + hit)
    f = replace(f, flips=f.flips + (card,), tally=tally, flipper=(i + 1) % len(f.duelists))
    # A flip turns the Battle Draw Pile's face-down top card face up (a Revealed event),
    # so it cannot be taken back, nor the "No Mom" before it: "If the target wishes to
    # play a Mom Card it MUST be played now" -- not after watching the duel.
    events.append(Flipped(say("flips_attack" if hit else "flips", who=_name(state, who), card=c.name), who, card))
    state = _set_top(state, f)
    if tally[i] >= f.need[i]:
        return _duel_won(state, who, events)
    return state


def duel_off(state: State, events: list) -> State:
    """Done in a duel when the Battle Draw Pile and its discards are both empty: the
    flipped cards are all that is left, and they may hold too few Attack Cards ever to
    decide it, so the table may call the fight off (docs/rules-notes.md). Nobody wins:
    a Heist fails, a Crib Fight gives no prize; the flips go back into the pile."""
    f = top(state)
    state = _set_top(replace(state, battle_draw=state.battle_draw + len(f.flips)), replace(f, flips=()))
    events.append(Note(say("no_battle_cards_to_flip")))
    if f.style == "heist":
        events.append(HeistOver(say("heist_fails_nobody_won"), f.actor, f.target, False))
    return finish(state, events)


def _duel_won(state: State, winner: int, events: list) -> State:
    f = top(state)
    state = replace(state, battle_draw=state.battle_draw + len(f.flips))
    f = replace(f, flips=())
    if f.style == "heist":
        a, t = f.actor, f.target
        won = winner == a
        if not won:
            events.append(HeistOver(say("wins_duel_heist_fails", target=_name(state, t)), a, t, False))
            return finish(_set_top(state, f), events)
        v = state.vaults[t][f.vault]
        haul = HEIST_HAUL
        if v.locked:  # Alternate Play Rule: a locked vault opens and gives 2 candies
            haul = SETUP.get("relock_candies", 2)
            state = set_vault(state, t, f.vault, replace(v, locked=False, quarantine=None, cracked=True))
            if v.quarantine:
                state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
            events.append(VaultUnlocked(say("heist_unlocks", target=_name(state, t), vault=f.vault + 1), t, f.vault))
            if v.quarantine:
                events.append(quarantine_off(state, t, f.vault))
        events.append(HeistOver(say("wins_heist_scan_up", who=_name(state, a), haul=haul, target=_name(state, t),
                                    vault=f.vault + 1), a, t, True))
        return _set_top(state, replace(f, step="haul", haul_max=haul))
    events.append(Note(say("wins_crib_fight_take", winner=_name(state, winner), prize=CRIB_PRIZE)))
    return _set_top(state, replace(f, step="prize", target=winner, haul_max=CRIB_PRIZE))


def do_haul_take(state: State, card: str, events: list) -> State:
    """Heist or Steal: one candy scanned out of the target vault."""
    f = top(state)
    if f.vault is None:  # a later Steal: the first candy picks one of the target's unlocked vaults
        at = next(i for i, v in enumerate(state.vaults[f.target]) if card in v.candies)
        f = replace(f, vault=at, flavours=(state.vaults[f.target][at].flavour,))
    state = take_candy(state, f.target, f.vault, card, events)
    f = replace(f, haul=f.haul + (card,))
    return _set_top(state, f)


def _haul_flavour(f: Frame) -> str:
    return f.flavours[0]


def prize_flavours(haul: tuple[str, ...]) -> set[str]:
    """The flavours among a Crib Fight prize's candies, Pure Sugars aside."""
    return {CARDS[c].flavour for c in haul if not CARDS[c].is_pure}


def place_flavour(state: State, seat: int, vault: int) -> str | None:
    """The flavour the candies taken go into ``seat``'s vault ``vault`` as: a haul's is
    its vault's; a prize's its one flavour, else (all Pure Sugars) the vault's; None
    when a prize of Pure Sugars goes on an empty vault."""
    f = top(state)
    if f.step != "prize":
        return _haul_flavour(f)
    flavours = prize_flavours(f.haul)
    return next(iter(flavours)) if flavours else state.vaults[seat][vault].flavour


def do_place(state: State, vault: int | None, events: list) -> State:
    """Put the haul (or the Crib Fight prize) into a vault, or the prize in the hand. A
    vault of another flavour is emptied first (the table agreed: :mod:`.checks`)."""
    f = top(state)
    seat = f.target if f.step == "prize" else f.actor
    if vault is None:
        state = replace(state, hands=put(state.hands, seat, state.hands[seat] + len(f.haul)))
        events.append(Note(say("puts_in_hand", who=_name(state, seat), cards=count(len(f.haul), "card"))))
        return finish(_set_top(state, replace(f, haul=())), events)
    flavour = place_flavour(state, seat, vault)
    v = state.vaults[seat][vault]
    if v.flavour and v.flavour != flavour:
        state = empty_vault(state, seat, vault, events)
    state = add_candies(state, seat, vault, f.haul, flavour, events)
    events.insert(0, Note(say("puts_vault", who=_name(state, seat), n=len(f.haul), flavour=flavour, vault=vault + 1)))
    return next_steal(_set_top(state, replace(f, haul=())), events)


def haul_done_vault(state: State) -> int | None:
    """Where Done puts a haul: the one vault its flavour fits, else None (the table must
    tap a vault, or the hand for a prize)."""
    f = top(state)
    if f.step != "haul":
        return None
    fits = fitting(state, f.actor, _haul_flavour(f))
    return fits[0] if len(fits) == 1 else None


def do_haul_done(state: State, events: list) -> State:
    """Done with a haul or a prize: nothing taken, or the candies into the one vault
    that fits (:func:`haul_done_vault`)."""
    f = top(state)
    if not f.haul:
        events.append(Note(say("takes_nothing", who=_name(state, f.target if f.step == 'prize' else f.actor))))
        return next_steal(state, events)
    return do_place(state, haul_done_vault(state), events)


def do_prize_take(state: State, card: str, events: list) -> State:
    """Crib Fight: one candy of the prize taken from the Candy Discard Pile."""
    f = top(state)
    state = replace(state, discard=tuple(c for c in state.discard if c != card))
    return _set_top(state, replace(f, haul=f.haul + (card,)))
