"""What every command shares: the exit statuses, error printing, the default store, the
registered games, and reading a text argument (a file or ``-`` for stdin)."""

from __future__ import annotations

import os
import sys

from ..core.errors import DEVICE, OK, USAGE  # noqa: F401  (the exit statuses every command returns)
from ..core.game import Game
from ..games import GAMES, find_game




def user_path(text: str) -> str:
    """A file argument with a leading ``~`` expanded (``type=`` for every path option): a
    quoted ``'~/q.db'`` reaches us unexpanded and would otherwise make a folder named ``~``."""
    return os.path.expanduser(text)


def fail(message: str, status: int = USAGE) -> int:
    """Print ``companion: message`` on stderr (at error priority in systemd's journal)
    and return ``status``."""
    from ..core.journal import ERR, say

    say(message, ERR)
    return status


def game_choices() -> list[str]:
    """Every registered game's slug, for ``choices=``."""
    return list(GAMES)


def game(slug: str) -> Game:
    """The registered game (argparse has already checked the slug)."""
    return find_game(slug)


def read_text(arg: str | None, what: str) -> tuple[str, str]:
    """``(text, source)`` of a file argument, or of stdin for ``-``/None. Raises ValueError
    with a message for an unreadable or binary file."""
    from ..core.files import FileProblem, read_bytes

    source = "stdin" if arg in (None, "-") else arg
    try:
        if source == "stdin":
            text = sys.stdin.read()
        else:  # a regular file only (a FIFO would wait, /dev/zero never end), and bounded
            text = read_bytes(arg, "the file").decode("utf-8")
    except FileProblem:
        raise
    except OSError as exc:
        raise ValueError(f"cannot read {arg}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{source} is not a text file: expected {what}") from None
    if "\x00" in text:
        raise ValueError(f"{source} is not a text file: expected {what}")
    return text, source


def pygame_error():
    import pygame

    return pygame.error


def stop_on_sigterm() -> None:
    """End a long command at SIGTERM (``timeout``, systemd) with status 143, as a shell
    expects. Set before the window opens: SDL keeps a handler it finds in place rather
    than turning SIGTERM into a window-close event nobody reads during a replay."""
    import signal

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
