"""``companion enroll`` and ``companion nfc write``: NFC stickers for a game's cards."""

from __future__ import annotations

import math
import os
import sys

from ..core.store import DEFAULT_STORE
from .common import fail, game, game_choices, user_path


def cmd_enroll(args) -> int:
    """Pair NFC stickers with cards: codes from stdin (typed, or a keyboard-mode scanner),
    tags from the PN532. ``--nfc emulated`` places a new emulated sticker for each card."""
    import queue as queue_mod

    from ..core.clock import SystemClock
    from ..core.enrolment import Enrolments
    from ..core.errors import StoreError
    from ..core.store import EventStore
    from ..devices.scan.pn532 import Pn532Reader
    from ..cards.enroll import enroll
    desc = game(args.game)
    if not desc.has_cards:
        return fail(f"{desc.name} has no cards to pair with stickers: {desc.summary}.")
    CARDS = desc.catalogue()

    try:
        enrolments = Enrolments(EventStore(args.store))
    except StoreError as err:
        return fail(str(err), 1)
    uids: queue_mod.Queue = queue_mod.Queue()
    events: queue_mod.Queue = queue_mod.Queue()
    emulator = None
    path = args.nfc
    if path == "emulated":
        from ..devices.emulated.pn532 import EmulatedPn532

        emulator = EmulatedPn532()
        path = emulator.path
    reader = Pn532Reader(path, events, SystemClock(), on_uid=uids.put)
    reader.start()
    if emulator is None and not os.path.exists(path):
        reader.stop()
        return fail(f"no NFC reader at {path}: check its USB cable and the path", 1)

    def say(message: str) -> None:
        print(message, flush=True)
        if emulator is not None and "place a blank sticker" in message:
            emulator.lift()
            emulator.place(b"\x04" + os.urandom(6))

    print("Scan a card's barcode (or type its code) and press Enter; then place a blank sticker "
          "on the NFC reader.", flush=True)
    try:
        n = enroll(sys.stdin, uids, enrolments, args.game, CARDS, SystemClock(), say)
    except KeyboardInterrupt:
        n = None
    except StoreError as err:  # the file filled up or was found damaged: the pairs saved so far stay
        return fail(str(err), 1)
    finally:
        reader.stop()
        if emulator is not None:
            emulator.close()
    if n is not None:
        print(f"{n} sticker{'s' * (n != 1)} enrolled.")
    return 0


def cmd_nfc_write(args) -> int:
    from ..cards.nfc_write import write_code

    if not (math.isfinite(args.wait) and 0 < args.wait <= 3600):
        return fail("--wait is in seconds, from 1 to 3600")
    def say(line: str) -> None:  # problems on stderr, progress on stdout
        print(line, file=sys.stderr if line.startswith("companion: ") else sys.stdout, flush=True)

    return write_code(args.nfc, args.code, args.wait, say=say)



def add_parsers(sub) -> None:
    en = sub.add_parser("enroll", help="pair blank NFC stickers with cards")
    en.add_argument("game", choices=[g for g in game_choices() if game(g).has_cards], help="the game")
    en.add_argument("--nfc", required=True, type=user_path, help="the PN532's serial port (/dev/serial/by-id/...), or emulated")
    en.add_argument("--store", default=str(DEFAULT_STORE), type=user_path, help="the game database holding the pairings")
    en.set_defaults(func=cmd_enroll)

    nf = sub.add_parser("nfc", help="write a card code onto an NFC sticker")
    nsub = nf.add_subparsers(dest="nfc_command", required=True, metavar="COMMAND",
                             help="write (the only one so far)")
    nw = nsub.add_parser("write", help="write CODE as an NDEF text record, then read it back")
    nw.add_argument("code", help="the card code, e.g. SRS71M")
    nw.add_argument("--nfc", required=True, type=user_path, help="the PN532's serial port (/dev/serial/by-id/...)")
    nw.add_argument("--wait", type=float, default=30.0, help="seconds to wait for a sticker (default 30)")
    nw.set_defaults(func=cmd_nfc_write)
