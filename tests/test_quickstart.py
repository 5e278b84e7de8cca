"""The printed quick-start card (issue 38): ``companion quickstart GAME ... --out FILE``
writes one page per game asked, with the game's name on it, in big type; an unknown
game is one line and exit status 2. The PDF is read back by PDFium (pypdfium2), not by
reportlab which wrote it."""

from __future__ import annotations

import os
import subprocess
import sys

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from companion.cards.quickstart import LEAST_PT, make_quickstart
from companion.games import GAMES


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy"))


def pages(path):
    """Per page: its text, and the smallest font size of its text above the footer."""
    pdf = pdfium.PdfDocument(str(path))
    got = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            text = page.get_textpage()
            sizes = []
            for k in range(text.count_chars()):
                _, bottom, _, _ = text.get_charbox(k)
                ch = text.get_text_range(k, 1)
                if ch.strip() and bottom > 30 * 72 / 25.4:  # the footer line sits in the bottom margin
                    sizes.append(pdfium_c.FPDFText_GetFontSize(text.raw, k))
            got.append((text.get_text_range(), min(sizes)))
            text.close()
            page.close()
    finally:
        pdf.close()
    return got


def test_one_page_per_game_asked_with_its_name(tmp_path):
    out = tmp_path / "qs.pdf"
    proc = companion("quickstart", "sweet-deals", "sugarrr", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    got = pages(out)
    assert len(got) == 2
    assert "Sweet Deals" in got[0][0] and "Sugarrr!" not in got[0][0]
    assert "Sugarrr!" in got[1][0] and "Sweet Deals" not in got[1][0]
    assert "2 quick-start cards" in proc.stdout


def test_all_is_every_game_in_order_in_big_type(tmp_path):
    out = tmp_path / "qs.pdf"
    assert companion("quickstart", "all", "--out", str(out), "--paper", "letter").returncode == 0
    got = pages(out)
    assert len(got) == len(GAMES)
    for (text, least), desc in zip(got, GAMES.values()):
        assert desc.name in text
        for part in ("Set up", "Your turn", "The taps that matter", "Undo"):
            assert part in text.replace("\r\n", " ").replace("\n", " "), (desc.slug, part)
        assert least >= LEAST_PT, (desc.slug, least)


@pytest.mark.parametrize("asked, hint", [("sugar", "did you mean sugarrr?"), ("chess", "sugar-heist")])
def test_an_unknown_game_is_one_line_and_exit_2(tmp_path, asked, hint):
    out = tmp_path / "qs.pdf"
    proc = companion("quickstart", "sugarrr", asked, "--out", str(out))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and hint in proc.stderr and repr(asked) in proc.stderr
    assert not out.exists()


def test_every_game_has_words_for_each_part_of_its_card():
    for desc in GAMES.values():
        words = desc.load_quickstart()
        assert isinstance(words["intro"], str) and isinstance(words["oops"], str) and isinstance(words["end"], str)
        assert 1 <= len(words["start"]) <= 3 and 1 <= len(words["turn"]) <= 5, desc.slug
        assert 3 <= len(words["taps"]) <= 4 and all(len(t) == 2 for t in words["taps"]), desc.slug
        assert "Undo" in words["oops"], desc.slug


def test_words_too_long_for_big_type_are_refused_not_shrunk(tmp_path):
    words = dict(GAMES["sugarrr"].load_quickstart(), turn=["a very long line of words " * 12] * 5)
    with pytest.raises(ValueError, match="does not fit"):
        make_quickstart([("sugarrr", "Sugarrr!", words)], tmp_path / "x.pdf")
