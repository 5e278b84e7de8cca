"""What the three accelerometer drivers share: errors, ranges, and the init/read logic.

A driver talks to anything with the ``smbus2.SMBus`` API (``read_byte_data``,
``write_byte_data``, ``read_i2c_block_data``): a real bus on the Pi, or
:class:`~companion.devices.emulated.i2c.EmulatedBus` in tests and ``--simulate``.
Each chip module (``adxl345``, ``mpu6050``, ``lis3dh``) only says which registers to write
and how to decode the six data bytes; the sequence lives here (Adafruit CircuitPython
style), and every configuration register is read back after writing (Klipper style).

I2C errors while reading data (``OSError`` errno 121 NACK, 5 EIO, 6 ENXIO) are not caught:
the sampling thread decides what a failure means. Only :meth:`Accelerometer.check_id` turns
them into a message for the user.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, ClassVar, Protocol

from companion.core.errors import DeviceError

log = logging.getLogger(__name__)

ID_READS = 3
"""Times the ID register is read before a chip is given up: a glitching bus answers one
read with 0xFF (or a NACK), and one bad read must not take the tray sensor offline."""

WIRING_HINT = (
    "check wiring (3V3 to pin 1, SDA to pin 3, SCL to pin 5, GND to pin 9) "
    "and that I2C is enabled (raspi-config)"
)


class AccelError(DeviceError):
    """The accelerometer is missing, misconfigured, or not answering as its datasheet says.

    ``errno`` is the I2C error behind it when there was one (121 NACK, 5 EIO, 6 ENXIO)."""

    def __init__(self, message: str, errno: int | None = None):
        super().__init__(message)
        self.errno = errno
        self.message = message

    def __str__(self) -> str:
        return self.message


class ChipNotFound(AccelError, LookupError):
    """No chip of the expected kind answers at that address (or at any known address)."""


class I2CBus(Protocol):
    """The part of the ``smbus2.SMBus`` API the drivers use."""

    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...


class Range:
    """Full-scale range in g; every supported chip has the same four.

    * ``RANGE_2_G``: ±2 g, the finest steps; plenty for a tray tilted by hand (default)
    * ``RANGE_4_G``: ±4 g
    * ``RANGE_8_G``: ±8 g
    * ``RANGE_16_G``: ±16 g
    """

    RANGE_2_G = 2
    RANGE_4_G = 4
    RANGE_8_G = 8
    RANGE_16_G = 16
    ALL = (2, 4, 8, 16)


class Accelerometer:
    """One accelerometer chip at one I2C address.

    ``bus`` has the smbus2 API; ``bus_name`` (e.g. ``"/dev/i2c-1"``) only appears in
    messages; ``sleep(seconds)`` is used for datasheet delays (inject a fake in tests).
    Subclasses set the class attributes and implement :meth:`_config_writes`,
    :meth:`_decode` and :attr:`_data_register`.
    """

    name: ClassVar[str] = "accelerometer"
    addresses: ClassVar[tuple[int, ...]] = ()
    id_register: ClassVar[int] = 0
    id_register_name: ClassVar[str] = "ID"
    id_value: ClassVar[int] = 0
    clone_ids: ClassVar[dict[int, str]] = {}
    """ID values of other parts that are register-compatible for what the driver uses:
    accepted, with a warning naming the part (see hardware/sensors.md)."""
    refused_ids: ClassVar[dict[int, str]] = {}
    """ID values of known parts at the same addresses that are *not* register-compatible:
    refused, and named."""
    rates: ClassVar[dict[float, int]] = {}
    """Supported output data rates: Hz -> register code (see each chip's ``DataRate``)."""
    _reg_names: ClassVar[dict[int, str]] = {}
    _hints: ClassVar[dict[int, str]] = {}
    _data_register: ClassVar[int] = 0
    fifo_depth: ClassVar[int] = 0
    """Whole samples the chip's FIFO holds (0: no FIFO); see :meth:`read_fifo`."""

    def __init__(
        self,
        bus: I2CBus,
        address: int | None = None,
        *,
        bus_name: str = "/dev/i2c-1",
        sleep: Callable[[float], object] = time.sleep,
    ):
        self.bus = bus
        self.address = self.addresses[0] if address is None else address
        self.bus_name = bus_name
        self._sleep = sleep
        self.range_g: int | None = None
        self.rate_hz: float | None = None
        self.fifo_watermark: int | None = None
        self._expected: dict[int, int] = {}
        self.part: str = self.name
        """The part actually found: :attr:`name`, or the clone named by its ID."""
        self.warning: str | None = None
        """Set when the part is a register-compatible clone, for `doctor` and the log."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at 0x{self.address:02X} on {self.bus_name}>"

    @property
    def where(self) -> str:
        """``"ADXL345 at 0x53 on /dev/i2c-1"``, for messages (the clone's name for a clone)."""
        return f"{self.part} at 0x{self.address:02X} on {self.bus_name}"

    # -- identity ---------------------------------------------------------------------

    @classmethod
    def knows(cls, value: int) -> bool:
        """True when ``value`` is an ID this driver can name: its own, a clone's or a refused part's."""
        return value == cls.id_value or value in cls.clone_ids or value in cls.refused_ids

    @classmethod
    def read_id(cls, bus: I2CBus, address: int, tries: int = ID_READS) -> int:
        """The ID register at ``address``, read up to ``tries`` times until it gives a value
        this driver knows. Returns the last value read; raises the last OSError when every
        read failed."""
        found: int | None = None
        error: OSError | None = None
        for attempt in range(tries):
            try:
                found = bus.read_byte_data(address, cls.id_register)
            except OSError as exc:
                error = exc
                continue
            if cls.knows(found):
                break
            if attempt + 1 < tries:
                log.debug("%s at 0x%02X: %s read 0x%02X, reading it again", cls.name, address,
                          cls.id_register_name, found)
        if found is None:
            raise error  # type: ignore[misc]  # tries >= 1, so one read failed
        return found

    @classmethod
    def id_problem(cls, found: int, address: int, bus_name: str) -> str | None:
        """What is wrong with ID ``found`` at ``address`` for a user to read, or None when
        the driver may use the chip (its own ID or a register-compatible clone)."""
        where = f"0x{address:02X} on {bus_name}"
        if found == cls.id_value or found in cls.clone_ids:
            return None
        if found in cls.refused_ids:
            return (f"{cls.refused_ids[found]} at {where} ({cls.id_register_name} 0x{found:02X}) is not "
                    f"register-compatible with the {cls.name}, so it cannot be used: fit an ADXL345, "
                    "MPU-6050 or LIS3DH breakout (hardware/sensors.md lists the accepted chips)")
        if found in (0x00, 0xFF):  # a floating or shorted bus, not a chip answering
            return (f"no {cls.name} at {where} ({cls.id_register_name} read 0x{found:02X}, expected "
                    f"0x{cls.id_value:02X}): {WIRING_HINT}")
        return (f"unknown chip with ID 0x{found:02X} at 0x{address:02X} on {bus_name} "
                f"({cls.id_register_name}; a {cls.name} reads 0x{cls.id_value:02X}): it is not a "
                "chip the companion knows (hardware/sensors.md lists the accepted chips and clones)")

    def check_id(self) -> int:
        """Read the ID register (up to :data:`ID_READS` times) and return it. A known
        register-compatible clone is accepted: :attr:`part` names it and :attr:`warning`
        says so (also logged).

        Raises ChipNotFound (an AccelError and a LookupError) when the chip does not answer,
        answers with an unknown ID, or is a known part that is not register-compatible,
        saying what was read and what to check."""
        try:
            found = self.read_id(self.bus, self.address)
        except OSError as exc:
            raise ChipNotFound(
                f"no {self.name} at 0x{self.address:02X} on {self.bus_name} "
                f"(no answer: {exc}): {WIRING_HINT}",
                errno=exc.errno,
            ) from exc
        problem = self.id_problem(found, self.address, self.bus_name)
        if problem:
            raise ChipNotFound(problem)
        self._identify(found)
        return found

    def _identify(self, found: int) -> None:
        """Name the part behind ID ``found`` (one this driver accepts) and warn for a clone."""
        if found == self.id_value:
            self.part, self.warning = self.name, None
            return
        part = self.clone_ids[found]
        warning = (f"{part} at 0x{self.address:02X} on {self.bus_name} ({self.id_register_name} "
                   f"0x{found:02X}) is used as a {self.name}: it is register-compatible, but not the "
                   "chip the companion was tested with")
        if warning != self.warning:
            log.warning("tray sensor: %s", warning)
        self.part, self.warning = part, warning

    # -- configuration ----------------------------------------------------------------

    def init(self, range_g: int = Range.RANGE_2_G, rate_hz: float = 100,
             fifo_watermark: int | None = None) -> None:
        """Check the ID, configure range (g) and output data rate (Hz), and read back.

        ``fifo_watermark`` (samples, 1 to ``fifo_depth - 1``) turns the chip's FIFO on in
        stream mode, so :meth:`read_fifo` gets every sample taken since the last read;
        then :meth:`read_g` is not used (it would take the FIFO's oldest sample).

        The rate actually used is the slowest supported rate at or above ``rate_hz``
        (stored in :attr:`rate_hz`), so sampling at ``rate_hz`` never sees stale data.
        Raises ValueError for an unsupported range or a rate above the chip's fastest,
        ChipNotFound for a wrong ID, AccelError when a register does not read back what
        was written, and OSError when the bus fails."""
        if range_g not in Range.ALL:
            raise ValueError(f"{self.name} range must be one of {Range.ALL} g, not {range_g}")
        faster = sorted(r for r in self.rates if r >= rate_hz)
        if not faster:
            raise ValueError(
                f"{self.name} cannot sample at {rate_hz} Hz (fastest {max(self.rates)} Hz)"
            )
        rate = faster[0]
        if fifo_watermark is not None and not 1 <= fifo_watermark < self.fifo_depth:
            raise ValueError(f"{self.name} FIFO watermark must be 1-{max(1, self.fifo_depth - 1)} samples, "
                             f"not {fifo_watermark}" if self.fifo_depth else f"{self.name} has no FIFO")
        self.range_g = self.rate_hz = self.fifo_watermark = None  # not trusted until this init succeeds
        self.check_id()
        self._before_config()
        writes = self._config_writes(range_g, self.rates[rate])
        if fifo_watermark is not None:
            writes += self._fifo_writes(fifo_watermark)
        for register, value in writes:
            self.bus.write_byte_data(self.address, register, value)
        self._expected = dict(writes)  # the last value written to each register
        self.check_config()
        self.range_g, self.rate_hz, self.fifo_watermark = range_g, rate, fifo_watermark

    def check_config(self) -> None:
        """Read back every configuration register :meth:`init` wrote.

        Raises AccelError naming the register and the likely cause when one differs (a
        chip that was reset, went to sleep, or a wiring fault), OSError when the bus fails.
        """
        for register, wanted in self._expected.items():
            got = self.bus.read_byte_data(self.address, register)
            if got != wanted:
                reg = self._reg_names.get(register, f"register 0x{register:02X}")
                hint = self._hints.get(register, "")
                raise AccelError(
                    f"{self.where}: {reg} read back 0x{got:02X} after writing "
                    f"0x{wanted:02X}{': ' + hint if hint else ''}; {WIRING_HINT}"
                )

    def _before_config(self) -> None:
        """Chip-specific steps before the configuration writes (e.g. a reset)."""

    def _config_writes(self, range_g: int, rate_code: int) -> list[tuple[int, int]]:
        """The (register, value) writes that configure the chip, in order."""
        raise NotImplementedError

    def _fifo_writes(self, watermark: int) -> list[tuple[int, int]]:
        """The writes that turn the FIFO on in stream mode with ``watermark`` samples."""
        raise NotImplementedError

    # -- data -------------------------------------------------------------------------

    def read_g(self) -> tuple[float, float, float]:
        """Acceleration (x, y, z) in g along the chip's axes, from exactly one burst read.

        A chip at rest reads about +1 g along the axis pointing up. Raises AccelError if
        :meth:`init` has not run, OSError (errno 121/5/6) when the bus fails."""
        if self.range_g is None:
            raise AccelError(f"{self.where}: call init() before read_g()")
        data = self.bus.read_i2c_block_data(self.address, self._data_register, 6)
        return self._decode(bytes(data))

    def read_fifo(self) -> tuple[list[tuple[float, float, float]], bool]:
        """Every sample waiting in the FIFO, oldest first, in g, and whether samples may
        have been lost since the last read (the FIFO overran: it was not read in time).

        One status read, then the samples in as few bursts as the chip allows. Raises
        AccelError if :meth:`init` did not turn the FIFO on, OSError when the bus fails."""
        if self.range_g is None or self.fifo_watermark is None:
            raise AccelError(f"{self.where}: call init(fifo_watermark=...) before read_fifo()")
        raw, lost = self._fifo_read()
        return [self._decode(bytes(sample)) for sample in raw], lost

    def _fifo_read(self) -> tuple[list[bytes], bool]:
        """The FIFO's samples as six data bytes each, and the overrun flag."""
        raise NotImplementedError

    def _decode(self, data: bytes) -> tuple[float, float, float]:
        """Six data bytes -> (x, y, z) in g for the configured range and resolution."""
        raise NotImplementedError
