"""No key typed on the console ends the table (issue 37).

The service's standard input is tty1 (``StandardInput=tty-fail``: the logind session
that gives SDL the display is opened on it). With the terminal's ``ISIG`` on, Ctrl+C on
a keyboard plugged into the Pi, or the ETX byte (0x03) a scanner may be set to end its
codes with, is SIGINT and ends the table; Ctrl+\\ is SIGQUIT and kills it; Ctrl+Z stops
it. Under ``--service`` the companion, before it loads anything else:

* turns ``ISIG`` off on its standard input when that is a terminal (the keys are then
  plain characters nobody reads), and
* ignores SIGINT, SIGQUIT and SIGTSTP (a key pressed in the instant before, a terminal
  that is not stdin). SDL leaves a signal that is ignored alone.

systemd's ``TTYReset=yes`` puts the terminal back as it was at the next start; a desk run
with ``--service`` gets its terminal back at exit.
"""

from __future__ import annotations

import atexit
import os
import signal

#: The signals a key on the console can send.
KEY_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGQUIT", "SIGTSTP") if hasattr(signal, name))


def keys_cannot_signal(fd: int = 0) -> bool:
    """``ISIG`` off on ``fd`` when it is a terminal, and the key signals ignored. True
    when the terminal's setting was changed (it is put back at exit)."""
    for sig in KEY_SIGNALS:
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (OSError, ValueError):  # not the main thread, or not allowed
            pass
    try:
        import termios

        if not os.isatty(fd):
            return False
        before = termios.tcgetattr(fd)
        after = list(before)
        after[3] &= ~termios.ISIG
        termios.tcsetattr(fd, termios.TCSANOW, after)
    except (ImportError, OSError):  # termios.error is an OSError
        return False
    atexit.register(_restore, fd, before)
    return True


def _restore(fd: int, attrs: list) -> None:
    import termios

    try:
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except OSError:
        pass
