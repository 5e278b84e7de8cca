"""The accelerometers' FIFOs: the register emulators against the drivers, their traps
(overflow, watermark, a read that empties it, the LIS3DH's 5-bit count, the MPU-6050's
misaligned bytes), and the tray sampler reading them in batches (issue 15)."""

import math
import queue

import pytest

from companion.core.clock import FakeClock
from companion.core.events import DeviceStatus, TrayLevel, TrayTilted
from companion.devices.accel import Adxl345, Lis3dh, Mpu6050, detect
from companion.devices.accel.sampler import BATCH_S, TraySampler
from companion.devices.emulated.chips import EmulatedAdxl345, EmulatedLis3dh, EmulatedMpu6050
from companion.devices.emulated.i2c import EmulatedBus
from companion.devices.tilt import Calibration, TiltDetector

CHIPS = [EmulatedAdxl345, EmulatedLis3dh, EmulatedMpu6050]


def ramp(t):
    """x reads the time in g (capped at 1.9 g: inside the +-2 g range), so a sample's x says when it was taken."""
    return (min(t, 1.9), 0.0, 1.0)


def fifo_rig(chip_cls, watermark=10, orientation=ramp):
    clock = FakeClock(0.0)
    chip = chip_cls(orientation=orientation, clock=clock, noise_g=0,
                    **({"reset_time": 0} if chip_cls is EmulatedMpu6050 else {}))
    bus = EmulatedBus(chip)
    accel = detect(bus, sleep=clock.advance)
    accel.init(range_g=2, rate_hz=100, fifo_watermark=watermark)
    return clock, chip, bus, accel


@pytest.mark.parametrize("chip_cls", CHIPS)
def test_the_fifo_fills_at_the_data_rate_and_one_read_empties_it(chip_cls):
    clock, chip, bus, accel = fifo_rig(chip_cls)
    start = clock.now()
    clock.advance(0.1)
    samples, lost = accel.read_fifo()
    assert not lost
    assert len(samples) == 11  # the sample at start, then one every 10 ms
    xs = [x for x, _, _ in samples]
    assert xs == sorted(xs) and xs[0] == pytest.approx(start, abs=0.01) and xs[-1] == pytest.approx(start + 0.1, abs=0.01)
    assert all(z == pytest.approx(1.0, abs=0.01) for _, _, z in samples)
    assert accel.read_fifo() == ([], False)  # emptied, nothing new within the same sample period


@pytest.mark.parametrize("chip_cls", [EmulatedAdxl345, EmulatedLis3dh])
def test_stream_mode_overflow_keeps_the_newest_32_and_says_samples_were_lost(chip_cls):
    clock, chip, bus, accel = fifo_rig(chip_cls)
    clock.advance(0.5)  # 51 samples into a 32-sample FIFO
    samples, lost = accel.read_fifo()
    assert lost and chip.fifo_overruns == 51 - 32
    assert len(samples) == 32
    assert samples[-1][0] == pytest.approx(0.5, abs=0.01) and samples[0][0] == pytest.approx(0.19, abs=0.01)
    clock.advance(0.05)
    samples, lost = accel.read_fifo()  # the overrun flag was cleared by the read
    assert not lost and len(samples) == 5


def test_adxl345_watermark_and_status_bits():
    clock, chip, bus, accel = fifo_rig(EmulatedAdxl345, watermark=8)
    assert bus.read_byte_data(0x53, 0x38) == 0b10 << 6 | 8  # FIFO_CTL: stream mode, samples = 8
    clock.advance(0.05)  # 6 entries
    assert bus.read_byte_data(0x53, 0x39) & 0x3F == 6  # FIFO_STATUS entries
    assert not bus.read_byte_data(0x53, 0x30) & 0x02  # INT_SOURCE Watermark not yet
    clock.advance(0.02)
    assert bus.read_byte_data(0x53, 0x30) & 0x02  # 8 entries: Watermark
    bus.read_i2c_block_data(0x53, 0x32, 6)  # one read pops one entry
    assert bus.read_byte_data(0x53, 0x39) & 0x3F == 7
    assert not bus.read_byte_data(0x53, 0x30) & 0x02


def test_adxl345_fifo_mode_stops_when_full():
    clock, chip, bus, accel = fifo_rig(EmulatedAdxl345)
    bus.write_byte_data(0x53, 0x38, 0b01 << 6 | 10)  # FIFO mode: keeps the first 32
    clock.advance(0.5)
    assert bus.read_byte_data(0x53, 0x39) & 0x3F == 32
    first = Adxl345._decode(accel, bytes(bus.read_i2c_block_data(0x53, 0x32, 6)))
    assert first[0] == pytest.approx(0.0, abs=0.01)  # the oldest survived; the newest were dropped


def test_lis3dh_fss_cannot_say_32_so_the_driver_trusts_ovrn_fifo():
    clock, chip, bus, accel = fifo_rig(EmulatedLis3dh, watermark=20)
    clock.advance(0.31)  # 32 unread: full
    src = bus.read_byte_data(chip.address, 0x2F)
    assert src & 0x40 and src & 0x1F == 0  # OVRN_FIFO, FSS wrapped to 0
    assert src & 0x80  # WTM: 32 >= 20
    samples, full = accel.read_fifo()
    assert len(samples) == 32 and full
    assert bus.read_byte_data(chip.address, 0x2F) & 0x20  # EMPTY


def test_lis3dh_a_burst_rolls_back_from_out_z_h_to_out_x_l():
    clock, chip, bus, accel = fifo_rig(EmulatedLis3dh)
    clock.advance(0.04)  # 5 samples
    data = bus.read_i2c_block_data(chip.address, 0x28 | 0x80, 18)  # three samples in one burst
    xs = [Lis3dh._decode(accel, bytes(data[i:i + 6]))[0] for i in (0, 6, 12)]
    assert xs == pytest.approx([0.0, 0.01, 0.02], abs=0.002)
    assert bus.read_byte_data(chip.address, 0x2F) & 0x1F == 2


def test_lis3dh_bypass_empties_the_fifo():
    clock, chip, bus, accel = fifo_rig(EmulatedLis3dh)
    clock.advance(0.1)
    bus.write_byte_data(chip.address, 0x2E, 0x00)
    assert bus.read_byte_data(chip.address, 0x2F) & 0x20  # EMPTY


def test_mpu6050_counts_bytes_and_reads_one_port_without_advancing():
    clock, chip, bus, accel = fifo_rig(EmulatedMpu6050)
    clock.advance(0.05)
    high, low = bus.read_i2c_block_data(0x68, 0x72, 2)
    assert high << 8 | low == 6 * 6  # FIFO_COUNT in bytes, six a sample
    first = bytes(bus.read_i2c_block_data(0x68, 0x74, 6))  # FIFO_R_W six times: one sample
    assert Mpu6050._decode(accel, first)[0] == pytest.approx(clock.now() - 0.05, abs=0.001)
    high, low = bus.read_i2c_block_data(0x68, 0x72, 2)
    assert high << 8 | low == 5 * 6


def test_mpu6050_overflow_misaligns_so_the_driver_resets_and_starts_clean():
    clock, chip, bus, accel = fifo_rig(EmulatedMpu6050)
    clock.advance(2.0)  # 201 samples, 1206 bytes into 1024: the oldest bytes dropped
    high, low = bus.read_i2c_block_data(0x68, 0x72, 2)
    assert high << 8 | low == 1024 and 1024 % 6 != 0 and chip.fifo_overruns == 1206 - 1024
    assert bus.read_byte_data(0x68, 0x3A) & 0x10  # FIFO_OFLOW_INT ...
    assert not bus.read_byte_data(0x68, 0x3A) & 0x10  # ... cleared by reading INT_STATUS
    chip._fifo_overrun = True  # as it was before the test looked
    samples, lost = accel.read_fifo()
    assert (samples, lost) == ([], True)
    assert bus.read_byte_data(0x68, 0x6A) == 0x40  # FIFO_RESET cleared itself, FIFO_EN still on
    clock.advance(0.03)
    samples, lost = accel.read_fifo()
    assert not lost and len(samples) == 3
    assert [x for x, _, _ in samples] == pytest.approx([1.9, 1.9, 1.9], abs=0.001)
    assert all(z == pytest.approx(1.0, abs=0.001) for _, _, z in samples)  # aligned again


@pytest.mark.parametrize("chip_cls", CHIPS)
def test_init_checks_the_watermark_and_read_fifo_needs_it(chip_cls):
    clock = FakeClock(0.0)
    chip = chip_cls(clock=clock, **({"reset_time": 0} if chip_cls is EmulatedMpu6050 else {}))
    accel = detect(EmulatedBus(chip), sleep=clock.advance)
    with pytest.raises(ValueError):
        accel.init(fifo_watermark=accel.fifo_depth)
    accel.init()
    with pytest.raises(OSError):  # AccelError: no FIFO turned on
        accel.read_fifo()


# ---------------------------------------------------------------- the sampler in batches

class Tray:
    def __init__(self):
        self.seat, self.angle, self.since = None, 0.0, 0.0

    def __call__(self, t):
        if self.seat is None or t < self.since:
            return (0.0, 0.0, 1.0)
        a = math.radians(self.angle)
        return (math.sin(a), 0.0, math.cos(a))  # seat 3 (the -X edge lowered)


def batch_rig(chip_cls):
    clock = FakeClock(0.0)
    tray = Tray()
    chip = chip_cls(orientation=tray, clock=clock, noise_g=0.005,
                    **({"reset_time": 0} if chip_cls is EmulatedMpu6050 else {}))
    bus = EmulatedBus(chip)
    out = queue.Queue()
    sampler = TraySampler(lambda: bus.open() or bus, out, clock, TiltDetector(Calibration.default((0.0, 0.0, 1.0))),
                          sleep=clock.advance, fifo=True)
    return clock, tray, chip, bus, out, sampler


def run_batches(clock, sampler, seconds):
    """As the thread does: a read every 0.1 s while still, every 0.05 s while moving."""
    end = clock.now() + seconds
    while clock.now() < end - 1e-9:
        clock.advance(BATCH_S[1] if sampler.moving() else BATCH_S[0])
        sampler.step_batch()


@pytest.mark.parametrize("chip_cls", CHIPS)
def test_batches_report_a_tilt_once_in_time_with_every_sample_fed(chip_cls):
    clock, tray, chip, bus, out, sampler = batch_rig(chip_cls)
    fed = []
    sampler._tap = lambda t, g: fed.append(t)
    run_batches(clock, sampler, 1.0)
    assert sampler.chip is not None and sampler._batching
    reads = bus.block_reads
    tray.seat, tray.angle, tray.since = 3, 25.0, clock.now() + 0.013  # a step tilt between two reads
    run_batches(clock, sampler, 1.0)
    tray.seat = None
    run_batches(clock, sampler, 1.0)
    events = [e for e in [out.get_nowait() for _ in range(out.qsize())] if not isinstance(e, DeviceStatus)]
    assert [type(e) for e in events] == [TrayTilted, TrayLevel]
    tilt = events[0]
    assert tilt.seat == 3 and 0 <= tilt.t - tray.since <= 0.35
    assert fed == sorted(fed) and len(fed) >= 290  # about 100 samples a second, in time order
    assert all(0.005 < b - a < 0.015 for a, b in zip(fed, fed[1:]))


def test_a_sleeping_chip_in_batch_mode_goes_offline_and_comes_back():
    clock, tray, chip, bus, out, sampler = batch_rig(EmulatedAdxl345)
    run_batches(clock, sampler, 0.5)
    chip.fault("sleep")
    run_batches(clock, sampler, 1.0)
    statuses = [e.status for e in [out.get_nowait() for _ in range(out.qsize())] if isinstance(e, DeviceStatus)]
    assert "offline" in statuses
    run_batches(clock, sampler, 2.0)
    assert sampler.status == "connected" and sampler._batching


def test_the_thread_wakes_at_most_20_times_a_second():
    import time

    from companion.core.clock import SystemClock

    clock = SystemClock()
    bus = EmulatedBus(EmulatedAdxl345(clock=clock))
    sampler = TraySampler(lambda: bus, queue.Queue(), clock, TiltDetector(Calibration.default((0, 0, 1))), fifo=True)
    sampler.start()
    time.sleep(0.3)  # connected, level
    w0, n0 = sampler.wakeups, len(bus.chips)
    time.sleep(1.0)
    wakeups = sampler.wakeups - w0
    sampler.stop()
    assert n0 == 1 and sampler._batching and 5 <= wakeups <= 21
    assert sampler.last_g is not None
