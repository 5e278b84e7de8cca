"""An emulated USB-serial barcode scanner on a real pseudo-terminal.

The real :class:`~companion.devices.scan.serial.SerialScanner` opens :attr:`PtyScanner.path`
exactly as it would open ``/dev/ttyACM0``, so the driver's pyserial code runs unchanged.
Closing the emulator is pulling the cable out: reads on the other side fail with EIO.

>>> with PtyScanner() as scanner:
...     scanner.path.startswith("/dev/")
True
"""

from __future__ import annotations

import os
import tty

from companion.core.errors import DeviceError


class PtyScanner:
    """A pseudo-terminal pair: the test (or ``--simulate``) writes scans to the master, the
    driver reads the slave at :attr:`path`. The slave is raw, so CR and LF pass through
    untranslated and nothing is echoed back."""

    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        try:
            tty.setraw(self._slave)
            self.path: str = os.ttyname(self._slave)
        except BaseException:
            os.close(self._master)
            os.close(self._slave)
            raise
        self._closed = False

    @property
    def master(self) -> int:
        """The master side's file descriptor: another process can write scans into it
        (pass it on, e.g. ``subprocess.Popen(pass_fds=...)``)."""
        return self._master

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called (the scanner is unplugged)."""
        return self._closed

    def send(self, data: bytes) -> None:
        """Write ``data`` to the line as the scanner would, all of it, unchanged.

        Raises DeviceError (an OSError) once the emulator is closed."""
        if self._closed:
            raise DeviceError(f"emulated scanner {self.path} is unplugged")
        view = memoryview(data)
        while view:
            written = os.write(self._master, view)
            view = view[written:]

    def scan(self, code: str, terminator: bytes = b"\r\n") -> None:
        """Send one scanned label: ``code`` as ASCII, then ``terminator``."""
        self.send(code.encode("ascii") + terminator)

    def close(self) -> None:
        """Close both ends (unplug the scanner). Idempotent."""
        if self._closed:
            return
        self._closed = True
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> PtyScanner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "unplugged" if self._closed else "plugged in"
        return f"<PtyScanner {self.path} {state}>"
