"""Battle Card effects with a step of their own: Spy, Bad Dog and the Candy Magnets,
Piñata, Crib Fight entries, Battle Royale draws and the Vault Heist stash (Sugar Heist
rulebook, "Battle Card Index"). Same conventions as :mod:`.battle`: each ``do_*``
applies one action for the top frame that :mod:`.checks` has passed, and never refuses.
"""

from __future__ import annotations

from dataclasses import replace

from .battle import CRIB_PRIZE, _collect, _name, _open, _set_top, finish, playable, start, top
from .cards import CARDS
from ..state import Note, State, Vault
from .turns import draw_battle, draw_candy
from .vaults import add_candies, put, relock, stash
from ..messages import say


def do_spy_take(state: State, card: str, events: list) -> State:
    """Spy: take one of the target's hidden Battle Cards (not named anywhere)."""
    f = top(state)
    held = put(state.held, f.target, tuple(h for h in state.held[f.target] if h != card))
    state = replace(state, held=put(held, f.actor, held[f.actor] + (card,)))
    events.append(Note(say("takes_one_battle_cards", who=_name(state, f.actor), target=_name(state, f.target))))
    return finish(state, events)


def do_declare(state: State, flavour: str, events: list) -> State:
    """Bad Dog, Candy Magnet: one flavour; Mega Candy Magnet: three, then the one kept."""
    f = top(state)
    name = CARDS[f.card].name
    n = len(state.players)
    others = _open(state, tuple((f.actor + k) % n for k in range(1, n)))
    if f.step == "keep":
        events.append(Note(say("keeps_hand_over_every", who=_name(state, f.actor), flavour=flavour)))
        return _collect(state, replace(f, step="collect", flavours=(flavour,), waiting=f.waiting), events)
    flavours = f.flavours + (flavour,)
    if name == "Mega Candy Magnet" and len(flavours) < 3:
        events.append(Note(say("name_more", name=name, names=', '.join(flavours), more=3 - len(flavours))))
        return _set_top(state, replace(f, flavours=flavours))
    events.append(Note(say("anyone_with_mom_may", name=name, names=', '.join(flavours))))
    return _set_top(state, replace(f, step="mom", flavours=flavours, waiting=others))


def collect_waiting(state: State) -> tuple[int, ...]:
    f = top(state)
    return f.waiting


def do_collect(state: State, card: str, seat: int | None, events: list) -> State:
    """Bad Dog: a card of the flavour discarded from a hand. Candy Magnets: given to the
    player who played it, straight into their free vault."""
    f = top(state)
    giver = f.waiting[0] if seat is None else seat
    c = CARDS[card]
    state = replace(state, hands=put(state.hands, giver, state.hands[giver] - 1))
    if CARDS[f.card].name == "Bad Dog":
        events.append(Note(say("dog_eats", who=_name(state, giver), card=c.name)))
        return replace(state, discard=state.discard + (card,))
    events.append(Note(say("gives", who=_name(state, giver), card=c.name, other=_name(state, f.actor))))
    return add_candies(state, f.actor, f.new_vault, (card,), c.flavour, events)


def do_collect_done(state: State, events: list) -> State:
    """Bad Dog, the Candy Magnets: the player handing over has no more of the flavour;
    the next one does, or the card is over."""
    f = top(state)
    waiting = f.waiting[1:]
    if waiting:
        return _set_top(state, replace(f, waiting=waiting))
    return finish(state, events)


def do_new_vault(state: State, card: str | None, events: list) -> State:
    """Candy Magnets: the free Vault Card, then the flavour is named."""
    f = top(state)
    a = f.actor
    state = replace(state, vaults=put(state.vaults, a, state.vaults[a] + (Vault(card=card),)),
                    vault_pile=state.vault_pile - 1, vault_cards=state.vault_cards + ((card,) if card else ()))
    events.append(Note(say("gets_free_vault_vault", who=_name(state, a), vault=len(state.vaults[a]))))
    return _set_top(state, replace(f, step="flavour", new_vault=len(state.vaults[a]) - 1))


def do_pinata_reveal(state: State, card: str, events: list) -> State:
    """Piñata: one Candy Card per player turned face up from the Candy Draw Pile."""
    f = top(state)
    state, _ = draw_candy(state, 1, events)
    f = replace(f, cards=f.cards + (card,))
    n = len(state.players)
    events.append(Note(say("pinata_card", card=CARDS[card].name)))
    if len(f.cards) >= n or state.draw == 0 or state.final:
        f = replace(f, step="pick", waiting=tuple((f.actor + k) % n for k in range(n))[:len(f.cards)])
        events.append(Note(say("picks_first_scan_card", who=_name(state, f.waiting[0]))))
    return _set_top(state, f)


def do_pinata_pick(state: State, card: str, events: list) -> State:
    """Piñata: the next player in turn takes one of the face-up cards into their hand."""
    f = top(state)
    who = f.waiting[0]
    state = replace(state, hands=put(state.hands, who, state.hands[who] + 1))
    f = replace(f, cards=tuple(c for c in f.cards if c != card), waiting=f.waiting[1:])
    events.append(Note(say("takes_who_card", who=_name(state, who), card=CARDS[card].name)))
    state = _set_top(state, f)
    return finish(state, events) if not f.waiting or not f.cards else state


def do_join(state: State, seat: int, card: str, events: list) -> State:
    """Crib Fight: a player discards 1 Candy Card from their hand to enter."""
    f = top(state)
    state = replace(state, hands=put(state.hands, seat, state.hands[seat] - 1), discard=state.discard + (card,))
    events.append(Note(say("joins_crib_fight", who=_name(state, seat))))
    return _set_top(state, replace(f, duelists=f.duelists + (seat,)))


def do_fight(state: State, events: list) -> State:
    """Crib Fight: entries closed; alone, the player who drew it wins at once."""
    f = top(state)
    n = len(state.players)
    order = tuple(sorted(f.duelists, key=lambda s: (s - f.actor) % n))
    if len(order) == 1:
        events.append(Note(say("nobody_else_joins_wins", who=_name(state, f.actor), prize=CRIB_PRIZE)))
        return _set_top(state, replace(f, step="prize", target=f.actor, haul_max=CRIB_PRIZE))
    events.append(Note(say("crib_fight_masterminds_flips", names=', '.join(_name(state, s) for s in order),
                           who=_name(state, order[0]))))
    return _set_top(state, replace(f, step="duel", style="crib", duelists=order, need=(2,) * len(order),
                                   tally=(0,) * len(order), flipper=0))


def do_royale_draw(state: State, card: str, events: list) -> State:
    """Battle Royale: each player in turn draws a Battle Card; a playable Attack, Action
    or Event Card is played at once, anything else is kept face down."""
    f = top(state)
    who = f.waiting[0]
    state = draw_battle(state, events, card)
    state = _set_top(state, replace(f, waiting=f.waiting[1:]))
    state = replace(state, fresh=state.fresh + (card,))
    if playable(state, who, card):
        return start(state, card, who, events)
    state = replace(state, held=put(state.held, who, state.held[who] + (card,)))
    events.append(Note(say("keeps_card_they_drew", who=_name(state, who))))
    if not top(state).waiting:
        events.append(Note(say("battle_royale_over")))
        return finish(state, events)
    return state


def do_bonus_stash(state: State, cards, vault: int, declared, events: list) -> State:
    """Vault Heist: pairs from the hand go on the vault just taken."""
    f = top(state)
    return stash(state, f.actor, tuple(cards), vault, declared, events)


def relock_all(state: State, events: list) -> State:
    for seat, vs in enumerate(state.vaults):
        for i in range(len(vs)):
            state = relock(state, seat, i, events)
    return state

