"""Secrecy by construction, checked by difference (issue 36): for every game with hidden
information, seeded random games are played twice, with the same public history and
different hidden cards, and every channel the table has -- the screen's text, picture
and buttons, the verdict and prompt, ``/help`` and the command list, the text and JSON
logs, the history and the venue messages -- must be byte for byte the same until the
rules reveal a card that differs (:mod:`secrecy_helpers`). Mistakes are mixed in: a
hidden card scanned when it cannot be played, and the game's commands tapped at random.

Sugar Heist, Phase 3: "Battle Cards are kept face down in front of you, unless it's a
card which must be played immediately." Sweet Deals, "Setup": "Deal each player 7
Dessert Cards facedown". The toy game (tests/toy_game.py): a secret hand, one card laid
face down a round.

``SECRECY_GAMES`` (an environment variable) sets how many seeded games each game plays:
``make test`` plays a few hundred in all; ``make soak`` plays thousands.
"""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.ui.app import App  # noqa: E402

from secrecy_helpers import compare, swap_two  # noqa: E402

GAMES_EACH = int(os.environ.get("SECRECY_GAMES", "40"))
SOAK = GAMES_EACH > 40


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


def seeds(n: int, chunks: int = 4):
    """``n`` seeds in ``chunks`` test cases (a failure names its chunk)."""
    per = max(1, n // chunks)
    return [range(k * per, (k + 1) * per) for k in range(chunks)]


# ---------------------------------------------------------------- Sugar Heist

def heist_hidden(state) -> list[str]:
    """Every Battle Card held face down now; the player whose turn it is most likely to
    scan theirs."""
    return [c for seat, held in enumerate(state.held) for c in held * (4 if seat == state.active else 1)]


def heist_urge(state) -> float:
    """In their own Phase 3 a player holding a face-down card often tries it."""
    return 0.8 if state.phase == "buy" and state.held[state.active] else 0.0


@pytest.mark.parametrize("chunk", seeds(GAMES_EACH), ids=lambda r: f"seeds {r.start}-{r.stop - 1}")
def test_sugar_heist_games_differing_in_face_down_cards_look_the_same(app, chunk):
    from companion.games.sugar_heist.parts.cards import BATTLE_CODES, CARDS
    from test_sugar_heist_whole_games import Sim

    compared = mistakes = hidden = 0
    for seed in chunk:
        rng = random.Random(seed)
        players = ("Ana", "Ben", "Cy", "Di")[:rng.choice((2, 3, 4))]
        sim = Sim(players, seed)
        sim.play()
        bought = [line for line in sim.lines if line in BATTLE_CODES]
        kept = [c for c in bought if CARDS[c].kind == "defense"] or bought  # held longest: a Mom, a Grandma
        sigma = swap_two(list(BATTLE_CODES), lambda c: CARDS[c].name, rng, kept)
        done = compare("sugar-heist", players, {}, sim.lines, sigma, app, heist_hidden, rng,
                       picture=seed % 4 == 0, urge=heist_urge)
        compared, mistakes, hidden = compared + done.inputs, mistakes + done.mistakes, hidden + done.hidden_mistakes
    assert compared > 20 * len(chunk) and hidden > 2 * len(chunk), (compared, mistakes, hidden)
