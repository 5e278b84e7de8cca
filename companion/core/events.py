"""Inputs (what the table did) and the base of outcome events (what the rules said).

Inputs arrive on the session queue from device threads and the UI. Every accepted
input is stored, so each one round-trips through :func:`input_to_dict` and
:func:`input_from_dict`. Times ``t`` are seconds on the session clock.

>>> input_from_dict(input_to_dict(CardScanned("SRS71M", "serial", 1.5)))
CardScanned(code='SRS71M', reader='serial', t=1.5, seat=None)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Union


@dataclass(frozen=True)
class CardScanned:
    """A reader delivered one read. ``code`` is None when the read was garbled beyond
    decoding (e.g. not text). ``seat`` is the seat bound to the reader, if any."""

    code: str | None
    reader: str
    t: float
    seat: int | None = None


@dataclass(frozen=True)
class TrayTilted:
    """The Sugar Blast tray is tilted toward ``seat`` (1-based) by ``angle`` degrees."""

    seat: int
    angle: float
    t: float


@dataclass(frozen=True)
class TrayLevel:
    """The Sugar Blast tray came back to level."""

    t: float


@dataclass(frozen=True)
class ButtonPressed:
    """A GPIO arcade button (``confirm`` or ``undo``) was pressed."""

    name: str
    t: float


@dataclass(frozen=True)
class TouchCommand:
    """A touch command read once, the one way every part reads it: ``verb`` its first
    word in lower case ("" for an empty command), ``args`` the other words as typed
    (a game lower-cases them where case does not matter), ``text`` the command as sent.

    >>> TouchCommand.parse("  Swap 2 ")
    TouchCommand(verb='swap', args=('2',), text='  Swap 2 ')
    >>> TouchCommand.parse("").verb
    ''
    """

    verb: str
    args: tuple[str, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> "TouchCommand":
        """``text`` split into its verb and arguments at any run of white space."""
        words = text.split()
        return cls(words[0].lower() if words else "", tuple(words[1:]), text)

    def is_just(self, verbs: "tuple[str, ...] | frozenset[str]") -> bool:
        """Is it one of ``verbs`` with nothing after it (``"undo"``, not ``"undo 2"``)?"""
        return self.verb in verbs and not self.args

    def key(self) -> str:
        """The command with its case and spacing left out (``"swap 2"``): the same tap."""
        return " ".join((self.verb, *(a.lower() for a in self.args))).strip()


@dataclass(frozen=True)
class Touch:
    """A command from the touchscreen (or typed with ``/`` under ``--simulate``),
    e.g. ``"column 3"``, ``"done"``, ``"swap 2"``, ``"pass"``, ``"deck 40"``;
    :attr:`parsed` is it read once (:class:`TouchCommand`)."""

    command: str
    t: float

    @property
    def parsed(self) -> TouchCommand:
        """The command read once, for every part that asks what it says (kept beside the
        fields, not one of them: equality, the store and the logs never see it)."""
        got = self.__dict__.get("_parsed")
        if got is None:  # (not functools.cached_property: it takes a lock on every read in 3.11)
            got = self.__dict__["_parsed"] = TouchCommand.parse(self.command)
        return got


@dataclass(frozen=True)
class DeviceStatus:
    """A device changed state (``"connected"``, ``"disconnected"``, ``"offline"``...).
    Shown on screen, never stored: it is not a game input."""

    device: str
    status: str
    t: float
    detail: str = ""


Input = Union[CardScanned, TrayTilted, TrayLevel, ButtonPressed, Touch]

#: What kind of input each is, in one word: the one mapping every part uses (the venue
#: bus's ``input`` field, the keys that tell the same input again).
INPUT_KINDS: dict[type, str] = {CardScanned: "scan", Touch: "touch", TrayTilted: "tilt", TrayLevel: "level",
                                ButtonPressed: "button"}


def input_kind(item: Any) -> str:
    """``"scan"``, ``"touch"``, ``"tilt"``, ``"level"`` or ``"button"`` (:data:`INPUT_KINDS`);
    another object's class name in lower case."""
    return INPUT_KINDS.get(type(item), type(item).__name__.lower())
_INPUT_TYPES = {cls.__name__: cls for cls in (CardScanned, TrayTilted, TrayLevel, ButtonPressed, Touch)}


def input_to_dict(item: Input) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": "CardScanned", "code": ..., "t": ...}``."""
    return {"type": type(item).__name__, **asdict(item)}


def input_from_dict(data: dict[str, Any]) -> Input:
    """Inverse of :func:`input_to_dict`. Raises ValueError for an unknown type."""
    data = dict(data)
    kind = data.pop("type", None)
    cls = _INPUT_TYPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown input type {kind!r}")
    names = {f.name for f in fields(cls)}
    values = {k: v for k, v in data.items() if k in names}
    for name, value in values.items():
        allowed = _FIELD_TYPES.get(name, ())
        if allowed and not (isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)):
            raise ValueError(f"{kind}.{name} is {value!r}, not what an input holds")
    return cls(**values)


#: The value types each input field may hold (None where the field may be empty).
_FIELD_TYPES: dict[str, tuple] = {"code": (str, type(None)), "reader": (str,), "t": (int, float),
                                  "seat": (int, type(None)), "angle": (int, float), "name": (str,),
                                  "command": (str,)}


@dataclass(frozen=True)
class Outcome:
    """Base of every outcome event a game's rules return. ``message`` is for the screen.
    ``sound``: the table's sound it calls for beyond the verdict's own (``"refill"``;
    see :mod:`companion.ui.sound`), empty for none."""

    message: str
    sound: ClassVar[str] = ""


@dataclass(frozen=True)
class TurnEnded(Outcome):
    """The turn passed from seat ``player`` to seat ``next_player`` (0-based). Every game
    returns this (or a subclass) so the session restarts the turn timer."""

    player: int
    next_player: int


@dataclass(frozen=True)
class GameOver(Outcome):
    """The game is over; ``result`` is its :class:`companion.core.game.Result`."""

    result: Any = None


@dataclass(frozen=True)
class Revealed(Outcome):
    """Hidden information became public (a face-down card was flipped, a hand shown).
    The input that caused it cannot be undone: the table has seen it."""

    def cards(self) -> tuple[str, ...] | None:
        """The codes of the cards this made public; None (the default): it does not say
        which, so everything hidden may be (a game's end, every hand shown)."""
        return None


@dataclass(frozen=True)
class Undone(Outcome):
    """The session took back the input numbered ``seq`` (an Undo, stored like any input)."""

    seq: int
