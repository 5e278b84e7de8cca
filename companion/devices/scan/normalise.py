"""One clean-up for what every card reader delivers: serial lines, keyboard-mode scans and
NFC Text records all pass through :func:`clean_scan` before they become a
:class:`~companion.core.events.CardScanned`.

Barcode scanners are commonly set up to wrap each label in extra characters. What is
stripped, in this order (docs/scanners.md says the same for users):

1. **Framing control characters and white space at either end**: any ASCII control
   character (0x00-0x1F and DEL 0x7F: STX/ETX/EOT framing, CR, LF, Tab, Escape, a GS
   group separator) and spaces, however many.
2. **Configured prefixes and suffixes** (:class:`Framing`, from ``--scan-prefix`` and
   ``--scan-suffix``): exact text the scanner was set up to add, removed once from the
   start or the end, then step 1 again.
3. **An AIM symbology identifier** at the start: ``]``, a letter, one modifier
   character (``]C0`` Code 128, ``]Q1`` QR, ``]E0`` EAN-13 ...; ISO/IEC 15424), then
   step 1 again.

Nothing else is touched: a control character or a byte that is not printable ASCII *inside*
the code makes the whole read garbled (None), never a shorter code, and whatever remains
is checked by the card code's check character (:func:`companion.core.codes.check_code`),
which catches the rest.

>>> clean_scan(b"\\x02]C0SRS71M\\x03\\r\\n"), clean_scan(" SRS71M\\t"), clean_scan(b"SRS\\x0071M")
('SRS71M', 'SRS71M', None)
>>> clean_scan(b"#SRS71M;", Framing(prefixes=("#",), suffixes=(";",)))
'SRS71M'
>>> clean_scan(b"\\r\\n"), clean_scan(b"\\xffSRS71M")
('', None)
"""

from __future__ import annotations

from dataclasses import dataclass

_FRAMING = "".join(map(chr, range(0x20))) + "\x7f "  # control characters and space


@dataclass(frozen=True)
class Framing:
    """Text a scanner was configured to add around every code: ``prefixes`` and
    ``suffixes`` are tried in order and at most one of each is removed. Printable ASCII
    only (control characters are always stripped anyway)."""

    prefixes: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for text in self.prefixes + self.suffixes:
            if not text or not text.isascii() or not text.isprintable():
                raise ValueError(f"a scanner prefix or suffix is printable ASCII text, not {text!r}")


NO_FRAMING = Framing()


def clean_scan(raw: bytes | str, framing: Framing = NO_FRAMING) -> str | None:
    """The code in one read, with framing stripped (see the module docstring).

    Returns ``""`` when nothing but framing was read, and None when what remains holds a
    byte that is not printable ASCII (a garbled read)."""
    if isinstance(raw, bytes):
        if any(byte > 0x7E and byte != 0x7F for byte in raw):
            return None
        raw = raw.decode("ascii")
    elif not raw.isascii():
        return None
    text = raw.strip(_FRAMING)
    for prefix in framing.prefixes:
        if text.startswith(prefix):
            text = text[len(prefix):].strip(_FRAMING)
            break
    for suffix in framing.suffixes:
        if text.endswith(suffix):
            text = text[: -len(suffix)].strip(_FRAMING)
            break
    if len(text) >= 3 and text[0] == "]" and text[1].isalpha():
        text = text[3:].strip(_FRAMING)
    if any(not 0x20 <= ord(ch) <= 0x7E for ch in text):
        return None
    return text


def typed_line(raw: bytes, encoding: str = "utf-8") -> str:
    """One line typed on stdin (``--simulate`` headless), as text: decoded with the
    terminal's ``encoding``; a byte that is not valid there becomes U+FFFD, so the line
    is a garbled scan (or an unknown command) with its verdict, and the lines after it
    are still read.

    >>> typed_line(b"SRS71M\\n"), typed_line(b"SR\\xffS71M\\n")
    ('SRS71M\\n', 'SR\\ufffdS71M\\n')
    """
    try:
        return raw.decode(encoding, errors="replace")
    except LookupError:  # an encoding Python does not know: the table's codes are ASCII anyway
        return raw.decode("utf-8", errors="replace")
