"""InvenSense MPU-6050 6-axis IMU over I2C (only the accelerometer is used).

Source: MPU-6000/6050 Register Map and Descriptions Rev. 4.2 (RM-MPU-6000A-00):
SMPLRT_DIV 0x19, CONFIG 0x1A, ACCEL_CONFIG 0x1C, ACCEL_XOUT_H 0x3B, PWR_MGMT_1 0x6B,
WHO_AM_I 0x75 (reads 0x68 whatever the AD0 pin). AD0 low -> 0x68, high -> 0x69.

Clones: cheap GY-521 boards often carry another part that answers WHO_AM_I differently
(0x98 is common). The parts in :data:`CLONE_IDS` keep every register this driver uses at
the same address and meaning (the MPU-6500 register map, RM-MPU-6500A-00, and its
successors), so they are accepted with a warning naming the part; the parts in
:data:`REFUSED_IDS` answer at 0x68 with WHO_AM_I in 0x75 but have another register map,
so they are refused by name. Sources and reports: hardware/sensors.md.

Traps: the chip powers up *asleep* (PWR_MGMT_1 = 0x40) and its data registers read zero
until the SLEEP bit is cleared; DEVICE_RESET (0x80) puts it back to that state and it needs
about 100 ms before it listens again. Data is 16-bit two's complement, *big-endian*
(XOUT_H first); 16384 LSB/g at ±2 g, halving with each range step.

FIFO (register map 4.6 FIFO_EN 0x23, 4.15 INT_STATUS 0x3A, 4.26 USER_CTRL 0x6A, 4.30
FIFO_COUNTH/L 0x72-0x73, 4.31 FIFO_R_W 0x74): 1024 bytes. ACCEL_FIFO_EN puts the six
accelerometer bytes of every sample in it; FIFO_COUNT says how many bytes wait; each read
of FIFO_R_W pops one (the address does not advance). It has no watermark: the count is
polled. Trap: when full, the oldest *bytes* are dropped and FIFO_OFLOW_INT is set; 1024
is not a multiple of 6, so after an overflow the bytes no longer start at a sample: the
driver resets the FIFO (USER_CTRL FIFO_RESET) and reports the samples lost.

>>> from companion.core.clock import FakeClock
>>> from companion.devices.emulated.chips import EmulatedMpu6050
>>> from companion.devices.emulated.i2c import EmulatedBus
>>> clock = FakeClock()
>>> chip = EmulatedMpu6050(orientation=lambda t: (-0.5, 0.0, 0.866), clock=clock, noise_g=0)
>>> accel = Mpu6050(EmulatedBus(chip), sleep=clock.advance); accel.init(range_g=4)
>>> [round(g, 3) for g in accel.read_g()]
[-0.5, 0.0, 0.866]
"""

from __future__ import annotations

import struct

from companion.devices.accel.base import Accelerometer

_REG_SMPLRT_DIV = 0x19
_REG_CONFIG = 0x1A
_REG_ACCEL_CONFIG = 0x1C
_REG_ACCEL_XOUT_H = 0x3B  # ACCEL_XOUT_H..ACCEL_ZOUT_L, 0x3B-0x40
_REG_PWR_MGMT_1 = 0x6B
_REG_WHO_AM_I = 0x75
_REG_FIFO_EN = 0x23
_REG_INT_STATUS = 0x3A
_REG_USER_CTRL = 0x6A
_REG_FIFO_COUNTH = 0x72  # FIFO_COUNTH, FIFO_COUNTL: bytes in the FIFO, big-endian
_REG_FIFO_R_W = 0x74

_WHO_AM_I = 0x68

#: WHO_AM_I -> part, for register-compatible parts sold as (or instead of) an MPU-6050:
#: SMPLRT_DIV, CONFIG, ACCEL_CONFIG, ACCEL_XOUT_H..ZOUT_L, PWR_MGMT_1 and WHO_AM_I at the
#: same addresses with the same bits.
CLONE_IDS = {
    0x98: "MPU-6050 clone (WHO_AM_I 0x98, as an ICM-20689)",
    0x70: "MPU-6500",
    0x71: "MPU-9250",
    0x73: "MPU-9255",
    0x74: "MPU-9515",
    0x19: "MPU-6886",
    0x12: "ICM-20602",
    0xAF: "ICM-20608-G",
}
#: WHO_AM_I -> part, for parts at 0x68/0x69 whose register map is not the MPU-6050's
#: (ICM-426xx: PWR_MGMT0 0x4E, data from 0x1F, banked registers).
REFUSED_IDS = {
    0x47: "ICM-42688-P",
    0x42: "ICM-42605",
    0x67: "ICM-42670-P",
}
_PWR_MGMT_1_DEVICE_RESET = 0x80
_PWR_MGMT_1_WAKE_PLL_X = 0x01  # SLEEP=0, CLKSEL=1: PLL on the X gyro, as advised
_RESET_DELAY_S = 0.1  # seconds to wait after DEVICE_RESET (register map, PWR_MGMT_1)
_FIFO_EN_ACCEL = 0x08  # FIFO_EN bit 3 ACCEL_FIFO_EN: ACCEL_XOUT_H..ACCEL_ZOUT_L, 6 bytes a sample
_USER_CTRL_FIFO_EN = 0x40  # bit 6
_USER_CTRL_FIFO_RESET = 0x04  # bit 2, clears itself
_INT_STATUS_FIFO_OFLOW = 0x10  # bit 4, cleared by reading INT_STATUS
_FIFO_BYTES = 1024
_FIFO_BURST = 30  # bytes per burst of FIFO_R_W: 5 samples within smbus's 32-byte block


class AccelRange:
    """ACCEL_CONFIG AFS_SEL (bits 4:3) and sensitivity, per range.

    * ``RANGE_2_G`` = 0: 16384 LSB/g   * ``RANGE_4_G`` = 1: 8192 LSB/g
    * ``RANGE_8_G`` = 2: 4096 LSB/g    * ``RANGE_16_G`` = 3: 2048 LSB/g
    """

    RANGE_2_G = 0
    RANGE_4_G = 1
    RANGE_8_G = 2
    RANGE_16_G = 3
    BY_G = {2: RANGE_2_G, 4: RANGE_4_G, 8: RANGE_8_G, 16: RANGE_16_G}
    LSB_PER_G = {2: 16384, 4: 8192, 8: 4096, 16: 2048}


class DataRate:
    """Sample rates as (SMPLRT_DIV, DLPF_CFG) codes packed as ``div << 3 | dlpf``.

    With the digital low-pass filter on (DLPF_CFG 1-6) the base rate is 1 kHz and
    rate = 1000 Hz / (1 + SMPLRT_DIV). The filter is set below half the rate:

    * ``RATE_1000_HZ``: div 0, DLPF 1 (184 Hz)  * ``RATE_500_HZ``: div 1, DLPF 1
    * ``RATE_250_HZ``: div 3, DLPF 2 (94 Hz)    * ``RATE_200_HZ``: div 4, DLPF 2
    * ``RATE_100_HZ``: div 9, DLPF 3 (44 Hz)    * ``RATE_50_HZ``: div 19, DLPF 4 (21 Hz)
    * ``RATE_25_HZ``: div 39, DLPF 5 (10 Hz)    * ``RATE_10_HZ``: div 99, DLPF 6 (5 Hz)
    """

    RATE_1000_HZ = 0 << 3 | 1
    RATE_500_HZ = 1 << 3 | 1
    RATE_250_HZ = 3 << 3 | 2
    RATE_200_HZ = 4 << 3 | 2
    RATE_100_HZ = 9 << 3 | 3
    RATE_50_HZ = 19 << 3 | 4
    RATE_25_HZ = 39 << 3 | 5
    RATE_10_HZ = 99 << 3 | 6


class Mpu6050(Accelerometer):
    """MPU-6050 at 0x68 (AD0 low) or 0x69 (AD0 high). :meth:`init` resets the chip,
    waits 100 ms with the injected ``sleep``, wakes it, then configures it."""

    name = "MPU-6050"
    addresses = (0x68, 0x69)
    id_register = _REG_WHO_AM_I
    id_register_name = "WHO_AM_I"
    id_value = _WHO_AM_I
    clone_ids = CLONE_IDS
    refused_ids = REFUSED_IDS
    rates = {
        1000: DataRate.RATE_1000_HZ, 500: DataRate.RATE_500_HZ, 250: DataRate.RATE_250_HZ,
        200: DataRate.RATE_200_HZ, 100: DataRate.RATE_100_HZ, 50: DataRate.RATE_50_HZ,
        25: DataRate.RATE_25_HZ, 10: DataRate.RATE_10_HZ,
    }
    _reg_names = {
        _REG_SMPLRT_DIV: "SMPLRT_DIV", _REG_CONFIG: "CONFIG",
        _REG_ACCEL_CONFIG: "ACCEL_CONFIG", _REG_PWR_MGMT_1: "PWR_MGMT_1",
    }
    _hints = {
        _REG_PWR_MGMT_1: "the chip is still asleep (it needs ~100 ms after a reset)",
    }
    _data_register = _REG_ACCEL_XOUT_H
    fifo_depth = _FIFO_BYTES // 6  # 170 whole samples

    def _before_config(self) -> None:
        # Reset to a known state, whatever a previous run or a glitch left behind.
        self.bus.write_byte_data(self.address, _REG_PWR_MGMT_1, _PWR_MGMT_1_DEVICE_RESET)
        self._sleep(_RESET_DELAY_S)

    def _config_writes(self, range_g: int, rate_code: int) -> list[tuple[int, int]]:
        return [
            (_REG_PWR_MGMT_1, _PWR_MGMT_1_WAKE_PLL_X),  # clears SLEEP: data stops reading 0
            (_REG_SMPLRT_DIV, rate_code >> 3),
            (_REG_CONFIG, rate_code & 0b111),
            (_REG_ACCEL_CONFIG, AccelRange.BY_G[range_g] << 3),
        ]

    def _fifo_writes(self, watermark: int) -> list[tuple[int, int]]:
        # No watermark register: ``watermark`` only sets how often the sampler reads.
        return [
            (_REG_FIFO_EN, _FIFO_EN_ACCEL),
            (_REG_USER_CTRL, _USER_CTRL_FIFO_RESET),
            (_REG_USER_CTRL, _USER_CTRL_FIFO_EN),
        ]

    def _reset_fifo(self) -> None:
        self.bus.write_byte_data(self.address, _REG_USER_CTRL, _USER_CTRL_FIFO_EN | _USER_CTRL_FIFO_RESET)

    def _fifo_read(self) -> tuple[list[bytes], bool]:
        overflow = bool(self.bus.read_byte_data(self.address, _REG_INT_STATUS) & _INT_STATUS_FIFO_OFLOW)
        high, low = self.bus.read_i2c_block_data(self.address, _REG_FIFO_COUNTH, 2)
        count = high << 8 | low
        if overflow or count >= _FIFO_BYTES:  # misaligned: start again from an empty FIFO
            self._reset_fifo()
            return [], True
        data = b""
        want = count // 6 * 6
        while len(data) < want:
            data += bytes(self.bus.read_i2c_block_data(self.address, _REG_FIFO_R_W,
                                                       min(_FIFO_BURST, want - len(data))))
        return [data[i:i + 6] for i in range(0, want, 6)], False

    def _decode(self, data: bytes) -> tuple[float, float, float]:
        scale = 1 / AccelRange.LSB_PER_G[self.range_g]
        x, y, z = struct.unpack(">hhh", data)
        return (x * scale, y * scale, z * scale)
