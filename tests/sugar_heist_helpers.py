"""Shortcuts for Sugar Heist tests: card codes by name, and set-ups that keep every card
accounted for (candies put on a vault come out of the Draw Pile, Battle Cards held come
out of the Battle Draw Pile), so the conservation checks hold in every test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.core.errors import IllegalAction
from companion.games.sugar_heist import rules
from companion.games.sugar_heist.parts.cards import CARDS, LOCK, code_for
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
    removed = len(state.removed) + len(state.set_aside)
    return state.candy_total() == 86 and state.battle_total() == 44 - removed


def rejected(state, action, *words):
    """Assert ``action`` is refused now with a message holding each of ``words``; return it."""
    with pytest.raises(IllegalAction) as info:
        rules.step(state, action)
    for w in words:
        assert w in info.value.message, info.value.message
    return info.value.message


class Table:
    """A Sugar Heist table run as ``companion run --headless --simulate`` runs it: each
    typed line goes through the same Runner (``/command`` a touch, anything else a scan)
    into a Session; ``out`` is what the headless text log printed, ``json`` the JSON log
    (``--log-format json``). ``verdicts`` holds every verdict, in order."""

    def __init__(self, players=("Zach", "Pam"), **options):
        import io

        from companion.core.clock import FakeClock
        from companion.core.store import EventStore
        from companion.table.logs import TextLog, json_logger
        from companion.table.runner import Runner
        from companion.table.session import Session

        self.out, self.json = io.StringIO(), io.StringIO()
        self.store = EventStore(":memory:")
        self.session = Session.start("sugar-heist", list(players), self.store, FakeClock(), resume=False, tap_off=0,
                                     options=options)
        self.verdicts = []
        self.session.listeners.append(TextLog(self.out, self.session))
        self.session.listeners.append(json_logger(self.json))
        self.session.listeners.append(lambda item, verdict: verdict and self.verdicts.append(verdict))
        self.runner = Runner(self.session, FakeClock(), text_out=self.out)

    @property
    def state(self) -> State:
        return self.session.state

    def type(self, *lines: str) -> str:
        """Type lines; returns what the text log printed for them."""
        start = len(self.out.getvalue())
        for line in lines:
            self.runner.typed(line, now=True)
        return self.out.getvalue()[start:]

    def ok(self, *lines: str) -> str:
        """Type lines that must each be accepted; returns the text printed."""
        said = []
        for line in lines:
            n = len(self.verdicts)
            said.append(self.type(line))
            assert len(self.verdicts) == n + 1 and self.verdicts[-1].verdict == "accepted", (line, said[-1])
        return "".join(said)

    def refused(self, line: str, *words: str) -> str:
        """Type a line that must be refused with each of ``words`` in the reason."""
        before = self.session.state, self.session.entry
        said = self.type(line)
        v = self.verdicts[-1]
        assert v.verdict == "rejected", (line, said)
        for w in words:
            assert w in v.reason, (w, v.reason)
        assert (self.session.state, self.session.entry) == before
        return v.reason


def set_up(table: Table, state: State) -> Table:
    """Start ``table`` from ``state`` (a position built with the helpers above), as if the
    inputs that led there had been played: the session's state and the table's entry."""
    from companion.games.sugar_heist import flow

    table.session.state, table.session.entry = state, flow.new_entry()
    return table
