"""``companion run``: the table companion itself. Parsing and printing only: the config
file and the flags become the table's plan (:mod:`companion.table.plan`), the table is
built from it (:mod:`companion.table.build`: readers -> one queue -> session -> store ->
screen) and its loop runs (:mod:`companion.table.runner`)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading

from ..core.journal import INFO, say
from ..core.store import DEFAULT_STORE
from ..games import GAMES
from .common import fail, game_choices, user_path


def cmd_run(args) -> int:
    from ..core.journal import setup_logging
    from ..service.sdnotify import Notifier
    from ..table.plan import PlanError

    notifier = Notifier.from_env()
    stop = threading.Event()
    current: dict = {}

    def on_term(*_) -> None:  # systemd's stop: from the start screen, a wait or the table's loop
        stop.set()
        if "runner" in current:
            current["runner"].stop()
    signal.signal(signal.SIGTERM, on_term)

    setup_logging()
    game_flag = args.game is not None
    args.game = args.game or game_choices()[0]
    given = vars(args).copy()
    while True:
        got = _configure(argparse.Namespace(**given), game_flag, notifier, stop)
        if isinstance(got, int):
            return got
        plan, venue = got
        try:
            return _play(plan, venue, notifier, stop, current)
        except Exception as err:  # noqa: BLE001  (under the service: any start-up failure waits on the panel)
            if not args.service:
                if isinstance(err, PlanError):
                    return fail(str(err), err.status)
                raise
            if not _wait_out(err, plan, args, notifier, stop):
                return 0  # stopped while waiting (SIGTERM): a clean stop


def _configure(args, game_flag: bool, notifier, stop: threading.Event):
    """The config file and the flags as ``(plan, venue settings)``; an exit status when
    they are wrong outside the service (2), or when the service was stopped while its
    mistake was shown (0). Under the service a mistake waits on the panel for the fix."""
    from ..service.config import ConfigError, apply_to_run
    from ..service.config_wait import wait_for_fix
    from ..table.plan import PlanError, make_plan
    from .venue import run_settings

    given = vars(args).copy()
    while True:
        try:
            cfg = apply_to_run(args, str(DEFAULT_STORE))  # the config fills what the command line left out
            plan = make_plan(args, cfg, game_flag)
            if plan.config_path is None:  # the menu's settings go to the file that was read (or would be)
                from dataclasses import replace

                from ..service.config import USER_CONFIG

                plan = replace(plan, config_path=str(USER_CONFIG))
            return plan, run_settings(args)  # checked before anything is opened or stored
        except (ConfigError, PlanError, ValueError) as err:
            if not (args.service and args.config):  # outside the service: exit 2, as for any usage error
                return fail(str(err), getattr(err, "status", 2))
            # The service shows the mistake and waits for the file to be fixed: exiting would
            # crash-loop the unit into systemd's start limit (docs/service.md).
            if not wait_for_fix(err, getattr(err, "path", None) or args.config, notifier, stop.is_set,
                                open_screen=_screen(args), wake=stop):
                return 0  # stopped while waiting (SIGTERM): a clean stop
            args = argparse.Namespace(**given)


def _screen(args):
    """Opens the panel for a problem shown under the service (turned as the config says)."""
    from ..service.config_wait import rotation_hint
    from ..ui.display import open_display

    return lambda: open_display(fullscreen=True, allow_virtual=args.simulate,
                                rotation=rotation_hint(args.config, args.rotation), kiosk=True)


def _wait_out(err: Exception, plan, args, notifier, stop: threading.Event) -> bool:
    """A start-up failure under the service (a damaged store, a stored game this version
    cannot carry on, a device, a fault in the code): shown on the panel and in the
    journal (one line, no traceback) until the store or the config changes, or a while
    has passed; False when stopped meanwhile. Exiting instead would restart the unit
    every few seconds for ever, with a dark panel."""
    from ..service.config_wait import RETRY, START_TITLE, wait_for_fix
    from ..table.plan import PlanError

    retry = None  # a store or a stored game: only a changed file can change the answer
    if not isinstance(err, PlanError):
        err, retry = RuntimeError(f"{type(err).__name__}: {err}"[:300]), RETRY  # a fault in the code: one line
    return wait_for_fix(err, plan.store, notifier, stop.is_set, open_screen=_screen(args), wake=stop,
                        title=START_TITLE, also=(args.config,) if args.config else (), retry=retry)


def _play(plan, venue, notifier, stop: threading.Event, current: dict) -> int:
    """Build the table from ``plan`` and run it until it stops; the exit status. Raises
    :class:`~companion.table.plan.PlanError` when it cannot be built."""
    from ..table.build import ClosedOnStart, open_table, table_clock, virtual_screen
    from .venue import start_publisher

    try:
        with open_table(plan, table_clock(plan.store), notifier=notifier, stopping=stop.is_set) as table, \
                start_publisher(venue, table.runner, plan) as publisher:
            runner = current["runner"] = table.runner
            if publisher is None and venue is not None:
                return 1  # the store could not hold the outbox: said on stderr
            if stop.is_set():
                runner.stop()
            if plan.simulate and (plan.headless or runner.app is None or virtual_screen()):
                _read_stdin(runner)
            try:
                runner.loop()
            except KeyboardInterrupt:
                pass
            session = runner.session
            if plan.log_format == "text" and not session.over:
                say(f"stopped. The {session.desc.name} game is saved. {come_back(plan, session.game)}", INFO)
            elif plan.log_format == "text":
                say(f"stopped; the {session.desc.name} game is over and in the history "
                    f"(companion history --store {session.store.path})", INFO)
    except ClosedOnStart:
        return 0
    finally:
        current.pop("runner", None)
    if plan.log_format == "json":
        print(json.dumps({"event": "stop", "game_id": session.game_id}), flush=True)
    return 0


def come_back(plan, game: str) -> str:
    """How a family comes back to the saved game ``game`` (a game's ``--game`` name), in
    plain words with the exact command to type (issue 38): ``companion run --game sugarrr``,
    with ``--store FILE`` only when the store is not the usual one, and ``--headless`` /
    ``--simulate`` when this run had them. Under the service the table carries it on
    itself when it starts again (:func:`companion.table.build._carry_on`)."""
    import shlex

    if plan.service:
        return "The table carries it on by itself when it starts again."
    words = ["companion", "run", "--game", game]
    if str(plan.store) != str(DEFAULT_STORE):
        words += ["--store", str(plan.store)]
    words += [flag for flag, on in (("--headless", plan.headless), ("--simulate", plan.simulate)) if on]
    return "To carry on where you left off, type: " + shlex.join(words)


def _read_stdin(runner) -> None:
    """Typed lines come from stdin when there is no window to type into (headless, no
    screen yet, or SDL's invisible driver under --simulate)."""
    from ..devices.scan.normalise import typed_line

    def read() -> None:
        encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's StringIO)
            fd = None
        lines = (typed_line(line, encoding) for line in _fd_lines(fd)) if fd is not None else sys.stdin
        for line in lines:
            runner.inputs.join()  # the lines before are answered first: every answer in the order typed
            runner.typed(line)
        runner.inputs.join()  # end of input: stop once everything typed is handled
        runner.stop()
    threading.Thread(target=read, daemon=True, name="stdin").start()


def _fd_lines(fd: int):
    """Lines of bytes read from ``fd`` with ``os.read`` (bytes: one bad byte must not end
    the input). Not through ``sys.stdin.buffer``: this thread may still be blocked in a
    read at exit, and the interpreter cannot take the buffer's lock from a daemon thread
    then (a fatal error instead of exit status 0)."""
    import os

    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            yield line + b"\n"
    if pending:
        yield pending


def add_parsers(sub) -> None:
    games = game_choices()
    r = sub.add_parser("run", help="run the table companion")
    r.add_argument("--game", choices=games,
                   help=f"the game (without --game, --names and --players: chosen on the start screen; "
                        f"headless: {games[0]})")
    r.add_argument("--players", type=int, help="how many play (names become Player 1, Player 2, ...)")
    r.add_argument("--names", help="comma-separated, in seat order from the first player")
    r.add_argument("--scanner", action="append",
                   help="KIND:PATH[@SEAT], e.g. serial:/dev/serial/by-id/usb-...@2 (repeat for more readers)")
    r.add_argument("--scan-prefix", action="append", default=[], metavar="TEXT",
                   help="text your scanner is set to send before every code, stripped (repeat for more; "
                        "see docs/scanners.md)")
    r.add_argument("--scan-suffix", action="append", default=[], metavar="TEXT",
                   help="text your scanner is set to send after every code, stripped (repeat for more)")
    r.add_argument("--tray", help="the Sugar Blast tray sensor: i2c:1, or emulated (arrow keys tilt it under --simulate)")
    r.add_argument("--buzzer", type=int, metavar="PIN", help="GPIO (BCM) pin of a buzzer: a beep for every scan")
    r.add_argument("--led", type=int, metavar="PIN", help="GPIO (BCM) pin of a status LED")
    r.add_argument("--headless", action="store_true", help="no screen: the text log only")
    r.add_argument("--simulate", action="store_true", help="typed lines are scans; /done, /undo etc. are touches")
    r.add_argument("--fullscreen", action="store_true",
                   help="fill the screen at the panel's own size and hide the pointer")
    r.add_argument("--service", action="store_true",
                   help="run as the Pi's service under systemd (the unit's ExecStart): full screen, Escape "
                        "ignored, an unfinished game carried on whatever the config's players say, a config "
                        "mistake shown on the screen until the file is fixed (docs/service.md)")
    r.add_argument("--turn-limit", type=float, metavar="SECONDS",
                   help="seconds per turn: the clock counts down and turns orange 10 s before the end")
    r.add_argument("--at-zero", choices=("warn", "pass"), default="warn",
                   help="when a turn's time runs out: warn only (default), or pass the turn where the rules allow")
    r.add_argument("--chess-clock", type=float, metavar="MINUTES",
                   help="a time bank per player, spent during their turns (a chess clock)")
    r.add_argument("--bid-seconds", type=float, metavar="SECONDS",
                   help="Sweet Deals: seconds for each bid; at zero the screen suggests Pass (it never passes for you)")
    r.add_argument("--theme", choices=("default", "high-contrast"),
                   help="the screen's colours: default, or high-contrast (black ground, white text, outlines)")
    r.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                   help="degrees the picture is turned clockwise on the panel (90 or 270 for a portrait panel)")
    r.add_argument("--output", metavar="CONNECTOR",
                   help="the display to use when more than one is connected, by its connector name as companion "
                        "doctor lists it (DSI-1, HDMI-A-1); default: the first SDL finds")
    r.add_argument("--log-format", choices=["text", "json"], default="text", help="text (default) or json lines")
    r.add_argument("--store", default=str(DEFAULT_STORE), type=user_path, help="the game database (default: %(default)s)")
    r.add_argument("--record", metavar="FILE", type=user_path,
                   help="write what the devices sent as a trace file (docs/trace-format.md). It holds every "
                        "card scanned, hidden ones too (face-down Battle Cards, secret hands), so it is written "
                        "readable by you only (mode 0600): do not share it before the game is over. A trace of "
                        "the same game, resumed, is added to; another trace is replaced; any other existing "
                        "file is refused")
    r.add_argument("--new-game", action="store_true", help="set an unfinished game aside and start a new one")
    r.add_argument("--tap-off", type=float, default=1.0, help="seconds in which the same code again is ignored")
    r.add_argument("--scan-end", choices=("auto", "key", "gap"), default=None,
                   help="how a keyboard-mode scan ends: auto (default: its terminator; silence too until the "
                        "scanner has sent one), key (only its terminator), gap (silence: it sends none)")
    r.add_argument("--scan-gap", type=float, default=None, metavar="SECONDS",
                   help="seconds of silence that end a scan with no terminator (default 0.5)")
    from .venue import add_run_options

    add_run_options(r)
    r.add_argument("--config", type=user_path, help="settings file (default ~/.config/sugar-companion/config.toml; "
                                    "the Pi service: /etc/companion/companion.toml)")
    seen: set[str] = set()
    for desc in GAMES.values():  # each game's set-up options, from its descriptor
        for option in desc.options:
            if option.name in seen:
                continue
            seen.add(option.name)
            help_text = f"{desc.name}: {option.help}"
            if option.kind == "bool":
                r.add_argument(option.cli_flag(), dest=option.name, action="store_true", default=None, help=help_text)
            elif option.kind == "choice":
                random = ("random",) if option.blank == "random" else ()
                said = dict(option.labels)
                listed = [f"{c} ({said[c]})" if said.get(c) else c for c in option.choices + random]
                r.add_argument(option.cli_flag(), dest=option.name, choices=option.choices + random, metavar="CHOICE",
                               help=f"{help_text}: {', '.join(listed)}")
            else:
                r.add_argument(option.cli_flag(), dest=option.name, help=help_text)
    r.set_defaults(func=cmd_run)
