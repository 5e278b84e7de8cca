"""The three emulated tray accelerometers (ADXL345, MPU-6050, LIS3DH), each a register
file read from its datasheet, on the :class:`~companion.devices.emulated.i2c.EmulatedChip`
base (see :mod:`companion.devices.emulated.i2c` for the bus, the data rate, FIFOs and
faults)."""

from __future__ import annotations

import math
import struct

from .i2c import EmulatedChip, clamp

class EmulatedAdxl345(EmulatedChip):
    """ADXL345 (datasheet Rev. G, Table 19): DEVID 0xE5, standby until POWER_CTL bit 3."""

    name = "ADXL345"
    addresses = (0x53, 0x1D)
    reset_values = {0x00: 0xE5, 0x2C: 0x0A}  # DEVID, BW_RATE = 100 Hz; FIFO_CTL 0x00 = bypass
    read_only = frozenset({0x00, 0x30, 0x39})  # DEVID, INT_SOURCE, FIFO_STATUS
    data_registers = range(0x32, 0x38)  # DATAX0..DATAZ1
    FIFO_DEPTH = 32
    FIFO_MODE_REGISTER = 0x38  # FIFO_CTL
    _DATA_BURST = list(range(0x32, 0x38))

    def _fifo_on(self) -> bool:
        """FIFO_CTL (0x38) FIFO_MODE bits 7:6 = 01 (FIFO) or 10 (stream), while measuring."""
        return (self.regs[0x38] >> 6) in (0b01, 0b10) and bool(self.regs[0x2D] & 0x08)

    def _fifo_keep(self) -> int:
        return self.FIFO_DEPTH + 1

    def _write(self, register: int, value: int) -> None:
        if register == 0x38 and (value >> 6) not in (0b01, 0b10):  # bypass (or trigger): FIFO cleared
            self._fifo.clear()
            self._fifo_overrun = False
        self.regs[register] = value

    def _read_fifo_registers(self, registers: list[int]) -> list[int]:
        """INT_SOURCE (0x30): DATA_READY bit 7, Watermark bit 1 (entries >= FIFO_CTL
        samples), Overrun bit 0; FIFO_STATUS (0x39): entries in bits 5:0. A read that
        touches DATAX0-DATAZ1 moves the oldest entry into the data registers first; reading
        data clears Overrun (datasheet: those bits clear when data is read)."""
        if registers == self._DATA_BURST:  # DATAX0-DATAZ1, the driver's one read per entry
            if self._fifo:
                self._out = self._fifo.popleft()
            self._fifo_overrun = False
            return list(self._encode(self._out))
        out = []
        raw = None
        for r in registers:
            if r in self.data_registers:
                if raw is None:
                    if self._fifo:
                        self._out = self._fifo.popleft()
                    self._fifo_overrun = False
                    raw = self._encode(self._out)
                out.append(raw[r - 0x32])
            elif r == 0x30:
                watermark = self.regs[0x38] & 0x1F
                out.append((0x80 if self._fifo else 0) | (0x02 if watermark and len(self._fifo) >= watermark else 0)
                           | (0x01 if self._fifo_overrun else 0))
            elif r == 0x39:
                out.append(len(self._fifo) & 0x3F)
            else:
                out.append(self.regs[r])
        return out

    def _odr_hz(self) -> float | None:
        if not self.regs[0x2D] & 0x08:  # POWER_CTL Measure
            return None
        return 3200 / 2 ** (15 - (self.regs[0x2C] & 0x0F))

    def _encode(self, g: tuple[float, float, float]) -> bytes:
        fmt = self.regs[0x31]  # DATA_FORMAT: FULL_RES bit 3, Justify bit 2, Range 1:0
        code = fmt & 0b11
        if fmt & 0x08:  # full resolution: 256 LSB/g, 10 bits at 2 g up to 13 at 16 g
            bits, lsb_per_g = 10 + code, 256
        else:  # 10 bits at every range
            bits, lsb_per_g = 10, 256 >> code
        high = (1 << (bits - 1)) - 1
        low = -high - 1
        x, y, z = (max(low, min(high, round(v * lsb_per_g))) for v in g)
        if fmt & 0x04:
            shift = 16 - bits
            x, y, z = x << shift, y << shift, z << shift
        return struct.pack("<hhh", x, y, z)

    def _go_to_sleep(self) -> None:
        self.regs[0x2D] &= ~0x08 & 0xFF
        self._fifo.clear()


class EmulatedMpu6050(EmulatedChip):
    """MPU-6050 (register map Rev. 4.2): WHO_AM_I 0x68, asleep (PWR_MGMT_1 0x40) at
    power-on and after DEVICE_RESET; for ``reset_time`` seconds after a reset it ignores
    writes, as a chip still resetting would."""

    name = "MPU-6050"
    addresses = (0x68, 0x69)
    reset_values = {0x75: 0x68, 0x6B: 0x40}  # WHO_AM_I, PWR_MGMT_1 SLEEP
    read_only = frozenset({0x75, 0x3A, 0x72, 0x73})  # WHO_AM_I, INT_STATUS, FIFO_COUNTH/L
    data_registers = range(0x3B, 0x49)  # ACCEL_XOUT_H..GYRO_ZOUT_L
    FIFO_BYTES = 1024
    _TEMP_25C = round((25 - 36.53) * 340)  # TEMP_OUT at 25 degC (register map 4.18)

    def __init__(self, address: int | None = None, *, reset_time: float = 0.1, who_am_i: int = 0x68, **kwargs):
        self.reset_time = reset_time
        self.reset_values = {**self.reset_values, 0x75: who_am_i}  # a clone answers another ID
        self._resetting_until = -math.inf
        super().__init__(address, **kwargs)

    def _write(self, register: int, value: int) -> None:
        if self.clock.now() < self._resetting_until:
            return
        if register == 0x6B and value & 0x80:  # DEVICE_RESET
            self.power_on_reset()
            self._resetting_until = self.clock.now() + self.reset_time
            return
        if register == 0x6A and value & 0x04:  # USER_CTRL FIFO_RESET: empties it, then clears itself
            self._fifo.clear()
            self._fifo_overrun = False
            value &= ~0x04 & 0xFF
        self.regs[register] = value

    def _fifo_on(self) -> bool:
        """USER_CTRL (0x6A) FIFO_EN bit 6 and FIFO_EN (0x23) ACCEL_FIFO_EN bit 3, awake."""
        return bool(self.regs[0x6A] & 0x40 and self.regs[0x23] & 0x08 and not self.regs[0x6B] & 0x40)

    def _fifo_keep(self) -> int:
        return self.FIFO_BYTES // 6 + 2

    def _note_lost(self, n: int) -> None:
        super()._note_lost(n * 6)

    def _fifo_push(self, g: tuple[float, float, float]) -> None:
        """Six bytes, ACCEL_XOUT_H first; past 1024 bytes the oldest *bytes* are dropped
        (1024 is not a multiple of 6: after an overflow the samples are misaligned)."""
        self._fifo.extend(self._encode(g)[:6])
        while len(self._fifo) > self.FIFO_BYTES:
            self._fifo.popleft()
            self.fifo_overruns += 1
            self._fifo_overrun = True

    def _sequence(self, register: int, length: int) -> list[int]:
        if register == 0x74:  # FIFO_R_W: every byte comes from the FIFO port, no increment
            return [0x74] * length
        return super()._sequence(register, length)

    def _read_fifo_registers(self, registers: list[int]) -> list[int]:
        """INT_STATUS (0x3A): FIFO_OFLOW_INT bit 4 (cleared by this read), DATA_RDY_INT
        bit 0; FIFO_COUNTH/L (0x72/0x73): bytes in the FIFO, big-endian; FIFO_R_W (0x74):
        the oldest byte, popped (empty: the last byte read again)."""
        data = self._data_bytes() if any(r in self.data_registers for r in registers) else {}
        out = []
        for r in registers:
            if r == 0x74:
                if self._fifo:
                    self._last_fifo_byte = self._fifo.popleft()
                out.append(getattr(self, "_last_fifo_byte", 0))
            elif r == 0x72:
                out.append(len(self._fifo) >> 8)
            elif r == 0x73:
                out.append(len(self._fifo) & 0xFF)
            elif r == 0x3A:
                out.append((0x10 if self._fifo_overrun else 0) | 0x01)
                self._fifo_overrun = False
            else:
                out.append(data.get(r, self.regs[r]))
        return out

    def _odr_hz(self) -> float | None:
        if self.regs[0x6B] & 0x40:  # SLEEP
            return None
        dlpf = self.regs[0x1A] & 0b111
        return (8000 if dlpf in (0, 7) else 1000) / (1 + self.regs[0x19])

    def _encode(self, g: tuple[float, float, float]) -> bytes:
        lsb_per_g = 16384 >> ((self.regs[0x1C] >> 3) & 0b11)  # AFS_SEL
        counts = [clamp(v * lsb_per_g, 16) for v in g]
        return struct.pack(">hhhhhhh", *counts, self._TEMP_25C, 0, 0, 0)

    def _go_to_sleep(self) -> None:
        self.regs[0x6B] |= 0x40


class EmulatedLis3dh(EmulatedChip):
    """LIS3DH (DocID17530 Rev 2): WHO_AM_I 0x33, powered down (CTRL_REG1 0x07) at
    power-on; multi-byte transfers advance only with the 0x80 bit on the address."""

    name = "LIS3DH"
    addresses = (0x18, 0x19)
    reset_values = {0x0F: 0x33, 0x1E: 0x10, 0x20: 0x07, 0x2F: 0x20}  # WHO_AM_I, CTRL_REG0, CTRL_REG1, FIFO_SRC_REG EMPTY
    read_only = frozenset({0x0F, 0x27, 0x2F})  # WHO_AM_I, STATUS_REG, FIFO_SRC_REG
    data_registers = range(0x27, 0x2E)  # STATUS_REG, OUT_X_L..OUT_Z_H
    FIFO_DEPTH = 32
    FIFO_MODE_REGISTER = 0x2E  # FIFO_CTRL_REG
    _ODR = {1: 1, 2: 10, 3: 25, 4: 50, 5: 100, 6: 200, 7: 400, 8: 1600, 9: 1344}
    _MG_PER_DIGIT = {8: (16, 32, 64, 192), 10: (4, 8, 16, 48), 12: (1, 2, 4, 12)}

    def _sequence(self, register: int, length: int) -> list[int]:
        base = register & 0x7F
        if register & 0x80:
            if self._fifo_on() and 0x28 <= base <= 0x2D:  # with the FIFO on, OUT_Z_H rolls back to OUT_X_L
                return [0x28 + (base - 0x28 + i) % 6 for i in range(length)]
            return [(base + i) & 0x7F for i in range(length)]
        return [base] * length  # no auto-increment: the same register again

    def _fifo_on(self) -> bool:
        """CTRL_REG5 (0x24) FIFO_EN bit 6 and FIFO_CTRL_REG (0x2E) FM bits 7:6 not bypass
        (01 FIFO, 10 stream, 11 stream-to-FIFO, emulated as stream), while not powered down."""
        return bool(self.regs[0x24] & 0x40) and (self.regs[0x2E] >> 6) != 0 and self._odr_hz() is not None

    def _fifo_keep(self) -> int:
        return self.FIFO_DEPTH + 1

    def _write(self, register: int, value: int) -> None:
        if register == 0x2E and value >> 6 == 0:  # bypass mode empties the FIFO
            self._fifo.clear()
            self._fifo_overrun = False
        self.regs[register] = value

    def _read_fifo_registers(self, registers: list[int]) -> list[int]:
        """FIFO_SRC_REG (0x2F): WTM bit 7 (unread >= FTH), OVRN_FIFO bit 6 (32 unread: full),
        EMPTY bit 5, FSS bits 4:0 the unread count, which has 5 bits: with 32 unread it
        reads 0 (ASSUMED; the datasheet only says OVRN_FIFO means "completely filled"), so
        a driver must take 32 when OVRN_FIFO is set. Reading OUT_Z_H (0x2D) pops a sample."""
        out = []
        raw = None
        for r in registers:
            if 0x28 <= r <= 0x2D:
                if raw is None:
                    raw = self._encode(self._fifo[0] if self._fifo else self._out)
                out.append(raw[1 + r - 0x28])
                if r == 0x2D:
                    raw = None
                    if self._fifo:
                        self._out = self._fifo.popleft()
            elif r == 0x2F:
                n, fth = len(self._fifo), self.regs[0x2E] & 0x1F
                out.append((0x80 if fth and n >= fth else 0) | (0x40 if n >= self.FIFO_DEPTH else 0)
                           | (0x20 if n == 0 else 0) | (n & 0x1F))
            elif r == 0x27:
                out.append(self._encode(self._out)[0])
            else:
                out.append(self.regs[r])
        return out

    def _odr_hz(self) -> float | None:
        code = self.regs[0x20] >> 4
        if code == 9 and self.regs[0x20] & 0x08:  # low-power mode
            return 5376
        return self._ODR.get(code)

    def _encode(self, g: tuple[float, float, float]) -> bytes:
        ctrl1, ctrl4 = self.regs[0x20], self.regs[0x23]
        bits = 8 if ctrl1 & 0x08 else 12 if ctrl4 & 0x08 else 10  # LPen, HR
        code = (ctrl4 >> 4) & 0b11  # FS
        mg = self._MG_PER_DIGIT[bits][code]
        limit = math.ceil((2 << code) * 1000 / mg)
        counts = [clamp(v * 1000 / mg, bits, limit) << (16 - bits) if ctrl1 & (1 << axis)
                  else 0 for axis, v in enumerate(g)]
        order = ">" if ctrl4 & 0x40 else "<"  # BLE
        return bytes([0x0F]) + struct.pack(f"{order}hhh", *counts)  # STATUS_REG: ZYXDA

    def _go_to_sleep(self) -> None:
        self.regs[0x20] &= 0x0F  # ODR = power-down
        self._fifo.clear()
