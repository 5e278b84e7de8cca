"""The printed quick-start card: one page per game, in a child's words and big type.

Used by ``companion quickstart GAME [GAME ...] --out FILE.pdf [--paper a4|letter]``. The
words are the game's own (``Game.load_quickstart``: its ``parts/quickstart.toml``): what
to scan when, the taps that matter, how to take a mistake back. Drawn with reportlab,
like the label sheets (``labels.py``); lengths in mm from the page's top-left corner.

The type is never smaller than :data:`LEAST_PT` (a card read at arm's length at the
table): a page whose words do not fit at that size is an error, not small print.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 15.0
LEAST_PT = 14.0            # the smallest body type on the card
BODY_PT = 20.0             # the body type when everything fits
PT_MM = 25.4 / 72
_BOLD, _TEXT = "Helvetica-Bold", "Helvetica"
_SECTIONS = (("start", "Set up"), ("turn", "Your turn"), ("taps", "The taps that matter"),
             ("oops", "Oops! Take it back"), ("end", "The end"))


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` mm at ``size`` pt, broken at spaces."""
    lines: list[str] = []
    for word in text.split():
        line = f"{lines[-1]} {word}" if lines else word
        if lines and stringWidth(line, font, size) * PT_MM <= width:
            lines[-1] = line
        else:
            lines.append(word)
    return lines


class _Card:
    """One game's page, laid out at a body size ``s`` pt; ``draw`` False only measures."""

    def __init__(self, canvas: Canvas | None, page: tuple[float, float], s: float):
        self.c, (self.w, self.h), self.s = canvas, page, s
        self.y = MARGIN_MM
        self.width = self.w - 2 * MARGIN_MM

    def text(self, x: float, baseline: float, s: str, font: str, size: float) -> None:
        if self.c is not None:
            self.c.setFont(font, size)
            self.c.drawString(x * mm, (self.h - baseline) * mm, s)

    def rect(self, x: float, y: float, w: float, h: float, grey: float, stroke: bool = False) -> None:
        if self.c is not None:
            self.c.setFillGray(grey)
            self.c.setLineWidth(1.2)
            self.c.roundRect(x * mm, (self.h - y - h) * mm, w * mm, h * mm, 2.5 * mm, stroke=int(stroke), fill=1)
            self.c.setFillGray(0)

    def paragraph(self, text: str, x: float, width: float, font: str = _TEXT, size: float | None = None) -> None:
        size = size or self.s
        for line in _wrap(text, font, size, width):
            self.y += size * PT_MM * 1.25
            self.text(x, self.y, line, font, size)

    def heading(self, number: int, title: str) -> None:
        """The step's number in a black disc, its title beside it."""
        size = self.s * 1.3
        self.y += size * PT_MM
        r = size * PT_MM * 0.6
        middle = self.y - 0.36 * size * PT_MM  # halfway up the title's capitals
        if self.c is not None:
            fs = size * 0.85
            self.c.circle((MARGIN_MM + r) * mm, (self.h - middle) * mm, r * mm, stroke=0, fill=1)
            self.c.setFillGray(1)
            self.c.setFont(_BOLD, fs)
            self.c.drawCentredString((MARGIN_MM + r) * mm, (self.h - middle - 0.36 * fs * PT_MM) * mm, str(number))
            self.c.setFillGray(0)
        self.text(MARGIN_MM + 2 * r + 3, self.y, title, _BOLD, size)
        self.y += size * PT_MM * 0.3

    def steps(self, lines: Sequence[str]) -> None:
        for line in lines:  # a bullet, then the line wrapped beside it
            top = self.y
            self.paragraph(line, MARGIN_MM + 9, self.width - 9)
            dot = self.s * PT_MM * 0.18
            if self.c is not None:
                self.c.circle((MARGIN_MM + 4) * mm, (self.h - top - self.s * PT_MM * 0.85) * mm, dot * mm,
                              stroke=0, fill=1)
            self.y += self.s * PT_MM * 0.25

    def taps(self, rows: Sequence[Sequence[str]]) -> None:
        """Each tap as the button it is (a rounded box with its name), what it does beside it."""
        bw = max(stringWidth(b, _BOLD, self.s) for b, _ in rows) * PT_MM + 8
        for button, what in rows:
            lines = _wrap(what, _TEXT, self.s, self.width - bw - 6)
            line_h = self.s * PT_MM * 1.25
            box_h = max(line_h * len(lines), line_h) + 3
            top = self.y + 1.5
            self.rect(MARGIN_MM, top, bw, line_h + 2.5, 0.88, stroke=True)
            self.text(MARGIN_MM + 4, top + line_h * 0.85 + 0.4, button, _BOLD, self.s)
            for i, line in enumerate(lines):
                self.text(MARGIN_MM + bw + 6, top + line_h * (i + 0.85) + 0.4, line, _TEXT, self.s)
            self.y += box_h + 1.5


def _lay_out(card: _Card, name: str, words: Mapping[str, Any]) -> float:
    """Draw (or measure) one game's card; returns where its words end, in mm from the top."""
    card.y += 16 * PT_MM * 0.2
    card.text(MARGIN_MM, card.y + 40 * PT_MM * 0.75, name, _BOLD, 40)
    card.y += 40 * PT_MM + 1
    card.text(MARGIN_MM, card.y + 18 * PT_MM * 0.75, "Quick start", _TEXT, 18)
    card.y += 18 * PT_MM + 3
    top = card.y
    lines = _wrap(words["intro"], _BOLD, card.s, card.width - 10)
    card.rect(MARGIN_MM, top, card.width, len(lines) * card.s * PT_MM * 1.25 + 5, 0.9)
    card.y += 1.5
    card.paragraph(words["intro"], MARGIN_MM + 5, card.width - 10, _BOLD)
    card.y += 5
    for number, (key, title) in enumerate(_SECTIONS, start=1):
        card.y += card.s * PT_MM * 0.5
        card.heading(number, title)
        part = words[key]
        if key == "taps":
            card.taps(part)
        elif isinstance(part, str):
            card.paragraph(part, MARGIN_MM + 9, card.width - 9)
        else:
            card.steps(part)
    return card.y


def make_quickstart(games: Sequence[tuple[str, str, Mapping[str, Any]]], out_path: str | Path,
                    paper: str = "a4") -> int:
    """Write one quick-start page per ``(slug, name, words)`` to a PDF; return the pages.

    ``words`` holds ``intro`` and ``oops`` and ``end`` (a sentence each), ``start`` and
    ``turn`` (a list of sentences: what to scan when) and ``taps`` (a list of ``[button,
    what it does]``). Raises ValueError for an unknown paper, no games, or words that do
    not fit one page at :data:`LEAST_PT`.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
    if not games:
        raise ValueError("no game to print a quick-start card for")
    page = PAPERS[paper]
    sizes = []
    for slug, name, words in games:  # the largest body size at which the page holds the words
        s = BODY_PT
        while _lay_out(_Card(None, page, s), name, words) > page[1] - MARGIN_MM - 8:
            s -= 0.5
            if s < LEAST_PT:
                raise ValueError(f"the quick-start card of {name} does not fit one page in big type")
        sizes.append(s)
    canvas = Canvas(str(out_path), pagesize=(page[0] * mm, page[1] * mm), invariant=True)
    canvas.setTitle("Quick start: " + ", ".join(name for _, name, _ in games))
    canvas.setCreator("Sugar Table Companion")
    for (slug, name, words), s in zip(games, sizes):
        _lay_out(_Card(canvas, page, s), name, words)
        canvas.setFont(_TEXT, 9)
        canvas.drawString(MARGIN_MM * mm, (MARGIN_MM - 4) * mm,
                          f"Sugar Table Companion: companion quickstart {slug}. The rulebook in the box has every rule.")
        canvas.showPage()
    canvas.save()
    return len(games)
