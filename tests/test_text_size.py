""""20 px" is measured, not assumed: theme sizes are the em in screen pixels."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.ui import theme
from companion.ui.widgets import draw_text, record_text


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    yield


@pytest.mark.parametrize("size", [theme.MIN_SIZE, theme.MEDIUM, theme.BIG])
def test_a_theme_size_draws_that_many_pixels(size):
    f = theme.font(size)
    assert theme.px(f) == size
    capital = f.render("H", True, (255, 255, 255)).get_bounding_rect().height
    # FreeSans capitals are 0.73 em: a 20 px font has 14-15 px capitals, not the 9 px of Font(None, 20)
    assert 0.68 * size <= capital <= 0.78 * size
    assert f.get_linesize() >= size


def test_the_checker_records_the_measured_size_and_ink():
    surface = pygame.Surface((400, 100))
    with record_text() as drawn:
        draw_text(surface, "Blueberries", pygame.Rect(0, 0, 400, 100), theme.MEDIUM)
    (d,) = drawn
    assert d.size == theme.px(theme.font(theme.MEDIUM)) and d.readable
    assert 0 < d.ink[2] <= 400 and 0 < d.ink[3] < 40


def test_overlapping_texts_and_buttons_are_found():
    from companion.ui.fit import overlaps
    from companion.ui.widgets import button

    surface = pygame.Surface((400, 100))
    with record_text() as drawn:
        draw_text(surface, "Deck 20", pygame.Rect(0, 0, 120, 40), theme.MEDIUM)
        button(surface, pygame.Rect(60, 0, 96, 40), "Undo")
    found = overlaps(drawn, surface)
    assert any("runs into" in p or "drawn over" in p for p in found)
    with record_text() as apart:
        surface.fill((0, 0, 0))
        draw_text(surface, "Deck 20", pygame.Rect(0, 0, 120, 40), theme.MEDIUM)
        button(surface, pygame.Rect(200, 0, 96, 40), "Undo")
    assert overlaps(apart, surface) == []
