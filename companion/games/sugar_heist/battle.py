"""Battle Cards: playing them, their targets, the heist duel and every card's effect
(Sugar Heist rulebook, "Playing Battle Cards", "Attack Card Styles", "Battle Card Index").

A played card becomes a :class:`~.state.Frame` on the state's stack and is walked
through its steps (target, Mom window, duel, haul, ...). Each ``do_*`` checks and
applies one action for the top frame, raising :class:`IllegalAction` before changing
anything. Hidden cards (bought, kept from a Battle Royale, taken by a Spy) are never
named in a message.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CARDS, SETUP
from .state import (CardPlayed, Frame, HeistOver, Note, State, Target, Vault)
from .turns import draw_battle, on_battle_pile
from .vaults import (add_candies, check_vault, empty_vault, fitting, no, put, set_vault,
                     take_candy, vault_name)

HEIST_HAUL: int = SETUP["heist_haul"]
STEAL_HAUL: int = SETUP["steal_haul"]
CRIB_PRIZE: int = SETUP["crib_prize"]

#: The target style each targeted card takes (``heist``/``steal`` for Attack Cards).
STYLE = {"Night Raid": "raid", "Quarantine Lock": "lock", "Safe Cracker": "crack", "Spy": "spy",
         "Time Out": "timeout", "Vault Heist": "take"}
KEPT = ("Mom", "Grandma", "Mastermind")
#: Said when a kept card is scanned at the wrong moment; it never names the card.
KEEP_IT = ("Keep that card face down: it is played at its own moment (when you are targeted, in a fight, "
           "or at the end of the game).")
MOM_ONLY = "Only the player being targeted can play a Mom now: scan it, or tap No Mom."
FLIP_ONLY = "That card can't be used now: flip the top Battle Card and scan it."


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
    in ``style``; None when it may ("Playing Battle Cards", each card's text)."""
    name = CARDS[card].name
    n = len(state.players)
    if not 0 <= seat < n:
        return f"There are only {n} players."
    who = _name(state, seat)
    vaults = state.vaults[seat]
    v = vaults[vault] if vault is not None and 0 <= vault < len(vaults) else None
    if vault is not None and v is None:
        return f"{who} has no vault {vault + 1}."
    expected = ("heist", "steal") if CARDS[card].kind == "attack" else (STYLE.get(name),)
    if style not in expected:
        return f"{name} is played as {' or '.join(expected)}, not {style}."
    if style == "lock":
        if seat != actor:
            return "Quarantine Lock goes on one of your own vaults."
        if v is None or not v.candies:
            return "Pick one of your vaults with candy in it."
        if v.locked:
            return f"Vault {vault + 1} is locked already."
        return None
    if seat == actor:
        return f"{name} goes against another player, not yourself."
    if len(vaults) < 2:
        return f"{who} has only {len(vaults)} vault: Attack and Action Cards need a player with 2 or more."
    if seat in state.protected:
        return f"{who} played a Mom this turn: nobody can target {who} again this turn."
    if style in ("heist", "steal", "raid", "crack", "take") and v is None:
        return "Tap the vault too."
    if style in ("heist", "steal") and not state.vaults[actor]:
        return "You need a vault of your own to put the candy in."
    if style == "heist":
        if card not in state.fresh:
            return "A Heist needs an Attack Card drawn this turn: this one can only Steal."
        if seat in state.heisted:
            return f"{who} was heisted already this turn: each player is heisted at most once a turn."
        if seat in state.stolen:
            return f"You stole from {who} this turn: no Heist and Steal on the same player in one turn."
        if not v.candies:
            return f"{who}'s vault {vault + 1} is empty: nothing to heist."
        if v.locked and not state.alternate:
            return f"{who}'s vault {vault + 1} is locked: locked vaults are off limits."
    if style == "steal":
        if seat in state.heisted:
            return f"{who} was heisted this turn: no Heist and Steal on the same player in one turn."
        if not v.candies:
            return f"{who}'s vault {vault + 1} is empty: nothing to steal."
        if v.locked:
            return f"{who}'s vault {vault + 1} is locked: steals can't touch a locked vault."
    if style == "raid" and v.locked:
        return f"{who}'s vault {vault + 1} is locked: a Night Raid takes only an unlocked vault."
    if style == "crack" and not v.locked:
        return f"{who}'s vault {vault + 1} is not locked: nothing to crack."
    if style == "take" and v.candies:
        return f"{who}'s vault {vault + 1} has candy in it: a Vault Heist takes only an empty vault."
    if style == "spy" and not state.held[seat]:
        return f"{who} has no hidden Battle Cards to spy on."
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
    """Phase 3: the active player plays one of their face-down Battle Cards."""
    c = CARDS[card]
    who = state.active
    if not c.is_battle:
        raise no("That is not a Battle Card.")
    if state.final:
        raise no("The Candy Draw Pile has run out: no more Battle Cards.")
    mine = owner(state, card)
    if mine != who:
        raise no("That Battle Card is not one of yours: play a card you bought.")
    if c.name in KEPT:  # one message for all three, so the screen does not tell which it is
        raise no(KEEP_IT)
    if not playable(state, who, card):
        raise no("Nobody can be targeted with that card right now (players need 2 or more vaults, "
                 "and locked vaults are safe).")
    state = replace(state, held=put(state.held, who, tuple(h for h in state.held[who] if h != card)))
    return start(state, card, who, events)


def start(state: State, card: str, actor: int, events: list) -> State:
    """The card is face up: begin resolving it (events are played at once when drawn)."""
    c = CARDS[card]
    events.append(CardPlayed(f"{_name(state, actor)} plays {c.name}!", actor, card))
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
                events.append(Note(f"No Vault Cards left: {c.name} is {_name(state, actor)}'s vault now."))
        elif c.name == "Piñata":
            frame = Frame(card, actor, "pinata")
        elif c.name == "Start a Crib Fight":
            frame = Frame(card, actor, "join", duelists=(actor,))
    state = replace(state, stack=state.stack + (frame,))
    if frame.step == "pinata" and (state.draw == 0 or state.final):
        events.append(Note("The Candy Draw Pile is empty: the Piñata is a dud."))
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
        state = replace(state, battle_discard=state.battle_discard + (f.card,))
    if state.stack and top(state).step == "royale" and not top(state).waiting:
        events.append(Note("The Battle Royale is over."))
        return finish(state, events)
    return state


# ---------------------------------------------------------------- steps

def do_target(state: State, action: Target, events: list) -> State:
    f = top(state)
    problem = target_problem(state, f.actor, f.card, action.style, action.seat, action.vault)
    if problem:
        raise no(problem)
    a, t, v = f.actor, action.seat, action.vault
    name = CARDS[f.card].name
    if action.style == "raid":
        vault = state.vaults[t][v]
        state = replace(state, vaults=put(put(state.vaults, t, state.vaults[t][:v] + state.vaults[t][v + 1:]),
                                          a, state.vaults[a] + (vault,)))
        events.append(Note(f"Night Raid! {_name(state, a)} takes {_name(state, t)}'s whole vault "
                           f"with {vault.count} candies. No Mom can stop it."))
        return finish(state, events)
    if action.style == "lock":
        vault = state.vaults[a][v]
        state = set_vault(state, a, v, replace(vault, locked=True, quarantine=f.card))
        events.append(Note(f"Quarantine Lock: {_name(state, a)}'s vault {v + 1} is locked."))
        return finish(state, events, keep=True)
    flav = state.vaults[t][v].flavour if v is not None else None
    f = replace(f, step="mom", style=action.style, target=t, vault=v, waiting=(t,), flavours=(flav,) if flav else ())
    if action.style == "heist":
        state = replace(state, heisted=state.heisted + (t,))
        what = f"{_name(state, t)}'s {flav}"
        events.append(Note(f"{_name(state, a)} declares a Heist on {what}! {_name(state, t)}: scan a Mom now, or tap No Mom."))
    else:
        if action.style == "steal":
            state = replace(state, stolen=state.stolen + (t,))
        events.append(Note(f"{_name(state, a)} targets {_name(state, t)} with {name}. "
                           f"{_name(state, t)}: scan a Mom now, or tap No Mom."))
    return _set_top(state, f)


def do_mom(state: State, card: str, events: list) -> State:
    """A Mom in the Mom window repels the card for her owner ("Mom")."""
    f = top(state)
    seat = owner(state, card)
    if seat is None or seat not in f.waiting:
        raise no(MOM_ONLY)
    state = replace(state, held=put(state.held, seat, tuple(h for h in state.held[seat] if h != card)),
                    battle_discard=state.battle_discard + (card,), protected=state.protected + (seat,))
    events.append(CardPlayed(f"MOM! {_name(state, seat)} is safe this turn.", seat, card))
    if f.target is not None:
        if f.style == "heist":
            events.append(HeistOver("The Heist is stopped by Mom.", f.actor, seat, False))
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
        events.append(Note(f"Heist! {_name(state, a)} flips first. Masterminds now, before the first flip."))
        return _set_top(state, f)
    if f.style == "steal":
        events.append(Note(f"{_name(state, a)}: scan up to {STEAL_HAUL} candies from {_name(state, t)}'s "
                           f"vault {f.vault + 1}, then tap your vault."))
        return _set_top(state, replace(f, step="haul", haul_max=STEAL_HAUL))
    if f.style == "crack":
        v = state.vaults[t][f.vault]
        if v.quarantine:
            state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
        state = set_vault(state, t, f.vault, replace(v, locked=False, quarantine=None, cracked=not v.quarantine))
        events.append(Note(f"Safe Cracker! {vault_name(state, t, f.vault)} is unlocked."))
        return finish(state, events)
    if f.style == "spy":
        events.append(Note(f"{_name(state, t)} shows their Battle Cards to {_name(state, a)} only. "
                           f"{_name(state, a)}: scan one to take it, or tap Done."))
        return _set_top(state, replace(f, step="spy"))
    if f.style == "timeout":
        state = replace(state, skips=put(state.skips, t, state.skips[t] + 1))
        events.append(Note(f"Time Out! {_name(state, t)} skips their next turn."))
        return finish(state, events)
    if f.style == "take":
        vault = state.vaults[t][f.vault]
        state = replace(state, vaults=put(put(state.vaults, t, state.vaults[t][:f.vault] + state.vaults[t][f.vault + 1:]),
                                          a, state.vaults[a] + (vault,)))
        new = len(state.vaults[a]) - 1
        events.append(Note(f"Vault Heist! {_name(state, a)} takes {_name(state, t)}'s empty vault: it is "
                           f"vault {new + 1}. Stash pairs on it now, or tap Done."))
        return _set_top(state, replace(f, step="stash", new_vault=new))
    if name == "Activate Sleeper Cell":
        hit = f.waiting
        state = replace(state, skips=tuple(k + (s in hit) for s, k in enumerate(state.skips)), extra=True)
        events.append(Note(f"Dad jokes! {', '.join(_name(state, s) for s in hit) or 'Nobody'} "
                           f"skip{'s' * (len(hit) == 1)} their next turn; {_name(state, a)} goes again after this turn."))
        return finish(state, events)
    if name == "Mega Candy Magnet":
        return _set_top(state, replace(f, step="keep"))
    # Bad Dog, Candy Magnet: each player hit gives up that flavour
    return _collect(state, replace(f, step="collect"), events)


def _collect(state: State, f: Frame, events: list) -> State:
    if not f.waiting:
        events.append(Note("Nobody has to hand over any candy."))
        return finish(_set_top(state, f), events)
    return _set_top(state, f)


def do_no_mom(state: State, events: list) -> State:
    f = top(state)
    if f.waiting:
        events.append(Note(f"No Mom from {', '.join(_name(state, s) for s in f.waiting)}."))
    return after_mom(state, events)


def do_mastermind(state: State, card: str, events: list) -> State:
    """Mastermind: before the first flip, its owner (a duelist) needs only 1 Attack Card."""
    f = top(state)
    seat = owner(state, card)
    if f.flips or seat is None or seat not in f.duelists or f.need[f.duelists.index(seat)] < 2:
        raise no(FLIP_ONLY)  # a Mastermind comes before the first flip; the message does not name it
    i = f.duelists.index(seat)
    state = replace(state, held=put(state.held, seat, tuple(h for h in state.held[seat] if h != card)),
                    battle_discard=state.battle_discard + (card,))
    events.append(CardPlayed(f"Mastermind! {_name(state, seat)} needs just 1 Attack Card to win.", seat, card))
    return _set_top(state, replace(f, need=put(f.need, i, 1)))


def flipper(state: State) -> int:
    f = top(state)
    return f.duelists[f.flipper]


def do_flip(state: State, card: str, seat: int | None, events: list) -> State:
    """One card flipped in a Heist or Crib Fight: the first to flip enough Attack Cards
    wins; the flipped cards go back into the Battle Draw Pile."""
    f = top(state)
    c = CARDS[card]
    who = flipper(state)
    if seat is not None and seat != who:
        raise no(f"It is {_name(state, who)}'s flip, not {_name(state, seat)}'s.")
    if not c.is_battle:
        raise no("Flip the top card of the Battle Draw Pile and scan it.")
    if not on_battle_pile(state, card):
        raise no("That card is not from the top of the Battle Draw Pile: scan the card you flipped.")
    if state.battle_draw == 0 and not state.battle_discard and f.flips:
        events.append(Note("The Battle Draw Pile is empty: shuffle the flipped cards back in and go on."))
        state = _set_top(replace(state, battle_draw=len(f.flips)), replace(f, flips=()))
        f = top(state)
    state = draw_battle(state, events)
    hit = c.kind == "attack"
    i = f.flipper
    tally = put(f.tally, i, f.tally[i] + hit)
    f = replace(f, flips=f.flips + (card,), tally=tally, flipper=(i + 1) % len(f.duelists))
    events.append(Note(f"{_name(state, who)} flips {c.name}{': an Attack!' if hit else '.'}"))
    state = _set_top(state, f)
    if tally[i] >= f.need[i]:
        return _duel_won(state, who, events)
    return state


def _duel_won(state: State, winner: int, events: list) -> State:
    f = top(state)
    state = replace(state, battle_draw=state.battle_draw + len(f.flips))
    f = replace(f, flips=())
    if f.style == "heist":
        a, t = f.actor, f.target
        won = winner == a
        if not won:
            events.append(HeistOver(f"{_name(state, t)} wins the duel: the Heist fails.", a, t, False))
            return finish(_set_top(state, f), events)
        v = state.vaults[t][f.vault]
        haul = HEIST_HAUL
        if v.locked:  # Alternate Play Rule: a locked vault opens and gives 2 candies
            haul = SETUP.get("relock_candies", 2)
            state = set_vault(state, t, f.vault, replace(v, locked=False, quarantine=None, cracked=True))
            if v.quarantine:
                state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
        events.append(HeistOver(f"{_name(state, a)} wins the Heist! Scan up to {haul} candies from "
                                f"{_name(state, t)}'s vault {f.vault + 1}, then tap your vault.", a, t, True))
        return _set_top(state, replace(f, step="haul", haul_max=haul))
    events.append(Note(f"{_name(state, winner)} wins the Crib Fight! Take up to {CRIB_PRIZE} cards from the "
                       f"Discard Pile and scan them."))
    return _set_top(state, replace(f, step="prize", target=winner, haul_max=CRIB_PRIZE))


def do_haul_take(state: State, card: str, events: list) -> State:
    """Heist or Steal: one candy scanned out of the target vault."""
    f = top(state)
    if not CARDS[card].is_candy:
        raise no("Scan the Candy Cards taken from the vault.")
    if len(f.haul) >= f.haul_max:
        raise no(f"That is {f.haul_max} already: tap the vault to put them in.")
    if card not in state.vaults[f.target][f.vault].candies:
        raise no(f"Take the candy from {_name(state, f.target)}'s vault {f.vault + 1}: that "
                 f"{CARDS[card].name} is {state.where(card) or 'not in it'}.", card)
    state = take_candy(state, f.target, f.vault, card, events)
    f = replace(f, haul=f.haul + (card,))
    return _set_top(state, f)


def _haul_flavour(f: Frame) -> str:
    return f.flavours[0]


def do_place(state: State, vault: int | None, events: list) -> State:
    """Put the haul (or the Crib Fight prize) into a vault, or the prize in the hand."""
    f = top(state)
    seat = f.target if f.step == "prize" else f.actor
    if not f.haul:
        raise no("Scan the candies first.")
    if vault is None:
        if f.step != "prize":
            raise no("Stolen candy goes into one of your vaults: tap a vault.")
        state = replace(state, hands=put(state.hands, seat, state.hands[seat] + len(f.haul)))
        events.append(Note(f"{_name(state, seat)} puts {len(f.haul)} cards in their hand."))
        return finish(_set_top(state, replace(f, haul=())), events)
    check_vault(state, seat, vault)
    if f.step == "prize":
        flavours = {CARDS[c].flavour for c in f.haul if not CARDS[c].is_pure}
        if len(flavours) > 1:
            raise no("Those cards are different flavours: one vault holds one flavour. Tap Hand instead.")
        flavour = flavours.pop() if flavours else state.vaults[seat][vault].flavour
        if flavour is None:
            raise no("Pure Sugars alone need a vault that has a flavour already.")
    else:
        flavour = _haul_flavour(f)
    v = state.vaults[seat][vault]
    if v.flavour and v.flavour != flavour:
        state = empty_vault(state, seat, vault, events)
    state = add_candies(state, seat, vault, f.haul, flavour, events)
    events.insert(0, Note(f"{_name(state, seat)} puts {len(f.haul)} {flavour} in vault {vault + 1}."))
    return finish(_set_top(state, replace(f, haul=())), events)


def do_haul_done(state: State, events: list) -> State:
    f = top(state)
    if not f.haul:
        events.append(Note(f"{_name(state, f.target if f.step == 'prize' else f.actor)} takes nothing."))
        return finish(state, events)
    seat = f.target if f.step == "prize" else f.actor
    if f.step == "haul":
        fits = fitting(state, seat, _haul_flavour(f))
        if len(fits) == 1:
            return do_place(state, fits[0], events)
    raise no("Tap where the candies go: one of your vaults" + (" or Hand." if f.step == "prize" else "."))


def do_prize_take(state: State, card: str, events: list) -> State:
    f = top(state)
    if not CARDS[card].is_candy:
        raise no("Scan the Candy Cards taken from the Discard Pile.")
    if len(f.haul) >= f.haul_max:
        raise no(f"That is {f.haul_max} already: tap Hand or a vault.")
    if card not in state.discard:
        raise no(f"The prize comes from the Discard Pile: that {CARDS[card].name} is "
                 f"{state.where(card) or 'not on it'}.", card)
    state = replace(state, discard=tuple(c for c in state.discard if c != card))
    return _set_top(state, replace(f, haul=f.haul + (card,)))
