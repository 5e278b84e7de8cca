"""The game contract: what every game gives the rest of the companion, as types.

Modelled on OpenSpiel's ``Game``/``State`` base classes, python-chess's ``Board`` and its
variants (hooks with a default) and boardgame.io's game object (``setup``, ``moves``,
``endIf``, ``playerView``). A game is a package under ``companion/games/`` whose
``__init__`` defines ``GAME``, a :class:`Game` descriptor, plus one line in the registry
(``companion/games/__init__.py``). Shared code (the session, the CLI, the screens' chrome,
the store, the venue bus) reaches a game only through that descriptor and the three base
classes below; it never looks a game's module up by name and never asks a game's parts
what they have (``getattr``/``hasattr``): every capability is a method with a default
that says what "not supported" means.

:class:`State`
    The base of every game's state dataclass: ``players`` (names in seat order),
    ``active`` (0-based seat), ``phase`` (a string), ``turn`` (from 1), ``over``.
:class:`Rules` (pure: no I/O, no pygame; imports only ``companion.core`` and the standard library)
    ``new_game``, ``check`` (raises :class:`~companion.core.errors.IllegalAction`, changes
    nothing), ``apply`` (never refuses), ``result``, ``public_view``; with defaults:
    ``step``, ``counters``, ``live_scores``, ``bidder``, ``score_holdings``.
:class:`Flow` (turns table inputs into rule actions)
    ``read``, ``prompt``; with defaults: ``new_entry``, ``commands``, ``secret``,
    ``hidden_refusal``, ``lesson``, ``undo_words``, ``menu_number``, ``scan_again_counts``.
:class:`Screen` (pygame; draws inside the shared chrome of ``companion.ui``)
    ``draw_game``, ``draw_final``; with defaults: ``gives_hints``, ``hint_words``.

Each base class is generic in the game's own state class (``Rules[State]``), so a type
checker holds a game's parts to these signatures.

The descriptor holds each part as a loader (a function that imports the game's module and
returns its one instance), called on first use: a command that only lists cards never
imports a game's rules or pygame. The session owns every mutation: it stores each
accepted input before the state changes and rebuilds a game by replaying its stored
inputs through ``Flow.read`` and the rules. Undo is the session's, not a game's (see
:mod:`companion.table.session`); an input whose events include a
:class:`~companion.core.events.Revealed` cannot be taken back.

>>> r = Result("demo", (PlayerResult("Ana", 12, {"coins": 12}), PlayerResult("Ben", 15, {"coins": 15})),
...            winners=("Ben",))
>>> [p.name for p in r.ranked()]
['Ben', 'Ana']
>>> sorted(r.to_dict())
['game', 'players', 'reason', 'tie_break', 'winners']
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Iterable, Mapping, TypeVar

from .options import Option  # noqa: F401  (part of the contract: a game's set-up choices)

if TYPE_CHECKING:  # (only for the annotations: core imports no pygame and no game)
    from .events import Input, Outcome

#: The viewer that stands for everything shared: the table screen, the logs, the history.
TABLE = "table"

#: Keys of :meth:`Result.to_dict`, for every game (the ``companion score --json`` shape).
RESULT_KEYS = ("game", "players", "winners", "tie_break", "reason")
PLAYER_KEYS = ("name", "score", "breakdown")


# ---------------------------------------------------------------- the outcome

#: A game's tie-break: a number from a player's result ``breakdown``, higher better.
TieBreak = Callable[[Mapping[str, Any]], float]

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
    object for its final screen (not serialised, not compared); ``tie_value`` the game's
    tie-break (its descriptor's ``tie_break``, set by :meth:`Game.result`,
    :meth:`Game.score_holdings` and :meth:`Game.result_from_dict`; not serialised).
    """

    game: str
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...] = ()
    tie_break: str | None = None
    reason: str | None = None
    notes: tuple[str, ...] = ()
    headline: str = ""
    detail: Any = field(default=None, compare=False, repr=False)
    tie_value: TieBreak | None = field(default=None, compare=False, repr=False)

    def ranked(self) -> list[PlayerResult]:
        """Players best first: winners, then by score, then by the game's own tie-break
        for every place (:attr:`tie_value`: Sugarrr!'s most Fruit-O-Saur cards, Sweet
        Deals' most coins, ...), then seat order among players still equal."""
        order = {p.name: i for i, p in enumerate(self.players)}
        tie = self.tie_value

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


def result_from_dict(data: Mapping[str, Any], tie_break: TieBreak | None = None) -> Result:
    """A :class:`Result` back from :meth:`Result.to_dict` (or a store written before the
    contract: Sugar Blast's ``total`` is read as its score), ranked by ``tie_break``
    (:meth:`Game.result_from_dict` passes the game's). Raises ValueError when ``data`` is
    not a result."""
    try:
        players = tuple(PlayerResult(str(p["name"]), int(p.get("score", p.get("total", 0))),
                                     dict(p.get("breakdown", {})))
                        for p in data["players"])
        return Result(str(data.get("game", "")), players, tuple(data.get("winners", ())),
                      data.get("tie_break"), data.get("reason"), tie_value=tie_break)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a game result: {exc}") from None


# ---------------------------------------------------------------- what a game is

class State:
    """The base of every game's state (a frozen dataclass in the game's ``state.py``).

    What shared code reads from any state: ``players`` (names in seat order), ``active``
    (the 0-based seat whose turn it is), ``phase`` (a string of the game's, e.g.
    ``"setup"``; see :attr:`Game.setup_phases`), ``turn`` (from 1) and ``over`` (a field
    or a property: no input but Undo is accepted once it is True).
    """

    __slots__ = ()
    players: tuple[str, ...]
    active: int
    phase: str
    turn: int
    over: bool


#: A game's own state class, in the base classes below (``Rules[State]`` in a game).
S = TypeVar("S", bound=State)


class Rules(abc.ABC, Generic[S]):
    """A game's rules (its ``rules.py``): pure functions of a state, no I/O, no pygame.

    python-chess's ``Board.push``/``is_legal`` split: :meth:`check` decides, :meth:`apply`
    trusts its caller. The methods without a body here must be given by every game; the
    others have a default that says the game does not have that capability.
    """

    @abc.abstractmethod
    def new_game(self, players: Iterable[str], /, **options: Any) -> S:
        """The state at the start. ``options``: the descriptor's :attr:`Game.options` by
        name. Raises ValueError for a bad player list or option."""

    @abc.abstractmethod
    def check(self, state: S, action: Any, /) -> None:
        """Raise :class:`~companion.core.errors.IllegalAction` (a reason a child can read)
        when ``action`` is not allowed in ``state``. Changes nothing, runs no move."""

    @abc.abstractmethod
    def apply(self, state: S, action: Any, /) -> tuple[S, list[Outcome]]:
        """The state after ``action`` and its outcome events. Only called after
        :meth:`check` passed: never refuses."""

    @abc.abstractmethod
    def result(self, state: S, /) -> Result | None:
        """How the game ended, once ``state.over``; else None."""

    @abc.abstractmethod
    def public_view(self, state: S, viewer: Any, /) -> S:
        """``state`` with what ``viewer`` may not see removed: :data:`TABLE` (the shared
        screen, the logs, the history, the venue bus) or a 0-based seat."""

    def step(self, state: S, action: Any, /) -> tuple[S, list[Outcome]]:
        """:meth:`check`, then :meth:`apply`."""
        self.check(state, action)
        return self.apply(state, action)

    def counters(self, view: S, /) -> dict[str, int]:
        """What is left to play from, for the venue bus and the logs (``{"deck": 31}``),
        from the table's view. Default: nothing is counted."""
        return {}

    def live_scores(self, view: S, /) -> list[int] | None:
        """Each seat's score so far, where the game's screen shows one during play (the
        venue dashboard shows the same). Default None: no score before the end."""
        return None

    def bidder(self, view: S, /) -> int | None:
        """The 0-based seat an open auction waits on for a bid (Sweet Deals), which has a
        countdown of its own and is never passed by the turn clock. Default None: the game
        has no bids."""
        return None

    def score_holdings(self, holdings: list[tuple[str, list[str]]], /) -> Result:
        """Score what each player holds at the end (``companion score``; ``holdings``:
        ``[(name, [code, ...]), ...]``). Raises ValueError for a bad holding and
        :class:`NoCards` (the default) when the game is not scored from cards."""
        raise NoCards("its final scores come from the game itself.")


class Flow(abc.ABC, Generic[S]):
    """How a game reads the table (its ``flow.py``): scans, taps and tilts in, rule
    actions out (python-chess's ``parse_san``). Keeps half-entered input in an *entry*
    of its own, never in the rules state. Never changes anything."""

    #: Its touch commands (``help``, the unknown-command refusal, the typed names of
    #: buttons in headless text and the ``/swap`` and ``/deck`` menus come from them;
    #: see :mod:`companion.core.commands`). Default: none.
    commands: ClassVar[tuple[Command, ...]] = ()

    def new_entry(self) -> Any:
        """The empty half-entered input (default None: the game keeps none)."""
        return None

    @abc.abstractmethod
    def read(self, state: S, entry: Any, item: Input, /) -> tuple[Any, Any, str]:
        """What one input means: ``(entry, action | None, message)``; ``action`` None
        means the input only changed the entry (a palette tap), and ``message`` says what
        it did. Raises :class:`~companion.core.errors.BadScan`,
        :class:`~companion.core.errors.BadCommand` or
        :class:`~companion.core.errors.IllegalAction`; never changes anything."""

    @abc.abstractmethod
    def prompt(self, state: S, entry: Any, /) -> str:
        """What the table should do now, in words a child reads."""

    def secret(self, state: S, item: Input, /) -> bool:
        """Is ``item`` a hidden card (a face-down Battle Card, a card of a secret hand),
        so that its code never reaches a log or the screen? Default False: the game has
        no hidden cards."""
        return False

    def hidden_refusal(self, view: S, entry: Any, /) -> str:
        """What the table is told when a hidden card (one :meth:`secret` calls so) is
        refused, or when an input is refused for a reason only a hidden card gives. It is
        given the table's view (:meth:`Rules.public_view`) and never the card, so the words
        cannot differ by what the card is. Default: keep it hidden, and what to do now."""
        return f"That card cannot be played now: keep it hidden. {self.prompt(view, entry)}"

    def lesson(self, view: S, entry: Any, /) -> str | None:
        """A first game's prompt for the step the table is at, in the rulebook's words
        (Sugarrr!: "Now scan a card that matches the Fruit or the number ..."), from the
        table's view (it never names a hidden card); shown instead of :meth:`prompt`
        while the table learns (:mod:`companion.table.teach`). Default None: no lesson,
        the prompt is shown."""
        return None

    def undo_words(self, before: S, item: Input, action: Any, events: tuple, /) -> str | None:
        """What an Undo of ``item`` takes back, for the Undo dialog ("Undo {words}?"), in
        the cards' own words and never a card code: ``"Mia's play of Strawberry 2 onto
        column 3"``. ``before`` is the table's view before it, ``action`` the rule action
        it made (None: it only moved the half-entered input on), ``events`` its outcome
        events. Never asked for a hidden card (the session says whose it was, not which).
        Default None: the table's words for it (what it was told when it counted)."""
        return None

    def menu_number(self, view: S, verb: str, /) -> int | None:
        """The number a screen's menu for the command ``verb`` starts at (Sugarrr!'s deck
        menu starts at the Fruit Deck's count). Default None: the screen's own start."""
        return None

    def scan_again_counts(self, state: S, item: Input, /) -> bool:
        """Does the same card scanned again within the tap-off time count as a new scan
        here (a card that is shown, then played)? Default False: it is one tap, read twice."""
        return False


class Screen(abc.ABC, Generic[S]):
    """A game's panel (its ``screen.py``), drawn with pygame inside the shared chrome of
    ``companion.ui``; ``info`` is a :class:`companion.ui.app.TableInfo`. Each draw
    returns the buttons drawn, as ``companion.ui.app.Button`` values."""

    @abc.abstractmethod
    def draw_game(self, surface: Any, view: S, info: Any, /) -> list[Any]:
        """Draw the game from ``view``, the table's :meth:`Rules.public_view`."""

    @abc.abstractmethod
    def draw_final(self, surface: Any, result: Result, info: Any, /) -> list[Any]:
        """Draw the final scores of ``result``."""

    #: Does the screen give hints (the ``hint`` command)? Default False: ``hint`` is
    #: answered "this game has no hints".
    gives_hints: ClassVar[bool] = False

    def hint_words(self, view: S, /) -> str | None:
        """The hint the screen shows now, in words, for text mode's ``hint`` (None or
        empty: no hint at this step; default None, for a screen that gives none)."""
        return None


@dataclass(frozen=True)
class Command:
    """One touch command of a game's flow, as the table meets it.

    ``usage`` is how it is typed headless (``swap N``; the first word is the command);
    ``labels`` the words on the screen's buttons that send it ("Can't stash"); ``tries``
    commands to test whether it is accepted now (a function of the state giving them:
    none, and it is not offered now; or a tuple, empty: ``usage`` itself when it takes
    nothing); ``menu`` (for ``swap`` and
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
        if callable(self.tries):
            return tuple(self.tries(state))
        return tuple(self.tries) or ((self.usage,) if self.usage == self.word else ())


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


class NoHint(LookupError):
    """The game offers no ``companion hint``."""


@dataclass(frozen=True)
class Game:
    """A game's descriptor: everything shared code may know about it (boardgame.io's
    game object).

    ``rules``, ``flow`` and ``screen`` are the game's :class:`Rules`, :class:`Flow` and
    :class:`Screen`, each loaded on first use from its loader (``load_rules`` ...: a
    function of the game's that imports its module and returns its one instance), so a
    command that only lists cards imports no rules and no pygame. ``load_cards`` gives the
    card catalogue (code -> card with ``code``, ``name``, ``copy``, ``kind``); None: the
    game has no scannable cards (Sugar Blast's candies are entered by touch).
    ``load_messages`` gives every sentence the game says (its ``messages`` module's
    names -> values); ``load_hint`` the ``companion hint`` answer for a typed board (None:
    the game offers none); ``load_quickstart`` the words of its printed quick-start card
    (``companion quickstart``: ``intro``, ``start``, ``turn``, ``taps``, ``oops``,
    ``end``); ``load_why`` the rulebook sentence behind each refusal (refusal key ->
    :class:`~companion.core.why.Rule`, from its ``parts/why.toml``; None: no Why?).
    ``look`` is the game's colours and shapes for its screen;
    ``demo`` the file name of its recorded session in ``tests/data``. ``setup_phases``:
    the state's ``phase`` values that are set-up, not a turn (the turn limit does not run
    then, and the first turn's clock starts when set-up ends). ``tie_break``: the game's
    tie-break from a player's result ``breakdown``, a number, higher better (its
    rulebook's rule for a tie on points), applied to every place (:meth:`Result.ranked`).
    ``hidden_kinds``: the card kinds the rulebook ever has face down or in a secret hand
    (a face-down pile, a hand, a Battle Card kept face down): their stickers carry no
    readable name or code, since a sticker on a card's back is seen by everyone
    (``companion labels``; the reasons are in docs/rules-notes.md, "Stickers").
    """

    slug: str
    name: str
    prefix: str
    min_players: int
    max_players: int
    load_rules: Callable[[], Rules[Any]]
    load_flow: Callable[[], Flow[Any]]
    load_screen: Callable[[], Screen[Any]]
    load_messages: Callable[[], Mapping[str, Any]]
    load_cards: Callable[[], Mapping[str, Any]] | None = None
    load_hint: Callable[[str, bool], str] | None = None
    load_quickstart: Callable[[], Mapping[str, Any]] | None = None
    load_why: Callable[[], Mapping[str, Any]] | None = None
    options: tuple[Option, ...] = ()
    look: Mapping[str, Any] = field(default_factory=dict)
    demo: str | None = None
    new_game_message: str = "New game."
    summary: str = ""
    setup_phases: tuple[str, ...] = ("setup",)
    tie_break: TieBreak | None = None
    hidden_kinds: frozenset[str] = frozenset()
    _loaded: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def rules(self) -> Rules[Any]:
        """The game's :class:`Rules` (loaded on first use)."""
        got = self._loaded.get("rules")  # (asked on every input: the kept part without a call)
        return got if got is not None else self._load("rules", self.load_rules, Rules)

    @property
    def flow(self) -> Flow[Any]:
        """The game's :class:`Flow` (loaded on first use)."""
        got = self._loaded.get("flow")  # (asked on every input: the kept part without a call)
        return got if got is not None else self._load("flow", self.load_flow, Flow)

    @property
    def screen(self) -> Screen[Any]:
        """The game's :class:`Screen` (loaded on first use: imports pygame)."""
        got = self._loaded.get("screen")  # (asked on every input: the kept part without a call)
        return got if got is not None else self._load("screen", self.load_screen, Screen)

    def _load(self, name: str, loader: Callable[[], Any], base: type | None = None) -> Any:
        """``loader()``'s part, made once and kept; checked to be a ``base`` when given."""
        part = loader()
        self._loaded[name] = _typed(part, base, self.slug) if base is not None else part
        return part

    @property
    def has_cards(self) -> bool:
        """Does the game have scannable cards (a catalogue)?"""
        return self.load_cards is not None

    def catalogue(self) -> Mapping[str, Any]:
        """The card catalogue, code -> card. Raises :class:`NoCards` when the game has none."""
        if self.load_cards is None:
            raise NoCards(f"{self.name} has no cards to scan: {self.summary or 'it is played on the screen'}.")
        got = self._loaded.get("cards")
        return got if got is not None else self._load("cards", self.load_cards)

    def cards(self) -> list[CardInfo]:
        """Every physical card, in catalogue order. Raises :class:`NoCards` when the game
        has none."""
        return [CardInfo(c.code, c.name, c.copy, str(c.kind)) for c in self.catalogue().values()]

    def messages(self) -> Mapping[str, Any]:
        """Every sentence the game says: its ``messages`` module's names -> values."""
        return self.load_messages()

    def why(self, key: str | None) -> Any:
        """The rulebook sentence behind the refusal said in catalogue key ``key``
        (a :class:`~companion.core.why.Rule`: its section and the sentence), or None
        when the game gives none for it (no key, a plain-text refusal, no ``load_why``)."""
        if key is None or self.load_why is None:
            return None
        got = self._loaded.get("why")
        rules = got if got is not None else self._load("why", self.load_why)
        return rules.get(key)

    def hint(self, board: str, as_json: bool = False) -> str:
        """``companion hint``'s answer for a board typed as text. Raises ValueError for a
        bad board, :class:`NoHint` when the game offers none."""
        if self.load_hint is None:
            raise NoHint(f"{self.name} has no hints to give.")
        return self.load_hint(board, as_json)

    def result(self, state: State) -> Result | None:
        """How the game in ``state`` ended (:meth:`Rules.result`), ranked by this game's
        tie-break; None while it is not over."""
        return self._ranked(self.rules.result(state))

    def result_from_dict(self, data: Mapping[str, Any]) -> Result:
        """A stored result (:meth:`Result.to_dict`) back, ranked by this game's tie-break.
        Raises ValueError when ``data`` is not a result."""
        return result_from_dict(data, self.tie_break)

    def _ranked(self, result: Result | None) -> Result | None:
        if result is None or self.tie_break is None or result.tie_value is not None:
            return result
        return replace(result, tie_value=self.tie_break)

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
        """Score what each player holds at the end (``companion score``), ranked by this
        game's tie-break. Raises :class:`NoCards` when the game cannot be scored from
        cards, ValueError for a bad holding."""
        unscored = NoCards(f"{self.name} is not scored from cards: its final scores come from the game itself.")
        if not self.has_cards:
            raise unscored
        try:
            result = self.rules.score_holdings(list(holdings))
        except NoCards:  # (the Rules default: this game scores only itself)
            raise unscored from None
        ranked = self._ranked(result)
        assert ranked is not None
        return ranked


def _typed(part: Any, base: type, slug: str) -> Any:
    """``part``, checked to be an instance of ``base`` (a game's loader gave the wrong
    thing: a programming error, said at once, not on the first input that needs it)."""
    if not isinstance(part, base):
        raise TypeError(f"the {slug} game's {base.__name__.lower()} loader gave {type(part).__name__}, "
                        f"not a {base.__name__}")
    return part
