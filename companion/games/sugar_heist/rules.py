"""Sugar Heist rules: set-up, the three phases, every Battle Card, the end and the count
(../shared/rulebooks/sugar-heist.txt).

Pure: no I/O, no pygame. ``check(state, action)`` raises :class:`IllegalAction`;
``apply`` returns ``(new_state, events)``; ``step`` does both. The work is split by
subject: :mod:`.vaults` (stashing, locks), :mod:`.turns` (phases, piles, the end),
:mod:`.battle` (Battle Cards, the heist duel), :mod:`.scoring` (the count).

>>> s = new_game(["Zach", "Pam", "Alex"])
>>> s.phase, s.hands, s.draw, s.battle_draw, s.vault_pile
('stash', (6, 6, 6), 68, 44, 8)
>>> s.candy_total(), s.battle_total()
(86, 44)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from companion.core.game import Rules as CoreRules
from companion.core.errors import IllegalAction
from companion.core.game import TABLE, Result

from .parts import battle as B
from .parts import effects as E
from .parts import turns as T
from .parts.cards import BATTLE_CODES, CARDS, DATA, SETUP, VAULT_CODES, code_for
from .scoring import rank, score_holdings, sheet  # noqa: F401  (part of the rules API)
from .state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, Action, BuyBattle, BuyVault, CantStash,
                    Combine, Declare, Done, FinalReveal, Flip, GameOver, Join, NewVault, Note, Place, Play,
                    Reveal, SetPile, Stash, State, Take, Target, Trade, Vault, Withdraw)
from .parts.vaults import combine, no
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


def _stage_action(state: State, action: Action, events: list) -> State:
    stage = state.stage
    if stage == STASH:
        if isinstance(action, Stash):
            return T.do_stash(state, state.active, action.cards, action.vault, action.flavour, events,
                              action.discard)
        if isinstance(action, CantStash):
            return T.cant_stash(state, events)
        if isinstance(action, Done):
            return T.end_stash(state, events)
        raise no(say("first_stash_pair_from", who=state.players[state.active]))
    if stage == REVEAL:
        if isinstance(action, Reveal):
            return T.do_reveal(state, action.card, events)
        raise no(say("wait_reveal"))
    if stage == SWAP:
        if isinstance(action, Trade):
            return T.do_trade(state, action, events)
        if isinstance(action, Done):
            return T.end_swaps(state, events)
        raise no(say("swap_scan_each_card"))
    if stage == BUY:
        if isinstance(action, BuyBattle):
            state, event = T.do_buy_battle(state, action, events)
            return B.start(state, action.card, state.active, events) if event else state
        if isinstance(action, BuyVault):
            return T.do_buy_vault(state, action, events)
        if isinstance(action, Play):
            return B.do_play(state, action.card, events)
        if isinstance(action, Done):
            return T.end_turn(state, events)
        raise no(say("buy_play_battle_cards"))
    if stage == DISCARD:
        if isinstance(action, Take):
            return T.do_discard(state, action.card, events)
        raise no(say("scan_cards_you_discard", who=state.players[state.active]))
    if stage == FINAL:
        if isinstance(action, Stash):
            return T.do_stash(state, state.seat, action.cards, action.vault, action.flavour, events)
        if isinstance(action, Done):
            state, everyone = T.finish_player(state, events)
            return _game_over(state, events) if everyone else state
        raise no(say("stash_your_last_pairs", who=state.players[state.seat]))
    raise no(say("game_over"))


def _frame_action(state: State, action: Action, events: list) -> State:
    f = state.frame
    step = f.step
    name = CARDS[f.card].name
    if step == "target":
        if isinstance(action, Target):
            return B.do_target(state, action, events)
        if isinstance(action, Withdraw):
            return B.do_withdraw(state, events)
        raise no(say("wait_target", who=state.players[f.actor], name=name))
    if step == "mom":
        if isinstance(action, Play) and B.can_add_steal(state, B.owner(state, action.card), action.card):
            return B.do_more_steal(state, action.card, events)
        if isinstance(action, Play) and CARDS[action.card].name == "Mom" and B.owner(state, action.card) in f.waiting:
            return B.do_mom(state, action.card, events)
        if isinstance(action, Play):
            raise no(B.mom_refusal(state, action.card))
        if isinstance(action, Done):
            return B.do_no_mom(state, events)
        raise no(say("only_mom_can_be"))
    if step == "duel":
        if isinstance(action, Play) and CARDS[action.card].name == "Mastermind":
            return B.do_mastermind(state, action.card, events)
        if isinstance(action, Flip):
            return B.do_flip(state, action.card, None, events)
        if isinstance(action, Done) and state.battle_draw == 0 and not state.battle_discard:
            return B.duel_off(state, events)
        raise no(say("flip_top_battle_card", who=state.players[B.flipper(state)]))
    if step in ("haul", "prize"):
        if isinstance(action, Take):
            return (B.do_haul_take if step == "haul" else B.do_prize_take)(state, action.card, events)
        if isinstance(action, Place):
            return B.do_place(state, action.vault, events, action.discard)
        if isinstance(action, Done):
            return B.do_haul_done(state, events)
        raise no(say("scan_candies_taken_then"))
    if step == "spy":
        if isinstance(action, Take):
            return E.do_spy_take(state, action.card, events)
        if isinstance(action, Done):
            events.append(Note(say("takes_nothing", who=state.players[f.actor])))
            return B.finish(state, events)
        raise no(say("wait_spy"))
    if step in ("flavour", "keep"):
        if isinstance(action, Declare):
            return E.do_declare(state, action.flavour, events)
        raise no(say("tap_candy_flavour_for", who=state.players[f.actor], name=name))
    if step == "collect":
        if isinstance(action, Take):
            return E.do_collect(state, action.card, action.seat, events)
        if isinstance(action, Done):
            return E.do_collect_done(state, events)
        raise no(say("scan_each_card_from", who=state.players[f.waiting[0]], flavours=f.flavours[0]))
    if step == "new-vault":
        if isinstance(action, NewVault):
            return E.do_new_vault(state, action.card, events)
        raise no(say("take_vault_card_for", who=state.players[f.actor]))
    if step == "pinata":
        if isinstance(action, Take):
            return E.do_pinata_reveal(state, action.card, events)
        raise no(say("turn_over_top_candy"))
    if step == "pick":
        if isinstance(action, Take):
            return E.do_pinata_pick(state, action.card, action.seat, events)
        raise no(say("scan_pi_ata_card", who=state.players[f.waiting[0]]))
    if step == "join":
        if isinstance(action, Join):
            return E.do_join(state, action.seat, action.card, events)
        if isinstance(action, Done):
            return E.do_fight(state, events)
        raise no(say("join_crib_fight_discard"))
    if step == "royale":
        if isinstance(action, Take):
            return E.do_royale_draw(state, action.card, action.seat, events)
        if isinstance(action, Done) and state.battle_draw == 0 and not state.battle_discard:
            events.append(Note(say("no_battle_cards_left")))
            return B.finish(state, events)
        raise no(say("wait_royale", who=state.players[f.waiting[0]]))
    if step == "stash":
        if isinstance(action, Stash):
            return E.do_bonus_stash(state, action.cards, action.vault, action.flavour, events)
        if isinstance(action, Done):
            return B.finish(state, events)
        raise no(say("stash_pairs_vault_you"))
    raise no(say("that_cant_be_done"))


def _combine(state: State, action: Combine, events: list) -> State:
    """"If at any point, you have the same flavor stashed in multiple Vaults you may
    combine matching flavors into a single Vault" ("How to Lock a Vault"): any player,
    in any phase or turn, and at the final stash. Only a vault being robbed right now
    (a Heist, Steal or Safe Cracker against it in play) stays as it is until that is over."""
    seat = state.seat if action.seat is None else action.seat
    if not 0 <= seat < len(state.players):
        raise no(say("there_are_only_players", n=len(state.players)))
    for f in state.stack:
        if f.target == seat and f.vault in (action.source, action.target) and f.step in ("mom", "duel", "haul"):
            raise no(say("vault_under_attack", who=state.players[seat], vault=f.vault + 1))
    return combine(state, seat, action.source, action.target, events)


def _game_over(state: State, events: list) -> State:
    state = T.end_game(state)
    shown = [f"{state.players[s]}: {', '.join(CARDS[c].name for c in h)}" for s, h in enumerate(state.held) if h]
    if shown:
        events.append(FinalReveal(say("battle_cards_shown", shown="; ".join(shown)), state.held))
    res = result(state)
    events.append(GameOver(say("game_over_winners", winners=res.winner_line()), res))
    return state


def _do(state: State, action: Action) -> tuple[State, list]:
    if state.over:
        raise no(say("over"))
    events: list = []
    if isinstance(action, SetPile):
        return T.set_pile(state, action.count, events), events
    if isinstance(action, Combine):
        return _combine(state, action, events), events
    if state.stack:
        state = _frame_action(state, action, events)
    else:
        state = _stage_action(state, action, events)
    return state, events


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` when ``action`` is not allowed now."""
    _do(state, action)


def apply(state: State, action: Action) -> tuple[State, list]:
    """The state after ``action`` and its outcome events (raises like :func:`check`)."""
    return _do(state, action)


def step(state: State, action: Action) -> tuple[State, list]:
    return _do(state, action)


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
