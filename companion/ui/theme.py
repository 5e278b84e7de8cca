"""Colours and type sizes for the table screen (800x480, read from a metre), and the
:class:`FruitLook` every game's pieces are drawn with (each game's own looks are in its
descriptor, ``Game.look``).

High contrast on a dark background; every fruit has a colour AND a letter AND a shape, so
a colour-blind player can tell Strawberry from Pear by the letter or the outline alone.
Fonts are pygame's bundled font (FreeSans bold, opened from its file so a size is its em
in pixels, see "type sizes" below): no system font lookups, so the screen looks the same
on a Pi without a desktop and in headless tests.

>>> look_from(((240, 60, 70), "S", "circle")).letter
'S'
"""

from __future__ import annotations

from dataclasses import dataclass
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

import pygame

Colour = tuple[int, int, int]

# ---------------------------------------------------------------- palette

BG: Colour = (16, 20, 32)            # the screen
PANEL: Colour = (34, 40, 58)         # cards, rows, columns
PANEL_LIGHT: Colour = (52, 60, 84)   # a chosen column, a pressed-looking button
LINE: Colour = (96, 106, 132)        # outlines of empty things
TEXT: Colour = (245, 245, 250)
TEXT_DIM: Colour = (150, 156, 176)
TEXT_DARK: Colour = (16, 20, 32)     # text on a bright fill (highlight, buttons)
GONE: Colour = (70, 76, 96)          # a Valley Fruit-O-Saur already taken

HIGHLIGHT: Colour = (255, 204, 0)    # the active player, the chosen column, the winners
OK: Colour = (40, 200, 90)           # accepted: green tick
BAD: Colour = (235, 60, 60)          # rejected: red cross, a device down
WARN: Colour = (255, 140, 0)         # Final Round, a column near the 10-card limit
BUTTON: Colour = (70, 150, 255)      # action buttons
BUTTON_TEXT: Colour = TEXT_DARK
SHADE: tuple[int, int, int, int] = (0, 0, 0, 190)   # behind an open menu

#: Seat colours (seat 1 first): each seat's badge on the start screen and wherever a
#: name cannot be drawn; told apart by the seat number printed on them too.
SEAT_COLOURS: tuple[Colour, ...] = ((235, 64, 64), (80, 150, 255), (80, 200, 90), (250, 220, 50),
                                    (190, 110, 245), (255, 145, 40), (90, 220, 220), (240, 120, 190))

OUTLINE: Colour | None = None        # drawn round every panel and button (high contrast)

#: The palettes a table can choose (config ``theme`` or ``companion run --theme``).
#: "high-contrast": black ground, white text, brighter signal colours and an outline
#: round every box, for low vision and a screen in sunlight. Every colour still comes
#: with a shape and a letter, so nothing depends on the colour alone.
THEMES: dict[str, dict[str, object]] = {
    "default": {"BG": BG, "PANEL": PANEL, "PANEL_LIGHT": PANEL_LIGHT, "LINE": LINE, "TEXT": TEXT,
                "TEXT_DIM": TEXT_DIM, "TEXT_DARK": TEXT_DARK, "GONE": GONE, "HIGHLIGHT": HIGHLIGHT, "OK": OK,
                "BAD": BAD, "WARN": WARN, "BUTTON": BUTTON, "BUTTON_TEXT": BUTTON_TEXT, "OUTLINE": None},
    "high-contrast": {"BG": (0, 0, 0), "PANEL": (18, 18, 18), "PANEL_LIGHT": (48, 48, 48), "LINE": (230, 230, 230),
                      "TEXT": (255, 255, 255), "TEXT_DIM": (225, 225, 225), "TEXT_DARK": (0, 0, 0),
                      "GONE": (110, 110, 110), "HIGHLIGHT": (255, 235, 0), "OK": (0, 230, 100),
                      "BAD": (255, 80, 80), "WARN": (255, 170, 0), "BUTTON": (110, 190, 255),
                      "BUTTON_TEXT": (0, 0, 0), "OUTLINE": (255, 255, 255)},
}
current = "default"


def use(name: str) -> None:
    """Switch every colour to the palette ``name`` (drawing reads them at draw time).
    Raises ValueError naming the themes there are.

    >>> from companion.ui import theme
    >>> use("high-contrast"); theme.BG, theme.TEXT
    ((0, 0, 0), (255, 255, 255))
    >>> use("default"); theme.BG
    (16, 20, 32)
    """
    global current
    if name not in THEMES:
        raise ValueError(f"the theme is one of {', '.join(THEMES)}, not {name!r}")
    globals().update(THEMES[name])
    current = name


# ---------------------------------------------------------------- type sizes
# Every size is the font's EM SIZE IN SCREEN PIXELS, measured, not a nominal number:
# :func:`font` opens pygame's bundled FreeSans file at ``size`` (pygame-ce draws at 72
# dpi, so one point is one pixel; ``pygame.font.Font(None, s)`` instead shrinks ``s`` by
# 0.6875, which is why these numbers once said 20 and drew 13.75). :func:`px` reads the
# size back from the font object, and the fit checker (``companion.ui.fit``,
# ``companion screenshots``) checks that, not the number a screen asked for.
# In FreeSans a 20 px font has 15 px capitals, 11 px lower case and 22-23 px lines
# (tests/test_text_size.py renders them and checks).
#
# "Nothing a player must read is under 20 px at 800x480" (issue 13) means MIN_SIZE:
# every text a widget draws is at least MIN_SIZE px, except the decoration named in
# :data:`DECORATION` below.

TITLE = 30      # "Sugarrr!", the winner line
HUGE = 44       # a column's top number, the deck count in its menu
BIG = 28        # scores, the verdict, button labels
MEDIUM = 22     # names, the prompt
SMALL = 20      # column sizes, table headings: the smallest text on screen
MIN_SIZE = 20   # fitted text never shrinks below this (em px)
#: The verdict's words never shrink below this while a screen's box holds them whole at
#: it (em px; they go to MIN_SIZE only rather than be cut). Why 26: a verdict is read by
#: the whole table, the farthest player about 0.8 m from the panel across a kitchen
#: table. ANSI/HFES 100 and ISO 9241-303 ask for capitals of at least 16 minutes of arc
#: for reading: 3.7 mm at 0.8 m. The 7" DSI panel's pixels are 0.193 mm (154 mm / 800),
#: so 19 px capitals, and FreeSans bold's capitals are 0.73 of its em: 26 px. (MIN_SIZE's
#: 20 px is 12 minutes of arc there: enough for a name read up close, not a verdict.)
VERDICT_MIN = 26

#: Text drawn smaller than :data:`MIN_SIZE` on purpose, because it repeats what is
#: already on screen in a form a player reads: the letter inside a fruit badge or a
#: candy (the badge's colour and shape say the fruit too, and its name or count is
#: printed beside it at full size). Widgets draw these with ``decoration=True``; the
#: fit checker skips them for size, not for overlap.
DECORATION = ("the letter in a fruit badge (fruit_badge)", "the letter on a candy (sugar_blast.candies)")

RADIUS = 10     # corner radius of buttons and panels
PAD = 8         # the gap between panels


def _bundled() -> str:
    """The file of pygame's bundled font (FreeSans bold), opened at true pixel sizes."""
    import os

    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())


#: Glyphs pygame.freetype keeps rasterised per font (its default, 64, is fewer than the
#: letters, digits and signs one screen uses, so every measure re-rasterised glyphs).
GLYPH_CACHE = 1024


def freetype_ready() -> None:
    """Start pygame.freetype (once) with a glyph cache that holds a screen's characters."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init(cache_size=GLYPH_CACHE)


@lru_cache(maxsize=8)
def _face(path: str):
    """The FreeType face of the font file ``path``, loaded once: every size and weight is
    drawn from it (padded lines, kerning off, anti-aliased)."""
    import pygame.freetype

    freetype_ready()
    face = pygame.freetype.Font(path, 0)
    face.pad = True
    face.kerning = False
    face.antialiased = True
    return face


class Kept:
    """Pictures a frame draws again, kept by key up to ``budget`` bytes (4 a pixel), the
    least recently used going first. Callers only blit what they get (never draw on it)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._images: "OrderedDict[tuple, pygame.Surface]" = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple) -> "pygame.Surface | None":
        """The picture kept under ``key``, or None."""
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
        return image

    def keep(self, key: tuple, image: "pygame.Surface") -> "pygame.Surface":
        """Keep ``image`` under ``key`` (the oldest go past the budget); returns it."""
        self._images[key] = image
        self._bytes += image.get_width() * image.get_height() * 4
        while self._bytes > self.budget and len(self._images) > 1:
            _, old = self._images.popitem(last=False)
            self._bytes -= old.get_width() * old.get_height() * 4
        return image

    def clear(self) -> None:
        self._images.clear()
        self._bytes = 0


#: Bytes of rendered text every :class:`TextFont` together keeps (about two frames'
#: worth of words at 800x480).
RENDERED_BYTES = 4 << 20
RENDERED = Kept(RENDERED_BYTES)
#: Bytes of drawn shapes kept: rounded boxes (:func:`companion.ui.widgets.panel`: a busy
#: frame's cover about 2.5 MB, Sugar Heist's, and drawing each corner afresh was a quarter
#: of a frame) and Sugar Blast's candies (issue 24).
SHAPES = Kept(4 << 20)


def for_screen(image: pygame.Surface) -> pygame.Surface:
    """``image`` (with per-pixel alpha) in the open screen's pixel format, which blits
    several times faster; as it is when no screen is open."""
    return image.convert_alpha() if pygame.display.get_surface() is not None else image


def drawn(size: tuple[int, int], draw: Callable[[pygame.Surface], object]) -> pygame.Surface:
    """A see-through picture ``size`` pixels big with ``draw(picture)`` done on it, for
    the screen (:func:`for_screen`): a shape drawn once to be kept in :data:`SHAPES`."""
    picture = pygame.Surface(size, pygame.SRCALPHA)
    draw(picture)
    return for_screen(picture)


def clear_fonts() -> None:
    """Forget every font, rendered text and kept shape (after ``pygame.font.quit()``, a
    new window: kept pictures are in the old screen's pixel format)."""
    font.cache_clear()
    _face.cache_clear()
    RENDERED.clear()
    SHAPES.clear()


class TextFont:
    """pygame.font.Font's drawing API (``render``, ``size``, ``get_height``,
    ``get_linesize``, ``get_ascent``, ``bold``, ``point_size``) over pygame.freetype, with
    kerning off.

    Why: SDL_ttf (pygame.font) applies the bundled FreeSans's kerning table with hinted,
    whole-pixel advances, which opens gaps inside words at the sizes the screens use
    ("bat tle", "f rom", "ket tle" at 20-24 px); pygame.freetype draws the same font
    without them (and about 4 % narrower). ``render`` pads every line to the font's full
    height, as pygame.font does, so text sits on one baseline whatever its letters."""

    def __init__(self, path: str, size: int, bold: bool = False):
        self._face = _face(path)  # one FreeType face per file, shared by every size
        self._path = path
        self._bold = bool(bold)
        self.point_size = size
        self._measure()

    def _style(self) -> int:
        import pygame.freetype

        return pygame.freetype.STYLE_STRONG if self._bold else pygame.freetype.STYLE_NORMAL

    def _measure(self) -> None:
        """The font's line metrics, worked out once (FreeType asks are not free)."""
        face, size = self._face, self.point_size
        self._ascent, self._descent = face.get_sized_ascender(size), face.get_sized_descender(size)
        self._linesize = face.get_sized_height(size)

    @property
    def bold(self) -> bool:
        return self._bold

    @bold.setter
    def bold(self, on: bool) -> None:
        self._bold = bool(on)

    def render(self, text: str, antialias: bool, color, bgcolor=None) -> pygame.Surface:
        """``text`` as a surface as tall as the font's lines (an empty line: 1 px wide).
        The last :data:`RENDERED_BYTES` of rendered text are kept: a frame redraws mostly
        the same words, and callers only blit the surface (never draw on it)."""
        key = (self._path, self.point_size, self._bold, text, tuple(color),
               None if bgcolor is None else tuple(bgcolor))
        image = RENDERED.get(key)
        if image is not None:
            return image
        if not text:
            image = pygame.Surface((1, self.get_height()), pygame.SRCALPHA)
        else:
            image, _ = self._face.render(text, fgcolor=color, bgcolor=bgcolor, style=self._style(),
                                         size=self.point_size)
            image = for_screen(image)
        return RENDERED.keep(key, image)

    def size(self, text: str) -> tuple[int, int]:
        """Width and height of ``text`` drawn by :meth:`render`, in pixels."""
        if not text:
            return 1, self.get_height()
        return self._face.get_rect(text, style=self._style(), size=self.point_size).size

    def get_height(self) -> int:
        return self._ascent - self._descent

    def get_linesize(self) -> int:
        return self._linesize

    def get_ascent(self) -> int:
        return self._ascent

    def get_descent(self) -> int:
        return self._descent


@lru_cache(maxsize=96)
def font(size: int, bold: bool = False) -> "TextFont | pygame.font.Font":
    """pygame's bundled font with an em of ``size`` pixels, drawn by :class:`TextFont`
    (cached; call ``font.cache_clear()`` after ``pygame.font.quit()``)."""
    try:
        f = TextFont(_bundled(), size, bold)
    except (FileNotFoundError, OSError):  # a packaging without the file: scale the default font back
        from ..core import lean_pygame

        lean_pygame.allow("pygame.pkgdata")  # pygame finds its default font through it
        f = pygame.font.Font(None, round(size / 0.6875))
        f.bold = bold
    _SIZES[id(f)] = size
    return f


_SIZES: dict[int, int] = {}


def size_of(f: pygame.font.Font) -> int:
    """The theme size a font from :func:`font` was made at (0 for another font)."""
    return _SIZES.get(id(f), 0)


def px(f: pygame.font.Font) -> int:
    """The em size in pixels ``f`` really draws at (its FreeType point size at 72 dpi)."""
    return int(getattr(f, "point_size", 0) or size_of(f))


# ---------------------------------------------------------------- fruits

@dataclass(frozen=True)
class FruitLook:
    """How one fruit is drawn: its ``colour``, the ``letter`` printed on its card labels
    (the same letter as in its card codes) and a ``shape`` name understood by
    :func:`companion.ui.widgets.fruit_badge`: circle, square, triangle, diamond, hexagon,
    pentagon or star."""

    colour: Colour
    letter: str
    shape: str


UNKNOWN_LOOK = FruitLook(TEXT_DIM, "?", "circle")


def look_from(spec) -> FruitLook:
    """A look from a game descriptor's ``look`` entry: ``(colour, letter, shape)``."""
    colour, letter, shape = spec
    return FruitLook(tuple(colour), letter, shape)


def dim(colour: Colour, factor: float = 0.35) -> Colour:
    """``colour`` darkened toward the background, for fills behind bright text."""
    return tuple(int(b + (c - b) * factor) for c, b in zip(colour, BG))  # type: ignore[return-value]
