"""The tray sampler against emulated chips: faults never become samples, never stop the daemon."""

import math
import queue

import pytest

from companion.core.clock import FakeClock
from companion.core.events import DeviceStatus, TrayLevel, TrayTilted
from companion.devices.accel.sampler import TraySampler
from companion.devices.emulated.chips import EmulatedAdxl345, EmulatedLis3dh, EmulatedMpu6050
from companion.devices.emulated.i2c import EmulatedBus
from companion.devices.tilt import Calibration, TiltDetector


class Tray:
    """A tray orientation the test can change: level, or tilted toward a seat (1-4 = +X, +Y, -X, -Y lowered)."""

    def __init__(self):
        self.seat, self.angle = None, 0.0

    def __call__(self, t):
        if self.seat is None:
            return (0.0, 0.0, 1.0)
        a = math.radians(self.angle)
        s, c = math.sin(a), math.cos(a)
        return {1: (-s, 0.0, c), 2: (0.0, -s, c), 3: (s, 0.0, c), 4: (0.0, s, c)}[self.seat]


def rig(chip_cls=EmulatedAdxl345):
    clock = FakeClock(0.0)
    tray = Tray()
    chip = chip_cls(orientation=tray, clock=clock, noise_g=0.005, **({"reset_time": 0} if chip_cls is EmulatedMpu6050 else {}))
    bus = EmulatedBus(chip)
    out = queue.Queue()
    sampler = TraySampler(lambda: bus.open() or bus, out, clock, TiltDetector(Calibration.default((0.0, 0.0, 1.0))),
                          sleep=clock.advance)
    return clock, tray, chip, bus, out, sampler


def run(clock, sampler, seconds, rate=100):
    for _ in range(int(seconds * rate)):
        clock.advance(1 / rate)
        sampler.step()


def drain(out):
    items = []
    while not out.empty():
        items.append(out.get_nowait())
    return items


@pytest.mark.parametrize("chip_cls", [EmulatedAdxl345, EmulatedMpu6050, EmulatedLis3dh])
def test_a_tilt_toward_seat_3_is_reported_once_then_level(chip_cls):
    clock, tray, chip, bus, out, sampler = rig(chip_cls)
    run(clock, sampler, 1.0)
    tray.seat, tray.angle = 3, 25
    run(clock, sampler, 1.0)
    tray.seat = None
    run(clock, sampler, 1.0)
    events = [e for e in drain(out) if not isinstance(e, DeviceStatus)]
    assert [type(e) for e in events] == [TrayTilted, TrayLevel]
    assert events[0].seat == 3 and 20 < events[0].angle < 30


def test_a_few_nacks_keep_state_and_raise_no_alarm():
    clock, tray, chip, bus, out, sampler = rig()
    run(clock, sampler, 0.5)
    drain(out)
    chip.fault("nack", times=3)
    run(clock, sampler, 0.5)
    assert sampler.status == "connected" and not [e for e in drain(out) if isinstance(e, DeviceStatus)]
    assert sampler.failures == 0


@pytest.mark.parametrize("kind", ["nack", "eio", "enxio", "zeros", "ones", "vanish"])
def test_lasting_faults_go_offline_and_recover_by_themselves(kind):
    clock, tray, chip, bus, out, sampler = rig()
    run(clock, sampler, 0.5)
    drain(out)
    chip.fault(kind, until=clock.now() + 2.0)
    run(clock, sampler, 1.0)
    statuses = [e for e in drain(out) if isinstance(e, DeviceStatus)]
    assert [s.status for s in statuses] == ["offline"] and "check its cable" in statuses[0].detail
    assert sampler.status == "offline"
    run(clock, sampler, 8.0)  # the fault clears at +2 s; the backoff retries find the chip again
    statuses = [e for e in drain(out) if isinstance(e, DeviceStatus)]
    assert statuses[-1].status == "connected" and sampler.status == "connected"
    # Data is trusted again, and a tilt after recovery is seen.
    tray.seat, tray.angle = 1, 30
    run(clock, sampler, 1.0)
    assert any(isinstance(e, TrayTilted) and e.seat == 1 for e in drain(out))


def test_a_sleeping_mpu6050_is_rewoken():
    clock, tray, chip, bus, out, sampler = rig(EmulatedMpu6050)
    run(clock, sampler, 0.3)
    drain(out)
    chip.fault("sleep")  # the chip reset itself and sleeps: its data reads all zeros
    run(clock, sampler, 2.0)
    statuses = [e.status for e in drain(out) if isinstance(e, DeviceStatus)]
    assert statuses == ["offline", "connected"]
    tray.seat, tray.angle = 2, 30
    run(clock, sampler, 1.0)
    assert any(isinstance(e, TrayTilted) and e.seat == 2 for e in drain(out))


def test_no_chip_at_all_is_offline_and_never_raises():
    clock = FakeClock(0.0)
    out = queue.Queue()
    sampler = TraySampler(lambda: EmulatedBus(), out, clock, TiltDetector(Calibration.default((0, 0, 1))))
    run(clock, sampler, 10.0)
    statuses = [e for e in drain(out) if isinstance(e, DeviceStatus)]
    assert [s.status for s in statuses] == ["offline"]  # said once, not every retry
    assert statuses[0].detail == "tray sensor offline: check its cable"


def test_the_thread_samples_and_stops_promptly():
    import time

    from companion.core.clock import SystemClock

    tray = Tray()
    clock = SystemClock()
    bus = EmulatedBus(EmulatedAdxl345(orientation=tray, clock=clock))
    out = queue.Queue()
    sampler = TraySampler(lambda: bus, out, clock, TiltDetector(Calibration.default((0, 0, 1))))
    sampler.start()
    deadline = time.monotonic() + 3
    while sampler.last_g is None and time.monotonic() < deadline:
        time.sleep(0.01)
    t0 = time.monotonic()
    sampler.stop()
    assert sampler.last_g is not None and time.monotonic() - t0 < 1.0


@pytest.mark.parametrize("chip_cls", [EmulatedAdxl345, EmulatedMpu6050, EmulatedLis3dh])
def test_one_glitched_id_read_at_connect_never_shows_the_sensor_offline(chip_cls):
    clock, tray, chip, bus, out, sampler = rig(chip_cls)
    chip.fault("ones", times=1)  # the first ID read answers 0xFF
    run(clock, sampler, 0.5)
    statuses = [e.status for e in drain(out) if isinstance(e, DeviceStatus)]
    assert statuses == ["connected"]


def test_a_clone_is_connected_and_named_in_the_status():
    clock = FakeClock(0.0)
    chip = EmulatedMpu6050(who_am_i=0x98, clock=clock, reset_time=0)
    bus, out = EmulatedBus(chip), queue.Queue()
    sampler = TraySampler(lambda: bus.open() or bus, out, clock, TiltDetector(Calibration.default((0.0, 0.0, 1.0))),
                          sleep=clock.advance)
    run(clock, sampler, 0.2)
    assert sampler.status == "connected"
    assert sampler.chip.part.startswith("MPU-6050 clone") and sampler.chip.warning
