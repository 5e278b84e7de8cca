"""The table's plan: everything ``companion run`` was asked for, from the config file and
the command line, merged into one typed value and checked in one place.

The config file fills what the command line left out
(:func:`companion.service.config.apply_to_run`); :func:`make_plan` then checks every value
before anything is opened or stored, so a typo never leaves a new game behind or sets
one aside. :func:`companion.table.build.open_table` builds the table from the plan.
"""

from __future__ import annotations

import errno
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.clock import SystemClock
from ..core.errors import DEVICE, USAGE, CompanionError
from ..core.names import NAME_MAX, name_problem
from ..devices.readers import ReaderSpec, parse_entry, resolve
from ..devices.scan.keys import DEFAULT_END, ScanEnd
from ..devices.scan.normalise import Framing
from ..games import GAMES, find_game
from ..ui.timers import Timers

#: Characters: a longer name does not fit a screen, a log line or a score table.
#: The longest a timer may be set to: 24 hours, in each option's own unit.
TIMER_LIMITS = {"turn_limit": ("--turn-limit", "seconds per turn", 24 * 3600),
                "chess_clock": ("--chess-clock", "minutes per player", 24 * 60),
                "bid_seconds": ("--bid-seconds", "seconds for each bid", 24 * 3600)}


class PlanError(CompanionError, ValueError):
    """A value the table cannot be built from: ``message`` in the user's words (naming the
    option), and ``status``, the exit status (:data:`USAGE` or :data:`DEVICE`)."""

    def __init__(self, message: str, status: int = USAGE):
        super().__init__(message)
        self.status = status


@dataclass
class TablePlan:
    """What to build: the game and its players, the readers, the tray, GPIO, the display,
    the timers, the store and the logs. Times are seconds unless named otherwise.

    ``ask`` is True when the start screen chooses the game and the players (no
    ``--game``, ``--names`` or ``--players``, and a screen); ``names`` is empty when an
    unfinished game is resumed."""

    game: str
    names: list[str]
    options: dict
    store: str
    given_options: dict = field(default_factory=dict)  # as given (None: not given), to tell a resumed game
    ask: bool = False
    game_given: bool = False
    new_game: bool = False
    readers: list[ReaderSpec] = field(default_factory=list)
    framing: Framing = field(default_factory=lambda: Framing((), ()))
    tap_off: float = 1.0
    scan_end: ScanEnd = DEFAULT_END      # how a keyboard-mode scan ends ([readers] end and gap)
    tray: str | None = None                 # "i2c:N" or "emulated"
    calibration: str | None = None          # the tray calibration file (None: the user's)
    tilt: Any = None                        # the [tilt] TiltConfig with a tray (None: the defaults)
    gpio: dict = field(default_factory=dict)  # the config's [gpio] table
    buzzer: int | None = None               # BCM pin numbers
    led: int | None = None
    headless: bool = False
    simulate: bool = False
    fullscreen: bool = False
    rotation: int = 0                       # degrees clockwise
    output: str | None = None               # the display's connector ([display] output), None: SDL's first
    theme: str | None = None
    volume: float = 0.7                     # the config's [sound] volume, 0 to 1
    mute: bool = False                      # [sound] mute
    config_path: str | None = None          # the config file the menu's settings are written to (None: not written)
    timers: Timers = field(default_factory=Timers)
    record: str | None = None               # --record: the trace file
    log_format: str = "text"                # "text" | "json"
    service: bool = False                   # --service: the Pi's kiosk under systemd (companion/cli/run.py)

    @property
    def desc(self):
        """The game's :class:`~companion.core.game.Game` descriptor."""
        return find_game(self.game)


def make_plan(args: Any, cfg: dict[str, dict[str, Any]], game_flag: bool = False) -> TablePlan:
    """The plan from ``companion run``'s parsed ``args`` (already filled from the config
    file, ``args.game`` included) and the config ``cfg`` itself; ``game_flag``: ``--game``
    was on the command line. Checks every value, in the order a user fixes them. Raises
    :class:`PlanError` naming the option and how to write it."""
    ask = not game_flag and not args.names and args.players is None and not args.headless
    _check_record(args)
    names = _names(args)
    options = _options(args)
    if args.record:
        try:  # can it be written at all? Found out now, before a game is stored
            with open(args.record, "a"):
                pass
        except OSError as err:
            raise PlanError(f"cannot write the record {args.record}: {err.strerror or err}") from None
    for flag, pin in (("--buzzer", args.buzzer), ("--led", args.led)):
        if pin is not None and not 2 <= pin <= 27:
            raise PlanError(f"{flag} {pin}: a GPIO pin is a BCM number from 2 to 27 (GPIO17 is pin 11 on the header)")
    if not (args.tap_off >= 0 and args.tap_off < 60):
        raise PlanError("--tap-off is in seconds, from 0 to 60")
    timers = _timers(args)
    scan_end = _scan_end(args)
    readers = _readers(args, names)
    try:
        tilt = None
        if args.tray:  # the tray's modules load only for a table with a tray
            from ..devices.tilt import TiltConfig

            tilt = TiltConfig.from_dict(cfg["tilt"])
    except ValueError as err:
        raise PlanError(str(err)) from None
    if args.headless and not readers and not args.tray and not args.simulate:
        raise PlanError("--headless with no --scanner, no --tray and no --simulate has nothing to read plays from: "
                        "add a reader (--scanner serial:/dev/ttyACM0) or --simulate to type card codes")
    given = {o.name: getattr(args, o.name, None) for g in GAMES.values() for o in g.options}
    return TablePlan(game=args.game, names=names, options=options, store=args.store, ask=ask, given_options=given,
                     game_given=game_flag or args.game != next(iter(GAMES)),
                     new_game=args.new_game, readers=readers,
                     framing=Framing(tuple(args.scan_prefix), tuple(args.scan_suffix)), tap_off=args.tap_off,
                     scan_end=scan_end,
                     tray=args.tray, calibration=cfg["tray"]["calibration"],
                     tilt=tilt, gpio=cfg["gpio"], buzzer=args.buzzer, led=args.led,
                     headless=args.headless, simulate=args.simulate, fullscreen=args.fullscreen,
                     rotation=args.rotation, output=getattr(args, "output", None), theme=args.theme,
                     timers=timers, record=args.record,
                     volume=float(cfg.get("sound", {}).get("volume", 0.7)), mute=bool(cfg.get("sound", {}).get("mute")),
                     log_format=args.log_format, service=bool(getattr(args, "service", False)),
                     config_path=_config_path(args))


def _config_path(args) -> str | None:
    """The config file this run read (``--config``; ``companion run`` puts the user's
    there when none was given): the game menu's settings are written there."""
    where = getattr(args, "config", None)
    return None if where is None else str(where)


def _check_record(args) -> None:
    if args.record and (Path(args.record).is_dir() or not Path(args.record).parent.is_dir()):
        raise PlanError(f"--record {args.record}: not a file in a folder that exists")
    if args.record is not None and not str(args.record).strip():
        raise PlanError("--record needs a file name for the trace")
    if args.record:
        problem = record_problem(Path(args.record), Path(args.store))
        if problem:
            raise PlanError(problem)


def _names(args) -> list[str]:
    """The player names from --names/--players (empty: none given)."""
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if args.players is not None and names and len(names) != args.players:
        raise PlanError(f"--players {args.players} but {len(names)} names in --names")
    if not names and args.players is not None:
        if not 1 <= args.players <= 8:
            raise PlanError("--players is a number of players, from 1 to 8")
        names = [f"Player {i}" for i in range(1, args.players + 1)]
    if any(not n for n in names):
        raise PlanError("--names has an empty name: write them like --names Mum,Dad,Maya")
    for n in names:
        problem = name_problem(n)
        if problem is not None and len(n) > NAME_MAX:
            raise PlanError(f"--names: a name is at most {NAME_MAX} characters")
        if problem is not None:
            raise PlanError(f"--names: a name {problem}")
    seen: dict[str, str] = {}
    for n in names:  # the start screen's rule too: the history and BG Stats tell players apart by name
        if n.casefold() in seen:
            raise PlanError(f"--names: {seen[n.casefold()]!r} and {n!r} are the same name: give each player their own")
        seen[n.casefold()] = n
    return names


def _options(args) -> dict:
    """The chosen game's set-up options from the command line."""
    desc = find_game(args.game)
    given = {o.name: getattr(args, o.name, None) for g in GAMES.values() for o in g.options}
    mine = {o.name for o in desc.options}
    stray = [name for name, value in given.items() if name not in mine and value not in (None, False)]
    if stray:
        owner = next(g.name for g in GAMES.values() if any(o.name == stray[0] for o in g.options))
        raise PlanError(f"--{stray[0].replace('_', '-')} is a {owner} option, not one of {desc.name}'s")
    try:
        return desc.options_from({k: v for k, v in given.items() if k in mine})
    except ValueError as err:
        raise PlanError(str(err)) from None


def _timers(args) -> Timers:
    """The turn limit, chess clock and bid countdown; each above 0 and at most 24 hours,
    said in the unit the user typed it in."""
    for name, (flag, unit, most) in TIMER_LIMITS.items():
        value = getattr(args, name, None)
        if value is not None and not (math.isfinite(value) and 0 < value <= most):
            raise PlanError(f"{flag} is {unit}, above 0 and at most {most} (24 hours), not {value:g}")
    try:
        return Timers(limit=args.turn_limit, at_zero=args.at_zero,
                      bank=args.chess_clock * 60 if args.chess_clock is not None else None, bid=args.bid_seconds)
    except ValueError as err:
        raise PlanError(str(err)) from None


def _scan_end(args) -> ScanEnd:
    """How a keyboard-mode scan ends (``--scan-end``, ``--scan-gap``, or ``[readers]``
    ``end`` and ``gap``): docs/scanners.md, "Where a scan ends"."""
    end, gap = getattr(args, "scan_end", None), getattr(args, "scan_gap", None)
    if gap is not None and not (math.isfinite(gap) and 0 < gap <= 10):
        raise PlanError(f"--scan-gap is seconds of silence, above 0 and at most 10, not {gap:g}")
    return ScanEnd(end or DEFAULT_END.end, DEFAULT_END.gap if gap is None else gap)


def _readers(args, names: list[str]) -> list[ReaderSpec]:
    """Every reader checked against the machine, and the tray's spec; a reader bound to a
    seat nobody sits in is refused."""
    try:
        readers = [resolve(parse_entry(spec)) for spec in args.scanner or []]
        if args.tray:
            from ..devices.tray import bus_opener

            bus_opener(args.tray, SystemClock())  # only checks the spec: nothing is opened yet
    except ValueError as err:
        raise PlanError(str(err)) from None
    except LookupError as err:
        raise PlanError(str(err), DEVICE) from None
    for spec in readers:
        if spec.seat and names and spec.seat > len(names):
            raise PlanError(f"--scanner {spec.kind}:{spec.path}@{spec.seat}: seat {spec.seat}, "
                            f"but only {len(names)} are playing")
    return readers


def record_problem(record: Path, store: Path) -> str | None:
    """Why ``--record`` must not write to ``record`` (None when it may): it is the store
    (however named: a link, another spelling), or a file that is not a trace of ours."""
    from .trace import written_by_us

    try:
        same = record.resolve() == store.resolve() or (record.exists() and store.exists()
                                                         and record.samefile(store))
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (pathlib before 3.13)
        from ..core.files import why_not

        if isinstance(exc, RuntimeError) or exc.errno in (errno.ELOOP, errno.ENAMETOOLONG):
            reason = why_not(exc) if isinstance(exc, OSError) else why_not(OSError(errno.ELOOP, ""))
            return f"--record {str(record)[:80]}: {reason}: give another file name"
        same = False
    if same:
        return f"--record {record} is the game store (--store {store}): give the trace another file name"
    if record.exists() and not written_by_us(record):
        return (f"--record {record} already exists and is not a trace: give a new file name "
                "(only a trace written by --record is added to or replaced)")
    return None
