"""Where things are on the Sugar Blast screen (800x480): the board, its cells, the right
side, and a grid of equal buttons. Shared by the game screen and the quick-mode pad."""

from __future__ import annotations

import pygame

from . import board as B

Rect = pygame.Rect

W, H = 800, 480
TOP = Rect(0, 0, W, 44)
CELL = 66
BOARD = Rect(26, 52, CELL * B.COLS, CELL * B.ROWS)   # a margin all round for the seat marks
RIGHT = Rect(BOARD.right + 20, 52, W - BOARD.right - 28, H - 58)
HINT = (90, 240, 255)   # the hint's outline: bright cyan, unlike the yellow of a chosen candy


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
