"""Sugar Heist table flow: what a scan or a tap means now (the game contract's ``flow``).

``read(state, entry, item)`` returns ``(entry, action | None, message)``; the entry is
the half-entered input (a pair being scanned, a swap being put together, a payment
waiting for the card it buys). It never changes anything and raises :class:`BadScan`,
:class:`BadCommand` or :class:`IllegalAction`.

Touch commands (seats and vaults count from 1):

====================  ==============================================================
``vault N``           the vault for the pair being stashed, or where taken candy goes
``flavour NAME``      the flavour two Pure Sugars stand for; Bad Dog / Candy Magnets
``combine [P] A B``   move vault A onto vault B (same flavour): the acting player's, or player P's
``cant``              Phase 1: can't stash: draw two and end the turn
``give N``            swap: the card just scanned goes to player N
``from N``            swap: the next card scanned comes from player N's hand
``deal``              swap: make the swap entered
``buy vault``         Phase 3 (after paying) or a Candy Magnet: take a Vault Card
``heist P V``         an Attack Card against player P's vault V (``steal P V`` too)
``target P [V]``      an Action Card against player P (and vault V)
``hand``              the Crib Fight prize goes into the hand
``keep``              a Battle Card played by mistake goes back face down (before its target)
``join N``            player N enters the Crib Fight (then scans the candy paid)
``deck N``            the players counted N cards in the Candy Draw Pile
``done``              finish the step (also: no Mom, the Crib Fight starts)
``clear``             forget the half-entered input
====================  ==============================================================

A reader bound to a seat counts for that seat: a Mom or a Mastermind scanned by its
owner, a swap card given, a card handed over, a flip in a duel.

>>> s = rules.new_game(["Zach", "Pam", "Alex"])
>>> entry, action, message = read(s, new_entry(), Touch("cant", 0.0))
>>> action
CantStash()
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from companion.core.game import Flow as CoreFlow
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch
from companion.core.game import Command

from .parts import battle as B
from . import rules
from .parts.cards import CANDY_CODES, CARDS, FLAVOURS, card, flavour_named
from .state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, CantStash, Combine, Declare, Done, Flip, Join,
                    Move, NewVault, Place, Play, Reveal, Stash, State, Take, Target, Trade, Withdraw)
from .parts.vaults import fitting, hand_card, pair_flavour
from . import messages
from .messages import say

NEW_GAME = say("new_game")


@dataclass(frozen=True)
class Entry:
    """What has been scanned or tapped towards the next action."""

    cards: tuple[str, ...] = ()          # a pair being stashed
    vault: int | None = None             # the vault tapped for it (0-based)
    flavour: str | None = None           # declared for two Pure Sugars
    pay: str | None = None               # the candy paid for a purchase
    moves: tuple[Move, ...] = ()         # a swap being entered
    card: str | None = None              # a swap card waiting for "give N"
    giver: int | None = None             # "from N"
    seat: int | None = None              # "join N"
    ask: int | None = None               # the vault the table was asked to empty (tap it again: yes)


def _seats(state: State) -> range:
    return range(1, len(state.players) + 1)


def _seat_vaults(verb: str):
    return lambda s: [f"{verb} {p} {v}" for p in _seats(s) for v in range(1, len(s.vaults[p - 1]) + 1)]


#: The touch commands (``companion.core.commands``): what each is typed as, its buttons' words.
COMMANDS = (
    Command("vault N", tries=lambda s: [f"vault {v}" for v in range(1, 1 + max(len(x) for x in s.vaults))]),
    Command("flavour NAME", tries=tuple(f"flavour {f.lower()}" for f in FLAVOURS)),
    Command("combine [P] A B", tries=lambda s: [f"combine {a} {b}" for a in range(1, 7) for b in range(1, 7) if a != b]
            + [f"combine {p} {a} {b}" for p in _seats(s) for a in range(1, 1 + len(s.vaults[p - 1]))
               for b in range(1, 1 + len(s.vaults[p - 1])) if a != b]),
    Command("cant", (say("cant_stash"),)),
    Command("give N", tries=lambda s: [f"give {p}" for p in _seats(s)]),
    Command("from N", tries=lambda s: [f"from {p}" for p in _seats(s)]),
    Command("deal", (say("button_deal"),)),
    Command("buy vault", (say("buy_vault"), say("take_vault")), ("buy vault",)),
    Command("heist P V", (say("button_heist"),), _seat_vaults("heist")),
    Command("steal P V", (say("button_steal"),), _seat_vaults("steal")),
    Command("target P [V]", tries=lambda s: [f"target {p}" for p in _seats(s)] + _seat_vaults("target")(s)),
    Command("hand", (say("button_hand"),)),
    Command("keep", (say("button_keep"),)),
    Command("join N", (say("button_join"),), lambda s: [f"join {p}" for p in _seats(s)]),
    Command("deck N", tries=lambda s: [f"deck {s.draw}"], menu=say("cards_counted_candy_draw"),
            example="deck 20"),
    Command("done", (say("button_done"), say("no_mom"), say("button_fight"), say("button_fight_typed"),
                     say("take_none"))),
    Command("clear", (say("button_clear"),)),
)


def new_entry() -> Entry:
    return Entry()


def _no(message: str) -> IllegalAction:
    return IllegalAction(None, message)


def _who(state: State, seat: int) -> str:
    return state.players[seat]


# ---------------------------------------------------------------- reading one input

def read(state: State, entry: Entry, item: Input) -> tuple[Entry, object | None, str]:
    """What one table input means now (see the module docstring)."""
    if state.over:
        raise _no(say("over"))
    if isinstance(item, CardScanned):
        code = card(item.code).code
        seat = None if item.seat is None else item.seat - 1
        if seat is not None and not 0 <= seat < len(state.players):
            raise _no(say("reader_set_up_for", seat=seat + 1, n=len(state.players)))
        return _scan(state, entry, code, seat)
    if isinstance(item, ButtonPressed):
        if item.name == "confirm":
            return _touch(state, entry, "done")
        raise _no(say("button_does_nothing_sugar", button=item.name))
    if isinstance(item, Touch):
        return _touch(state, entry, item.command)
    raise _no(say("sugar_heist_does_not"))


def _own_turn(state: State, seat: int | None) -> None:
    """A reader bound to another seat may not scan for the acting player."""
    if seat is not None and seat != state.seat:
        raise _no(say("turn_that_card_came", who=_who(state, state.seat), other=_who(state, seat)))


def _scan(state: State, entry: Entry, code: str, seat: int | None):
    c = CARDS[code]
    step = state.phase
    f = state.frame
    if f is None and state.stage in (STASH, FINAL) or step == "stash":
        _own_turn(state, seat if f is None else (None if seat == f.actor else seat))
        return _pair(state, entry, code)
    if step == REVEAL:
        _own_turn(state, seat)
        return entry, Reveal(code), ""
    if step == SWAP:
        return _swap_card(state, entry, code, seat)
    if step == BUY:
        _own_turn(state, seat)
        return _buy_scan(state, entry, code)
    if step == DISCARD:
        _own_turn(state, seat)
        return entry, Take(code), ""
    if step == "mom":
        if not c.is_battle:
            raise _no(say("only_mom_can_be"))
        return entry, Play(code), ""  # the rules say why a card that is no Mom for this window is refused
    if step == "duel":
        if c.name == "Mastermind" and B.owner(state, code) is not None:
            return entry, Play(code), ""
        who = B.flipper(state)
        if seat is not None and seat != who:
            raise _no(say("flip_not", who=_who(state, who), other=_who(state, seat)))
        return entry, Flip(code), ""
    if step == "haul":
        f = state.frame
        if f.vault is None:  # a Steal: from whichever vault the card is in
            return entry, Take(code), say("taken_from_player", card=c.name, target=_who(state, f.target))
        return entry, Take(code), say("taken_from_vault", card=c.name, target=_who(state, f.target), vault=f.vault + 1)
    if step == "prize":
        return entry, Take(code), say("taken_from_discard", card=c.name)
    if step in ("pinata", "spy"):
        return entry, Take(code), ""
    if step in ("collect", "pick", "royale"):
        return entry, Take(code, seat), ""
    if step == "join":
        joiner = seat if seat is not None else entry.seat
        if joiner is None:
            raise _no(say("tap_who_joins_crib"))
        return Entry(), Join(joiner, code), ""
    if step == "new-vault":
        return entry, NewVault(code), ""
    if step in ("target", "flavour", "keep"):
        raise _no(_prompt_frame(state, entry))
    raise _no(say("that_card_not_needed"))


def _pair(state: State, entry: Entry, code: str):
    """Phase 1: two scans make a pair; the vault is tapped, or the only one that fits."""
    if code in entry.cards:
        raise _no(say("you_scanned_that_already", card=CARDS[code].name))
    if len(entry.cards) == 2:  # a pair is waiting for its vault (or flavour): that comes first
        raise _no(say("pair_waiting_tap_its", card=CARDS[entry.cards[0]].name))
    hand_card(state, code, say("stashing"))
    cards = entry.cards + (code,)
    if len(cards) == 1:
        return replace(entry, cards=cards), None, say("scan_its_partner", card=CARDS[code].name)
    return _complete(state, replace(entry, cards=cards))


def _complete(state: State, entry: Entry):
    """Two cards scanned: the Stash, or what is still missing (a vault, a flavour)."""
    cards = entry.cards
    seat = state.frame.actor if state.frame else state.seat
    target = entry.vault if entry.vault is not None else (state.frame.new_vault if state.frame else None)
    if target is None:
        if _two_pure(cards, entry):
            return entry, None, say("two_pure_sugars_tap")
        flavour = pair_flavour(state, seat, cards, 0, entry.flavour)
        fits = fitting(state, seat, flavour)
        if not fits and state.stage == FINAL and state.frame is None:
            # "onto a Vault, with the same candy flavor or into a Vault that is currently
            # empty": no vault takes them, so the pair is not kept waiting for a refused tap
            return Entry(), None, say("final_no_vault", who=_who(state, seat), flavour=flavour)
        if len(fits) != 1:
            why = say("tap_vault_for_them") if fits else \
                say("no_vault_has_none", flavour=flavour)
            return entry, None, say("pair_flavour_why", flavour=flavour, why=why)
        target = fits[0]
    if _two_pure(cards, entry) and not state.vaults[seat][target].flavour:
        return replace(entry, vault=target), None, say("two_pure_sugars_tap")
    v = state.vaults[seat][target] if 0 <= target < len(state.vaults[seat]) else None
    at_end = state.stage == FINAL and state.frame is None  # the rules allow no emptying at the end
    if v is not None and v.candies and not at_end:
        flavour = pair_flavour(state, seat, cards, target, entry.flavour)
        if v.flavour != flavour:  # candy the player owns is never thrown away unasked
            if entry.ask != target:
                return replace(entry, vault=None, ask=target), None, _ask(state, seat, target, flavour)
            return Entry(), Stash((cards[0], cards[1]), target, entry.flavour, discard=True), ""
    return Entry(), Stash((cards[0], cards[1]), target, entry.flavour), ""


def _ask(state: State, seat: int, index: int, flavour: str) -> str:
    """The question before a vault of another flavour is emptied."""
    v = state.vaults[seat][index]
    return say("would_empty_vault", who=_who(state, seat), vault=index + 1, count=v.count, old=v.flavour,
               flavour=flavour)


def _haul_flavour(state: State) -> str | None:
    """The one flavour the candies being placed make (None: not known yet, or mixed)."""
    f = state.frame
    if f.step == "haul":
        return f.flavours[0] if f.flavours else None
    flavours = {CARDS[c].flavour for c in f.haul if not CARDS[c].is_pure}
    return flavours.pop() if len(flavours) == 1 else None


def _place(state: State, entry: Entry, v: int):
    """``vault N`` for a haul or a prize: asks first when it would empty a vault."""
    f = state.frame
    seat = f.target if f.step == "prize" else f.actor
    flavour = _haul_flavour(state)
    if f.haul and flavour and 0 <= v < len(state.vaults[seat]):
        vault = state.vaults[seat][v]
        if vault.candies and vault.flavour != flavour:
            if entry.ask != v:
                return replace(entry, ask=v), None, _ask(state, seat, v, flavour)
            return Entry(), Place(v, discard=True), ""
    return Entry(), Place(v), ""


def _two_pure(cards, entry: Entry) -> bool:
    return all(CARDS[c].is_pure for c in cards) and entry.flavour is None


def _swap_card(state: State, entry: Entry, code: str, seat: int | None):
    if entry.card is not None:
        raise _no(say("first_tap_who_gets", card=CARDS[entry.card].name))
    if any(m.card == code for m in entry.moves):
        raise _no(say("that_this_swap_already", card=CARDS[code].name))
    if code in state.revealed:
        return replace(entry, card=code, giver=None), None, say("revealed_tap_who_gets", card=CARDS[code].name)
    where = state.where(code)
    if where is not None:
        raise _no(say("swap_hand_cards_only", card=CARDS[code].name, where=where))
    hand_card(state, code, say("swapping"))
    giver = seat if seat is not None else (entry.giver if entry.giver is not None else state.active)
    return (replace(entry, card=code, giver=giver), None,
            say("from_hand_tap_who", card=CARDS[code].name, who=_who(state, giver)))


def _buy_scan(state: State, entry: Entry, code: str):
    c = CARDS[code]
    who = state.active
    if c.is_candy:
        if state.final:
            raise _no(say("candy_pile_out_no_buying"))
        if state.bought >= rules.T.PURCHASES:
            raise _no(say("buy_limit", most=rules.T.PURCHASES))
        if not any(code in v.candies for v in state.vaults[who]):
            raise _no(say("pay_with_candy_stashed", card=c.name, where=state.where(code) or say("in_a_hand")))
        return (replace(entry, pay=code), None,
                say("paid_1_scan_battle", card=c.name))
    if c.kind == "vault":
        if entry.pay is None:
            raise _no(say("pay_first_vault_card"))
        return Entry(), rules.BuyVault(entry.pay, code), ""
    if entry.pay is not None and B.owner(state, code) is None:
        return Entry(), rules.BuyBattle(entry.pay, code), ""
    if B.owner(state, code) == who:
        return entry, Play(code), ""
    raise _no(say("pay_first_battle_card"))


# ---------------------------------------------------------------- touch commands

_NUM = re.compile(r"[0-9]{1,2}")


def _numbers(words: list[str], command: str, count: int, optional: int = 0) -> list[int]:
    if not count <= len(words) <= count + optional or not all(_NUM.fullmatch(w) for w in words):
        raise BadCommand(command, say("needs_numbers", verb=command.split()[0], numbers=messages.count(count, "number"),
                                          example=" ".join(["1"] * count)))
    return [int(w) - 1 for w in words]


def _touch(state: State, entry: Entry, command: str):
    words = command.strip().lower().split()
    if not words:
        raise BadCommand(command, say("that_command_empty"))
    verb, args = words[0], words[1:]
    step = state.phase
    if verb == "clear":
        return Entry(), None, say("cleared_start_that_again")
    if verb == "vault":
        (v,) = _numbers(args, command, 1)
        seat = state.frame.actor if state.frame else state.seat
        if step in ("haul", "prize"):
            return _place(state, entry, v)
        if not (state.frame is None and step in (STASH, FINAL) or step == "stash"):
            raise _no(say("no_vault_now", prompt=prompt(state, entry)))
        if not 0 <= v < len(state.vaults[seat]):
            raise _no(say("has_vaults_there_no", who=state.players[seat],
                          vaults=messages.count(len(state.vaults[seat]), "vault"), v=v + 1))
        if not entry.cards:  # a vault chosen before any card would wait unseen: scan first
            raise _no(say("scan_pair_before_vault", prompt=prompt(state, entry)))
        if len(entry.cards) == 2:
            return _complete(state, replace(entry, vault=v))
        return replace(entry, vault=v, ask=None), None, say("vault_scan_pair_for", v=v + 1)
    if verb in ("flavour", "flavor"):
        flavour = flavour_named(" ".join(args))
        if flavour is None:
            raise BadCommand(command, say("name_flavour", names=', '.join(FLAVOURS)))
        if step in ("flavour", "keep"):
            return entry, Declare(flavour), ""
        stashing = state.frame is None and step in (STASH, FINAL) or step == "stash"
        if stashing and len(entry.cards) == 2 and _two_pure(entry.cards, entry):
            return _complete(state, replace(entry, flavour=flavour))
        # no pair of Pure Sugars waits for a flavour: refused, never kept for later
        raise _no(say("no_pure_pair_waiting", prompt=prompt(state, entry)))
    if verb == "combine":  # "combine A B": the acting player's vaults; "combine P A B": player P's
        numbers = _numbers(args, command, 2, optional=1)
        if len(numbers) == 3:
            _seat_exists(state, numbers[0])
            return entry, Combine(numbers[1], numbers[2], numbers[0]), ""
        return entry, Combine(numbers[0], numbers[1]), ""
    if verb in ("cant", "can't", "draw"):
        return Entry(), CantStash(), ""
    if verb == "from":
        if step != SWAP:
            raise _no(say("no_swap_now", prompt=prompt(state, entry)))
        if entry.card is not None:  # it would silently change whose hand the card waiting for "give" came from
            raise _no(say("first_tap_who_gets", card=CARDS[entry.card].name))
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        return replace(entry, giver=p), None, say("next_card_from_hand", who=_who(state, p))
    if verb == "give":
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        if entry.card is None:
            raise _no(say("scan_card_that_changes"))
        moves = entry.moves + (Move(entry.card, entry.giver, p),)
        return (replace(entry, moves=moves, card=None, giver=None), None,
                say("scan_more_cards_tap", card=CARDS[entry.card].name, who=_who(state, p)))
    if verb == "deal":
        if entry.card is not None:
            raise _no(say("first_tap_who_gets", card=CARDS[entry.card].name))
        return Entry(), Trade(entry.moves), ""
    if verb == "buy" and args == ["vault"] or verb == "newvault":
        if step == "new-vault":
            return entry, NewVault(None), ""
        if entry.pay is None:
            raise _no(say("pay_first"))
        return Entry(), rules.BuyVault(entry.pay), ""
    if verb in ("heist", "steal", "target"):
        p, *v = _numbers(args, command, 1, optional=1)
        style = verb
        if verb == "target":
            f = state.frame
            if f is None or step != "target":
                raise _no(say("there_no_battle_card"))
            if CARDS[f.card].kind == "attack":
                raise _no(say("attack_card_heist_steal"))
            style = B.STYLE[CARDS[f.card].name]
        return entry, Target(style, p, v[0] if v else None), ""
    if verb in ("deck", "pile"):
        if len(args) != 1 or not _NUM.fullmatch(args[0]):
            raise BadCommand(command, say("needs_number_cards_counted", verb=verb, most=len(CANDY_CODES)))
        (n,) = _numbers(args, command, 1)
        return entry, rules.SetPile(n + 1), ""
    if verb == "hand":
        return Entry(), Place(None), ""
    if verb == "join":
        if step != "join":
            raise _no(say("no_crib_fight_now", prompt=prompt(state, entry)))
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        return replace(entry, seat=p), None, say("joins_scan_candy_they", who=_who(state, p))
    if verb == "keep":
        return entry, Withdraw(), ""
    if verb in ("done", "fight", "nomom", "no", "pass"):
        if entry.cards or entry.moves or entry.card or entry.pay:
            raise _no(say("finish_first", prompt=prompt(state, entry)))
        return Entry(), Done(), ""
    raise BadCommand(command, say("i_dont_know_command", command=command))


def _seat_exists(state: State, p: int) -> None:
    if not 0 <= p < len(state.players):
        raise _no(say("there_are_only_players", n=len(state.players)))


# ---------------------------------------------------------------- what to do now

def prompt(state: State, entry: Entry) -> str:
    """What the table should do next, in a few words."""
    if state.over:
        return say("prompt_over")
    placing = state.frame.step in ("haul", "prize") if state.frame else len(entry.cards) == 2
    if entry.ask is not None and placing:
        seat = state.frame.target if state.frame and state.frame.step == "prize" else (
            state.frame.actor if state.frame else state.seat)
        if entry.ask < len(state.vaults[seat]) and state.vaults[seat][entry.ask].candies:
            flavour = _haul_flavour(state) if state.frame and state.frame.step in ("haul", "prize") else (
                CARDS[entry.cards[0]].flavour if entry.cards else None)
            if entry.cards and all(CARDS[c].is_pure for c in entry.cards):
                flavour = entry.flavour
            return _ask(state, seat, entry.ask, flavour or say("word_other_candy"))
    if state.frame:
        return _prompt_frame(state, entry)
    who = _who(state, state.seat)
    stage = state.stage
    if stage == STASH:
        if len(entry.cards) == 2:
            if _two_pure(entry.cards, entry):
                return say("tap_flavour_two_pure", who=who)
            return say("tap_vault_for_pair", who=who, card=CARDS[entry.cards[0]].name)
        if entry.cards and entry.vault is not None:
            return say("scan_partner_for_vault", who=who, card=CARDS[entry.cards[0]].name, v=entry.vault + 1)
        if entry.cards:
            return say("scan_partner_tap_its", who=who, card=CARDS[entry.cards[0]].name)
        then = say("two_players_set_aside") if state.set_aside and state.turn == 1 and not state.stashed else ""
        return say("stash_pair_scan_two", who=who) + (say("tap_done") if state.stashed else
                                                      say("tap_cant_stash")) + then
    if stage == REVEAL:
        return say("prompt_reveal", who=who, k=len(state.revealed) + 1)
    if stage == SWAP:
        if entry.card:
            return say("tap_who_gets", card=CARDS[entry.card].name)
        if entry.moves:
            return say("scan_more_cards_this")
        return say("swap_scan_card_that", who=who)
    if stage == BUY:
        if state.final:
            return say("prompt_last_turn", who=who)
        if entry.pay:
            return say("scan_card_you_buy", who=who, card=CARDS[entry.pay].name)
        return say("pay_candy_from_vault", who=who)
    if stage == DISCARD:
        return say("discard_down_6_scan", who=who)
    if stage == FINAL:
        return say("stash_pairs_left_your", who=who)
    return ""


def _prompt_frame(state: State, entry: Entry) -> str:
    f = state.frame
    name = CARDS[f.card].name
    actor = _who(state, f.actor)
    step = f.step
    if step == "target":
        if CARDS[f.card].kind == "attack":
            return say("tap_heist_steal_or_keep" if f.withdrawable else "tap_heist_steal_players", actor=actor)
        return say("prompt_target_or_keep" if f.withdrawable else "prompt_target", actor=actor, name=name)
    if step == "mom":
        if f.style == "steal":
            return say("scan_mom_block_steal", names=', '.join(_who(state, s) for s in f.waiting), actor=actor)
        return say("scan_mom_block_tap", names=', '.join(_who(state, s) for s in f.waiting))
    if step == "duel":
        if state.battle_draw == 0 and not state.battle_discard:
            return say("flip_or_call_off", who=_who(state, B.flipper(state)))
        return say("flip_top_battle_card", who=_who(state, B.flipper(state)))
    if step == "haul" and f.haul_max - len(f.haul) <= 0:  # never "scan up to 0 more"
        return say("prompt_haul_full", actor=actor)
    if step == "haul" and f.vault is None:
        return say("prompt_next_steal", actor=actor, haul_max=f.haul_max - len(f.haul), target=_who(state, f.target))
    if step == "haul":
        if f.haul_max - len(f.haul) <= 0:  # never "scan up to 0 more"
            return say("prompt_haul_full", actor=actor)
        return (say("prompt_haul", actor=actor, haul_max=f.haul_max - len(f.haul), target=_who(state, f.target),
                    vault=f.vault + 1))
    if step == "prize":
        if f.haul_max - len(f.haul) <= 0:
            return say("prompt_prize_full", target=_who(state, f.target))
        return say("prompt_prize", target=_who(state, f.target), haul_max=f.haul_max - len(f.haul))
    if step == "spy":
        return say("prompt_spy", actor=actor, target=_who(state, f.target))
    if step == "flavour":
        return say("tap_flavour_for", actor=actor, name=name)
    if step == "keep":
        return say("tap_flavour_you_keep", actor=actor, names=', '.join(f.flavours))
    if step == "collect":
        return say("scan_every_card_from", who=_who(state, f.waiting[0]), flavours=f.flavours[0])
    if step == "new-vault":
        return say("take_free_vault_card", actor=actor)
    if step == "pinata":
        return say("pi_ata_turn_over", k=len(f.cards) + 1, n=len(state.players))
    if step == "pick":
        return say("scan_pi_ata_card", who=_who(state, f.waiting[0]))
    if step == "join":
        return say("crib_fight_tap_join")
    if step == "royale":
        return say("battle_royale_draw_battle", who=_who(state, f.waiting[0]))
    if step == "stash":
        return say("stash_pairs_vault_tap", actor=actor, new_vault=f.new_vault + 1)
    return ""


def scan_again_counts(state: State, item: Input) -> bool:
    """True when the same card read again at once is a new scan, not the reader's double
    read: a Battle Card the player whose turn it is just bought, scanned again to play it
    (the session's tap-off would otherwise swallow the play)."""
    if not isinstance(item, CardScanned) or not item.code or state.frame is not None:
        return False
    code = item.code.strip().upper()
    c = CARDS.get(code)
    return c is not None and c.is_battle and B.owner(state, code) == state.active


def secret(state: State, item: Input) -> bool:
    """True when this scan is a hidden Battle Card: one held face down (whatever it is
    scanned for), one bought face down, drawn in a Battle Royale, or taken by a Spy.
    Its code must reach no log and no screen."""
    if not isinstance(item, CardScanned) or not item.code:
        return False
    code = item.code.strip().upper()
    c = CARDS.get(code)
    if c is None or not c.is_battle:
        return False
    if B.owner(state, code) is not None:
        return True  # held face down: even a scan that plays it keeps the code out of the logs
    if state.frame is None:
        return state.stage == BUY and B.owner(state, code) != state.active
    return state.frame.step in ("royale", "spy")


class SugarHeistFlow(CoreFlow[State]):
    """Sugar Heist's flow as the table's contract, :class:`companion.core.game.Flow` (rulebooks/sugar-heist.txt)."""

    commands = COMMANDS
    new_entry = staticmethod(new_entry)
    read = staticmethod(read)
    prompt = staticmethod(prompt)
    secret = staticmethod(secret)
    scan_again_counts = staticmethod(scan_again_counts)


#: The one SugarHeistFlow, which the descriptor's loader gives.
FLOW = SugarHeistFlow()
