"""Card codes: one short code per physical card, with a game prefix and a check character.

A code is always :data:`CODE_LENGTH` (6) upper-case characters from ``0-9A-Z``::

    SR S7 1 K
    |  |  | +-- check character, ISO/IEC 7064 MOD 37,36 (hybrid) over the first five
    |  |  +---- the rest of the body (here: copy 1)
    |  +------- body: what the card is (here: Strawberry 7)
    +---------- game prefix (SR Sugarrr!, SH Sugar Heist, SB Sugar Blast, SD Sweet Deals)

Why this shape: every code has the same length, so a scan that lost or gained a
character is the wrong length and rejected. Only ``0-9A-Z`` is used, which fits Code 128
and a QR code in alphanumeric mode.

What the check character catches, exactly (``tests/test_codes.py`` checks every case by
enumerating the check's 36 running values):

* **every single changed character**, in any of the six places, the check included;
* **every swap of two neighbours but one kind**: a swap of two neighbouring characters
  whose values are next to each other in ``0-9A-Z`` (``0 1``, ``1 2``, ... ``Y Z``, and
  ``Z 0``) passes when the check's running value before them plus the smaller one
  (``Z`` counts as -1 beside ``0``) is 18 modulo 36 (:func:`swap_passes`). That is 1 in
  630 neighbour swaps of distinct characters at a given place; the check character's own
  place is included (``SDC310`` -> ``SDC301``).

Printed codes stay as they are (they are on stickers and NFC tags already; a stronger
check would change every label). What closes the gap is the catalogue: no printed card is
one changed character or one neighbour swap away from another printed card (checked for
every game in the tests), and a code that passes the check but is no card of the game
is refused ("... is not a Sugarrr! card I know: check the sticker", or "That card could
not be read" where the card would be hidden). So a garbled scan is never read as
another card.

>>> make_code("SR", "S71")
'SRS71M'
>>> check_code("SRS71M")
('SR', 'S71')
>>> check_code("SRS17M")
Traceback (most recent call last):
...
companion.core.errors.BadScan: That scan did not read right: scan the card again.
"""

from __future__ import annotations

import string

from .errors import BadScan

#: A read that is no card code, in the table's words: what the reader sent is never shown
#: (a child cannot read a jumble of letters; it goes to the log as ``raw``).
GARBLED = "That scan did not read right: scan the card again."
#: One card read twice in one go (a scanner set to send each code twice, or a slow Enter).
DOUBLED = "The scanner read that card twice at once: scan it again."

ALPHABET = string.digits + string.ascii_uppercase
CODE_LENGTH = 6
PREFIX_LENGTH = 2
BODY_LENGTH = CODE_LENGTH - PREFIX_LENGTH - 1

#: Game slug -> code prefix, and slug -> display name. Filled by the registry
#: (``companion.games``) through :func:`register_prefix`: core names no game. Prefixes
#: are fixed forever once printed on stickers.
PREFIXES: dict[str, str] = {}
GAME_NAMES: dict[str, str] = {}


def register_prefix(slug: str, prefix: str, name: str) -> None:
    """Reserve ``prefix`` for the game ``slug`` (display ``name``). Raises ValueError when
    another game holds the prefix or it is not two characters of the code alphabet."""
    if len(prefix) != PREFIX_LENGTH or any(ch not in ALPHABET for ch in prefix):
        raise ValueError(f"a code prefix is {PREFIX_LENGTH} characters from 0-9A-Z, not {prefix!r}")
    holder = next((g for g, p in PREFIXES.items() if p == prefix), slug)
    if holder != slug:
        raise ValueError(f"prefix {prefix} already belongs to {holder}")
    PREFIXES[slug] = prefix
    GAME_NAMES[slug] = name


def check_character(payload: str) -> str:
    """The ISO/IEC 7064 MOD 37,36 check character for ``payload`` (``0-9A-Z`` only).

    Raises ValueError for a character outside the alphabet.
    """
    m = 36
    p = m
    for ch in payload:
        value = ALPHABET.find(ch)
        if value < 0:
            raise ValueError(f"{ch!r} is not allowed in a card code")
        p = (p + value) % m or m
        p = (2 * p) % (m + 1)
    return ALPHABET[(m + 1 - p) % m]


def _running(payload: str) -> int:
    """The MOD 37,36 running value after ``payload`` (1-36; 36 before any character)."""
    p = 36
    for ch in payload:
        p = (p + ALPHABET.index(ch)) % 36 or 36
        p = (2 * p) % 37
    return p


def swap_passes(before: str, a: str, b: str) -> bool:
    """Would swapping the neighbours ``a b`` (following the characters ``before`` of a
    code) leave the check character valid? True exactly for the one kind of swap the
    check misses (see the module docstring): values next to each other in the alphabet,
    and the running value before them plus the smaller is 18 modulo 36.

    >>> swap_passes("SDC3", "1", "0"), swap_passes("SDC3", "1", "2")
    (True, False)
    """
    x, y = sorted((ALPHABET.index(a), ALPHABET.index(b)))
    if (x, y) == (0, 35):
        x = -1  # Z beside 0: the alphabet's values wrap
    elif y - x != 1:
        return False
    return (_running(before) + x) % 36 == 18


def make_code(prefix: str, body: str) -> str:
    """Build the full code for a card: ``prefix + body + check``.

    Raises ValueError when the prefix or body has the wrong length or characters.
    """
    if len(prefix) != PREFIX_LENGTH or len(body) != BODY_LENGTH:
        raise ValueError(f"prefix must be {PREFIX_LENGTH} and body {BODY_LENGTH} characters: {prefix!r} {body!r}")
    payload = prefix + body
    return payload + check_character(payload)


#: What an NFC reader reports for a sticker that holds no card code and is not enrolled:
#: this prefix and the tag's UID, so the scan still gets a verdict (rejected, with
#: :data:`UNPAIRED_MESSAGE`) and the log shows which sticker it was.
UNPAIRED_PREFIX = "NFC-UID:"
UNPAIRED_MESSAGE = "This sticker is not paired with a card: run `companion enroll`."


def unpaired_tag(uid_hex: str) -> str:
    """The scan an NFC reader delivers for a sticker that is not paired with a card.

    >>> unpaired_tag("04a1b2")
    'NFC-UID:04A1B2'
    """
    return UNPAIRED_PREFIX + uid_hex.upper()


def normalise(raw: str) -> str:
    """What a reader delivered, trimmed of surrounding white space and upper-cased."""
    return raw.strip().upper()


def check_code(raw: str) -> tuple[str, str]:
    """Validate a scanned code and split it into ``(prefix, body)``.

    Raises :class:`BadScan` when the length, characters or check character are wrong;
    the message is meant for the table. The prefix is not checked against a game here.
    """
    code = normalise(raw)
    if not code:
        raise BadScan(None, "The scanner sent an empty read: scan the card again.")
    if code.startswith(UNPAIRED_PREFIX):
        raise BadScan(None, UNPAIRED_MESSAGE)
    if len(code) == 2 * CODE_LENGTH and code[:CODE_LENGTH] == code[CODE_LENGTH:]:
        raise BadScan(None, DOUBLED)
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        raise BadScan(None, GARBLED)
    if check_character(code[:-1]) != code[-1]:
        raise BadScan(None, GARBLED)
    return code[:PREFIX_LENGTH], code[PREFIX_LENGTH:-1]


def game_of(raw: str) -> str | None:
    """The game slug of a valid code, or None when its prefix belongs to no game.

    Raises :class:`BadScan` when the code itself is garbled.
    """
    prefix, _ = check_code(raw)
    return next((game for game, p in PREFIXES.items() if p == prefix), None)
