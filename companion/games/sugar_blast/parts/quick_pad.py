"""Sugar Blast's quick-mode Blast pad, drawn where the board would be: the kind (3, 4,
5-6, Box), then the colour, with a count stepper for the 5-6-Blast (the only kind that
removes more than one possible number of candies). The kind and the count are the
window's own menu (``menu quick 5-6 7``); the colour tap sends ``quick KIND X [N]``."""

from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.app import Button, TableInfo
from companion.ui.widgets import button, draw_text, panel

from . import checks
from .. import rules
from .candies import candy
from . import layout
from .layout import grid
from ..messages import blast_name, count, say

Rect = pygame.Rect

#: Quick mode's Blast kinds: (kind, button label, what it removes).
QUICK_KINDS = (("3", "3", say("screen_quick_3")), ("4", "4", say("screen_quick_4")),
               ("5-6", "5-6", say("screen_quick_56")), ("box", "Box", say("screen_quick_box")))
#: The stepper's first count, for the Blast whose size is entered (the range is the
#: rules': ``checks.quick_allowed``). The other kinds remove one number only.
QUICK_COUNTS = {"5-6": 6}


def _range(kind: str, state: rules.State) -> tuple[int, int]:
    allowed = checks.quick_allowed(kind)
    return allowed[0], max(allowed[0], min(allowed[-1], state.on_board_n))


def quick_pick(state: rules.State, info: TableInfo) -> tuple[str, int | None] | None:
    """The Blast kind (and count) chosen on the quick-mode pad, from ``info.menu``
    (``"quick KIND [N]"``), or None before a kind is tapped."""
    words = (info.menu or "").split()
    if len(words) < 2 or words[0] != "quick" or words[1] not in dict((k, 0) for k, _, _ in QUICK_KINDS):
        return None
    kind = words[1]
    if kind not in QUICK_COUNTS:
        return kind, None
    first = QUICK_COUNTS[kind]
    low, high = _range(kind, state)
    n = int(words[2]) if len(words) > 2 and words[2].isascii() and words[2].isdigit() else first
    return kind, max(low, min(high, n))


def draw(surface: pygame.Surface, state: rules.State, info: TableInfo, buttons: list[Button]) -> None:
    """Quick mode's Blast entry, on the board's place: the kind, then the colour (and for
    5-6 and Box how many candies it removed). The colour tap sends ``quick KIND X [N]``."""
    panel(surface, layout.BOARD, theme.PANEL)
    area = layout.BOARD.inflate(-16, -16)
    pick = quick_pick(state, info)
    head = Rect(area.left, area.top, area.width, 52)
    if pick is None:
        title = say("screen_quick_new") if state.phase == rules.CASCADE else say("screen_quick_which")
        draw_text(surface, title, head, theme.MEDIUM, theme.HIGHLIGHT, bold=True, align="center")
        for (kind, label, says), rect in zip(QUICK_KINDS, grid(Rect(area.left, head.bottom + 6, area.width,
                                                                      area.bottom - head.bottom - 6), 4, 2)):
            panel(surface, rect, theme.BUTTON)
            draw_text(surface, label, Rect(rect.left, rect.top + 14, rect.width, rect.height * 0.55), theme.HUGE + 16,
                      theme.TEXT_DARK, bold=True, align="center")
            draw_text(surface, says, Rect(rect.left + 6, rect.bottom - 54, rect.width - 12, 40), theme.MEDIUM - 2,
                      theme.TEXT_DARK, bold=True, align="center")
            buttons.append(Button(rect, f"menu quick {kind}"))
        return
    kind, n = pick
    name = blast_name(kind)
    back = Rect(head.right - 110, head.top, 110, head.height)
    buttons.append(Button(button(surface, back, "Back", theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "cancel"))
    draw_text(surface, say("screen_quick_colour", blast=name), Rect(head.left, head.top, back.left - head.left - 8,
                                                            head.height), theme.MEDIUM, theme.HIGHLIGHT, bold=True)
    stepper = Rect(area.left, area.bottom - 84, area.width, 84) if n is not None else None
    pal = Rect(area.left, head.bottom + 8, area.width,
               (stepper.top - 10 if stepper else area.bottom) - head.bottom - 8)
    kinds = [k for k, left in zip(rules.KINDS, state.supply) if left]
    for k, rect in zip(kinds, grid(pal, len(kinds), 2)):
        panel(surface, rect, theme.PANEL_LIGHT)
        candy(surface, rect.center, min(rect.width, rect.height) // 2 - 16, k)
        buttons.append(Button(rect, f"quick {kind} {k}" + (f" {n}" if n is not None else "")))
    if stepper is not None:
        low, high = _range(kind, state)
        minus, plus = Rect(stepper.left, stepper.top, 96, stepper.height), Rect(stepper.right - 96, stepper.top,
                                                                                96, stepper.height)
        for rect, label, to, ok in ((minus, "−", n - 1, n > low), (plus, "+", n + 1, n < high)):
            button(surface, rect, label, theme.BUTTON, size=theme.HUGE, enabled=ok)
            if ok:
                buttons.append(Button(rect, f"menu quick {kind} {to}"))
        middle = Rect(minus.right + 8, stepper.top, plus.left - minus.right - 16, stepper.height)
        panel(surface, middle, theme.BG)
        draw_text(surface, say("screen_quick_removed", n_candies=count(n, "candy")), middle.inflate(-10, 0), theme.BIG, theme.TEXT, bold=True, align="center")
