"""A config mistake under the service: shown and waited out, never crash-looped.

systemd restarts a service that exits non-zero, and after five failed starts in five
minutes it refuses to start it again until someone types ``systemctl reset-failed``: a
typo in ``/etc/companion/companion.toml`` used to lock the table out that way. Under
``--service`` the companion instead

* writes the mistake to the journal at error priority (the file, the line, what is allowed),
* shows it on the panel (:func:`companion.ui.problem.draw_problem`),
* tells systemd ``READY=1`` with a ``STATUS=`` naming the mistake once the panel shows it
  (without a panel: the ``STATUS=`` only, with the start timeout extended), and keeps
  pinging its watchdog,
* looks at the file once a second (its modification time, size and inode: an editor
  that saves a new file counts), and when it changed, returns so the caller reads it again
  and starts the table; a file still wrong is shown again.

Outside the service a config mistake still ends ``companion run`` with exit status 2.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable

from ..core.journal import ERR, say

#: Seconds between looks at the config file.
POLL = 1.0

FIX = ("Fix that line and save the file (for example: sudo nano {path}): the table starts by itself "
       "as soon as the file is right.")


def stamp(path: str | os.PathLike | None) -> tuple | None:
    """What changes when the file is saved: (mtime ns, size, inode); None when missing."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def rotation_hint(path: str | os.PathLike | None, default: int = 0) -> int:
    """The ``[display] rotation`` a config file that does not load as a whole still gives
    (a portrait panel shows the mistake the right way up), else ``default``."""
    import tomllib

    try:
        value = tomllib.loads(open(path, encoding="utf-8").read()).get("display", {}).get("rotation")
    except (OSError, TypeError, ValueError, AttributeError):
        return default
    return value if value in (0, 90, 180, 270) and not isinstance(value, bool) else default


#: A start-up failure that is not the config's: the store, a game in it, the code itself.
START_TITLE = "The table cannot start"
START_FIX = ("The table tries again by itself when {path} or the settings file changes, "
             "and every {every} seconds.")


def texts(err: Exception, path: str | None, title: str | None = None) -> tuple[str, str, str, str]:
    """The screen's four texts for a config mistake ``err``: title, where, what, fix;
    with ``title``, for another start-up failure (``path``: the file it is about)."""
    what = getattr(err, "problem", None) or str(err) or type(err).__name__
    if title is not None:  # (a sentence may begin with a file name: kept as written)
        what = what[:1].upper() + what[1:] if what.split(" ", 1)[0].isalpha() else what
        return (title, f"With {path}:" if path else "While starting:", what,
                START_FIX.format(path=path or "the game store", every=int(RETRY)))
    what = what[:1].upper() + what[1:]
    line = getattr(err, "line", None)
    where = f"In {path}" + (f", line {line}:" if line else ":") if path else "In the settings:"
    return ("The settings file has a mistake", where, what, FIX.format(path=path or "the config file"))


#: Seconds after which a start-up failure that is not a config mistake is tried again
#: (a card that was busy, a device that came late), even if no file changed.
RETRY = 30.0


def wait_for_fix(err: Exception, path: str | None, notifier: Any, stopping: Callable[[], bool] = lambda: False,
                 open_screen: Callable[[], Any] | None = None, poll: float = POLL,
                 wake: threading.Event | None = None, title: str | None = None,
                 also: tuple = (), retry: float | None = None) -> bool:
    """Show ``err`` (a :class:`~companion.service.config.ConfigError` or a plan error
    from the config's values) in the journal and on the panel, then wait until the file
    at ``path`` changes (True: read it again) or ``stopping()`` (False). ``open_screen``
    returns an :class:`~companion.ui.app.App` or raises (no panel: journal and STATUS
    only, tried again); ``notifier`` is the service's
    :class:`~companion.service.sdnotify.Notifier`; ``wake`` set ends each wait early (pass the event
    ``stopping`` reads, so SIGTERM is heard at once). For a start-up failure that is not
    a config mistake (a damaged store, a stored game this version cannot carry on, a
    fault in the code): its ``title``, the files in ``also`` watched too, and True after
    ``retry`` seconds as well."""
    from ..ui.display import Display

    mistake = title is None  # the config's own mistake (else another start-up failure)
    title, where, what, fix = texts(err, path, title)
    if mistake:
        say(f"{where} {what} (waiting for the file to be fixed; the table starts when it is)", ERR)
        status = f"config mistake: {where} {what}"
    else:
        say(f"cannot start: {err} (waiting; tried again when {path or 'a file'} changes)", ERR)
        status = f"cannot start: {what}"
    display = None
    if open_screen is not None:
        display = Display(open_screen, _Monotonic(), log=lambda line: say(line, ERR))
    watched = (path, *also)
    seen, shown = [stamp(p) for p in watched], False
    until = time.monotonic() + retry if retry is not None else None
    wake = wake or threading.Event()
    try:
        while not stopping():
            app = display.ensure() if display is not None else None
            now = time.monotonic()
            if app is not None:
                try:
                    app.poll()  # keep SDL's queue drained; taps do nothing here
                    if not shown:
                        from ..ui.problem import draw_problem

                        app.show(lambda surface: draw_problem(surface, title, where, what, fix))
                        shown = True
                except Exception as exc:  # the panel went: keep waiting, retry it
                    display.lost(exc)
                    shown = False
                    continue
                notifier.ready(status)
                notifier.status(status)
                notifier.watchdog(now)
            elif notifier.is_ready:
                notifier.status(status)
                notifier.watchdog(now)
            else:
                notifier.waiting(status + (f"; no screen: {display.problem}" if display is not None else ""), now)
            if (changed := next((p for p, was in zip(watched, seen) if stamp(p) != was), None)) is not None:
                say(f"{changed} changed: reading it again", 6)
                return True
            if until is not None and now >= until:
                say("trying to start again", 6)
                return True
            wake.wait(poll)
        return False
    finally:
        if display is not None:
            display.close()


class _Monotonic:
    """The display's back-off clock (monotonic seconds)."""

    def now(self) -> float:
        return time.monotonic()
