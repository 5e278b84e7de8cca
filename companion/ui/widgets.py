"""Small drawing helpers shared by every game's screen.

Each helper draws onto a surface and returns the rect it used, so a screen can turn the
rect into a touch target (:class:`companion.ui.app.Button`). Text always fits: it shrinks
to :data:`~companion.ui.theme.MIN_SIZE` (20 px em, see :mod:`companion.ui.theme`) and then
ends in "..." rather than spill over.

>>> import pygame; _ = pygame.font.init()
>>> s = pygame.Surface((200, 60))
>>> draw_text(s, "Blueberries 10", pygame.Rect(0, 0, 200, 60), 40).width <= 200
True
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass

import pygame

from . import fonts, theme
from .theme import Colour, FruitLook

Rect = pygame.Rect


# ---------------------------------------------------------------- text

#: (size, bold, text) -> pixels of text the bundled font draws alone: fitting and wrapping
#: ask for the same few hundred strings on every frame.
_WIDTHS: dict[tuple[int, bool, str], int] = {}


def width_of(font: pygame.font.Font, text: str) -> int:
    """Pixels ``text`` takes in ``font`` (a theme font), with per-glyph fallback fonts."""
    px = theme.size_of(font)
    key = (px, font.bold, text)
    width = _WIDTHS.get(key)  # only bundled-font text is kept, so a hit needs no other check
    if width is None:
        if not px or not fonts.plain(text):  # other scripts depend on the fallback fonts found: measure
            return fonts.size(text, font, px, font.bold)[0]
        if len(_WIDTHS) > 20_000:  # a bound, not a policy: the same few hundred strings come back
            _WIDTHS.clear()
        width = _WIDTHS[key] = fonts.size(text, font, px, font.bold)[0]
    return width


def render(font: pygame.font.Font, text: str, colour: Colour) -> pygame.Surface:
    """``text`` in ``font``, each character no bundled glyph has from a system font."""
    return fonts.render(text, font, theme.size_of(font), font.bold, colour)


def fit_font(text: str, width: int, size: int, bold: bool = False,
             min_size: int = theme.MIN_SIZE) -> pygame.font.Font:
    """The largest default font from ``size`` down to ``min_size`` that fits ``text``
    into ``width`` pixels (``min_size`` when nothing fits)."""
    if size > min_size:
        wide = width_of(theme.font(size, bold), text)
        if wide > width:
            size = _largest(min_size, size, lambda s: width_of(theme.font(s, bold), text) <= width,
                            size * width // max(wide, 1))  # a text that draws nothing is 0 wide
    return theme.font(max(size, min_size), bold)


def _largest(low: int, high: int, fits, guess: int) -> int:
    """The largest size from ``high - 1`` down to ``low`` for which ``fits(size)``, or
    ``low``: from ``guess``, in steps that double until one fits and one does not, then
    halving between them. Text grows with its size, so this is what trying size after
    size from the top finds, with a few measures instead of one per size: each measure
    at a new size loads every glyph of the text at that size (a new message's frame was
    mostly that; issue 24)."""
    lo, hi = low, high  # lo fits (or is low), hi does not (high is known not to)
    if hi - lo <= 1:
        return lo
    probe, step = max(lo + 1, min(hi - 1, guess)), 1
    if fits(probe):
        lo = probe
        while lo + step < hi and fits(lo + step):
            lo, step = lo + step, step * 2
        hi = min(hi, lo + step)
    else:
        hi = probe
        while hi - step > lo and not fits(hi - step):
            hi, step = hi - step, step * 2
        lo = max(lo, hi - step)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


def _clip(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` cut to ``width`` pixels with "..." when it does not fit."""
    if width_of(font, text) <= width:
        return text
    while text and width_of(font, text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


#: (text, width, size, bold, min_size) -> (the size it fits at, the text as shown): a frame
#: draws mostly the same words in the same boxes as the one before, and fitting them asks
#: the font for widths size after size (a third of a frame's time on a Zero 2 W; issue 24).
_FITTED: dict[tuple[str, int, int, bool, int], tuple[int, str]] = {}


def _fitted(text: str, width: int, size: int, bold: bool, min_size: int) -> tuple[pygame.font.Font, str]:
    key = (text, width, size, bold, min_size)
    got = _FITTED.get(key)
    if got is not None:
        return theme.font(got[0], bold), got[1]
    font = fit_font(text, width, size, bold, min_size)
    shown = _clip(text, font, width)
    if theme.size_of(font):  # a theme font (always, unless the packaging lacks the bundled one): kept
        if len(_FITTED) > 20_000:  # a bound, not a policy (as _WIDTHS)
            _FITTED.clear()
        _FITTED[key] = (theme.size_of(font), shown)
    return font, shown


def draw_text(surface: pygame.Surface, text: str, rect: Rect, size: int, colour: Colour | None = None,
              bold: bool = False, align: str = "left", min_size: int = theme.MIN_SIZE,
              decoration: bool = False) -> Rect:
    """Draw one line of ``text`` inside ``rect``, vertically centred, aligned ``left``,
    ``center`` or ``right``, shrunk to fit its width. Returns the drawn text's rect.
    ``decoration``: one of :data:`theme.DECORATION`, allowed under the minimum size."""
    colour = theme.TEXT if colour is None else colour
    text = text.replace(SOFT_HYPHEN, "")
    font, shown = _fitted(text, rect.width, size, bold, min_size)
    image = render(font, shown, colour)
    box = image.get_rect(centery=rect.centery)
    if align == "center":
        box.centerx = rect.centerx
    elif align == "right":
        box.right = rect.right
    else:
        box.left = rect.left
    surface.blit(image, box)
    _note(text, font, shown != text, rect, surface, [(image, box)], decoration)
    return box


# ---------------------------------------------------------------- what was drawn

@dataclass(frozen=True)
class Drawn:
    """One piece of text a widget drew: at ``size`` (the em in pixels its font really
    draws at, :func:`theme.px`), ``clipped`` when it ended in "..." or lost lines, inside
    the box ``rect`` it was given; ``ink`` the pixels its letters cover; ``owner`` the
    button it labels; ``decoration`` one of :data:`theme.DECORATION`."""

    text: str
    size: int
    clipped: bool
    rect: tuple[int, int, int, int]
    ink: tuple[int, int, int, int] = (0, 0, 0, 0)
    owner: tuple[int, int, int, int] | None = None
    decoration: bool = False

    @property
    def readable(self) -> bool:
        """Whole and at least :data:`~companion.ui.theme.MIN_SIZE` px (decoration: whole)."""
        return not self.clipped and (self.decoration or self.size >= theme.MIN_SIZE)


class Record(list):
    """The :class:`Drawn` texts of a frame, the ``buttons`` the widgets drew (rects),
    and what each text's pixels looked like right after it was drawn (``marks``)."""

    def __init__(self) -> None:
        super().__init__()
        self.buttons: list[tuple[int, int, int, int]] = []
        self.marks: list[tuple[Drawn, pygame.Surface, pygame.Surface] | None] = []
        self.covered = 0  # the texts before this one are under a menu's shade

    def visible(self) -> list[Drawn]:
        """The texts not under a menu's shade."""
        return self[self.covered:]


_drawn: Record | None = None
_owner: tuple[int, int, int, int] | None = None


@contextmanager
def record_text():
    """Collect a :class:`Drawn` for every text the widgets draw inside the ``with``
    (tests and ``companion screenshots`` check that messages fit and nothing overlaps,
    :func:`companion.ui.fit.overlaps`)."""
    global _drawn
    outer, _drawn = _drawn, Record()
    try:
        yield _drawn
    finally:
        _drawn = outer


@contextmanager
def unrecorded():
    """Draw inside the ``with`` without recording it (a redraw that is put back)."""
    global _drawn
    outer, _drawn = _drawn, None
    try:
        yield
    finally:
        _drawn = outer


def covered() -> None:
    """Everything drawn so far is meant to be covered (a menu shades the screen): its
    texts no longer count for overlaps."""
    if _drawn is not None:
        _drawn.marks = [None] * len(_drawn.marks)
        _drawn.buttons.clear()
        _drawn.covered = len(_drawn)


def _note(text: str, font: pygame.font.Font, clipped: bool, rect: Rect, surface: pygame.Surface | None = None,
          images: list = (), decoration: bool = False) -> None:
    if _drawn is None:
        return
    ink = None
    for image, at in images:
        r = image.get_bounding_rect().move(at.left, at.top)
        if r.width and r.height:
            ink = r if ink is None else ink.union(r)
    ink = ink or Rect(rect.left, rect.top, 0, 0)
    d = Drawn(text, theme.px(font), clipped, tuple(rect), tuple(ink), _owner, decoration)
    _drawn.append(d)
    seen = ink.clip(surface.get_rect()) if surface is not None else Rect(0, 0, 0, 0)
    _drawn.marks.append((d, surface, surface.subsurface(seen).copy()) if seen.width and seen.height else None)


SOFT_HYPHEN = "\u00ad"


def _split_word(word: str, font: pygame.font.Font, width: int) -> list[str]:
    """A word wider than ``width`` in pieces that fit, each but the last ending in "-":
    at its soft hyphens (U+00AD) where it has them, else at the most even cut that fits
    with at least 3 letters on each side. A word that cannot be cut comes back whole."""
    plain_word = word.replace(SOFT_HYPHEN, "")
    if width_of(font, plain_word) <= width:
        return [plain_word]
    if SOFT_HYPHEN in word:
        parts = word.split(SOFT_HYPHEN)
        out, line = [], ""
        for k, part in enumerate(parts):
            trial = line + part
            last = k == len(parts) - 1
            if line and width_of(font, trial + ("" if last else "-")) > width:
                out.append(line + "-")
                line = part
            else:
                line = trial
        return out + [line]
    cuts = [k for k in range(3, len(plain_word) - 2) if width_of(font, plain_word[:k] + "-") <= width]
    if not cuts:
        return [plain_word]
    k = min(cuts, key=lambda k: abs(2 * k - len(plain_word)))
    return [plain_word[:k] + "-", *_split_word(plain_word[k:], font, width)]


#: (size, bold, width, text) -> the lines :func:`wrap` made: the verdict and the prompt are
#: measured on every frame, and a new message is wrapped size after size until it fits.
_WRAPS: dict[tuple[int, bool, int, str], tuple[str, ...]] = {}


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width``; a word too long for a line is
    cut with a hyphen (at its soft hyphens first), or stays whole when it cannot be (the
    caller shrinks the font or clips)."""
    px = theme.size_of(font)
    key = (px, font.bold, width, text)
    got = _WRAPS.get(key)
    if got is None:
        got = tuple(_wrap(text, font, width))
        if px:  # a theme font: kept (as _WIDTHS)
            if len(_WRAPS) > 5_000:  # a bound, not a policy
                _WRAPS.clear()
            _WRAPS[key] = got
    return list(got)


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        plain_word = word.replace(SOFT_HYPHEN, "")
        trial = f"{line} {plain_word}".strip()
        if width_of(font, trial) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        pieces = _split_word(word, font, width)
        lines.extend(pieces[:-1])
        line = pieces[-1]
    if line:
        lines.append(line)
    return lines


#: (text, width, height, size, bold, max_lines, min_size) -> (size, lines, clipped):
#: :func:`draw_wrapped`'s layout, as :data:`_FITTED` is :func:`draw_text`'s.
_WRAPPED: dict[tuple, tuple[int, tuple[str, ...], bool]] = {}


def _one_line(text: str) -> str:
    """``text`` as one line of the words :func:`wrap` lays out (soft hyphens left out)."""
    return " ".join(text.replace(SOFT_HYPHEN, "").split())


def _surely_over(line: str, font: pygame.font.Font, width: int, lines: int) -> bool:
    """Can :func:`wrap` surely not fit a text (``line``: :func:`_one_line` of it) in
    ``lines`` lines of ``width`` px? True when its one-line width is more than that many
    lines hold even if each break took a space and 4 px of kerning out: what
    :func:`_wrapped` tries size after size for a new message is mostly ruled out by one
    width, not by wrapping it."""
    if not line:
        return False
    if lines < 1:
        return True
    return width_of(font, line) > lines * width + (lines - 1) * (width_of(font, " ") + 4)


def _wrapped(text: str, width: int, height: int, size: int, bold: bool, max_lines: int,
             min_size: int) -> tuple[pygame.font.Font, tuple[str, ...], bool]:
    key = (text, width, height, size, bold, max_lines, min_size)
    got = _WRAPPED.get(key)
    if got is not None:
        return theme.font(got[0], bold), got[1], got[2]
    start, flat = size, _one_line(text)

    def over(s: int) -> bool:  # one width says size s cannot fit: no wrapping needed to know
        font = theme.font(s, bold)
        return _surely_over(flat, font, width, min(max_lines, height // font.get_linesize()))

    if size > min_size and over(size):
        flat_wide = width_of(theme.font(size, bold), flat)
        guess = next((s for s in range(size - 1, min_size, -1)  # the lines would hold it in proportion
                      if flat_wide * s <= size * width * min(max_lines, height // theme.font(s, bold).get_linesize())),
                     min_size)  # (a line's height needs no glyph)
        size = _largest(min_size, size, lambda s: not over(s), guess)
    while True:
        font = theme.font(size, bold)
        if size > min_size and over(size):
            size -= 1
            continue
        lines = wrap(text, font, width)
        tall = len(lines) * font.get_linesize()
        wide = max((width_of(font, l) for l in lines), default=0)
        if (len(lines) <= max_lines and tall <= height and wide <= width) or size <= min_size:
            break
        size -= 1
    if len(lines) > max_lines or len(lines) * font.get_linesize() > height:
        # Rather than cut the message: more lines, as many as the box's height holds,
        # at the largest size from the asked one down that then fits.
        for bigger in range(start, min_size - 1, -1):
            f = theme.font(bigger, bold)
            if _surely_over(flat, f, width, height // f.get_linesize()):
                continue
            ls = wrap(text, f, width)
            if len(ls) * f.get_linesize() <= height and max((width_of(f, l) for l in ls), default=0) <= width:
                font, lines = f, ls
                break
    room = max(1, height // font.get_linesize())  # the lines the box holds
    clipped = len(lines) > room or any(width_of(font, l) > width for l in lines)
    if len(lines) > room:
        lines = lines[:room - 1] + [_clip(" ".join(lines[room - 1:]) + " ...", font, width)]
    lines = tuple(_clip(line, font, width) for line in lines)
    if theme.size_of(font):  # a theme font (always, unless the packaging lacks the bundled one)
        if len(_WRAPPED) > 5_000:  # a bound, not a policy
            _WRAPPED.clear()
        _WRAPPED[key] = (theme.size_of(font), lines, clipped)
    return font, lines, clipped


def draw_wrapped(surface: pygame.Surface, text: str, rect: Rect, size: int, colour: Colour | None = None,
                 bold: bool = False, max_lines: int = 2, min_size: int = theme.MIN_SIZE,
                 align: str = "left") -> Rect:
    """Draw ``text`` in up to ``max_lines`` lines inside ``rect`` (vertically centred),
    shrinking the font until it fits; the last line ends in "..." if it still cannot.
    Returns the rect covering the drawn lines."""
    colour = theme.TEXT if colour is None else colour
    font, lines, clipped = _wrapped(text, rect.width, rect.height, size, bold, max_lines, min_size)
    step = font.get_linesize()
    top = rect.centery - len(lines) * step // 2
    used = Rect(rect.left, top, 0, 0)
    images = []
    for i, line in enumerate(lines):
        image = render(font, line, colour)
        x = rect.centerx - image.get_width() // 2 if align == "center" else rect.left
        box = surface.blit(image, (x, top + i * step))
        images.append((image, box))
        used.union_ip(box)
    _note(text, font, clipped, rect, surface, images)
    return used


# ---------------------------------------------------------------- boxes

def panel(surface: pygame.Surface, rect: Rect, fill: Colour | None = None, border: Colour | None = None,
          width: int = 3, radius: int = theme.RADIUS) -> Rect:
    """A rounded box, optionally outlined (in the high-contrast theme every box is)."""
    fill = theme.PANEL if fill is None else fill
    if border is None and theme.OUTLINE is not None and fill != theme.BG:
        border, width = theme.OUTLINE, 2
    box = Rect(rect)
    image = _kept_box(box.size, fill, border, width, radius)
    if image is None:
        _box(surface, box, fill, border, width, radius)
    else:
        surface.blit(image, box)
    return rect


#: Boxes drawn once: a box is kept the second time it is drawn (keeping costs more than
#: drawing, and a menu's boxes seen once are a frame's slowest part).
_SEEN_BOXES: set[tuple] = set()


def _kept_box(size: tuple[int, int], fill: Colour, border: Colour | None, width: int,
              radius: int) -> pygame.Surface | None:
    """The box as a kept picture to blit (the same pixels as drawing it: no corner is
    anti-aliased), or None to draw it straight on: a see-through or square box, an
    outline so thick pygame spills it outside the box, or a box not drawn before."""
    if radius <= 0 or min(size) <= 0 or not _opaque(fill) or (
            border is not None and (not _opaque(border) or 2 * width >= min(size))):
        return None
    key = (size, tuple(fill), None if border is None else tuple(border), width, radius)
    image = theme.SHAPES.get(key)
    if image is not None:
        return image
    if key not in _SEEN_BOXES:
        if len(_SEEN_BOXES) > 4096:  # a bound, not a policy
            _SEEN_BOXES.clear()
        _SEEN_BOXES.add(key)
        return None
    return theme.SHAPES.keep(key, theme.drawn(size, lambda image: _box(image, image.get_rect(), fill, border,
                                                                       width, radius)))


def _opaque(colour: Colour) -> bool:
    return len(colour) < 4 or colour[3] == 255


def _box(surface: pygame.Surface, rect: Rect, fill: Colour, border: Colour | None, width: int, radius: int) -> None:
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width, border_radius=radius)


def button(surface: pygame.Surface, rect: Rect, label: str, fill: Colour | None = None,
           colour: Colour | None = None, size: int = theme.BIG, enabled: bool = True) -> Rect:
    """A rounded touch button with a bold centred label. A disabled button is drawn
    grey; the caller should then not make it a touch target. Returns ``rect``."""
    fill = theme.BUTTON if fill is None else fill
    colour = theme.BUTTON_TEXT if colour is None else colour
    if not enabled:
        fill, colour = theme.PANEL, theme.GONE
    global _owner
    panel(surface, rect, fill)
    outer, _owner = _owner, tuple(rect)
    try:
        small = theme.font(theme.MIN_SIZE, True)
        if width_of(small, label) > rect.width - 12 and rect.height >= 2 * small.get_linesize() + 8:
            # a long label takes two lines rather than being cut
            draw_wrapped(surface, label, rect.inflate(-12, -8), size, colour, bold=True, max_lines=2, align="center")
        else:
            draw_text(surface, label, rect.inflate(-12, 0), size, colour, bold=True, align="center")
    finally:
        _owner = outer
    if _drawn is not None:
        _drawn.buttons.append(tuple(rect))
    return rect


def banner(surface: pygame.Surface, rect: Rect, text: str, fill: Colour | None = None,
           colour: Colour | None = None, size: int = theme.MEDIUM) -> Rect:
    """A filled strip with bold centred text (Final Round, a device down)."""
    fill = theme.WARN if fill is None else fill
    colour = theme.TEXT_DARK if colour is None else colour
    panel(surface, rect, fill, radius=rect.height // 2 if rect.height < 50 else theme.RADIUS)
    draw_text(surface, text, rect.inflate(-rect.height // 2, 0), size, colour, bold=True, align="center")
    return rect


# ---------------------------------------------------------------- icons

def _polygon(center: tuple[int, int], radius: float, sides: int, turn: float = -90.0,
             inner: float | None = None) -> list[tuple[float, float]]:
    """Corners of a regular polygon (or a star when ``inner`` is the inner radius)."""
    cx, cy = center
    n = sides * 2 if inner else sides
    points = []
    for i in range(n):
        r = inner if inner and i % 2 else radius
        a = math.radians(turn + 360.0 * i / n)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def fruit_badge(surface: pygame.Surface, center: tuple[int, int], radius: int, look: FruitLook,
                faded: bool = False) -> Rect:
    """The fruit's shape in its colour with its letter on top (colour-blind safe).
    ``faded`` draws it greyed out. Returns the bounding rect."""
    fill = theme.GONE if faded else look.colour
    cx, cy = center
    letter_y = cy
    if look.shape == "circle":
        pygame.draw.circle(surface, fill, center, radius)
    elif look.shape == "square":
        side = int(radius * 1.7)
        pygame.draw.rect(surface, fill, Rect(0, 0, side, side).move(cx - side // 2, cy - side // 2),
                         border_radius=max(2, radius // 5))
    elif look.shape == "triangle":
        r = radius * 1.25
        pygame.draw.polygon(surface, fill, _polygon((cx, int(cy + r * 0.2)), r, 3))
        letter_y = cy + int(r * 0.25)
    elif look.shape == "diamond":
        pygame.draw.polygon(surface, fill, _polygon(center, radius * 1.15, 4))
    elif look.shape == "hexagon":
        pygame.draw.polygon(surface, fill, _polygon(center, radius * 1.05, 6, turn=0))
    elif look.shape == "pentagon":
        pygame.draw.polygon(surface, fill, _polygon((cx, cy + radius // 10), radius * 1.1, 5))
    elif look.shape == "star":
        pygame.draw.polygon(surface, fill, _polygon(center, radius * 1.2, 5, inner=radius * 0.62))
    else:
        pygame.draw.circle(surface, fill, center, radius)
    size = max(10, int(radius * 0.95))  # decoration (theme.DECORATION): the shape and colour say it too
    text = theme.TEXT if faded else theme.TEXT_DARK
    draw_text(surface, look.letter, Rect(cx - radius, letter_y - radius, 2 * radius, 2 * radius),
              size, text, bold=True, align="center", min_size=8, decoration=True)
    return Rect(cx - radius, cy - radius, 2 * radius, 2 * radius)


def tick(surface: pygame.Surface, rect: Rect, colour: Colour | None = None) -> Rect:
    """A green disc with a white tick: the last input was accepted."""
    colour = theme.OK if colour is None else colour
    pygame.draw.circle(surface, colour, rect.center, rect.height // 2)
    w, h, x, y = rect.width, rect.height, rect.x, rect.y
    points = [(x + w * 0.25, y + h * 0.52), (x + w * 0.43, y + h * 0.70), (x + w * 0.76, y + h * 0.33)]
    pygame.draw.lines(surface, theme.TEXT, False, points, max(3, h // 9))
    return rect


def cross(surface: pygame.Surface, rect: Rect, colour: Colour | None = None) -> Rect:
    """A red disc with a white cross: the last input was rejected."""
    colour = theme.BAD if colour is None else colour
    pygame.draw.circle(surface, colour, rect.center, rect.height // 2)
    inner = rect.inflate(-rect.width * 0.56, -rect.height * 0.56)
    width = max(3, rect.height // 9)
    pygame.draw.line(surface, theme.TEXT, inner.topleft, inner.bottomright, width)
    pygame.draw.line(surface, theme.TEXT, inner.topright, inner.bottomleft, width)
    return rect


# ---------------------------------------------------------------- cards

def card_chip(surface: pygame.Surface, rect: Rect, name: str, number: int | None, look: FruitLook,
              fill: Colour | None = None) -> Rect:
    """A card drawn as a chip: the fruit badge, the number big (if the card has one)
    and the name in the fruit's colour, all inside a box outlined in that colour.

    Fits any rect at least 90x90; tall rects stack badge, number and name."""
    panel(surface, rect, fill, look.colour, width=4)
    inner = rect.inflate(-8, -10)
    radius = max(12, min(inner.width // 6, inner.height // 7))
    badge_y = inner.top + radius + 2
    fruit_badge(surface, (inner.left + radius + 2, badge_y), radius, look)
    if number is not None:
        num_rect = Rect(inner.left + 2 * radius + 6, inner.top, inner.width - 2 * radius - 6, 2 * radius + 4)
        draw_text(surface, str(number), num_rect, theme.HUGE, theme.TEXT, bold=True, align="center")
    label = name.rsplit(" ", 1)[0] if number is not None else name
    name_rect = Rect(inner.left, badge_y + radius + 4, inner.width, max(24, inner.bottom - badge_y - radius - 4))
    draw_wrapped(surface, label, name_rect, theme.MEDIUM, look.colour, bold=True, max_lines=2)
    return rect
