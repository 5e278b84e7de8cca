"""Upright panels: the layout a screen draws when its surface is taller than wide.

On a panel taller than wide (the 720x1280 Touch Display 2 upright) the App draws on an
800 px wide surface as tall as the panel's shape allows (800x1422,
:func:`companion.ui.app.design_for`). Each screen keeps its landscape rects for 800x480
and has a second set for the upright surface; :func:`use` puts the set that fits the
surface in the screen module's names before a frame is drawn (drawing is done on one
thread, a frame at a time), so the functions that read ``BOARD`` or ``VERDICT`` draw the
upright layout unchanged.

>>> import pygame
>>> names = {"W": 800}
>>> use(names, pygame.Surface((800, 1422)), {"W": 800, "H": 480}, {"W": 800, "H": 1422})
True
>>> names["H"]
1422
"""

from __future__ import annotations

from typing import Any

import pygame

#: The verdict's words on an upright panel (em px of the 800 px drawing). The Touch
#: Display 2 is 7" like the landscape panel but has finer pixels (0.121 mm) and the
#: drawing is shown at 0.9, so the landscape floor of 26 px (theme.VERDICT_MIN, 5.0 mm)
#: would be 2.8 mm there; 44 px is 4.8 mm, and there is the room for it.
VERDICT = 44


def tall(surface: pygame.Surface | tuple[int, int]) -> bool:
    """Is ``surface`` (or a ``(w, h)`` size) taller than wide?"""
    w, h = surface if isinstance(surface, tuple) else surface.get_size()
    return h > w


def use(names: dict[str, Any], surface: pygame.Surface, landscape: dict[str, Any],
        upright: dict[str, Any]) -> bool:
    """Put ``upright``'s values in ``names`` (a screen module's ``globals()``) when
    ``surface`` is taller than wide, else ``landscape``'s. Returns True for upright."""
    up = tall(surface)
    names.update(upright if up else landscape)
    return up
