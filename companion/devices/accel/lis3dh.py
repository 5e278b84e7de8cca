"""STMicroelectronics LIS3DH 3-axis accelerometer over I2C.

Source: LIS3DH datasheet DocID17530 Rev 2, "Register mapping" (Table 17), CTRL_REG1 (0x20),
CTRL_REG4 (0x23), OUT_X_L..OUT_Z_H (0x28-0x2D), and section 6.1.1 (I2C operation).
SDO/SA0 low -> 0x18, high -> 0x19. WHO_AM_I (0x0F) reads 0x33.

Traps: a multi-byte read only advances through the registers when the register address
has its top bit set (0x80, "SUB(7)"); without it the chip sends the same register again.
Data is left-justified two's complement, little-endian: in high-resolution mode (HR=1,
LPen=0) it is 12 bits, so shift right by 4; then 1 mg/digit at ±2 g, 2 at ±4 g, 4 at ±8 g
and 12 at ±16 g (datasheet Table 4, "So").

FIFO (datasheet 3.2 and 8.x; CTRL_REG5 0x24, FIFO_CTRL_REG 0x2E, FIFO_SRC_REG 0x2F; ST
application note AN3308): 32 samples. CTRL_REG5 FIFO_EN (bit 6) and FIFO_CTRL_REG FM = 10
(stream: the newest 32 kept) with the watermark in FTH bits 4:0; the FIFO is emptied by
passing through bypass (FM = 00) first. FIFO_SRC_REG: WTM bit 7, OVRN_FIFO bit 6 (full),
EMPTY bit 5, FSS bits 4:0 the unread count - five bits, so with 32 unread take 32 when
OVRN_FIFO is set. With the FIFO on, a burst from OUT_X_L (with SUB(7)) rolls back from
OUT_Z_H to OUT_X_L, so one read gets several samples.

>>> from companion.core.clock import FakeClock
>>> from companion.devices.emulated.chips import EmulatedLis3dh
>>> from companion.devices.emulated.i2c import EmulatedBus
>>> chip = EmulatedLis3dh(orientation=lambda t: (0.0, 0.25, -1.0), clock=FakeClock(), noise_g=0)
>>> accel = Lis3dh(EmulatedBus(chip)); accel.init(range_g=2, rate_hz=100)
>>> accel.read_g()
(0.0, 0.25, -1.0)
"""

from __future__ import annotations

import struct

from companion.devices.accel.base import Accelerometer

_REG_WHO_AM_I = 0x0F
_REG_CTRL_REG1 = 0x20
_REG_CTRL_REG4 = 0x23
_REG_OUT_X_L = 0x28  # OUT_X_L..OUT_Z_H, 0x28-0x2D
_REG_CTRL_REG5 = 0x24
_REG_FIFO_CTRL_REG = 0x2E
_REG_FIFO_SRC_REG = 0x2F

_WHO_AM_I = 0x33
_AUTO_INCREMENT = 0x80  # SUB(7): advance the register address on multi-byte reads
_CTRL_REG1_XYZ_EN = 0x07  # Zen, Yen, Xen; LPen (bit 3) left 0 = normal/high resolution
_CTRL_REG4_BDU = 0x80  # block data update: low and high bytes come from the same sample
_CTRL_REG4_HR = 0x08  # high-resolution (12-bit) output
_HR_SHIFT = 4  # 12-bit data left-justified in 16 bits
_CTRL_REG5_FIFO_EN = 0x40  # bit 6
_FM_BYPASS = 0b00 << 6  # FIFO_CTRL_REG FM bits 7:6: 00 bypass, 01 FIFO, 10 stream, 11 stream-to-FIFO
_FM_STREAM = 0b10 << 6
_FIFO_SRC_OVRN = 0x40  # FIFO_SRC_REG bit 6 OVRN_FIFO: 32 unread samples (full)
_FIFO_SRC_FSS = 0x1F  # bits 4:0: unread samples (5 bits: cannot say 32)
_FIFO_BURST = 5  # samples per burst: 30 bytes within smbus's 32-byte block


class DataRate:
    """CTRL_REG1 ODR codes (bits 7:4), normal / high-resolution mode.

    * ``POWER_DOWN`` = 0 (power-on default: data does not update)
    * ``RATE_1_HZ`` = 1, ``RATE_10_HZ`` = 2, ``RATE_25_HZ`` = 3, ``RATE_50_HZ`` = 4
    * ``RATE_100_HZ`` = 5, ``RATE_200_HZ`` = 6, ``RATE_400_HZ`` = 7, ``RATE_1344_HZ`` = 9
    """

    POWER_DOWN = 0b0000
    RATE_1_HZ = 0b0001
    RATE_10_HZ = 0b0010
    RATE_25_HZ = 0b0011
    RATE_50_HZ = 0b0100
    RATE_100_HZ = 0b0101
    RATE_200_HZ = 0b0110
    RATE_400_HZ = 0b0111
    RATE_1344_HZ = 0b1001


class RangeBits:
    """CTRL_REG4 FS bits (5:4) and high-resolution sensitivity in mg/digit.

    * ``RANGE_2_G`` = 0b00: 1 mg/digit   * ``RANGE_4_G`` = 0b01: 2 mg/digit
    * ``RANGE_8_G`` = 0b10: 4 mg/digit   * ``RANGE_16_G`` = 0b11: 12 mg/digit
    """

    RANGE_2_G = 0b00
    RANGE_4_G = 0b01
    RANGE_8_G = 0b10
    RANGE_16_G = 0b11
    BY_G = {2: RANGE_2_G, 4: RANGE_4_G, 8: RANGE_8_G, 16: RANGE_16_G}
    MG_PER_DIGIT_HR = {2: 1, 4: 2, 8: 4, 16: 12}


class Lis3dh(Accelerometer):
    """LIS3DH at 0x18 (SA0 low) or 0x19 (SA0 high), high-resolution 12-bit mode."""

    name = "LIS3DH"
    addresses = (0x18, 0x19)
    id_register = _REG_WHO_AM_I
    id_register_name = "WHO_AM_I"
    id_value = _WHO_AM_I
    rates = {
        1: DataRate.RATE_1_HZ, 10: DataRate.RATE_10_HZ, 25: DataRate.RATE_25_HZ,
        50: DataRate.RATE_50_HZ, 100: DataRate.RATE_100_HZ, 200: DataRate.RATE_200_HZ,
        400: DataRate.RATE_400_HZ, 1344: DataRate.RATE_1344_HZ,
    }
    _reg_names = {_REG_CTRL_REG1: "CTRL_REG1", _REG_CTRL_REG4: "CTRL_REG4"}
    _hints = {_REG_CTRL_REG1: "the chip is powered down"}
    _data_register = _REG_OUT_X_L | _AUTO_INCREMENT
    fifo_depth = 32

    def _config_writes(self, range_g: int, rate_code: int) -> list[tuple[int, int]]:
        return [
            (_REG_CTRL_REG1, rate_code << 4 | _CTRL_REG1_XYZ_EN),
            (_REG_CTRL_REG4, _CTRL_REG4_BDU | RangeBits.BY_G[range_g] << 4 | _CTRL_REG4_HR),
        ]

    def _fifo_writes(self, watermark: int) -> list[tuple[int, int]]:
        return [
            (_REG_CTRL_REG5, _CTRL_REG5_FIFO_EN),
            (_REG_FIFO_CTRL_REG, _FM_BYPASS),  # empties the FIFO
            (_REG_FIFO_CTRL_REG, _FM_STREAM | watermark),
        ]

    def _fifo_read(self) -> tuple[list[bytes], bool]:
        src = self.bus.read_byte_data(self.address, _REG_FIFO_SRC_REG)
        full = bool(src & _FIFO_SRC_OVRN)
        n = self.fifo_depth if full else src & _FIFO_SRC_FSS
        samples: list[bytes] = []
        while len(samples) < n:
            k = min(_FIFO_BURST, n - len(samples))
            data = bytes(self.bus.read_i2c_block_data(self.address, self._data_register, 6 * k))
            samples += [data[i:i + 6] for i in range(0, 6 * k, 6)]
        return samples, full

    def _decode(self, data: bytes) -> tuple[float, float, float]:
        mg = RangeBits.MG_PER_DIGIT_HR[self.range_g]
        x, y, z = (v >> _HR_SHIFT for v in struct.unpack("<hhh", data))
        return (x * mg / 1000, y * mg / 1000, z * mg / 1000)
