"""Register-level emulators of the tray accelerometers behind the ``smbus2.SMBus`` API.

:class:`EmulatedBus` routes each transaction by address to an emulated chip; an address
with no chip NACKs (``OSError`` errno 121) as a real bus does. Each chip keeps a real
register file: ID registers, configuration registers that read back what was written,
and data registers encoded from ``orientation(t)`` (gravity plus motion, in g) exactly as
the chip encodes them for its configured range and resolution. This module reads the
datasheets independently of the drivers, so the tests check one reading against the other.

Data registers update at the configured output data rate (the sample for time ``t`` is
``orientation(floor(t * rate) / rate)`` plus seeded Gaussian noise of ``noise_g`` g), and
read 0 while the chip is asleep, in standby or powered down (as after power-on).

FIFOs: each chip's FIFO fills at its output data rate on the emulated clock (the samples
taken since the last transaction are pushed when the next one starts, so a chip nobody
reads for a while is full when read), overflows as its datasheet says (ADXL345 and LIS3DH
stream mode drop the oldest sample; the MPU-6050 drops the oldest *bytes*, so its
samples lose their alignment), raises its watermark and overrun flags, and is emptied by
reads of its data port. ``fifo_overruns`` counts samples (bytes for the MPU-6050) lost.

Faults (:meth:`EmulatedChip.fault`): ``"nack"`` (errno 121), ``"eio"`` (5), ``"enxio"``
(6), ``"zeros"`` / ``"ones"`` (every register reads 0x00 / 0xFF), ``"sleep"`` (the chip
loses its power/measure setting at once; not a lasting fault), ``"vanish"`` (errno 121 on
every access; when it clears the chip comes back in its power-on state, like a chip that
lost power). ``until`` is a clock time after which the fault clears by itself, ``times``
a number of transactions after which it clears.

>>> from companion.core.clock import FakeClock
>>> chip = EmulatedAdxl345(clock=FakeClock())
>>> bus = EmulatedBus(chip)
>>> hex(bus.read_byte_data(0x53, 0x00))
'0xe5'
>>> bus.read_byte_data(0x68, 0x75)
Traceback (most recent call last):
...
OSError: [Errno 121] Remote I/O error: no device at 0x68 (emulated bus 1)
"""

from __future__ import annotations

import errno as _errno
import math
import os
import random
import struct
import threading
from collections import deque
from typing import Callable

from companion.core.clock import Clock, SystemClock

Orientation = Callable[[float], tuple[float, float, float]]
FAULTS = ("nack", "eio", "enxio", "zeros", "ones", "sleep", "vanish")
_FAULT_ERRNO = {"nack": _errno.EREMOTEIO, "eio": _errno.EIO, "enxio": _errno.ENXIO,
                "vanish": _errno.EREMOTEIO}
_BLOCK_MAX = 32  # smbus2 I2C_SMBUS_BLOCK_MAX


def level(t: float) -> tuple[float, float, float]:
    """A tray at rest, chip face up: +1 g on z."""
    return (0.0, 0.0, 1.0)


def _clamp(counts: float, bits: int, limit: int | None = None) -> int:
    """Round to counts and saturate at the ``bits`` two's complement range (or ±limit)."""
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if limit is not None:
        low, high = max(low, -limit), min(high, limit)
    return max(low, min(high, round(counts)))


class EmulatedChip:
    """One chip's register file. Subclasses give the register map and the encoding."""

    name = "chip"
    addresses: tuple[int, ...] = ()
    reset_values: dict[int, int] = {}
    read_only: frozenset[int] = frozenset()
    data_registers: range = range(0)

    def __init__(self, address: int | None = None, *, orientation: Orientation = level,
                 clock: Clock | None = None, noise_g: float = 0.01, seed: int = 0):
        self.address = self.addresses[0] if address is None else address
        self.orientation = orientation
        self.clock = clock if clock is not None else SystemClock()
        self.noise_g = noise_g
        self.block_reads = 0
        self.fifo_overruns = 0
        # Seeded Gaussian noise drawn once and used in turn: a sample costs no random
        # draws (the chip's own cost is nothing on a real table, so the emulator's should
        # be small next to the driver's in a bench). 3 x 1009 values: a cycle of ~10 s at 100 Hz.
        rng = random.Random(seed)
        self._noise = [rng.gauss(0.0, noise_g) for _ in range(3 * 1009)] if noise_g else None
        self._noise_at = 0
        self._lock = threading.RLock()
        self._fault: str | None = None
        self._until: float | None = None
        self._times: int | None = None
        self.pointer = 0
        self.power_on_reset()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at 0x{self.address:02X}>"

    def power_on_reset(self) -> None:
        """Every register back to its datasheet power-on value; the chip is asleep."""
        with self._lock:
            self.regs = bytearray(256)
            for register, value in self.reset_values.items():
                self.regs[register] = value
            self._index: int | None = None
            self._sample = (0.0, 0.0, 0.0)
            self._fifo: deque = deque()
            self._fifo_next: int | None = None  # index of the next sample to push; None: not filling
            self._fifo_overrun = False
            self._out = (0.0, 0.0, 0.0)  # the sample last moved into the data registers
            self._mode_cache: tuple[bool, float | None] | None = None

    # -- faults -----------------------------------------------------------------------

    def fault(self, kind: str, until: float | None = None, times: int | None = None) -> None:
        """Inject a fault (see the module docstring) until clock time ``until`` (s) or for
        ``times`` transactions, else until :meth:`clear_fault`. Raises ValueError for an
        unknown kind."""
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r}: choose from {', '.join(FAULTS)}")
        with self._lock:
            if kind == "sleep":
                self._go_to_sleep()
                self._mode_cache = None
                return
            self._fault, self._until, self._times = kind, until, times

    def clear_fault(self) -> None:
        """End the current fault; a vanished chip returns in its power-on state."""
        with self._lock:
            was, self._fault, self._until, self._times = self._fault, None, None, None
            if was == "vanish":
                self.power_on_reset()

    @property
    def fault_kind(self) -> str | None:
        """The fault in force now, or None."""
        with self._lock:
            self._expire()
            return self._fault

    def _expire(self) -> None:
        if self._fault and self._until is not None and self.clock.now() >= self._until:
            self.clear_fault()

    def _access(self) -> str | None:
        """Start one transaction: raise the fault's OSError, or return "zeros"/"ones"."""
        self._expire()
        kind = self._fault
        if kind is not None and self._times is not None:
            self._times -= 1
            if self._times <= 0:
                self.clear_fault()
        if kind in _FAULT_ERRNO:
            code = _FAULT_ERRNO[kind]
            raise OSError(code, f"{os.strerror(code)}: emulated {self.name} at "
                                f"0x{self.address:02X} ({kind})")
        return kind

    # -- transactions (called by EmulatedBus) -----------------------------------------

    def read_block(self, register: int, length: int) -> list[int]:
        with self._lock:
            mask = self._access()
            fifo_on = self._fill_fifo()
            registers = self._sequence(register, length)
            self.pointer = registers[-1]
            if mask:
                return [0x00 if mask == "zeros" else 0xFF] * length
            if fifo_on:
                return self._read_fifo_registers(registers)
            data: dict[int, int] = {}
            if any(r in self.data_registers for r in registers):
                data = self._data_bytes()
            return [data.get(r, self.regs[r]) for r in registers]

    def write_block(self, register: int, values: list[int]) -> None:
        with self._lock:
            self._access()
            self._fill_fifo()
            registers = self._sequence(register, len(values))
            for r, value in zip(registers, values):
                if r not in self.read_only and r not in self.data_registers:
                    self._write(r, value)
            self._mode_cache = None
            self.pointer = registers[-1] if registers else register & 0xFF

    def _sequence(self, register: int, length: int) -> list[int]:
        """Registers touched by a multi-byte transfer: these chips auto-increment."""
        return [(register + i) & 0xFF for i in range(length)]

    def _write(self, register: int, value: int) -> None:
        self.regs[register] = value

    # -- FIFO -------------------------------------------------------------------------

    def _fifo_on(self) -> bool:
        """True while the chip's FIFO is collecting samples (never, without a FIFO)."""
        return False

    def _mode(self) -> tuple[bool, float | None]:
        """``(FIFO on, output data rate in Hz or None)`` from the registers, worked out
        again only after a write (or a reset, or a fault) changed them."""
        mode = self._mode_cache
        if mode is None:
            mode = self._mode_cache = (self._fifo_on(), self._odr_hz())
        return mode

    def _fill_fifo(self) -> bool:
        """Push every sample the chip took since the last transaction (the emulated clock
        at the output data rate). Starts from the current sample when the FIFO is turned on.
        Returns whether the FIFO is on."""
        fifo_on, rate = self._mode()
        if not fifo_on:
            self._fifo_next = None
            return False
        if rate is None:
            return True
        now = math.floor(self.clock.now() * rate + 1e-6)
        if self._fifo_next is None:
            self._fifo_next = now
        elif now < self._fifo_next:  # no new sample since the last transaction
            return True
        first = max(self._fifo_next, now - self._fifo_keep())  # older ones would be dropped anyway
        self._note_lost(first - self._fifo_next)
        for index in range(first, now + 1):
            self._fifo_push(self._sample_at(index, rate))
        self._fifo_next = max(self._fifo_next, now + 1)
        return True

    def _sample_at(self, index: int, rate: float) -> tuple[float, float, float]:
        return self._noisy(self.orientation(index / rate))

    def _noisy(self, g: tuple[float, float, float]) -> tuple[float, float, float]:
        """``g`` plus the next three values of the chip's seeded noise."""
        noise = self._noise
        if noise is None:
            return tuple(g)
        i = self._noise_at
        self._noise_at = (i + 3) % len(noise)
        return (g[0] + noise[i], g[1] + noise[i + 1], g[2] + noise[i + 2])

    def _fifo_keep(self) -> int:
        return 64

    def _note_lost(self, n: int) -> None:
        if n > 0:
            self.fifo_overruns += n
            self._fifo_overrun = True

    #: The FIFO control register whose bits 7:6 hold the mode, 0b01 being "FIFO mode"
    #: (stop when full) and stream mode dropping the oldest: ADXL345 FIFO_CTL 0x38 and
    #: LIS3DH FIFO_CTRL_REG 0x2E share this layout. None: the chip pushes its own way.
    FIFO_MODE_REGISTER: int | None = None

    def _fifo_push(self, g: tuple[float, float, float]) -> None:
        if self.FIFO_MODE_REGISTER is None:
            raise NotImplementedError
        if len(self._fifo) >= self.FIFO_DEPTH:
            self._note_lost(1)
            if self.regs[self.FIFO_MODE_REGISTER] >> 6 == 0b01:  # FIFO mode: full means no more samples
                return
            self._fifo.popleft()  # stream mode: the oldest makes room
        self._fifo.append(g)

    def _read_fifo_registers(self, registers: list[int]) -> list[int]:
        raise NotImplementedError

    # -- data -------------------------------------------------------------------------

    def current_g(self) -> tuple[float, float, float] | None:
        """The sample in the data registers now (g), or None while not measuring."""
        with self._lock:
            rate = self._mode()[1]
            if rate is None:
                return None
            index = math.floor(self.clock.now() * rate + 1e-6)
            if index != self._index:
                self._sample = self._noisy(self.orientation(index / rate))
                self._index = index
            return self._sample

    def _data_bytes(self) -> dict[int, int]:
        g = self.current_g()
        raw = bytes(len(self.data_registers)) if g is None else self._encode(g)
        return dict(zip(self.data_registers, raw))

    def _odr_hz(self) -> float | None:
        raise NotImplementedError

    def _encode(self, g: tuple[float, float, float]) -> bytes:
        raise NotImplementedError

    def _go_to_sleep(self) -> None:
        raise NotImplementedError


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
        counts = [_clamp(v * lsb_per_g, 16) for v in g]
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
        counts = [_clamp(v * 1000 / mg, bits, limit) << (16 - bits) if ctrl1 & (1 << axis)
                  else 0 for axis, v in enumerate(g)]
        order = ">" if ctrl4 & 0x40 else "<"  # BLE
        return bytes([0x0F]) + struct.pack(f"{order}hhh", *counts)  # STATUS_REG: ZYXDA

    def _go_to_sleep(self) -> None:
        self.regs[0x20] &= 0x0F  # ODR = power-down
        self._fifo.clear()


class EmulatedBus:
    """An I2C bus with the ``smbus2.SMBus`` methods, holding emulated chips by address.

    ``block_reads`` counts ``read_i2c_block_data`` calls (burst reads), failed or not.
    After :meth:`close` every call raises OSError (EBADF) until :meth:`open`."""

    def __init__(self, *chips: EmulatedChip, bus: int | str = 1):
        self.bus = bus
        self.chips: dict[int, EmulatedChip] = {}
        self.block_reads = 0
        self.closed = False
        for chip in chips:
            self.add(chip)

    def add(self, chip: EmulatedChip) -> None:
        """Plug in a chip; raises ValueError if its address is taken."""
        if chip.address in self.chips:
            raise ValueError(f"address 0x{chip.address:02X} already has {self.chips[chip.address]}")
        self.chips[chip.address] = chip

    def remove(self, address: int) -> None:
        """Unplug the chip at ``address``."""
        self.chips.pop(address, None)

    def open(self, bus: int | str | None = None) -> None:
        self.bus = self.bus if bus is None else bus
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> EmulatedBus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _chip(self, i2c_addr: int) -> EmulatedChip:
        if self.closed:
            raise OSError(_errno.EBADF, f"{os.strerror(_errno.EBADF)}: emulated bus closed")
        chip = self.chips.get(i2c_addr)
        if chip is None:
            raise OSError(_errno.EREMOTEIO, f"{os.strerror(_errno.EREMOTEIO)}: no device at "
                                            f"0x{i2c_addr:02X} (emulated bus {self.bus})")
        return chip

    def read_byte_data(self, i2c_addr: int, register: int, force: bool | None = None) -> int:
        return self._chip(i2c_addr).read_block(register, 1)[0]

    def write_byte_data(self, i2c_addr: int, register: int, value: int,
                        force: bool | None = None) -> None:
        self.write_i2c_block_data(i2c_addr, register, [value])

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int,
                            force: bool | None = None) -> list[int]:
        if not 0 < length <= _BLOCK_MAX:
            raise ValueError(f"block length must be 1-{_BLOCK_MAX}, not {length}")
        self.block_reads += 1
        chip = self._chip(i2c_addr)
        with chip._lock:
            chip.block_reads += 1
            return chip.read_block(register, length)

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int],
                             force: bool | None = None) -> None:
        if len(data) > _BLOCK_MAX or any(not 0 <= v <= 0xFF for v in data):
            raise ValueError(f"up to {_BLOCK_MAX} bytes 0-255, not {list(data)}")
        self._chip(i2c_addr).write_block(register, list(data))

    def read_byte(self, i2c_addr: int, force: bool | None = None) -> int:
        """Read the register the chip's address pointer is on (set by :meth:`write_byte`)."""
        chip = self._chip(i2c_addr)
        return chip.read_block(chip.pointer, 1)[0]

    def write_byte(self, i2c_addr: int, value: int, force: bool | None = None) -> None:
        """Set the chip's register pointer (a write with no data)."""
        chip = self._chip(i2c_addr)
        chip.write_block(value, [])
