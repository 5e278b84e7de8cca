"""Printable sticker sheets: one label per physical card with its barcode, code and name;
a card that is ever face down or in a secret hand gets the barcode alone, its name on a
tab beside it that is cut off (``Game.hidden_kinds``).

Used by ``companion labels GAME --out FILE.pdf [--symbology code128|qr] [--sheet NAME]``.
Barcodes come from reportlab's own encoders (``reportlab.graphics.barcode``); the sheet
layouts are data, in ``label_sheets.toml`` beside this module.

Units: lengths are millimetres (mm) measured from the page's top-left corner, font sizes
are points (pt, 1/72 in); reportlab's PDF points (bottom-left origin) appear only where we
draw. Print the PDF at 100 % ("actual size"), never "fit to page", or the labels drift
off the die-cut stickers.

Scannability: bar and module widths are whole dots of a 300 dpi printer (and so of 600
dpi), Code 128 bars are at least 3 dots (0.254 mm) wide with a 10-module quiet zone each
side, QR codes use error-correction level H with a 4-module quiet zone, and every quiet
zone lies on the label itself. Nothing is drawn within :data:`PRINTABLE_MARGIN_MM` of the
page edge, which most printers cannot reach.

>>> sorted(SHEETS)
['avery-5160', 'avery-5163', 'avery-l7160', 'avery-l7163', 'avery-l7651']
>>> SHEETS["avery-l7160"].per_page
21
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

from reportlab.graphics.barcode import qrencoder
from reportlab.graphics.barcode.code128 import Code128
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..core.codes import check_code
from ..core.errors import BadScan

SYMBOLOGIES = ("code128", "qr")
PRINTABLE_MARGIN_MM = 4.2  # 1/6 in: the unprintable border of most laser and inkjet printers
PAD_MM = 1.5               # label edge to content: die-cut sheets feed up to ~1 mm off
DOT_MM = 25.4 / 300        # one dot of a 300 dpi printer
PT_MM = 25.4 / 72          # one point in mm
_CODE128_QUIET = 10        # modules each side (ISO/IEC 15417)
_CODE128_MIN_DOTS, _CODE128_MAX_DOTS = 3, 6    # 0.254 .. 0.508 mm per module
_QR_QUIET = 4              # modules each side (ISO/IEC 18004)
_QR_MIN_DOTS, _QR_MAX_DOTS = 4, 12             # 0.339 .. 1.016 mm per module
_NAME_FONT, _TEXT_FONT, _CODE_FONT = "Helvetica-Bold", "Helvetica", "Courier-Bold"


@dataclass(frozen=True)
class Sheet:
    """One kind of label sheet; lengths in mm from the page's top-left corner."""

    name: str
    description: str
    page: tuple[float, float]    # width, height
    grid: tuple[int, int]        # columns, rows
    label: tuple[float, float]   # width, height of one label
    margin: tuple[float, float]  # left, top: page edge to the first label
    pitch: tuple[float, float]   # across, down: one label's edge to the next one's

    @property
    def per_page(self) -> int:
        """Labels on one sheet."""
        return self.grid[0] * self.grid[1]

    def slots(self) -> list[tuple[float, float, float, float]]:
        """Every label as ``(x, y, width, height)`` in mm, row by row from the top left."""
        (cols, rows), (w, h) = self.grid, self.label
        return [(self.margin[0] + c * self.pitch[0], self.margin[1] + r * self.pitch[1], w, h)
                for r in range(rows) for c in range(cols)]


def _load_sheets() -> dict[str, Sheet]:
    text = resources.files(__package__).joinpath("label_sheets.toml").read_text(encoding="utf-8")
    sheets = {}
    for name, d in tomllib.loads(text).items():
        sheet = Sheet(name, d["description"], tuple(d["page"]), tuple(d["grid"]), tuple(d["label"]),
                      tuple(d["margin"]), tuple(d["pitch"]))
        for axis in (0, 1):
            last = sheet.margin[axis] + (sheet.grid[axis] - 1) * sheet.pitch[axis] + sheet.label[axis]
            if sheet.pitch[axis] < sheet.label[axis] or last > sheet.page[axis] + 0.01:
                raise ValueError(f"label sheet {name} in label_sheets.toml: labels overlap or leave the page")
        sheets[name] = sheet
    return sheets


#: Sheet name -> :class:`Sheet`, from ``label_sheets.toml``.
SHEETS: dict[str, Sheet] = _load_sheets()


def get_sheet(name: str) -> Sheet:
    """The sheet called ``name`` (case-insensitive). Raises ValueError naming the valid ones."""
    sheet = SHEETS.get(name.strip().lower())
    if sheet is None:
        raise ValueError(f"unknown label sheet {name!r}: choose one of {', '.join(sorted(SHEETS))}")
    return sheet


def _dots(length_mm: float, lo: int, hi: int) -> float | None:
    """The widest whole number of 300 dpi dots (between lo and hi) within ``length_mm``, in mm."""
    n = min(hi, int(length_mm / DOT_MM + 1e-9))
    return n * DOT_MM if n >= lo else None


def _fit(text: str, font: str, width: float, size: float, least: float, lines: int) -> tuple[float, list[str]]:
    """The largest font size (pt, from ``size`` down to ``least``) at which ``text`` fits
    ``width`` mm in at most ``lines`` lines, wrapped at spaces; the lines. At ``least`` a
    text that still does not fit is cut short with an ellipsis."""
    def wrap(s: float) -> list[str] | None:
        out: list[str] = []
        for word in words:
            line = f"{out[-1]} {word}" if out else word
            if out and stringWidth(line, font, s) * PT_MM <= width:
                out[-1] = line
            elif stringWidth(word, font, s) * PT_MM <= width and len(out) < lines:
                out.append(word)
            else:
                return None
        return out
    words = text.split()
    if len(words) > 1 and len(words[-1]) <= 2:  # keep "Rex 3" together: never a lone number
        words[-2:] = [" ".join(words[-2:])]
    s = size
    while s >= least:
        got = wrap(s)
        if got is not None:
            return s, got
        s -= 0.25
    cut = text
    while cut and stringWidth(cut + "\u2026", font, least) * PT_MM > width:
        cut = cut[:-1]
    return least, [cut.rstrip() + "\u2026"]


class _Page:
    """A page being drawn, in mm from its top-left corner (reportlab draws from bottom-left)."""

    def __init__(self, canvas: Canvas, height: float):
        self.c, self.h = canvas, height

    def text(self, x: float, baseline: float, s: str, font: str, size: float, align: str = "left") -> None:
        self.c.setFont(font, size)
        draw = {"left": self.c.drawString, "right": self.c.drawRightString, "centre": self.c.drawCentredString}
        draw[align](x * mm, (self.h - baseline) * mm, s)

    def box(self, x: float, y: float, w: float, h: float, stroke: bool = False) -> None:
        self.c.rect(x * mm, (self.h - y - h) * mm, w * mm, h * mm, stroke=int(stroke), fill=int(not stroke))


def _content_box(sheet: Sheet, slot: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A label less its padding, clipped to the printer's reach: ``(x, y, w, h)`` in mm."""
    x, y, w, h = slot
    pw, ph = sheet.page
    left = max(x + PAD_MM, PRINTABLE_MARGIN_MM)
    top = max(y + PAD_MM, PRINTABLE_MARGIN_MM)
    right = min(x + w - PAD_MM, pw - PRINTABLE_MARGIN_MM)
    bottom = min(y + h - PAD_MM, ph - PRINTABLE_MARGIN_MM)
    return left, top, right - left, bottom - top


def _copy_text(copy: int | None) -> str:
    return f"copy {copy}" if copy else ""


def _cut_line(page: _Page, x0: float, y0: float, x1: float, y1: float) -> None:
    """A dashed line to cut along, a pair of scissors at its start (ZapfDingbats' a2)."""
    c = page.c
    c.saveState()
    c.setLineWidth(0.3)
    c.setDash(1.2 * mm, 0.8 * mm)
    c.line(x0 * mm, (page.h - y0) * mm, x1 * mm, (page.h - y1) * mm)
    c.restoreState()
    # the scissors at the line's start, on a white patch: across, at its left end; down, at its top
    px, py = (x0, y0 - 1.1) if y0 == y1 else (x0 - 1.6, y0)
    c.setFillGray(1)
    page.box(px, py, 3.2, 2.2)
    c.setFillGray(0)
    page.text(px, py + 2.1, "\u2702", "ZapfDingbats", 8)


def _code128_parts(box, code: str, name: str, copy: int | None, hidden: bool):
    """Where a Code 128 label's parts go: ``(module, name_size, name_line, copy_s,
    code_size, y0, top_h, gap, bar_h)``, all in mm or pt, from the content ``box``."""
    x, y, w, h = box
    bars = Code128(code, barWidth=1, barHeight=1, quiet=0, humanReadable=0)
    bars.validate(), bars.encode(), bars.decompose(), bars.computeSize()
    modules = round(bars.width) + 2 * _CODE128_QUIET
    module = _dots(w / modules, _CODE128_MIN_DOTS, _CODE128_MAX_DOTS)
    if module is None:
        raise ValueError(f"a {w:.1f} mm wide label is too narrow for a scannable Code 128 of {code}")
    size = min(12.0, max(6.0, h * 0.3))
    copy_s = _copy_text(copy)
    copy_w = stringWidth(copy_s, _TEXT_FONT, size * 0.75) * PT_MM + (1.5 if copy_s else 0)
    name_size, name_lines = _fit(name, _NAME_FONT, w - copy_w, size, 5.0, 1)
    code_size = 0.0 if hidden else min(size * 0.9, 11.0)
    # a hidden card's name sits on a tab cut off along a dashed line: the gap holds the line
    top_h, code_h, gap = name_size * PT_MM, code_size * PT_MM * 0.75, 3.0 if hidden else 1.0
    bar_h = min(h - top_h - code_h - gap - (0 if hidden else 1.0), 20.0)
    y0 = y + (h - (top_h + gap + bar_h + (0 if hidden else 1.0 + code_h))) / 2
    return module, modules, name_size, name_lines[0], copy_s, code_size, y0, top_h, gap, bar_h


def _draw_code128(page: _Page, box, code: str, name: str, copy: int | None, hidden: bool = False):
    """Name (and copy) on top, the bars, then the code in text underneath. For a
    ``hidden`` card the name is on a tab above a dashed cut line and the sticker below it
    holds the bars alone. Returns the sticker's ``(x, y, w, h)`` in mm."""
    x, y, w, h = box
    module, modules, name_size, name_line, copy_s, code_size, y0, top_h, gap, bar_h = \
        _code128_parts(box, code, name, copy, hidden)
    size = min(12.0, max(6.0, h * 0.3))
    page.text(x, y0 + name_size * PT_MM * 0.75, name_line, _NAME_FONT, name_size)
    if copy_s:
        page.text(x + w, y0 + name_size * PT_MM * 0.75, copy_s, _TEXT_FONT, size * 0.75, "right")
    symbol = Code128(code, barWidth=module * mm, barHeight=bar_h * mm, humanReadable=0,
                     lquiet=_CODE128_QUIET * module * mm, rquiet=_CODE128_QUIET * module * mm)
    left = x + (w - modules * module) / 2
    bars_top = y0 + top_h + gap
    symbol.drawOn(page.c, left * mm, (page.h - bars_top - bar_h) * mm)
    if hidden:
        cut = y0 + top_h + gap / 2
        _cut_line(page, x, cut, x + w, cut)
        return (x, cut, w, y + h - cut)
    code_h = code_size * PT_MM * 0.75
    page.text(x + w / 2, bars_top + bar_h + 1.0 + code_h, code, _CODE_FONT, code_size, "centre")
    return box


def _draw_qr(page: _Page, box, code: str, name: str, copy: int | None, hidden: bool = False):
    """The QR symbol on the left; name, copy and code in text to its right. For a
    ``hidden`` card the text is a tab beyond a dashed cut line, with no code: the sticker
    is the QR symbol with its quiet zone alone. Returns the sticker's ``(x, y, w, h)``."""
    x, y, w, h = box
    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.H)
    qr.addData(code)
    qr.make()
    n = qr.getModuleCount()
    module = _dots(min(h, w * 0.5) / (n + 2 * _QR_QUIET), _QR_MIN_DOTS, _QR_MAX_DOTS)
    if module is None:
        raise ValueError(f"a {w:.1f} x {h:.1f} mm label is too small for a scannable QR code of {code}")
    side = (n + 2 * _QR_QUIET) * module
    qx, qy = x + _QR_QUIET * module, y + (h - side) / 2 + _QR_QUIET * module
    for r, row in enumerate(qr.modules):
        c = 0
        while c < n:  # one rectangle per run of dark modules: smaller PDF, no hairline seams
            if row[c]:
                end = c
                while end < n and row[end]:
                    end += 1
                page.box(qx + c * module, qy + r * module, (end - c) * module, module)
                c = end
            else:
                c += 1
    tab = 1.6 if hidden else 0.0  # room for the cut line between the quiet zone and the tab
    tx, tw = x + side + tab, w - side - tab
    size = min(12.0, max(6.0, h * 0.3))
    name_size, name_lines = _fit(name, _NAME_FONT, tw, size, 5.0, 2)
    copy_s = _copy_text(copy)
    code_size = min(size * 0.9, 11.0)
    line = 1.15 * PT_MM
    stack = [(s, _NAME_FONT, name_size) for s in name_lines]
    stack += [(copy_s, _TEXT_FONT, size * 0.75)] if copy_s else []
    stack += [] if hidden else [(code, _CODE_FONT, code_size)]
    total = sum(sz * line for _, _, sz in stack) + 0.8
    scale = min(1.0, h / total)
    baseline = y + (h - total * scale) / 2
    for i, (s, font, sz) in enumerate(stack):
        baseline += sz * line * scale + (0.8 * scale if font == _CODE_FONT else 0)
        page.text(tx, baseline - sz * PT_MM * 0.25 * scale, s, font, sz * scale)
    if not hidden:
        return box
    cut = x + side + tab / 2
    _cut_line(page, cut, y, cut, y + h)
    return (x, y, cut - x, h)


def _numbered(cards: Iterable[Sequence]) -> list[tuple[str, str, int | None, bool]]:
    """``(code, name, copy, hidden)`` for each card; a missing copy is counted from
    repeated names in the list, and shown only when the name repeats or the copy is above
    1; a missing ``hidden`` is False."""
    items = [(c[0], c[1], c[2] if len(c) > 2 else None, bool(c[3]) if len(c) > 3 else False) for c in cards]
    counts: dict[str, int] = {}
    for _, name, _, _ in items:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for code, name, copy, hidden in items:
        seen[name] = seen.get(name, 0) + 1
        copy = copy if copy is not None else seen[name]
        out.append((code, name, copy if counts[name] > 1 or copy > 1 else None, hidden))
    return out


def make_labels(cards: Iterable[Sequence], out_path: str | Path, symbology: str = "code128",
                sheet: str = "avery-l7160", *, skip: int = 0, outline: bool = False,
                placed: list | None = None) -> int:
    """Write a PDF of stickers, one per physical card, and return how many were written.

    ``cards`` holds ``(code, name)``, ``(code, name, copy)`` or ``(code, name, copy,
    hidden)`` per physical card, in the order to print. A ``hidden`` card (one the rules
    ever have face down or in a secret hand) gets a sticker with the barcode alone: its
    name and copy are on a tab beside it, beyond a dashed line, that is cut off before
    the sticker goes on the card's back, so the sticker tells nobody what the card is.
    ``symbology`` is one of :data:`SYMBOLOGIES`, ``sheet`` a name in :data:`SHEETS`.
    ``skip`` leaves that many labels of the first sheet blank (already used); ``outline``
    draws each label's edge, for a trial print on plain paper. ``placed``, when given,
    gets ``(code, page, (x, y, w, h))`` for each label: the part that is stuck on the
    card, in mm from the page's top left (the whole label less its padding, or a hidden
    card's sticker without its tab).

    Raises ValueError for an unknown sheet or symbology, no cards, or a code that is not
    a valid card code (a sticker that would never scan).
    """
    if symbology not in SYMBOLOGIES:
        raise ValueError(f"unknown symbology {symbology!r}: choose one of {', '.join(SYMBOLOGIES)}")
    layout = get_sheet(sheet)
    items = _numbered(cards)
    if not items:
        raise ValueError("no cards to print labels for")
    if not 0 <= skip < layout.per_page:
        raise ValueError(f"skip must be between 0 and {layout.per_page - 1} on {layout.name}")
    for code, *_ in items:
        try:
            check_code(code)
        except BadScan:
            raise ValueError(f"cannot print a label for {code!r}: it is not a valid card code") from None
    draw = _draw_code128 if symbology == "code128" else _draw_qr
    pw, ph = layout.page
    canvas = Canvas(str(out_path), pagesize=(pw * mm, ph * mm), invariant=True)
    canvas.setTitle(f"Card labels ({layout.description}, {symbology})")
    canvas.setCreator("Sugar Table Companion")
    # Ask print dialogs for actual size: "fit to page" would shrink the narrowest
    # Code 128 bar below the minimum the layout keeps (PDF 1.6, ViewerPreferences).
    canvas.setViewerPreference("PrintScaling", "None")
    page, slots = _Page(canvas, ph), layout.slots()
    for i, (code, name, copy, hidden) in enumerate(items, start=skip):
        if i and i % layout.per_page == 0:
            canvas.showPage()
        slot = slots[i % layout.per_page]
        if outline:
            canvas.setStrokeGray(0.75)
            canvas.setLineWidth(0.25)
            page.box(*slot, stroke=True)
        sticker = draw(page, _content_box(layout, slot), code.strip().upper(), name, copy, hidden)
        if placed is not None:
            placed.append((code.strip().upper(), i // layout.per_page, sticker))
    canvas.showPage()
    canvas.save()
    return len(items)
