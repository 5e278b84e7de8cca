"""Sugar Blast rules: state, actions, check/apply/step (../shared/rulebooks/sugar-blast.txt).

Pure: no I/O, no pygame; imports only ``companion.core``, this game's ``board`` and the
standard library. ``check(state, action)`` raises :class:`IllegalAction` (a message a
child can read); ``apply`` trusts its caller; ``step`` does both.

A turn: ``SwapCandies`` (or ``NoBlastsDraw``) -> ``ChooseBlast`` when 2+ Blasts ->
``KeepCandies`` -> ``Tilted`` -> (``ReturnCandies`` on a shortage) -> ``Refill`` -> the
Blasts on the board now (one left from the same swap if it still stands, new ones made
by the refill) repeat, one at a time, or the turn ends. Every Blast is tilted and
refilled on its own (rulebook, "Every Time You Make a Blast", steps 1-4 per Blast).
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

from companion.core.game import Rules as CoreRules
from companion.core.events import Outcome

from .parts import board as B
from .state import *  # noqa: F401,F403  (rules is the one entry point: re-export the data)
from .state import (CELLS, GOALS, KINDS, PER_KIND, RETURN_EACH, SEATING, SOLO, Action, Blast, Board, Cell, Counts,
                    State, fits, minus, plus, words, counts, describe)
from .messages import blast_list, count, order_words, placed, say
from .scoring import Result, headline, result  # noqa: F401  (part of the rules API)

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
        raise ValueError(say("setup_solo_players") if solo or n == 1 else say("setup_players", n=n))
    if solo == (goal is not None) or (goal is not None and goal not in GOALS):
        raise ValueError(say("setup_solo_goal") if solo else say("setup_choose_goal", goals=", ".join(GOALS)))
    seats = tuple(seats) if seats is not None else SEATING[n]
    if len(seats) != n or len(set(seats)) != n or not set(seats) <= set(B.SEAT_EDGES):
        raise ValueError(say("setup_seats", seats=sorted(B.SEAT_EDGES)))
    zero = (0,) * len(KINDS)
    state = State(players=players, seats=seats, goal=goal, solo=solo, quick=quick, phase=SETUP, active=0,
                  board=None if quick else ("." * B.COLS,) * B.ROWS, bag=None, discards=None if quick else zero,
                  kept=(zero,) * n, bag_n=0, discards_n=0, on_board_n=0)
    return replace(state, bag=None if quick else state.supply, bag_n=state.total)


# ---------------------------------------------------------------- legality

from .parts.checks import can_draw, check, keep_choices, quick_count, waiting  # noqa: E402,F401  (part of the rules API)


# ---------------------------------------------------------------- application

def step(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Check then apply. Raises :class:`IllegalAction`; on error nothing changes."""
    check(state, action)
    return apply(state, action)


def apply(state: State, action: Action) -> tuple[State, list[Outcome]]:
    """Apply a legal action (call :func:`check` first): the new state and the outcome
    events, in the order a player would see them."""
    events: list[Outcome] = []
    state = APPLY[type(action)](state, action, events)
    return state, events


def _place(state: State, action, events: list[Outcome]) -> State:
    board = B.put(state.board, (action.row, action.col), action.candy) if isinstance(action, PlaceCandy) \
        else tuple(action.board)
    on = counts("".join(board).replace(B.EMPTY, ""))
    dealt = action.seed if isinstance(action, DealBoard) else state.dealt if isinstance(action, PlaceCandy) else None
    return replace(state, board=board, bag=minus(state.supply, on), bag_n=state.total - sum(on), on_board_n=sum(on),
                   dealt=dealt)


def _deal(state: State, action: DealBoard, events: list[Outcome]) -> State:
    events.append(Outcome(say("dealt")))
    return _place(state, action, events)


def _start(state: State, action: StartGame, events: list[Outcome]) -> State:
    if state.quick:
        state = replace(state, on_board_n=CELLS, bag_n=state.total - CELLS)
    events.append(Outcome(say("board_ready", who=state.players[state.active])))
    return replace(state, phase=TURN, auto_keep=bool(action.auto_keep))


def _swap(state: State, action: SwapCandies, events: list[Outcome]) -> State:
    return _found(replace(state, board=B.swapped(state.board, tuple(action.a), tuple(action.b))), events)


def _draw(state: State, action: NoBlastsDraw, events: list[Outcome]) -> State:
    cell = tuple(action.cell)
    old = state.board[cell[0]][cell[1]]
    bag = plus(minus(state.bag, counts(action.candy)), counts(old))
    state = replace(state, board=B.put(state.board, cell, action.candy), bag=bag)
    events.append(Outcome(say("drawn", candy=B.NAMES[action.candy], old=B.NAMES[old])))
    return _found(state, events)


def _quick(state: State, action: QuickBlast, events: list[Outcome]) -> State:
    n = quick_count(action)
    blast = Blast(action.kind, action.candy, (), frozenset(), *B.KEEPS[action.kind])
    events.append(BlastFound(describe(blast, n), (blast,)))
    return _keeping(replace(state, phase=KEEP, pending=(blast,), removing=n), events)


def _no_more(state: State, action: NoMoreBlasts, events: list[Outcome]) -> State:
    return _end_turn(state, events)


def _choose(state: State, action: ChooseBlast, events: list[Outcome]) -> State:
    """"Choose 1 to solve before the other": the others wait, each under the number the
    table was told (they are solved after this one's refill only if they still stand)."""
    blast = state.pending[action.index]
    events.append(BlastFound(describe(blast), (blast,)))
    waiting = tuple(Waiting(n, other, other.cells, action.index + 1) for n, other in enumerate(state.pending, 1)
                    if n != action.index + 1)
    return _keeping(replace(state, phase=KEEP, pending=(blast,), waiting=waiting), events)


def _keep_action(state: State, action: KeepCandies, events: list[Outcome]) -> State:
    return _keep(state, tuple(action.kinds), events)


def _tilted(state: State, action: Tilted, events: list[Outcome]) -> State:
    board = None if state.quick else B.gravity(state.board, action.seat)
    events.append(CandiesSlid(say("slid", who=state.players[state.active], edge=B.SEAT_EDGES[action.seat]),
                              action.seat, board))
    if state.waiting:
        state = replace(state, waiting=_slid(state.waiting, B.slide_map(state.board, action.seat), board, events))
    return _ask_refill(replace(state, board=board, auto_kept=()), events)


def _broken(waiting: tuple[Waiting, ...], gone, by: str, events: list[Outcome]) -> tuple[Waiting, ...]:
    """The waiting Blasts with those ``gone(w)`` marked broken ``by`` the removal or the
    slide, each told to the table once (rulebook, "choose 1 to solve before the other":
    the one solved first may break the other; docs/rules-notes.md)."""
    out = []
    for w in waiting:
        if not w.broken and gone(w):
            w = replace(w, broken=by)
            events.append(BlastBroken(say("broken_" + by, n=w.number, placed=placed(w.blast), first=w.first), w.number, w.blast, by))
        out.append(w)
    return tuple(out)


def _slid(waiting: tuple[Waiting, ...], moves: dict[Cell, Cell], board: Board,
          events: list[Outcome]) -> tuple[Waiting, ...]:
    """The waiting Blasts after the tilt: their candies moved with the slide ("The Candies
    will slide down", rulebook, "Every Time You Make a Blast"); one whose candies no longer
    make a Blast together is broken by the slide."""
    moved = tuple(w if w.broken else replace(w, cells=tuple(moves[c] for c in w.cells)) for w in waiting)
    return _broken(moved, lambda w: not B.stands(board, w.cells), "slide", events)


def _return(state: State, action: ReturnCandies, events: list[Outcome]) -> State:
    kinds = tuple(action.kinds)
    state = replace(state, kept=_set(state.kept, action.player, minus(state.kept[action.player], counts(kinds))),
                    bag=None if state.quick else plus(state.bag, counts(kinds)), bag_n=state.bag_n + len(kinds),
                    to_return=tuple(p for p in state.to_return if p != action.player))
    events.append(CandiesReturned(say("returned", who=state.players[action.player], what=words(counts(kinds))),
                                  action.player, kinds))
    return _ask_refill(state, events) if not state.to_return else state


def _refill_action(state: State, action: Refill, events: list[Outcome]) -> State:
    return _refill(state, tuple(action.cells), events)


APPLY = {PlaceCandy: _place, SetBoard: _place, DealBoard: _deal, StartGame: _start, SwapCandies: _swap, NoBlastsDraw: _draw,
         QuickBlast: _quick, NoMoreBlasts: _no_more, ChooseBlast: _choose, KeepCandies: _keep_action,
         Tilted: _tilted, ReturnCandies: _return, Refill: _refill_action}


def _set(items: tuple, i: int, value) -> tuple:
    return items[:i] + (value,) + items[i + 1:]


def _found(state: State, events: list[Outcome]) -> State:
    """Blasts on the (twin) board now: solve the one, choose one of several, or end the
    turn. Each Blast is then removed, tilted and refilled on its own; after that refill
    the Blasts are looked for again, so one made by the same swap is solved only if it
    still stands (rulebook, "Important! ... choose 1 to solve before the other")."""
    blasts = tuple(B.find_blasts(state.board))
    state = replace(state, waiting=())  # those still standing are among these, with any new ones
    if len(blasts) == 1:
        events.append(BlastFound(describe(blasts[0]), blasts))
        return _keeping(replace(state, phase=KEEP, pending=blasts), events)
    if blasts:
        events.append(BlastFound(say("blasts_at_once", n=len(blasts), blasts=blast_list(blasts)), blasts))
        return replace(state, phase=CHOOSE, pending=blasts)
    return _end_turn(state, events)


def _ask_tilt(state: State, events: list[Outcome]) -> State:
    events.append(Outcome(say("tilt_now", who=state.players[state.active])))
    return replace(state, phase=TILT, pending=())


def _keeping(state: State, events: list[Outcome]) -> State:
    """The Blast in ``state.pending`` waits for the candies to keep (KEEP), unless the game
    takes a forced keep itself (``state.auto_keep``, set by ``StartGame(auto_keep=True)``)
    and only one choice is legal ("Keep the Candies based on the Blast you made", rulebook,
    "Every Time You Make a Blast"): then it is kept at once and the table is told so."""
    choices = keep_choices(state)
    if state.auto_keep and len(choices) == 1:
        return _keep(state, choices[0], events, only=True)
    return state


def _keep(state: State, kinds: tuple[str, ...], events: list[Outcome], only: bool = False) -> State:
    """Remove the Blast, keep ``kinds``, discard the rest; then check the goal
    (rulebook, "Every Time You Make a Blast" and "Goal Cards"). ``only``: the one legal
    choice, taken without a tap (said so in the verdict)."""
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
                    turn_kept=state.turn_kept + len(kinds), pending=(), removing=0, auto_kept=kinds if only else ())
    who = state.players[me]
    events.append(BlastSolved(say("kept_only" if only else "kept", who=who, kept=words(counts(kinds)),
                                  discarded=count(n - len(kinds), "candy")), me, blast, kinds, n - len(kinds)))
    if state.waiting:  # a Blast waiting its turn loses candies this one removed: it is gone
        state = replace(state, waiting=_broken(state.waiting, lambda w: bool(blast.removes & set(w.cells)),
                                               "removal", events))
    if state.solo and state.turn_kept >= SOLO["win_kept_in_one_turn"]:
        events.append(GameOver(say("solo_win", who=who, n_candies=count(state.turn_kept, "candy")), winner=me,
                               reason="solo-win"))
        return replace(state, phase=OVER, winner=me)
    if state.goal is not None and goal_met(state.goal, state.kept[me]):
        events.append(GoalMet(say("goal_met", who=who, goal=GOALS[state.goal]["text"]), me, state.goal))
        events.append(GameOver(say("wins", who=who), winner=me, goal=state.goal, reason="goal"))
        return replace(state, phase=OVER, winner=me)
    return _ask_tilt(state, events)  # this Blast alone is tilted and refilled


def _ask_refill(state: State, events: list[Outcome]) -> State:
    """The refill prompt, or the shortage rules: "If you can't refill the board, use the
    discarded Candies. If that's not enough, all players must choose 2 of their Candies
    and put them back in the Bag." A return round repeats until the board can be filled
    (it always can: the candies off the board outnumber the holes). Solo: "You lose the
    game if there aren't enough Candies in the Bag to refill the board": the bag alone,
    no discards (Solo-Mode Rules). The prompt says "from bottom to top" as the refilling
    seat sees it on the screen (:func:`~.messages.order_words`): the top seat is told "top
    to bottom", as its panel and tilt cue say."""
    n = state.holes
    order = order_words(B.SEAT_EDGES[state.seats[state.active]])  # as the panel says it to that seat
    prompt = RefillPrompt(say("refill", spaces=count(n, "space"), order=order), n, state.bag_n)
    if state.bag_n >= n:
        events.append(prompt)
        return replace(state, phase=REFILL)
    if state.solo:
        events.append(GameOver(say("solo_loss", spaces=count(n, "space")), reason="solo-loss"))
        return replace(state, phase=OVER)
    if state.bag_n + state.discards_n >= n:
        short = n - state.bag_n
        events.append(ShortageUseDiscards(say("refill_short", n_candies=count(state.bag_n, "candy"),
                                              spaces=count(short, "space")), state.bag_n, short))
        events.append(prompt)
        return replace(state, phase=REFILL)
    owing = tuple(i for i, kept in enumerate(state.kept) if sum(kept))
    events.append(ShortageReturnTwo(say("return_two", spaces=count(n, "space"), n=RETURN_EACH), owing))
    return replace(state, phase=RETURN, to_return=owing)


def _refill(state: State, placed: tuple[tuple[Cell, str], ...], events: list[Outcome]) -> State:
    n = state.holes
    from_bag = min(n, state.bag_n)
    state = replace(state, bag_n=state.bag_n - from_bag, discards_n=state.discards_n - (n - from_bag),
                    on_board_n=CELLS)
    if state.quick:
        events.append(Outcome(say("any_new_blasts")))
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
    events.append(TurnEnded(say("turn", who=state.players[nxt]) if nxt != state.active else say("next_turn"),
                            state.active, nxt))
    zero = (0,) * len(KINDS)
    return replace(state, phase=TURN, active=nxt, turn=state.turn + 1, pending=(), turn_kept=0, waiting=(),
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


def counters(view: State) -> dict[str, int]:
    """The pile the table counts, for the text log: the candies in the bag."""
    return {"Bag": view.bag_n}


def public_view(state: State, viewer) -> State:
    """Sugar Blast hides nothing: the board, the bag count and the kept candies are in
    plain sight (the bag's own mix is counted, not secret), so every viewer sees it all."""
    return state


class SugarBlastRules(CoreRules[State]):
    """Sugar Blast's rules as the table's contract, :class:`companion.core.game.Rules` (rulebooks/sugar-blast.txt)."""

    new_game = staticmethod(new_game)
    check = staticmethod(check)
    apply = staticmethod(apply)
    step = staticmethod(step)
    result = staticmethod(result)
    public_view = staticmethod(public_view)
    counters = staticmethod(counters)


#: The one SugarBlastRules, which the descriptor's loader gives.
RULES = SugarBlastRules()
