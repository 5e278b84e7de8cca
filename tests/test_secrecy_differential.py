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
``make test`` plays 50 of each (150 in all, about a minute); ``make soak`` 1,000 of each.
"""

from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.ui.app import App  # noqa: E402

from secrecy_helpers import compare, swap_two  # noqa: E402

GAMES_EACH = int(os.environ.get("SECRECY_GAMES", "50"))


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


def seeds(n: int, chunks: int = 5):
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


# ---------------------------------------------------------------- Sweet Deals (tracked hands)

def sweet_deals_lines(players, seed: int) -> list[str]:
    """What a seeded table of tests/sweet_deals_helpers.py types in a whole tracked game."""
    from sweet_deals_helpers import TrackedTable

    table = TrackedTable(list(players), seed=seed, store=":memory:", turns=12)
    lines: list[str] = []
    feed = table.feed

    def typed(item: str, ok: bool = True):
        lines.append(item)
        return feed(item, ok)

    table.feed = typed
    table.play()
    return lines


def sweet_deals_hidden(state) -> list[str]:
    """Every card of a hand; the hand that must scan now most likely to scan the wrong one."""
    from companion.games.sweet_deals.parts.prompts import scanner

    now = scanner(state) if state.phase in ("deal", "score") else (
        state.winner if state.phase == "swap" and state.take is None and state.winner is not None else state.active)
    return [c for seat, hand in enumerate(state.hands) for c in hand * (4 if seat == now else 1)]


def sweet_deals_urge(state) -> float:
    """When a card of a hand is asked for (a swap, a tie, a discard), the wrong one is often scanned."""
    return 0.6 if state.phase in ("swap", "reveal", "discard", "bake-discard", "bake-grab") else 0.0


@pytest.mark.parametrize("chunk", seeds(GAMES_EACH), ids=lambda r: f"seeds {r.start}-{r.stop - 1}")
def test_sweet_deals_games_differing_in_secret_hands_look_the_same(app, chunk):
    from companion.games.sweet_deals.parts.cards import CARDS
    from sweet_deals_helpers import box

    compared = hidden = 0
    for seed in chunk:
        rng = random.Random(seed)
        players = ("Ana", "Ben", "Cy", "Di", "Eve")[:rng.choice((2, 3, 4, 5))]
        lines = sweet_deals_lines(players, seed)
        dealt = [line for line in lines[:7 * len(players)]]
        sigma = swap_two(box(len(players)), lambda c: CARDS[c].name, rng, dealt)
        done = compare("sweet-deals", players, {"mode": "tracked"}, lines, sigma, app, sweet_deals_hidden, rng,
                       picture=seed % 4 == 0, urge=sweet_deals_urge)
        compared, hidden = compared + done.inputs, hidden + done.hidden_mistakes
    assert compared > 20 * len(chunk) and hidden > 2 * len(chunk), (compared, hidden)


# ---------------------------------------------------------------- the toy game

def toy_lines(players, rounds: int, rng: random.Random) -> list[str]:
    """A whole game of High Card: every seat scans its hand, then each round every seat
    lays one card face down and the table taps Reveal."""
    import toy_game

    deck = list(toy_game.CARDS)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(rounds)] for _ in players]
    lines = [c for hand in hands for c in hand]
    for _ in range(rounds):
        for hand in hands:
            lines.append(hand.pop(rng.randrange(len(hand))))
        lines.append("/reveal")
    return lines


def toy_hidden(state) -> list[str]:
    return [c for hand in state.hands for c in hand] + [c for c in state.down if c is not None]


@pytest.mark.toy_game
@pytest.mark.parametrize("chunk", seeds(GAMES_EACH), ids=lambda r: f"seeds {r.start}-{r.stop - 1}")
def test_toy_games_differing_in_hidden_hands_look_the_same(app, chunk):
    import toy_game

    compared = hidden = 0
    for seed in chunk:
        rng = random.Random(seed)
        players, rounds = ("Ana", "Ben", "Cy", "Di")[:rng.choice((2, 3, 4))], rng.choice((2, 3, 4, 5, 6))
        lines = toy_lines(players, rounds, rng)
        sigma = swap_two(list(toy_game.CARDS), lambda c: toy_game.CARDS[c].name, rng, lines[:rounds])
        done = compare("toy", players, {"rounds": str(rounds)}, lines, sigma, app, toy_hidden, rng,
                       picture=seed % 4 == 0, mistakes=0.3)
        compared, hidden = compared + done.inputs, hidden + done.hidden_mistakes
    assert compared > 8 * len(chunk) and hidden > len(chunk), (compared, hidden)


def test_a_sweet_deals_card_the_deck_leaves_out_is_no_secret():
    """Sweet Deals rulebook, "Setup": "2-3 Players: Remove 7 Chocolates, 7 Popsicles, the
    Chocolate Popsicle, 7 Pies, 7 Ice Creams, and the Pie & Ice Cream card, leaving 33
    cards." Which cards a deck leaves out is known to everyone, so a Chocolate scanned at
    the deal of a 2-player game is told in its own words (put it back in the box), not
    as a hidden card of a hand; a card of the deck stays hidden."""
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.games.sweet_deals.parts.cards import code_for
    from companion.table.session import Session

    s = Session.start("sweet-deals", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), options={"mode": "tracked"},
                      tap_off=0)
    out = s.handle(CardScanned(code_for("Chocolate", 1, 1), "scanner", 1.0))
    assert (out.verdict, out.secret) == ("rejected", False)
    assert out.reason.startswith("That card is not used with 2 players: put it back in the box.")
    kept = s.handle(CardScanned(code_for("Cupcake", 1, 1), "scanner", 2.0))
    assert (kept.verdict, kept.secret, kept.code) == ("accepted", True, None)
