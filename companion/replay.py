"""Replay a recorded trace through the whole stack, as at a table.

Scanner bytes go into a real pseudo-terminal and are read back by the real
:class:`~companion.devices.scan.serial.SerialScanner`; touches go on the same queue as
the touchscreen's. Tray samples (Sugar Blast) go into a register-level emulated ADXL345
read by the real driver in a :class:`~companion.devices.accel.sampler.TraySampler`,
stepped once per sample by this loop, so the real tilt detector turns them into
``TrayTilted``/``TrayLevel`` on the session queue. A :class:`~companion.core.clock.FakeClock` follows the trace's
times, so the tap-off window and the turn timer behave as they did at the table and the
replay runs as fast as the machine allows.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from .core.clock import FakeClock
from .core.errors import DeviceError
from .core.store import EventStore
from .devices.emulated.serial_scanner import PtyScanner
from .devices.scan.serial import SerialScanner
from .runner import Runner
from .table import Session
from .trace import read


def replay(path: str | Path, store: str = ":memory:", window: bool = True, listeners=(),
           snapshots: str | Path | None = None) -> Runner:
    """Replay the trace at ``path`` and return the finished :class:`Runner`.

    ``window`` draws every change on a (headless) pygame window; ``snapshots`` is a
    folder where the screen after each turn is saved as PNG. Raises
    :class:`~companion.trace.TraceError` for a bad trace and
    :class:`~companion.core.errors.DeviceError` if the emulated scanner loses bytes.
    """
    trace = read(path)
    clock = FakeClock(0.0)
    session = Session.start(trace.game, list(trace.players), EventStore(store), clock, resume=False,
                            options=trace.options)
    session.listeners.extend(listeners)
    app = None
    if window:
        import os

        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # a replay draws off-screen: no window to open
        from .ui.app import App

        app = App()
    runner = Runner(session, clock, app=app)
    scanners: dict[str, tuple[PtyScanner, SerialScanner]] = {}
    sent: dict[str, int] = {}
    trays = _trays(trace, runner, clock)
    try:
        for record in trace.records:
            clock.set(record.t)
            if record.kind == "touch":
                runner.touch(record.command)
            elif record.kind == "accel":
                trays[record.device].step()
            else:
                if record.device not in scanners:
                    pty = PtyScanner()
                    reader = SerialScanner(pty.path, runner.inputs, clock, name=record.device, idle_gap=None)
                    reader.start()
                    scanners[record.device] = (pty, reader)
                    sent[record.device] = 0
                pty, reader = scanners[record.device]
                pty.send(record.data)
                sent[record.device] += len(record.data)
                if not reader.wait_for_bytes(sent[record.device], timeout=5.0):
                    raise DeviceError(f"the emulated scanner {record.device} did not deliver its bytes")
            before = session.state.turn
            runner.step()
            if snapshots and app and session.state.turn != before:
                app.save(Path(snapshots) / f"turn-{before:03d}.png")
    finally:
        for pty, reader in scanners.values():
            reader.stop()
            pty.close()
    runner.render(force=True)
    return runner


def _trays(trace, runner: Runner, clock: FakeClock) -> dict:
    """One sampler per tray device in the trace, connected to its emulated chip at t=0.

    The chip reads the recorded sample in force at the clock's time (a sample holds until
    the next one, so a recording writes level samples after each tilt)."""
    from .devices.accel.sampler import TraySampler
    from .devices.emulated.i2c import EmulatedAdxl345, EmulatedBus
    from .tray import detector

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
