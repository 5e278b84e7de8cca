"""``companion enroll GAME``: pair blank NFC stickers with cards.

For each card: scan its printed barcode (a keyboard-mode scanner types into the terminal)
or type its code, then place a blank sticker on the NFC reader. The pair is stored in the
event store, so ``companion run`` reads that sticker as the card from then on.
"""

from __future__ import annotations

import queue
from typing import Callable, Iterable

from ..core.catalogue import lookup
from ..core.clock import Clock
from ..core.enrolment import Enrolments
from ..core.errors import BadScan


def enroll(codes: Iterable[str], uids: "queue.Queue[str]", enrolments: Enrolments, game: str,
           cards: dict, clock: Clock, say: Callable[[str], None], tag_timeout: float = 30.0) -> int:
    """Pair each code from ``codes`` with the next tag UID on ``uids``; returns how many
    were enrolled. A bad code or a missing tag is said and skipped; nothing is stored then."""
    done = 0
    for raw in codes:
        if not raw.strip():
            continue
        try:
            card = lookup(raw, game, cards)
        except BadScan as err:
            say(err.message)
            continue
        while not uids.empty():  # a tag placed before the card was scanned is not this card's
            uids.get_nowait()
        say(f"{card.name} (copy {card.copy}): now place a blank sticker on the NFC reader.")
        try:
            uid = uids.get(timeout=tag_timeout)
        except queue.Empty:
            say(f"No sticker seen in {tag_timeout:.0f} s: scan the card again to retry.")
            continue
        previous = enrolments.enrol(uid, card.code, game, clock.now())
        again = f" (it was {previous} before)" if previous and previous != card.code else ""
        say(f"Sticker {uid} is now {card.name}{again}. Next card, or Ctrl-D to finish.")
        done += 1
    return done
