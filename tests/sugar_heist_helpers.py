"""Shortcuts for Sugar Heist tests: card codes by name, and set-ups that keep every card
accounted for (candies put on a vault come out of the Draw Pile, Battle Cards held come
out of the Battle Draw Pile), so the conservation checks hold in every test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.errors import IllegalAction
from companion.games.sugar_heist import rules
from companion.games.sugar_heist.cards import CARDS, LOCK, code_for
from companion.games.sugar_heist.state import State, Vault

CR, NB, LS, FB, GG, SB, PS = ("Chocolate Rockets", "Nutty Butt", "Lucky Suckys", "Fruity Booty", "Gummy Grubs",
                              "Sour Bombs", "Pure Sugar")


def candy(flavour: str, copy: int) -> str:
    return code_for("candy", flavour, copy)


def candies(flavour: str, first: int, n: int) -> tuple[str, ...]:
    return tuple(candy(flavour, first + k) for k in range(n))


def battle(name: str, copy: int = 1) -> str:
    return code_for("battle", name, copy)


def game(players=("Zach", "Pam", "Alex"), **options) -> State:
    return rules.new_game(list(players), **options)


def with_vault(state: State, seat: int, index: int, codes, locked: bool | None = None, flavour: str | None = None) -> State:
    """Vault ``index`` of ``seat`` holds ``codes`` (taken from the Draw Pile); locked when
    at its lock number unless ``locked`` says otherwise. Adds vaults as needed."""
    codes = tuple(codes)
    flavour = flavour or next((CARDS[c].flavour for c in codes if not CARDS[c].is_pure), None)
    if locked is None:
        locked = bool(flavour) and len(codes) >= LOCK[flavour]
    vaults = list(state.vaults[seat])
    while len(vaults) <= index:
        vaults.append(Vault())
        state = replace(state, vault_pile=state.vault_pile - 1)
    old = vaults[index]
    vaults[index] = Vault(candies=codes, flavour=flavour if codes else None, locked=locked)
    all_vaults = state.vaults[:seat] + (tuple(vaults),) + state.vaults[seat + 1:]
    return replace(state, vaults=all_vaults, draw=state.draw - len(codes) + old.count)


def holding(state: State, seat: int, codes, fresh: bool = False) -> State:
    """``seat`` holds these face-down Battle Cards (``fresh``: drawn this turn)."""
    codes = tuple(codes)
    held = state.held[:seat] + (state.held[seat] + codes,) + state.held[seat + 1:]
    return replace(state, held=held, battle_draw=state.battle_draw - len(codes),
                   fresh=state.fresh + (codes if fresh else ()))


def at(state: State, stage: str, active: int = 0, **more) -> State:
    return replace(state, stage=stage, active=active, **more)


def play(state: State, *actions):
    """Step through actions; returns the final state and every event."""
    events = []
    for a in actions:
        state, ev = rules.step(state, a)
        events.extend(ev)
    return state, events


def messages(events) -> str:
    return "\n".join(e.message for e in events)


def conserved(state: State) -> bool:
    removed = len(state.removed)
    return state.candy_total() == 86 and state.battle_total() == 44 - removed


def rejected(state, action, *words):
    """Assert ``action`` is refused now with a message holding each of ``words``; return it."""
    with pytest.raises(IllegalAction) as info:
        rules.step(state, action)
    for w in words:
        assert w in info.value.message, info.value.message
    return info.value.message
