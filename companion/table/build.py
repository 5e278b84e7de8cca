"""Build a table from its :class:`~companion.table.plan.TablePlan`, in the order the data
flows: the screen, the store, the session (started, resumed or chosen on the start
screen), its logs, the loop with its one input queue, then every reader, the tray and
GPIO putting inputs on that queue. :func:`open_table` is a context manager: every device,
the screen and the store are closed on any exit, in reverse order."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..core.clock import Clock, TableClock
from ..core.journal import WARNING, say
from ..core.errors import DEVICE, USAGE, CompanionError, StoreError
from ..core.events import CardScanned
from ..core.store import EventStore
from ..devices.readers import open_reader
from ..games import GAMES, find_game
from .logs import TextLog, json_logger
from .plan import PlanError, TablePlan
from .runner import Runner
from .session import GameInProgress, Session, start_session

if TYPE_CHECKING:
    from .trace import TraceWriter


class ClosedOnStart(CompanionError):
    """The window was closed on the start screen: nothing was started or stored."""


@dataclass
class Table:
    """A built table: the loop (with its queue and session) and the plan it was built
    from (the start screen's choice filled in)."""

    runner: Runner
    plan: TablePlan

    @property
    def session(self) -> Session:
        return self.runner.session


def _notice(line: str) -> None:
    """A line for the operator about the table's set-up: something left out or not used
    (journal: warning)."""
    say(line, WARNING)


@contextmanager
def open_table(plan: TablePlan, clock: Clock, notifier: Any = None,
               notice: Callable[[str], None] = _notice,
               stopping: Callable[[], bool] = lambda: False) -> Iterator[Table]:
    """Build the table for ``plan`` and close all of it on exit. ``notifier`` tells
    systemd (:class:`companion.service.sdnotify.Notifier`); ``notice`` gets each line
    for the operator (stderr); ``stopping()`` True ends a wait for a person or a screen
    (SIGTERM). Raises :class:`~companion.table.plan.PlanError` (with its
    exit status) for a store, game or reader that cannot be used, and
    :class:`ClosedOnStart` when the window is closed on the start screen."""
    if plan.theme:
        from ..ui import theme

        theme.use(plan.theme)
    # The screen is opened before the store is touched, so a display that fails leaves
    # nothing behind; and a failure is not fatal: the table runs headless and retries.
    display = None
    if not plan.headless:
        from ..ui.display import Display, open_display

        display = Display(lambda: open_display(fullscreen=plan.fullscreen or plan.service,
                                               allow_virtual=plan.simulate, rotation=plan.rotation, output=plan.output,
                                               kiosk=plan.service), clock)
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
        store = _open_store(plan, notice)
        stack.callback(store.close)
        plan, carried = _carry_on(plan, store, notice)
        plan = _choose(plan, display, store, watch, notice, notifier, stopping)
        session = _start(plan, store, clock, notice)
        if carried:
            session.last_message = (f"Welcome back: the {session.desc.name} game with "
                                    f"{', '.join(session.state.players)} is as you left it. {session.prompt()}")
        _log(plan, session)
        record = _record(plan, store, session, clock)
        if record is not None:
            stack.callback(record.close)
        if display is not None:
            _warn_unshown_names(session.state.players, notice)
        runner = Runner(session, clock, app=display.app if display else None, display=display,
                        new_session=lambda chosen: _next_session(plan, chosen, store, clock),
                        simulate=plan.simulate, record=record, timers=plan.timers, framing=plan.framing,
                        keyboard=plan.scan_end,
                        text_out=sys.stdout if plan.log_format == "text" else None,
                        json_out=sys.stdout if plan.log_format == "json" else None, notifier=notifier,
                        config_path=plan.config_path)
        _readers(plan, runner, store, record, stack)
        _tray(plan, runner, record, stack)
        _gpio(plan, runner, stack, notice)
        _sound(plan, runner, stack, notice)
        if watch is not None:
            watch.on_input = runner.wake
            runner.watch = watch
        yield Table(runner, plan)


def table_clock(store_path: str) -> TableClock:
    """The table's clock for the store at ``store_path`` (:class:`~companion.core.clock.TableClock`:
    monotonic within a run, the same-boot anchor kept beside the store, and after a reboot
    going on from the unfinished game's last stored time)."""
    last = None
    if store_path != ":memory:" and Path(store_path).exists():
        try:
            store = EventStore(store_path, readonly=True)
        except StoreError:
            store = None  # open_table says what is wrong with it
        if store is not None:
            try:
                waiting = store.unfinished()
                if waiting is not None:
                    t = store.last_input_time(waiting.id)
                    last = waiting.started if t is None else max(waiting.started, t)
            except StoreError:
                pass
            finally:
                store.close()
    return TableClock.for_store(store_path, last)


def _open_store(plan: TablePlan, notice) -> EventStore:
    try:
        store = EventStore(plan.store, exclusive=True)
    except StoreError as err:
        raise PlanError(str(err), DEVICE) from None
    if store.migrated_from is not None:
        notice(f"upgraded {plan.store} from store format {store.migrated_from} "
               f"(a copy of the old file is in {store.backup})")
    return store


def _carry_on(plan: TablePlan, store: EventStore, notice) -> tuple[TablePlan, bool]:
    """Under the service (``plan.service``) an unfinished game in the store is carried
    on, whatever game and players the config names: the Pi came back from a power cut or
    a crash, and the config's players are for the next new game. Returns the plan (the
    stored game's, no names) and whether a game is carried on."""
    if not plan.service or plan.new_game:
        return plan, False
    waiting = store.unfinished()
    if waiting is None:
        return plan, False
    name = find_game(waiting.game).name
    if plan.names or waiting.game != plan.game:
        notice(f"carrying on the unfinished {name} game with {', '.join(waiting.players)} (the config's game "
               "and players are for the next new game)")
    return replace(plan, game=waiting.game, names=[], ask=False, game_given=True, options={},
                   given_options={}), True


def _choose(plan: TablePlan, display, store: EventStore, watch, notice, notifier=None,
            stopping: Callable[[], bool] = lambda: False) -> TablePlan:
    """No game and no players asked for: the start screen chooses them (on a screen
    people can see; otherwise the config's game, resumed, as before). The start screen
    waits for a person, so systemd hears ``READY=1`` as soon as its first frame is drawn
    (as for a game: the unit's READY means a picture on the panel) and a watchdog ping
    from it while it waits (a start screen nobody touches is not a hung companion)."""
    if plan.ask and plan.service and display is not None and display.app is None:
        _wait_for_screen(display, notifier, stopping)  # nobody can choose a game without one
    if not (plan.ask and display is not None and display.app is not None and not virtual_screen()):
        return plan
    import pygame

    from ..ui.start import choose

    import time

    from ..core import codecache

    def tick() -> None:  # after each start-screen frame: READY=1 (sent once), the watchdog
        codecache.save()  # a frame is up: what this start compiled new is kept for the next
        if notifier is not None:
            notifier.ready("start screen: waiting for the players to choose a game")
            notifier.watchdog(time.monotonic())
    try:
        from .history import sheets
        from .window import drawable_result

        choice = choose(display.app, store, GAMES, stopping=stopping, watch=watch, tick=tick,
                        sheet_of=sheets(store, drawable_result))
    except pygame.error as err:  # the screen went: carry on as without it (and retry it)
        display.lost(err)
        return plan
    if choice is None:  # the window was closed on the start screen
        raise ClosedOnStart("closed on the start screen")
    seats = len(choice.names)
    for spec in plan.readers:
        if spec.seat and spec.seat > seats:
            notice(f"--scanner {spec.kind}:{spec.path}@{spec.seat}: only {seats} are playing, so its scans "
                   "are refused")
    return replace(plan, game=choice.game, names=list(choice.names) if not choice.resume else [],
                   options=choice.options, new_game=not choice.resume)


def _wait_for_screen(display, notifier, stopping: Callable[[], bool]) -> None:
    """The service has no game to carry on and no players: only the start screen can
    begin one, so wait for the screen (tried again with the display's back-off), saying
    why in systemd's STATUS and keeping its watchdog and start timeout fed."""
    import threading
    import time

    pause = threading.Event()  # (never set: a wait that is not time.sleep, which libfaketime breaks)
    while display.ensure() is None and not stopping():
        if notifier is not None:
            notifier.waiting(f"no screen for the start screen: {display.problem}", time.monotonic())
        pause.wait(max(0.05, min(1.0, display.next_try - display.clock.now())))
    if display.app is None:
        raise ClosedOnStart("stopped while waiting for the screen")


def _start(plan: TablePlan, store: EventStore, clock: Clock, notice) -> Session:
    """Resume the unfinished game or start the plan's; an unfinished game of another kind
    is carried on when no game was named."""
    desc = plan.desc
    try:
        if not plan.names and store.unfinished(plan.game) is None:
            other = store.unfinished()
            if other is None or plan.game_given:
                raise PlanError(_who_is_playing(desc, other, plan.store))
            plan.game, desc = other.game, find_game(other.game)  # carry on the store's unfinished game
        waiting = store.unfinished(plan.game)
        options = plan.options
        if plan.names and (waiting is None or plan.new_game):  # a new game: a choice left to chance is drawn
            options = desc.fill_random(plan.names, plan.options)
            for o in desc.options:
                if options.get(o.name) != plan.options.get(o.name):
                    # in the game's words (the Goal Card's printed text), then what to type for it again
                    notice(f"drawn at random: {o.said(options[o.name])} ({o.cli_flag()} {options[o.name]})")
        session = Session.start(plan.game, plan.names, store, clock, tap_off=plan.tap_off, new_game=plan.new_game,
                                options=options)
        if waiting is not None and session.game_id == waiting.id:
            _unused_options(plan, waiting.config or {}, notice)
    except StoreError as err:
        raise PlanError(str(err), DEVICE) from None
    except PlanError:
        raise
    except ValueError as err:
        flags = ", ".join(o.cli_flag() for o in desc.options)
        raise PlanError(f"{err}" + (f" ({desc.name} set-up options: {flags}; see companion run --help)"
                                    if flags and not isinstance(err, GameInProgress) else ""), USAGE) from None
    return session


def _log(plan: TablePlan, session: Session) -> None:
    """The text log (the verdicts, one line each) or JSON lines on stdout."""
    if plan.log_format == "json":
        session.listeners.append(json_logger(sys.stdout))
        _json_start(session)
    else:
        text = TextLog(sys.stdout, session)
        session.listeners.append(text)
        text.start()


def _json_start(session: Session) -> None:
    line = {"event": "start", "game": session.game, "game_id": session.game_id,
            "players": list(session.state.players), "resumed_inputs": session.resumed_inputs,
            "replayed_inputs": session.resumed_inputs - session.resumed_from_point}
    if session.last_saved is not None:  # what the last input saved before the stop was and did
        line["last_input"] = session.last_saved
    print(json.dumps(line), flush=True)


def _next_session(plan: TablePlan, chosen, store: EventStore, clock: Clock) -> Session:
    """The next game, chosen on the start screen after a final screen."""
    nxt = start_session(chosen, store, clock, tap_off=plan.tap_off)
    if plan.log_format == "json":
        _json_start(nxt)
    return nxt


def _record(plan: TablePlan, store: EventStore, session: Session, clock: Clock) -> TraceWriter | None:
    if not plan.record:
        return None
    from .trace import TraceWriter  # only with --record: kept off the table's start

    stored = next((g.config for g in store.games() if g.id == session.game_id), {})
    try:
        return TraceWriter(plan.record, plan.game, list(session.state.players), clock.now(), stored or None,
                           game_id=session.game_id, store=str(Path(plan.store).resolve()))
    except OSError as err:
        raise PlanError(f"cannot write the record {plan.record}: {err.strerror or err}") from None


def _record_taps(record, name: str) -> dict:
    """The taps that put a keyboard-mode or NFC reader's reads in the ``--record`` trace."""
    if record is None:
        return {}
    return {"hid_tap": lambda kind, code, value, t: record.key(name, t, kind, code, value),
            "nfc_tap": lambda uid, code, t: record.tag(name, t, uid, code)}


def _readers(plan: TablePlan, runner: Runner, store: EventStore, record, stack: ExitStack) -> None:
    """Every reader, each on its own thread, putting scans on the runner's queue."""
    # NFC tags enrolled with `companion enroll`: a plain dict, because the NFC reader looks
    # codes up from its own thread and the store's connection belongs to this one.
    enrolled = {}
    if plan.readers:
        from ..core.enrolment import Enrolments

        enrolled = {e.uid: e.code for e in Enrolments(store).all(plan.game)}
    for i, spec in enumerate(plan.readers):
        name = f"scanner{i + 1}" if len(plan.readers) > 1 else "scanner"
        tap = (lambda data, t, name=name: record.bytes(name, t, data)) if record and spec.kind == "serial" else None
        try:
            reader = open_reader(spec, runner.inputs, runner.clock, name, tap, uid_to_code=enrolled.get,
                                 framing=plan.framing, end=plan.scan_end, **_record_taps(record, name))
        except ValueError as err:
            raise PlanError(str(err)) from None
        stack.callback(reader.stop)


def _tray(plan: TablePlan, runner: Runner, record, stack: ExitStack) -> None:
    """The tray sensor's sampler, turning tilts into inputs on the runner's queue."""
    if not plan.tray:
        return
    from ..devices.accel.sampler import TraySampler
    from ..devices.tray import EmulatedTray, bus_opener, detector, load_calibration

    clock = runner.clock
    tray = EmulatedTray(clock) if plan.tray == "emulated" else None
    try:
        tap = (lambda t, g: record.accel("tray", t, g)) if record else None
        saved = plan.calibration
        sampler = TraySampler(bus_opener(plan.tray, clock, tray), runner.inputs, clock,
                              detector(load_calibration(Path(saved) if saved else None), plan.tilt),
                              tap=tap, fifo=True)
    except ValueError as err:
        raise PlanError(str(err)) from None
    runner.tray = tray
    sampler.start()
    stack.callback(sampler.stop)


def _sound(plan: TablePlan, runner: Runner, stack: ExitStack, notice) -> None:
    """The table's sounds (:mod:`companion.ui.sound`) for a table with a screen: each
    verdict's, and time up. No sound device is said once and is no problem."""
    if plan.headless:
        return
    from ..ui.sound import Sounds, VerdictSounds

    sounds = Sounds(plan.volume, plan.mute)
    if not sounds.start():
        notice(f"sound: {sounds.problem} (the table plays on without it)")
        return
    stack.callback(sounds.close)
    runner.sounds = sounds
    runner.session.listeners.append(VerdictSounds(sounds))


def _gpio(plan: TablePlan, runner: Runner, stack: ExitStack, notice) -> None:
    """The buzzer and LED (a beep and a blink for every scan), and the config's buttons
    and status LED. A GPIO problem (not a Pi, a pin busy) is reported, not fatal."""
    session = runner.session
    feedback = _feedback(plan, notice)
    if feedback:
        stack.callback(feedback.close)
        session.listeners.append(lambda item, verdict: verdict and isinstance(item, CardScanned)
                                 and feedback.signal(verdict.verdict))
        if plan.timers.limit is not None or plan.timers.bank is not None:
            from ..devices.gpio import TimerAlarm

            runner.alarm = TimerAlarm(feedback)  # three beeps as a turn's last 10 s begin
    for part in _table_gpio(plan, runner, notice):
        if part is not None:
            stack.callback(part.close)
            if hasattr(part, "heard"):
                session.listeners.append(part.heard)
                part.show("ready")


def _table_gpio(plan: TablePlan, runner: Runner, notice):
    """The config's buttons and status LED, ``(buttons, led)``, each None when not set or
    when there is no GPIO (reported, not fatal)."""
    if not any(plan.gpio.get(name) is not None for name in ("confirm", "undo", "led")):
        return (None, None)  # nothing named: gpiozero is not even loaded

    def make():
        from ..devices.gpio import table_gpio

        return table_gpio(plan.gpio, runner.inputs, runner.clock,
                          error_if=lambda: getattr(runner.session, "unsaved_result", None) is not None)
    return _quiet_gpio(make, "no buttons or status LED ({}); carrying on without them", (None, None), notice)


def _feedback(plan: TablePlan, notice):
    """The buzzer/LED, or None."""
    if plan.buzzer is None and plan.led is None:
        return None

    def make():
        from ..devices.gpio import Feedback

        return Feedback(plan.buzzer, plan.led)
    return _quiet_gpio(make, "no buzzer/LED feedback ({}); carrying on without it", None, notice)


def _quiet_gpio(make: Callable[[], Any], missing: str, fallback: Any, notice) -> Any:
    """``make()`` (which imports gpiozero) without gpiozero's warning for each pin library
    it tries. On a machine with no usable GPIO (not a Pi, a pin busy): ``fallback``, and
    ``notice`` gets ``missing`` with the error in its ``{}``."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns about each pin library it tries
            return make()
    except Exception as exc:  # gpiozero raises many kinds when there is no GPIO at all
        notice(missing.format(exc))
        return fallback


def _who_is_playing(desc, other, store_path: str) -> str:
    """No names and no unfinished game of ``desc`` to resume: say so, and name the
    store's unfinished game of another kind (``other``) with how to carry it on."""
    ask = "who is playing? Give --players N or --names A,B,... to start a new " + desc.name + " game"
    if other is None:
        return f"{ask} (there is no unfinished {desc.name} game to resume)"
    name = find_game(other.game).name
    return (f"{ask}. There is no unfinished {desc.name} game to resume, but there is an unfinished "
            f"{name} game with {', '.join(other.players)}: resume it with "
            f"`companion run --game {other.game} --store {store_path}` (no --names)")


def _unused_options(plan: TablePlan, stored: dict, notice) -> None:
    """Resuming a game: say which set-up options given now differ from the game's own
    (they are not used: a game keeps the options it began with)."""
    desc = plan.desc
    given = plan.given_options
    differ = [o for o in desc.options if given.get(o.name) not in (None, False, "random")
              and given.get(o.name) != stored.get(o.name)]
    if differ:
        shown = ", ".join(f"{o.cli_flag()} {stored.get(o.name)}" if o.kind != "bool" else
                          f"{o.cli_flag()} {'on' if stored.get(o.name) else 'off'}" for o in desc.options
                          if stored.get(o.name) is not None)
        flags = " ".join(o.cli_flag() for o in differ)
        notice(f"carrying on the unfinished {desc.name} game with the options it began with"
               f"{' (' + shown + ')' if shown else ''}; {flags} not used: add --new-game to start a new game "
               "with them")


def _warn_unshown_names(players, notice) -> None:
    """Say which letters of the names no installed font can draw, and what shows instead."""
    from ..ui.fonts import display_name, missing, seat_mark

    for seat, name in enumerate(players, 1):
        lost = missing(name)
        if lost:
            shown = display_name(name, seat)
            badge = f"seat {seat}'s colour badge and " if seat_mark(seat) in shown else ""
            notice(f"no font here draws {lost!r} of the name {name!r}: the screen shows "
                   f"{badge}{shown.replace(seat_mark(seat), '').strip()!r} (install fonts-noto-core, fonts-noto-cjk and "
                   "fonts-noto-color-emoji for every script)")


def virtual_screen() -> bool:
    """Is the open window drawn by one of SDL's invisible drivers?"""
    import pygame

    from ..ui.display import VIRTUAL_DRIVERS

    try:
        return pygame.display.get_init() and (pygame.display.get_driver() or "").lower() in VIRTUAL_DRIVERS
    except pygame.error:
        return False
