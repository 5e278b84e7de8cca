"""Sugar Heist rules: set-up, the three phases, every Battle Card, the end and the count
(../shared/rulebooks/sugar-heist.txt).

Pure: no I/O, no pygame. ``check(state, action)`` raises :class:`IllegalAction` and
changes nothing (:mod:`.checks`, one rule per action and moment); ``apply`` trusts its
caller and returns ``(new_state, events)``; ``step`` does both. The moves are split by
subject: :mod:`.vaults` (stashing, locks), :mod:`.turns` (phases, piles, the end),
:mod:`.battle` (Battle Cards, the heist duel), :mod:`.effects` (the cards with a step
of their own), :mod:`.scoring` (the count). :data:`STAGE_DOERS` and
:data:`FRAME_DOERS` have the keys of :data:`.checks.STAGE_CHECKS` and
:data:`.checks.FRAME_CHECKS`.

>>> s = new_game(["Zach", "Pam", "Alex"])
>>> s.phase, s.hands, s.draw, s.battle_draw, s.vault_pile
('stash', (6, 6, 6), 68, 44, 8)
>>> s.candy_total(), s.battle_total()
(86, 44)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable

from companion.core.game import Rules as CoreRules
from companion.core.errors import IllegalAction
from companion.core.game import TABLE, Result

from .parts import battle as B
from .parts import effects as E
from .parts import turns as T
from .parts.cards import BATTLE_CODES, CARDS, DATA, SETUP, VAULT_CODES, code_for
from .parts.checks import check  # noqa: F401  (part of the rules API)
from .scoring import rank, score_holdings, sheet  # noqa: F401  (part of the rules API)
from .state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, Action, BuyBattle, BuyVault, CantStash,
                    Combine, Declare, Done, FinalReveal, Flip, GameOver, Join, NewVault, Note, Place, Play,
                    Reveal, SetPile, Stash, State, Take, Target, Trade, Vault, Withdraw)
from .parts.vaults import combine
from .messages import say

SLUG = "sugar-heist"


def removed_cards(players: int, all_cards: bool = False,
                  alternate: bool = False) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """``(removed, set_aside, vaults)``: the Battle Card codes out of the game, the names
    of which one copy is out, and how many Vault Cards are set aside ("Player Count",
    "Alternate Play Rule").

    "2 Players: Remove 1 Battle Royale, remove 1 Crib Fight": the table may take out
    either copy, so these are only names until a copy is scanned from the Battle Draw
    Pile; that copy is the one in play and the other is out (docs/rules-notes.md). The
    Alternate Play Rule removes "both Night Raid Cards": every copy, by code."""
    set_aside: list[str] = []
    vaults = 0
    if players == 2 and not all_cards:
        set_aside += DATA["two_players"]["remove_battle"]
        vaults = DATA["two_players"]["remove_vaults"]
    out: list[str] = []
    if alternate:
        for n in DATA["alternate"]["remove_battle"]:
            copies = [c for c in BATTLE_CODES if CARDS[c].name == n and c not in out]
            out.append(copies[-1])
    return tuple(out), tuple(set_aside), vaults


def new_game(players: Iterable[str], all_cards: bool = False, alternate: bool = False) -> State:
    """Deal: 6 Candy Cards and 2 Vault Cards each ("Game Setup"). Raises ValueError."""
    players = tuple(str(p).strip() for p in players)
    lo, hi = SETUP["min_players"], SETUP["max_players"]
    if not lo <= len(players) <= hi:
        raise ValueError(say("sugar_heist_for_players", lo=lo, hi=hi, n=len(players)))
    if any(not p for p in players) or len(set(players)) != len(players):
        raise ValueError(say("every_player_needs_name"))
    n = len(players)
    removed, set_aside, vault_out = removed_cards(n, bool(all_cards), bool(alternate))
    each = SETUP["vaults_each"]
    hand = SETUP["hand_size"]
    candy = sum(1 for c in CARDS.values() if c.is_candy)
    return State(players=players, stage=STASH, active=0,
                 vaults=tuple((Vault(),) * each for _ in players), hands=(hand,) * n, held=((),) * n,
                 draw=candy - hand * n, battle_draw=len(BATTLE_CODES) - len(removed) - len(set_aside),
                 vault_pile=len(VAULT_CODES) - vault_out - each * n, removed=removed, set_aside=set_aside,
                 alternate=bool(alternate), skips=(0,) * n)


# ---------------------------------------------------------------- apply: one doer per action and moment

Doer = Callable[[State, Action, list], State]


def _buy_battle(state: State, action: BuyBattle, events: list) -> State:
    """Phase 3: a Battle Card bought; an Event Card is played at once ("Event Cards")."""
    state, event = T.do_buy_battle(state, action, events)
    return B.start(state, action.card, state.active, events) if event else state


def _final_done(state: State, action: Done, events: list) -> State:
    """"Ending the Game": a player has stashed their last pairs; after the last, the count."""
    state, everyone = T.finish_player(state, events)
    return _game_over(state, events) if everyone else state


def _mom_play(state: State, action: Play, events: list) -> State:
    """The Mom window: another Steal of the attacker, or a Mom ("Mom", "Option 2: Steal")."""
    if B.can_add_steal(state, B.owner(state, action.card), action.card):
        return B.do_more_steal(state, action.card, events)
    return B.do_mom(state, action.card, events)


def _take_nothing(state: State, action: Done, events: list) -> State:
    """Spy: the player looks and takes none of the Battle Cards."""
    events.append(Note(say("takes_nothing", who=state.players[state.frame.actor])))
    return B.finish(state, events)


def _royale_off(state: State, action: Done, events: list) -> State:
    """Battle Royale: no Battle Card is left to draw, so it is over."""
    events.append(Note(say("no_battle_cards_left")))
    return B.finish(state, events)


STAGE_DOERS: dict[tuple[str, type], Doer] = {
    (STASH, Stash): lambda s, a, ev: T.do_stash(s, s.active, a.cards, a.vault, a.flavour, ev),
    (STASH, CantStash): lambda s, a, ev: T.cant_stash(s, ev),
    (STASH, Done): lambda s, a, ev: T.end_stash(s, ev),
    (REVEAL, Reveal): lambda s, a, ev: T.do_reveal(s, a.card, ev),
    (SWAP, Trade): T.do_trade,
    (SWAP, Done): lambda s, a, ev: T.end_swaps(s, ev),
    (BUY, BuyBattle): _buy_battle,
    (BUY, BuyVault): T.do_buy_vault,
    (BUY, Play): lambda s, a, ev: B.do_play(s, a.card, ev),
    (BUY, Done): lambda s, a, ev: T.end_turn(s, ev),
    (DISCARD, Take): lambda s, a, ev: T.do_discard(s, a.card, ev),
    (FINAL, Stash): lambda s, a, ev: T.do_stash(s, s.seat, a.cards, a.vault, a.flavour, ev),
    (FINAL, Done): _final_done,
}

FRAME_DOERS: dict[tuple[str, type], Doer] = {
    ("target", Target): B.do_target,
    ("target", Withdraw): lambda s, a, ev: B.do_withdraw(s, ev),
    ("mom", Play): _mom_play,
    ("mom", Done): lambda s, a, ev: B.do_no_mom(s, ev),
    ("duel", Play): lambda s, a, ev: B.do_mastermind(s, a.card, ev),
    ("duel", Flip): lambda s, a, ev: B.do_flip(s, a.card, ev),
    ("duel", Done): lambda s, a, ev: B.duel_off(s, ev),
    ("haul", Take): lambda s, a, ev: B.do_haul_take(s, a.card, ev),
    ("haul", Place): lambda s, a, ev: B.do_place(s, a.vault, ev),
    ("haul", Done): lambda s, a, ev: B.do_haul_done(s, ev),
    ("prize", Take): lambda s, a, ev: B.do_prize_take(s, a.card, ev),
    ("prize", Place): lambda s, a, ev: B.do_place(s, a.vault, ev),
    ("prize", Done): lambda s, a, ev: B.do_haul_done(s, ev),
    ("spy", Take): lambda s, a, ev: E.do_spy_take(s, a.card, ev),
    ("spy", Done): _take_nothing,
    ("flavour", Declare): lambda s, a, ev: E.do_declare(s, a.flavour, ev),
    ("keep", Declare): lambda s, a, ev: E.do_declare(s, a.flavour, ev),
    ("collect", Take): lambda s, a, ev: E.do_collect(s, a.card, a.seat, ev),
    ("collect", Done): lambda s, a, ev: E.do_collect_done(s, ev),
    ("new-vault", NewVault): lambda s, a, ev: E.do_new_vault(s, a.card, ev),
    ("pinata", Take): lambda s, a, ev: E.do_pinata_reveal(s, a.card, ev),
    ("pick", Take): lambda s, a, ev: E.do_pinata_pick(s, a.card, ev),
    ("join", Join): lambda s, a, ev: E.do_join(s, a.seat, a.card, ev),
    ("join", Done): lambda s, a, ev: E.do_fight(s, ev),
    ("royale", Take): lambda s, a, ev: E.do_royale_draw(s, a.card, ev),
    ("royale", Done): _royale_off,
    ("stash", Stash): lambda s, a, ev: E.do_bonus_stash(s, a.cards, a.vault, a.flavour, ev),
    ("stash", Done): lambda s, a, ev: B.finish(s, ev),
}


def _combine(state: State, action: Combine, events: list) -> State:
    """"If at any point, you have the same flavor stashed in multiple Vaults you may
    combine matching flavors into a single Vault" ("How to Lock a Vault"): the seat
    named, or the player acting now."""
    seat = state.seat if action.seat is None else action.seat
    return combine(state, seat, action.source, action.target, events)


def _game_over(state: State, events: list) -> State:
    state = T.end_game(state)
    shown = [f"{state.players[s]}: {', '.join(CARDS[c].name for c in h)}" for s, h in enumerate(state.held) if h]
    if shown:
        events.append(FinalReveal(say("battle_cards_shown", shown="; ".join(shown)), state.held))
    res = result(state)
    events.append(GameOver(say("game_over_winners", winners=res.winner_line()), res))
    return state


def apply(state: State, action: Action) -> tuple[State, list]:
    """The state after ``action`` and its outcome events. Trusts its caller: ``action``
    has passed :func:`check`, so this never refuses. The ``do_*`` functions of
    :mod:`.turns`, :mod:`.battle` and :mod:`.effects` name the rules they follow."""
    events: list = []
    if isinstance(action, SetPile):
        return T.set_pile(state, action.count, events), events
    if isinstance(action, Combine):
        return _combine(state, action, events), events
    if state.stack:
        do = FRAME_DOERS[(state.frame.step, type(action))]
    else:
        do = STAGE_DOERS[(state.stage, type(action))]
    return do(state, action, events), events


def step(state: State, action: Action) -> tuple[State, list]:
    """``check`` then ``apply``: raises :class:`IllegalAction` and changes nothing when
    ``action`` is not allowed now."""
    check(state, action)
    return apply(state, action)


def result(state: State) -> Result | None:
    """The count once the game is over ("Ending the Game"), else None."""
    if not state.over:
        return None
    sheets = []
    for seat, name in enumerate(state.players):
        stashed = [(c, v.flavour) for v in state.vaults[seat] for c in v.candies]
        sheets.append(sheet(name, stashed, state.held[seat]))
    return rank(tuple(sheets), "pile-out")


def public_view(state: State, viewer=TABLE) -> State:
    """The state with every face-down Battle Card ``viewer`` may not see replaced by
    ``"?"`` (``TABLE``: the screen, the logs, the history). Nothing is hidden once the
    game is over ("Grandma: reveal at the end of game")."""
    if state.over:
        return state
    held = tuple(h if seat == viewer else ("?",) * len(h) for seat, h in enumerate(state.held))
    hidden = {c for seat, h in enumerate(state.held) if seat != viewer for c in h}
    fresh = tuple("?" if c in hidden else c for c in state.fresh)
    return replace(state, held=held, fresh=fresh)


def counters(view: State) -> dict[str, int]:
    """The piles text mode reports when they change: the Candy and Battle Draw Piles."""
    return {say("pile_candy"): view.draw, say("pile_battle"): view.battle_draw}


def card_code(kind: str, name: str | None = None, copy: int = 1) -> str:
    """Shorthand for examples and tests: :func:`.cards.code_for`."""
    return code_for(kind, name, copy)


__all__ = ["new_game", "check", "apply", "step", "result", "public_view", "score_holdings", "counters",
           "IllegalAction"]


class SugarHeistRules(CoreRules[State]):
    """Sugar Heist's rules as the table's contract, :class:`companion.core.game.Rules` (rulebooks/sugar-heist.txt)."""

    new_game = staticmethod(new_game)
    check = staticmethod(check)
    apply = staticmethod(apply)
    step = staticmethod(step)
    result = staticmethod(result)
    public_view = staticmethod(public_view)
    counters = staticmethod(counters)
    score_holdings = staticmethod(score_holdings)


#: The one SugarHeistRules, which the descriptor's loader gives.
RULES = SugarHeistRules()
