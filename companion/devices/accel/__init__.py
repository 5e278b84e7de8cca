"""The tray accelerometer: ADXL345, MPU-6050 or LIS3DH on I2C bus 1, found by :func:`detect`.

>>> from companion.core.clock import FakeClock
>>> from companion.devices.emulated.chips import EmulatedLis3dh
>>> from companion.devices.emulated.i2c import EmulatedBus
>>> bus = EmulatedBus(EmulatedLis3dh(address=0x19, clock=FakeClock()))
>>> accel = detect(bus)
>>> accel
<Lis3dh at 0x19 on /dev/i2c-1>
>>> accel.init(range_g=2, rate_hz=100)
>>> x, y, z = accel.read_g(); round(z, 1)
1.0
"""

from __future__ import annotations

import time
from typing import Callable

from companion.devices.accel.adxl345 import Adxl345
from companion.devices.accel.base import (
    WIRING_HINT,
    Accelerometer,
    AccelError,
    ChipNotFound,
    I2CBus,
    Range,
)
from companion.devices.accel.lis3dh import Lis3dh
from companion.devices.accel.mpu6050 import Mpu6050

CHIPS: tuple[type[Accelerometer], ...] = (Adxl345, Mpu6050, Lis3dh)
"""Every supported chip, in the order :func:`detect` probes them."""

__all__ = [
    "CHIPS", "Accelerometer", "AccelError", "Adxl345", "ChipNotFound", "I2CBus",
    "Lis3dh", "Mpu6050", "Range", "detect",
]


def detect(
    bus: I2CBus,
    bus_name: str = "/dev/i2c-1",
    *,
    sleep: Callable[[float], object] = time.sleep,
) -> Accelerometer:
    """Probe every known address of every chip and return a driver for the first whose
    ID register matches the chip or a register-compatible clone of it (not yet
    initialised: call ``init()``; a clone is named by the driver's ``part`` and
    ``warning``, and logged).

    The ID is read up to :data:`~companion.devices.accel.base.ID_READS` times at each
    address, so one glitched read (0xFF) does not lose the chip. An OSError at an address
    (errno 121 NACK, usually) just means nothing is there. Raises ChipNotFound (an
    AccelError and a LookupError) when nothing usable answers: naming an unknown chip or a
    part that is not register-compatible when one answered, else listing what was read at
    each address with the wiring hint. ``sleep`` is passed to the driver (see Mpu6050)."""
    seen: list[str] = []
    problems: list[str] = []
    for chip in CHIPS:
        for address in chip.addresses:
            try:
                found = chip.read_id(bus, address)
            except OSError as exc:
                seen.append(f"0x{address:02X} no answer (errno {exc.errno})")
                continue
            problem = chip.id_problem(found, address, bus_name)
            if problem is None:
                accel = chip(bus, address, bus_name=bus_name, sleep=sleep)
                accel._identify(found)
                return accel
            seen.append(
                f"0x{address:02X} {chip.id_register_name} read 0x{found:02X} "
                f"({chip.name} expects 0x{chip.id_value:02X})"
            )
            if found not in (0x00, 0xFF):
                problems.append(problem)
    names = ", ".join(chip.name for chip in CHIPS)
    if problems:
        raise ChipNotFound(f"no usable accelerometer on {bus_name}: {'; '.join(problems)}")
    raise ChipNotFound(
        f"no accelerometer ({names}) found on {bus_name}: {'; '.join(seen)}. {WIRING_HINT}"
    )
