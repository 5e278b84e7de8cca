"""Pictures kept between frames draw the very same pixels as drawing them afresh: the
rounded boxes every screen is made of (widgets.panel), Sugar Blast's candies, and the
budget that bounds what is kept (issue 24: a frame at a Zero 2 W's speed)."""

from __future__ import annotations

import random

import pygame
import pytest

from companion.ui import theme, widgets


@pytest.fixture()
def screen():
    pygame.display.init()
    yield pygame.display.set_mode((800, 480))
    theme.clear_fonts()
    pygame.display.quit()


def _scene(rnd: random.Random, size=(300, 200)) -> pygame.Surface:
    out = pygame.Surface(size)
    for _ in range(6):
        pygame.draw.circle(out, [rnd.randint(0, 255) for _ in range(3)],
                           (rnd.randint(0, size[0]), rnd.randint(0, size[1])), rnd.randint(3, 60))
    return out


def test_a_kept_box_is_the_same_pixels_as_the_box_drawn_afresh(screen):
    rnd = random.Random(3)
    kept_before = len(theme.SHAPES._images)
    for _ in range(1500):
        a = _scene(rnd)
        b = a.copy()
        rect = pygame.Rect(rnd.randint(-40, 280), rnd.randint(-40, 180), rnd.randint(1, 200), rnd.randint(1, 150))
        if rnd.random() < 0.4:  # small boxes, where a thick outline spills out of pygame's rect
            rect.size = (rnd.randint(1, 30), rnd.randint(1, 30))
        fill = tuple(rnd.randint(0, 255) for _ in range(3))
        border = rnd.choice([None, tuple(rnd.randint(0, 255) for _ in range(3))])
        width, radius = rnd.randint(1, 12), rnd.choice([1, 3, 8, 14, 100])
        if rnd.random() < 0.3:
            a.set_clip(pygame.Rect(20, 20, 200, 120))
            b.set_clip(pygame.Rect(20, 20, 200, 120))
        for _ in range(3):  # drawn on the first time, kept the second, blitted from what was kept after
            assert widgets.panel(a, rect, fill, border, width, radius) == rect
        pygame.draw.rect(b, fill, rect, border_radius=radius)
        if border is not None:
            pygame.draw.rect(b, border, rect, width, border_radius=radius)
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (rect, border, width, radius)
    assert len(theme.SHAPES._images) > kept_before  # boxes were kept, not all drawn straight on


def test_a_box_is_kept_the_second_time_it_is_drawn(screen):
    surface = pygame.Surface((200, 200))
    rect = pygame.Rect(10, 10, 123, 45)
    n = len(theme.SHAPES._images)
    widgets.panel(surface, rect, (1, 2, 3))
    assert len(theme.SHAPES._images) == n
    widgets.panel(surface, rect.move(20, 30), (1, 2, 3))  # the same box elsewhere
    assert len(theme.SHAPES._images) == n + 1


def test_a_see_through_box_is_drawn_straight_on_and_not_kept(screen):
    shade = (0, 0, 0, 120)
    a = pygame.Surface((100, 100), pygame.SRCALPHA)
    a.fill((200, 10, 10, 255))
    b = a.copy()
    n = len(theme.SHAPES._images)
    widgets.panel(a, pygame.Rect(10, 10, 60, 60), shade)
    pygame.draw.rect(b, shade, pygame.Rect(10, 10, 60, 60), border_radius=theme.RADIUS)
    assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA")
    assert len(theme.SHAPES._images) == n


def test_a_kept_candy_is_the_same_pixels_as_the_candy_drawn_afresh(screen):
    from companion.games.sugar_blast.parts import candies

    rnd = random.Random(5)
    for letter in candies.CANDY_LOOKS:
        for radius in (13, 17, 18, 20, 24, 27, 40):
            a = _scene(rnd, (200, 200))
            b = a.copy()
            candies.candy(a, (100, 100), radius, letter)
            candies.candy(a, (100, 100), radius, letter)  # from what was kept
            candies._draw(b, (100, 100), radius, letter)
            assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (letter, radius)
    with pytest.raises(KeyError):
        candies.candy(a, (100, 100), 20, "Z")


def test_what_is_kept_stays_within_its_budget_the_least_recently_used_going_first():
    kept = theme.Kept(budget=3 * 10 * 10 * 4)
    images = {k: pygame.Surface((10, 10)) for k in "abcd"}
    for k in "abc":
        kept.keep((k,), images[k])
    assert kept.get(("a",)) is images["a"]  # a is now the most recently used
    kept.keep(("d",), images["d"])
    assert kept.get(("b",)) is None and kept.get(("a",)) is images["a"] and kept.get(("d",)) is images["d"]
    assert kept._bytes <= kept.budget
    kept.clear()
    assert kept.get(("a",)) is None and kept._bytes == 0


def test_a_candy_squeezed_to_no_size_is_drawn_as_before_not_an_error(screen):
    """A palette square too small for a candy gives it a radius of 0 or less (its size is
    the square's less a margin): drawn straight on as before, not a picture of negative size."""
    from companion.games.sugar_blast.parts import candies

    for radius in (0, -3, -4, -12):
        a = pygame.Surface((60, 60))
        b = a.copy()
        candies.candy(a, (30, 30), radius, "R")
        candies._draw(b, (30, 30), radius, "R")
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), radius
