"""Every message a game says fits its screen at 800x480: whole, and at font size 20 or more."""

from __future__ import annotations

import pygame
import pytest

from companion.games import GAMES, find_game
from companion.ui import theme
from companion.table.message_fit import unfit_messages
from companion.ui.fit import catalogue, fill
from companion.ui.widgets import draw_text, draw_wrapped, record_text
from toy_helpers import every_game


@pytest.mark.parametrize("slug", every_game(GAMES))
def test_every_message_of_the_game_fits_its_screen(slug):
    assert unfit_messages(find_game(slug)) == []


def test_a_message_too_long_for_any_screen_is_reported():
    game = find_game("sugarrr")
    essay = "Ana takes Fruit-O-Saurs " + "and more Fruit-O-Saurs " * 40
    problems = unfit_messages(game, [essay])
    assert len(problems) == 1 and "cut off" in problems[0] and "Fruit-O-Saurs" in problems[0]


def test_a_long_message_takes_more_lines_rather_than_being_cut():
    pygame.font.init()
    surface = pygame.Surface((800, 480))
    text = ("Leo attracts Fruit-O-Saurs (the column has 4 cards, not 5): take Fruit-O-Saurs "
            "from The Valley totalling 1 and scan them.")
    with record_text() as drawn:
        draw_wrapped(surface, text, pygame.Rect(0, 0, 500, 140), theme.BIG, max_lines=2)
    assert drawn[0].readable and drawn[0].size >= theme.MIN_SIZE
    with record_text() as drawn:
        draw_text(surface, text, pygame.Rect(0, 0, 300, 40), theme.BIG)
    assert drawn[0].clipped and not drawn[0].readable


def test_catalogue_templates_are_filled_with_long_samples():
    assert fill("{player} takes {count} candies") == "Grandma Josephine takes 10 candies"
    assert fill("no fields {{here}}") == "no fields {{here}}"
    assert catalogue(find_game("sugarrr")) == [] or all("{" not in m for m in catalogue(find_game("sugarrr")))


@pytest.mark.parametrize("text, box, size", [
    ("Leo attracts Fruit-O-Saurs (the column has 4 cards, not 5): take Fruit-O-Saurs from The Valley "
     "totalling 1 and scan them.", (500, 140), theme.BIG),
    ("Maya", (300, 40), theme.BIG),
    ("Ana takes Fruit-O-Saurs " * 12, (300, 60), theme.MEDIUM),
    ("Zoë's Pure Sugar", (90, 30), theme.HUGE)])
def test_a_text_laid_out_again_is_drawn_the_same_as_the_first_time(text, box, size):
    """draw_text and draw_wrapped keep each text's fitted size and lines (issue 24: a frame
    redraws the same words); the second drawing, and one after the fonts were cleared
    (a new window), is the same pixels and the same record as the first."""
    pygame.font.init()
    rect = pygame.Rect((10, 10), box)

    def drawn(draw) -> tuple:
        surface = pygame.Surface((800, 480))
        with record_text() as rec:
            used = draw(surface, text, rect, size)
        return pygame.image.tobytes(surface, "RGB"), tuple(used), [(d.text, d.size, d.clipped, d.ink) for d in rec]
    from companion.ui import widgets

    for draw in (draw_text, draw_wrapped):
        widgets._FITTED.clear()
        widgets._WRAPPED.clear()
        widgets._WRAPS.clear()
        first = drawn(draw)  # laid out now
        assert drawn(draw) == first
        theme.clear_fonts()
        assert drawn(draw) == first



def test_a_size_searched_from_a_guess_is_the_size_trying_every_size_from_the_top_finds(monkeypatch):
    """fit_font and draw_wrapped's layout start from the size a text would fit at in
    proportion (a few measures, not one per size); what they find is what trying size
    after size from the top finds (widgets._largest, against that plain search)."""
    import random

    from companion.ui import widgets

    def from_the_top(low, high, fits, guess):
        size = high - 1
        while size > low and not fits(size):
            size -= 1
        return max(size, low)

    for low in range(0, 4):  # every bound, every size text stops fitting at, every guess
        for high in range(low, 30):
            for edge in range(low - 1, high + 1):
                for guess in range(low - 3, high + 4):
                    asked = []

                    def fits(size):
                        asked.append(size)
                        return size <= edge

                    assert widgets._largest(low, high, fits, guess) == from_the_top(low, high, fits, guess)
                    assert all(low <= a < high for a in asked)

    pygame.font.init()
    rnd = random.Random(11)
    words = ("a I the cupcake Strawberry Blueberries Pineapple-upside-down supercalifragilisticexpialidocious "
             "Choc\u00adolate 12 Maya's Ben: scanned, vault! WWWW iiii").split()
    for _ in range(400):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 25)))
        width, height, size, bold = rnd.randint(5, 800), rnd.randint(10, 300), rnd.randint(10, 90), rnd.random() < 0.5
        low, lines = rnd.choice([8, 16, 20]), rnd.randint(1, 5)
        searched = (theme.size_of(widgets.fit_font(text, width, size, bold, low)),
                    widgets._wrapped(text, width, height, size, bold, lines, low))
        widgets._WRAPPED.clear()
        with monkeypatch.context() as m:
            m.setattr(widgets, "_largest", from_the_top)
            plain = (theme.size_of(widgets.fit_font(text, width, size, bold, low)),
                     widgets._wrapped(text, width, height, size, bold, lines, low))
        widgets._WRAPPED.clear()
        assert (searched[0], theme.size_of(searched[1][0]), searched[1][1:]) == \
            (plain[0], theme.size_of(plain[1][0]), plain[1][1:]), (text, width, height, size, bold, lines, low)

    measured = []
    real_width = widgets.width_of

    def counting(font, text):
        measured.append(theme.size_of(font))
        return real_width(font, text)

    text = "Leo attracts Fruit-O-Saurs (the column has 4 cards, not 5): take them and scan them."
    monkeypatch.setattr(widgets, "width_of", counting)
    widgets.fit_font(text, 200, 90, True, 8)
    assert 1 < len(set(measured)) <= 6  # not the 60-odd sizes from 90 down to where it fits
    measured.clear()
    widgets._wrapped(text, 300, 70, 60, True, 8, 12)
    assert 1 < len(set(measured)) <= 6


@pytest.mark.parametrize("text", ["\u200d", "\U000f0000\u200b", ""])
def test_a_text_with_no_width_in_a_box_with_none_gets_the_smallest_size_not_an_error(text):
    """fit_font's guess divides by the text's width: a text that draws nothing (characters
    no font has, joiners) in a squeezed box (a negative width) fits at no size, as before."""
    from companion.ui import widgets

    pygame.font.init()
    for width in (-1, -6):
        assert theme.size_of(widgets.fit_font(text, width, theme.BIG, False, theme.MIN_SIZE)) == theme.MIN_SIZE
        widgets.draw_text(pygame.Surface((100, 100)), text, pygame.Rect(10, 10, width, 30), theme.BIG)
