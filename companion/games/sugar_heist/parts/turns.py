"""A turn's phases, the draw piles and the end of the game (Sugar Heist rulebook, "How a
Turn Works", "End Your Turn", "Ending the Game").

Each ``do_*`` function applies one action that :mod:`.checks` has passed: it trusts its
caller, never refuses, and returns the new state; outcome events go on ``events``.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CARDS, DATA, SETUP
from ..state import (BUY, DISCARD, FINAL, HAND_SIZE, OVER, REVEAL, STASH, SWAP, BuyBattle, BuyVault, Note,
                    State, Trade, TurnEnded, Vault)
from .vaults import fitting, find_candy, put, stash, take_candy
from .. import messages
from ..messages import say

REVEAL_COUNT: int = SETUP["reveal"]
PURCHASES: int = SETUP["purchases"]


# ---------------------------------------------------------------- the piles

def draw_candy(state: State, n: int, events: list, turn_ends: bool = False) -> tuple[State, int]:
    """Take ``n`` cards off the Candy Draw Pile (fewer when it runs out for good).
    The first time it runs out the Discard Pile becomes the Draw Pile; the second time
    the game is ending ("Ending the Game"). ``turn_ends``: this draw ends the turn (the
    refill of "End Your Turn", Can't stash), so no "last turn" is left to announce."""
    got = 0
    while got < n and not state.final:
        take = min(n - got, state.draw)
        state = replace(state, draw=state.draw - take)
        got += take
        if state.draw == 0:
            state = pile_ran_out(state, events, turn_ends)
    return state, got


def pile_ran_out(state: State, events: list, turn_ends: bool = False) -> State:
    """The Candy Draw Pile is empty: reshuffled the first time; the second time the game
    is ending: "The active player who drew or revealed the final card may complete their
    turn" ("Ending the Game"), said only while that turn is still on (issue 38: it was
    said after the refill that ended it, just before "The game is over!")."""
    if not state.reshuffled:
        events.append(Note(say("candy_pile_reshuffle", cards=messages.count(len(state.discard), "card"))))
        state = replace(state, draw=len(state.discard), discard=(), reshuffled=True)
        if state.draw:
            return state
    events.append(Note(say("candy_draw_pile_ran_out" if turn_ends else "candy_draw_pile_ran")))
    return replace(state, final=True)


def on_battle_pile(state: State, code: str) -> bool:
    """Could ``code`` be the top of the Battle Draw Pile? Unseen and held by nobody; or,
    when the pile is empty, a discard about to be shuffled into the new pile; or, with
    no discards either, a card flipped in the duel being fought ("If there are not
    enough Battle Cards remaining ... shuffle the Battle Card discard pile and replenish
    the draw pile"; docs/rules-notes.md: "or, if none, the flipped cards")."""
    if any(code in h for h in state.held):
        return False
    where = state.where(code)
    if where is None:
        return True
    if state.battle_draw == 0 and code in state.battle_discard:
        return True
    f = state.frame
    return (state.battle_draw == 0 and not state.battle_discard and f is not None and f.step == "duel"
            and code in f.flips)


def set_pile(state: State, count: int, events: list) -> State:
    """The players counted the Candy Draw Pile ("the players confirm when it runs out"):
    the companion takes their count; at 0 the pile has run out."""
    if count == state.draw:
        events.append(Note(say("right_candy_draw_pile", cards=messages.count(count, "card"))))
        return state
    events.append(Note(say("candy_draw_pile_corrected", draw=state.draw, count=count)))
    state = replace(state, draw=count, unaccounted=state.unaccounted + state.draw - count)
    return pile_ran_out(state, events) if count == 0 else state


def draw_battle(state: State, events: list, code: str | None = None) -> State:
    """One card (``code`` when scanned) off the Battle Draw Pile; an empty pile is made
    again from its discards. With 2 players the first copy of a card the table took one
    of out ("Player Count") is the one in play: the other copy is out from then on."""
    if state.battle_draw == 0 and state.battle_discard:
        events.append(Note(say("battle_pile_reshuffle")))
        state = replace(state, battle_draw=len(state.battle_discard), battle_discard=())
    if code is not None and CARDS[code].name in state.set_aside:
        name = CARDS[code].name
        other = tuple(c for c, card in CARDS.items() if card.name == name and c != code and c not in state.removed)
        state = replace(state, removed=state.removed + other[:1],
                        set_aside=tuple(n for n in state.set_aside if n != name))
    return replace(state, battle_draw=state.battle_draw - 1)


def pile_refusal(state: State, code: str, message: str) -> str:
    """Why ``code`` cannot come off the Battle Draw Pile: ``message``, or that it is out
    of the game: taken out by the Alternate Play Rule ("When using this rule, remove both
    Night Raid Cards from the deck"), or, with 2 players, the other copy came first."""
    if code in state.removed:
        name = CARDS[code].name
        if state.alternate and name in DATA["alternate"]["remove_battle"]:
            return say("out_by_alternate_rule", card=name)
        return say("copy_out_of_game", card=name)
    return message


# ---------------------------------------------------------------- Phase 1

def do_stash(state: State, seat: int, cards, index: int, declared, events: list) -> State:
    """Phase 1, and the end: a pair from ``seat``'s hand onto one of their vaults."""
    state = stash(state, seat, tuple(cards), index, declared, events)
    return replace(state, stashed=state.stashed + 1)


def cant_stash(state: State, events: list) -> State:
    """Phase 1: no pair (or the player chooses not to): draw two and end the turn."""
    who = state.active
    state, got = draw_candy(state, 2, events, turn_ends=True)
    state = replace(state, hands=put(state.hands, who, state.hands[who] + got))
    events.append(Note(say("cant_stash_draws", who=state.players[who], cards=messages.count(got,
                                                                                            say("word_candy_card")))))
    return end_turn(state, events)


def end_stash(state: State, events: list) -> State:
    """Phase 1 is over (a pair or more stashed): on to Phase 2."""
    return start_reveal(replace(state, stage=REVEAL), events)


# ---------------------------------------------------------------- Phase 2

def start_reveal(state: State, events: list) -> State:
    if state.final or state.draw == 0:
        events.append(Note(say("no_cards_left_reveal")))
        return replace(state, stage=SWAP)
    return state


def do_reveal(state: State, code: str, events: list) -> State:
    """Phase 2: one of the top Candy Cards of the Draw Pile turned face up."""
    state = replace(state, revealed=state.revealed + (code,))
    state, _ = draw_candy(state, 1, events)
    events.append(Note(say("revealed_card", card=CARDS[code].name)))
    if len(state.revealed) >= REVEAL_COUNT or state.final:
        state = replace(state, stage=SWAP)
    return state


def do_trade(state: State, action: Trade, events: list) -> State:
    """One swap ("Phase 2: Reveal and Swap"): cards go from hands (or the revealed
    row) straight into hands."""
    moves = action.moves
    seen = {m.card for m in moves}
    hands = list(state.hands)
    for m in moves:
        if m.giver is not None:
            hands[m.giver] -= 1
        hands[m.taker] += 1
    revealed = tuple(c for c in state.revealed if c not in seen)
    parts = [say("card_who", card=CARDS[m.card].name, source=swap_source(state, m.giver), who=state.players[m.taker])
             for m in moves]
    events.append(Note(say("swapped", moves=", ".join(parts))))
    return replace(state, hands=tuple(hands), revealed=revealed)


def swap_source(state: State, giver: int | None) -> str:
    """Where a swapped card came from, in words: ``Pam's hand`` (``giver`` a seat) or
    ``the revealed cards`` (None). Both are seen by the table: the card changes hands
    in the open ("Phase 2: Reveal and Swap"); no Battle Card is ever swapped."""
    return say("source_revealed") if giver is None else say("source_hand", who=state.players[giver])


def end_swaps(state: State, events: list) -> State:
    """Revealed cards nobody swapped go to the active player's hand."""
    who = state.active
    if state.revealed:
        events.append(Note(say("keeps_who_names", who=state.players[who],
                               names=', '.join(CARDS[c].name for c in state.revealed))))
    state = replace(state, hands=put(state.hands, who, state.hands[who] + len(state.revealed)), revealed=(),
                    stage=BUY)
    if state.final:
        events.append(Note(say("last_turn_done")))
    return state


# ---------------------------------------------------------------- Phase 3

def _pay(state: State, pay: str, events: list) -> State:
    """Pay for a purchase with a candy out of the buyer's vaults (Phase 3)."""
    who = state.active
    index = find_candy(state, who, pay)
    state = take_candy(state, who, index, pay, events)
    return replace(state, discard=state.discard + (pay,), bought=state.bought + 1)


def do_buy_battle(state: State, action: BuyBattle, events: list) -> tuple[State, bool]:
    """Buy a face-down Battle Card; an Event Card is played at once. Returns the state
    and whether the card is an event to play now. The card is never named here."""
    c = CARDS[action.card]
    state = _pay(state, action.pay, events)
    state = draw_battle(state, events, action.card)
    who = state.active
    events.append(Note(say("pays_1_for_battle", who=state.players[who], card=CARDS[action.pay].name)))
    if c.kind == "event":
        return state, True
    return replace(state, held=put(state.held, who, state.held[who] + (action.card,)),
                   fresh=state.fresh + (action.card,)), False


def do_buy_vault(state: State, action: BuyVault, events: list) -> State:
    """Phase 3: pay 1 candy for a new Vault Card."""
    state = _pay(state, action.pay, events)
    who = state.active
    seen = state.vault_cards + ((action.card,) if action.card else ())
    state = replace(state, vaults=put(state.vaults, who, state.vaults[who] + (Vault(card=action.card),)),
                    vault_pile=state.vault_pile - 1, vault_cards=seen)
    events.append(Note(say("pays_1_for_new", who=state.players[who], card=CARDS[action.pay].name,
                           vault=len(state.vaults[who]))))
    return state


# ---------------------------------------------------------------- the end of a turn

def do_discard(state: State, code: str, events: list) -> State:
    """End of turn: discard one card from the hand, down to the hand limit of 6."""
    who = state.active
    state = replace(state, hands=put(state.hands, who, state.hands[who] - 1), discard=state.discard + (code,))
    events.append(Note(say("discards_who_card", who=state.players[who], card=CARDS[code].name)))
    if state.hands[who] <= HAND_SIZE:
        return end_turn(state, events)
    return state


def end_turn(state: State, events: list) -> State:
    """"End Your Turn": draw up to 6 or discard down to 6, then the next player to the
    left who does not skip (Time Out, Sleeper Cell). A Sleeper Cell's player takes the
    next turn at once, whoever's turn this was (``extra``); play then goes on from them."""
    who = state.active
    if state.hands[who] > HAND_SIZE:
        extra = state.hands[who] - HAND_SIZE
        events.append(Note(say("discard_them" if extra > 1 else "discard_it", who=state.players[who],
                               hands=state.hands[who], extra=extra)))
        return replace(state, stage=DISCARD)
    if state.hands[who] < HAND_SIZE:
        state, got = draw_candy(state, HAND_SIZE - state.hands[who], events, turn_ends=True)
        state = replace(state, hands=put(state.hands, who, state.hands[who] + got))
    state = replace(state, stashed=0, bought=0, fresh=(), heisted=(), stolen=(), protected=())
    if state.final:
        return start_final(state, events)
    n = len(state.players)
    skips = list(state.skips)
    extra = state.extra
    if extra:  # Activate Sleeper Cell: "When your current turn ends, immediately take another turn."
        nxt, extra = extra[0], extra[1:]
        events.append(Note(say("sleeper_cell_takes_another", who=state.players[nxt])))
    else:
        nxt = (who + 1) % n
        while skips[nxt] > 0:
            skips[nxt] -= 1
            events.append(Note(say("skips_this_turn", who=state.players[nxt])))
            nxt = (nxt + 1) % n
    state = replace(state, active=nxt, stage=STASH, turn=state.turn + 1, skips=tuple(skips), extra=extra)
    events.append(TurnEnded(say("turn_stash_pair", who=state.players[nxt]), who, nxt))
    return state


def start_final(state: State, events: list) -> State:
    """"Ending the Game": every player, from the active one round the table, may stash
    the pairs left in their hand on a vault of that flavour or an empty one."""
    n = len(state.players)
    order = tuple((state.active + k) % n for k in range(n))
    events.append(Note(say("game_over_each_player")))
    return replace(state, stage=FINAL, finishing=order, stack=())


def finish_player(state: State, events: list) -> tuple[State, bool]:
    """The finishing player is done: the rest of their hand is discarded. Returns
    whether everybody is done."""
    seat = state.finishing[0]
    left = state.hands[seat]
    if left:
        cards = messages.count(left, say("word_unstashable_card"))
        events.append(Note(say("discards_unstashable", who=state.players[seat], cards=cards)))
    state = replace(state, hands=put(state.hands, seat, 0), binned=state.binned + left,
                    finishing=state.finishing[1:])
    return state, not state.finishing


def end_game(state: State) -> State:
    return replace(state, stage=OVER)


def fits_final(state: State, seat: int, flavour: str) -> list[int]:
    return fitting(state, seat, flavour)
