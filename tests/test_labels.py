"""Sticker sheets: every printed barcode scans back to its own card, on its own label.

The PDF is rendered by an independent engine (pypdfium2, PDFium) and read by an
independent decoder (zxing-cpp), both from PyPI, never by reportlab which wrote it.
"""

from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import zxingcpp
from PIL import Image, ImageChops, ImageDraw

from companion.games import GAMES
from companion.games.sugarrr.parts.cards import CARDS
from companion.cards.labels import PRINTABLE_MARGIN_MM, SHEETS, SYMBOLOGIES, get_sheet, make_labels

PRINTER_DPI = 300
ALL_CARDS = [(c.code, c.name, c.copy) for c in CARDS.values()]
ZXING_FORMAT = {"code128": "Code128", "qr": "QRCode"}


def render(path, dpi):
    """Every page of the PDF as a greyscale PIL image at ``dpi``."""
    pdf = pdfium.PdfDocument(str(path))
    images = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            images.append(page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L"))
            page.close()  # pages before their document, or pypdfium2 complains
    finally:
        pdf.close()
    return images


def slot_at(sheet, x_mm, y_mm):
    """Index of the label under a point (mm from the page's top left), or None."""
    for i, (x, y, w, h) in enumerate(sheet.slots()):
        if x <= x_mm <= x + w and y <= y_mm <= y + h:
            return i
    return None


def allows_print_scaling(path) -> bool:
    """What PDFium says the PDF asks of a print dialog: True unless the document sets
    ``/ViewerPreferences << /PrintScaling /None >>`` (print at actual size)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return bool(pdfium_c.FPDF_VIEWERREF_GetPrintScaling(pdf.raw))
    finally:
        pdf.close()


def scan_pages(pages, sheet, dpi):
    """``(page, slot, format, text)`` for every barcode zxing-cpp finds on the pages."""
    found = []
    for p, image in enumerate(pages):
        for bc in zxingcpp.read_barcodes(image):
            pos = bc.position
            corners = [pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left]
            cx = sum(c.x for c in corners) / 4 * 25.4 / dpi
            cy = sum(c.y for c in corners) / 4 * 25.4 / dpi
            found.append((p, slot_at(sheet, cx, cy), bc.format.name, bc.text))
    return found


@pytest.mark.parametrize("sheet_name, symbology", [
    ("avery-l7651", "code128"),  # A4, the smallest labels: bars at the 0.254 mm minimum
    ("avery-l7651", "qr"),
    ("avery-5160", "code128"),   # US Letter
    ("avery-5160", "qr"),
    ("avery-l7160", "code128"),  # A4, the default sheet
])
def test_every_physical_card_scans_back_exactly_once_from_its_own_label(tmp_path, sheet_name, symbology):
    out = tmp_path / "labels.pdf"
    assert make_labels(ALL_CARDS, out, symbology, sheet_name) == 148
    sheet = SHEETS[sheet_name]
    # a print dialog that scales to fit would shrink the narrowest bar below the minimum
    assert not allows_print_scaling(out)
    pages = render(out, PRINTER_DPI)
    assert len(pages) == -(-148 // sheet.per_page)
    found = scan_pages(pages, sheet, PRINTER_DPI)
    assert Counter(text for *_, text in found) == Counter(code for code, _, _ in ALL_CARDS)
    assert {fmt for _, _, fmt, _ in found} == {ZXING_FORMAT[symbology]}
    # and each code sits on the label it was laid out for, in the order given
    placed = {text: (page, slot) for page, slot, _, text in found}
    for i, (code, _, _) in enumerate(ALL_CARDS):
        assert placed[code] == divmod(i, sheet.per_page), code


@pytest.mark.parametrize("sheet_name", sorted(SHEETS))
def test_every_label_lies_on_its_page_inside_the_sheet_margins(sheet_name):
    sheet = SHEETS[sheet_name]
    slots = sheet.slots()
    assert len(slots) == sheet.per_page == sheet.grid[0] * sheet.grid[1]
    pw, ph = sheet.page
    for x, y, w, h in slots:
        assert (w, h) == sheet.label
        assert x >= sheet.margin[0] - 1e-9 and y >= sheet.margin[1] - 1e-9
        assert x + w <= pw + 0.01 and y + h <= ph + 0.01
    for i, a in enumerate(slots):  # no two labels overlap
        for b in slots[i + 1:]:
            assert a[0] + a[2] <= b[0] + 1e-9 or b[0] + b[2] <= a[0] + 1e-9 \
                or a[1] + a[3] <= b[1] + 1e-9 or b[1] + b[3] <= a[1] + 1e-9


@pytest.mark.parametrize("name, paper, per_page, label", [
    ("avery-l7160", (210.0, 297.0), 21, (63.5, 38.1)),
    ("avery-l7163", (210.0, 297.0), 14, (99.1, 38.1)),
    ("avery-l7651", (210.0, 297.0), 65, (38.1, 21.2)),
    ("avery-5160", (215.9, 279.4), 30, (66.675, 25.4)),
    ("avery-5163", (215.9, 279.4), 10, (101.6, 50.8)),
])
def test_the_common_a4_and_letter_sheets_are_there(name, paper, per_page, label):
    sheet = get_sheet(name.upper())
    assert (sheet.page, sheet.per_page, sheet.label) == (paper, per_page, label)


@pytest.mark.parametrize("symbology", SYMBOLOGIES)
@pytest.mark.parametrize("sheet_name", sorted(SHEETS))
def test_nothing_is_printed_off_the_labels_or_beyond_the_printers_reach(tmp_path, sheet_name, symbology):
    sheet, dpi = SHEETS[sheet_name], 150
    out = tmp_path / "full-sheet.pdf"
    make_labels(ALL_CARDS[-sheet.per_page:], out, symbology, sheet_name)  # the longest names
    (page,) = render(out, dpi)
    px = dpi / 25.4
    allowed = Image.new("L", page.size, 255)  # 255 where ink is forbidden
    draw = ImageDraw.Draw(allowed)
    lo = PRINTABLE_MARGIN_MM
    hi_x, hi_y = sheet.page[0] - lo, sheet.page[1] - lo
    for x, y, w, h in sheet.slots():  # 1 mm inside each label, and within the printer's reach
        left, top = max(x + 1, lo), max(y + 1, lo)
        right, bottom = min(x + w - 1, hi_x), min(y + h - 1, hi_y)
        draw.rectangle((left * px, top * px, right * px, bottom * px), fill=0)
    ink = page.point(lambda v: 255 if v < 250 else 0)  # any mark at all, even grey
    assert ImageChops.multiply(ink, allowed).getbbox() is None


def test_labels_can_start_part_way_down_a_used_sheet(tmp_path):
    out = tmp_path / "three.pdf"
    cards = ALL_CARDS[:3]
    assert make_labels(cards, out, "qr", "avery-l7160", skip=19) == 3
    found = scan_pages(render(out, PRINTER_DPI), SHEETS["avery-l7160"], PRINTER_DPI)
    assert sorted((p, s, text) for p, s, _, text in found) == \
        [(0, 19, cards[0][0]), (0, 20, cards[1][0]), (1, 0, cards[2][0])]


def test_an_unknown_sheet_names_the_sheets_there_are(tmp_path):
    with pytest.raises(ValueError) as err:
        make_labels(ALL_CARDS, tmp_path / "x.pdf", sheet="avery-l9999")
    for name in SHEETS:
        assert name in str(err.value)
    assert "avery-l9999" in str(err.value)
    assert not (tmp_path / "x.pdf").exists()


def test_an_unknown_symbology_names_the_ones_there_are(tmp_path):
    with pytest.raises(ValueError, match="code128, qr"):
        make_labels(ALL_CARDS, tmp_path / "x.pdf", symbology="ean13")


def test_a_garbled_code_is_never_printed(tmp_path):
    with pytest.raises(ValueError, match="SRS17M"):
        make_labels([("SRS71M", "Strawberry 7"), ("SRS17M", "Strawberry 7")], tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_no_cards_is_an_error_not_an_empty_sheet(tmp_path):
    with pytest.raises(ValueError, match="no cards"):
        make_labels([], tmp_path / "x.pdf")


def hidden_cards(slug):
    """``(code, name, copy, hidden)`` for every card of a game, as ``companion labels`` prints them."""
    desc = GAMES[slug]
    return [(c.code, c.name, c.copy, c.kind in desc.hidden_kinds) for c in desc.cards()]


def page_chars(path):
    """Per page, ``(char, x_mm, y_mm)`` for every character PDFium finds, at its box's
    centre, in mm from the page's top left."""
    pdf = pdfium.PdfDocument(str(path))
    pages = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            height = page.get_height()
            text = page.get_textpage()
            chars = []
            for k in range(text.count_chars()):
                left, bottom, right, top = text.get_charbox(k)
                ch = text.get_text_range(k, 1)
                chars.append((ch, (left + right) / 2 * 25.4 / 72, (height - (bottom + top) / 2) * 25.4 / 72))
            text.close()
            page.close()
            pages.append(chars)
    finally:
        pdf.close()
    return pages


def inside(rect, x, y, slack=0.0):
    rx, ry, rw, rh = rect
    return rx - slack <= x <= rx + rw + slack and ry - slack <= y <= ry + rh + slack


@pytest.mark.parametrize("slug, sheet_name, symbology", [
    ("sugar-heist", "avery-l7160", "code128"),  # Battle Cards face down, Vault Cards face up
    ("sugar-heist", "avery-l7651", "qr"),
    ("sugarrr", "avery-5160", "code128"),       # Fruit in the hand, Fruit-O-Saurs public
    ("sweet-deals", "avery-l7163", "qr"),       # every Dessert Card dealt face down
])
def test_a_face_down_card_s_sticker_names_nothing_and_its_cut_off_tab_names_the_card(tmp_path, slug, sheet_name,
                                                                                      symbology):
    """Sugar Heist: "Battle Cards are kept face down in front of you"; Sweet Deals: "Deal
    each player 7 Dessert Cards facedown"; Sugarrr!: "keep your hand of cards hidden from
    other players at all times!". A sticker on a card's back is seen by the whole table,
    so a hidden card's sticker carries no letter or digit at all (no name, no code: the
    codes spell what a card is, SHBM.. is a Mom); its name is beside it, on the label but
    beyond the cut line, and every code still scans from inside its own sticker."""
    cards = hidden_cards(slug)
    assert any(h for *_, h in cards) and (slug == "sweet-deals" or not all(h for *_, h in cards))
    out, placed = tmp_path / "labels.pdf", []
    assert make_labels(cards, out, symbology, sheet_name, placed=placed) == len(cards)
    sheet = SHEETS[sheet_name]
    assert [code for code, _, _ in placed] == [c[0] for c in cards]
    chars = page_chars(out)
    found = {text: (page, pos) for page, _, _, text, pos in scan_pages_at(render(out, PRINTER_DPI), PRINTER_DPI)}
    assert sorted(found) == sorted(c[0] for c in cards)
    slots = sheet.slots()
    for i, ((code, name, copy, hidden), (_, page, sticker)) in enumerate(zip(cards, placed)):
        label = slots[i % sheet.per_page]
        assert page == i // sheet.per_page
        # the barcode lies whole on the part that is stuck on the card
        got_page, corners = found[code]
        assert got_page == page and all(inside(sticker, x, y, 0.2) for x, y in corners), code
        on_sticker = "".join(ch for ch, x, y in chars[page] if inside(sticker, x, y) and ch.isalnum())
        on_label = "".join(ch for ch, x, y in chars[page] if inside(label, x, y) and not ch.isspace())
        if hidden:
            assert on_sticker == "", (code, name, on_sticker)
            assert name.replace(" ", "") in on_label and code not in on_label, (code, on_label)
        else:  # a card always face up keeps its name and code on the sticker
            assert name.replace(" ", "") in on_sticker.replace(" ", "") and code in on_sticker, code


def scan_pages_at(pages, dpi):
    """``(page, None, format, text, corners_mm)`` for every barcode zxing-cpp finds."""
    found = []
    for p, image in enumerate(pages):
        for bc in zxingcpp.read_barcodes(image):
            pos = bc.position
            corners = [(c.x * 25.4 / dpi, c.y * 25.4 / dpi)
                       for c in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
            found.append((p, None, bc.format.name, bc.text, corners))
    return found


@pytest.mark.parametrize("symbology", SYMBOLOGIES)
@pytest.mark.parametrize("sheet_name", sorted(SHEETS))
def test_a_hidden_card_s_label_stays_on_the_label_and_within_the_printers_reach(tmp_path, sheet_name, symbology):
    sheet, dpi = SHEETS[sheet_name], 150
    out = tmp_path / "full-sheet.pdf"
    make_labels([(*c, True) for c in ALL_CARDS[-sheet.per_page:]], out, symbology, sheet_name)
    (page,) = render(out, dpi)
    px = dpi / 25.4
    allowed = Image.new("L", page.size, 255)
    draw = ImageDraw.Draw(allowed)
    lo = PRINTABLE_MARGIN_MM
    for x, y, w, h in sheet.slots():
        left, top = max(x + 1, lo), max(y + 1, lo)
        right, bottom = min(x + w - 1, sheet.page[0] - lo), min(y + h - 1, sheet.page[1] - lo)
        draw.rectangle((left * px, top * px, right * px, bottom * px), fill=0)
    ink = page.point(lambda v: 255 if v < 250 else 0)
    assert ImageChops.multiply(ink, allowed).getbbox() is None


def test_which_cards_get_a_nameless_sticker_follows_the_rulebooks():
    """Sugarrr!: Fruit-O-Saurs "are always public knowledge"; Sugar Heist: the Vault
    Cards "are placed face up" and the rest "face up beside the other two draw piles";
    everything else is drawn from a face-down pile or held in a hand."""
    kinds = {slug: {c.kind for c in GAMES[slug].cards()} for slug in ("sugarrr", "sugar-heist", "sweet-deals")}
    for slug, all_kinds in kinds.items():
        assert GAMES[slug].hidden_kinds <= all_kinds, slug  # no misspelt kind
    assert kinds["sugarrr"] - GAMES["sugarrr"].hidden_kinds == {"saur"}
    assert kinds["sugar-heist"] - GAMES["sugar-heist"].hidden_kinds == {"vault"}
    assert GAMES["sweet-deals"].hidden_kinds == kinds["sweet-deals"]
    assert GAMES["sugar-blast"].hidden_kinds == frozenset()
