"""Tap-off for the card readers (:class:`TapOff`, one part of the
:class:`~companion.table.session.Session`): one tap a reader reads twice counts once.

A card read again on the same reader less than the tap-off time (:data:`TAP_OFF_SECONDS`,
the ``[readers] tap_off`` setting) after its last read is the same tap, and is ignored
with :data:`TAPPED_TWICE`. After that time, on another reader, or once any other input
came between, it is a new scan (ACMI's lens-reader, STYLE.md "Readers at a counter").
A game may let some scans of the same card count again (its flow's ``scan_again_counts``);
the session asks it only of a scan this part calls a second read.

>>> taps = TapOff(1.0)
>>> taps.read_twice("left", "SRG2K", 5.0), taps.read_twice("left", "SRG2K", 5.4)
(False, True)
>>> taps.read_twice("right", "SRG2K", 5.6)
False
"""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds within which the same card on the same reader is one tap read twice.
TAP_OFF_SECONDS = 1.0
#: Said when a card is read twice in a row within the tap-off time (one tap, read twice).
TAPPED_TWICE = "That card was just scanned: it counts once."


@dataclass
class TapOff:
    """The scan just before, to tell a second read of one tap from a new scan.

    ``seconds``: the tap-off time (0 counts every read); ``last``: ``(reader, code)`` of
    the scan just before (None when another input came after it); ``last_t``: its
    session-clock seconds. Measured from the latest read, so a card left on a reader
    that reads it every half second stays one tap.
    """

    seconds: float = TAP_OFF_SECONDS
    last: tuple[str, str | None] | None = None
    last_t: float = float("-inf")

    def read_twice(self, reader: str, code: str | None, t: float) -> bool:
        """Note a scan of ``code`` (normalised; None or empty when garbled) on ``reader``
        at ``t`` (session-clock seconds), and say whether it is the scan just before
        read again: the same card on the same reader, under ``seconds`` later. A garbled
        scan is never a second read."""
        key = (reader, code)  # the same card on another reader is another tap
        twice = bool(code) and key == self.last and t - self.last_t < self.seconds
        self.last, self.last_t = key, t
        return twice

    def forget(self) -> None:
        """Another input (a touch, a button, a tilt) came after the scan: the same card
        again is a new scan."""
        self.last, self.last_t = None, float("-inf")
