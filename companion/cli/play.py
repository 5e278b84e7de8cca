"""``companion run``: the table companion itself. Parsing and wiring only: the work lives
in :mod:`companion.table` (the session), :mod:`companion.runner` (the loop) and the
device packages. One :class:`contextlib.ExitStack` closes every device and the store on
any exit."""

from __future__ import annotations

import json
import math
import signal
import sys
import threading
from contextlib import ExitStack
from pathlib import Path

from ..games import GAMES
from .common import DEFAULT_STORE, DEVICE, USAGE, fail, game, game_choices, user_path


NAME_MAX = 40  # characters: longer names do not fit a screen, a log line or a score table


def _names(args) -> list[str] | str:
    """The player names from --names/--players, or an error message."""
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if args.players is not None and names and len(names) != args.players:
        return f"--players {args.players} but {len(names)} names in --names"
    if not names and args.players is not None:
        if not 1 <= args.players <= 8:
            return "--players is a number of players, from 1 to 8"
        names = [f"Player {i}" for i in range(1, args.players + 1)]
    if any(not n for n in names):
        return "--names has an empty name: write them like --names Mum,Dad,Maya"
    if any(not n.isprintable() for n in names):
        return "--names has a tab or control character in a name: use letters, digits and spaces"
    if any(len(n) > NAME_MAX for n in names):
        return f"--names: a name is at most {NAME_MAX} characters"
    seen: dict[str, str] = {}
    for n in names:  # the start screen's rule too: the history and BG Stats tell players apart by name
        if n.casefold() in seen:
            return f"--names: {seen[n.casefold()]!r} and {n!r} are the same name: give each player their own"
        seen[n.casefold()] = n
    return names


#: The longest a timer may be set to: 24 hours, in each option's own unit.
TIMER_LIMITS = {"turn_limit": ("--turn-limit", "seconds per turn", 24 * 3600),
                "chess_clock": ("--chess-clock", "minutes per player", 24 * 60),
                "bid_seconds": ("--bid-seconds", "seconds for each bid", 24 * 3600)}


def _timer_problem(args) -> str | None:
    """The first timer option given out of range (not a number above 0 and at most 24
    hours), in the unit the user typed it in; None when all are fine."""
    for name, (flag, unit, most) in TIMER_LIMITS.items():
        value = getattr(args, name, None)
        if value is not None and not (math.isfinite(value) and 0 < value <= most):
            return f"{flag} is {unit}, above 0 and at most {most} (24 hours), not {value:g}"
    return None


def _unused_options(args, desc, stored: dict) -> None:
    """Resuming a game: say which set-up options given now differ from the game's own
    (they are not used: a game keeps the options it began with)."""
    given = {o.name: getattr(args, o.name, None) for o in desc.options}
    differ = [o for o in desc.options if given[o.name] not in (None, False) and given[o.name] != stored.get(o.name)]
    if differ:
        shown = ", ".join(f"{o.cli_flag()} {stored.get(o.name)}" if o.kind != "bool" else
                          f"{o.cli_flag()} {'on' if stored.get(o.name) else 'off'}" for o in desc.options
                          if stored.get(o.name) is not None)
        flags = " ".join(o.cli_flag() for o in differ)
        print(f"companion: carrying on the unfinished {desc.name} game with the options it began with"
              f"{' (' + shown + ')' if shown else ''}; {flags} not used: add --new-game to start a new game "
              "with them", file=sys.stderr, flush=True)


def _options(args) -> dict | str:
    """The chosen game's set-up options from the command line, or an error message."""
    desc = game(args.game)
    given = {o.name: getattr(args, o.name, None) for g in GAMES.values() for o in g.options}
    mine = {o.name for o in desc.options}
    stray = [name for name, value in given.items() if name not in mine and value not in (None, False)]
    if stray:
        owner = next(g.name for g in GAMES.values() if any(o.name == stray[0] for o in g.options))
        return f"--{stray[0].replace('_', '-')} is a {owner} option, not one of {desc.name}'s"
    try:
        return desc.options_from({k: v for k, v in given.items() if k in mine})
    except ValueError as err:
        return str(err)


def _record_problem(record: Path, store: Path) -> str | None:
    """Why ``--record`` must not write to ``record`` (None when it may): it is the store
    (however named: a link, another spelling), or a file that is not a trace of ours."""
    from ..trace import written_by_us

    try:
        same = record.resolve() == store.resolve() or (record.exists() and store.exists()
                                                         and record.samefile(store))
    except OSError:
        same = False
    if same:
        return f"--record {record} is the game store (--store {store}): give the trace another file name"
    if record.exists() and not written_by_us(record):
        return (f"--record {record} already exists and is not a trace: give a new file name "
                "(only a trace written by --record is added to or replaced)")
    return None


def _record_taps(record, name: str) -> dict:
    """The taps that put a keyboard-mode or NFC reader's reads in the ``--record`` trace."""
    if record is None:
        return {}
    return {"hid_tap": lambda kind, code, value, t: record.key(name, t, kind, code, value),
            "nfc_tap": lambda uid, code, t: record.tag(name, t, uid, code)}


def cmd_run(args) -> int:
    from ..core.clock import SystemClock
    from ..core.enrolment import Enrolments
    from ..core.errors import StoreError
    from ..core.events import CardScanned
    from ..core.store import EventStore
    from ..devices.readers import open_reader, parse_reader, resolve
    from ..devices.scan.normalise import Framing
    from ..runner import Runner, TextLog, json_logger
    from ..table import GameInProgress, Session
    from ..trace import TraceWriter
    from ..config import ConfigError, apply_to_run

    # No game and no players asked for: the start screen chooses them (on a screen
    # people can see; otherwise the config's game, resumed, as before).
    ask = args.game is None and not args.names and args.players is None and not args.headless
    game_given = args.game is not None
    args.game = args.game or game_choices()[0]
    try:
        cfg = apply_to_run(args, str(DEFAULT_STORE))  # the config fills what the command line left out
    except ConfigError as err:
        return fail(str(err))
    ask = ask and not args.names and args.players is None and not args.headless  # the config named them
    game_given = game_given or args.game != game_choices()[0]
    if args.record and (Path(args.record).is_dir() or not Path(args.record).parent.is_dir()):
        return fail(f"--record {args.record}: not a file in a folder that exists")
    if args.record is not None and not str(args.record).strip():
        return fail("--record needs a file name for the trace")
    if args.record:
        problem = _record_problem(Path(args.record), Path(args.store))
        if problem:
            return fail(problem)
    names = _names(args)
    if isinstance(names, str):
        return fail(names)
    options = _options(args)
    if isinstance(options, str):
        return fail(options)
    if args.record:
        try:  # can it be written at all? Found out now, before a game is stored
            with open(args.record, "a"):
                pass
        except OSError as err:
            return fail(f"cannot write the record {args.record}: {err.strerror or err}")
    for flag, pin in (("--buzzer", args.buzzer), ("--led", args.led)):
        if pin is not None and not 2 <= pin <= 27:
            return fail(f"{flag} {pin}: a GPIO pin is a BCM number from 2 to 27 (GPIO17 is pin 11 on the header)")
    if not (args.tap_off >= 0 and args.tap_off < 60):
        return fail("--tap-off is in seconds, from 0 to 60")
    from .venue import run_settings

    try:
        venue = run_settings(args)  # checked before the store is touched
    except ValueError as err:
        return fail(str(err))
    desc = game(args.game)
    clock = SystemClock()
    if args.theme:
        from ..ui import theme

        theme.use(args.theme)
    from ..ui.timers import Timers

    problem = _timer_problem(args)
    if problem:
        return fail(problem)
    try:
        timers = Timers(limit=args.turn_limit, at_zero=args.at_zero,
                        bank=args.chess_clock * 60 if args.chess_clock is not None else None, bid=args.bid_seconds)
    except ValueError as err:
        return fail(str(err))
    # Every reader and the tray are checked before the store is touched, so a typo never
    # leaves a new game behind or sets one aside.
    try:
        framing = Framing(tuple(args.scan_prefix), tuple(args.scan_suffix))
        specs = [resolve(parse_reader(spec)) for spec in args.scanner or []]
        tray = None
        if args.tray:
            from ..tray import EmulatedTray, bus_opener

            tray = EmulatedTray(clock) if args.tray == "emulated" else None
            open_bus = bus_opener(args.tray, clock, tray)
    except ValueError as err:
        return fail(str(err))
    except LookupError as err:
        return fail(str(err), DEVICE)
    for spec in specs:
        if spec.seat and names and spec.seat > len(names):
            return fail(f"--scanner {spec.kind}:{spec.path}@{spec.seat}: seat {spec.seat}, "
                        f"but only {len(names)} are playing")
    if args.headless and not specs and not args.tray and not args.simulate:
        return fail("--headless with no --scanner, no --tray and no --simulate has nothing to read plays from: "
                    "add a reader (--scanner serial:/dev/ttyACM0) or --simulate to type card codes")
    # The screen is opened before the store is touched, so a display that fails leaves
    # nothing behind; and a failure is not fatal: the table runs headless and retries.
    display = None
    if not args.headless:
        from ..ui.display import Display, open_display

        display = Display(lambda: open_display(fullscreen=args.fullscreen, allow_virtual=args.simulate,
                                               rotation=args.rotation), clock)
        display.ensure()
    with ExitStack() as stack:
        watch = None
        if display is not None:
            stack.callback(display.close)
            if not virtual_screen():
                # The touchscreen (and any keyboard) wakes the loop, so an idle table does
                # not poll the window 100 times a second (companion/ui/wakeup.py).
                from ..ui.wakeup import InputWatch

                watch = InputWatch(lambda: None).start()
                stack.callback(watch.stop)
        try:
            store = EventStore(args.store, exclusive=True)
        except StoreError as err:
            return fail(str(err), DEVICE)
        stack.callback(store.close)
        if store.migrated_from is not None:
            print(f"companion: upgraded {args.store} from store format {store.migrated_from} "
                  f"(a copy of the old file is in {store.backup})", file=sys.stderr)
        choice = None
        if ask and display is not None and display.app is not None and not virtual_screen():
            import pygame

            from ..ui.start import choose

            try:
                choice = choose(display.app, store, watch=watch)
            except pygame.error as err:  # the screen went: carry on as without it (and retry it)
                display.lost(err)
            else:
                if choice is None:  # the window was closed on the start screen
                    return 0
                args.game, desc = choice.game, game(choice.game)
                names, options, args.new_game = list(choice.names) if not choice.resume else [], \
                    choice.options, not choice.resume
                seats = len(choice.names)
                for spec in specs:
                    if spec.seat and spec.seat > seats:
                        print(f"companion: --scanner {spec.kind}:{spec.path}@{spec.seat}: only {seats} are "
                              "playing, so its scans are refused", file=sys.stderr, flush=True)
        try:
            if not names and store.unfinished(args.game) is None:
                other = store.unfinished()
                if other is None or game_given:
                    return fail(_who_is_playing(desc, other, args.store))
                args.game, desc = other.game, game(other.game)  # carry on the store's unfinished game
            waiting = store.unfinished(args.game)
            session = Session.start(args.game, names, store, clock, tap_off=args.tap_off, new_game=args.new_game,
                                    options=options)
            if waiting is not None and session.game_id == waiting.id:
                _unused_options(args, desc, waiting.config or {})
        except StoreError as err:
            return fail(str(err), DEVICE)
        except ValueError as err:
            flags = ", ".join(o.cli_flag() for o in desc.options)
            return fail(f"{err}" + (f" ({desc.name} set-up options: {flags}; see companion run --help)"
                                    if flags and not isinstance(err, GameInProgress) else ""), USAGE)
        if args.log_format == "json":
            session.listeners.append(json_logger(sys.stdout))
            print(json.dumps({"event": "start", "game": args.game, "game_id": session.game_id,
                              "players": list(session.state.players), "resumed_inputs": session.resumed_inputs}),
                  flush=True)
        else:
            text = TextLog(sys.stdout, session)
            session.listeners.append(text)
            text.start()
        record = None
        if args.record:
            stored = next((g.config for g in store.games() if g.id == session.game_id), {})
            try:
                record = TraceWriter(args.record, args.game, list(session.state.players), clock.now(),
                                     stored or None, game_id=session.game_id,
                                     store=str(Path(args.store).resolve()))
            except OSError as err:
                return fail(f"cannot write the record {args.record}: {err.strerror or err}")
            stack.callback(record.close)
        if display is not None:
            _warn_unshown_names(session.state.players)
        from ..sdnotify import Notifier
        from ..ui.start import start_session

        def new_session(chosen):
            """The next game, chosen on the start screen after a final screen."""
            nxt = start_session(chosen, store, clock, tap_off=args.tap_off)
            if args.log_format == "json":
                print(json.dumps({"event": "start", "game": nxt.game, "game_id": nxt.game_id,
                                  "players": list(nxt.state.players), "resumed_inputs": nxt.resumed_inputs}),
                      flush=True)
            return nxt

        runner = Runner(session, clock, app=display.app if display else None, display=display,
                        new_session=new_session,
                        simulate=args.simulate, record=record, timers=timers, framing=framing,
                        text_out=sys.stdout if args.log_format == "text" else None, notifier=Notifier.from_env())
        # NFC tags enrolled with `companion enroll`: a plain dict, because the NFC reader looks
        # codes up from its own thread and the store's connection belongs to this one.
        enrolled = {e.uid: e.code for e in Enrolments(store).all(args.game)} if specs else {}
        for i, spec in enumerate(specs):
            name = f"scanner{i + 1}" if len(specs) > 1 else "scanner"
            tap = (lambda data, t, name=name: record.bytes(name, t, data)) if record and spec.kind == "serial" else None
            try:
                reader = open_reader(spec, runner.inputs, clock, name, tap, uid_to_code=enrolled.get,
                                     framing=framing, **_record_taps(record, name))
            except ValueError as err:
                return fail(str(err))
            stack.callback(reader.stop)
        if args.tray:
            from ..devices.accel.sampler import TraySampler
            from ..devices.tilt import TiltConfig
            from ..tray import detector, load_calibration

            try:
                tap = (lambda t, g: record.accel("tray", t, g)) if record else None
                saved = cfg["tray"]["calibration"]
                sampler = TraySampler(open_bus, runner.inputs, clock,
                                      detector(load_calibration(Path(saved) if saved else None),
                                               TiltConfig.from_dict(cfg["tilt"])), tap=tap, fifo=True)
            except ValueError as err:
                return fail(str(err))
            runner.tray = tray
            sampler.start()
            stack.callback(sampler.stop)
        if venue is not None:
            from ..venue.publish import VenuePublisher

            try:
                publisher = VenuePublisher(venue, session, clocks=runner.clocks, turn_limit=timers.limit,
                                           disk=Path(args.store).parent)
            except StoreError as err:
                return fail(str(err), DEVICE)
            session.listeners.append(publisher)  # the table's verdicts, appended to the store's outbox
            publisher.start()
            publisher.connect()  # sends from its own thread: a missing broker never slows the table
            stack.callback(publisher.close)
        feedback = _feedback(args)
        if feedback:
            stack.callback(feedback.close)
            session.listeners.append(lambda item, verdict: verdict and isinstance(item, CardScanned)
                                     and feedback.signal(verdict.verdict))
            if timers.limit is not None or timers.bank is not None:
                from ..devices.gpio import TimerAlarm

                runner.alarm = TimerAlarm(feedback)  # three beeps as a turn's last 10 s begin
        for part in _table_gpio(cfg, runner.inputs, clock,  # the config's buttons and status LED
                                lambda: getattr(session, "unsaved_result", None) is not None):
            if part is not None:
                stack.callback(part.close)
                if hasattr(part, "heard"):
                    session.listeners.append(part.heard)
                    part.show("ready")
        if watch is not None:
            watch.on_input = runner.wake
            runner.watch = watch
        signal.signal(signal.SIGTERM, lambda *_: runner.stop())
        if args.simulate and (args.headless or runner.app is None or virtual_screen()):
            # Typed lines come from stdin when there is no window to type into (headless,
            # no screen yet, or SDL's invisible driver under --simulate).
            def read_stdin() -> None:
                for line in sys.stdin:
                    runner.typed(line)
                runner.inputs.join()  # end of input: stop once everything typed is handled
                runner.stop()
            threading.Thread(target=read_stdin, daemon=True, name="stdin").start()
        try:
            runner.loop()
        except KeyboardInterrupt:
            pass
        if args.log_format == "text" and not runner.session.over:
            print(f"companion: stopped; the {runner.session.desc.name} game is saved: start the companion again "
                  "with the same --store to carry on", file=sys.stderr, flush=True)
    if args.log_format == "json":
        print(json.dumps({"event": "stop", "game_id": session.game_id}), flush=True)
    return 0


def _who_is_playing(desc, other, store_path: str) -> str:
    """No names and no unfinished game of ``desc`` to resume: say so, and name the
    store's unfinished game of another kind (``other``) with how to carry it on."""
    ask = "who is playing? Give --players N or --names A,B,... to start a new " + desc.name + " game"
    if other is None:
        return f"{ask} (there is no unfinished {desc.name} game to resume)"
    name = game(other.game).name
    return (f"{ask}. There is no unfinished {desc.name} game to resume, but there is an unfinished "
            f"{name} game with {', '.join(other.players)}: resume it with "
            f"`companion run --game {other.game} --store {store_path}` (no --names)")


def _warn_unshown_names(players) -> None:
    """Say which letters of the names no installed font can draw, and what shows instead."""
    from ..ui.fonts import display_name, missing, seat_mark

    for seat, name in enumerate(players, 1):
        lost = missing(name)
        if lost:
            shown = display_name(name, seat)
            badge = f"seat {seat}'s colour badge and " if seat_mark(seat) in shown else ""
            print(f"companion: no font here draws {lost!r} of the name {name!r}: the screen shows "
                  f"{badge}{shown.replace(seat_mark(seat), '').strip()!r} (install fonts-noto-core, fonts-noto-cjk and "
                  "fonts-noto-color-emoji for every script)", file=sys.stderr, flush=True)


def virtual_screen() -> bool:
    """Is the open window drawn by one of SDL's invisible drivers?"""
    import pygame

    from ..ui.display import VIRTUAL_DRIVERS

    try:
        return pygame.display.get_init() and (pygame.display.get_driver() or "").lower() in VIRTUAL_DRIVERS
    except pygame.error:
        return False


def _table_gpio(cfg, inputs, clock, error_if=None):
    """The config's buttons and status LED, ``(buttons, led)``, each None when not set or
    when there is no GPIO (reported, not fatal)."""
    import warnings

    try:
        from ..devices.gpio import table_gpio

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns about each pin library it tries
            return table_gpio(cfg["gpio"], inputs, clock, error_if=error_if)
    except Exception as exc:  # gpiozero raises many kinds when there is no GPIO at all
        print(f"companion: no buttons or status LED ({exc}); carrying on without them", file=sys.stderr)
        return None, None


def _feedback(args):
    """The buzzer/LED, or None. A GPIO problem (not a Pi, pin busy) is reported, not fatal."""
    if args.buzzer is None and args.led is None:
        return None
    import warnings

    try:
        from ..devices.gpio import Feedback

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns about each pin library it tries
            return Feedback(args.buzzer, args.led)
    except Exception as exc:  # gpiozero raises many kinds when there is no GPIO at all
        print(f"companion: no buzzer/LED feedback ({exc}); carrying on without it", file=sys.stderr)
        return None


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
    r.add_argument("--fullscreen", action="store_true", help="fill the screen and hide the pointer")
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
    r.add_argument("--log-format", choices=["text", "json"], default="text", help="text (default) or json lines")
    r.add_argument("--store", default=str(DEFAULT_STORE), type=user_path, help="the game database (default: %(default)s)")
    r.add_argument("--record", metavar="FILE", type=user_path,
                   help="write what the devices sent as a trace file (docs/trace-format.md). A trace of the "
                        "same game, resumed, is added to; another trace is replaced; any other existing file "
                        "is refused")
    r.add_argument("--new-game", action="store_true", help="set an unfinished game aside and start a new one")
    r.add_argument("--tap-off", type=float, default=1.0, help="seconds in which the same code again is ignored")
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
                r.add_argument(option.cli_flag(), dest=option.name, choices=option.choices, metavar="CHOICE",
                               help=f"{help_text}: {', '.join(option.choices)}")
            else:
                r.add_argument(option.cli_flag(), dest=option.name, help=help_text)
    r.set_defaults(func=cmd_run)
