"""Vaults: stashing pairs, flavours, Pure Sugar, locking and unlocking, combining
(Sugar Heist rulebook, "Candy Cards", "Pure Sugar", "Vault Cards", "How to Lock a
Vault", "Phase 1: Stash Pairs of Candy Cards").

Pure functions over :class:`~.state.State`. The queries that refuse (``check_vault``,
``hand_card``, ``pair_flavour``, ``check_emptying``) raise :class:`IllegalAction` and
change nothing; :mod:`.checks` and the flow ask them. The moves (``stash``, ``combine``,
``add_candies``, ``take_candy``...) trust their caller, whose action :mod:`.checks` has
passed: they never refuse, and append their outcome events to the list they are given.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import IllegalAction

from .cards import CARDS, LOCK
from ..state import Note, QuarantineLifted, State, Vault, VaultLocked, VaultUnlocked
from ..messages import count, listing, say


def no(message: str, code: str | None = None) -> IllegalAction:
    return IllegalAction(code, message)


def put(items: tuple, i: int, value) -> tuple:
    """``items`` with element ``i`` replaced."""
    return items[:i] + (value,) + items[i + 1:]


def set_vault(state: State, seat: int, index: int, vault: Vault) -> State:
    return replace(state, vaults=put(state.vaults, seat, put(state.vaults[seat], index, vault)))


def vault_name(state: State, seat: int, index: int) -> str:
    """``"Zach's vault 2 (6 Chocolate Rockets)"``."""
    v = state.vaults[seat][index]
    what = f"{v.count} {v.flavour}" if v.flavour else "empty"
    return say("vault_who_index_what", who=state.players[seat], index=index + 1, what=what)


def check_vault(state: State, seat: int, index: int) -> Vault:
    """The vault, or a rejection naming how many vaults the player has."""
    vaults = state.vaults[seat]
    if not 0 <= index < len(vaults):
        raise no(say("has_vault_there_no", who=state.players[seat], vaults=count(len(vaults), "vault"),
                     index=index + 1))
    return vaults[index]


def hand_card(state: State, code: str, doing: str) -> None:
    """A Candy Card that must come from a hand: unseen by the companion."""
    c = CARDS[code]
    if not c.is_candy:
        raise no(say("not_candy_vault" if c.kind == "vault" else "not_candy_battle", doing=doing))
    where = state.where(code)
    if where is not None:
        raise no(say("that_not_hand", card=c.name, where=where), code)


def pair_flavour(state: State, seat: int, cards: tuple[str, str], index: int, declared: str | None) -> str:
    """The flavour a pair is stashed as ("Pure Sugar (Wild Card)"): two of one flavour,
    one flavour and a Pure Sugar, or two Pure Sugars with a declared flavour (the
    vault's own flavour counts as declared). Raises :class:`IllegalAction` for two
    scans of one card, two flavours, or two Pure Sugars with no flavour to take."""
    a, b = (CARDS[c] for c in cards)
    if a.code == b.code:
        raise no(say("you_scanned_same_twice", card=a.name), a.code)
    flavours = {c.flavour for c in (a, b) if not c.is_pure}
    if len(flavours) > 1:
        raise no(say("are_not_pair_stash", card=a.name, card2=b.name))
    flavour = stash_flavour(state, seat, cards, index, declared)
    if flavour is None:
        raise no(say("two_pure_sugars_make"))
    return flavour


def stash_flavour(state: State, seat: int, cards: tuple[str, ...], index: int, declared: str | None) -> str | None:
    """The flavour a pair :func:`pair_flavour` accepts is stashed as ("Pure Sugar (Wild
    Card)"): its one flavour, else the declared one, else the vault's; None when two
    Pure Sugars have none of these. Never refuses."""
    flavours = {CARDS[c].flavour for c in cards if not CARDS[c].is_pure}
    if flavours:
        return next(iter(flavours))
    if declared:
        return declared
    return state.vaults[seat][index].flavour or None


def fitting(state: State, seat: int, flavour: str) -> list[int]:
    """The vaults candy of ``flavour`` can go on without emptying one, those of that
    flavour first: "onto a Vault, with the same candy flavor or into a Vault that is
    currently empty" ("Ending the Game"). An empty vault is a choice even beside one of
    the flavour: "If at any point, you have the same flavor stashed in multiple Vaults"
    ("How to Lock a Vault") says one flavour may be in several vaults."""
    vaults = state.vaults[seat]
    same = [i for i, v in enumerate(vaults) if v.candies and v.flavour == flavour]
    return same + [i for i, v in enumerate(vaults) if not v.candies]


def choices_words(state: State, seat: int, indexes: list[int]) -> str:
    """``"vault 1 (4 Chocolate Rockets) or vault 3 (empty)"``: the vaults a player picks from."""
    words = []
    for i in indexes:
        v = state.vaults[seat][i]
        what = f"{v.count} {v.flavour}" if v.candies else say("vault_empty")
        words.append(say("vault_choice", vault=i + 1, what=what))
    return listing(words, "or")


def quarantine_off(state: State, seat: int, index: int, locked: bool = False) -> QuarantineLifted:
    """The event of the Quarantine Lock on ``seat``'s vault ``index`` being discarded
    ("Quarantine Lock"): ``locked``, its lock number was met; else candy left it."""
    if locked:
        return QuarantineLifted(say("quarantine_lock_comes_off", vault_name=vault_name(state, seat, index)),
                                seat, index, True)
    return QuarantineLifted(say("quarantine_lock_discarded", who=state.players[seat], vault=index + 1),
                            seat, index, False)


def relock(state: State, seat: int, index: int, events: list) -> State:
    """Lock a vault that reached its lock number ("How to Lock a Vault"); a cracked
    vault must go above it (Safe Cracker). A Quarantine Lock is discarded once the lock
    number is met."""
    v = state.vaults[seat][index]
    if v.lock_number is None:
        return state
    if v.quarantine and v.count >= v.lock_number:
        state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
        v = replace(v, quarantine=None)
        events.append(quarantine_off(state, seat, index, locked=True))
    need = v.lock_number + 1 if v.cracked else v.lock_number
    if not v.locked and v.count >= need:
        v = replace(v, locked=True, cracked=False)
        state = set_vault(state, seat, index, v)
        events.append(VaultLocked(say("vault_locked_at", who=state.players[seat], flavour=v.flavour, count=v.count),
                                  seat, index))
        return state
    return set_vault(state, seat, index, v)


def add_candies(state: State, seat: int, index: int, codes: tuple[str, ...], flavour: str, events: list) -> State:
    """Put candies on a vault, which takes ``flavour`` (its own when already set)."""
    v = state.vaults[seat][index]
    v = replace(v, candies=v.candies + tuple(codes), flavour=v.flavour or flavour)
    return relock(set_vault(state, seat, index, v), seat, index, events)


def empty_vault(state: State, seat: int, index: int, events: list) -> State:
    """Discard everything on a vault ("change the flavor in a Vault by discarding")."""
    v = state.vaults[seat][index]
    if not v.candies:
        return state
    events.append(Note(say("discards_from_vault", who=state.players[seat], count=v.count, flavour=v.flavour,
                           index=index + 1)))
    extra = (v.quarantine,) if v.quarantine else ()
    if v.quarantine:
        events.append(quarantine_off(state, seat, index))
    state = replace(state, discard=state.discard + v.candies, battle_discard=state.battle_discard + extra)
    return set_vault(state, seat, index, replace(v, candies=(), flavour=None, locked=False, quarantine=None,
                                                 cracked=False))


def take_candy(state: State, seat: int, index: int, code: str, events: list) -> State:
    """Take one candy off a vault (a purchase, a haul). The vault unlocks when it falls
    below its lock number; a Quarantine Lock is discarded as soon as candy leaves."""
    v = state.vaults[seat][index]
    left = tuple(c for c in v.candies if c != code)
    was_locked, lifted = v.locked, v.quarantine is not None
    if v.quarantine:
        state = replace(state, battle_discard=state.battle_discard + (v.quarantine,))
        v = replace(v, quarantine=None, locked=False)
    v = replace(v, candies=left)
    if not left:
        v = replace(v, flavour=None, locked=False, cracked=False)
    elif v.locked and len(left) < LOCK[v.flavour]:
        v = replace(v, locked=False)
    state = set_vault(state, seat, index, v)
    if was_locked and not v.locked:
        events.append(VaultUnlocked(say("unlocked_its_candy_up", vault_name=vault_name(state, seat, index)),
                                    seat, index))
    if lifted:
        events.append(quarantine_off(state, seat, index))
    return state


def find_candy(state: State, seat: int, code: str) -> int | None:
    """Which of ``seat``'s vaults holds ``code``."""
    return next((i for i, v in enumerate(state.vaults[seat]) if code in v.candies), None)


def check_emptying(state: State, seat: int, index: int, flavour: str, discard: bool) -> None:
    """Candy a player owns is never thrown away unasked: putting ``flavour`` on a vault
    of another flavour needs ``discard`` (the table said yes to emptying it first)."""
    v = state.vaults[seat][index]
    if v.candies and v.flavour != flavour and not discard:
        raise no(say("would_empty_vault", who=state.players[seat], vault=index + 1, count=v.count,
                     old=v.flavour, flavour=flavour))


def stash(state: State, seat: int, cards: tuple[str, str], index: int, declared: str | None, events: list) -> State:
    """Stash a pair from ``seat``'s hand onto their vault ``index`` ("Phase 1: Stash Pairs
    of Candy Cards"; checked by :func:`.checks.check_stash`). A vault of another flavour
    is emptied first (the rulebook's flavour change)."""
    flavour = stash_flavour(state, seat, cards, index, declared)
    v = state.vaults[seat][index]
    if v.flavour and v.flavour != flavour:
        state = empty_vault(state, seat, index, events)
    state = replace(state, hands=put(state.hands, seat, state.hands[seat] - 2))
    state = add_candies(state, seat, index, cards, flavour, events)
    v = state.vaults[seat][index]
    events.insert(len(events) - (1 if events and isinstance(events[-1], VaultLocked) else 0),
                  Note(say("stashes_pair_vault_has", who=state.players[seat], flavour=flavour, index=index + 1,
                           count=v.count)))
    return state


def combine(state: State, seat: int, source: int, target: int, events: list) -> State:
    """Combine two vaults of the same flavour into one ("How to Lock a Vault"; checked by
    :func:`.checks.check_combine`)."""
    a = state.vaults[seat][source]
    moving = a.candies
    extra = (a.quarantine,) if a.quarantine else ()
    state = set_vault(state, seat, source, replace(a, candies=(), flavour=None, locked=False, quarantine=None,
                                                   cracked=False))
    state = replace(state, battle_discard=state.battle_discard + extra)
    state = add_candies(state, seat, target, moving, a.flavour, events)
    events.insert(0, Note(say("combines_vault_into_vault", who=state.players[seat], source=source + 1,
                              target=target + 1, count=state.vaults[seat][target].count, flavour=a.flavour)))
    if a.quarantine:
        events.insert(1, quarantine_off(state, seat, source))
    return state


def unlocked_targets(state: State, seat: int, locked_too: bool = False) -> list[int]:
    """Vaults of ``seat`` with candy that an attack may take from."""
    return [i for i, v in enumerate(state.vaults[seat]) if v.candies and (locked_too or not v.locked)]
