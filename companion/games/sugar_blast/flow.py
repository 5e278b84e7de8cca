"""Sugar Blast table flow: what a tap or a tilt of the tray means in the current state.

``read(state, entry, item)`` turns one input into one rules action, or only changes the
half-entered :class:`Entry` (a palette colour, the first candy of a swap, refill
candies tapped so far, a tilt seen before the tray is level again), or raises
:class:`IllegalAction` / :class:`BadCommand` with a message for the table. It never
changes anything; the session stores every accepted input and rebuilds the entry on
replay like the rules state.

Touch commands (rows and columns as in ``companion hint --json``: from 0 at the top
left; the screen's buttons send them, and people read every row and column from 1):

==========================  ==========================================================
``palette X``               the candy the next cell taps place (``.`` clears, set-up)
``cell R C``                set-up: place the palette candy; turn: first / second candy
                            of a swap (the same cell again lets go); "No Blasts?": the
                            board candy the palette candy from the bag replaces; refill:
                            place the palette candy in an empty space
``swap R1 C1 R2 C2``        swap two neighbours
``board ROW/ROW/...``       enter the whole board (one letter per cell, ``.`` empty)
``deal [N]``                "Set up from the screen": the table draws a legal starting
                            board (seed N; without N, the tap's time in milliseconds,
                            stored with the input) and the players lay it out as shown
``ready``                   the board is ready (the screen's Start and Ready): a forced
                            keep (one legal choice) is then taken without a tap
``start``                   the board is ready, every keep asked (as recorded games began)
``blast N``                 solve Blast N (1-based) first
``keep X [Y]``              the candies kept from the Blast being solved (letters or names)
``no-blasts``               nobody can make a Blast (the companion checks)
``draw X R C``              "No Blasts?": candy X from the bag replaces the one at R C
``tilt``                    "Tilted": the board was tilted toward the player and let go
                            (for a table without a working tray sensor; while one is
                            connected the screen asks to confirm before it sends this)
``refill XYZ...``           the refilled candies in refill order (nearest the tilting seat first)
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
>>> read(s, new_entry(), Touch("palette R", 0.0))
(Entry(palette='R', selected=None, draft=(), tilt_seen=None), None, 'Red: now tap the cells.')
>>> read(s, new_entry(), TrayTilted(1, 20.0, 1.0))
Traceback (most recent call last):
...
companion.core.errors.IllegalAction: The board tipped, but there is nothing to refill yet. Finish entering the board, then tap Start.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from companion.core.game import Flow as CoreFlow
from companion.core.catalogue import from_other_game
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Input, Touch, TouchCommand, TrayLevel, TrayTilted
from companion.core.game import Command

from .parts import board as B
from .parts import checks
from .parts import deal as D
from . import rules
from .messages import candy as candy_name, count, order_words, say

NEW_GAME = say("new_game")


def _no(message: str) -> IllegalAction:
    return IllegalAction(None, message)


@dataclass(frozen=True)
class Entry:
    """What the table has tapped in that is not yet a rule action.

    ``palette`` the candy the next cell tap places (kept across actions); ``selected``
    the first candy tapped for a swap; ``draft`` refill candies tapped so far
    (``((row, col), candy)`` pairs); ``tilt_seen`` the seat the tray tilted toward, the
    tilt counting when it is level again.
    """

    palette: str | None = None
    selected: B.Cell | None = None
    draft: tuple[tuple[B.Cell, str], ...] = ()
    tilt_seen: int | None = None

    def after_action(self) -> "Entry":
        """A rule action ends whatever was half tapped in; the palette colour stays."""
        return Entry(palette=self.palette)


def _cells(s) -> list[str]:
    return [f"cell {r} {c}" for r in range(B.ROWS) for c in range(B.COLS)]


def _boards(s) -> list[str]:
    """A whole board to type at set-up (one the table could draw), to test ``board`` with."""
    if s.phase != rules.SETUP or s.quick:
        return []
    return ["board " + "/".join(D.deal(0, s.supply))]


def _swaps(s) -> list[str]:
    return [f"swap {r} {c} {r + dr} {c + dc}" for r in range(B.ROWS) for c in range(B.COLS)
            for dr, dc in ((0, 1), (1, 0)) if r + dr < B.ROWS and c + dc < B.COLS]


#: The touch commands (``companion.core.commands``): what each is typed as, its buttons' words.
#: Rows and columns count from 0 at the top left, as ``companion hint --json`` does.
COMMANDS = (
    Command("palette X", tries=tuple(f"palette {k}" for k in B.KINDS + (B.EMPTY,))),
    Command("cell R C", tries=_cells),
    Command("swap R1 C1 R2 C2", tries=_swaps),
    Command("board ROW/ROW/...", tries=_boards),
    Command("deal [N]", (say("screen_deal"),), tries=("deal",)),
    Command("ready", (say("screen_ready"), say("screen_start"))),
    Command("start", tries=lambda s: []),  # the recorded games' start: known, never offered (Start sends ready)
    Command("blast N", tries=lambda s: [f"blast {n}" for n in range(1, len(s.pending or ()) + 1)]),
    Command("keep X [Y]", (say("keep_button"),), tries=lambda s: ["keep " + " ".join(k) for k in keep_options(s)]),
    Command("no-blasts", ("No Blasts?",)),
    Command("tilt", (say("screen_tilted"), say("screen_tilt_yes"))),
    Command("return P X Y", tries=lambda s: [f"return {p + 1} " + " ".join(k)
                                               for p, ks in [return_options(s) or (0, [])] for k in ks]),
    Command("refill XYZ...", tries=()),
    Command("quick KIND X [N]", tries=lambda s: [f"quick {kind} {k}" for kind in ("3", "4", "5-6", "box")
                                                 for k in B.KINDS] if s.quick else []),
    # at set-up Done starts the game as Ready does (recorded games use it): offered once, as Ready
    Command("done", ("Done", say("screen_no_more")), tries=lambda s: [] if s.phase == rules.SETUP else ["done"]),
)


def new_entry() -> Entry:
    return Entry()


Read = tuple[Entry, "rules.Action | None", str]


def read(state: rules.State, entry: Entry | None, item: Input) -> Read:
    """The contract's flow step (``companion.core.game``): ``(entry, action, message)``,
    action None when the input only changed the entry (``message`` says what it did)."""
    entry = entry or Entry()
    if isinstance(item, Touch):
        return _command(state, entry, item.parsed, item.t)
    if isinstance(item, TrayTilted):
        return _tray_tilted(state, entry, item.seat)
    if isinstance(item, TrayLevel):
        return _level(state, entry)
    if isinstance(item, CardScanned):
        other = from_other_game(item.code, "Sugar Blast")
        if other is not None:  # another game's card: say which, as every game does
            raise _no(say("no_cards_other", game=other.game or "no game I know"))
        raise _no(say("no_cards"))
    if isinstance(item, ButtonPressed):
        raise _no(say("no_buttons"))
    raise _no(say("unknown_input", what=type(item).__name__))


def action_for(state: rules.State, item: Input, entry: Entry | None = None) -> "rules.Action | None":
    """The rules action this input asks for (None: it only changes the entry)."""
    return read(state, entry, item)[1]


def _act(entry: Entry, action) -> Read:
    return entry.after_action(), action, ""


# ---------------------------------------------------------------- the tray

def _tray_tilted(state: rules.State, entry: Entry, seat: int) -> Read:
    if state.phase != rules.TILT:
        raise _no(say("tilt_not_now", waiting=rules.waiting(state)))
    checks.check(state, rules.Tilted(seat))  # a tilt toward another seat: a gentle word, nothing changes
    who = state.players[state.active]
    return replace(entry, tilt_seen=seat), None, say("tilt_seen", who=who)


def _level(state: rules.State, entry: Entry) -> Read:
    if state.phase == rules.TILT and entry.tilt_seen is not None:
        return _act(entry, rules.Tilted(entry.tilt_seen))
    if state.phase == rules.TILT:
        who, seat = state.players[state.active], state.seats[state.active]
        raise _no(say("tilt_hold", who=who, edge=B.SEAT_EDGES[seat]))
    raise _no(say("level_again", prompt=prompt(state, entry)))


def _tilt_tap(state: rules.State, entry: Entry) -> Read:
    """"Tilted": the tilt toward the active player and the release, done by hand, for a
    table whose tray sensor is missing or offline. (The screen, which sees the devices,
    asks to confirm first while a sensor is connected: ``screen`` ``menu tilt``.)"""
    if state.phase != rules.TILT:
        raise _no(say("tilt_nothing", waiting=rules.waiting(state)))
    return _act(entry, rules.Tilted(state.seats[state.active]))


# ---------------------------------------------------------------- taps

_INT = re.compile(r"-?[0-9]{1,3}")


def _ints(args: list[str], n: int, command: str) -> list[int]:
    if len(args) < n or not all(_INT.fullmatch(a) for a in args[:n]):
        raise BadCommand(command, say("needs_numbers", command=command, n=n))
    return [int(a) for a in args[:n]]


#: A candy's name as typed ("green") -> its letter: ``/keep Green`` is ``/keep G``.
_BY_NAME = {name.lower(): letter for letter, name in B.NAMES.items()}


def _letters(args: list[str]) -> tuple[str, ...]:
    """The candies typed after ``keep`` or ``return P``: letters ("G R", "GR") or the
    colours' names as the prompt says them ("Green Red")."""
    return tuple(ch for a in args for ch in (_BY_NAME.get(a.lower()) or a.upper()))


def _command(state: rules.State, entry: Entry, said: TouchCommand, t: float = 0.0) -> Read:
    command, verb, args = said.text, said.verb, list(said.args)
    if verb == "palette" and len(args) == 1:
        return _palette(state, entry, args[0].upper())
    if verb == "cell":
        r, c = _ints(args, 2, command)
        return _cell(state, entry, (r, c))
    if verb == "swap":  # four numbers: the two neighbours (a bare "swap" says so)
        r1, c1, r2, c2 = _ints(args, 4, command)
        return _act(entry, rules.SwapCandies((r1, c1), (r2, c2)))
    if verb == "board":
        try:
            board = B.parse_board("\n".join(" ".join(args).replace("/", " ").split()))
        except B.BoardError as err:
            raise _no(err.args[0]) from None  # the message itself, which keeps its key (its Why?)
        return _act(entry, rules.SetBoard(board))
    if verb == "deal":
        return _deal(state, entry, args, t, command)
    if verb == "ready" and not args:
        return _act(entry, rules.StartGame(auto_keep=True))
    if verb == "start":
        return _act(entry, rules.StartGame())
    if verb == "blast" and len(args) == 1:
        return _act(entry, rules.ChooseBlast(_ints(args, 1, command)[0] - 1))
    if verb == "keep" and args:
        return _act(entry, rules.KeepCandies(_letters(args)))
    if verb == "no-blasts":
        return _no_blasts(state, entry)
    if verb == "draw" and len(args) == 3:
        r, c = _ints(args[1:], 2, command)
        return _act(entry, rules.NoBlastsDraw(args[0].upper(), (r, c)))
    if verb == "tilt" and not args:
        return _tilt_tap(state, entry)
    if verb == "refill":
        return _refill(state, entry, "".join(args).upper())
    if verb == "return" and len(args) >= 2:
        return _act(entry, rules.ReturnCandies(_ints(args, 1, command)[0] - 1, _letters(args[1:])))
    if verb == "quick" and len(args) in (2, 3):
        n = _ints(args[2:], 1, command)[0] if len(args) == 3 else None
        return _act(entry, rules.QuickBlast(args[0].lower(), args[1].upper(), n))
    if verb == "done":
        return _done(state, entry)
    raise BadCommand(command, say("unknown_command", command=command))


def _palette(state: rules.State, entry: Entry, candy: str) -> Read:
    """The palette: legal where a cell tap places a candy (set-up, "No Blasts?", refill)."""
    checks.need(state, (rules.SETUP, rules.TURN, rules.REFILL), twin=True)
    if state.phase == rules.TURN and not B.no_blasts(state.board):
        raise _no(rules.waiting(state))
    if candy != B.EMPTY or state.phase != rules.SETUP:
        checks.candy_ok(state, candy)
    said = say("palette_empty") if candy == B.EMPTY else say("palette_picked", candy=candy_name(candy))
    return replace(entry, palette=candy), None, said


def _deal(state: rules.State, entry: Entry, args: list[str], t: float, command: str) -> Read:
    """"Set up from the screen": the board the table draws (``parts.deal``) for seed
    ``N``, or without one for the tap's time ``t`` (stored with the input, so a resume,
    an Undo and a replay draw the same board). Refused in quick mode (no board on the
    screen) and after set-up, as any set-up entry is."""
    if state.quick and state.phase == rules.SETUP:
        raise _no(say("deal_quick"))
    checks.need(state, rules.SETUP, twin=True)
    if len(args) > 1 or (args and not (re.fullmatch(r"[0-9]{1,10}", args[0]) and int(args[0]) <= D.SEED_MAX)):
        raise BadCommand(command, say("deal_number", command=command))
    seed = int(args[0]) if args else D.seed_of_time(t)
    return _act(entry, rules.DealBoard(D.deal(seed, state.supply), seed))


def _no_blasts(state: rules.State, entry: Entry) -> Read:
    """"No Blasts?": when it is right and a candy can be drawn, a step (draw one), never
    a refusal; with an empty bag the turn passes."""
    if not state.quick and state.phase == rules.TURN and B.no_blasts(state.board) and rules.can_draw(state):
        return replace(entry, selected=None), None, say("no_blasts_right")
    return _act(entry, rules.NoMoreBlasts())


def _cell(state: rules.State, entry: Entry, cell: B.Cell) -> Read:
    """One tap on the board: what it means depends on the phase and what came before."""
    if state.quick:
        raise _no(say("quick_no_cells"))
    if state.phase == rules.SETUP:
        if entry.palette is None:
            raise _no(say("palette_first"))
        return entry, rules.PlaceCandy(cell[0], cell[1], entry.palette), ""
    if state.phase == rules.TURN:
        if B.no_blasts(state.board) and entry.palette is not None:
            return _act(entry, rules.NoBlastsDraw(entry.palette, cell))
        if entry.selected is not None and B.neighbours(entry.selected, cell):
            return _act(entry, rules.SwapCandies(entry.selected, cell))
        if entry.selected == cell:
            return replace(entry, selected=None), None, say("swap_cancelled")
        if not checks.cell_ok(cell) or state.board[cell[0]][cell[1]] == B.EMPTY:
            raise _no(say("tap_a_candy"))
        name = candy_name(state.board[cell[0]][cell[1]])
        return replace(entry, selected=cell), None, say("selected", candy=name)
    if state.phase == rules.REFILL:
        return _draft(state, entry, cell)
    raise _no(rules.waiting(state))


def _draft(state: rules.State, entry: Entry, cell: B.Cell) -> Read:
    """A refill candy tapped in; the tap that fills the last space is the ``Refill``."""
    if entry.palette is None or entry.palette == B.EMPTY:
        raise _no(say("refill_colour_first"))
    if not checks.cell_ok(cell) or state.board[cell[0]][cell[1]] != B.EMPTY:
        raise _no(say("refill_space_full"))
    checks.candy_ok(state, entry.palette)
    placed = dict(entry.draft)
    placed[cell] = entry.palette
    if set(placed) == set(B.empty_cells(state.board)):
        return _act(entry, rules.Refill.of(placed))  # the last space: the whole refill is checked now
    if not rules.fits(rules.counts(placed.values()), rules.plus(state.bag, state.discards)):
        raise _no(say("refill_none_left", candy=candy_name(entry.palette)))
    left = state.holes - len(placed)
    said = say("refill_placed", candy=candy_name(entry.palette), spaces=count(left, "space"))
    return replace(entry, draft=tuple(sorted(placed.items()))), None, said


def _refill(state: rules.State, entry: Entry, letters: str) -> Read:
    if state.phase != rules.REFILL or state.quick:
        raise _no(rules.waiting(state) if state.phase != rules.REFILL else say("quick_done"))
    order = B.refill_order(state.board, state.seats[state.active])
    if len(letters) != len(order):
        raise _no(say("refill_every", n_candies=count(len(order), "candy")))
    return _act(entry, rules.Refill.of(dict(zip(order, letters))))


def _done(state: rules.State, entry: Entry) -> Read:
    if state.phase == rules.SETUP:
        return _act(entry, rules.StartGame())
    if state.phase == rules.REFILL:
        return _act(entry, rules.Refill(() if state.quick else tuple(entry.draft)))
    return _no_blasts(state, entry)


# ---------------------------------------------------------------- choices for the screen

def keep_options(state: rules.State) -> list[tuple[str, ...]]:
    """Each legal choice of candies to keep from the Blast being solved (KEEP phase):
    :func:`rules.keep_choices`."""
    return rules.keep_choices(state)


def return_options(state: rules.State) -> tuple[int, list[tuple[str, ...]]] | None:
    """The next player to put candies back (RETURN phase) and their possible choices."""
    if state.phase != rules.RETURN or not state.to_return:
        return None
    p = state.to_return[0]
    have = state.kept[p]
    n = min(rules.RETURN_EACH, sum(have))
    pool = [k for k, c in zip(rules.KINDS, have) for _ in range(min(c, n))]
    return p, sorted(set(itertools.combinations(pool, n)), key=lambda ks: [rules.KINDS.index(k) for k in ks])


def prompt(state: rules.State, entry: Entry | None = None) -> str:
    """What the table should do next, in a few words, for the screen."""
    entry = entry or Entry()
    who = state.players[state.active]
    phase = state.phase
    if phase == rules.SETUP:
        if state.quick:
            return say("prompt_setup_quick")
        if state.dealt is not None:
            return say("prompt_dealt")
        return say("prompt_setup", on=state.on_board_n, cells=rules.CELLS)
    if phase == rules.TURN and not state.quick:
        if entry.selected is not None:
            return say("prompt_selected", who=who)
        if B.no_blasts(state.board):
            return say("prompt_no_blasts_draw", who=who) if rules.can_draw(state) else say("prompt_no_blasts_pass")
        return say("prompt_swap", who=who)
    if phase == rules.TURN:
        return say("prompt_quick_turn", who=who)
    if phase == rules.CASCADE and state.quick:
        return say("prompt_quick_cascade", who=who)
    if phase == rules.KEEP and state.pending:  # the screen's Keep buttons; typed /keep and the letters
        return say("prompt_keep", who=who, keep=checks.keep_words(state.pending[0]))
    if phase == rules.TILT and entry.tilt_seen is not None:
        return say("prompt_let_go", who=who)
    if phase == rules.REFILL:
        n = state.holes - len(entry.draft)
        return say("prompt_refill_quick" if state.quick else "prompt_refill", spaces=count(n, "space"),
                   order=order_words(B.SEAT_EDGES[state.seats[state.active]]))
    if phase == rules.RETURN:
        names = " and ".join(state.players[p] for p in state.to_return)
        return say("prompt_return", names=names, n=rules.RETURN_EACH)
    if phase == rules.OVER:
        return say("prompt_over")
    return rules.waiting(state)


def lesson(view: rules.State, entry) -> str | None:
    """A first game's prompt for this step, in the rulebook's words ("Gameplay", "Every
    Time You Make a Blast"); quick mode keeps its own prompts."""
    if view.quick:
        return None
    key = {rules.SETUP: "lesson_setup", rules.TURN: "lesson_turn", rules.CHOOSE: "lesson_choose",
           rules.KEEP: "lesson_keep", rules.TILT: "lesson_tilt", rules.REFILL: "lesson_refill",
           rules.CASCADE: "lesson_cascade"}.get(view.phase)
    if key is None:
        return None
    return say(key, who=view.players[view.active], order=order_words(B.SEAT_EDGES[view.seats[view.active]]))


def undo_words(before: rules.State, item, action, events: tuple) -> str | None:
    """What an Undo of this input takes back, named from the action it made (candies by
    their colours, cells by row and column): "Mia's swap of the candies at row 3, column
    2 and row 3, column 3" (None: the table's words for it)."""
    from companion.core.i18n import listing

    from .messages import blast_name, where

    who = before.players[before.active] if before.players else ""
    kept = lambda kinds: listing([candy_name(k) for k in kinds]) or "nothing"  # noqa: E731
    s = rules
    words = {
        s.PlaceCandy: lambda a: say("undo_place", candy=candy_name(a.candy), cell=where((a.row, a.col))),
        s.SetBoard: lambda a: say("undo_board"),
        s.StartGame: lambda a: say("undo_start"),
        s.SwapCandies: lambda a: say("undo_swap", who=who, a=where(a.a), b=where(a.b)),
        s.NoBlastsDraw: lambda a: say("undo_draw", who=who, candy=candy_name(a.candy), cell=where(a.cell)),
        s.QuickBlast: lambda a: say("undo_quick", who=who, blast=blast_name(a.kind), candy=candy_name(a.candy)),
        s.NoMoreBlasts: lambda a: say("undo_no_more", who=who),
        s.ChooseBlast: lambda a: say("undo_choose", who=who, n=a.index + 1),
        s.KeepCandies: lambda a: say("undo_keep", who=who, kept=kept(a.kinds)),
        s.Tilted: lambda a: say("undo_tilt", who=who),
        s.ReturnCandies: lambda a: say("undo_return", who=before.players[a.player], kept=kept(a.kinds)),
        s.Refill: lambda a: say("undo_refill", n_candies=count(len(a.cells), "candy")),
    }.get(type(action))
    return words(action) if words is not None else None


class SugarBlastFlow(CoreFlow[rules.State]):
    """Sugar Blast's flow as the table's contract, :class:`companion.core.game.Flow` (rulebooks/sugar-blast.txt)."""

    commands = COMMANDS
    new_entry = staticmethod(new_entry)
    read = staticmethod(read)
    prompt = staticmethod(prompt)
    undo_words = staticmethod(undo_words)
    lesson = staticmethod(lesson)


#: The one SugarBlastFlow, which the descriptor's loader gives.
FLOW = SugarBlastFlow()
