"""NDEF on NFC Forum Type 2 tags (NTAG213/215): finding the NDEF message in the tag's
data area (TLV blocks from page 4) and the card code in its well-known Text record.

Layouts from the NFC Forum Type 2 Tag and NDEF/RTD Text specifications: TLV ``03 L V``
(L = 0xFF then two bytes for long messages), terminator ``FE``; a Text record's payload
starts with a status byte (bit 7 UTF-16, bits 5-0 language code length), then the
language code, then the text.
"""

from __future__ import annotations

from companion.core.errors import DeviceError


class NdefError(DeviceError, ValueError):
    """The tag's TLV blocks or NDEF records are malformed."""


class _ShortArea(Exception):
    def __init__(self, needed: int):
        self.needed = needed


def ndef_message(area: bytes) -> bytes | None:
    """The NDEF message in a Type 2 tag data area (from page 4: TLV blocks T L V).

    T 0x00 NULL (no L), 0xFE terminator, 0x03 NDEF message, others skipped; L is one
    byte, or FF then two bytes. None when there is no NDEF TLV. Raises _ShortArea(n)
    when the first n bytes are needed to decide.

    >>> ndef_message(b"\\x01\\x03\\xa0\\x0c\\x44\\x03\\x02\\xd1\\x01\\xfe"), ndef_message(b"\\xfe")
    (b'\\xd1\\x01', None)
    """
    i = 0
    while True:
        if i >= len(area):
            raise _ShortArea(i + 1)
        kind = area[i]
        if kind == 0x00:
            i += 1
            continue
        if kind == 0xFE:
            return None
        if i + 2 > len(area) or (area[i + 1] == 0xFF and i + 4 > len(area)):
            raise _ShortArea(i + 4)
        length, head = (area[i + 2] << 8 | area[i + 3], 4) if area[i + 1] == 0xFF else (area[i + 1], 2)
        end = i + head + length
        if kind == 0x03:
            if end > len(area):
                raise _ShortArea(end)
            return bytes(area[i + head : end])
        i = end


def text_record(message: bytes) -> str | None:
    """The text of the first NFC Forum well-known Text record ('T') in an NDEF message.

    Record: header (MB ME CF SR IL TNF), TYPE LENGTH, PAYLOAD LENGTH (1 byte if SR else
    4), [ID LENGTH], TYPE, [ID], PAYLOAD. Text payload: status byte (bit 7 UTF-16, bits
    0-5 language code length), language code, text. None when there is no Text record.
    """
    i = 0
    try:
        while i < len(message):
            header, type_len = message[i], message[i + 1]
            pos = i + 2
            size = 1 if header & 0x10 else 4
            payload_len = int.from_bytes(message[pos : pos + size], "big")
            pos += size
            id_len = message[pos] if header & 0x08 else 0
            pos += 1 if header & 0x08 else 0
            rtype = message[pos : pos + type_len]
            pos += type_len + id_len
            payload = message[pos : pos + payload_len]
            if len(payload) < payload_len:
                raise NdefError("NDEF record runs past the end of the message")
            if header & 0x07 == 0x01 and rtype == b"T" and not header & 0x20 and payload:
                lang_len = payload[0] & 0x3F
                return _decode_text(payload[1 + lang_len :], utf16=bool(payload[0] & 0x80))
            if header & 0x40:  # ME: the last record
                return None
            i = pos + payload_len
    except (IndexError, UnicodeDecodeError) as exc:
        raise NdefError(f"malformed NDEF message: {exc}") from exc
    return None


def _decode_text(text: bytes, utf16: bool) -> str:
    """A Text record's text. UTF-16 follows its byte-order mark when there is one and is
    big-endian when there is none (NFC Forum Text RTD 3.2.1; RFC 2781 section 4.3), whatever
    the byte order of the machine reading it.

    >>> _decode_text(b"\\x00S\\x00R", utf16=True), _decode_text(b"\\xff\\xfeS\\x00", utf16=True)
    ('SR', 'S')
    """
    if not utf16:
        return text.decode("utf-8")
    if text[:2] in (b"\xfe\xff", b"\xff\xfe"):
        return text.decode("utf-16")  # the BOM decides, and is dropped
    return text.decode("utf-16-be")


def ndef_text_message(text: str, lang: str = "en") -> bytes:
    """An NDEF message of one UTF-8 Text record (MB, ME, SR when it fits)."""
    payload = bytes([len(lang)]) + lang.encode("ascii") + text.encode("utf-8")
    if len(payload) < 256:
        return bytes([0xD1, 1, len(payload)]) + b"T" + payload
    return bytes([0xC1, 1]) + len(payload).to_bytes(4, "big") + b"T" + payload


def ndef_tlv(message: bytes) -> bytes:
    """A Type 2 tag data area holding ``message``: NDEF TLV then the terminator TLV."""
    length = bytes([len(message)]) if len(message) < 0xFF else b"\xff" + len(message).to_bytes(2, "big")
    return b"\x03" + length + message + b"\xfe"
