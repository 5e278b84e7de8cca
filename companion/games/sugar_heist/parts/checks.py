"""Sugar Heist legality: ``check(state, action)`` raises :class:`IllegalAction` with a
message a child can read, or returns when the action is legal now
(../shared/rulebooks/sugar-heist.txt).

One small function per action and moment, each stating the rule it checks: while no
Battle Card is being resolved, :data:`STAGE_CHECKS` keyed by the turn's phase and the
action's type; while one is, :data:`FRAME_CHECKS` keyed by the top frame's step. An
action no table lists is refused with what the table waits for (:data:`STAGE_WAIT`,
:data:`FRAME_WAIT`). Every function reads the state and the action and changes
nothing; performing the move is :func:`.rules.apply` (:mod:`.turns`, :mod:`.battle`,
:mod:`.effects`, :mod:`.vaults`), whose tables have the same keys.

>>> from ..rules import new_game
>>> s = new_game(["Zach", "Pam"])
>>> check(s, CantStash())
>>> check(s, Withdraw())
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: Zach: first stash a pair from your hand (scan two matching cards).
"""

from __future__ import annotations

from typing import Callable

from .battle import (FLIP_ONLY, KEEP_IT, KEPT, can_add_steal, flipper, haul_done_vault, owner, place_flavour, playable,
                     prize_flavours, target_problem, top)
from .cards import CANDY_CODES, CARDS, FLAVOURS, PURE_SUGAR
from .reasons import mom_refusal, no_target_reason
from ..state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, Action, BuyBattle, BuyVault, CantStash, Combine,
                    Declare, Done, Flip, Join, Move, NewVault, Place, Play, Reveal, SetPile, Stash, State, Take,
                    Target, Trade, Withdraw)
from .turns import PURCHASES, on_battle_pile, pile_refusal
from .vaults import check_emptying, check_vault, find_candy, hand_card, no, pair_flavour
from ..messages import count, say

Check = Callable[[State, Action], None]


def _ok(state: State, action: Action) -> None:
    """An action that is always allowed at its moment (its key says which)."""


# ---------------------------------------------------------------- shared rules

def check_stash(state: State, seat: int, cards: tuple[str, str], index: int, declared: str | None,
                only: int | None = None, discard: bool = False) -> None:
    """May ``seat`` stash ``cards`` from their hand onto their vault ``index`` ("Phase 1:
    Stash Pairs of Candy Cards", "Pure Sugar (Wild Card)")? A pair from the hand, onto a
    vault they have (``only``: the one vault allowed); a vault of another flavour is
    emptied only when ``discard`` (the table said yes)."""
    if declared is not None and declared == PURE_SUGAR:
        raise no(say("pure_sugar_not_flavour"))
    check_vault(state, seat, index)
    if only is not None and index != only:
        raise no(say("stash_these_vault_one", only=only + 1))
    for code in cards:
        hand_card(state, code, say("stashing"))
    if state.hands[seat] < 2:
        raise no(say("has_candy_card_hand", who=state.players[seat], cards=count(state.hands[seat],
                                                                                 say("word_candy_card"))))
    flavour = pair_flavour(state, seat, cards, index, declared)
    check_emptying(state, seat, index, flavour, discard)


def check_pair_start(state: State, seat: int) -> None:
    """May ``seat`` start a pair from their hand? "Candy Cards are always stashed in pairs
    or in multiples of two" ("Phase 1: Stash Pairs of Candy Cards"): with fewer than two
    Candy Cards in hand no pair can be made, so the first card of one is refused, with
    the way on (Can't stash, or Done)."""
    if state.hands[seat] < 2:
        first = state.frame is None and state.stage == STASH and not state.stashed
        raise no(say("has_candy_card_hand", who=state.players[seat],
                     cards=count(state.hands[seat], say("word_candy_card")))
                 + " " + say("then_cant_stash" if first else "then_tap_done"))


def check_combine(state: State, seat: int, source: int, target: int) -> None:
    """May ``seat`` combine vault ``source`` into vault ``target`` ("How to Lock a Vault":
    "If at any point, you have the same flavor stashed in multiple Vaults you may
    combine")? Two different vaults of theirs, the first with candy, of one flavour."""
    a = check_vault(state, seat, source)
    b = check_vault(state, seat, target)
    if source == target:
        raise no(say("pick_two_different_vaults"))
    if not a.candies:
        raise no(say("vault_empty_there_nothing", source=source + 1))
    if a.flavour != b.flavour:
        raise no(say("only_vaults_same_flavour", source=source + 1, flavour=a.flavour, target=target + 1,
                     other=b.flavour or say("nothing")))


def _set_pile(state: State, action: SetPile) -> None:
    """The table's count of the Candy Draw Pile ("Ending the Game": the players confirm
    when it runs out): not once it is out for good, and no more than every Candy Card."""
    if state.final:
        raise no(say("candy_pile_out_for_good"))
    if not 0 <= action.count <= len(CANDY_CODES):
        raise no(say("candy_draw_pile_holds", most=len(CANDY_CODES), count=action.count))


def _combine(state: State, action: Combine) -> None:
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
    check_combine(state, seat, action.source, action.target)


def _battle_pile_empty(state: State, flips: tuple[str, ...] = ()) -> bool:
    """Would drawing from the Battle Draw Pile find no card, even after shuffling its
    discards (or, in a duel, the ``flips``) into a new pile ("Option 1: Heist": "you may
    shuffle the Battle Card discard pile and replenish the draw pile")?"""
    return state.battle_draw == 0 and not state.battle_discard and not flips


# ---------------------------------------------------------------- the turn's phases

def _stash(state: State, action: Stash) -> None:
    """Phase 1: a pair from the active player's hand onto one of their vaults ("Phase 1:
    Stash Pairs of Candy Cards")."""
    check_stash(state, state.active, tuple(action.cards), action.vault, action.flavour, discard=action.discard)


def _cant_stash(state: State, action: CantStash) -> None:
    """"If a player cannot stash a pair (or chooses not to)": only before stashing one."""
    if state.stashed:
        raise no(say("you_already_stashed_pair"))


def _end_stash(state: State, action: Done) -> None:
    """"You must stash at least one pair" before Phase 2."""
    if not state.stashed:
        raise no(say("stash_at_least_one"))


def _reveal(state: State, action: Reveal) -> None:
    """Phase 2: the card revealed comes off the Candy Draw Pile, so nobody has seen it."""
    hand_card(state, action.card, say("revealing"))


def check_move(state: State, moves: tuple[Move, ...], move: Move) -> None:
    """One card of a swap, checked when it is made ("Phase 2: Reveal and Swap Candy
    Cards"), after ``moves`` (the swap's cards so far): a revealed card, or one from the
    giver's own hand ("Players may only swap cards from their own hands. No one may swap
    cards that have already been stashed in a Vault."), never more than that hand holds;
    into another player's hand ("Swapped cards must go immediately into a player's hand
    and not on their Vaults"); and "the player whose turn it is must be included in the
    swap": its first card is one they give or get (a revealed card counts as theirs)."""
    n = len(state.players)
    c = CARDS[move.card]
    if any(m.card == move.card for m in moves):
        raise no(say("that_swap_twice", card=c.name), move.card)
    if not 0 <= move.taker < n or (move.giver is not None and not 0 <= move.giver < n):
        raise no(say("there_are_only_players", n=n))
    if move.giver is None:
        if move.card not in state.revealed:
            raise no(say("that_not_one_revealed", card=c.name), move.card)
    else:
        where = state.where(move.card)
        if where is not None:
            raise no(say("swap_hand_cards_only", card=c.name, where=where), move.card)
        hand_card(state, move.card, say("swapping"))
    if move.giver == move.taker:
        raise no(say("cant_swap_card_with", who=state.players[move.taker]))
    if move.giver is not None:
        check_giving(state, moves, move.giver)
    who = state.active
    if not moves and who not in (move.taker, state.active if move.giver is None else move.giver):
        raise no(say("swap_starts_with_active", who=state.players[who]))


def check_giving(state: State, moves: tuple[Move, ...], giver: int) -> None:
    """May ``giver`` give one more card from their hand in a swap where ``moves`` are
    entered already? "Players may only swap cards from their own hands": no more cards
    than that hand holds."""
    k = 1 + sum(1 for m in moves if m.giver == giver)
    if k > state.hands[giver] and not state.hands[giver]:
        raise no(say("has_no_hand", who=state.players[giver]))
    if k > state.hands[giver]:
        raise no(say("has_only_hand", who=state.players[giver], cards=count(state.hands[giver],
                                                                            say("word_candy_card"))))


def _trade(state: State, action: Trade) -> None:
    """Phase 2: one swap ("Phase 2: Reveal and Swap Candy Cards"): every card checked as
    it was made (:func:`check_move`), and "the player whose turn it is must be included
    in the swap"."""
    moves = tuple(action.moves)
    if not moves:
        raise no(say("scan_cards_that_change"))
    for i, m in enumerate(moves):
        check_move(state, moves[:i], m)
    who = state.active
    if not any(m.giver in (None, who) or m.taker == who for m in moves):
        raise no(say("every_swap_must_include", who=state.players[who]))


def _pay(state: State, pay: str) -> int:
    """Phase 3: "Discard 1 Candy Card from your Vault stash in order to buy", "up to 2
    cards per turn", and nothing once the pile is out for good ("Ending the Game").
    Returns the buyer's vault the candy comes from."""
    if state.final:
        raise no(say("candy_pile_out_no_buying"))
    if state.bought >= PURCHASES:
        raise no(say("buy_limit", most=PURCHASES))
    c = CARDS[pay]
    if not c.is_candy:
        raise no(say("pay_with_candy_card"))
    index = find_candy(state, state.active, pay)
    if index is None:
        raise no(say("pay_with_candy_stashed", card=c.name, where=state.where(pay) or say("in_a_hand")), pay)
    return index


def _buy_battle(state: State, action: BuyBattle) -> None:
    """Phase 3: "a face-down Battle Card" off the Battle Draw Pile, paid for with a
    stashed candy; a Quarantine Lock on the vault paid from goes to the discards, so a
    pile empty of both can still give that one."""
    if not CARDS[action.card].is_battle:
        raise no(say("not_battle_card_bought"))
    if not on_battle_pile(state, action.card):
        raise no(pile_refusal(state, action.card, say("battle_card_not_on_top")))
    index = _pay(state, action.pay)
    if _battle_pile_empty(state) and not state.vaults[state.active][index].quarantine:
        raise no(say("no_battle_cards_to_draw"))


def _buy_vault(state: State, action: BuyVault) -> None:
    """Phase 3: "an extra Vault Card from the center of the table", a card not yet seen."""
    if state.vault_pile <= 0:
        raise no(say("there_are_no_vault"))
    if action.card is not None:
        if CARDS[action.card].kind != "vault":
            raise no(say("that_not_vault_card"))
        if action.card in state.vault_cards:
            raise no(say("that_vault_card_already"), action.card)
    _pay(state, action.pay)


def _play(state: State, action: Play) -> None:
    """Phase 3: one of the active player's own face-down Battle Cards with a target now
    ("Playing Battle Cards"); Mom, Grandma and Mastermind wait for their moment, and
    nothing is played once the pile is out for good ("Ending the Game")."""
    c = CARDS[action.card]
    who = state.active
    if not c.is_battle:
        raise no(say("that_not_battle_card"))
    if state.final:
        raise no(say("candy_pile_out_no_battle"))
    if owner(state, action.card) != who:
        raise no(say("battle_card_not_yours"))
    if c.name in KEPT:  # one message for all three, so the screen does not tell which it is
        raise no(KEEP_IT)
    if not playable(state, who, action.card):
        raise no(no_target_reason(state, who))


def _discard(state: State, action: Take) -> None:
    """"End Your Turn": a card discarded down to 6 comes from the hand."""
    hand_card(state, action.card, say("discarding"))


def _final_stash(state: State, action: Stash) -> None:
    """"Ending the Game": the last pairs go "onto a Vault, with the same candy flavor or
    into a Vault that is currently empty" (never emptying one)."""
    seat, cards = state.seat, tuple(action.cards)
    v = check_vault(state, seat, action.vault)
    if v.candies and pair_flavour(state, seat, cards, action.vault, action.flavour) != v.flavour:
        raise no(say("at_end_pair_goes"))
    check_stash(state, seat, cards, action.vault, action.flavour)


STAGE_CHECKS: dict[tuple[str, type], Check] = {
    (STASH, Stash): _stash, (STASH, CantStash): _cant_stash, (STASH, Done): _end_stash,
    (REVEAL, Reveal): _reveal,
    (SWAP, Trade): _trade, (SWAP, Done): _ok,
    (BUY, BuyBattle): _buy_battle, (BUY, BuyVault): _buy_vault, (BUY, Play): _play, (BUY, Done): _ok,
    (DISCARD, Take): _discard,
    (FINAL, Stash): _final_stash, (FINAL, Done): _ok,
}

#: What the table waits for in each phase: the refusal of any action not in :data:`STAGE_CHECKS`.
STAGE_WAIT: dict[str, Callable[[State], str]] = {
    STASH: lambda s: say("first_stash_pair_from", who=s.players[s.active]),
    REVEAL: lambda s: say("wait_reveal"),
    SWAP: lambda s: say("swap_scan_each_card"),
    BUY: lambda s: say("buy_play_battle_cards"),
    DISCARD: lambda s: say("scan_cards_you_discard", who=s.players[s.active]),
    FINAL: lambda s: say("stash_your_last_pairs", who=s.players[s.seat]),
}


# ---------------------------------------------------------------- a Battle Card being resolved

def _target(state: State, action: Target) -> None:
    """The played card's target ("Playing Battle Cards", "Attack Card Styles", each
    card's text in the "Battle Card Index": :func:`.battle.target_problem`)."""
    f = top(state)
    problem = target_problem(state, f.actor, f.card, action.style, action.seat, action.vault)
    if problem:
        raise no(problem)


def _withdraw(state: State, action: Withdraw) -> None:
    """A card played from the face-down ones by mistake goes back before its target is
    chosen (docs/rules-notes.md); a card drawn and played at once cannot."""
    f = top(state)
    if f.step != "target" or not f.withdrawable:
        raise no(say("cant_withdraw"))


def _mom_play(state: State, action: Play) -> None:
    """The Mom window ("Mom": "Reveal your Mom Card to repel any unwanted Attack, Action,
    or Event Card"): a Mom of a player it is against, or another Steal of the attacker
    against the same player ("Option 2: Steal": "When playing multiples they must be
    revealed at the same time"). Refusals say no more than :func:`.reasons.mom_refusal`."""
    seat = owner(state, action.card)
    if can_add_steal(state, seat, action.card):
        return
    if CARDS[action.card].name == "Mom" and seat in top(state).waiting:
        return
    raise no(mom_refusal(state, action.card))


def _duel_play(state: State, action: Play) -> None:
    """In a duel only a Mastermind is played ("Mastermind": "Before the first Battle Card
    is flipped", by a duelist who still needs 2 Attack Cards); its refusal never names it."""
    if CARDS[action.card].name != "Mastermind":
        raise no(FRAME_WAIT["duel"](state))
    f = top(state)
    seat = owner(state, action.card)
    if f.flips or seat is None or seat not in f.duelists or f.need[f.duelists.index(seat)] < 2:
        raise no(FLIP_ONLY)


def _flip(state: State, action: Flip) -> None:
    """"Both players alternate revealing the top card of the Battle Deck" ("Option 1:
    Heist", "Start a Crib Fight"): a Battle Card that can be the top of the pile, made
    again from its discards or the flips when it runs out."""
    if not CARDS[action.card].is_battle:
        raise no(say("flip_top_card_battle"))
    if not on_battle_pile(state, action.card):
        raise no(pile_refusal(state, action.card, say("flip_not_from_pile")))
    if _battle_pile_empty(state, top(state).flips):
        raise no(say("no_battle_cards_to_draw"))


def _duel_done(state: State, action: Done) -> None:
    """A duel is called off only when no Battle Card is left to flip but the flips
    (docs/rules-notes.md); otherwise the next card is flipped."""
    if not _battle_pile_empty(state):
        raise no(FRAME_WAIT["duel"](state))


def _haul_take(state: State, action: Take) -> None:
    """Heist or Steal: a candy out of "1 unlocked Vault controlled by the target player",
    "up to 6" (Heist) or "up to 2" (Steal); a later Steal's first candy picks the vault."""
    f, card = top(state), action.card
    if not CARDS[card].is_candy:
        raise no(say("haul_scan_candy"))
    if len(f.haul) >= f.haul_max:
        raise no(say("that_already_tap_vault", haul_max=f.haul_max))
    if f.vault is None:
        at = next((i for i, v in enumerate(state.vaults[f.target]) if card in v.candies), None)
        if at is None or state.vaults[f.target][at].locked:
            raise no(say("take_from_unlocked", target=state.players[f.target], card=CARDS[card].name,
                         where=state.where(card) or say("not_in_it")), card)
    elif card not in state.vaults[f.target][f.vault].candies:
        raise no(say("take_candy_from_vault", target=state.players[f.target], vault=f.vault + 1,
                     card=CARDS[card].name, where=state.where(card) or say("not_in_it")), card)


def _prize_take(state: State, action: Take) -> None:
    """Crib Fight: "4 Candy Cards of their choice from the Discard Pile"."""
    f, card = top(state), action.card
    if not CARDS[card].is_candy:
        raise no(say("prize_scan_candy"))
    if len(f.haul) >= f.haul_max:
        raise no(say("that_already_tap_hand", haul_max=f.haul_max))
    if card not in state.discard:
        raise no(say("prize_comes_from_discard", card=CARDS[card].name, where=state.where(card) or say("not_on_it")),
                 card)


def check_place(state: State, vault: int | None, discard: bool = False) -> None:
    """May the candies taken go into vault ``vault`` (None: the hand)? "The attacker must
    place these cards into a Vault they control"; a Crib Fight's winner may add them "to
    their hand or ... to a Vault stash", one flavour (Pure Sugars alone take the vault's);
    a vault of another flavour is emptied only when ``discard`` (the table said yes)."""
    f = top(state)
    seat = f.target if f.step == "prize" else f.actor
    if not f.haul:
        raise no(say("scan_candies_first"))
    if vault is None:
        if f.step != "prize":
            raise no(say("stolen_candy_goes_into"))
        return
    check_vault(state, seat, vault)
    if f.step == "prize":
        if len(prize_flavours(f.haul)) > 1:
            raise no(say("those_cards_are_different"))
        if place_flavour(state, seat, vault) is None:
            raise no(say("pure_sugars_alone_need"))
    check_emptying(state, seat, vault, place_flavour(state, seat, vault), discard)


def _place(state: State, action: Place) -> None:
    """Heist, Steal or Crib Fight: the candies taken go into a vault or the hand
    (:func:`check_place`)."""
    check_place(state, action.vault, action.discard)


def _haul_done(state: State, action: Done) -> None:
    """Done with a haul or prize: nothing taken, or a haul the one vault of its flavour
    (or the one empty vault) takes; otherwise the table taps where it goes."""
    f = top(state)
    if not f.haul:
        return
    vault = haul_done_vault(state)
    if vault is None:
        raise no(say("where_candies_go_hand" if f.step == "prize" else "where_candies_go"))
    check_place(state, vault)


def _spy_take(state: State, action: Take) -> None:
    """Spy: "you may choose to steal 1 of their Battle Cards" (one the target holds)."""
    f = top(state)
    if owner(state, action.card) != f.target:
        raise no(say("take_one_battle_cards", target=state.players[f.target]))


def _declare(state: State, action: Declare) -> None:
    """Bad Dog and Candy Magnet: "1 candy flavor of your choice"; Mega Candy Magnet: "3
    candy flavors", then "Choose 1 candy flavor to keep" of those."""
    f, flavour = top(state), action.flavour
    if flavour not in FLAVOURS:
        raise no(say("pick_one_flavours", names=', '.join(FLAVOURS)))
    if f.step == "keep":
        if flavour not in f.flavours:
            raise no(say("keep_one_three_you", names=', '.join(f.flavours)))
    elif flavour in f.flavours:
        raise no(say("named_already_pick_another", flavour=flavour))


def _collect(state: State, action: Take) -> None:
    """Bad Dog, the Candy Magnets: each player hit hands over, in turn, "Candy Cards of
    that flavor from their hands"."""
    f, card = top(state), action.card
    if not f.waiting:
        raise no(say("everyone_has_handed_over"))
    giver = f.waiting[0] if action.seat is None else action.seat
    if giver not in f.waiting:
        raise no(say("not_giving_cards", who=state.players[giver]))
    hand_card(state, card, say("handing_over"))
    c = CARDS[card]
    if c.flavour != f.flavours[0]:
        raise no(say("only_cards_that", flavours=f.flavours[0], card=c.name), card)
    if state.hands[giver] < 1:
        raise no(say("has_no_candy_cards", who=state.players[giver]))


def _new_vault(state: State, action: NewVault) -> None:
    """Candy Magnets: "Receive a new Vault Card for free", one not seen before."""
    card = action.card
    if card is not None:
        if CARDS[card].kind != "vault":
            raise no(say("scan_vault_card_from"))
        if card in state.vault_cards:
            raise no(say("that_vault_card_already"), card)


def _pinata_reveal(state: State, action: Take) -> None:
    """Piñata: "reveals one card per player from the top of the Candy Deck" (unseen cards)."""
    hand_card(state, action.card, say("pi_ata"))


def _pinata_pick(state: State, action: Take) -> None:
    """Piñata: "each player picking one Candy Card" of the face-up ones, clockwise."""
    f = top(state)
    who = f.waiting[0]
    if action.seat is not None and action.seat != who:
        raise no(say("pick_who", who=state.players[who]))
    if not CARDS[action.card].is_candy:
        raise no(say("pick_one_pi_atas"))
    if action.card not in f.cards:
        raise no(say("pick_one_pi_ata", card=CARDS[action.card].name, where=state.where(action.card)
                     or say("not_one")), action.card)


def _join(state: State, action: Join) -> None:
    """Crib Fight: "Players may discard 1 Candy Card from their hand to enter", once."""
    f, seat = top(state), action.seat
    if not 0 <= seat < len(state.players):
        raise no(say("there_are_only_players", n=len(state.players)))
    if seat in f.duelists:
        raise no(say("crib_fight_already", who=state.players[seat]))
    hand_card(state, action.card, say("entering_crib_fight"))
    if state.hands[seat] < 1:
        raise no(say("has_no_candy_card", who=state.players[seat]))


def _royale_draw(state: State, action: Take) -> None:
    """Battle Royale: "Every player draws a Battle Card", in turn, off the Battle Draw
    Pile (made again from its discards when it runs out)."""
    who = top(state).waiting[0]
    if action.seat is not None and action.seat != who:
        raise no(say("draw_who", who=state.players[who]))
    if not CARDS[action.card].is_battle:
        raise no(say("royale_draw"))
    if not on_battle_pile(state, action.card):
        raise no(pile_refusal(state, action.card, say("royale_not_from_pile")))
    if _battle_pile_empty(state):
        raise no(say("no_battle_cards_to_draw"))


def _royale_done(state: State, action: Done) -> None:
    """A Battle Royale ends early only when no Battle Card is left to draw."""
    if not _battle_pile_empty(state):
        raise no(FRAME_WAIT["royale"](state))


def _bonus_stash(state: State, action: Stash) -> None:
    """Vault Heist: "If you have pairs remaining in your hand you may stash them
    immediately", on the vault just taken."""
    f = top(state)
    check_stash(state, f.actor, tuple(action.cards), action.vault, action.flavour, only=f.new_vault)


FRAME_CHECKS: dict[tuple[str, type], Check] = {
    ("target", Target): _target, ("target", Withdraw): _withdraw,
    ("mom", Play): _mom_play, ("mom", Done): _ok,
    ("duel", Play): _duel_play, ("duel", Flip): _flip, ("duel", Done): _duel_done,
    ("haul", Take): _haul_take, ("haul", Place): _place, ("haul", Done): _haul_done,
    ("prize", Take): _prize_take, ("prize", Place): _place, ("prize", Done): _haul_done,
    ("spy", Take): _spy_take, ("spy", Done): _ok,
    ("flavour", Declare): _declare, ("keep", Declare): _declare,
    ("collect", Take): _collect, ("collect", Done): _ok,
    ("new-vault", NewVault): _new_vault,
    ("pinata", Take): _pinata_reveal,
    ("pick", Take): _pinata_pick,
    ("join", Join): _join, ("join", Done): _ok,
    ("royale", Take): _royale_draw, ("royale", Done): _royale_done,
    ("stash", Stash): _bonus_stash, ("stash", Done): _ok,
}


def _card_name(state: State) -> str:
    return CARDS[top(state).card].name


#: What the table waits for at each step: the refusal of any action not in :data:`FRAME_CHECKS`.
FRAME_WAIT: dict[str, Callable[[State], str]] = {
    "target": lambda s: say("wait_target", who=s.players[top(s).actor], name=_card_name(s)),
    "mom": lambda s: say("only_mom_can_be"),
    "duel": lambda s: say("flip_top_battle_card", who=s.players[flipper(s)]),
    "haul": lambda s: say("scan_candies_taken_then"),
    "prize": lambda s: say("scan_candies_taken_then"),
    "spy": lambda s: say("wait_spy"),
    "flavour": lambda s: say("tap_candy_flavour_for", who=s.players[top(s).actor], name=_card_name(s)),
    "keep": lambda s: say("tap_candy_flavour_for", who=s.players[top(s).actor], name=_card_name(s)),
    "collect": lambda s: say("scan_each_card_from", who=s.players[top(s).waiting[0]], flavours=top(s).flavours[0]),
    "new-vault": lambda s: say("take_vault_card_for", who=s.players[top(s).actor]),
    "pinata": lambda s: say("turn_over_top_candy"),
    "pick": lambda s: say("scan_pi_ata_card", who=s.players[top(s).waiting[0]]),
    "join": lambda s: say("join_crib_fight_discard"),
    "royale": lambda s: say("wait_royale", who=s.players[top(s).waiting[0]]),
    "stash": lambda s: say("stash_pairs_vault_you"),
}


# ---------------------------------------------------------------- check

def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` (a message for the table) unless ``action`` is legal
    now: a pile count or a combine at any time, else the rule for this action at this
    moment (:data:`FRAME_CHECKS` while a Battle Card is resolved, :data:`STAGE_CHECKS`
    otherwise), else what the table waits for. Reads ``state``, never changes it."""
    if state.over:
        raise no(say("over"))
    if isinstance(action, SetPile):
        return _set_pile(state, action)
    if isinstance(action, Combine):
        return _combine(state, action)
    if state.stack:
        step = top(state).step
        rule = FRAME_CHECKS.get((step, type(action)))
        wait = FRAME_WAIT.get(step, lambda s: say("that_cant_be_done"))
    else:
        rule = STAGE_CHECKS.get((state.stage, type(action)))
        wait = STAGE_WAIT.get(state.stage, lambda s: say("game_over"))
    if rule is None:
        raise no(wait(state))
    rule(state, action)
