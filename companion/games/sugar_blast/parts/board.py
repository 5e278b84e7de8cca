"""Sugar Blast board geometry: typing boards, finding Blasts, legal swaps and gravity.

A board is a tuple of row strings, rows from 0 at the top and columns from 0 at the left
as drawn on screen (in code and ``--json``; people read them from 1: ``messages.where``); each cell is a candy letter (``R O Y G B P``) or ``.`` for empty.
Pure: no I/O. The rules that decide what a Blast is (Sugar Blast rulebook, "Gameplay"):

- a Blast is a *shape*: the maximal straight runs of 3+ candies of one kind, joined when
  a row run and a column run share a candy. Two runs of the same kind that share a candy
  are one Blast, so two Blasts never share a matched candy (their removals may overlap);
- a shape of 6 or more matched candies, or with a straight run of 5 or more, is a
  **5-6-Blast** (every candy of that kind leaves the board, keep 2): "When you match 5
  or 6 Candies". So an L or T of 6 (a run of 4 crossing a run of 3) is a 5-6-Blast, and
  so is a run of 5 crossing a run of 3 (7 candies) or a 4 crossing a 4: the biggest
  reward the rulebook has (docs/rules-notes.md);
- otherwise a shape with both a row run and a column run is a **Box-Blast**: the T, L
  and + of exactly 5 ("When you match 5 Candies in the shape of T, L, or +"). "The box"
  is its 3x3 bounding box: every candy inside it leaves. Keep 1 matched and 1 different;
- otherwise a run of 4 is a **4-Blast** (its whole row or column leaves, keep 1 matched
  and 1 different) and a run of 3 a **3-Blast** (those 3 leave, keep 1).

"Keep 1 different" is at most the number of other candies the Blast removes (a line
with holes may have none), so ``keep_other`` can be 0 where the rulebook says 1.

>>> b = ("RGB",
...      "GRR",
...      "BGB")
>>> [(s.frm, s.to, s.blasts[0].kind, s.blasts[0].candy) for s in legal_swaps(b)]
[((0, 0), (1, 0), '3', 'R'), ((1, 0), (1, 1), '3', 'G')]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from companion.core.catalogue import load_toml
from companion.core.errors import CompanionError

from .. import messages as M
from .colours import KINDS, NAMES  # noqa: F401  (NAMES: part of the board API, B.NAMES)

DATA = load_toml(__package__.rpartition(".")[0])
ROWS: int = DATA["board"]["rows"]
COLS: int = DATA["board"]["cols"]
EMPTY: str = DATA["board"]["empty"]
#: seat -> the board edge (as on screen) the seat sits at: "bottom" | "right" | "top" | "left"
SEAT_EDGES: dict[int, str] = {int(k): v for k, v in DATA["seats"]["edges"].items()}

Cell = tuple[int, int]
Board = tuple[str, ...]

#: Blast kind -> (keep of the matched kind, keep of other kinds) (rulebook, "Gameplay").
KEEPS: dict[str, tuple[int, int]] = {"3": (1, 0), "4": (1, 1), "5-6": (2, 0), "box": (1, 1)}

# Unit step toward each edge, (d_row, d_col): gravity moves candies this way.
_TOWARD = {"bottom": (1, 0), "top": (-1, 0), "right": (0, 1), "left": (0, -1)}


class BoardError(CompanionError, ValueError):
    """A typed board that is not a board: ragged rows, unknown letters, wrong size."""


@dataclass(frozen=True)
class Run:
    """A straight line of 3+ candies of one kind; ``cells`` in reading order."""

    candy: str
    cells: tuple[Cell, ...]
    across: bool  # True for a row run, False for a column run


@dataclass(frozen=True)
class Blast:
    """One Blast on a board. ``kind`` is ``"3" | "4" | "5-6" | "box"``; ``cells`` the
    matched candies (reading order); ``removes`` every cell that leaves the board;
    the player keeps ``keep_matched`` of ``candy`` and ``keep_other`` of other kinds."""

    kind: str
    candy: str
    cells: tuple[Cell, ...]
    removes: frozenset[Cell]
    keep_matched: int
    keep_other: int

    @property
    def keeps(self) -> int:
        return self.keep_matched + self.keep_other


@dataclass(frozen=True)
class Swap:
    """Swapping the neighbours ``frm`` and ``to`` makes ``blasts`` (those that contain a
    moved candy). ``frm`` is the upper or left cell of the pair."""

    frm: Cell
    to: Cell
    blasts: tuple[Blast, ...]


# ---------------------------------------------------------------- typing boards

def parse_board(text: str, size: tuple[int, int] | None = (ROWS, COLS),
                kinds: Iterable[str] = KINDS) -> Board:
    """A board from text: one row per line, one letter per cell, ``.`` for empty.

    Blank lines and spaces around a row are ignored; lower case is read as upper case.
    ``size=(rows, cols)`` is required unless None (any rectangle). Raises
    :class:`BoardError` with a message that says where the problem is.
    """
    allowed = set(kinds) | {EMPTY}
    rows = [line.strip().upper() for line in text.splitlines() if line.strip()]
    if not rows:
        raise BoardError(M.say("board_empty"))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in allowed:
                letters = " ".join(sorted(allowed - {EMPTY}, key=list(KINDS).index))
                raise BoardError(M.say("board_bad_letter", cell=M.where((r, c)).capitalize(), letter=ch,
                                       letters=letters, empty=EMPTY))
        if len(row) != len(rows[0]):
            raise BoardError(M.say("board_ragged", row=r + 1, cells=M.count(len(row), "cell"),
                                   first=M.count(len(rows[0]), "cell")))
    if size is not None and (len(rows), len(rows[0])) != tuple(size):
        raise BoardError(M.say("board_size", rows=M.count(len(rows), "row"), cols=M.count(len(rows[0]), "column"),
                               want_rows=size[0], want_cols=size[1]))
    return tuple(rows)


def format_board(board: Board) -> str:
    """The text form of a board (inverse of :func:`parse_board`)."""
    return "\n".join(board)


def cells(board: Board) -> list[Cell]:
    return [(r, c) for r in range(len(board)) for c in range(len(board[0]))]


def put(board: Board, cell: Cell, candy: str) -> Board:
    """The board with ``candy`` (or ``.``) at ``cell``."""
    r, c = cell
    row = board[r]
    return board[:r] + (row[:c] + candy + row[c + 1:],) + board[r + 1:]


def swapped(board: Board, a: Cell, b: Cell) -> Board:
    """The board with the candies at ``a`` and ``b`` exchanged."""
    ca, cb = board[a[0]][a[1]], board[b[0]][b[1]]
    return put(put(board, a, cb), b, ca)


def empty_cells(board: Board) -> list[Cell]:
    return [(r, c) for r, c in cells(board) if board[r][c] == EMPTY]


def census(board: Board) -> dict[str, int]:
    """Candies on the board by kind (kinds with none are left out)."""
    out: dict[str, int] = {}
    for row in board:
        for ch in row:
            if ch != EMPTY:
                out[ch] = out.get(ch, 0) + 1
    return out


def neighbours(a: Cell, b: Cell) -> bool:
    """True when ``a`` and ``b`` share an edge (no diagonals)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


# ---------------------------------------------------------------- runs and Blasts

def runs(board: Board) -> list[Run]:
    """Every maximal straight run of 3+ candies of one kind: row runs first, then column
    runs, each in reading order."""
    out: list[Run] = []
    n_rows, n_cols = len(board), len(board[0])
    for across, outer, inner in ((True, n_rows, n_cols), (False, n_cols, n_rows)):
        for i in range(outer):
            j = 0
            while j < inner:
                ch = board[i][j] if across else board[j][i]
                k = j + 1
                while k < inner and (board[i][k] if across else board[k][i]) == ch:
                    k += 1
                if ch != EMPTY and k - j >= 3:
                    out.append(Run(ch, tuple((i, x) if across else (x, i) for x in range(j, k)), across))
                j = k
    return out


def start_runs(board: Board) -> list[Run]:
    """Runs of 3+ at set-up, which the rulebook forbids ("There cannot be 3 or more
    Candies of the same type connected in a row or column")."""
    return runs(board)


def _shapes(found: list[Run]) -> list[list[Run]]:
    """Group runs that share a candy (union-find); runs of one kind only meet crosswise."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Cell, int] = {}
    for i, run in enumerate(found):
        for cell in run.cells:
            if cell in owner:
                parent[root(i)] = root(owner[cell])
            else:
                owner[cell] = i
    groups: dict[int, list[Run]] = {}
    for i, run in enumerate(found):
        groups.setdefault(root(i), []).append(run)
    return list(groups.values())


def _blast(board: Board, shape: list[Run]) -> Blast:
    candy = shape[0].candy
    matched = tuple(sorted({cell for run in shape for cell in run.cells}))
    longest = max(len(run.cells) for run in shape)
    filled = [cell for cell in cells(board) if board[cell[0]][cell[1]] != EMPTY]
    if longest >= 5 or len(matched) >= 6:
        kind, removes = "5-6", frozenset(c for c in filled if board[c[0]][c[1]] == candy)
        return Blast(kind, candy, matched, removes, *KEEPS[kind])
    if any(r.across for r in shape) and not all(r.across for r in shape):
        rows = [r for r, _ in matched]
        cols = [c for _, c in matched]
        kind = "box"
        removes = frozenset((r, c) for r, c in filled
                            if min(rows) <= r <= max(rows) and min(cols) <= c <= max(cols))
    elif longest == 4:
        kind, run = "4", shape[0]
        line = run.cells[0][0] if run.across else run.cells[0][1]
        removes = frozenset((r, c) for r, c in filled if (r if run.across else c) == line)
    else:
        return Blast("3", candy, matched, frozenset(matched), *KEEPS["3"])
    others = sum(board[r][c] != candy for r, c in removes)
    keep_matched, keep_other = KEEPS[kind]
    return Blast(kind, candy, matched, removes, keep_matched, min(keep_other, others))


def find_blasts(board: Board) -> list[Blast]:
    """Every Blast on the board now, ordered by their first matched cell (reading order)."""
    return sorted((_blast(board, shape) for shape in _shapes(runs(board))), key=lambda b: b.cells[0])


def _line_through(board: Board, cell: Cell) -> bool:
    """Is ``cell`` in a run of 3+ along its row or its column? (cheap pre-check)"""
    r, c = cell
    ch = board[r][c]
    if ch == EMPTY:
        return False
    for dr, dc in ((0, 1), (1, 0)):
        n = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < len(board) and 0 <= cc < len(board[0]) and board[rr][cc] == ch:
                n += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if n >= 3:
            return True
    return False


def pairs(board: Board):
    """Each unordered pair of neighbouring candies of different kinds, once: the upper or
    left cell first, pairs in reading order of that cell, the right neighbour first."""
    for r, c in cells(board):
        for to in ((r, c + 1), (r + 1, c)):
            if to[0] < len(board) and to[1] < len(board[0]):
                a, b = board[r][c], board[to[0]][to[1]]
                if EMPTY not in (a, b) and a != b:
                    yield (r, c), to


def legal_swaps(board: Board) -> list[Swap]:
    """Every swap of two neighbouring candies that makes a Blast, with the Blasts that
    contain a moved candy (a Blast already on the board is not made by the swap).

    Swapping two candies of one kind changes nothing, and cells with no candy never
    swap, so neither is listed.
    """
    out: list[Swap] = []
    for a, b in pairs(board):
        after = swapped(board, a, b)
        if not (_line_through(after, a) or _line_through(after, b)):
            continue
        made = tuple(x for x in find_blasts(after) if a in x.cells or b in x.cells)
        out.append(Swap(a, b, made))
    return out


def makes_blast(board: Board, a: Cell, b: Cell) -> bool:
    """Does swapping ``a`` and ``b`` (neighbours) make a Blast with a moved candy?"""
    if not neighbours(a, b) or EMPTY in (board[a[0]][a[1]], board[b[0]][b[1]]):
        return False
    after = swapped(board, a, b)
    return _line_through(after, a) or _line_through(after, b)


@lru_cache(maxsize=64)
def no_blasts(board: Board) -> bool:
    """True when no swap of neighbours makes a Blast ("No Blasts?" in the rulebook).
    Kept for the last boards: the screen, the flow and the rules ask it of the same board
    several times an input."""
    return not any(makes_blast(board, a, b) for a, b in pairs(board))


# ---------------------------------------------------------------- tilting and refilling

def gravity(board: Board, seat: int) -> Board:
    """The board after tilting toward ``seat`` and letting go: in every line running
    toward that seat's edge, the candies slide (keeping their order) against that edge.

    Raises ValueError for a seat with no edge in cards.toml.
    """
    dr, dc = _toward(seat)
    n_rows, n_cols = len(board), len(board[0])
    grid = [list(row) for row in board]
    if dr:
        for c in range(n_cols):
            col = [board[r][c] for r in range(n_rows) if board[r][c] != EMPTY]
            pad = [EMPTY] * (n_rows - len(col))
            for r, ch in enumerate(pad + col if dr > 0 else col + pad):
                grid[r][c] = ch
    else:
        for r in range(n_rows):
            row = [ch for ch in board[r] if ch != EMPTY]
            pad = [EMPTY] * (n_cols - len(row))
            grid[r] = pad + row if dc > 0 else row + pad
    return tuple("".join(row) for row in grid)


def slide_map(board: Board, seat: int) -> dict[Cell, Cell]:
    """Where each candy on ``board`` ends up after :func:`gravity` toward ``seat``:
    ``{cell before: cell after}`` for every cell that holds a candy."""
    dr, dc = _toward(seat)
    n_rows, n_cols = len(board), len(board[0])
    out: dict[Cell, Cell] = {}
    lines = [[(r, c) for r in range(n_rows)] for c in range(n_cols)] if dr else \
        [[(r, c) for c in range(n_cols)] for r in range(n_rows)]
    for line in lines:
        full = [cell for cell in line if board[cell[0]][cell[1]] != EMPTY]
        toward_end = (dr or dc) > 0  # candies gather at the line's far end (bottom, right)
        places = line[len(line) - len(full):] if toward_end else line[:len(full)]
        out.update(zip(full, places))
    return out


def stands(board: Board, cells: Iterable[Cell]) -> bool:
    """Are ``cells`` still all matched candies of one Blast on ``board``?"""
    cells = set(cells)
    return any(cells <= set(blast.cells) for blast in find_blasts(board))


def refill_order(board: Board, seat: int) -> list[Cell]:
    """The empty cells in the order they are filled "from bottom to top": nearest the
    tilting seat's edge first, then across from that player's left to right."""
    dr, dc = _toward(seat)

    def key(cell: Cell) -> tuple[int, int]:
        r, c = cell
        if dr > 0:
            return (-r, c)                # seat at the bottom: their left is column 0
        if dr < 0:
            return (r, -c)                # seat at the top faces down: their left is the last column
        if dc > 0:
            return (-c, -r)               # seat at the right: their left is the bottom row
        return (c, r)                     # seat at the left: their left is the top row
    return sorted(empty_cells(board), key=key)


def _toward(seat: int) -> tuple[int, int]:
    edge = SEAT_EDGES.get(seat)
    if edge is None:
        raise ValueError(f"seat {seat} has no board edge (seats are {sorted(SEAT_EDGES)})")
    return _TOWARD[edge]


# ---------------------------------------------------------------- hint

def blast_json(blast: Blast) -> dict:
    return {"kind": blast.kind, "candy": blast.candy, "cells": [list(c) for c in blast.cells]}


def hint_json(board: Board) -> dict:
    """Every legal swap and its Blasts, for ``companion hint sugar-blast --json``:
    ``{"swaps": [{"from": [r, c], "to": [r, c], "blasts": [...]}], "no_blasts": bool}``."""
    swaps = legal_swaps(board)
    return {"swaps": [{"from": list(s.frm), "to": list(s.to), "blasts": [blast_json(b) for b in s.blasts]}
                      for s in swaps],
            "no_blasts": not swaps}
