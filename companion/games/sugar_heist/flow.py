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
from dataclasses import replace

from companion.core.game import Flow as CoreFlow
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch, TouchCommand
from companion.core.game import Command

from .parts import battle as B
from . import rules
from .parts.cards import CANDY_CODES, CARDS, FLAVOURS, card, flavour_named
from .state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, CantStash, Combine, Declare, Done, Flip, Join,
                    Move, NewVault, Place, Play, Reveal, Stash, State, Take, Target, Trade, Withdraw)
from .parts.reasons import no_target_reason
from .parts.undo_words import undo_words
from .parts.vaults import choices_words, fitting, hand_card, pair_flavour
from .parts.checks import check_giving, check_move, check_pair_start
from .parts.turns import pile_refusal, swap_source
from .parts.prompts import (Entry, empty_question, haul_flavour, prompt, prompt_frame, seat_name,  # noqa: F401
                            two_pure)  # (Entry, prompt: part of the flow API)
from . import messages
from .messages import say

NEW_GAME = say("new_game")


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
            return _touch(state, entry, TouchCommand.parse("done"))
        raise _no(say("button_does_nothing_sugar", button=item.name))
    if isinstance(item, Touch):
        return _touch(state, entry, item.parsed)
    raise _no(say("sugar_heist_does_not"))


def _own_turn(state: State, seat: int | None) -> None:
    """A reader bound to another seat may not scan for the acting player."""
    if seat is not None and seat != state.seat:
        raise _no(say("turn_that_card_came", who=seat_name(state, state.seat), other=seat_name(state, seat)))


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
            raise _no(say("flip_not", who=seat_name(state, who), other=seat_name(state, seat)))
        return entry, Flip(code), ""
    if step == "haul":
        f = state.frame
        if f.vault is None:  # a Steal: from whichever vault the card is in
            return entry, Take(code), say("taken_from_player", card=c.name, target=seat_name(state, f.target))
        return entry, Take(code), say("taken_from_vault", card=c.name, target=seat_name(state, f.target), vault=f.vault + 1)
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
        raise _no(prompt_frame(state, entry))
    raise _no(say("that_card_not_needed"))


def _pair(state: State, entry: Entry, code: str):
    """Phase 1: two scans make a pair; the vault is tapped, or the only one that fits."""
    if code in entry.cards:
        raise _no(say("you_scanned_that_already", card=CARDS[code].name))
    if len(entry.cards) == 2:  # a pair is waiting for its vault (or flavour): that comes first
        raise _no(say("pair_waiting_tap_its", card=CARDS[entry.cards[0]].name))
    hand_card(state, code, say("stashing"))
    if not entry.cards:  # decided at the first card: a pair the hand cannot make is never half-entered
        check_pair_start(state, state.frame.actor if state.frame else state.seat)
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
        if two_pure(cards, entry):
            return entry, None, say("two_pure_sugars_tap")
        flavour = pair_flavour(state, seat, cards, 0, entry.flavour)
        fits = fitting(state, seat, flavour)
        if not fits and state.stage == FINAL and state.frame is None:
            # "onto a Vault, with the same candy flavor or into a Vault that is currently
            # empty": no vault takes them, so the pair is not kept waiting for a refused tap
            return Entry(), None, say("final_no_vault", who=seat_name(state, seat), flavour=flavour)
        if len(fits) != 1:
            why = say("tap_one_of", choices=choices_words(state, seat, fits)) if fits else \
                say("no_vault_has_none", flavour=flavour)
            return entry, None, say("pair_flavour_why", flavour=flavour, why=why)
        target = fits[0]
    if two_pure(cards, entry) and not state.vaults[seat][target].flavour:
        return replace(entry, vault=target), None, say("two_pure_sugars_tap")
    v = state.vaults[seat][target] if 0 <= target < len(state.vaults[seat]) else None
    at_end = state.stage == FINAL and state.frame is None  # the rules allow no emptying at the end
    if v is not None and v.candies and not at_end:
        flavour = pair_flavour(state, seat, cards, target, entry.flavour)
        if v.flavour != flavour:  # candy the player owns is never thrown away unasked
            if entry.ask != target:
                return replace(entry, vault=None, ask=target), None, empty_question(state, seat, target, flavour)
            return Entry(), Stash((cards[0], cards[1]), target, entry.flavour, discard=True), ""
    return Entry(), Stash((cards[0], cards[1]), target, entry.flavour), ""


def _place(state: State, entry: Entry, v: int):
    """``vault N`` for a haul or a prize: asks first when it would empty a vault."""
    f = state.frame
    seat = f.target if f.step == "prize" else f.actor
    flavour = haul_flavour(state)
    if f.haul and flavour and 0 <= v < len(state.vaults[seat]):
        vault = state.vaults[seat][v]
        if vault.candies and vault.flavour != flavour:
            if entry.ask != v:
                return replace(entry, ask=v), None, empty_question(state, seat, v, flavour)
            return Entry(), Place(v, discard=True), ""
    return Entry(), Place(v), ""


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
    check_giving(state, entry.moves, giver)  # "Players may only swap cards from their own hands"
    return (replace(entry, card=code, giver=giver), None,
            say("from_hand_tap_who", card=CARDS[code].name, who=seat_name(state, giver)))


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
    if code in state.removed:  # out of this game: said before asking for a payment
        raise _no(pile_refusal(state, code, say("pay_first_battle_card")))
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


def _touch(state: State, entry: Entry, said: TouchCommand):
    """What one touch command means now (read once: :class:`TouchCommand`)."""
    command, verb, args = said.text, said.verb, [a.lower() for a in said.args]
    if not verb:
        raise BadCommand(command, say("that_command_empty"))
    step = state.phase
    if verb == "clear":
        return Entry(), None, say("cleared_start_that_again")
    if verb == "vault":
        return _vault_tap(state, entry, args, command)
    if verb in ("flavour", "flavor"):
        return _flavour_tap(state, entry, args, command)
    if verb == "combine":  # "combine A B": the acting player's vaults; "combine P A B": player P's
        numbers = _numbers(args, command, 2, optional=1)
        if len(numbers) == 3:
            _seat_exists(state, numbers[0])
            return entry, Combine(numbers[1], numbers[2], numbers[0]), ""
        return entry, Combine(numbers[0], numbers[1]), ""
    if verb in ("cant", "can't", "draw"):
        return Entry(), CantStash(), ""
    if verb in ("from", "give", "deal"):
        return _swap_tap(state, entry, verb, args, command)
    if verb == "buy" and args == ["vault"] or verb == "newvault":
        if step == "new-vault":
            return entry, NewVault(None), ""
        if entry.pay is None:
            raise _no(say("pay_first"))
        return Entry(), rules.BuyVault(entry.pay), ""
    if verb in ("heist", "steal", "target"):
        return _target_tap(state, entry, verb, args, command)
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
        return replace(entry, seat=p), None, say("joins_scan_candy_they", who=seat_name(state, p))
    if verb == "keep":
        return entry, Withdraw(), ""
    if verb in ("done", "fight", "nomom", "no", "pass"):
        if entry.cards or entry.moves or entry.card or entry.pay:
            raise _no(say("finish_first", prompt=prompt(state, entry)))
        return Entry(), Done(), ""
    raise BadCommand(command, say("i_dont_know_command", command=command))


def _vault_tap(state: State, entry: Entry, args: list[str], command: str):
    """``vault N``: the vault a pair goes onto, or where a haul or prize is placed."""
    step = state.phase
    (v,) = _numbers(args, command, 1)
    seat = state.frame.actor if state.frame else state.seat
    if step in ("haul", "prize"):
        return _place(state, entry, v)
    if step == SWAP and state.frame is None:  # "Swapped cards must go immediately into a player's hand"
        raise _no(say("swapped_cards_go_in_hand", prompt=prompt(state, entry)))
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


def _flavour_tap(state: State, entry: Entry, args: list[str], command: str):
    """``flavour NAME``: a declared flavour, or the one a pair of Pure Sugars stands for."""
    step = state.phase
    flavour = flavour_named(" ".join(args))
    if flavour is None:
        raise BadCommand(command, say("name_flavour", names=', '.join(FLAVOURS)))
    if step in ("flavour", "keep"):
        return entry, Declare(flavour), ""
    stashing = state.frame is None and step in (STASH, FINAL) or step == "stash"
    if stashing and len(entry.cards) == 2 and two_pure(entry.cards, entry):
        return _complete(state, replace(entry, flavour=flavour))
    # no pair of Pure Sugars waits for a flavour: refused, never kept for later
    raise _no(say("no_pure_pair_waiting", prompt=prompt(state, entry)))


def _swap_tap(state: State, entry: Entry, verb: str, args: list[str], command: str):
    """``from P``, ``give P`` and ``deal``: a Swap's moves, one card at a time."""
    step = state.phase
    if verb == "from":
        if step != SWAP:
            raise _no(say("no_swap_now", prompt=prompt(state, entry)))
        if entry.card is not None:  # it would silently change whose hand the card waiting for "give" came from
            raise _no(say("first_tap_who_gets", card=CARDS[entry.card].name))
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        check_giving(state, entry.moves, p)
        return replace(entry, giver=p), None, say("next_card_from_hand", who=seat_name(state, p))
    if verb == "give":
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        if entry.card is None:
            raise _no(say("scan_card_that_changes"))
        move = Move(entry.card, entry.giver, p)
        check_move(state, entry.moves, move)  # each card of a swap is checked when it is made
        moves = entry.moves + (move,)
        return (replace(entry, moves=moves, card=None, giver=None), None,
                say("scan_more_cards_tap", card=CARDS[entry.card].name, source=swap_source(state, entry.giver),
                    who=seat_name(state, p)))
    if verb == "deal":
        if entry.card is not None:
            raise _no(say("first_tap_who_gets", card=CARDS[entry.card].name))
        return Entry(), Trade(entry.moves), ""
    raise AssertionError(verb)  # (only the three verbs above are sent here)


def _target_tap(state: State, entry: Entry, verb: str, args: list[str], command: str):
    """``heist P [V]``, ``steal P [V]``, ``target P [V]``: a Battle Card's target."""
    step = state.phase
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


def _seat_exists(state: State, p: int) -> None:
    if not 0 <= p < len(state.players):
        raise _no(say("there_are_only_players", n=len(state.players)))


# ---------------------------------------------------------------- what to do now

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
    if c is None or not c.is_battle or state.where(code) is not None:
        return False  # a card the table has seen where it is (face up, discarded, out of the game) is no secret
    if B.owner(state, code) is not None:
        return True  # held face down: even a scan that plays it keeps the code out of the logs
    if state.frame is None:
        return state.stage == BUY and B.owner(state, code) != state.active
    return state.frame.step in ("royale", "spy")


def hidden_refusal(view: State, entry: Entry) -> str:
    """What the table says when a face-down Battle Card is scanned and refused, from the
    table's view only (never the card: "Battle Cards are kept face down in front of you",
    Phase 3): only a Mom blocks in a Mom window, only a Mastermind is played in a fight."""
    if view.frame is None and view.stage == BUY:  # in Phase 3, why no Attack would have a target now, if so
        why = no_target_reason(view, view.active)
        if why != say("no_target_for_that_card"):
            return why + " " + prompt(view, entry)  # (a Message + str keeps its key, for its Why?)
    words = {"mom": "hidden_only_mom", "duel": "hidden_only_mastermind"}.get(view.phase, "hidden_keep_face_down")
    return say(words) + " " + prompt(view, entry)


def lesson(view: State, entry: Entry) -> str | None:
    """A first game's prompt for this phase of the turn, in the rulebook's words ("How a
    Turn Works"); none while a Battle Card is being resolved (its own prompts lead)."""
    if view.stack:
        return None
    key = {STASH: "lesson_stash", REVEAL: "lesson_reveal", SWAP: "lesson_swap", BUY: "lesson_buy",
           DISCARD: "lesson_discard"}.get(view.stage)
    return say(key, who=view.players[view.active]) if key else None


class SugarHeistFlow(CoreFlow[State]):
    """Sugar Heist's flow as the table's contract, :class:`companion.core.game.Flow` (rulebooks/sugar-heist.txt)."""

    commands = COMMANDS
    new_entry = staticmethod(new_entry)
    read = staticmethod(read)
    prompt = staticmethod(prompt)
    secret = staticmethod(secret)
    hidden_refusal = staticmethod(hidden_refusal)
    scan_again_counts = staticmethod(scan_again_counts)
    undo_words = staticmethod(undo_words)
    lesson = staticmethod(lesson)


#: The one SugarHeistFlow, which the descriptor's loader gives.
FLOW = SugarHeistFlow()
