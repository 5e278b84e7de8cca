"""Text in any script: pygame's own font first, then wide-coverage system fonts, glyph by glyph.

pygame's bundled font covers Latin only; a name like ``李雷`` or ``👧🏽Mia`` would show as
empty boxes. Each character is drawn with the first font that has it: the bundled font,
then the fonts fontconfig finds for :data:`FALLBACK_FAMILIES` (Noto on Raspberry Pi OS:
``sudo apt install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji``). A character
no font has is left out rather than drawn as a box; :func:`display_name` then falls back
to the seat when nothing of a name is left: a badge in the seat's colour with its number,
then "Player 2" (the badge is a private-use character, :func:`seat_mark`, that
:func:`render` draws as a disc); :func:`missing` says which characters are lost, for a
warning at start.

>>> import pygame; _ = pygame.font.init()
>>> missing("Mia")
''
>>> display_name("\\uffff\\ufffe", 2) == seat_mark(2) + " Player 2"
True
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import pygame

#: fontconfig family names tried in order after pygame's own font (no spaces, lower case,
#: as :func:`pygame.font.match_font` wants them).
FALLBACK_FAMILIES = ("notosans", "notosanscjksc", "notosanscjkjp", "notosanscjk", "notosanssymbols2",
                     "notocoloremoji", "notoemoji", "dejavusans", "droidsansfallback", "unifont")

# Characters that draw nothing on their own: joiners, variation selectors, skin tones.
_SILENT = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF} | set(range(0xFE00, 0xFE10)) | set(range(0x1F3FB, 0x1F400))


@lru_cache(maxsize=1)
def fallback_paths() -> tuple[str, ...]:
    """The font files of :data:`FALLBACK_FAMILIES` found on this system, in order."""
    paths: list[str] = []
    for family in FALLBACK_FAMILIES:
        try:
            path = pygame.font.match_font(family)
        except Exception:  # no fontconfig (fc-list missing): only the bundled font
            path = None
        if path and path not in paths:
            paths.append(path)
    return tuple(paths)


@lru_cache(maxsize=16)
def _glyphs(path: str | None):
    import pygame.freetype

    from .theme import _bundled, freetype_ready

    freetype_ready()
    # The bundled font by its file: pygame finds it for None through importlib.resources
    # and zipfile, imports a screen would otherwise wait for (issue 24).
    return pygame.freetype.Font(path or _bundled(), 24)


@lru_cache(maxsize=4096)
def has_glyph(path: str | None, ch: str) -> bool:
    """Does the font at ``path`` (None: pygame's bundled font) draw ``ch``?"""
    try:
        metrics = _glyphs(path).get_metrics(ch)
    except (pygame.error, OSError):
        return False
    return bool(metrics) and metrics[0] is not None


def font_for(ch: str) -> str | None | bool:
    """The first font path that has ``ch`` (None: the bundled font); False when none has."""
    if ord(ch) < 0x250 or has_glyph(None, ch):  # Latin: the bundled font, fast
        return None
    for path in fallback_paths():
        if has_glyph(path, ch):
            return path
    return False


def silent(ch: str) -> bool:
    return ord(ch) in _SILENT or unicodedata.category(ch) in ("Mn", "Cf") and ord(ch) > 0x2FF


def runs(text: str) -> list[tuple[str | None, str]]:
    """``text`` split into ``(font path, piece)`` runs; characters no font has are dropped."""
    out: list[tuple[str | None, str]] = []
    for ch in text:
        if _seat_of(ch) is not None:
            out.append(("badge", ch))
            continue
        if silent(ch):
            continue
        where = font_for(ch)
        if where is False:
            continue
        if out and out[-1][0] == where:
            out[-1] = (where, out[-1][1] + ch)
        else:
            out.append((where, ch))
    return out


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def visual(text: str) -> str:
    """``text`` in the order its letters are drawn left to right. FreeType draws glyphs
    in the order given and pygame-ce does no text shaping, so a Hebrew or Arabic name
    would read mirrored: the Unicode Bidirectional Algorithm (python-bidi's
    ``get_display``, UAX #9) puts each right-to-left run in display order, and Arabic
    letters are first given their joined forms (arabic-reshaper: initial, medial, final
    and isolated presentation forms, as a shaping engine would pick them). Text with no
    right-to-left letter is returned as it is. The limits: presentation forms cover
    Arabic's letters and lam-alef ligatures, not every ligature a full shaper (HarfBuzz)
    makes, nor marks placed over letters; a line is reordered on its own."""
    if not any(_rtl(ch) for ch in text):
        return text
    return _visual(text)


@lru_cache(maxsize=512)
def _visual(text: str) -> str:
    from bidi.algorithm import get_display  # python-bidi 0.4 and later

    if any(unicodedata.bidirectional(ch) == "AL" for ch in text):
        import arabic_reshaper

        text = arabic_reshaper.reshape(text)
    return get_display(text)


def plain(text: str) -> bool:
    """Can pygame's bundled font draw all of ``text`` by itself (the fast path)?"""
    return text.isascii() or all(ord(ch) < 0x250 for ch in text)


def missing(text: str) -> str:
    """The characters of ``text`` no font on this system can draw."""
    return "".join(ch for ch in text if not silent(ch) and font_for(ch) is False)


#: Seat badges are drawn for these private-use characters (seat 1 is BADGE + 1).
BADGE = 0xF0000


def seat_mark(seat: int) -> str:
    """The character :func:`render` draws as seat ``seat``'s badge (its colour, its number)."""
    return chr(BADGE + seat)


def _seat_of(ch: str) -> int | None:
    n = ord(ch) - BADGE
    return n if 1 <= n <= 99 else None


def display_name(name: str, seat: int) -> str:
    """``name`` as the screen can draw it: without the characters no font has, or the
    seat's badge and ``Player <seat>`` when no letter or digit of it is left."""
    if plain(name):
        return name
    shown = "".join(piece for _, piece in runs(name)).strip()
    if not any(ch.isalnum() for ch in shown):
        return f"{seat_mark(seat)} Player {seat}"
    return shown


@lru_cache(maxsize=64)
def _font_at(path: str, size: int, bold: bool) -> pygame.font.Font:
    # ``size`` is the em in pixels, as for the bundled font (theme.font)
    f = pygame.font.Font(path, max(6, size))
    f.bold = bold
    return f


def size(text: str, base: pygame.font.Font, px: int, bold: bool) -> tuple[int, int]:
    """Width and height of ``text`` drawn with :func:`render`."""
    if plain(text):
        return base.size(text)
    w, h = 0, base.get_height()
    for path, piece in runs(visual(text)):
        if path == "badge":
            w += base.get_height()
            continue
        f = base if path is None else _font_at(path, px, bold)
        pw, ph = f.size(piece)
        w, h = w + pw, max(h, ph)
    return w, h


def render(text: str, base: pygame.font.Font, px: int, bold: bool, colour) -> pygame.Surface:
    """``text`` drawn glyph by glyph with the first font that has each character."""
    if plain(text):
        return base.render(text, True, colour)
    pieces = []
    for path, piece in runs(visual(text)):
        if path == "badge":
            pieces.append(_badge(_seat_of(piece), base))
            continue
        f = base if path is None else _font_at(path, px, bold)
        try:
            pieces.append(f.render(piece, True, colour))
        except pygame.error:  # a colour emoji font at a size it lacks: leave it out
            continue
    if not pieces:
        return base.render("", True, colour)
    w = sum(p.get_width() for p in pieces)
    h = max(max(p.get_height() for p in pieces), base.get_height())
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    x = 0
    for p in pieces:
        out.blit(p, (x, (h - p.get_height()) // 2))
        x += p.get_width()
    return out


def _badge(seat: int, base: pygame.font.Font) -> pygame.Surface:
    """Seat ``seat``'s badge as tall as ``base``'s lines: a disc in the seat's colour
    with the seat number on it."""
    from . import theme

    d = base.get_height()
    out = pygame.Surface((d, d), pygame.SRCALPHA)
    colour = theme.SEAT_COLOURS[(seat - 1) % len(theme.SEAT_COLOURS)]
    pygame.draw.circle(out, colour, (d // 2, d // 2), d // 2)
    number = base.render(str(seat), True, theme.TEXT_DARK)
    out.blit(number, number.get_rect(center=(d // 2, d // 2)))
    return out


def clear() -> None:
    """Forget fonts (after ``pygame.font.quit()``)."""
    _font_at.cache_clear()
