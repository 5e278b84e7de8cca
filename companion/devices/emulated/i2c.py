"""Register-level emulators of the tray accelerometers behind the ``smbus2.SMBus`` API:
the bus and the register file every chip shares (the three chips, ADXL345, MPU-6050 and
LIS3DH, are in :mod:`companion.devices.emulated.chips`).

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
>>> from companion.devices.emulated.chips import EmulatedAdxl345
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


def clamp(counts: float, bits: int, limit: int | None = None) -> int:
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
