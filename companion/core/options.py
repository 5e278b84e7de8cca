"""A game's set-up choices (:class:`Option`), part of the game contract
(:mod:`companion.core.game` names it): the start screen and ``companion run --help``
are generated from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Option:
    """A set-up choice of a game (Sugar Blast's Goal Card, solo, quick).

    ``kind`` is ``"bool"`` (a flag), ``"choice"`` (one of ``choices``) or ``"int"``;
    ``flag`` the command-line option (``--goal``); the start screen and ``companion run
    --help`` are generated from these. ``default`` is used when it is not given.
    ``blank`` is what a choice left at None means on the start screen: ``""`` the game's
    own default ("Usual"), ``"random"`` one of ``choices`` drawn at random when the game
    needs one (Sugar Blast's Goal Card: "choose or take 1 random"; solo needs none).

    What the start screen offers: ``labels``, the buttons of a choice in order, each
    ``(value, words)`` in the cards' own words (empty: None first when the default is
    None, then every choice, each by its value); ``players``, the player counts
    ``(least, most)`` the option means something for (None: every count): with other
    counts it is not offered and keeps its default; ``by_players``, a function of the
    player count giving the value when the count alone decides it (Sugar Blast's solo
    is one player): never offered. ``least`` and ``most`` bound an ``"int"``.
    ``told``, a function of a choice giving it in full as the table tells it when the
    choice was drawn at random (Sugar Blast's Goal Card, in its printed words; None:
    its button words, else the value).
    """

    name: str
    kind: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    flag: str = ""
    blank: str = ""
    labels: tuple[tuple[Any, str], ...] = ()
    players: tuple[int, int] | None = None
    by_players: Callable[[int], Any] | None = None
    least: int = 0
    most: int = 99
    told: Callable[[Any], str] | None = None

    def offered(self, players: int) -> bool:
        """Does the start screen offer this option to a table of ``players``?

        >>> Option("solo", "bool", "Solo", False, by_players=lambda n: n == 1).offered(1)
        False
        >>> Option("all", "bool", "All cards", False, players=(2, 2)).offered(3)
        False
        """
        if self.by_players is not None:
            return False
        return self.players is None or self.players[0] <= players <= self.players[1]

    def for_players(self, players: int, value: Any) -> Any:
        """``value`` as a table of ``players`` plays it: the count's own value when the
        count decides (:attr:`by_players`), the default when not offered, else ``value``."""
        if self.by_players is not None:
            return self.by_players(players)
        return value if self.offered(players) else self.default

    def said(self, value: Any) -> str:
        """A choice in words: :attr:`told`, else its button's words, else the value itself.

        >>> Option("goal", "choice", "Goal", None, ("a-b",), labels=(("a-b", "A and B"),)).said("a-b")
        'A and B'
        """
        if self.told is not None:
            return self.told(value)
        return dict(self.labels).get(value) or str(value)

    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def parse(self, raw: Any) -> Any:
        """The value from text (or a value already typed). Raises ValueError naming the
        option and what it allows."""
        if raw is None:
            return self.default
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("1", "yes", "true", "on"):
                return True
            if str(raw).lower() in ("0", "no", "false", "off"):
                return False
            raise ValueError(f"{self.cli_flag()} is yes or no, not {raw!r}")
        if self.kind == "choice":
            if raw == "random" and self.blank == "random":
                return None  # left to chance: drawn when the game needs one (Game.fill_random)
            if raw not in self.choices:
                raise ValueError(f"{self.cli_flag()} {raw!r} is not one of: {', '.join(self.choices)}")
            return raw
        if self.kind == "int":
            try:
                return int(raw)
            except (TypeError, ValueError):
                raise ValueError(f"{self.cli_flag()} is a whole number, not {raw!r}") from None
        raise ValueError(f"option {self.name} has an unknown kind {self.kind!r}")
