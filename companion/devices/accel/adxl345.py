"""Analog Devices ADXL345 3-axis accelerometer over I2C.

Source: ADXL345 datasheet Rev. G, "Register Map" (Table 19) and "Register Definitions".
SDO/ALT ADDRESS low -> 0x53, high -> 0x1D. DEVID (0x00) reads 0xE5.

The driver uses full-resolution mode (DATA_FORMAT bit 3): 3.9 mg/LSB, i.e. 256 LSB/g, at
every range; the range only sets where the data saturates. Data is 16-bit two's
complement, right-justified, little-endian (DATAX0 is the low byte), X then Y then Z.

FIFO (datasheet "FIFO", FIFO_CTL 0x38, FIFO_STATUS 0x39, INT_SOURCE 0x30): 32 samples.
Stream mode (FIFO_CTL FIFO_MODE = 10) keeps the newest 32; the samples bits 4:0 are the
watermark (INT_SOURCE bit 1). FIFO_STATUS bits 5:0 count the entries; each six-byte read
of DATAX0-DATAZ1 pops the oldest one (a burst cannot span two entries: 0x38 follows
0x37). INT_SOURCE bit 0, Overrun, says unread data was replaced; reading data clears it.

>>> from companion.core.clock import FakeClock
>>> from companion.devices.emulated.chips import EmulatedAdxl345
>>> from companion.devices.emulated.i2c import EmulatedBus
>>> chip = EmulatedAdxl345(orientation=lambda t: (0.0, 0.0, 1.0), clock=FakeClock(), noise_g=0)
>>> accel = Adxl345(EmulatedBus(chip)); accel.init(range_g=2, rate_hz=100)
>>> accel.read_g()
(0.0, 0.0, 1.0)
"""

from __future__ import annotations

import struct

from companion.devices.accel.base import Accelerometer

_REG_DEVID = 0x00
_REG_BW_RATE = 0x2C
_REG_POWER_CTL = 0x2D
_REG_DATA_FORMAT = 0x31
_REG_DATAX0 = 0x32  # DATAX0..DATAZ1, 0x32-0x37
_REG_INT_SOURCE = 0x30
_REG_FIFO_CTL = 0x38
_REG_FIFO_STATUS = 0x39

_DEVID = 0xE5
_POWER_CTL_MEASURE = 0x08  # bit 3: 0 = standby, 1 = measure
_DATA_FORMAT_FULL_RES = 0x08  # bit 3: 3.9 mg/LSB at every range
_SCALE_FULL_RES = 1 / 256  # g per LSB in full-resolution mode (256 LSB/g typ.)
_FIFO_MODE_STREAM = 0b10 << 6  # FIFO_CTL bits 7:6: 00 bypass, 01 FIFO, 10 stream, 11 trigger
_INT_SOURCE_OVERRUN = 0x01  # INT_SOURCE bit 0: new data replaced unread data
_FIFO_STATUS_ENTRIES = 0x3F  # FIFO_STATUS bits 5:0: entries stored


class DataRate:
    """BW_RATE rate codes (bits 3:0), output data rate = 3200 Hz / 2**(15 - code).

    * ``RATE_3200_HZ`` = 0b1111 ... ``RATE_100_HZ`` = 0b1010 (power-on default)
    * ``RATE_50_HZ`` = 0b1001, ``RATE_25_HZ`` = 0b1000, ``RATE_12_5_HZ`` = 0b0111
    """

    RATE_3200_HZ = 0b1111
    RATE_1600_HZ = 0b1110
    RATE_800_HZ = 0b1101
    RATE_400_HZ = 0b1100
    RATE_200_HZ = 0b1011
    RATE_100_HZ = 0b1010
    RATE_50_HZ = 0b1001
    RATE_25_HZ = 0b1000
    RATE_12_5_HZ = 0b0111


class RangeBits:
    """DATA_FORMAT range bits (1:0): ``RANGE_2_G`` 0b00, ``RANGE_4_G`` 0b01,
    ``RANGE_8_G`` 0b10, ``RANGE_16_G`` 0b11."""

    RANGE_2_G = 0b00
    RANGE_4_G = 0b01
    RANGE_8_G = 0b10
    RANGE_16_G = 0b11
    BY_G = {2: RANGE_2_G, 4: RANGE_4_G, 8: RANGE_8_G, 16: RANGE_16_G}


class Adxl345(Accelerometer):
    """ADXL345 at 0x53 (SDO low) or 0x1D (SDO high): full resolution, 256 LSB/g."""

    name = "ADXL345"
    addresses = (0x53, 0x1D)
    id_register = _REG_DEVID
    id_register_name = "DEVID"
    id_value = _DEVID
    rates = {
        3200: DataRate.RATE_3200_HZ, 1600: DataRate.RATE_1600_HZ,
        800: DataRate.RATE_800_HZ, 400: DataRate.RATE_400_HZ,
        200: DataRate.RATE_200_HZ, 100: DataRate.RATE_100_HZ,
        50: DataRate.RATE_50_HZ, 25: DataRate.RATE_25_HZ, 12.5: DataRate.RATE_12_5_HZ,
    }
    _reg_names = {
        _REG_BW_RATE: "BW_RATE", _REG_POWER_CTL: "POWER_CTL", _REG_DATA_FORMAT: "DATA_FORMAT",
    }
    _hints = {_REG_POWER_CTL: "the chip is not measuring (standby)"}
    _data_register = _REG_DATAX0
    fifo_depth = 32

    def _config_writes(self, range_g: int, rate_code: int) -> list[tuple[int, int]]:
        # The datasheet advises configuring in standby, then setting the measure bit.
        return [
            (_REG_POWER_CTL, 0x00),
            (_REG_DATA_FORMAT, _DATA_FORMAT_FULL_RES | RangeBits.BY_G[range_g]),
            (_REG_BW_RATE, rate_code),
            (_REG_POWER_CTL, _POWER_CTL_MEASURE),
        ]

    def _fifo_writes(self, watermark: int) -> list[tuple[int, int]]:
        # FIFO_CTL: stream mode (0b10 in bits 7:6), watermark in the samples bits 4:0.
        return [(_REG_FIFO_CTL, _FIFO_MODE_STREAM | watermark)]

    def _fifo_read(self) -> tuple[list[bytes], bool]:
        # INT_SOURCE first: reading the data clears Overrun.
        lost = bool(self.bus.read_byte_data(self.address, _REG_INT_SOURCE) & _INT_SOURCE_OVERRUN)
        entries = self.bus.read_byte_data(self.address, _REG_FIFO_STATUS) & _FIFO_STATUS_ENTRIES
        return [bytes(self.bus.read_i2c_block_data(self.address, _REG_DATAX0, 6)) for _ in range(entries)], lost

    def _decode(self, data: bytes) -> tuple[float, float, float]:
        x, y, z = struct.unpack("<hhh", data)
        return (x * _SCALE_FULL_RES, y * _SCALE_FULL_RES, z * _SCALE_FULL_RES)
