"""Lines for the operator on stderr, each with its priority for systemd's journal.

Under systemd (``StandardError=journal``) every line the service writes becomes a
journal entry, all at one priority unless the line starts with ``<N>``, the sd-daemon
prefix (``man 3 sd-daemon``; the unit's ``SyslogLevelPrefix=`` is on by default):
``<3>`` error, ``<4>`` warning, ``<5>`` notice, ``<6>`` info. systemd sets
``$JOURNAL_STREAM`` to the ``device:inode`` of that stream, so the prefix is added only
when stderr is it (``man 7 systemd.exec``); a terminal sees plain lines.
``journalctl -u companion -p err`` then shows only what needs a fix.

>>> line("no screen", ERR, journal=True), line("ready", INFO, journal=False)
('<3>companion: no screen', 'companion: ready')
"""

from __future__ import annotations

import logging
import os
import sys

ERR, WARNING, NOTICE, INFO = 3, 4, 5, 6


def to_journal(stream=None) -> bool:
    """Is ``stream`` (default stderr) systemd's journal stream (``$JOURNAL_STREAM``)?"""
    named = os.environ.get("JOURNAL_STREAM", "")
    if not named:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        dev, ino = (int(x) for x in named.split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    except Exception:  # a stream without a file descriptor (captured in tests)
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


def line(text: str, priority: int = INFO, journal: bool | None = None) -> str:
    """``companion: text``, with the ``<priority>`` prefix when ``journal`` (None: when
    stderr is the journal stream)."""
    journal = to_journal() if journal is None else journal
    return f"<{priority}>companion: {text}" if journal else f"companion: {text}"


def say(text: str, priority: int = INFO, stream=None) -> None:
    """Write one operator line to ``stream`` (stderr), prefixed for the journal; a
    line with newlines is prefixed on each line, so the journal keeps it in one priority."""
    stream = sys.stderr if stream is None else stream
    journal = to_journal(stream)
    first, *rest = str(text).split("\n")
    out = [line(first, priority, journal)] + [f"<{priority}>{r}" if journal else r for r in rest]
    try:
        stream.write("\n".join(out) + "\n")
        stream.flush()
    except (OSError, ValueError):  # stderr closed: a status line is not worth a crash
        pass


class JournalFormatter(logging.Formatter):
    """``logging`` records as :func:`line` does: ERROR and above ``<3>``, WARNING
    ``<4>``, INFO ``<6>``, DEBUG ``<7>``, when stderr is the journal stream."""

    def __init__(self, journal: bool | None = None):
        super().__init__("%(message)s")
        self.journal = to_journal() if journal is None else journal

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        n = ERR if record.levelno >= logging.ERROR else WARNING if record.levelno >= logging.WARNING else \
            INFO if record.levelno >= logging.INFO else 7
        if not self.journal:
            return f"companion: {text}"
        return "\n".join(f"<{n}>" + (f"companion: {ln}" if i == 0 else ln) for i, ln in enumerate(text.split("\n")))


def setup_logging(level: int = logging.WARNING) -> None:
    """Send the package's ``logging`` records to stderr through :class:`JournalFormatter`
    (once; ``companion run`` calls it)."""
    root = logging.getLogger("companion")
    if any(isinstance(h.formatter, JournalFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JournalFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
