"""Sugar Blast legality: ``check(state, action)`` raises :class:`IllegalAction` with a
message a child can read, or returns when the action is legal now.

One small function per action (:data:`CHECKS`), each stating the rule it checks
(rulebook sections in its docstring). Pure; imports only ``companion.core``, this game's
``board``, ``actions`` and ``messages``.
"""

from __future__ import annotations

from typing import Callable

from companion.core.errors import IllegalAction

from . import board as B
from ..state import (CASCADE, CELLS, CHOOSE, KEEP, KINDS, OVER, PER_KIND, REFILL, RETURN, RETURN_EACH, SETUP, TILT,
                     TURN, Board, Cell, ChooseBlast, DealBoard, KeepCandies, NoBlastsDraw, NoMoreBlasts, PlaceCandy, QuickBlast,
                     Refill, ReturnCandies, SetBoard, StartGame, State, SwapCandies, Tilted, fits, words, counts,
                     minus)
from ..messages import blast_list, blast_name, candy as candy_name, count, line_of, numbers, say, where


def _no(message: str) -> IllegalAction:
    return IllegalAction(None, message)


def cell_ok(cell: Cell) -> bool:
    return len(cell) == 2 and 0 <= cell[0] < B.ROWS and 0 <= cell[1] < B.COLS


def candy_ok(state: State, candy: str) -> None:
    """Raise unless ``candy`` is a candy of this game (orange is out in solo)."""
    if candy not in KINDS:
        raise _no(say("not_a_candy", letter=candy, letters=" ".join(KINDS)))
    if state.supply[KINDS.index(candy)] == 0:
        raise _no(say("out_in_solo", candy=candy_name(candy)))


def waiting(state: State) -> str:
    """What the game waits for, as the reason an input out of place is refused."""
    who = state.players[state.active]
    key = {SETUP: "wait_setup", TURN: "wait_turn_quick" if state.quick else "wait_turn", CHOOSE: "wait_choose",
           KEEP: "wait_keep", TILT: "wait_tilt", RETURN: "wait_return", REFILL: "wait_refill",
           CASCADE: "wait_cascade", OVER: "over"}[state.phase]
    if state.phase == CHOOSE:
        return say(key, who=who, blasts=blast_list(state.pending))
    return say(key, who=who)


def need(state: State, phase: str | tuple[str, ...], twin: bool | None = None) -> None:
    """Raise unless the game is in ``phase`` (and has a twin board when ``twin``)."""
    if state.phase not in ((phase,) if isinstance(phase, str) else phase):
        raise _no(waiting(state))
    if twin is not None and twin == state.quick:
        raise _no(say("quick_only") if not twin else say("quick_no_board"))


def can_draw(state: State) -> bool:
    """Can "No Blasts?" be played: a candy in the bag and a different one on the board?
    When it cannot (the bag is empty), the turn simply passes (``NoMoreBlasts``)."""
    on = set("".join(state.board)) - {B.EMPTY}
    return any(n and (on - {k}) for k, n in zip(KINDS, state.bag))


def quick_allowed(kind: str) -> tuple[int, ...]:
    """How many candies a Blast of ``kind`` can remove from a full board (quick mode
    enters Blasts only on a full board: after the swap, or after a refill):
    3-Blast 3; 4-Blast a whole row or column; Box-Blast the 3 x 3 box round a T, L or +
    of 5; 5-6-Blast every candy of its colour, at least the 5 matched, at most all 12 of
    the kind (``cards.toml``). Empty for an unknown kind."""
    return {"3": (3,), "4": tuple(sorted({B.ROWS, B.COLS})), "box": (9,),
            "5-6": tuple(range(5, PER_KIND + 1))}.get(kind, ())


def quick_count(action: QuickBlast) -> int | None:
    """Candies a quick-mode Blast removes (a kind with one number needs none entered),
    or None when the count entered is not one that kind can remove."""
    allowed = quick_allowed(action.kind)
    if action.count is None:
        return allowed[0] if len(allowed) == 1 else None
    return action.count if action.count in allowed else None


def check_board(state: State, board: Board) -> None:
    if len(board) != B.ROWS or any(len(row) != B.COLS for row in board):
        raise _no(say("board_shape", rows=B.ROWS, cols=B.COLS))
    for ch in "".join(board):
        if ch != B.EMPTY:
            candy_ok(state, ch)
    for k, n in B.census(board).items():
        if n > state.supply[KINDS.index(k)]:
            raise _no(say("too_many_of", n_candies=f"{n} {candy_name(k)} candies",
                          most=state.supply[KINDS.index(k)]))


# ---------------------------------------------------------------- one check per action

def _place(state: State, action: PlaceCandy) -> None:
    """Set-up: "place [candies] on the board until it is full" (rulebook, "Setup")."""
    need(state, SETUP, twin=True)
    if not cell_ok((action.row, action.col)):
        raise _no(say("no_such_cell", cell=where((action.row, action.col))))
    check_board(state, B.put(state.board, (action.row, action.col), action.candy))


def _set_board(state: State, action: SetBoard) -> None:
    need(state, SETUP, twin=True)
    check_board(state, tuple(action.board))


def _deal(state: State, action: DealBoard) -> None:
    """"Set up from the screen": a board the table drew must be one the rulebook's set-up
    gives, full and with no 3 in a line (rulebook, "Setup"); not in quick mode, which has
    no board on the screen to lay out from."""
    need(state, SETUP, twin=True)
    check_board(state, tuple(action.board))
    _full_and_no_runs(tuple(action.board))


def _start(state: State, action: StartGame) -> None:
    """"There cannot be 3 or more Candies of the same type connected in a row or column"
    (rulebook, "Setup"); the board must be full."""
    need(state, SETUP)
    if state.quick:
        return
    _full_and_no_runs(state.board)


def _full_and_no_runs(board: Board) -> None:
    """Raise unless ``board`` is full and has no 3 or more of a kind in a line (rulebook, "Setup")."""
    holes = B.empty_cells(board)
    if holes:
        raise _no(say("cell_empty") if len(holes) == 1 else say("cells_empty", n=len(holes)))
    found = B.start_runs(board)
    if found:
        run = found[0]
        raise _no(say("start_run", n=len(run.cells), candy=candy_name(run.candy), line=line_of(run.cells)))


def _swap(state: State, action: SwapCandies) -> None:
    """A swap of two neighbours that makes a Blast (rulebook, "Gameplay")."""
    need(state, TURN, twin=True)
    a, b = tuple(action.a), tuple(action.b)
    if not (cell_ok(a) and cell_ok(b) and B.neighbours(a, b)):
        raise _no(say("swap_neighbours"))
    if not B.makes_blast(state.board, a, b):
        raise _no(say("swap_no_blast"))


def _draw(state: State, action: NoBlastsDraw) -> None:
    """"No Blasts?": only when no swap makes one; a bag candy replaces a board candy of a
    different type (rulebook, "No Blasts?")."""
    need(state, TURN, twin=True)
    if not B.no_blasts(state.board):
        raise _no(say("still_a_blast"))
    candy_ok(state, action.candy)
    if state.bag[KINDS.index(action.candy)] == 0:
        raise _no(say("bag_lacks", candy=candy_name(action.candy)))
    cell = tuple(action.cell)
    if not cell_ok(cell) or state.board[cell[0]][cell[1]] == action.candy:
        raise _no(say("draw_different"))


def _quick(state: State, action: QuickBlast) -> None:
    """Quick mode: a Blast entered by kind, colour and (for a 5-6-Blast) how many it
    removed; each kind only with a number that Blast can remove."""
    need(state, (TURN, CASCADE), twin=False)
    allowed = quick_allowed(action.kind)
    if not allowed:
        raise _no(say("quick_kind"))
    candy_ok(state, action.candy)
    n = quick_count(action)
    if n is None or n > state.on_board_n:
        raise _no(say("quick_count", blast=blast_name(action.kind), allowed=numbers(allowed)))


def _no_more(state: State, action: NoMoreBlasts) -> None:
    """Quick mode: the turn ends. With a twin: "No Blasts?" with an empty bag passes."""
    if state.quick:
        return need(state, (TURN, CASCADE))
    need(state, TURN)
    if not B.no_blasts(state.board):
        raise _no(say("still_a_blast"))
    if can_draw(state):
        raise _no(say("no_blasts_right"))


def _choose(state: State, action: ChooseBlast) -> None:
    """"If there are 2 or more Blasts at the same time, choose 1 to solve before the
    other" (rulebook, "Gameplay")."""
    need(state, CHOOSE)
    if not 0 <= action.index < len(state.pending):
        raise _no(say("choose_range", n=len(state.pending)))


def keep_words(blast) -> str:
    """What ``blast`` lets its player keep, in words: "keep 1 Green", "keep 1 Green and 1
    candy of another kind", "keep 2 Green" (rulebook, "Gameplay")."""
    name = candy_name(blast.candy)
    if blast.keep_matched == 2:
        return f"keep 2 {name}"
    return say("keep_one_other" if blast.keep_other else "keep_one", candy=name)


def _keep(state: State, action: KeepCandies) -> None:
    """"Keep the Candies based on the Blast you made" (rulebook, "Every Time You Make a
    Blast"), from the candies it removes."""
    need(state, KEEP)
    kinds = tuple(action.kinds)
    blast = state.pending[0]
    matched = kinds.count(blast.candy)
    want = keep_words(blast)
    if any(k not in KINDS for k in kinds) or matched != blast.keep_matched or len(kinds) - matched != blast.keep_other:
        raise _no(say("keep_want", keep=want))
    if not state.quick:
        removed = counts(state.board[r][c] for r, c in blast.removes)
        if not fits(counts(kinds), removed):
            raise _no(say("keep_only_removed", removed=words(removed), keep=want))


def keep_choices(state: State) -> list[tuple[str, ...]]:
    """Each legal choice of candies to keep from the Blast being solved (KEEP phase, else
    none): ``keep_matched`` of its kind, and ``keep_other`` of one other kind the Blast
    removes (quick mode: any other kind of the game). One choice only: it is taken
    without a tap in a game begun with ``StartGame(auto_keep=True)`` (rules ``_keep``)."""
    if state.phase != KEEP or not state.pending:
        return []
    blast = state.pending[0]
    mine = (blast.candy,) * blast.keep_matched
    if not blast.keep_other:
        return [mine]
    if state.quick:
        others = [k for k, n in zip(KINDS, state.supply) if n and k != blast.candy]
    else:
        removed = {state.board[r][c] for r, c in blast.removes}
        others = [k for k in KINDS if k in removed and k != blast.candy]
    return [mine + (k,) for k in others]


def _tilted(state: State, action: Tilted) -> None:
    """"Tilt the board in your direction" (rulebook, "Every Time You Make a Blast"): only
    the active player's seat counts."""
    if state.phase != TILT:
        raise _no(say("tilt_nothing", waiting=waiting(state)))
    seat = state.seats[state.active]
    if action.seat != seat:
        who = state.players[state.active]
        toward = (state.players[state.seats.index(action.seat)] if action.seat in state.seats
                  else f"the {B.SEAT_EDGES.get(action.seat, 'other')} side")
        raise _no(say("tilt_wrong_seat", toward=toward, who=who, edge=B.SEAT_EDGES[seat]))


def _return(state: State, action: ReturnCandies) -> None:
    """"All players must choose 2 of their Candies and put them back in the Bag"
    (rulebook, "Important!"): fewer when they hold fewer."""
    need(state, RETURN)
    if action.player not in state.to_return:
        raise _no(say("return_done_already") if 0 <= action.player < len(state.players) else say("no_such_player"))
    kinds = tuple(action.kinds)
    have = state.kept[action.player]
    n = min(RETURN_EACH, sum(have))
    if len(kinds) != n or any(k not in KINDS for k in kinds) or not fits(counts(kinds), have):
        raise _no(say("return_which", who=state.players[action.player], n_candies=count(n, "candy"),
                      have=words(have)))


def _refill(state: State, action: Refill) -> None:
    """"Fill all empty spaces from bottom to top" from the bag; when it is short, the
    whole bag then discarded candies (rulebook, "Important!")."""
    need(state, REFILL)
    placed = tuple(action.cells)
    if state.quick:
        if placed:
            raise _no(say("refill_quick_done"))
        return
    holes = set(B.empty_cells(state.board))
    if len(placed) != len(holes) or {tuple(c) for c, _ in placed} != holes:
        raise _no(say("refill_every", n_candies=count(len(holes), "candy")))
    for _, candy in placed:
        candy_ok(state, candy)
    used = counts(candy for _, candy in placed)
    if state.bag_n >= len(holes):
        if not fits(used, state.bag):
            raise _no(say("refill_bag_check", bag=words(state.bag)))
    elif not (fits(state.bag, used) and fits(minus(used, state.bag), state.discards)):
        raise _no(say("refill_discards_check", bag=words(state.bag), discards=words(state.discards)))


CHECKS: dict[type, Callable] = {
    PlaceCandy: _place, SetBoard: _set_board, DealBoard: _deal, StartGame: _start, SwapCandies: _swap, NoBlastsDraw: _draw,
    QuickBlast: _quick, NoMoreBlasts: _no_more, ChooseBlast: _choose, KeepCandies: _keep, Tilted: _tilted,
    ReturnCandies: _return, Refill: _refill,
}


def check(state: State, action) -> None:
    """Raise :class:`IllegalAction` (message for the table) unless ``action`` is legal now."""
    if state.phase == OVER:
        raise _no(waiting(state))
    rule = CHECKS.get(type(action))
    if rule is None:
        raise _no(say("unknown_action", action=type(action).__name__))
    rule(state, action)


__all__ = ["check", "waiting", "can_draw", "keep_choices", "quick_allowed", "quick_count", "cell_ok", "candy_ok", "need", "CHECKS",
           "CELLS"]
