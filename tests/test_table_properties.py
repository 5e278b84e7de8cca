"""Random Sugarrr! and Sugar Blast games at a table that makes mistakes (issue 9): deck
corrections at any time, tilts that never come (the Tilted tap instead), tilts toward
the wrong seat, solo and quick mode. From every state some input a table could give is
accepted until the game is over, and a refused input changes nothing."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.core.errors import BadCommand, BadScan, IllegalAction
from companion.core.events import ButtonPressed, CardScanned, Touch, TrayLevel, TrayTilted
from companion.games import find_game
from companion.games.sugar_blast.parts import board as B
from companion.games.sugar_blast import flow as blast_flow
from companion.games.sugar_blast import rules as BR
from companion.games.sugarrr import rules as SR
from companion.games.sugarrr.parts.cards import CARDS
from companion.table.verdicts import decide

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def attempt(game, state, entry, item):
    """``(state, entry)`` after ``item``, or None when it is refused (nothing changed)."""
    try:
        new_state, new_entry, _, _ = decide(game, state, entry, item)
    except (BadScan, BadCommand, IllegalAction):
        return None
    return new_state, new_entry


def play(game, state, entry, candidates, rng, steps, noise=()):
    """Walk a random game: at each state some candidate must be accepted; one of them is
    taken. ``noise(state, entry)`` gives inputs a table gets wrong: each is fed first and,
    when refused, must change nothing. Returns the final state."""
    for n in range(steps):
        if state.over:
            return state
        for item in noise(state, entry) if noise else ():
            before = (state, entry)
            after = attempt(game, state, entry, item)
            if after is None:
                assert (state, entry) == before
            elif rng.random() < 0.3:
                state, entry = after
        if state.over:
            return state
        items = candidates(state, entry, rng)
        rng.shuffle(items)
        taken = next((after for after in (attempt(game, state, entry, item) for item in items) if after is not None),
                     None)
        assert taken is not None, f"stuck at step {n}: phase {state.phase}, entry {entry}"
        state, entry = taken
    return state


# ---------------------------------------------------------------- Sugarrr!

def sugarrr_candidates(state, entry, rng):
    cards = [CardScanned(code, "scanner", 0.0) for code in CARDS]
    touches = [Touch(f"column {i}", 0.0) for i in range(1, 6)] + [Touch(t, 0.0) for t in ("done", "pass")]
    touches += [Touch(f"swap {n}", 0.0) for n in (1, 2, 3)] + [ButtonPressed("confirm", 0.0)]
    return cards + touches


def deck_corrections(rng):
    def noise(state, entry):
        waiting = state.phase in (SR.SETUP_PHASE, SR.NEW_COLUMN)  # the worst moment for an empty deck
        return [Touch(f"deck {rng.choice([0, 1, 2, 5, 40])}", 0.0)] if rng.random() < (0.3 if waiting else 0.05) else []
    return noise


@SETTINGS
@given(st.integers(0, 2**32), st.integers(2, 4))
def test_random_sugarrr_games_with_deck_corrections_never_get_stuck(seed, players):
    rng = random.Random(seed)
    game = find_game("sugarrr")
    state = SR.new_game(["Ana", "Ben", "Cy", "Dee"][:players])
    final = play(game, state, game.flow.new_entry(), sugarrr_candidates, rng, 600, deck_corrections(rng))
    SR.all_places(final)


# ---------------------------------------------------------------- Sugar Blast

def random_board(rng, supply):
    """A full board from the bag with no 3 in a line, as the rulebook sets it up."""
    while True:
        bag = [k for k, n in zip(BR.KINDS, supply) for _ in range(n)]
        rng.shuffle(bag)
        board = ["." * B.COLS] * B.ROWS
        ok = True
        for r in range(B.ROWS):
            for c in range(B.COLS):
                for i, k in enumerate(bag):
                    trial = B.put(tuple(board), (r, c), k)
                    if not B.runs(trial):
                        board = list(trial)
                        bag.pop(i)
                        break
                else:
                    ok = False
        if ok:
            return "/".join(board)


def refill_letters(state, rng):
    """Candies drawn for the empty spaces: the bag first, then the discards."""
    bag = [k for k, n in zip(BR.KINDS, state.bag) for _ in range(n)]
    rng.shuffle(bag)
    spare = [k for k, n in zip(BR.KINDS, state.discards) for _ in range(n)]
    rng.shuffle(spare)
    return "".join((bag + spare)[:state.holes])


def blast_candidates(state, entry, rng):
    out = [Touch(t, 0.0) for t in ("tilt", "done", "no-blasts", "start")]
    if state.phase == BR.TURN and not state.quick:
        out += [Touch(f"swap {s.frm[0]} {s.frm[1]} {s.to[0]} {s.to[1]}", 0.0) for s in B.legal_swaps(state.board)]
        if B.no_blasts(state.board):
            for k, n in zip(BR.KINDS, state.bag):
                cells = [(r, c) for r, c in B.cells(state.board) if state.board[r][c] != k]
                if n and cells:
                    r, c = rng.choice(cells)
                    out.append(Touch(f"draw {k} {r} {c}", 0.0))
    if state.phase in (BR.TURN, BR.CASCADE) and state.quick:
        k = rng.choice([k for k, n in zip(BR.KINDS, state.supply) if n])
        out += [Touch(f"quick 3 {k}", 0.0), Touch(f"quick 4 {k}", 0.0), Touch(f"quick box {k}", 0.0),
                Touch(f"quick 5-6 {k} {rng.randint(5, 12)}", 0.0)]
    out += [Touch(f"blast {i + 1}", 0.0) for i in range(len(state.pending))]
    out += [Touch("keep " + " ".join(o), 0.0) for o in blast_flow.keep_options(state)]
    back = blast_flow.return_options(state)
    if back:
        out += [Touch(f"return {back[0] + 1} " + " ".join(o), 0.0) for o in back[1]]
    if state.phase == BR.REFILL and not state.quick:
        out.append(Touch("refill " + refill_letters(state, rng), 0.0))
    if state.phase == BR.TILT and rng.random() < 0.5:  # the tray, when it works
        out = [TrayTilted(state.seats[state.active], 20.0, 0.0)] + out
    if entry.tilt_seen is not None:
        out.append(TrayLevel(0.0))
    return out


def wrong_tilts(rng):
    """Tilts toward another seat and stray levels: always a gentle no."""
    def noise(state, entry):
        if state.phase != BR.TILT or rng.random() < 0.5:
            return []
        seats = [s for s in range(1, 5) if s != state.seats[state.active]]
        return [TrayTilted(rng.choice(seats), 20.0, 0.0)]
    return noise


@SETTINGS
@given(st.integers(0, 2**32), st.sampled_from(["twin", "solo", "quick", "solo-quick"]))
def test_random_sugar_blast_games_with_missing_and_wrong_tilts_never_get_stuck(seed, mode):
    rng = random.Random(seed)
    game = find_game("sugar-blast")
    solo, quick = mode.startswith("solo"), mode.endswith("quick")
    players = ["Ana"] if solo else ["Ana", "Ben", "Cy"][:rng.choice([2, 3])]
    state = BR.new_game(players, None if solo else "nine-any", solo=solo, quick=quick)
    entry = game.flow.new_entry()
    if not quick:
        state, entry = attempt(game, state, entry, Touch("board " + random_board(rng, state.supply), 0.0))
    final = play(game, state, entry, blast_candidates, rng, 400, wrong_tilts(rng))
    BR.check_conservation(final)
