"""Where things are on the Sugar Blast screen: the board, its cells, the right side (under
the board on an upright panel), and a grid of equal buttons. Shared by the game screen
and the quick-mode pad. :func:`fit_to` chooses the landscape (800x480) or the upright
(800x1422) set before a frame is drawn."""

from __future__ import annotations

import pygame

from . import board as B

Rect = pygame.Rect

W, H = 800, 480
TOP = Rect(0, 0, W, 44)
CELL = 60
#: The strip all round the board for the row and column numbers and a seat's tilt cue
#: (each seat's words are read in it, turned to face that seat: it holds a 26 px line).
BAND = 38
BOARD = Rect(BAND, TOP.bottom + BAND, CELL * B.COLS, CELL * B.ROWS)
RIGHT = Rect(BOARD.right + BAND + 8, 52, W - BOARD.right - BAND - 16, H - 58)
HINT = (90, 240, 255)   # the hint's outline: bright cyan, unlike the yellow of a chosen candy

#: The side's verdict and prompt sizes (em px) and a player's row.
VERDICT_SIZE, PROMPT_SIZE, ROW_H = 20, 22, 38

LANDSCAPE = dict(W=W, H=H, TOP=TOP, CELL=CELL, BAND=BAND, BOARD=BOARD, RIGHT=RIGHT, VERDICT_SIZE=VERDICT_SIZE,
                 PROMPT_SIZE=PROMPT_SIZE, ROW_H=ROW_H)
_UP_TOP, _UP_CELL, _UP_BAND = Rect(0, 0, 800, 56), 108, 70
_UP_BOARD = Rect((800 - 6 * _UP_CELL) // 2, _UP_TOP.bottom + _UP_BAND, 6 * _UP_CELL, 6 * _UP_CELL)
#: Upright (800x1422): the board across the top, bigger cells, and what is at the right in
#: landscape (players, verdict, the phase's buttons, the big tilt and refill prompt) under it.
UPRIGHT = dict(W=800, H=1422, TOP=_UP_TOP, CELL=_UP_CELL, BAND=_UP_BAND, BOARD=_UP_BOARD,
               RIGHT=Rect(8, _UP_BOARD.bottom + _UP_BAND + 6, 784, 1422 - _UP_BOARD.bottom - _UP_BAND - 14),
               VERDICT_SIZE=44, PROMPT_SIZE=32, ROW_H=54)


def fit_to(surface: pygame.Surface, names: dict | None = None) -> bool:
    """Lay the screen out for ``surface`` (upright when taller than wide): this module's
    names, and ``names`` too (the ``globals()`` of a module that imported them)."""
    from companion.ui import portrait

    up = portrait.use(globals(), surface, LANDSCAPE, UPRIGHT)
    if names is not None:
        portrait.use(names, surface, LANDSCAPE, UPRIGHT)
    return up


def cell_rect(r: int, c: int) -> Rect:
    """Where cell (row, col) is drawn and tapped (tests sample these)."""
    return Rect(BOARD.left + c * CELL, BOARD.top + r * CELL, CELL, CELL)


def grid(area: Rect, n: int, rows: int) -> list[Rect]:
    """``n`` equal rects filling ``area`` in ``rows`` rows, 6 px apart."""
    per_row = max(1, -(-n // rows))
    gap = 6
    w = (area.width - gap * (per_row - 1)) // per_row
    h = (area.height - gap * (rows - 1)) // rows
    return [Rect(area.left + (i % per_row) * (w + gap), area.top + (i // per_row) * (h + gap), w, h) for i in range(n)]
