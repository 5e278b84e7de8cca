"""Opening the screen without ever taking the table down.

The display is opened before a game is created, and a display that cannot be opened is
not fatal: :class:`Display` logs which SDL video driver was tried, SDL's error and what to
do about it, and the caller carries on headless (readers, rules and store keep going)
while :meth:`Display.ensure` tries again with a growing delay. The first time it opens,
the caller draws the current state.

SDL falls back to its invisible ``offscreen`` (or ``dummy``) driver when it finds no
screen, which shows a family a black panel with no error; :func:`open_display` refuses
those drivers unless they were asked for (``SDL_VIDEODRIVER=dummy`` in the tests, or
``allow_virtual`` under ``--simulate``).

>>> import os; os.environ["SDL_VIDEODRIVER"] = "dummy"
>>> app = open_display()
>>> app.size
(800, 480)
>>> app.close()
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

import pygame

from ..core.journal import ERR, INFO, say

#: SDL's drivers that draw on nothing a person can see.
VIRTUAL_DRIVERS = ("offscreen", "dummy")

#: Seconds between tries to open the display: it grows, then stays at the last value.
BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)

FIX = ("To fix it on the Pi: add the companion's user to the video and render groups "
       "(sudo usermod -aG video,render {user}, then log in again), run it on the console seat "
       "(tty1; the systemd unit's TTYPath=/dev/tty1), and set SDL_VIDEODRIVER=kmsdrm; "
       "on a desktop, run it inside the desktop session (DISPLAY or WAYLAND_DISPLAY set).")

#: The libraries SDL's kmsdrm driver opens at run time, and the Debian packages that hold
#: them (Raspberry Pi OS Lite has none of them; the desktop image has all).
GRAPHICS_LIBS = {"libgbm.so.1": "libgbm1", "libEGL.so.1": "libegl1", "libGLESv2.so.2": "libgles2"}


def loads(name: str) -> bool:
    """Can this process load the shared library ``name`` (as SDL does, by its soname)?"""
    import ctypes

    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def missing_graphics(load=loads) -> list[str]:
    """Which of :data:`GRAPHICS_LIBS` cannot be loaded here."""
    return [name for name in GRAPHICS_LIBS if not load(name)]


def fix_for(driver: str, load=loads) -> str:
    """What to do about a screen that did not open with ``driver``: the missing graphics
    libraries first (no group or tty fixes a missing library), else the groups (naming
    this user), the console seat and the driver."""
    import getpass

    if driver in ("kmsdrm", "(SDL's own choice)", ""):
        lost = missing_graphics(load)
        if lost:
            return (f"To fix it: sudo apt install {' '.join(GRAPHICS_LIBS[n] for n in lost)} (SDL's kmsdrm driver "
                    f"draws through {', '.join(lost)}, which are not installed).")
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    return FIX.format(user=user)


class DisplayUnavailable(RuntimeError):
    """The screen could not be opened: ``driver`` tried, SDL's ``error``, and a ``fix``
    (default :func:`fix_for` the driver)."""

    def __init__(self, driver: str, error: str, fix: str | None = None):
        super().__init__(f"no screen: SDL video driver {driver!r}: {error}")
        self.driver, self.error = driver, error
        self.fix = fix if fix is not None else fix_for(driver)

    def explain(self) -> str:
        """The whole log line: what failed, the fix, and what happens meanwhile."""
        return (f"{self}. {self.fix} Meanwhile the table runs without a screen: "
                "scans and scores still count, and the screen shows them once it opens.")


def asked_driver() -> str:
    """The video driver named in ``SDL_VIDEODRIVER`` ("" when SDL chooses)."""
    return os.environ.get("SDL_VIDEODRIVER", "").strip().lower()


def open_display(size: tuple[int, int] | None = None, fullscreen: bool = False,
                 allow_virtual: bool = False, rotation: int = 0, kiosk: bool = False, output: str | None = None):
    """The :class:`~companion.ui.app.App` window, or :class:`DisplayUnavailable`.

    ``size`` None: full screen (``fullscreen``) and SDL's ``kmsdrm`` driver open at the
    panel's own mode (:func:`~companion.ui.app.panel_size`: a 1024x600 or 720x1280
    panel is filled, and taps are measured on it); a window on a desktop is 800x480.
    ``kiosk``: Escape and a window close are ignored (the Pi's service); ``output``: the
    connector of the display to use (``[display] output``, :mod:`companion.ui.outputs`).
    An invisible driver (``offscreen``, ``dummy``) is accepted only when
    ``SDL_VIDEODRIVER`` names it or ``allow_virtual`` is set."""
    from .app import DESIGN, App

    asked = asked_driver()
    if size is None and not (fullscreen or asked == "kmsdrm"):
        size = DESIGN
    try:
        app = App(size=size, fullscreen=fullscreen, rotation=rotation, kiosk=kiosk, output=output)
    except pygame.error as err:
        try:
            pygame.display.quit()
        except pygame.error:  # pragma: no cover - SDL half started
            pass
        raise DisplayUnavailable(asked or "(SDL's own choice)", str(err) or "SDL gave no reason") from None
    driver = (pygame.display.get_driver() or "").lower()
    if driver in VIRTUAL_DRIVERS and not allow_virtual and asked != driver:
        app.close()
        raise DisplayUnavailable(driver, f"SDL found no screen and chose its invisible {driver!r} driver, "
                                 "so nothing would be seen")
    return app


def _stderr(line: str) -> None:
    """A display problem for the journal (error priority: there is no picture)."""
    say(line, ERR)


def _info(line: str) -> None:
    say(line, INFO)


@dataclass
class Display:
    """The window, opened now or later. ``opener`` returns an App or raises
    :class:`DisplayUnavailable` (or ``pygame.error``); ``clock`` gives seconds; ``log``
    takes one line. :meth:`ensure` is cheap to call every loop turn: it only tries again
    once the back-off delay has passed."""

    opener: Callable[[], Any]
    clock: Any
    log: Callable[[str], None] = _stderr   # why there is no screen (journal: error)
    info: Callable[[str], None] | None = None  # the screen is open again (None: to ``log``, or the journal at info)
    app: Any = None
    failures: int = 0
    next_try: float = float("-inf")
    opened: int = 0                      # how many times it has opened (a lost screen reopens)
    backoff: tuple[float, ...] = field(default=BACKOFF)
    problem: str = ""                    # why there is no screen now ("" while it is open)

    def ensure(self) -> Any:
        """The open App, opening it if it is closed and the wait is over; None while there
        is no screen."""
        if self.app is not None:
            return self.app
        now = self.clock.now()
        if now < self.next_try:
            return None
        try:
            self.app = self.opener()
        except (DisplayUnavailable, pygame.error) as err:
            delay = self.backoff[min(self.failures, len(self.backoff) - 1)]
            self.failures += 1
            self.next_try = now + delay
            if not isinstance(err, DisplayUnavailable):
                err = DisplayUnavailable(asked_driver() or "(SDL's own choice)", str(err))
            self.problem = str(err)
            if self.failures == 1:
                self.log(err.explain() + f" Trying the screen again in {delay:g} s.")
            else:
                self.log(f"{err} (try {self.failures}); trying again in {delay:g} s.")
            return None
        self.opened += 1
        if self.failures:
            tell = self.info or (_info if self.log is _stderr else self.log)
            tell(f"the screen is open (SDL driver {pygame.display.get_driver()!r}) after "
                     f"{self.failures} failed tr{'y' if self.failures == 1 else 'ies'}.")
        self.failures, self.next_try, self.problem = 0, float("-inf"), ""
        return self.app

    def lost(self, err: BaseException) -> None:
        """Drawing failed (the panel went away): close the window and try again later."""
        app, self.app = self.app, None
        if app is not None:
            try:
                app.close()
            except pygame.error:
                pass
        self.failures = max(self.failures, 1)
        self.next_try = self.clock.now() + self.backoff[0]
        self.problem = f"the screen stopped working ({err})"
        self.log(f"the screen stopped working ({err}); carrying on without it and trying again.")

    def close(self) -> None:
        if self.app is not None:
            self.app.close()
            self.app = None
