"""Sugar Heist table flow: what a scan or a tap means now (the game contract's ``flow``).

``read(state, entry, item)`` returns ``(entry, action | None, message)``; the entry is
the half-entered input (a pair being scanned, a swap being put together, a payment
waiting for the card it buys). It never changes anything and raises :class:`BadScan`,
:class:`BadCommand` or :class:`IllegalAction`.

Touch commands (seats and vaults count from 1):

====================  ==============================================================
``vault N``           the vault for the pair being stashed, or where taken candy goes
``flavour NAME``      the flavour two Pure Sugars stand for; Bad Dog / Candy Magnets
``combine A B``       move vault A onto vault B (same flavour)
``cant``              Phase 1: can't stash: draw two and end the turn
``give N``            swap: the card just scanned goes to player N
``from N``            swap: the next card scanned comes from player N's hand
``deal``              swap: make the swap entered
``buy vault``         Phase 3 (after paying) or a Candy Magnet: take a Vault Card
``heist P V``         an Attack Card against player P's vault V (``steal P V`` too)
``target P [V]``      an Action Card against player P (and vault V)
``hand``              the Crib Fight prize goes into the hand
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

from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch
from companion.core.game import Command

from . import battle as B
from . import rules
from .cards import CANDY_CODES, CARDS, FLAVOURS, card, flavour_named
from .state import (BUY, DISCARD, FINAL, REVEAL, STASH, SWAP, CantStash, Combine, Declare, Done, Flip, Join,
                    Move, NewVault, Place, Play, Reveal, Stash, State, Take, Target, Trade)
from .vaults import fitting, hand_card, pair_flavour

NEW_GAME = "New game: deal 6 Candy Cards and 2 Vault Cards each. The first player stashes a pair."


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


def _seats(state: State) -> range:
    return range(1, len(state.players) + 1)


def _seat_vaults(verb: str):
    return lambda s: [f"{verb} {p} {v}" for p in _seats(s) for v in range(1, len(s.vaults[p - 1]) + 1)]


#: The touch commands (``companion.core.commands``): what each is typed as, its buttons' words.
COMMANDS = (
    Command("vault N", tries=lambda s: [f"vault {v}" for v in range(1, 1 + max(len(x) for x in s.vaults))]),
    Command("flavour NAME", tries=tuple(f"flavour {f.lower()}" for f in FLAVOURS)),
    Command("combine A B", tries=lambda s: [f"combine {a} {b}" for a in range(1, 7) for b in range(1, 7) if a != b]),
    Command("cant", ("Can't stash",)),
    Command("give N", tries=lambda s: [f"give {p}" for p in _seats(s)]),
    Command("from N", tries=lambda s: [f"from {p}" for p in _seats(s)]),
    Command("deal", ("Deal",)),
    Command("buy vault", ("Buy vault", "Take vault"), ("buy vault",)),
    Command("heist P V", ("Heist",), _seat_vaults("heist")),
    Command("steal P V", ("Steal",), _seat_vaults("steal")),
    Command("target P [V]", tries=lambda s: [f"target {p}" for p in _seats(s)] + _seat_vaults("target")(s)),
    Command("hand", ("Hand",)),
    Command("join N", ("Join",), lambda s: [f"join {p}" for p in _seats(s)]),
    Command("deck N", tries=lambda s: [f"deck {s.draw}"], menu="the cards counted in the Candy Draw Pile",
            example="deck 20"),
    Command("done", ("Done", "No Mom", "Fight!", "Fight", "Take none")),
    Command("clear", ("Clear",)),
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
        raise _no("The game is over: the scores are final.")
    if isinstance(item, CardScanned):
        code = card(item.code).code
        seat = None if item.seat is None else item.seat - 1
        if seat is not None and not 0 <= seat < len(state.players):
            raise _no(f"A reader is set up for seat {seat + 1}, but only {len(state.players)} are playing.")
        return _scan(state, entry, code, seat)
    if isinstance(item, ButtonPressed):
        if item.name == "confirm":
            return _touch(state, entry, "done")
        raise _no(f"The {item.name} button does nothing in Sugar Heist.")
    if isinstance(item, Touch):
        return _touch(state, entry, item.command)
    raise _no("Sugar Heist does not use the tray.")


def _own_turn(state: State, seat: int | None) -> None:
    """A reader bound to another seat may not scan for the acting player."""
    if seat is not None and seat != state.seat:
        raise _no(f"It is {_who(state, state.seat)}'s turn: that card came from {_who(state, seat)}'s reader.")


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
        if c.name != "Mom":
            raise _no(B.MOM_ONLY)
        return entry, Play(code), ""
    if step == "duel":
        if c.name == "Mastermind" and B.owner(state, code) is not None:
            return entry, Play(code), ""
        who = B.flipper(state)
        if seat is not None and seat != who:
            raise _no(f"It is {_who(state, who)}'s flip, not {_who(state, seat)}'s.")
        return entry, Flip(code), ""
    if step in ("haul", "prize", "pinata", "spy"):
        return entry, Take(code), ""
    if step in ("collect", "pick", "royale"):
        return entry, Take(code, seat), ""
    if step == "join":
        joiner = seat if seat is not None else entry.seat
        if joiner is None:
            raise _no("Tap who joins the Crib Fight first, then scan the candy they pay.")
        return Entry(), Join(joiner, code), ""
    if step == "new-vault":
        return entry, NewVault(code), ""
    if step in ("target", "flavour", "keep"):
        raise _no(_prompt_frame(state, entry))
    raise _no("That card is not needed now.")


def _pair(state: State, entry: Entry, code: str):
    """Phase 1: two scans make a pair; the vault is tapped, or the only one that fits."""
    if code in entry.cards:
        raise _no(f"You scanned that {CARDS[code].name} already: scan its partner.")
    if len(entry.cards) == 2:  # a pair is waiting for its vault (or flavour): that comes first
        raise _no(f"The pair of {CARDS[entry.cards[0]].name} is waiting: tap its vault first "
                  "(or tap Clear to scan the pair again).")
    hand_card(state, code, "Stashing")
    cards = entry.cards + (code,)
    if len(cards) == 1:
        return replace(entry, cards=cards), None, f"{CARDS[code].name}: now scan its partner."
    return _complete(state, replace(entry, cards=cards))


def _complete(state: State, entry: Entry):
    """Two cards scanned: the Stash, or what is still missing (a vault, a flavour)."""
    cards = entry.cards
    seat = state.frame.actor if state.frame else state.seat
    target = entry.vault if entry.vault is not None else (state.frame.new_vault if state.frame else None)
    if target is None:
        if _two_pure(cards, entry):
            return entry, None, "Two Pure Sugars: tap the flavour they stand for."
        flavour = pair_flavour(state, seat, cards, 0, entry.flavour)
        fits = fitting(state, seat, flavour)
        if len(fits) != 1:
            why = "Tap the vault for them." if fits else \
                f"No vault has {flavour} and none is empty: tap the vault to empty for them."
            return entry, None, f"A pair of {flavour}. {why}"
        target = fits[0]
    if _two_pure(cards, entry) and not state.vaults[seat][target].flavour:
        return replace(entry, vault=target), None, "Two Pure Sugars: tap the flavour they stand for."
    return Entry(), Stash((cards[0], cards[1]), target, entry.flavour), ""


def _two_pure(cards, entry: Entry) -> bool:
    return all(CARDS[c].is_pure for c in cards) and entry.flavour is None


def _swap_card(state: State, entry: Entry, code: str, seat: int | None):
    if entry.card is not None:
        raise _no(f"First tap who gets the {CARDS[entry.card].name}.")
    if any(m.card == code for m in entry.moves):
        raise _no(f"That {CARDS[code].name} is in this swap already.")
    if code in state.revealed:
        return replace(entry, card=code, giver=None), None, f"Revealed {CARDS[code].name}: tap who gets it."
    where = state.where(code)
    if where is not None:
        raise _no(f"That {CARDS[code].name} is {where}: only cards from a hand can be swapped, "
                  f"never cards stashed in a vault.")
    hand_card(state, code, "Swapping")
    giver = seat if seat is not None else (entry.giver if entry.giver is not None else state.active)
    return (replace(entry, card=code, giver=giver), None,
            f"{CARDS[code].name} from {_who(state, giver)}'s hand: tap who gets it.")


def _buy_scan(state: State, entry: Entry, code: str):
    c = CARDS[code]
    who = state.active
    if c.is_candy:
        if state.final:
            raise _no("The Candy Draw Pile has run out: nobody may buy cards any more.")
        if state.bought >= rules.T.PURCHASES:
            raise _no(f"You may buy at most {rules.T.PURCHASES} cards a turn.")
        if not any(code in v.candies for v in state.vaults[who]):
            raise _no(f"Pay with candy stashed in your own vaults: that {c.name} is "
                      f"{state.where(code) or 'in a hand'}.")
        return (replace(entry, pay=code), None,
                f"Paid 1 {c.name}: scan the Battle Card you take (face down) or the Vault Card, or tap Buy vault.")
    if c.kind == "vault":
        if entry.pay is None:
            raise _no("Pay first: scan a candy from one of your vaults, then the Vault Card.")
        return Entry(), rules.BuyVault(entry.pay, code), ""
    if entry.pay is not None and B.owner(state, code) is None:
        return Entry(), rules.BuyBattle(entry.pay, code), ""
    if B.owner(state, code) == who:
        return entry, Play(code), ""
    raise _no("Pay first: scan a candy from one of your vaults, then the Battle Card you take.")


# ---------------------------------------------------------------- touch commands

_NUM = re.compile(r"[0-9]{1,2}")


def _numbers(words: list[str], command: str, count: int, optional: int = 0) -> list[int]:
    if not count <= len(words) <= count + optional or not all(_NUM.fullmatch(w) for w in words):
        raise BadCommand(command, f"{command.split()[0]} needs {count} number{'s' * (count != 1)}, "
                                  f"like '{command.split()[0]} {' '.join(['1'] * count)}'.")
    return [int(w) - 1 for w in words]


def _touch(state: State, entry: Entry, command: str):
    words = command.strip().lower().split()
    if not words:
        raise BadCommand(command, "That command is empty.")
    verb, args = words[0], words[1:]
    step = state.phase
    if verb == "clear":
        return Entry(), None, "Cleared: start that again."
    if verb == "vault":
        (v,) = _numbers(args, command, 1)
        seat = state.frame.actor if state.frame else state.seat
        if step not in ("haul", "prize") and not 0 <= v < len(state.vaults[seat]):
            raise _no(f"{state.players[seat]} has {len(state.vaults[seat])} vaults: there is no vault {v + 1}.")
        if step in ("haul", "prize"):
            return entry, Place(v), ""
        if len(entry.cards) == 2:
            return Entry(), Stash((entry.cards[0], entry.cards[1]), v, entry.flavour), ""
        return replace(entry, vault=v), None, f"Vault {v + 1}: now scan the pair for it."
    if verb in ("flavour", "flavor"):
        flavour = flavour_named(" ".join(args))
        if flavour is None:
            raise BadCommand(command, f"Name a flavour: {', '.join(FLAVOURS)}.")
        if step in ("flavour", "keep"):
            return entry, Declare(flavour), ""
        if len(entry.cards) == 2:
            return _complete(state, replace(entry, flavour=flavour))
        return replace(entry, flavour=flavour), None, f"The Pure Sugars will be {flavour}."
    if verb == "combine":
        a, b = _numbers(args, command, 2)
        return entry, Combine(a, b), ""
    if verb in ("cant", "can't", "draw"):
        return Entry(), CantStash(), ""
    if verb == "from":
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        return replace(entry, giver=p), None, f"Next card from {_who(state, p)}'s hand."
    if verb == "give":
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        if entry.card is None:
            raise _no("Scan the card that changes hands first, then tap who gets it.")
        moves = entry.moves + (Move(entry.card, entry.giver, p),)
        return (replace(entry, moves=moves, card=None, giver=None), None,
                f"{CARDS[entry.card].name} to {_who(state, p)}. Scan more cards, or tap Deal.")
    if verb == "deal":
        if entry.card is not None:
            raise _no(f"First tap who gets the {CARDS[entry.card].name}.")
        return Entry(), Trade(entry.moves), ""
    if verb == "buy" and args == ["vault"] or verb == "newvault":
        if step == "new-vault":
            return entry, NewVault(None), ""
        if entry.pay is None:
            raise _no("Pay first: scan a candy from one of your vaults.")
        return Entry(), rules.BuyVault(entry.pay), ""
    if verb in ("heist", "steal", "target"):
        p, *v = _numbers(args, command, 1, optional=1)
        style = verb
        if verb == "target":
            f = state.frame
            if f is None or step != "target":
                raise _no("There is no Battle Card to target with now.")
            if CARDS[f.card].kind == "attack":
                raise _no("An Attack Card is a Heist or a Steal: tap one of those.")
            style = B.STYLE[CARDS[f.card].name]
        return entry, Target(style, p, v[0] if v else None), ""
    if verb in ("deck", "pile"):
        if len(args) != 1 or not _NUM.fullmatch(args[0]):
            raise BadCommand(command, f"{verb} needs the number of cards counted in the Candy Draw Pile, "
                                      f"from 0 to {len(CANDY_CODES)}, like '{verb} 20'.")
        (n,) = _numbers(args, command, 1)
        return entry, rules.SetPile(n + 1), ""
    if verb == "hand":
        return entry, Place(None), ""
    if verb == "join":
        (p,) = _numbers(args, command, 1)
        _seat_exists(state, p)
        return replace(entry, seat=p), None, f"{_who(state, p)} joins: scan the candy they discard to enter."
    if verb in ("done", "fight", "nomom", "no", "pass"):
        if entry.cards or entry.moves or entry.card or entry.pay:
            raise _no("Finish what you started (or tap Clear) first: " + prompt(state, entry))
        return Entry(), Done(), ""
    raise BadCommand(command, f"I don't know the command {command!r}.")


def _seat_exists(state: State, p: int) -> None:
    if not 0 <= p < len(state.players):
        raise _no(f"There are only {len(state.players)} players.")


# ---------------------------------------------------------------- what to do now

def prompt(state: State, entry: Entry) -> str:
    """What the table should do next, in a few words."""
    if state.over:
        return "Game over: the scores are final."
    if state.frame:
        return _prompt_frame(state, entry)
    who = _who(state, state.seat)
    stage = state.stage
    if stage == STASH:
        if len(entry.cards) == 2:
            if _two_pure(entry.cards, entry):
                return f"{who}: tap the flavour the two Pure Sugars stand for."
            return f"{who}: tap the vault for the pair of {CARDS[entry.cards[0]].name}."
        if entry.cards:
            return f"{who}: scan the partner of the {CARDS[entry.cards[0]].name}, or tap its vault."
        return f"{who}: stash a pair (scan two matching cards)" + (", or tap Done." if state.stashed else
                                                                    ", or tap Can't stash.")
    if stage == REVEAL:
        return f"{who}: flip the top Candy Card and scan it ({len(state.revealed) + 1} of 2)."
    if stage == SWAP:
        if entry.card:
            return f"Tap who gets the {CARDS[entry.card].name}."
        if entry.moves:
            return "Scan more cards in this swap, or tap Deal."
        return f"Swap: scan a card that changes hands and tap who gets it. {who}: tap Done to keep the rest."
    if stage == BUY:
        if state.final:
            return f"{who}: last turn, no buying. Tap Done."
        if entry.pay:
            return f"{who}: scan the card you buy with the {CARDS[entry.pay].name}."
        return f"{who}: pay a candy from a vault to buy, scan a Battle Card to play it, or tap Done."
    if stage == DISCARD:
        return f"{who}: discard down to 6: scan each card you discard."
    if stage == FINAL:
        return f"{who}: stash the pairs left in your hand, then tap Done."
    return ""


def _prompt_frame(state: State, entry: Entry) -> str:
    f = state.frame
    name = CARDS[f.card].name
    actor = _who(state, f.actor)
    step = f.step
    if step == "target":
        if CARDS[f.card].kind == "attack":
            return f"{actor}: tap Heist or Steal on a player's vault."
        return f"{actor}: tap whom to play {name} on."
    if step == "mom":
        return f"{', '.join(_who(state, s) for s in f.waiting)}: scan a Mom to block it, or tap No Mom."
    if step == "duel":
        return f"{_who(state, B.flipper(state))}: flip the top Battle Card and scan it."
    if step == "haul":
        return (f"{actor}: scan up to {f.haul_max - len(f.haul)} more from {_who(state, f.target)}'s vault "
                f"{f.vault + 1}, then tap your vault.")
    if step == "prize":
        return f"{_who(state, f.target)}: scan up to {f.haul_max - len(f.haul)} more from the Discard Pile, then tap Hand or a vault."
    if step == "spy":
        return f"{actor}: scan the Battle Card you take from {_who(state, f.target)}, or tap Done."
    if step == "flavour":
        return f"{actor}: tap a flavour for {name}."
    if step == "keep":
        return f"{actor}: tap the flavour you keep: {', '.join(f.flavours)}."
    if step == "collect":
        return f"{_who(state, f.waiting[0])}: scan every {f.flavours[0]} card from your hand, then tap Done."
    if step == "new-vault":
        return f"{actor}: take a free Vault Card and scan it (or tap Buy vault)."
    if step == "pinata":
        return f"Piñata: turn over the top Candy Card and scan it ({len(f.cards) + 1} of {len(state.players)})."
    if step == "pick":
        return f"{_who(state, f.waiting[0])}: scan the Piñata card you take."
    if step == "join":
        return "Crib Fight: tap Join and scan a Candy Card from your hand to enter; tap Fight to start."
    if step == "royale":
        return f"Battle Royale: {_who(state, f.waiting[0])}, draw a Battle Card and scan it."
    if step == "stash":
        return f"{actor}: stash pairs on vault {f.new_vault + 1}, or tap Done."
    return ""


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
