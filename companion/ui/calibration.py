"""The tray calibration screen (``companion calibrate --screen``)."""

from __future__ import annotations


def draw_calibration(surface, cal, g) -> list:
    """The calibration screen: the step number, the instruction in big type, and which
    seats are done. Returns no buttons (the tray itself is the input)."""
    from pygame import Rect

    from . import theme
    from .widgets import draw_text, draw_wrapped

    w, h = surface.get_size()
    draw_text(surface, "Tray calibration", Rect(20, 16, w - 40, 50), theme.TITLE, theme.HIGHLIGHT, bold=True)
    colour = theme.OK if cal.done else theme.TEXT
    draw_wrapped(surface, cal.prompt, Rect(20, 110, w - 40, 180), theme.TITLE, colour, bold=True, max_lines=3)
    done = cal.seats if cal.done else cal.seat - 1
    marks = "   ".join(f"Seat {n} {'done' if n <= done else '...'}" for n in range(1, cal.seats + 1))
    draw_text(surface, marks, Rect(20, 330, w - 40, 40), theme.MEDIUM, theme.TEXT, align="center")
    if g is not None:
        draw_text(surface, f"sensor: x {g[0]:+.2f} g   y {g[1]:+.2f} g   z {g[2]:+.2f} g",
                  Rect(20, h - 60, w - 40, 40), theme.SMALL, theme.TEXT, align="center")
    return []
