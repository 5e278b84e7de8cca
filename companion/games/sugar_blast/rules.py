"""Sugar Blast rules: state, actions, check/apply/step (../shared/rulebooks/sugar-blast.txt).

Pure: no I/O, no pygame; imports only ``companion.core``, this game's ``board`` and the
standard library. ``check(state, action)`` raises :class:`IllegalAction` (a message a
child can read); ``apply`` trusts its caller; ``step`` does both.

A turn: ``SwapCandies`` (or ``NoBlastsDraw``) -> ``ChooseBlast`` when 2+ Blasts ->
``KeepCandies`` -> (more Blasts still on the board: choose/keep again) -> ``Tilted`` ->
(``ReturnCandies`` on a shortage) -> ``Refill`` -> new Blasts repeat, or the turn ends.
Decisions where the rulebook is loose are in the docstrings below and in cards.toml.

Quick mode has no twin of the board: the table enters each Blast as ``QuickBlast(kind,
candy, count)``; only totals are tracked for the board, bag and discards (kept candies
stay per kind, so goals still work). ``Refill(())`` says "the spaces are filled".

>>> s = new_game(["Ana"], solo=True, quick=True)
>>> s, _ = step(s, StartGame())
>>> s, ev = step(s, QuickBlast("3", "R"))
>>> s, ev = step(s, KeepCandies(("R",)))
>>> s, ev = step(s, Tilted(1))
>>> ev[-1].message, ev[-1].bag_count
('Fill 3 spaces from the bag, bottom to top', 24)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from companion.core.errors import IllegalAction
from companion.core.events import Outcome

from . import board as B
from .actions import *  # noqa: F401,F403  (rules is the one entry point: re-export the data)
from .actions import (CELLS, GOALS, KINDS, PER_KIND, RETURN_EACH, SEATING, SOLO, Action, Blast, Board,  # noqa: F401
                      Cell, Counts, Result, State, _fits, minus, plus, _words, counts, describe)

# ---------------------------------------------------------------- goals and set-up

def goal_met(goal: str, kept: Counts) -> bool:
    """Does ``kept`` meet the Goal Card? Sets are of different kinds, "at least" counts:
    sorting both largest first, each set must fit the kind at its place."""
    card = GOALS[goal]
    have = sorted(kept, reverse=True)
    need = sorted(card.get("sets", []), reverse=True)
    return sum(kept) >= card.get("total", 0) and len(need) <= len(have) and all(h >= n for h, n in zip(have, need))


def new_game(players: Iterable[str], goal: str | None = None, *, solo: bool = False, quick: bool = False,
             seats: Iterable[int] | None = None) -> State:
    """A game at set-up with an empty board. ``players`` in turn order; solo is one player
    and no Goal Card. Raises ValueError for a wrong player count, goal or seats."""
    players = tuple(players)
    n = len(players)
    if solo != (n == 1) or n > 4:
        raise ValueError("solo mode is for 1 player, the game for 2-4" if solo or n == 1 else f"{n} players: 2-4 please")
    if solo == (goal is not None) or (goal is not None and goal not in GOALS):
        raise ValueError("solo has no Goal Card" if solo else f"choose a Goal Card: {', '.join(GOALS)}")
    seats = tuple(seats) if seats is not None else SEATING[n]
    if len(seats) != n or len(set(seats)) != n or not set(seats) <= set(B.SEAT_EDGES):
        raise ValueError(f"give each player a different seat from {sorted(B.SEAT_EDGES)}")
    zero = (0,) * len(KINDS)
    state = State(players=players, seats=seats, goal=goal, solo=solo, quick=quick, phase=SETUP, active=0,
                  board=None if quick else ("." * B.COLS,) * B.ROWS, bag=None, discards=None if quick else zero,
                  kept=(zero,) * n, bag_n=0, discards_n=0, on_board_n=0)
    return replace(state, bag=None if quick else state.supply, bag_n=state.total)


# ---------------------------------------------------------------- legality

def _no(message: str, code: str | None = None) -> IllegalAction:
    return IllegalAction(code, message)


def _cell_ok(cell: Cell) -> bool:
    return len(cell) == 2 and 0 <= cell[0] < B.ROWS and 0 <= cell[1] < B.COLS


def _candy_ok(state: State, candy: str) -> None:
    if candy not in KINDS:
        raise _no(f"{candy!r} is not a candy: use {' '.join(KINDS)}.")
    if state.supply[KINDS.index(candy)] == 0:
        raise _no(f"{B.NAMES[candy]} candies are out of the game in solo mode.")


def waiting(state: State) -> str:
    who = state.players[state.active]
    return {
        SETUP: "Finish entering the board, then tap Start.",
        TURN: f"{who}: swap two candies next to each other." if not state.quick else f"{who}: enter the Blast you made.",
        CHOOSE: f"{who}: choose which Blast to solve first.",
        KEEP: f"{who}: choose the candies to keep from this Blast.",
        TILT: f"{who}: tilt the board toward you, then let it go.",
        RETURN: "Every player puts 2 of their candies back in the bag first.",
        REFILL: "Fill the empty spaces from the bag first.",
        CASCADE: f"{who}: enter a new Blast, or tap No more Blasts.",
        OVER: "The game is over: start a new game to play again.",
    }[state.phase]


def _need(state: State, phase: str | tuple[str, ...], twin: bool | None = None) -> None:
    if state.phase not in ((phase,) if isinstance(phase, str) else phase):
        raise _no(waiting(state))
    if twin is not None and twin == state.quick:
        raise _no("That is only for quick mode." if not twin else "Quick mode has no board to enter candies on.")


def _check_board(state: State, board: Board) -> None:
    if len(board) != B.ROWS or any(len(row) != B.COLS for row in board):
        raise _no(f"The board has {B.ROWS} rows of {B.COLS} candies.")
    for ch in "".join(board):
        if ch != B.EMPTY:
            _candy_ok(state, ch)
    for k, n in B.census(board).items():
        if n > state.supply[KINDS.index(k)]:
            raise _no(f"That is {n} {B.NAMES[k]} candies, but the game has only {state.supply[KINDS.index(k)]}.")


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` (message for the table) unless ``action`` is legal now."""
    if state.phase == OVER:
        raise _no(waiting(state))
    if isinstance(action, TABLE_ACTIONS):
        return _check_table(state, action)
    if isinstance(action, PlaceCandy):
        _need(state, SETUP, twin=True)
        if not _cell_ok((action.row, action.col)):
            raise _no(f"There is no cell at row {action.row}, column {action.col}.")
        return _check_board(state, B.put(state.board, (action.row, action.col), action.candy))
    if isinstance(action, SetBoard):
        _need(state, SETUP, twin=True)
        return _check_board(state, tuple(action.board))
    if isinstance(action, StartGame):
        _need(state, SETUP)
        if state.quick:
            return
        if B.empty_cells(state.board):
            raise _no(f"{len(B.empty_cells(state.board))} cells are still empty: fill the whole board first.")
        found = B.start_runs(state.board)
        if found:
            run = found[0]
            where = f"row {run.cells[0][0]}" if run.across else f"column {run.cells[0][1]}"
            raise _no(f"{len(run.cells)} {B.NAMES[run.candy]} candies are in a line in {where}: "
                      "mix the candies on the board and enter it again.")
        return
    if isinstance(action, SwapCandies):
        _need(state, TURN, twin=True)
        a, b = tuple(action.a), tuple(action.b)
        if not (_cell_ok(a) and _cell_ok(b) and B.neighbours(a, b)):
            raise _no("Swap two candies that touch side by side or one above the other.")
        if not B.makes_blast(state.board, a, b):
            raise _no("That swap makes no Blast: try another one.")
        return
    if isinstance(action, NoBlastsDraw):
        _need(state, TURN, twin=True)
        if not B.no_blasts(state.board):
            raise _no("There is still a swap that makes a Blast: look again (ask for a hint).")
        _candy_ok(state, action.candy)
        if state.bag[KINDS.index(action.candy)] == 0:
            raise _no(f"By my count there is no {B.NAMES[action.candy]} candy in the bag.")
        cell = tuple(action.cell)
        if not _cell_ok(cell) or state.board[cell[0]][cell[1]] == action.candy:
            raise _no("Swap the candy from the bag with a candy of a different kind on the board.")
        return
    if isinstance(action, QuickBlast):
        _need(state, (TURN, TILT, CASCADE), twin=False)
        _candy_ok(state, action.candy)
        expected = _quick_count(action)
        if expected is None or not 3 <= expected <= state.on_board_n:
            raise _no(f"How many candies did the {action.kind} Blast remove? (3 to {state.on_board_n})"
                      if action.kind in ("3", "4", "5-6", "box") else "A Blast is 3, 4, 5-6 or box.")
        return
    if isinstance(action, NoMoreBlasts):
        if not state.quick:
            _need(state, TURN)
            if not B.no_blasts(state.board):
                raise _no("There is still a swap that makes a Blast: look again (ask for a hint).")
            if can_draw(state):
                raise _no("No Blasts: take 1 candy from the bag and swap it with a different one on the board.")
            return
        return _need(state, (TURN, CASCADE))
    if isinstance(action, ChooseBlast):
        _need(state, CHOOSE)
        if not 0 <= action.index < len(state.pending):
            raise _no(f"Choose Blast 1 to {len(state.pending)}.")
        return
    if isinstance(action, KeepCandies):
        _need(state, KEEP)
        return _check_keep(state, tuple(action.kinds))
    if isinstance(action, Tilted):
        if state.phase != TILT:
            raise _no("Nothing to refill now: " + waiting(state))
        seat = state.seats[state.active]
        if action.seat != seat:
            raise _no(f"The board tipped toward seat {action.seat}. {state.players[state.active]}: "
                      f"tilt it toward you (seat {seat}) and let go.")
        return
    if isinstance(action, ReturnCandies):
        _need(state, RETURN)
        if action.player not in state.to_return:
            raise _no("That player has already put candies back." if 0 <= action.player < len(state.players)
                      else "No such player.")
        kinds = tuple(action.kinds)
        have = state.kept[action.player]
        if len(kinds) != min(RETURN_EACH, sum(have)) or any(k not in KINDS for k in kinds) \
                or not _fits(counts(kinds), have):
            raise _no(f"{state.players[action.player]}: put back {min(RETURN_EACH, sum(have))} of your "
                      f"candies ({_words(have)}).")
        return
    if isinstance(action, Refill):
        _need(state, REFILL)
        return _check_refill(state, tuple(action.cells))
    raise _no(f"Unknown action {action!r}")


def _check_table(state: State, action: Action) -> None:
    """Table bookkeeping: legal when the rule action it leads to could be."""
    if isinstance(action, PickCandy):
        _need(state, (SETUP, TURN, REFILL), twin=True)
        if state.phase == TURN and not B.no_blasts(state.board):
            raise _no(waiting(state))
        if action.candy != B.EMPTY or state.phase != SETUP:
            _candy_ok(state, action.candy)
        return
    if isinstance(action, SelectCell):
        _need(state, TURN, twin=True)
        cell = action.cell
        if cell is not None and (not _cell_ok(tuple(cell)) or state.board[cell[0]][cell[1]] == B.EMPTY):
            raise _no("Tap a candy on the board.")
        return
    if isinstance(action, DraftCandy):
        _need(state, REFILL, twin=True)
        cell = tuple(action.cell)
        if not _cell_ok(cell) or state.board[cell[0]][cell[1]] != B.EMPTY:
            raise _no("That space already has a candy: tap an empty space.")
        _candy_ok(state, action.candy)
        placed = dict(state.draft)
        placed[cell] = action.candy
        if not _fits(counts(placed.values()), plus(state.bag, state.discards)):
            raise _no(f"By my count there are no more {B.NAMES[action.candy]} candies to refill with.")
        return
    if isinstance(action, TiltSeen):
        return check(state, Tilted(action.seat))


def _apply_table(state: State, action: Action) -> tuple[State, list[Outcome]]:
    if isinstance(action, PickCandy):
        name = "Empty" if action.candy == B.EMPTY else B.NAMES[action.candy]
        return replace(state, palette=action.candy), [Outcome(f"{name}: now tap the cells.")]
    if isinstance(action, SelectCell):
        cell = None if action.cell is None else tuple(action.cell)
        if cell is None:
            return replace(state, selected=None), [Outcome("Swap cancelled.")]
        name = B.NAMES[state.board[cell[0]][cell[1]]]
        return replace(state, selected=cell), [Outcome(f"{name} chosen: tap the candy to swap it with.")]
    if isinstance(action, DraftCandy):
        placed = dict(state.draft)
        placed[tuple(action.cell)] = action.candy
        left = state.holes - len(placed)
        return replace(state, draft=tuple(sorted(placed.items()))), [
            Outcome(f"{B.NAMES[action.candy]} placed: {left} space{'s' * (left != 1)} to go.")]
    who = state.players[state.active]
    return replace(state, tilt_seen=action.seat), [Outcome(f"Tilted toward {who}: now let the board go level.")]


def can_draw(state: State) -> bool:
    """Can "No Blasts?" be played: a candy in the bag and a different one on the board?
    When it cannot (the bag is empty), the turn simply passes (``NoMoreBlasts``)."""
    on = set("".join(state.board)) - {B.EMPTY}
    return any(n and (on - {k}) for k, n in zip(KINDS, state.bag))


def _quick_count(action: QuickBlast) -> int | None:
    """Candies a quick-mode Blast removes: 3 -> 3; 4 -> a row or column; else entered."""
    if action.kind == "3":
        return 3 if action.count in (None, 3) else None
    if action.kind == "4":
        n = B.COLS if action.count is None else action.count
        return n if n in (B.ROWS, B.COLS) else None
    if action.kind in ("5-6", "box"):
        return action.count
    return None


def _check_keep(state: State, kinds: tuple[str, ...]) -> None:
    blast = state.pending[0]
    matched = kinds.count(blast.candy)
    others = len(kinds) - matched
    want = f"keep {blast.keep_matched} {B.NAMES[blast.candy]}" + (
        f" and {blast.keep_other} candy of another kind" if blast.keep_other else "")
    if any(k not in KINDS for k in kinds) or matched != blast.keep_matched or others != blast.keep_other:
        raise _no(f"From this Blast, {want}.")
    if not state.quick:
        removed = counts(state.board[r][c] for r, c in blast.removes)
        if not _fits(counts(kinds), removed):
            raise _no(f"Keep only candies this Blast removes ({_words(removed)}): {want}.")


def _check_refill(state: State, placed: tuple[tuple[Cell, str], ...]) -> None:
    if state.quick:
        if placed:
            raise _no("Quick mode has no board: just tap Done when the spaces are filled.")
        return
    holes = set(B.empty_cells(state.board))
    if len(placed) != len(holes) or {tuple(c) for c, _ in placed} != holes:
        raise _no(f"Fill every empty space: {len(holes)} candies, one in each.")
    for _, candy in placed:
        _candy_ok(state, candy)
    used = counts(candy for _, candy in placed)
    if state.bag_n >= len(holes):
        if not _fits(used, state.bag):
            raise _no(f"By my count the bag holds {_words(state.bag)}: check the candies you placed.")
    elif not (_fits(state.bag, used) and _fits(minus(used, state.bag), state.discards)):
        raise _no(f"Use every candy in the bag ({_words(state.bag)}), then discarded ones "
                  f"({_words(state.discards)}): check the candies you placed.")


# ---------------------------------------------------------------- application

def step(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Check then apply. Raises :class:`IllegalAction`; on error nothing changes."""
    check(state, action)
    return apply(state, action)


def apply(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Apply a legal action (call :func:`check` first): the new state and the outcome
    events, in the order a player would see them."""
    if isinstance(action, TABLE_ACTIONS):
        return _apply_table(state, action)
    # A rule action ends whatever was half tapped in (the palette stays chosen).
    state = replace(state, selected=None, draft=(), tilt_seen=None)
    events: list[Outcome] = []
    who = state.players[state.active]
    if isinstance(action, (PlaceCandy, SetBoard)):
        board = B.put(state.board, (action.row, action.col), action.candy) if isinstance(action, PlaceCandy) \
            else tuple(action.board)
        on = counts("".join(board).replace(B.EMPTY, ""))
        return replace(state, board=board, bag=minus(state.supply, on), bag_n=state.total - sum(on),
                       on_board_n=sum(on)), events
    if isinstance(action, StartGame):
        if state.quick:
            state = replace(state, on_board_n=CELLS, bag_n=state.total - CELLS)
        events.append(Outcome(f"The board is ready. {who} goes first."))
        return replace(state, phase=TURN), events
    if isinstance(action, SwapCandies):
        state = replace(state, board=B.swapped(state.board, tuple(action.a), tuple(action.b)))
        return _found(state, events), events
    if isinstance(action, NoBlastsDraw):
        cell = tuple(action.cell)
        old = state.board[cell[0]][cell[1]]
        bag = plus(minus(state.bag, counts(action.candy)), counts(old))
        state = replace(state, board=B.put(state.board, cell, action.candy), bag=bag)
        events.append(Outcome(f"{B.NAMES[action.candy]} from the bag replaces {B.NAMES[old]}; "
                              f"the {B.NAMES[old]} goes into the bag."))
        return _found(state, events), events
    if isinstance(action, QuickBlast):
        blast = Blast(action.kind, action.candy, (), frozenset(), *B.KEEPS[action.kind])
        events.append(BlastFound(describe(blast, _quick_count(action)), (blast,)))
        return replace(state, phase=KEEP, pending=(blast,), removing=_quick_count(action)), events
    if isinstance(action, NoMoreBlasts):
        return _end_turn(state, events), events
    if isinstance(action, ChooseBlast):
        blast = state.pending[action.index]
        events.append(BlastFound(describe(blast), (blast,)))
        return replace(state, phase=KEEP, pending=(blast,)), events
    if isinstance(action, KeepCandies):
        return _keep(state, tuple(action.kinds), events), events
    if isinstance(action, Tilted):
        board = None if state.quick else B.gravity(state.board, action.seat)
        edge = B.SEAT_EDGES[action.seat]
        events.append(CandiesSlid(f"The candies slid toward {who} ({edge} of the board).", action.seat, board))
        return _ask_refill(replace(state, board=board), events), events
    if isinstance(action, ReturnCandies):
        kinds = tuple(action.kinds)
        state = replace(state, kept=_set(state.kept, action.player, minus(state.kept[action.player], counts(kinds))),
                        bag=None if state.quick else plus(state.bag, counts(kinds)), bag_n=state.bag_n + len(kinds),
                        to_return=tuple(p for p in state.to_return if p != action.player))
        events.append(CandiesReturned(f"{state.players[action.player]} puts {_words(counts(kinds))} back in the bag.",
                                      action.player, kinds))
        return (_ask_refill(state, events) if not state.to_return else state), events
    if isinstance(action, Refill):
        return _refill(state, tuple(action.cells), events), events
    raise TypeError(f"not an action: {action!r}")


def _set(items: tuple, i: int, value) -> tuple:
    return items[:i] + (value,) + items[i + 1:]


def _found(state: State, events: list[Outcome]) -> State:
    """Blasts on the (twin) board now: solve one, choose one, tilt, or end the turn.

    After a Blast is solved the other Blasts made at the same time are found again on
    the board with its holes, before tilting: the first one's removals may have broken
    them (that is why the order is the player's choice)."""
    blasts = tuple(B.find_blasts(state.board))
    if len(blasts) == 1:
        events.append(BlastFound(describe(blasts[0]), blasts))
        return replace(state, phase=KEEP, pending=blasts)
    if blasts:
        events.append(BlastFound(f"{len(blasts)} Blasts at once! Choose which one to solve first.", blasts))
        return replace(state, phase=CHOOSE, pending=blasts)
    if B.empty_cells(state.board):
        return _ask_tilt(state, events)
    return _end_turn(state, events)


def _ask_tilt(state: State, events: list[Outcome]) -> State:
    events.append(Outcome(f"{state.players[state.active]}: tilt the board toward you, then let it go."))
    return replace(state, phase=TILT, pending=())


def _keep(state: State, kinds: tuple[str, ...], events: list[Outcome]) -> State:
    """Remove the Blast, keep ``kinds``, discard the rest; then check the goal
    (rulebook, "Every Time You Make a Blast" and "Goal Cards")."""
    blast, me = state.pending[0], state.active
    if state.quick:
        n = state.removing
        state = replace(state, discards_n=state.discards_n + n - len(kinds), on_board_n=state.on_board_n - n)
    else:
        n = len(blast.removes)
        removed = counts(state.board[r][c] for r, c in blast.removes)
        board = state.board
        for cell in blast.removes:
            board = B.put(board, cell, B.EMPTY)
        state = replace(state, board=board, discards=plus(state.discards, minus(removed, counts(kinds))),
                        discards_n=state.discards_n + n - len(kinds), on_board_n=state.on_board_n - n)
    state = replace(state, kept=_set(state.kept, me, plus(state.kept[me], counts(kinds))),
                    turn_kept=state.turn_kept + len(kinds), pending=(), removing=0)
    who = state.players[me]
    events.append(BlastSolved(f"{who} keeps {_words(counts(kinds))}; {n - len(kinds)} candies go to the discards.",
                              me, blast, kinds, n - len(kinds)))
    if state.solo and state.turn_kept >= SOLO["win_kept_in_one_turn"]:
        events.append(GameOver(f"{who} collected {state.turn_kept} candies in one turn: you win!", winner=me,
                               reason="solo-win"))
        return replace(state, phase=OVER, winner=me)
    if state.goal is not None and goal_met(state.goal, state.kept[me]):
        text = GOALS[state.goal]["text"]
        events.append(GoalMet(f"{who} meets the Goal Card: {text}", me, state.goal))
        events.append(GameOver(f"{who} wins!", winner=me, goal=state.goal, reason="goal"))
        return replace(state, phase=OVER, winner=me)
    return _ask_tilt(state, events) if state.quick else _found(state, events)


def _ask_refill(state: State, events: list[Outcome]) -> State:
    """The refill prompt, or the shortage rules: "If you can't refill the board, use the
    discarded Candies. If that's not enough, all players must choose 2 of their Candies
    and put them back in the Bag." A return round repeats until the board can be filled
    (it always can: the candies off the board outnumber the holes). Solo: the game is
    lost when the bag and the discards together cannot fill the board."""
    n = state.holes
    prompt = RefillPrompt(f"Fill {n} space{'s' * (n != 1)} from the bag, bottom to top", n, state.bag_n)
    if state.bag_n >= n:
        events.append(prompt)
        return replace(state, phase=REFILL)
    if state.bag_n + state.discards_n >= n:
        short = n - state.bag_n
        events.append(ShortageUseDiscards(f"The bag has only {state.bag_n} candies: put them all in, then fill the "
                                          f"other {short} spaces with discarded candies.", state.bag_n, short))
        events.append(prompt)
        return replace(state, phase=REFILL)
    if state.solo:
        events.append(GameOver(f"Not enough candies to fill {n} spaces: the game is lost. Try again!",
                               reason="solo-loss"))
        return replace(state, phase=OVER)
    owing = tuple(i for i, kept in enumerate(state.kept) if sum(kept))
    events.append(ShortageReturnTwo(f"Not enough candies to fill {n} spaces: every player chooses "
                                    f"{RETURN_EACH} of their candies and puts them back in the bag.", owing))
    return replace(state, phase=RETURN, to_return=owing)


def _refill(state: State, placed: tuple[tuple[Cell, str], ...], events: list[Outcome]) -> State:
    n = state.holes
    from_bag = min(n, state.bag_n)
    state = replace(state, bag_n=state.bag_n - from_bag, discards_n=state.discards_n - (n - from_bag),
                    on_board_n=CELLS)
    if state.quick:
        events.append(Outcome("Any new Blasts? Enter them, or tap No more Blasts."))
        return replace(state, phase=CASCADE)
    used = counts(candy for _, candy in placed)
    board = state.board
    for cell, candy in placed:
        board = B.put(board, tuple(cell), candy)
    if state.bag_n == 0 and from_bag < n:
        bag, discards = (0,) * len(KINDS), minus(state.discards, minus(used, state.bag))
    else:
        bag, discards = minus(state.bag, used), state.discards
    return _found(replace(state, board=board, bag=bag, discards=discards), events)


def _end_turn(state: State, events: list[Outcome]) -> State:
    """"Return the discarded Candies to the Bag, ending your turn. The player to the left
    then takes their turn." (The players are in turn order.)"""
    nxt = (state.active + 1) % len(state.players)
    events.append(TurnEnded(f"{state.players[nxt]}'s turn." if nxt != state.active else "Next turn.",
                            state.active, nxt))
    zero = (0,) * len(KINDS)
    return replace(state, phase=TURN, active=nxt, turn=state.turn + 1, pending=(), turn_kept=0,
                   bag=None if state.quick else plus(state.bag, state.discards), bag_n=state.bag_n + state.discards_n,
                   discards=None if state.quick else zero, discards_n=0)


def tally(state: State) -> dict[str, int]:
    """Candies by place, for the screen and the conservation check."""
    return {"board": state.on_board_n, "bag": state.bag_n, "kept": sum(map(sum, state.kept)),
            "discards": state.discards_n}


def check_conservation(state: State) -> None:
    """Raise AssertionError unless every candy is in exactly one place: board + bag +
    kept + discards == 72 (60 in solo), per kind too when there is a twin."""
    t = tally(state)
    if sum(t.values()) != state.total:
        raise AssertionError(f"{t} adds up to {sum(t.values())}, not {state.total}")
    if state.quick:
        return
    on = counts("".join(state.board).replace(B.EMPTY, ""))
    per = plus(plus(on, state.bag), plus(state.discards, tuple(map(sum, zip(*state.kept)))))
    if per != state.supply or sum(on) != state.on_board_n or sum(state.bag) != state.bag_n \
            or sum(state.discards) != state.discards_n or min(state.bag + state.discards) < 0:
        raise AssertionError(f"per kind {per} != {state.supply} (board {on}, bag {state.bag}, discards {state.discards})")


def result(state: State) -> CoreResult | None:
    """The game's :class:`~companion.core.game.Result` once it is over, else None."""
    if state.phase != OVER:
        return None
    reason = "goal" if state.goal is not None and state.winner is not None else (
        "solo-win" if state.winner is not None else "solo-loss")
    kept = tuple({k: n for k, n in zip(KINDS, c) if n} for c in state.kept)
    return Result(state.players, kept, None if state.winner is None else state.players[state.winner],
                  state.goal, reason, state.turn).outcome()


def public_view(state: State, viewer) -> State:
    """Sugar Blast hides nothing: the board, the bag count and the kept candies are in
    plain sight (the bag's own mix is counted, not secret), so every viewer sees it all."""
    return state
