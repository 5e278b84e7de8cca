"""``companion nfc write CODE --nfc PATH``: write a card code onto an NFC sticker as an
NDEF Text record, then read it back to check. The sticker then needs no enrolment."""

from __future__ import annotations

import errno
import termios
import time

import serial

from ..core.codes import ALPHABET, CODE_LENGTH, game_of, normalise
from ..core.errors import BadScan
from ..devices.scan.pn532 import NdefError, Pn532, Pn532Error, TagError


def lookup_cards(code: str) -> dict:
    """The catalogue of the game a well-formed code belongs to ({} when none is built yet).
    Raises BadScan for a garbled code."""
    from ..games import GAMES

    desc = GAMES.get(game_of(code) or "")
    if desc is None or not desc.has_cards:
        return {}
    return desc.catalogue()


def typed_code_problem(code: str) -> str:
    """Why a typed ``code`` (normalised) is not a card code, in words for the person who
    typed it: nothing was scanned, so no "scan it again"."""
    shown = repr(code) if len(code) <= 20 else repr(code[:20] + "...")
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return (f"{shown} is not a card code: a code is {CODE_LENGTH} letters and digits, such as SRS71M "
                "(`companion cards GAME` lists every card's code)")
    return (f"{shown} is not a card code: its last character does not match the rest (a typing mistake?); "
            "`companion cards GAME` lists every card's code")


def write_code(port_path: str, code: str, wait: float = 30.0, say=print) -> int:
    """Wait up to ``wait`` seconds for a sticker and write ``code`` to it. Returns an exit
    status: 0 written and verified, 1 reader or sticker problem, 2 a bad code."""
    code = normalise(code)
    try:
        known = code in lookup_cards(code)
    except BadScan:
        say(f"companion: {typed_code_problem(code)}")
        return 2
    if not known:
        say(f"companion: {code} is not a card of any game I know: check it with `companion cards`")
        return 2
    try:
        port = serial.Serial(port_path, 115200, timeout=0.02)
    except (serial.SerialException, OSError) as exc:
        why = getattr(exc, "errno", None)
        if why in (errno.ENOENT, errno.ENOTDIR):  # ENOTDIR: a file where the path has a folder
            say(f"companion: no NFC reader found at {port_path}: check its USB cable, and the path "
                "(ls /dev/serial/by-id/)")
        elif why == errno.EISDIR or isinstance(exc.__context__, termios.error):  # a folder, or not a serial port
            say(f"companion: {port_path} is not an NFC reader: give the reader's path "
                "(ls /dev/serial/by-id/)")
        elif why == errno.EACCES:
            say(f"companion: the NFC reader at {port_path} cannot be opened: permission denied: add the user "
                "to the dialout group (sudo adduser $USER dialout)")
        else:
            say(f"companion: cannot open the NFC reader at {port_path}: {exc}")
        return 1
    try:
        pn532 = Pn532(port)
        pn532.begin()
        say(f"Place a blank NTAG213/215 sticker on the reader to write {code}...")
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            target = pn532.list_passive_target()
            if target is not None:
                pn532.write_ndef_text(target, code)
                back = pn532.read_ndef_text(target)
                if back != code:
                    say(f"companion: the sticker read back {back!r}, not {code}: try another sticker")
                    return 1
                say(f"Written and checked: sticker {target.uid.hex().upper()} now reads {code}.")
                return 0
            time.sleep(0.05)
        say(f"companion: no sticker seen in {wait:.0f} s")
        return 1
    except (NdefError, TagError, Pn532Error) as exc:
        say(f"companion: could not write the sticker: {exc}")
        return 1
    except (serial.SerialException, OSError, termios.error) as exc:
        say(f"companion: the NFC reader stopped answering (unplugged?): {exc}")
        return 1
    finally:
        port.close()
