"""pygame without the modules the table never uses: a fifth of a cold start (issue 24).

``import pygame`` runs pygame's ``__init__``, which imports every module it has. Some the
table never uses: sound (``mixer``, ``mixer_music``), the clipboard (``scrap``), the
power and locale queries with the debug report (``system``, ``_debug``: they import
:mod:`platform` and pygame's data classes), the type aliases (``typing``) and the
package-data lookup (``pkgdata``: :mod:`importlib.resources`, :mod:`tempfile`,
:mod:`shutil`, :mod:`zipfile`; the table opens its font by its file and sets its own
window icon, so nothing looks anything up through it). pygame imports each of these
in a ``try`` and leaves a ``MissingModule`` when it cannot (its own way of running
without SDL_mixer, say), so marking them absent in :data:`sys.modules` before pygame's
first import skips them and changes nothing else. ``import pygame`` and a window:
240 M instructions with them, 133 M without (callgrind, pygame-ce 2.5).

:func:`install` does it, called by the start-up call of the programs that run the table
(:func:`companion.core.startup.speed_ups`; importing ``companion`` does not, issue 35).
Where pygame was imported before (a test, a tool), nothing changes. :func:`allow`
lets a skipped module be imported after all.
"""

from __future__ import annotations

import os
import sys

#: The pygame modules a table never uses (each one pygame's ``__init__`` imports in a
#: ``try``, ``urgent=0``: missing, it is a ``MissingModule``).
UNUSED = ("pygame.mixer_music", "pygame.mixer", "pygame.scrap", "pygame._debug", "pygame.system",
          "pygame.typing", "pygame.pkgdata")


def install() -> None:
    """Before pygame's first import: skip :data:`UNUSED`, and pygame's banner on stdout
    (the table's log is not the place). Does nothing once pygame is imported."""
    if "pygame" in sys.modules:
        return
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    for name in UNUSED:
        sys.modules.setdefault(name, None)


def allow(name: str) -> None:
    """Let the skipped module ``name`` (one of :data:`UNUSED`) be imported after all:
    e.g. ``pygame.pkgdata`` before ``pygame.font.Font(None, size)``, which finds
    pygame's default font through it."""
    if name in sys.modules and sys.modules[name] is None:
        del sys.modules[name]
