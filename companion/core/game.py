"""The game contract: what every game gives the rest of the companion.

Modelled on OpenSpiel's game/state API and python-chess's ``Board``/``Move``/``Outcome``.
A game is a package under ``companion/games/`` whose ``__init__`` defines ``GAME``, a
:class:`Game` descriptor, and one line in the registry (``companion/games/__init__.py``).
Shared code (the session, the CLI, the screens' chrome, the store) reaches a game only
through its descriptor and the three modules it names:

``rules`` (pure: no I/O, no pygame; imports only ``companion.core`` and the standard library)
    ``new_game(players, **options) -> state``: raises ValueError for a bad player list
    or option. ``check(state, action)``: raises :class:`IllegalAction` with a reason a
    child can read. ``apply(state, action) -> (state, events)``: trusts its caller.
    ``result(state) -> Result | None``. ``public_view(state, viewer)``: the state with
    what ``viewer`` may not see removed (:data:`TABLE` is the shared screen, the logs and
    the history; a seat number is one player). The state has ``players`` (names in seat
    order), ``active`` (0-based seat), ``phase`` (a string), ``turn`` (from 1) and
    ``over`` (bool). Optional: ``score_holdings(holdings) -> Result`` for
    ``companion score`` (``holdings``: ``[(name, [code, ...]), ...]``; raises ValueError);
    ``live_scores(view) -> [int, ...]``: each seat's score so far, where the game's screen
    shows one during play (the venue dashboard shows the same).

``flow`` (turns table inputs into rule actions)
    ``NEW_GAME``: the first message. ``new_entry() -> entry``: the empty half-entered input.
    ``read(state, entry, item) -> (entry, action | None, message)``: what one input means;
    ``action`` None means the input only changed the entry (a palette tap), and
    ``message`` says what it did. Raises :class:`BadScan`, :class:`BadCommand` or
    :class:`IllegalAction`; never changes anything. ``prompt(state, entry) -> str``: what
    the table should do now. Optional: ``secret(state, item) -> bool``: the input is a
    hidden card (a face-down Battle Card, a card of a secret hand), so its code never
    reaches a log or the screen; ``COMMANDS``: its touch commands as :class:`Command`
    objects (``help``, the unknown-command refusal, the typed names of buttons in
    headless text and the ``/swap`` and ``/deck`` menus come from them; see
    :mod:`companion.core.commands`).

``screen`` (pygame; draws inside the shared chrome of ``companion.ui``)
    ``draw_game(surface, view, info) -> list[Button]`` with ``view`` the table's
    ``public_view`` and ``info`` a :class:`companion.ui.app.TableInfo`;
    ``draw_final(surface, result, info) -> list[Button]``.

The session owns every mutation: it stores each accepted input before the state changes
and rebuilds a game by replaying its stored inputs through ``flow.read`` and the rules.
Undo is the session's, not a game's (see :mod:`companion.table.session`); an input whose events
include a :class:`~companion.core.events.Revealed` cannot be taken back.

>>> r = Result("demo", (PlayerResult("Ana", 12, {"coins": 12}), PlayerResult("Ben", 15, {"coins": 15})),
...            winners=("Ben",))
>>> [p.name for p in r.ranked()]
['Ben', 'Ana']
>>> sorted(r.to_dict())
['game', 'players', 'reason', 'tie_break', 'winners']
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Protocol, runtime_checkable

#: The viewer that stands for everything shared: the table screen, the logs, the history.
TABLE = "table"

#: Keys of :meth:`Result.to_dict`, for every game (the ``companion score --json`` shape).
RESULT_KEYS = ("game", "players", "winners", "tie_break", "reason")
PLAYER_KEYS = ("name", "score", "breakdown")


# ---------------------------------------------------------------- the outcome

#: Game slug -> its tie-break as a number from a player's ``breakdown`` (higher is
#: better), used for every place by :meth:`Result.ranked`. Filled by the registry from
#: each descriptor's ``tie_break`` (core names no game).
TIE_BREAKS: dict[str, Callable[[Mapping[str, Any]], float]] = {}

@dataclass(frozen=True)
class PlayerResult:
    """One player's final score: ``score`` in the game's points (coins, candies, ...),
    ``breakdown`` a JSON-ready dict of what made it, ``detail`` one readable line of it
    for the terminal table (empty: the breakdown is printed), ``sheet`` the game's own
    score object for its final screen (not serialised)."""

    name: str
    score: int
    breakdown: Mapping[str, Any] = field(default_factory=dict)
    detail: str = ""
    sheet: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Result:
    """How a game ended, the same for every game (python-chess's ``Outcome``).

    ``players`` in seat order; ``winners`` their names (empty: nobody won, e.g. a lost
    solo game); ``tie_break`` what decided a tie on points, or None; ``reason`` why the
    game ended (``"goal"``, ``"deck-out"``, ``"sweet-six"``, ...) or None; ``notes``
    extra lines for the terminal table; ``headline`` the game's own winner sentence
    ("Ana is the Win-O-Saur!"; empty: a plain one); ``detail`` the game's own outcome
    object for its final screen (not serialised, not compared).
    """

    game: str
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...] = ()
    tie_break: str | None = None
    reason: str | None = None
    notes: tuple[str, ...] = ()
    headline: str = ""
    detail: Any = field(default=None, compare=False, repr=False)

    def ranked(self) -> list[PlayerResult]:
        """Players best first: winners, then by score, then by the game's own tie-break
        for every place (:data:`TIE_BREAKS`: Sugarrr!'s most Fruit-O-Saur cards, Sweet
        Deals' most coins, ...), then seat order among players still equal."""
        order = {p.name: i for i, p in enumerate(self.players)}
        tie = TIE_BREAKS.get(self.game)

        def tie_value(p: PlayerResult) -> float:
            try:
                return -float(tie(p.breakdown)) if tie is not None else 0.0
            except (KeyError, TypeError, ValueError, AttributeError):  # a breakdown stored by an older version
                return 0.0

        return sorted(self.players, key=lambda p: (p.name not in self.winners, -p.score, tie_value(p), order[p.name]))

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "players": [{"name", "score", "breakdown"}], "winners", "tie_break",
        "reason"}``: the ``companion score --json`` shape, the JSON log's and the store's."""
        return {"game": self.game,
                "players": [{"name": p.name, "score": p.score, "breakdown": dict(p.breakdown)}
                            for p in self.players],
                "winners": list(self.winners), "tie_break": self.tie_break, "reason": self.reason}

    def winner_line(self) -> str:
        """One sentence naming the winners and the tie-break."""
        if self.headline:
            line = self.headline
            if self.tie_break == "shared":
                return line + " (a shared win)"
        elif not self.winners:
            line = "Nobody won this time."
        elif len(self.winners) == 1:
            line = f"{self.winners[0]} wins!"
        else:
            line = f"{' and '.join(self.winners)} share the win!"
        if self.tie_break and self.tie_break != "shared":
            line += f" (tie decided by {self.tie_break})"
        return line

    def text(self) -> str:
        """The terminal score table: players in rank order, winners starred."""
        rows = self.ranked()
        width = max([len(p.name) for p in rows] + [6]) + 2
        lines = [f"{'Player'.ljust(width)}{'Score':>6}", "-" * (width + 6)]
        for p in rows:
            mark = " *" if p.name in self.winners else ""
            detail = p.detail or ", ".join(f"{k} {_short(v)}" for k, v in p.breakdown.items())
            lines.append(f"{p.name.ljust(width)}{p.score:>6}{mark}" + (f"   {detail}" if detail else ""))
        lines.extend(self.notes)
        lines.append(self.winner_line())
        return "\n".join(lines)


def _short(value: Any) -> str:
    if isinstance(value, Mapping):
        return str(value.get("points", value.get("score", "")))
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def result_from_dict(data: Mapping[str, Any]) -> Result:
    """A :class:`Result` back from :meth:`Result.to_dict` (or a store written before the
    contract: Sugar Blast's ``total`` is read as its score). Raises ValueError when
    ``data`` is not a result."""
    try:
        players = tuple(PlayerResult(str(p["name"]), int(p.get("score", p.get("total", 0))),
                                     dict(p.get("breakdown", {})))
                        for p in data["players"])
        return Result(str(data.get("game", "")), players, tuple(data.get("winners", ())),
                      data.get("tie_break"), data.get("reason"))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a game result: {exc}") from None


# ---------------------------------------------------------------- what a game is

@runtime_checkable
class GameState(Protocol):
    """What shared code reads from any game's state."""

    players: tuple[str, ...]
    active: int
    phase: str
    turn: int

    @property
    def over(self) -> bool: ...


@dataclass(frozen=True)
class Option:
    """A set-up choice of a game (Sugar Blast's Goal Card, solo, quick).

    ``kind`` is ``"bool"`` (a flag), ``"choice"`` (one of ``choices``) or ``"int"``;
    ``flag`` the command-line option (``--goal``); the start screen and ``companion run
    --help`` are generated from these. ``default`` is used when it is not given.
    ``blank`` is what a choice left at None means on the start screen: ``""`` the game's
    own default ("Usual"), ``"random"`` one of ``choices`` drawn at random when the game
    needs one (Sugar Blast's Goal Card: "choose or take 1 random"; solo needs none).
    """

    name: str
    kind: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    flag: str = ""
    blank: str = ""

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


@dataclass(frozen=True)
class Command:
    """One touch command of a game's flow, as the table meets it.

    ``usage`` is how it is typed headless (``swap N``; the first word is the command);
    ``labels`` the words on the screen's buttons that send it ("Can't stash"); ``tries``
    commands to test whether it is accepted now (a function of the state giving them, or
    a tuple; empty: ``usage`` itself when it takes nothing); ``menu`` (for ``swap`` and
    ``deck``) what the number is when the screen opens a menu for it ("how many cards to
    swap, 1 to 5"): typed headless as ``example`` (empty: ``usage`` with 2 for N).
    """

    usage: str
    labels: tuple[str, ...] = ()
    tries: Any = ()
    menu: str = ""
    example: str = ""

    @property
    def word(self) -> str:
        return self.usage.split()[0]

    def samples(self, state: Any) -> tuple[str, ...]:
        """The commands that test it against ``state``."""
        tries = self.tries(state) if callable(self.tries) else self.tries
        return tuple(tries) or ((self.usage,) if self.usage == self.word else ())


@dataclass(frozen=True)
class CardInfo:
    """One physical card, for ``companion cards`` and label sheets: its ``code``, the
    ``name`` printed on it, which ``copy`` of that card it is (from 1), and a ``kind``."""

    code: str
    name: str
    copy: int = 1
    kind: str = ""


class NoCards(LookupError):
    """The game has no cards to scan (Sugar Blast's candies are entered by touch)."""


@dataclass(frozen=True)
class Game:
    """A game's descriptor: everything shared code may know about it.

    ``package`` is the import path of its folder (``companion.games.<folder>``); its
    ``rules``, ``flow`` and ``screen`` modules are imported on first use. ``has_cards``
    says whether it has scannable cards (then ``package.cards`` has ``CARDS``, code ->
    card with ``code``, ``name``, ``copy``). ``look`` is the game's colours and shapes for
    its screen; ``demo`` the file name of its recorded session in ``tests/data``.
    ``setup_phases``: the state's ``phase`` values that are set-up, not a turn (the turn
    limit does not run then, and the first turn's clock starts when set-up ends).
    ``tie_break``: the game's tie-break from a player's result ``breakdown``, a number,
    higher better (its rulebook's rule for a tie on points), applied to every place.
    """

    slug: str
    name: str
    prefix: str
    min_players: int
    max_players: int
    package: str
    options: tuple[Option, ...] = ()
    has_cards: bool = True
    look: Mapping[str, Any] = field(default_factory=dict)
    demo: str | None = None
    new_game_message: str = "New game."
    summary: str = ""
    setup_phases: tuple[str, ...] = ("setup",)
    tie_break: Callable[[Mapping[str, Any]], float] | None = None

    def module(self, name: str) -> ModuleType:
        """``rules``, ``flow``, ``screen`` or ``cards`` of this game."""
        path = f"{self.package}.{name}"
        return sys.modules.get(path) or importlib.import_module(path)  # every input asks: skip the import lock

    @property
    def rules(self) -> ModuleType:
        return self.module("rules")

    @property
    def flow(self) -> ModuleType:
        return self.module("flow")

    @property
    def screen(self) -> ModuleType:
        return self.module("screen")

    def cards(self) -> list[CardInfo]:
        """Every physical card, in catalogue order. Raises :class:`NoCards` when the game
        has none."""
        if not self.has_cards:
            raise NoCards(f"{self.name} has no cards to scan: {self.summary or 'it is played on the screen'}.")
        catalogue = self.module("cards").CARDS
        return [CardInfo(c.code, c.name, getattr(c, "copy", 1), str(getattr(c, "kind", "")))
                for c in catalogue.values()]

    def options_from(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value from ``given`` (name -> raw value or None), defaults
        filled in. Raises ValueError for a bad value or an option this game lacks."""
        known = {o.name: o for o in self.options}
        unknown = [k for k, v in given.items() if k not in known and v not in (None, False)]
        if unknown:
            raise ValueError(f"{self.name} has no option {unknown[0]!r}")
        return {name: option.parse(given.get(name)) for name, option in known.items()}

    def fill_random(self, names: Iterable[str], options: Mapping[str, Any], rng: Any = None) -> dict[str, Any]:
        """``options`` with each choice left to chance (an option whose ``blank`` is
        ``"random"``, at None) drawn from its ``choices`` when the game cannot start
        without it (Sugar Blast: "Players choose or take 1 random Goal Card", rulebook
        Set-up; solo needs none). ``rng``: a :class:`random.Random` (default: a new one)."""
        import random

        open_ = [o for o in self.options if o.blank == "random" and o.choices and options.get(o.name) is None]
        if not open_:
            return dict(options)
        try:
            self.rules.new_game(list(names), **options)
            return dict(options)
        except ValueError:
            rng = rng or random.Random()
            return {**options, **{o.name: rng.choice(o.choices) for o in open_}}

    def score_holdings(self, holdings: Iterable[tuple[str, list[str]]]) -> Result:
        """Score what each player holds at the end (``companion score``). Raises
        :class:`NoCards` when the game cannot be scored from cards, ValueError for a bad
        holding."""
        fn: Callable | None = getattr(self.rules, "score_holdings", None)
        if fn is None or not self.has_cards:
            raise NoCards(f"{self.name} is not scored from cards: its final scores come from the game itself.")
        return fn(list(holdings))
