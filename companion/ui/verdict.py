"""The verdict banner: what the table made of the last input, told apart by shape and
layout as well as by colour, and big enough to read from across the table.

A colour-blind player (about 1 boy in 12) sees the green of an accepted verdict and the
red of a refused one as nearly the same brown (tests/test_verdict_look.py checks the two
through a deuteranopia and a protanopia simulation), so the two differ in everything
else too:

- **accepted**: a pill (round ends), no border, a tick in a disc on the *left*, then the
  words;
- **refused**: a square box with a thick bright border, the words *first* (they say what
  went wrong and what to do), and a large cross in an octagon, a stop sign, on the *right*;
- **a prompt** (neither): a plain rounded panel, words only.

Its words are drawn at :data:`~companion.ui.theme.VERDICT_MIN` or more (see there for
why that size); only when the box a screen gives cannot hold them whole at that size do
they go down to :data:`~companion.ui.theme.MIN_SIZE`: smaller words beat cut ones.
"""

from __future__ import annotations

import pygame

from . import theme
from .app import Button, TableInfo
from .messages import text
from .widgets import _polygon, _wrapped, button, draw_wrapped, panel, tick, wrap

Rect = pygame.Rect

#: The side of the refused verdict's cross (the accepted tick is smaller: :data:`TICK`).
CROSS = 60
TICK = 44
#: Width a verdict with an icon keeps for it and its gaps (the wider, the refused one's).
ICON_ROOM = CROSS + 18
#: The refused verdict's border, px (inside its box).
BORDER = 4
#: The Why? button's width in a refused verdict, px: left of its stop sign in a wide box,
#: under it in a narrow one (narrower than :data:`WHY_STACK`: a side column's verdict).
WHY_W = 96
WHY_H = 44
WHY_STACK = 480
WHY_NARROW = 74   # under the stop sign: about its width ("Why?" is 57 px at 20 px, 62 at theme.MEDIUM; 12 px of padding)

# The Why? button drawn in this frame's refused verdict (chrome.overlay makes it a touch
# target; chrome.begin_frame forgets it).
_why_buttons: list = []


def has_why(info: TableInfo) -> bool:
    """Does the verdict banner carry a Why? button (a refusal with a rulebook sentence)?"""
    return info.verdict_ok is False and info.why is not None and bool(info.verdict)


def why_room(info: TableInfo, width: int) -> int:
    """Pixels the Why? button takes from the words' width in a verdict ``width`` px wide
    (0: no button), beyond the stop sign's own room."""
    if not has_why(info):
        return 0
    return WHY_NARROW - CROSS if width < WHY_STACK else WHY_W + 8


def why_buttons() -> list:
    """The Why? button of this frame's refused verdict (``menu why``), if one was drawn."""
    return list(_why_buttons)


def stop_sign(surface: pygame.Surface, rect: Rect, colour=None) -> Rect:
    """A white-rimmed octagon with a white cross: refused (a shape no tick has)."""
    colour = theme.BAD if colour is None else colour
    r = rect.height / 2
    points = _polygon(rect.center, r, 8, turn=-90 + 22.5)
    pygame.draw.polygon(surface, theme.TEXT, points)
    pygame.draw.polygon(surface, colour, _polygon(rect.center, r - max(2, rect.height // 16), 8, turn=-90 + 22.5))
    inner = rect.inflate(-rect.width * 0.5, -rect.height * 0.5)
    width = max(4, rect.height // 7)
    pygame.draw.line(surface, theme.TEXT, inner.topleft, inner.bottomright, width)
    pygame.draw.line(surface, theme.TEXT, inner.topright, inner.bottomleft, width)
    return rect


def _words(surface: pygame.Surface, words: str, rect: Rect, size: int, max_lines: int) -> None:
    """The verdict's words at ``size`` down to :data:`theme.VERDICT_MIN`, or, when they
    cannot be whole at that size in ``rect``, down to :data:`theme.MIN_SIZE`."""
    floor = theme.VERDICT_MIN
    size = max(size, floor)
    if _wrapped(words, rect.width, rect.height, size, True, max_lines, floor)[2]:
        floor = theme.MIN_SIZE
    draw_wrapped(surface, words, rect, size, theme.TEXT, bold=True, max_lines=max_lines, min_size=floor)


def verdict(surface: pygame.Surface, rect: Rect, info: TableInfo, size: int = theme.BIG,
            max_lines: int = 2) -> None:
    """The last verdict in ``rect``: accepted (a green pill, the tick first), refused (a
    red bordered box, its words first and a stop sign after them) or a prompt (a plain
    panel). Nothing when there is no verdict. ``size``: the words' size when they fit
    (never under :data:`theme.VERDICT_MIN` while they can be whole at it)."""
    if not info.verdict:
        return
    inner = rect.inflate(-16, -6)
    if info.verdict_ok is True:
        panel(surface, rect, theme.dim(theme.OK, 0.3), radius=min(rect.height // 2, 30))
        side = max(28, min(TICK, rect.height - 14))
        icon = Rect(rect.left + 12, rect.centery - side // 2, side, side)
        tick(surface, icon)
        inner = Rect(icon.right + 12, inner.top, rect.right - icon.right - 12 - 18, inner.height)
    elif info.verdict_ok is False:
        panel(surface, rect, theme.dim(theme.BAD, 0.35), theme.BAD, width=BORDER, radius=2)
        stacked = has_why(info) and rect.width < WHY_STACK and rect.height >= 2 * BORDER + WHY_H + 42
        room = rect.height - 2 * BORDER - 8 - (WHY_H + 6 if stacked else 0)
        side = max(30, min(CROSS, room))
        edge = rect.right - BORDER - 8
        top = rect.centery - (side + WHY_H + 6) // 2 if stacked else rect.centery - side // 2
        icon = Rect(edge - WHY_NARROW // 2 - side // 2 if stacked else edge - side, top, side, side)
        stop_sign(surface, icon)
        right = (edge - WHY_NARROW if stacked else icon.left) - 10
        if has_why(info):  # the rulebook sentence behind the refusal, one tap away (issue 38)
            if stacked:  # a narrow box: under the stop sign
                why = Rect(edge - WHY_NARROW, icon.bottom + 6, WHY_NARROW, WHY_H)
            else:
                why = Rect(right - WHY_W, rect.centery - min(27, rect.height // 2 - BORDER - 2), WHY_W,
                           min(54, rect.height - 2 * BORDER - 4))
                right = why.left - 8
            button(surface, why, text("why"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM)
            if all(b.rect != why for b in _why_buttons):  # (a screen that draws its verdict again: one button)
                _why_buttons.append(Button(why, "menu why"))
        inner = Rect(rect.left + BORDER + 10, inner.top, right - rect.left - BORDER - 10, inner.height)
    else:
        panel(surface, rect, theme.PANEL)
    _words(surface, info.verdict, inner, size, max_lines)


def verdict_lines_need(text: str, width: int, icon: bool, size: int = theme.VERDICT_MIN) -> int:
    """Pixels of height a verdict box ``width`` px wide needs for ``text`` at ``size``
    (:data:`theme.VERDICT_MIN`; bold), with room for the tick or the stop sign when
    ``icon`` (the wider of the two, :data:`ICON_ROOM`)."""
    if not text:
        return 0
    font = theme.font(size, True)
    room = width - 16 - (ICON_ROOM + 2 * BORDER if icon else 0)
    return len(wrap(text, font, room)) * font.get_linesize() + 8 + (2 * BORDER if icon else 0)


def prompt_need(prompt: str, width: int) -> int:
    """Pixels of height the prompt needs at :data:`theme.MIN_SIZE` in ``width`` px
    (as :func:`verdict_and_prompt` draws it, 8 px in from each side)."""
    if not prompt:
        return 0
    small = theme.font(theme.MIN_SIZE)
    return len(wrap(prompt, small, width - 8)) * small.get_linesize() + 8


def verdict_and_prompt_need(info: TableInfo, prompt: str, width: int, verdict_h: int, gap: int = 6) -> int:
    """Pixels of height :func:`verdict_and_prompt` needs to draw the verdict at
    :data:`theme.VERDICT_MIN` and the prompt at :data:`theme.MIN_SIZE`, both whole, in
    an area ``width`` px wide: a screen that has room to spare gives it when this is
    more than its area."""
    if prompt and info.verdict and prompt in info.verdict:
        prompt = ""
    words_w = width - why_room(info, width)  # (the Why? button takes its width from the words)
    v = max(verdict_h, verdict_lines_need(info.verdict, words_w, info.verdict_ok is not None)) if info.verdict else 0
    return v + (gap if v and prompt else 0) + prompt_need(prompt, width)


def verdict_and_prompt(surface: pygame.Surface, area: Rect, info: TableInfo, prompt: str, verdict_h: int,
                       size: int = theme.BIG, prompt_size: int = theme.MEDIUM, gap: int = 6,
                       least: int = theme.MIN_SIZE) -> None:
    """The verdict at the top of ``area`` and the prompt under it. The verdict is
    ``verdict_h`` px tall, or taller when its text needs more lines at
    :data:`theme.VERDICT_MIN` (the prompt then moves down, keeping the lines it needs at
    :data:`theme.MIN_SIZE`), so a long message wraps onto more lines instead of being
    shrunk or cut. When the two cannot both be whole at those sizes (the screen gave all
    the room it had, :func:`verdict_and_prompt_need`), the verdict goes down toward
    :data:`theme.MIN_SIZE` to keep the prompt whole; and when even that cannot be, the
    verdict is drawn alone: it says what went wrong and what to do, and the prompt comes
    back with the next verdict. ``least``: the smallest the verdict may go to keep the
    prompt (a screen that passes :data:`theme.VERDICT_MIN` keeps the verdict at 26 px and
    leaves the prompt out instead, until the next verdict)."""
    h = 0
    if prompt and info.verdict and prompt in info.verdict:  # the verdict already ends with what to do
        prompt = ""
    keep = prompt_need(prompt, area.width)
    if info.verdict:
        icon = info.verdict_ok is not None
        words_w = area.width - why_room(info, area.width)
        need = verdict_lines_need(info.verdict, words_w, icon)
        if need + gap + keep > area.height and least < theme.VERDICT_MIN:
            need = verdict_lines_need(info.verdict, words_w, icon, least)
        if need + gap + keep > area.height:
            need = verdict_lines_need(info.verdict, words_w, icon)
            prompt, keep = "", 0
        h = min(area.height, max(need, min(verdict_h, area.height - gap - keep)))
        verdict(surface, Rect(area.left, area.top, area.width, h), info, size, max_lines=8)
        h += gap
    if prompt and area.height - h >= keep:
        room = Rect(area.left, area.top + h, area.width, area.height - h).inflate(-8, -4)
        draw_wrapped(surface, prompt, room, prompt_size, theme.HIGHLIGHT, max_lines=4)
