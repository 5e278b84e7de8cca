"""An accepted and a refused verdict are told apart without colour (issue 38): drawn with
the same words in the same box, then seen through simulations of deuteranopia and
protanopia (the red-green colour blindness of about 1 boy in 12), the two pictures still
differ in shape and layout, measured by their structural similarity (SSIM, on
lightness), not only by their mean colour, which the simulations bring close together."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from companion.ui import chrome, theme
from companion.ui.app import TableInfo

daltonlens = pytest.importorskip("daltonlens.simulate")

WORDS = "Strawberry 7 does not match Pear 4: play a Pear or a 4."
BOX = pygame.Rect(8, 8, 564, 76)
KINDS = {"deuteranopia": "DEUTAN", "protanopia": "PROTAN"}


def drawn(ok: bool, words: str = WORDS, box: pygame.Rect = BOX) -> np.ndarray:
    """The verdict banner for ``ok`` as an RGB array (height, width, 3)."""
    pygame.font.init()
    surface = pygame.Surface((box.right + 8, box.bottom + 8))
    surface.fill(theme.BG)
    chrome.verdict(surface, box, TableInfo(verdict=words, verdict_ok=ok), theme.BIG, max_lines=4)
    return pygame.surfarray.array3d(surface).swapaxes(0, 1).copy()


def seen_by(image: np.ndarray, kind: str) -> np.ndarray:
    """``image`` as a dichromat of ``kind`` sees it (Brettel, Viénot and Mollon 1997, full severity)."""
    deficiency = getattr(daltonlens.Deficiency, KINDS[kind])
    return daltonlens.Simulator_Brettel1997().simulate_cvd(image, deficiency, severity=1.0)


def lightness(image: np.ndarray) -> np.ndarray:
    return image.astype(np.float64) @ np.array([0.2126, 0.7152, 0.0722])


def ssim(a: np.ndarray, b: np.ndarray, block: int = 8) -> float:
    """Mean structural similarity of two lightness images over ``block``-px windows
    (Wang et al. 2004, constants for 8-bit pictures): 1.0 for the same picture."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    h, w = (a.shape[0] // block) * block, (a.shape[1] // block) * block

    def windows(x):
        return x[:h, :w].reshape(h // block, block, w // block, block).swapaxes(1, 2).reshape(-1, block * block)

    x, y = windows(a), windows(b)
    mx, my = x.mean(1), y.mean(1)
    vx, vy = x.var(1), y.var(1)
    cov = ((x - mx[:, None]) * (y - my[:, None])).mean(1)
    return float((((2 * mx * my + c1) * (2 * cov + c2)) / ((mx ** 2 + my ** 2 + c1) * (vx + vy + c2))).mean())


@pytest.fixture(params=list(theme.THEMES))
def palette(request):
    theme.use(request.param)
    yield request.param
    theme.use("default")


@pytest.mark.parametrize("kind", list(KINDS))
def test_accepted_and_refused_differ_in_shape_as_a_colour_blind_player_sees_them(palette, kind, tmp_path):
    """Issue 38: "To a colour-blind player (simulated deuteranopia) an accepted and a
    refused verdict look the same but for a small ✓/✗". Through the simulation their
    mean colours are near (that is what the simulation takes away), but their structure
    is not: the refused one has a bordered square box, its words first and a stop sign
    on the right, the accepted one a pill with the tick first."""
    yes, no = seen_by(drawn(True), kind), seen_by(drawn(False), kind)
    pygame.image.save(pygame.surfarray.make_surface(np.concatenate([yes, no]).swapaxes(0, 1)),
                      str(tmp_path / f"verdicts-{palette}-{kind}.png"))
    similar = ssim(lightness(yes), lightness(no))
    assert similar < 0.75, f"accepted and refused are {similar:.2f} alike in structure"


def test_the_refused_verdict_is_bordered_and_its_words_come_first():
    """The refused verdict's words start at its left edge (the stop sign is after them);
    the accepted verdict's words come after its tick."""
    from companion.ui.widgets import record_text

    pygame.font.init()
    surface = pygame.Surface((600, 100))
    starts = {}
    for ok in (True, False):
        with record_text() as said:
            chrome.verdict(surface, BOX, TableInfo(verdict=WORDS, verdict_ok=ok), theme.BIG, max_lines=4)
        starts[ok] = said[0].rect[0]
    assert starts[False] < BOX.left + 20 < BOX.left + 50 < starts[True]
    no = drawn(False)
    assert tuple(no[BOX.centery, BOX.left + 1]) == theme.BAD  # the bright border, down its left side


@pytest.mark.parametrize("words", [WORDS, "Chocolate Rockets and Nutty Butt are not a pair: stash two of the same "
                                          "flavour (a Pure Sugar goes with any flavour)."])
def test_a_long_verdict_is_drawn_at_the_verdict_size_when_its_box_holds_it(words):
    """Issue 38: "Long verdicts are small (four lines of small text)". Given the height
    verdict_lines_need asks, a verdict is drawn whole at theme.VERDICT_MIN or more."""
    from companion.ui.widgets import record_text

    pygame.font.init()
    for ok in (True, False, None):
        box = pygame.Rect(8, 8, 564, chrome.verdict_lines_need(words, 564, ok is not None))
        surface = pygame.Surface((600, box.bottom + 8))
        with record_text() as said:
            chrome.verdict(surface, box, TableInfo(verdict=words, verdict_ok=ok), theme.BIG, max_lines=8)
        assert said[0].readable and said[0].size >= theme.VERDICT_MIN, (ok, said[0].size)
