"""Random Sugar Heist games (hypothesis): every card stays accounted for, a locked vault
is never robbed (except under the Alternate Play Rule), a rejected action changes
nothing, and the game never gets stuck."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import IllegalAction
from companion.games.sugar_heist import rules
from companion.games.sugar_heist.parts.cards import BATTLE_CODES, CANDY_CODES, CARDS, FLAVOURS, VAULT_CODES
from companion.games.sugar_heist.state import (BuyBattle, BuyVault, CantStash, Combine, Declare, Done, Flip, Join,
                                                Move, NewVault, Place, Play, Reveal, Stash, Take, Target, Trade)

from sugar_heist_helpers import conserved

STYLES = ("heist", "steal", "raid", "lock", "crack", "spy", "timeout", "take")


def unseen_candy(state) -> list[str]:
    return [c for c in CANDY_CODES if state.where(c) is None]


def unseen_battle(state) -> list[str]:
    held = {c for h in state.held for c in h}
    return [c for c in BATTLE_CODES if state.where(c) is None and c not in held]


def candidates(state, pick) -> list:
    """A handful of actions for this state, most of them plausible, some not."""
    n = len(state.players)
    free = unseen_candy(state)
    free_battle = unseen_battle(state)
    seat = state.frame.actor if state.frame else state.seat
    acts: list = [Done(), CantStash()]
    if len(free) >= 2:
        a = pick(free)
        same = [c for c in free if c != a and (CARDS[c].flavour == CARDS[a].flavour or CARDS[c].is_pure)]
        b = pick(same) if same else pick(free)
        vaults = len(state.vaults[seat]) or 1
        acts += [Stash((a, b), pick(range(vaults)), pick((None,) + FLAVOURS)), Reveal(a), Take(a), Take(a, pick(range(n))),
                 Join(pick(range(n)), a), Trade((Move(a, pick((None,) + tuple(range(n))), pick(range(n))),))]
    if state.revealed:
        acts.append(Trade((Move(pick(state.revealed), None, pick(range(n))),)))
    mine = [c for v in state.vaults[state.active] for c in v.candies]
    anywhere = [c for vs in state.vaults for v in vs for c in v.candies]
    if mine:
        pay = pick(mine)
        acts += [BuyVault(pay), BuyVault(pay, pick(VAULT_CODES))]
        if free_battle:
            acts += [BuyBattle(pay, pick(free_battle))] * 3
    if anywhere:
        acts += [Take(pick(anywhere)), Take(pick(anywhere))]
    if state.discard:
        acts.append(Take(pick(state.discard)))
    held = [c for h in state.held for c in h]
    if held:
        acts += [Play(pick(held)), Play(pick(held)), Take(pick(held))]
    if free_battle:
        acts += [Flip(pick(free_battle)), Flip(pick(free_battle)), Take(pick(free_battle))]
    if state.frame and state.frame.cards:
        acts.append(Take(pick(state.frame.cards), pick((None,) + tuple(range(n)))))
    target = pick(range(n))
    acts += [Target(pick(STYLES), target, pick((None,) + tuple(range(len(state.vaults[target]) or 1))))
             for _ in range(3)]
    acts += [Place(pick((None, 0, 1, 2))), Declare(pick(FLAVOURS)), NewVault(None),
             Combine(pick(range(3)), pick(range(3)))]
    return acts


def robbed(before, after, actor: int) -> bool:
    """Candy left a locked vault of a player other than the one acting."""
    for seat in range(len(before.players)):
        if seat == actor:
            continue
        locked = {c for v in before.vaults[seat] if v.locked for c in v.candies}
        now = {c for v in after.vaults[seat] for c in v.candies}
        if locked - now:
            return True
    return False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), alternate=st.booleans(),
       steps=st.integers(1, 200))
def test_random_games_keep_every_card_and_never_rob_a_locked_vault(seed, players, alternate, steps):
    import random
    rng = random.Random(seed)
    state = rules.new_game(["Ana", "Ben", "Cy", "Di"][:players], alternate=alternate)
    accepted = 0
    for _ in range(steps):
        if state.over:
            break
        pick = lambda seq: rng.choice(list(seq))  # noqa: E731
        action = pick(candidates(state, pick))
        snapshot = copy.deepcopy(state)
        try:
            new, events = rules.step(state, action)
        except IllegalAction as exc:
            assert exc.message and exc.message[0].isupper()
            assert state == snapshot  # a rejected action changes nothing
            continue
        rules.check(state, action)  # what step accepted, check accepts
        accepted += 1
        actor = state.frame.actor if state.frame else state.seat
        if not alternate:
            assert not robbed(state, new, actor), (action, events)
        assert conserved(new), (action, new.candy_total(), new.battle_total())
        assert all(h >= 0 for h in new.hands) and new.draw >= 0 and new.battle_draw >= 0
        state = new



def test_every_state_of_a_long_random_game_accepts_something():
    """From each state reached, Done, Can't stash or a plausible action is accepted."""
    import random
    rng = random.Random(7)
    for game_no in range(6):
        state = rules.new_game(["Ana", "Ben", "Cy"], alternate=bool(game_no % 2))
        for _ in range(600):
            if state.over:
                break
            acts = candidates(state, lambda seq: rng.choice(list(seq)))
            ok = []
            for a in acts:
                try:
                    ok.append(rules.step(state, a))
                except IllegalAction:
                    pass
            assert ok or any(_accepts(state, a) for a in _more(state)), state.phase
            if ok:
                state = rng.choice(ok)[0]
            assert conserved(state)


def _accepts(state, action) -> bool:
    try:
        rules.check(state, action)
        return True
    except IllegalAction:
        return False


def _more(state):
    """Every Take/Flip of any card: the exhaustive fallback."""
    for style in STYLES:
        for seat in range(len(state.players)):
            for vault in [None] + list(range(len(state.vaults[seat]))):
                yield Target(style, seat, vault)
    for vault in [None] + list(range(len(state.vaults[state.frame.actor if state.frame else state.active]))):
        yield Place(vault)
    for f in FLAVOURS:
        yield Declare(f)
    yield NewVault(None)
    for c in CARDS:
        yield Take(c)
        yield Flip(c)
        yield Play(c)
