"""Sugarrr!'s verdict room at 800x480 (issue 38): "Long verdicts are small (four lines of
small text)". A verdict is at least theme.VERDICT_MIN (26 px, read across the table on a
7" panel); the longest refusal, "does not go on any column" with five top cards named,
dropped to 21 px to keep the prompt beside it."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from companion.games import GAMES
from companion.games.sugarrr import messages
from companion.table.message_fit import catalogue, demo_said
from companion.ui import chrome, theme
from companion.ui.app import TableInfo
from companion.ui.widgets import record_text
from sugarrr_helpers import started

LONGEST_TOPS = "Strawberry 10, Blueberries 10, Pineapple 10, Apricots 10, Grapes 10"
PROMPT = "Ana: scan a card that matches the fruit or number of a column's top card, or tap Swap."


def sizes(view, text, ok, prompt):
    surface = pygame.Surface((800, 480))
    info = TableInfo(verdict=text, verdict_ok=ok, prompt=prompt, game_name="Sugarrr!", can_pause=True)
    with record_text() as drawn:
        chrome.overlay(surface, info, GAMES["sugarrr"].screen.draw_game(surface, view, info))
    from companion.games.sugarrr.screen import VERDICT

    return [d for d in drawn if d.text == text and d.rect[1] >= VERDICT.top]  # (not a label with the same words)


def test_the_longest_refusal_keeps_the_verdict_size_with_four_players():
    pygame.font.init()
    said = messages.say("fits_nowhere", card="Blueberries 10", tops=LONGEST_TOPS)
    for players in (("Ana", "Ben"), ("Ana", "Ben", "Cy", "Dee")):
        drawn = sizes(started(players), said, False, PROMPT)
        assert drawn and all(d.readable and d.size >= theme.VERDICT_MIN for d in drawn), \
            [(d.size, d.clipped) for d in drawn]


def test_no_sugarrr_verdict_is_under_the_verdict_size_at_800x480():
    pygame.font.init()
    game = GAMES["sugarrr"]
    by_phase = {}
    for s in demo_said(game):
        if not s.view.over:
            by_phase.setdefault(s.phase, s)
    small = set()
    for text in dict.fromkeys(catalogue(game)):
        for s in by_phase.values():
            for ok in (False, True):
                for d in sizes(s.view, text, ok, s.prompt):
                    if not d.readable or d.size < theme.VERDICT_MIN:
                        small.add((d.size, text))
    assert not small, sorted(small)[:5]
