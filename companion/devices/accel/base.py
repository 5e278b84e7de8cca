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

import time
from typing import Callable, ClassVar, Protocol

from companion.core.errors import DeviceError

WIRING_HINT = (
    "check wiring (3V3 to pin 1, SDA to pin 3, SCL to pin 5, GND to pin 6) "
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
    rates: ClassVar[dict[float, int]] = {}
    """Supported output data rates: Hz -> register code (see each chip's ``DataRate``)."""
    _reg_names: ClassVar[dict[int, str]] = {}
    _hints: ClassVar[dict[int, str]] = {}
    _data_register: ClassVar[int] = 0

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
        self._expected: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at 0x{self.address:02X} on {self.bus_name}>"

    @property
    def where(self) -> str:
        """``"ADXL345 at 0x53 on /dev/i2c-1"``, for messages."""
        return f"{self.name} at 0x{self.address:02X} on {self.bus_name}"

    # -- identity ---------------------------------------------------------------------

    def check_id(self) -> int:
        """Read the ID register and return it.

        Raises ChipNotFound (an AccelError and a LookupError) when the chip does not answer
        or answers with another ID, saying what was read and what to check."""
        try:
            found = self.bus.read_byte_data(self.address, self.id_register)
        except OSError as exc:
            raise ChipNotFound(
                f"no {self.name} at 0x{self.address:02X} on {self.bus_name} "
                f"(no answer: {exc}): {WIRING_HINT}",
                errno=exc.errno,
            ) from exc
        if found != self.id_value:
            raise ChipNotFound(
                f"no {self.name} at 0x{self.address:02X} on {self.bus_name} "
                f"({self.id_register_name} read 0x{found:02X}, expected "
                f"0x{self.id_value:02X}): {WIRING_HINT}"
            )
        return found

    # -- configuration ----------------------------------------------------------------

    def init(self, range_g: int = Range.RANGE_2_G, rate_hz: float = 100) -> None:
        """Check the ID, configure range (g) and output data rate (Hz), and read back.

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
        self.range_g = self.rate_hz = None  # data is not trusted until this init succeeds
        self.check_id()
        self._before_config()
        writes = self._config_writes(range_g, self.rates[rate])
        for register, value in writes:
            self.bus.write_byte_data(self.address, register, value)
        self._expected = dict(writes)  # the last value written to each register
        self.check_config()
        self.range_g, self.rate_hz = range_g, rate

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

    # -- data -------------------------------------------------------------------------

    def read_g(self) -> tuple[float, float, float]:
        """Acceleration (x, y, z) in g along the chip's axes, from exactly one burst read.

        A chip at rest reads about +1 g along the axis pointing up. Raises AccelError if
        :meth:`init` has not run, OSError (errno 121/5/6) when the bus fails."""
        if self.range_g is None:
            raise AccelError(f"{self.where}: call init() before read_g()")
        data = self.bus.read_i2c_block_data(self.address, self._data_register, 6)
        return self._decode(bytes(data))

    def _decode(self, data: bytes) -> tuple[float, float, float]:
        """Six data bytes -> (x, y, z) in g for the configured range and resolution."""
        raise NotImplementedError
