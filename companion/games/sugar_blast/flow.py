"""Sugar Blast table flow: what a tap or a tilt of the tray means in the current state.

``action_for(state, item)`` turns one input into one rules action, or raises
:class:`IllegalAction` with a message for the table. It never changes anything: a
half-entered swap or refill, or a tilt waiting for the tray to come back level, is kept
in the rules ``State`` through small bookkeeping actions (``PickCandy``, ``SelectCell``,
``DraftCandy``, ``TiltSeen``), so it is stored and replayed like every accepted input.

Touch commands (rows and columns from 0 at the top left, as in ``companion hint``):

==========================  ==========================================================
``palette X``               the candy the next cell taps place (``.`` clears, set-up)
``cell R C``                set-up: place the palette candy; turn: first / second candy
                            of a swap (the same cell again lets go); "No Blasts?": the
                            board candy the palette candy from the bag replaces; refill:
                            place the palette candy in an empty space
``swap R1 C1 R2 C2``        swap two neighbours
``board ROW/ROW/...``       enter the whole board (one letter per cell, ``.`` empty)
``start``                   the board is ready
``blast N``                 solve Blast N (1-based) first
``keep X [Y]``              the candies kept from the Blast being solved
``no-blasts``               nobody can make a Blast (the companion checks)
``draw X R C``              "No Blasts?": candy X from the bag replaces the one at R C
``refill XYZ...``           the refilled candies in refill order (bottom to top)
``return P X Y``            player P (1-based) puts back candies X and Y
``quick KIND X [N]``        quick mode: a KIND (3, 4, 5-6, box) Blast of X removing N
``done``                    quick mode: the spaces are filled / no more Blasts
==========================  ==========================================================

The screen's quick-mode pad builds ``quick KIND X [N]`` from big buttons: the kind and
the count stepper are the window's own menu (``menu quick 5-6 7``, not stored), the
colour tap sends the command. ``hint`` (light up one legal swap) is the window's too.

The tray: ``TrayTilted`` toward the active player's seat while the board waits for a
tilt, then ``TrayLevel``, is ``Tilted(seat)``. A tilt toward another seat, or when there
is nothing to refill, is a gentle warning and changes nothing. Card scans are refused:
Sugar Blast has no cards.

>>> s = rules.new_game(["Ana", "Ben"], "five-different")
>>> action_for(s, Touch("palette R", 0.0))
PickCandy(candy='R')
>>> action_for(s, TrayTilted(1, 20.0, 1.0))
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: The board tipped, but there is nothing to refill yet. Finish entering the board, then tap Start.
"""

from __future__ import annotations

import itertools
import re

from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch, TrayLevel, TrayTilted

from . import board as B
from . import rules

NEW_GAME = "New game: tap a candy colour, then the cells that hold it."


def _no(message: str) -> IllegalAction:
    return IllegalAction(None, message)


def new_entry() -> None:
    """The entry: none yet (the palette, a first tapped candy, the refill draft and a seen
    tilt are still kept in the rules state through the bookkeeping actions)."""
    return None


def read(state: rules.State, entry: None, item: Input) -> tuple[None, rules.Action, str]:
    """The contract's flow step (``companion.core.game``): one input, one action."""
    return None, action_for(state, item), ""


def action_for(state: rules.State, item: Input) -> rules.Action:
    """The rules action this input asks for. Raises :class:`IllegalAction`."""
    if isinstance(item, Touch):
        return _command(state, item.command)
    if isinstance(item, TrayTilted):
        return _tilted(state, item.seat)
    if isinstance(item, TrayLevel):
        return _level(state)
    if isinstance(item, CardScanned):
        raise _no("Sugar Blast has no cards to scan: use the board on the screen.")
    if isinstance(item, ButtonPressed):
        raise _no("Sugar Blast does not use the buttons yet: use the screen.")
    raise _no(f"I don't know what {type(item).__name__} means in Sugar Blast.")


# ---------------------------------------------------------------- the tray

def _tilted(state: rules.State, seat: int) -> rules.Action:
    if state.phase != rules.TILT:
        raise _no("The board tipped, but there is nothing to refill yet. " + rules.waiting(state))
    mine = state.seats[state.active]
    if seat != mine:  # a gentle word; nothing changes
        toward = (state.players[state.seats.index(seat)] if seat in state.seats
                  else f"the {B.SEAT_EDGES.get(seat, 'other')} side")
        raise _no(f"The board tipped toward {toward}. {state.players[state.active]}: tilt it toward you "
                  f"({B.SEAT_EDGES[mine]} of the screen) and let go.")
    action = rules.TiltSeen(seat)
    rules.check(state, action)
    return action


def _level(state: rules.State) -> rules.Action:
    if state.phase == rules.TILT and state.tilt_seen is not None:
        return rules.Tilted(state.tilt_seen)
    if state.phase == rules.TILT:
        who, seat = state.players[state.active], state.seats[state.active]
        raise _no(f"{who}: tilt the board toward you ({B.SEAT_EDGES[seat]} of the screen), hold it, then let go.")
    raise _no("The board is level again. " + prompt(state))


# ---------------------------------------------------------------- taps

_INT = re.compile(r"-?[0-9]{1,3}")


def _ints(args: list[str], n: int, command: str) -> list[int]:
    if len(args) < n or not all(_INT.fullmatch(a) for a in args[:n]):
        raise BadCommand(command, f"I don't understand {command!r}: it needs {n} numbers.")
    return [int(a) for a in args[:n]]


def _letters(args: list[str]) -> tuple[str, ...]:
    return tuple(ch for a in args for ch in a.upper())


def _command(state: rules.State, command: str) -> rules.Action:
    words = command.strip().split()
    verb, args = (words[0].lower(), words[1:]) if words else ("", [])
    if verb == "palette" and len(args) == 1:
        return rules.PickCandy(args[0].upper())
    if verb == "cell":
        r, c = _ints(args, 2, command)
        return _cell(state, (r, c))
    if verb == "swap" and len(args) == 4:
        r1, c1, r2, c2 = _ints(args, 4, command)
        return rules.SwapCandies((r1, c1), (r2, c2))
    if verb == "board" and args:
        try:
            board = B.parse_board("\n".join(" ".join(args).replace("/", " ").split()))
        except B.BoardError as err:
            raise _no(str(err)) from None
        return rules.SetBoard(board)
    if verb == "start":
        return rules.StartGame()
    if verb == "blast" and len(args) == 1:
        return rules.ChooseBlast(_ints(args, 1, command)[0] - 1)
    if verb == "keep" and args:
        return rules.KeepCandies(_letters(args))
    if verb == "no-blasts":
        return rules.NoMoreBlasts()
    if verb == "draw" and len(args) == 3:
        r, c = _ints(args[1:], 2, command)
        return rules.NoBlastsDraw(args[0].upper(), (r, c))
    if verb == "refill":
        return _refill(state, "".join(args).upper())
    if verb == "return" and len(args) >= 2:
        return rules.ReturnCandies(_ints(args, 1, command)[0] - 1, _letters(args[1:]))
    if verb == "quick" and len(args) in (2, 3):
        count = _ints(args[2:], 1, command)[0] if len(args) == 3 else None
        return rules.QuickBlast(args[0].lower(), args[1].upper(), count)
    if verb == "done":
        return _done(state)
    raise BadCommand(command, f"I don't know the command {command!r}.")


def _cell(state: rules.State, cell: B.Cell) -> rules.Action:
    """One tap on the board: what it means depends on the phase and what came before."""
    if state.quick:
        raise _no("Quick mode has no board on the screen: enter each Blast with the buttons.")
    if state.phase == rules.SETUP:
        if state.palette is None:
            raise _no("Tap a candy colour first, then the cells that hold it.")
        return rules.PlaceCandy(cell[0], cell[1], state.palette)
    if state.phase == rules.TURN:
        if B.no_blasts(state.board) and state.palette is not None:
            return rules.NoBlastsDraw(state.palette, cell)
        if state.selected is None or not B.neighbours(state.selected, cell):
            return rules.SelectCell(None if state.selected == cell else cell)
        return rules.SwapCandies(state.selected, cell)
    if state.phase == rules.REFILL:
        if state.palette is None:
            raise _no("Tap the colour of the candy from the bag first, then its space.")
        placed = dict(state.draft)
        placed[cell] = state.palette
        if set(placed) == set(B.empty_cells(state.board)) and cell in placed:
            return rules.Refill.of(placed)  # the last space: the whole refill is checked now
        return rules.DraftCandy(cell, state.palette)
    raise _no(rules.waiting(state))


def _refill(state: rules.State, letters: str) -> rules.Action:
    if state.phase != rules.REFILL or state.quick:
        raise _no(rules.waiting(state) if state.phase != rules.REFILL else "Quick mode: just tap Done.")
    order = B.refill_order(state.board, state.seats[state.active])
    if len(letters) != len(order):
        raise _no(f"Fill every empty space: {len(order)} candies, one in each.")
    return rules.Refill.of(dict(zip(order, letters)))


def _done(state: rules.State) -> rules.Action:
    if state.phase == rules.SETUP:
        return rules.StartGame()
    if state.phase == rules.REFILL:
        return rules.Refill(() if state.quick else tuple(state.draft))
    return rules.NoMoreBlasts()


# ---------------------------------------------------------------- choices for the screen

def keep_options(state: rules.State) -> list[tuple[str, ...]]:
    """Each legal choice of candies to keep from the Blast being solved (KEEP phase)."""
    if state.phase != rules.KEEP or not state.pending:
        return []
    blast = state.pending[0]
    mine = (blast.candy,) * blast.keep_matched
    if not blast.keep_other:
        return [mine]
    if state.quick:
        others = [k for k, n in zip(rules.KINDS, state.supply) if n and k != blast.candy]
    else:
        removed = {state.board[r][c] for r, c in blast.removes}
        others = [k for k in rules.KINDS if k in removed and k != blast.candy]
    return [mine + (k,) for k in others]


def return_options(state: rules.State) -> tuple[int, list[tuple[str, ...]]] | None:
    """The next player to put candies back (RETURN phase) and their possible choices."""
    if state.phase != rules.RETURN or not state.to_return:
        return None
    p = state.to_return[0]
    have = state.kept[p]
    n = min(rules.RETURN_EACH, sum(have))
    pool = [k for k, c in zip(rules.KINDS, have) for _ in range(min(c, n))]
    return p, sorted(set(itertools.combinations(pool, n)), key=lambda ks: [rules.KINDS.index(k) for k in ks])


def prompt(state: rules.State, entry: None = None) -> str:
    """What the table should do next, in a few words, for the screen."""
    who = state.players[state.active]
    phase = state.phase
    if phase == rules.SETUP:
        if state.quick:
            return "Quick mode: fill the board from the bag, then tap Start."
        return f"Tap a colour, then its cells ({state.on_board_n} of {rules.CELLS}). Tap Start when full."
    if phase == rules.TURN and not state.quick:
        if state.selected is not None:
            return f"{who}: tap a candy next to it to swap, or tap it again to let go."
        if B.no_blasts(state.board):
            return (f"No Blasts! {who}: take 1 candy from the bag, tap its colour, then the candy it replaces."
                    if rules.can_draw(state) else f"No Blasts and the bag is empty: tap No Blasts to pass.")
        return f"{who}: tap two candies next to each other to swap them."
    if phase == rules.TURN:
        return f"{who}: tap the Blast you made, then its colour. None? Tap No more Blasts."
    if phase == rules.CASCADE and state.quick:
        return f"{who}: a new Blast? Tap its kind, then its colour. If not, tap No more Blasts."
    if phase == rules.TILT and state.tilt_seen is not None:
        return f"{who}: now let the board go back level."
    if phase == rules.REFILL:
        n = state.holes - len(state.draft)
        tail = " then tap Done." if state.quick else ": tap a colour, then the space."
        return f"Fill {n} space{'s' * (n != 1)} from the bag, bottom to top{tail}"
    if phase == rules.RETURN:
        names = " and ".join(state.players[p] for p in state.to_return)
        return f"Not enough candies: {names}, put {rules.RETURN_EACH} of your candies back in the bag."
    if phase == rules.OVER:
        return "Game over."
    return rules.waiting(state)
