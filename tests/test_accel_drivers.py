"""Register-level tests: the real drivers run against the register emulators.

Expected register values and raw bytes are worked out by hand from the datasheets
(ADXL345 Rev. G, MPU-6050 register map Rev. 4.2, LIS3DH DocID17530), not taken from the
emulator, so a wrong reading in either shows up here.
"""

from __future__ import annotations

import errno

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import DeviceError
from companion.devices.accel import (
    CHIPS,
    AccelError,
    Adxl345,
    ChipNotFound,
    Lis3dh,
    Mpu6050,
    detect,
)
from companion.devices.emulated.chips import EmulatedAdxl345, EmulatedLis3dh, EmulatedMpu6050
from companion.devices.emulated.i2c import EmulatedBus

EMULATOR = {Adxl345: EmulatedAdxl345, Mpu6050: EmulatedMpu6050, Lis3dh: EmulatedLis3dh}
DRIVERS = pytest.mark.parametrize("driver", CHIPS, ids=lambda d: d.name)
LSB_G = {Adxl345: 1 / 256, Mpu6050: 1 / 2048, Lis3dh: 0.012}  # coarsest step of each chip


class SpyBus:
    """An EmulatedBus that records every transaction as (method, address, register, arg)."""

    def __init__(self, bus: EmulatedBus):
        self.bus, self.calls = bus, []

    def read_byte_data(self, addr, reg):
        self.calls.append(("read", addr, reg, None))
        return self.bus.read_byte_data(addr, reg)

    def write_byte_data(self, addr, reg, value):
        self.calls.append(("write", addr, reg, value))
        self.bus.write_byte_data(addr, reg, value)

    def read_i2c_block_data(self, addr, reg, length):
        self.calls.append(("block", addr, reg, length))
        return self.bus.read_i2c_block_data(addr, reg, length)


class Tray:
    """A tray whose gravity vector (g) the test sets directly."""

    def __init__(self, g=(0.0, 0.0, 1.0)):
        self.g = g

    def __call__(self, t):
        return self.g


def rig(driver, address=None, g=(0.0, 0.0, 1.0), noise_g=0.0):
    clock, tray = FakeClock(), Tray(g)
    chip = EMULATOR[driver](address, orientation=tray, clock=clock, noise_g=noise_g)
    bus = EmulatedBus(chip)
    spy = SpyBus(bus)
    accel = driver(spy, chip.address, sleep=clock.advance)
    return accel, chip, bus, spy, clock, tray


# -- init sequence and read-back -------------------------------------------------------

INIT_WRITES = {
    # standby, DATA_FORMAT FULL_RES|±2 g, BW_RATE 100 Hz (0b1010), then Measure
    Adxl345: [(0x2D, 0x00), (0x31, 0x08), (0x2C, 0x0A), (0x2D, 0x08)],
    # DEVICE_RESET, wake on PLL X, SMPLRT_DIV 9 (1 kHz / 10), DLPF 3, AFS_SEL 0
    Mpu6050: [(0x6B, 0x80), (0x6B, 0x01), (0x19, 9), (0x1A, 3), (0x1C, 0x00)],
    # CTRL_REG1 ODR 100 Hz (0101) + XYZ enabled; CTRL_REG4 BDU | FS ±2 g | HR
    Lis3dh: [(0x20, 0x57), (0x23, 0x88)],
}


@DRIVERS
def test_init_writes_the_datasheet_sequence_then_reads_every_register_back(driver):
    accel, chip, _, spy, _, _ = rig(driver)
    accel.init(range_g=2, rate_hz=100)
    calls = spy.calls
    assert calls[0] == ("read", chip.address, driver.id_register, None)
    writes = [(reg, value) for kind, _, reg, value in calls if kind == "write"]
    assert writes == INIT_WRITES[driver]
    last_write = max(i for i, c in enumerate(calls) if c[0] == "write")
    read_back = {reg for kind, _, reg, _ in calls[last_write + 1:] if kind == "read"}
    assert read_back == {reg for reg, _ in INIT_WRITES[driver] if reg != 0x6B} | (
        {0x6B} if driver is Mpu6050 else set())
    for reg, value in dict(INIT_WRITES[driver]).items():
        assert chip.regs[reg] == value
    assert (accel.range_g, accel.rate_hz) == (2, 100)


@pytest.mark.parametrize("driver, range_g, rate_hz, expected", [
    (Adxl345, 16, 400, {0x31: 0x0B, 0x2C: 0x0C}),
    (Mpu6050, 8, 50, {0x1C: 0x10, 0x19: 19, 0x1A: 4}),
    (Lis3dh, 4, 200, {0x20: 0x67, 0x23: 0x98}),
])
def test_range_and_rate_land_in_their_register_bits(driver, range_g, rate_hz, expected):
    accel, chip, *_ = rig(driver)
    accel.init(range_g=range_g, rate_hz=rate_hz)
    assert {reg: chip.regs[reg] for reg in expected} == expected


@DRIVERS
def test_a_rate_between_two_steps_rounds_up_and_bad_values_are_refused(driver):
    accel, *_ = rig(driver)
    accel.init(rate_hz=60)
    assert accel.rate_hz == 100
    with pytest.raises(ValueError, match="range"):
        accel.init(range_g=3)
    with pytest.raises(ValueError, match="Hz"):
        accel.init(rate_hz=100_000)


class DroppingBus(SpyBus):
    """A bus that loses writes to one register, as a flaky SDA line might."""

    def __init__(self, bus, drop):
        super().__init__(bus)
        self.drop = drop

    def write_byte_data(self, addr, reg, value):
        if reg != self.drop:
            self.bus.write_byte_data(addr, reg, value)


@pytest.mark.parametrize("driver, register, name", [
    (Adxl345, 0x31, "DATA_FORMAT"), (Mpu6050, 0x1C, "ACCEL_CONFIG"), (Lis3dh, 0x23, "CTRL_REG4"),
])
def test_a_register_that_does_not_read_back_names_itself_and_the_wiring(driver, register, name):
    _, chip, bus, *_ = rig(driver)
    accel = driver(DroppingBus(bus, register), chip.address, sleep=chip.clock.advance)
    with pytest.raises(AccelError, match=f"{name} read back 0x00 after writing") as info:
        accel.init(range_g=16)
    assert "check wiring" in str(info.value)
    assert accel.range_g is None


# -- identity --------------------------------------------------------------------------


@DRIVERS
def test_check_id_reads_the_id_register(driver):
    accel, *_ = rig(driver)
    assert accel.check_id() == driver.id_value


@pytest.mark.parametrize("driver, message", [
    (Adxl345, "no ADXL345 at 0x53 on /dev/i2c-1 (DEVID read 0x00, expected 0xE5): "
              "check wiring"),
    (Mpu6050, "no MPU-6050 at 0x68 on /dev/i2c-1 (WHO_AM_I read 0x00, expected 0x68): "
              "check wiring"),
    (Lis3dh, "no LIS3DH at 0x18 on /dev/i2c-1 (WHO_AM_I read 0x00, expected 0x33): "
             "check wiring"),
])
def test_a_wrong_id_says_what_was_read_and_what_to_check(driver, message):
    accel, chip, *_ = rig(driver)
    chip.fault("zeros")
    with pytest.raises(ChipNotFound) as info:
        accel.init()
    assert str(info.value).startswith(message)
    assert "I2C is enabled" in str(info.value)
    assert isinstance(info.value, (LookupError, DeviceError, OSError))


@DRIVERS
def test_no_answer_at_the_address_is_chip_not_found_with_the_errno(driver):
    accel = driver(EmulatedBus(), driver.addresses[1])
    with pytest.raises(ChipNotFound, match=f"no {driver.name} at 0x{driver.addresses[1]:02X}"
                       ) as info:
        accel.check_id()
    assert info.value.errno == errno.EREMOTEIO


# -- scale and sign --------------------------------------------------------------------

VECTORS = [(0.0, 0.0, 1.0), (-0.5, 0.0, 0.866), (0.3, -0.7, -0.2), (0.0, 1.0, 0.0)]


@DRIVERS
@pytest.mark.parametrize("range_g", [2, 4, 8, 16])
@pytest.mark.parametrize("g", VECTORS, ids=str)
def test_read_g_gives_scale_and_sign_at_every_range(driver, range_g, g):
    accel, *_ = rig(driver, g=g)
    accel.init(range_g=range_g)
    assert accel.read_g() == pytest.approx(g, abs=LSB_G[driver])


@DRIVERS
def test_beyond_the_range_the_reading_saturates_not_wraps(driver):
    accel, *_ = rig(driver, g=(3.0, -3.0, 1.0))
    accel.init(range_g=2)
    x, y, z = accel.read_g()
    assert 1.9 < x <= 2.0 and -2.0 <= y < -1.9 and z == pytest.approx(1.0, abs=0.004)


@DRIVERS
def test_noise_is_seeded_gaussian_around_the_orientation(driver):
    accel, chip, _, _, clock, _ = rig(driver, noise_g=0.01)
    accel.init()
    zs = []
    for _ in range(400):
        clock.advance(0.01)
        zs.append(accel.read_g()[2])
    mean = sum(zs) / len(zs)
    sd = (sum((z - mean) ** 2 for z in zs) / len(zs)) ** 0.5
    assert mean == pytest.approx(1.0, abs=0.003) and 0.007 < sd < 0.013
    again, _, _, _, clock2, _ = rig(driver, noise_g=0.01)
    again.init()
    clock2.advance(0.01)
    assert again.read_g()[2] == zs[0]


@DRIVERS
def test_each_sample_is_exactly_one_burst_read(driver):
    accel, _, bus, spy, clock, _ = rig(driver)
    accel.init()
    before, spy.calls = bus.block_reads, []
    for _ in range(10):
        clock.advance(0.01)
        accel.read_g()
    assert bus.block_reads - before == 10
    assert [c[0] for c in spy.calls] == ["block"] * 10
    assert {c[3] for c in spy.calls} == {6}


@DRIVERS
def test_read_before_init_is_refused(driver):
    accel, *_ = rig(driver)
    with pytest.raises(AccelError, match="init"):
        accel.read_g()


# -- detect ----------------------------------------------------------------------------

@pytest.mark.parametrize("driver, address",
                         [(d, a) for d in CHIPS for a in d.addresses],
                         ids=lambda v: getattr(v, "name", None) or f"0x{v:02X}")
def test_detect_finds_each_chip_at_each_of_its_addresses(driver, address):
    chip = EMULATOR[driver](address, clock=FakeClock())
    accel = detect(EmulatedBus(chip), "/dev/i2c-1", sleep=chip.clock.advance)
    assert type(accel) is driver and accel.address == address
    accel.init()
    assert accel.read_g()[2] == pytest.approx(1.0, abs=0.05)


def test_detect_on_an_empty_bus_lists_every_address_it_tried():
    with pytest.raises(ChipNotFound) as info:
        detect(EmulatedBus(), "/dev/i2c-1")
    message = str(info.value)
    assert message.startswith("no accelerometer (ADXL345, MPU-6050, LIS3DH) found on /dev/i2c-1")
    for address in ("0x53", "0x1D", "0x68", "0x69", "0x18", "0x19"):
        assert f"{address} no answer (errno 121)" in message
    assert "check wiring" in message and isinstance(info.value, LookupError)


def test_detect_reports_a_device_with_the_wrong_id_and_skips_a_failing_one():
    zeros = EmulatedAdxl345(clock=FakeClock())
    zeros.fault("zeros")
    broken = EmulatedMpu6050(clock=FakeClock())
    broken.fault("eio")
    with pytest.raises(ChipNotFound, match=r"0x53 DEVID read 0x00 \(ADXL345 expects 0xE5\)"):
        detect(EmulatedBus(zeros, broken))
    lis = EmulatedLis3dh(0x19, clock=FakeClock())
    assert type(detect(EmulatedBus(zeros, broken, lis))) is Lis3dh


# -- the traps -------------------------------------------------------------------------

def test_mpu6050_is_asleep_at_power_up_and_reads_zeros_until_woken():
    chip = EmulatedMpu6050(clock=FakeClock(), noise_g=0)
    bus = EmulatedBus(chip)
    assert bus.read_byte_data(0x68, 0x6B) == 0x40  # SLEEP
    assert bus.read_i2c_block_data(0x68, 0x3B, 6) == [0] * 6
    bus.write_byte_data(0x68, 0x6B, 0x00)
    assert bus.read_i2c_block_data(0x68, 0x3B, 6) == [0, 0, 0, 0, 0x40, 0x00]  # z = 16384


def test_mpu6050_driver_resets_waits_100_ms_and_wakes_the_chip():
    accel, chip, bus, _, clock, _ = rig(Mpu6050)
    slept = []
    accel._sleep = lambda s: (slept.append(s), clock.advance(s))
    accel.init()
    assert slept == [pytest.approx(0.1)]
    assert bus.read_byte_data(0x68, 0x6B) & 0x40 == 0
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=1e-3)


def test_mpu6050_without_the_wait_after_reset_stays_asleep_and_init_says_so():
    accel, chip, *_ = rig(Mpu6050)
    accel._sleep = lambda s: None  # the clock does not move: the chip is still resetting
    with pytest.raises(AccelError, match=r"PWR_MGMT_1 read back 0x40 .*100 ms"):
        accel.init()


def test_mpu6050_device_reset_puts_it_back_to_sleep():
    accel, chip, bus, *_ = rig(Mpu6050)
    accel.init(range_g=8)
    bus.write_byte_data(0x68, 0x6B, 0x80)
    assert bus.read_byte_data(0x68, 0x6B) == 0x40
    assert bus.read_byte_data(0x68, 0x1C) == 0x00
    assert accel.read_g() == (0.0, 0.0, 0.0)
    with pytest.raises(AccelError, match="PWR_MGMT_1"):
        accel.check_config()


def test_mpu6050_data_is_big_endian():
    accel, chip, bus, *_ = rig(Mpu6050, g=(-0.5, 0.25, 1.0))
    accel.init(range_g=2)
    # -0.5 g = -8192 = 0xE000; 0.25 g = 4096 = 0x1000; 1 g = 16384 = 0x4000, high byte first
    assert bus.read_i2c_block_data(0x68, 0x3B, 6) == [0xE0, 0x00, 0x10, 0x00, 0x40, 0x00]


def test_lis3dh_multi_byte_read_needs_the_auto_increment_bit():
    accel, chip, bus, spy, *_ = rig(Lis3dh, g=(-0.5, 0.25, 1.0))
    accel.init(range_g=2)
    # -0.5 g = -500 mg -> -500 << 4 = -8000 = 0xE0C0, little-endian: C0 E0
    assert bus.read_i2c_block_data(0x18, 0x28, 6) == [0xC0] * 6  # OUT_X_L again and again
    assert bus.read_i2c_block_data(0x18, 0x28 | 0x80, 6) == [
        0xC0, 0xE0, 0xA0, 0x0F, 0x80, 0x3E]  # 250 << 4 = 0x0FA0, 1000 << 4 = 0x3E80
    spy.calls = []
    accel.read_g()
    assert spy.calls == [("block", 0x18, 0xA8, 6)]


def test_lis3dh_left_justified_12_bit_data_is_1_mg_per_digit_at_2_g():
    accel, chip, bus, *_ = rig(Lis3dh, g=(0.001, -0.001, 0.0))
    accel.init(range_g=2)
    assert bus.read_i2c_block_data(0x18, 0xA8, 4) == [0x10, 0x00, 0xF0, 0xFF]
    assert accel.read_g() == (0.001, -0.001, 0.0)


@pytest.mark.parametrize("range_g", [2, 4, 8, 16])
def test_adxl345_full_resolution_is_256_lsb_per_g_at_every_range(range_g):
    accel, chip, bus, *_ = rig(Adxl345, g=(-0.5, 0.0, 1.0))
    accel.init(range_g=range_g)
    # two's complement, little-endian: -128 = 0xFF80 -> 80 FF; 256 = 0x0100 -> 00 01
    assert bus.read_i2c_block_data(0x53, 0x32, 6) == [0x80, 0xFF, 0x00, 0x00, 0x00, 0x01]
    assert accel.read_g() == (-0.5, 0.0, 1.0)


# -- faults ----------------------------------------------------------------------------

@DRIVERS
@pytest.mark.parametrize("kind, code", [
    ("nack", errno.EREMOTEIO), ("eio", errno.EIO), ("enxio", errno.ENXIO),
    ("vanish", errno.EREMOTEIO)])
def test_bus_faults_raise_their_errno_and_clear_by_themselves(driver, kind, code):
    accel, chip, _, _, clock, _ = rig(driver)
    accel.init()
    chip.fault(kind, until=clock.now() + 0.5)
    for _ in range(3):
        with pytest.raises(OSError) as info:
            accel.read_g()
        assert info.value.errno == code
        clock.advance(0.1)
    clock.advance(0.3)
    assert chip.fault_kind is None
    if kind == "vanish":  # it came back from a power cut: asleep until re-initialised
        assert accel.read_g() == (0.0, 0.0, 0.0)
        accel.init()
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=LSB_G[driver])


@DRIVERS
def test_a_transient_nack_for_a_few_transactions_keeps_the_configuration(driver):
    accel, chip, *_ = rig(driver)
    accel.init()
    chip.fault("nack", times=2)
    for _ in range(2):
        with pytest.raises(OSError):
            accel.read_g()
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=LSB_G[driver])
    accel.check_config()


@DRIVERS
@pytest.mark.parametrize("kind, byte", [("zeros", 0x00), ("ones", 0xFF)])
def test_a_chip_answering_zeros_or_ones_everywhere(driver, kind, byte):
    accel, chip, bus, _, clock, _ = rig(driver)
    accel.init()
    chip.fault(kind, until=clock.now() + 1)
    assert bus.read_i2c_block_data(chip.address, accel._data_register, 6) == [byte] * 6
    assert bus.read_byte_data(chip.address, driver.id_register) == byte
    with pytest.raises(ChipNotFound):
        accel.check_id()
    clock.advance(1)
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=LSB_G[driver])


@DRIVERS
def test_a_chip_that_falls_asleep_reads_zeros_fails_its_check_and_reinit_wakes_it(driver):
    accel, chip, *_ = rig(driver)
    accel.init(range_g=4)
    chip.fault("sleep")
    assert accel.read_g() == (0.0, 0.0, 0.0)
    with pytest.raises(AccelError, match="read back"):
        accel.check_config()
    accel.init(range_g=4)
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=LSB_G[driver])


def test_clear_fault_ends_it_at_once_and_unknown_faults_are_refused():
    chip = EmulatedAdxl345(clock=FakeClock())
    bus = EmulatedBus(chip)
    chip.fault("enxio")
    with pytest.raises(OSError):
        bus.read_byte_data(0x53, 0x00)
    chip.clear_fault()
    assert bus.read_byte_data(0x53, 0x00) == 0xE5
    with pytest.raises(ValueError, match="unknown fault"):
        chip.fault("smoke")


def test_a_closed_bus_fails_until_reopened():
    bus = EmulatedBus(EmulatedLis3dh(clock=FakeClock()))
    bus.close()
    with pytest.raises(OSError) as info:
        bus.read_byte_data(0x18, 0x0F)
    assert info.value.errno == errno.EBADF
    bus.open(1)
    assert bus.read_byte_data(0x18, 0x0F) == 0x33


@DRIVERS
def test_a_failed_reinit_leaves_the_driver_refusing_to_read(driver):
    accel, chip, *_ = rig(driver)
    accel.init()
    chip.fault("vanish")
    with pytest.raises(ChipNotFound):
        accel.init()
    chip.clear_fault()
    with pytest.raises(AccelError, match="init"):
        accel.read_g()
    accel.init()
    assert accel.read_g() == pytest.approx((0, 0, 1), abs=LSB_G[driver])


# -- a glitching bus, clones and strangers at 0x68 ---------------------------------------

@DRIVERS
def test_one_glitched_id_read_is_read_again_before_the_chip_is_given_up(driver):
    """A glitching bus answers one read with 0xFF: detect() and init() read the ID again."""
    chip = EMULATOR[driver](clock=FakeClock())
    chip.fault("ones", times=1)
    accel = detect(EmulatedBus(chip), sleep=chip.clock.advance)
    assert type(accel) is driver and accel.part == driver.name and accel.warning is None
    chip.fault("ones", times=2)
    accel.init()  # check_id() reads the ID a third time
    assert accel.read_g()[2] == pytest.approx(1.0, abs=0.05)


@DRIVERS
def test_a_chip_that_answers_0xff_every_time_is_still_given_up(driver):
    chip = EMULATOR[driver](clock=FakeClock())
    chip.fault("ones")
    with pytest.raises(ChipNotFound, match="check wiring"):
        detect(EmulatedBus(chip))


@pytest.mark.parametrize("who_am_i, part", sorted(Mpu6050.clone_ids.items()),
                         ids=lambda v: f"0x{v:02X}" if isinstance(v, int) else None)
def test_a_register_compatible_mpu6050_clone_is_used_with_a_warning_naming_it(who_am_i, part, caplog):
    clock = FakeClock()
    chip = EmulatedMpu6050(who_am_i=who_am_i, clock=clock, orientation=Tray((-0.5, 0.0, 0.866)), noise_g=0)
    accel = detect(EmulatedBus(chip), sleep=clock.advance)
    assert type(accel) is Mpu6050 and accel.part == part
    assert part in accel.warning and f"0x{who_am_i:02X}" in accel.warning
    assert any(part in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)
    accel.init(range_g=4)
    assert accel.read_g() == pytest.approx((-0.5, 0.0, 0.866), abs=1 / 8192)
    assert accel.where.startswith(f"{part} at 0x68")


def test_the_0x98_clone_of_the_bug_reports_is_accepted():
    """ElectronicCats/mpu6050 issue 21: 13 of 20 GY-521 boards answered 0x98."""
    assert 0x98 in Mpu6050.clone_ids


def test_an_unknown_id_at_0x68_is_named_as_an_unknown_chip_not_a_wiring_fault():
    chip = EmulatedMpu6050(who_am_i=0x72, clock=FakeClock())
    with pytest.raises(ChipNotFound) as info:
        detect(EmulatedBus(chip), "/dev/i2c-1")
    assert "unknown chip with ID 0x72 at 0x68" in str(info.value)
    assert "check wiring" not in str(info.value)
    with pytest.raises(ChipNotFound, match="unknown chip with ID 0x72 at 0x68"):
        Mpu6050(EmulatedBus(chip)).check_id()


@pytest.mark.parametrize("who_am_i, part", sorted(Mpu6050.refused_ids.items()),
                         ids=lambda v: f"0x{v:02X}" if isinstance(v, int) else None)
def test_a_part_that_is_not_register_compatible_is_refused_by_name(who_am_i, part):
    chip = EmulatedMpu6050(who_am_i=who_am_i, clock=FakeClock())
    with pytest.raises(ChipNotFound) as info:
        detect(EmulatedBus(chip), "/dev/i2c-1")
    assert f"{part} at 0x68 on /dev/i2c-1" in str(info.value)
    assert "not register-compatible with the MPU-6050" in str(info.value)
    # an accelerometer it can use, elsewhere on the bus, is still found
    lis = EmulatedLis3dh(clock=FakeClock())
    assert type(detect(EmulatedBus(chip, lis))) is Lis3dh
