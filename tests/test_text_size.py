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


LONG = ("Chocolate Rockets and Nutty Butt are not a pair: stash two of the same flavour "
        "(a Pure Sugar goes with any flavour).")
PROMPT = "Leo: scan the partner of the Chocolate Rockets, or tap its vault."


@pytest.mark.parametrize("height", range(60, 200, 7))
def test_the_verdict_and_prompt_are_whole_when_given_what_they_need_and_the_prompt_is_never_cut(height):
    from companion.ui import chrome
    from companion.ui.app import TableInfo

    info = TableInfo(verdict=LONG, verdict_ok=False)
    area = pygame.Rect(8, 8, 560, height)
    surface = pygame.Surface((600, 220))
    with record_text() as drawn:
        chrome.verdict_and_prompt(surface, area, info, PROMPT, 70, size=theme.MEDIUM + 4,
                                  prompt_size=theme.MEDIUM + 4)
    said = {d.text: d for d in drawn}
    need = chrome.verdict_and_prompt_need(info, PROMPT, area.width, 70)
    if height >= need:  # room enough: both whole
        assert said[LONG].readable and said[PROMPT].readable
    else:  # short of room: the refusal whole when it can be; the prompt left out, never cut
        assert PROMPT not in said or said[PROMPT].readable
        assert LONG in said
        if height >= chrome.verdict_lines_need(LONG, area.width, True):
            assert said[LONG].readable


def test_a_long_verdict_on_sugar_heist_takes_room_from_the_board_and_both_read_whole():
    from companion.games.sugar_heist import rules, screen
    from companion.ui.app import TableInfo

    s = rules.public_view(rules.new_game(["Grandma Josephine", "Leo", "Maya"]))
    # three lines at the verdict's size, more than VERDICT's 70 px hold
    longer = LONG + " Scan the other card of the pair, or tap Can't stash."
    info = TableInfo(verdict=longer, verdict_ok=False, prompt=PROMPT)
    surface = pygame.Surface((800, 480))
    with record_text() as drawn:
        screen.draw_game(surface, s, info)
    said = {d.text: d for d in drawn}
    assert said[longer].readable and said[PROMPT].readable
    # the verdict moved up into the board's spare room, above where it starts without one
    assert said[longer].rect[1] < screen.VERDICT.top
    with record_text() as short:
        screen.draw_game(surface, s, TableInfo(verdict="OK", verdict_ok=True, prompt=PROMPT))
    assert {d.text: d for d in short}["OK"].rect[1] >= screen.VERDICT.top
