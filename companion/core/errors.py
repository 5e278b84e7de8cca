"""The exceptions every part of the companion shares.

One root, :class:`CompanionError`; each specific error also inherits the builtin it
resembles (as gpiozero does), so a caller can catch either.

>>> issubclass(BadScan, ValueError) and issubclass(IllegalAction, CompanionError)
True
"""

from __future__ import annotations

from .i18n import key_of

#: Exit statuses of every command: 0 done, 1 a device or store problem, 2 bad input (a
#: bad file, code or option).
OK, DEVICE, USAGE = 0, 1, 2


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class BadScan(CompanionError, ValueError):
    """A scan that is not a card of this game: garbled, unknown, or from another game.

    ``message`` is written for a player at the table.
    """

    def __init__(self, code: str | None, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class WrongGame(BadScan):
    """A well-formed card code of another game (or of no game known here).

    ``game`` is that game's name (None: no game known here), ``playing`` the name of the
    game being played. Neither ``message`` nor :attr:`unnamed` names the code (a verdict is
    read by a child; the code stays in :attr:`code` and the JSON log).
    """

    def __init__(self, code: str, game: str | None, playing: str):
        where = game or "no game I know"
        super().__init__(code, f"That card is from {where}, not {playing}.")
        self.game = game
        self.playing = playing
        self.unnamed = f"That card is from {where}, not {playing}."


class IllegalAction(CompanionError, ValueError):
    """A card or command that is a real thing but not allowed here, by the rules.

    ``code`` names the card or command; ``message`` says why in words a child can read;
    ``key`` the catalogue key it was said in (a game's ``say`` gives a
    :class:`~companion.core.i18n.Message`; None for plain text), which finds the rulebook
    sentence behind it (:meth:`companion.core.game.Game.why`).
    """

    def __init__(self, code: str | None, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key_of(message)


class BadCommand(CompanionError, ValueError):
    """A touch or typed command that cannot be parsed (``"swap x"``): not a rules question.

    ``message`` says what the command should look like.
    """

    def __init__(self, command: str, message: str):
        super().__init__(message)
        self.code = None
        self.command = command
        self.message = message


class AmbiguousAction(IllegalAction):
    """An input that could mean two things; the player must choose first (e.g. tap a column)."""


class StoreError(CompanionError, RuntimeError):
    """The event store cannot be opened, or its contents do not replay."""


class DamagedStore(StoreError):
    """The store's file is damaged (SQLite finds it malformed: a power cut or a failing
    card). The message says which file, and how to go on: a backup copy, or a fresh file;
    ``problem`` is its first half (what is wrong) alone."""

    problem: str = ""


class DeviceError(CompanionError, OSError):
    """A reader or sensor that cannot be opened or stopped answering."""
