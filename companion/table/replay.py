"""Replay a recorded trace through the whole stack, as at a table.

Scanner bytes go into a real pseudo-terminal and are read back by the real
:class:`~companion.devices.scan.serial.SerialScanner`; key events from a keyboard-mode
reader go into an emulated evdev device read by the real
:class:`~companion.devices.scan.hid.HidScanner`; an NFC tag read goes on the queue as the
code the reader delivered; touches go on the same queue as the touchscreen's. A
``restart`` record starts the daemon again as the table did: new readers, and the game
resumed from the same store. Tray samples (Sugar Blast) go into a register-level emulated ADXL345
read by the real driver in a :class:`~companion.devices.accel.sampler.TraySampler`,
stepped once per sample by this loop, so the real tilt detector turns them into
``TrayTilted``/``TrayLevel`` on the session queue. A :class:`~companion.core.clock.FakeClock` follows the trace's
times, so the tap-off window and the turn timer behave as they did at the table and the
replay runs as fast as the machine allows.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from ..core.clock import FakeClock
from ..core.errors import DeviceError
from ..core.events import CardScanned
from ..core.store import EventStore
from ..games import find_game
from ..devices.emulated.serial_scanner import PtyScanner
from ..devices.scan.serial import SerialScanner
from .runner import Runner
from .session import Session
from .trace import read


def data_dir() -> Path:
    """The recorded sessions the demo replays: ``tests/data`` in a source checkout."""
    return Path(__file__).resolve().parent.parent.parent / "tests" / "data"


def replay(path: str | Path, store: str = ":memory:", window: bool = True, listeners=(),
           snapshots: str | Path | None = None, on_start=None) -> Runner:
    """Replay the trace at ``path`` and return the finished :class:`Runner`.

    ``window`` draws every change on a (headless) pygame window; ``snapshots`` is a
    folder where the screen after each turn is saved as PNG. Raises
    :class:`~companion.table.trace.TraceError` for a bad trace and
    :class:`~companion.core.errors.DeviceError` if the emulated scanner loses bytes.
    """
    trace = read(path)
    options = find_game(trace.game).options_from(trace.options)  # ValueError: an option the game lacks or refuses
    clock = FakeClock(0.0)
    store_db = EventStore(store)
    session = Session.start(trace.game, list(trace.players), store_db, clock, resume=False,
                            options=options)
    session.listeners.extend(listeners)
    if on_start is not None:  # e.g. to read the session's state from a listener
        on_start(session)
    app = None
    if window:
        import os

        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # a replay draws off-screen: no window to open
        from ..ui.app import App

        app = App()
    runner = Runner(session, clock, app=app)
    readers = _Readers(runner, clock)
    trays = _trays(trace, runner, clock)
    try:
        for record in trace.records:
            clock.set(record.t)
            if record.kind == "restart":
                readers.close()
                runner.step()
                session = Session.start(trace.game, list(trace.players), store_db, clock, resume=True)
                session.listeners.extend(listeners)
                runner = Runner(session, clock, app=app)
                readers = _Readers(runner, clock)
                trays = _trays(trace, runner, clock)
            elif record.kind == "touch":
                runner.touch(record.command)
            elif record.kind == "accel":
                trays[record.device].step()
            elif record.kind == "tag":
                runner.inputs.put(CardScanned(record.code, record.device, clock.now()))
            elif record.kind == "key":
                readers.key(record.device, record.key)
            else:
                readers.bytes(record.device, record.data)
            before = session.state.turn
            runner.step()
            if snapshots and app and session.state.turn != before:
                app.save(Path(snapshots) / f"turn-{before:03d}.png")
    finally:
        readers.close()
    runner.render(force=True)
    runner.trace_damage = trace.damaged  # where a torn tail stopped the replay (None: read whole)
    return runner


class _Readers:
    """The emulated devices of one run of the daemon, each read by its real driver."""

    def __init__(self, runner: Runner, clock: FakeClock):
        self.runner, self.clock = runner, clock
        self.serial: dict[str, tuple[PtyScanner, SerialScanner]] = {}
        self.hid: dict[str, tuple] = {}
        self.sent: dict[str, int] = {}

    def bytes(self, device: str, data: bytes) -> None:
        if device not in self.serial:
            pty = PtyScanner()
            reader = SerialScanner(pty.path, self.runner.inputs, self.clock, name=device, idle_gap=None)
            reader.start()
            self.serial[device] = (pty, reader)
            self.sent[device] = 0
        pty, reader = self.serial[device]
        pty.send(data)
        self.sent[device] += len(data)
        if not reader.wait_for_bytes(self.sent[device], timeout=5.0):
            raise DeviceError(f"the emulated scanner {device} did not deliver its bytes")

    def key(self, device: str, event: tuple[int, int, int]) -> None:
        from evdev import InputEvent

        from ..devices.emulated.hid import FakeInputDevice
        from ..devices.scan.hid import HidScanner

        if device not in self.hid:
            path = f"/dev/input/by-id/replay-{device}-barcode-scanner-event-kbd"
            fake = FakeInputDevice(path)
            reader = HidScanner(path, self.runner.inputs, self.clock, name=device, opener=fake.open, end=None)
            reader.start()
            self.hid[device] = (fake, reader)
        fake, reader = self.hid[device]
        target = reader.events_read + 1
        fake.send([InputEvent(0, 0, *event)])
        if not reader.wait_for_events(target, timeout=5.0):
            raise DeviceError(f"the emulated keyboard-mode scanner {device} did not deliver its keys")

    def close(self) -> None:
        for pty, reader in self.serial.values():
            reader.stop()
            pty.close()
        for _, reader in self.hid.values():
            reader.stop()
        self.serial.clear()
        self.hid.clear()


def _trays(trace, runner: Runner, clock: FakeClock) -> dict:
    """One sampler per tray device in the trace, connected to its emulated chip at t=0.

    The chip reads the recorded sample in force at the clock's time (a sample holds until
    the next one, so a recording writes level samples after each tilt)."""
    from ..devices.accel.sampler import TraySampler
    from ..devices.emulated.chips import EmulatedAdxl345
    from ..devices.emulated.i2c import EmulatedBus
    from ..devices.tray import detector

    samplers = {}
    for device in dict.fromkeys(r.device for r in trace.records if r.kind == "accel"):
        times = [r.t for r in trace.records if r.kind == "accel" and r.device == device]
        values = [r.g for r in trace.records if r.kind == "accel" and r.device == device]

        def recorded(t: float, times=times, values=values) -> tuple[float, float, float]:
            i = bisect.bisect_right(times, t + 1e-6) - 1
            return values[i] if i >= 0 else values[0]

        bus = EmulatedBus(EmulatedAdxl345(orientation=recorded, clock=clock))
        sampler = TraySampler(lambda bus=bus: bus.open() or bus, runner.inputs, clock, detector(None),
                              name=device, sleep=lambda s: None)
        sampler.step()  # finds and configures the chip
        samplers[device] = sampler
    return samplers
