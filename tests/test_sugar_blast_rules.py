"""Sugar Blast rules against the rulebook (../shared/rulebooks/sugar-blast.txt)."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from companion.core.errors import IllegalAction
from companion.games.sugar_blast.parts import board as B
from companion.games.sugar_blast import rules as R

# Swapping (2,1)<->(2,2) makes PPP down column 2 (rows 0-2).
START = B.parse_board("""
ORPRBP
YGPPRO
BPROYG
ROYGBP
YGYPRO
BPROYG
""")


def run(state, *actions):
    events = []
    for action in actions:
        state, ev = R.step(state, action)
        R.check_conservation(state)
        events += ev
    return state, events


def started(board=START, players=("Ana", "Ben"), goal="nine-any", solo=False):
    s = R.new_game(players, goal, solo=solo)
    return run(s, R.SetBoard(board), R.StartGame())[0]


def refill(state, candies):
    """Place ``candies`` (a string) in the refill order for the active seat."""
    order = B.refill_order(state.board, state.seats[state.active])
    return R.Refill.of(dict(zip(order, candies)))


def blasted(state):
    """Ana's first turn up to the refill: the PPP Blast solved, tilted toward her."""
    return run(state, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)), R.Tilted(1))


def give(state, player, letters):
    """Move candies from the bag to a player's kept candies (a game further on)."""
    c = R.counts(letters)
    kept = state.kept[:player] + (R.plus(state.kept[player], c),) + state.kept[player + 1:]
    return replace(state, bag=R.minus(state.bag, c), bag_n=state.bag_n - len(letters), kept=kept)


# ---------------------------------------------------------------- set-up

def test_setup_rejects_three_in_a_line():
    s = run(R.new_game(["Ana", "Ben"], "nine-any"), R.SetBoard(START), R.PlaceCandy(0, 2, "R"))[0]
    with pytest.raises(IllegalAction, match="3 Red candies are in a line in row 1"):
        R.step(s, R.StartGame())


def test_setup_needs_a_full_board_and_real_candies():
    s = R.new_game(["Ana", "Ben"], "nine-any")
    with pytest.raises(IllegalAction, match="36 cells are still empty"):
        R.step(s, R.StartGame())
    with pytest.raises(IllegalAction, match="'X' is not a candy"):
        R.step(s, R.PlaceCandy(0, 0, "X"))
    with pytest.raises(IllegalAction, match="only 12"):
        R.step(s, R.SetBoard(("RRRRRR",) * 2 + ("R.....",) + ("......",) * 3))


def test_the_bag_holds_what_is_not_on_the_board():
    s = started()
    assert s.bag_n == 36 and s.on_board_n == 36 and s.phase == R.TURN
    assert dict(zip(R.KINDS, s.bag)) == {"R": 5, "O": 6, "Y": 6, "G": 7, "B": 8, "P": 4}


# ---------------------------------------------------------------- a turn

def test_a_swap_must_be_neighbours_and_make_a_blast():
    s = started()
    with pytest.raises(IllegalAction, match="touch"):
        R.step(s, R.SwapCandies((0, 0), (1, 1)))
    with pytest.raises(IllegalAction, match="makes no Blast"):
        R.step(s, R.SwapCandies((0, 0), (0, 1)))


def test_a_three_blast_turn_tilt_refill_and_discards_back_to_the_bag():
    s = started()
    s, ev = run(s, R.SwapCandies((2, 1), (2, 2)))
    assert s.phase == R.KEEP and ev[0].blasts[0].kind == "3"
    with pytest.raises(IllegalAction, match="keep 1 Purple"):
        R.step(s, R.KeepCandies(("R",)))
    s, ev = run(s, R.KeepCandies(("P",)))
    assert s.kept[0] == R.counts("P") and s.discards_n == 2 and s.phase == R.TILT
    s, ev = run(s, R.Tilted(1))
    prompt = ev[-1]
    assert isinstance(prompt, R.RefillPrompt)
    assert prompt.message == "Fill 3 spaces from the bag, bottom to top" and (prompt.n, prompt.bag_count) == (3, 36)
    s, ev = run(s, refill(s, "GOB"))
    assert isinstance(ev[-1], R.TurnEnded) and s.active == 1 and s.phase == R.TURN
    assert s.discards_n == 0 and s.bag_n == 35 and s.turn == 2


def test_a_tilt_toward_the_wrong_seat_or_with_nothing_to_refill_is_a_gentle_no():
    s = started()
    with pytest.raises(IllegalAction, match="Nothing to refill"):
        R.step(s, R.Tilted(1))
    s = run(s, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)))[0]
    with pytest.raises(IllegalAction, match="toward Ben. Ana: tilt it toward you"):
        R.step(s, R.Tilted(3))
    assert s.phase == R.TILT


def test_ben_at_the_top_tilts_and_the_candies_slide_up():
    s = started(players=("Ana", "Ben"))
    assert s.seats == (1, 3)
    s = replace(s, active=1)                          # Ben's turn
    s, ev = run(s, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)), R.Tilted(3))
    slid = [e for e in ev if isinstance(e, R.CandiesSlid)][0]
    # Column 2 loses rows 0-2; its other candies (Y Y R) slide up to rows 0-2.
    assert [slid.board[r][2] for r in range(6)] == ["Y", "Y", "R", ".", ".", "."]
    assert "top" in slid.message and B.refill_order(s.board, 3) == [(3, 2), (4, 2), (5, 2)]


#: The rulebook's "fill all empty spaces from bottom to top" as each seat sees the board
#: on the screen, its own side first: what its panel and tilt cue say (screen_order_{edge}).
SEEN_ORDER = {"bottom": "bottom to top", "top": "top to bottom", "left": "left to right", "right": "right to left"}


@pytest.mark.parametrize("player", range(4))
def test_the_refill_prompt_and_verdict_say_the_order_the_refilling_seat_sees(player):
    """Every seat was told "bottom to top", the top seat too (issue 38): the verdict after
    the tilt and the prompt say the order as that seat's panel does, its side first."""
    from companion.games.sugar_blast import flow

    s = replace(started(players=("Ana", "Ben", "Cy", "Dee")), active=player)
    seat = s.seats[player]
    edge = B.SEAT_EDGES[seat]
    s, ev = run(s, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)), R.Tilted(seat))
    prompt = [e for e in ev if isinstance(e, R.RefillPrompt)][0]
    assert prompt.message == f"Fill 3 spaces from the bag, {SEEN_ORDER[edge]}", edge
    assert flow.prompt(s) == f"Fill 3 spaces from the bag, {SEEN_ORDER[edge]}: tap a colour, then the space."
    assert SEEN_ORDER[edge] in flow.lesson(s, None)
    if edge != "bottom":
        said = (prompt.message, flow.prompt(s), flow.lesson(s, None))
        assert not any("bottom to top" in words for words in said), (edge, said)
    quick = replace(s, quick=True)
    assert flow.prompt(quick) == f"Fill 3 spaces from the bag, {SEEN_ORDER[edge]}, then tap Done."


# ---------------------------------------------------------------- cascades and order

def test_cascade_a_new_blast_after_refill_is_solved_before_the_turn_ends():
    s, _ = blasted(started())
    assert B.refill_order(s.board, 1) == [(2, 2), (1, 2), (0, 2)]   # column 2, bottom to top
    s, ev = run(s, refill(s, "GOR"))                  # R at (0,2): row 0 becomes O R R R B P
    found = [e for e in ev if isinstance(e, R.BlastFound)]
    assert s.phase == R.KEEP and found[0].blasts[0].cells == ((0, 1), (0, 2), (0, 3))
    s, ev = run(s, R.KeepCandies(("R",)), R.Tilted(1))
    assert s.kept[0] == R.counts("PR") and ev[-1].n == 3
    s, ev = run(s, refill(s, "YBG"))
    assert isinstance(ev[-1], R.TurnEnded) and s.active == 1 and s.bag_n == 36 - 6 + 4


# After the PPP Blast column 2 is empty in rows 0-2 (START keeps Y at (3,2) and (4,2)).
# Refilling Y at (2,2), (1,2) and R at (0,2) makes two Blasts at once: R R R across row 0
# and Y Y Y Y down column 2. They share no candy, but the 4-Blast removes all of column
# 2, the R at (0,2) too.
ORDER_REFILL = "YYR"


def test_two_blasts_at_once_the_player_chooses_which_to_solve_first():
    s, _ = blasted(started())
    s, ev = run(s, refill(s, ORDER_REFILL))
    assert s.phase == R.CHOOSE and [(b.kind, b.candy) for b in s.pending] == [("3", "R"), ("4", "Y")]
    assert "2 Blasts at once" in ev[-1].message
    with pytest.raises(IllegalAction, match="Choose Blast 1 to 2"):
        R.step(s, R.ChooseBlast(2))
    # Every Blast is removed, tilted and refilled on its own (issue 9). R first: tilt and
    # refill the 3 spaces of row 0; the Y column still stands and is solved next.
    r_first = run(s, R.ChooseBlast(0), R.KeepCandies(("R",)))[0]
    assert r_first.phase == R.TILT and r_first.pending == ()
    r_first = run(r_first, R.Tilted(1))[0]
    assert r_first.phase == R.REFILL and r_first.holes == 3
    r_first = run(r_first, refill(r_first, "GBG"))[0]
    assert r_first.phase == R.KEEP and (r_first.pending[0].kind, r_first.pending[0].candy) == ("4", "Y")
    # Y first: its column takes the R at (0,2) with it, and the row of R is gone.
    y_first = run(s, R.ChooseBlast(1), R.KeepCandies(("Y", "R")))[0]
    assert y_first.phase == R.TILT and y_first.kept[0] == R.counts("PYR")
    y_first = run(y_first, R.Tilted(1), refill(y_first, "GBGBOB"))[0]
    assert not any(b.candy == "R" for b in y_first.pending)


def test_keep_must_come_from_the_removed_candies():
    s, _ = blasted(started())
    s = run(s, refill(s, ORDER_REFILL), R.ChooseBlast(1))[0]
    with pytest.raises(IllegalAction, match="Keep only candies this Blast removes"):
        R.step(s, R.KeepCandies(("Y", "G")))       # column 2 is R Y Y Y Y R: no G in it
    with pytest.raises(IllegalAction, match="keep 1 Yellow and 1 candy of another kind"):
        R.step(s, R.KeepCandies(("Y", "Y")))


# ---------------------------------------------------------------- No Blasts?

STUCK = B.parse_board("RROOYY\nGGBBPP\nRROOYY\nGGBBPP\nRROOYY\nGGBBPP")


def test_no_blasts_draw_is_refused_while_a_swap_still_works():
    with pytest.raises(IllegalAction, match="still a swap"):
        R.step(started(), R.NoBlastsDraw("R", (0, 0)))


def test_no_blasts_draw_that_makes_nothing_ends_the_turn():
    s = started(STUCK)
    assert B.no_blasts(STUCK)
    with pytest.raises(IllegalAction, match="different kind"):
        R.step(s, R.NoBlastsDraw("R", (0, 0)))
    after, ev = run(s, R.NoBlastsDraw("G", (0, 0)))   # column 0 becomes G G R: no Blast
    assert isinstance(ev[-1], R.TurnEnded) and after.board[0][0] == "G" and after.active == 1
    assert after.bag == R.plus(R.minus(s.bag, R.counts("G")), R.counts("R"))


def test_no_blasts_with_an_empty_bag_passes_the_turn():
    s = started(STUCK)
    with pytest.raises(IllegalAction, match="Take 1 candy from the bag"):
        R.step(s, R.NoMoreBlasts())
    s = give(s, 1, "".join(_letters(s.bag)))
    s, ev = run(s, R.NoMoreBlasts())
    assert isinstance(ev[-1], R.TurnEnded) and s.active == 1
    with pytest.raises(IllegalAction, match="still a swap"):
        R.step(started(), R.NoMoreBlasts())


def test_no_blasts_draw_that_makes_a_blast_is_resolved():
    s, ev = run(started(STUCK), R.NoBlastsDraw("R", (0, 2)))   # row 0: R R R O Y Y
    assert s.phase == R.KEEP and s.pending[0].cells == ((0, 0), (0, 1), (0, 2))


# ---------------------------------------------------------------- goals

@pytest.mark.parametrize("goal, met, not_met", [
    ("two-threes", "RRRGGG", "RRRGGB"),
    ("two-twos-and-a-three", "RRRGGBB", "RRRRGGB"),
    ("five-different", "ROYGB", "ROYGGYY"),
    ("four-and-two", "RRRRGG", "RRRGGG"),
    ("four-twos", "RROOYYGG", "RRRRRROOYY"),
    ("nine-any", "RRRRRRRRR", "ROYGBPRO"),
])
def test_each_goal_card_met_and_not_met(goal, met, not_met):
    assert R.goal_met(goal, R.counts(met)) and not R.goal_met(goal, R.counts(not_met))


def test_goal_cards_are_the_six_printed_ones():
    assert len(R.GOALS) == 6 and R.GOALS["nine-any"]["text"] == "Have 9 Candies of any type."


def test_the_first_player_to_meet_the_goal_wins():
    s = give(started(goal="nine-any"), 0, "ROYGBROY")     # Ana has 8; her Blast brings 1 more
    s, ev = run(s, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)))
    assert [type(e) for e in ev][-2:] == [R.GoalMet, R.GameOver]
    assert s.phase == R.OVER and s.winner == 0 and ev[-1].winner == 0 and ev[-1].goal == "nine-any"
    # Issue 38: the score line says what a score counts ("Red 2 Orange 2" did not)
    assert R.result(s).players[0].detail == "9 Candies kept: 2 Red, 2 Orange, 2 Yellow, 1 Green, 1 Blue, 1 Purple"
    with pytest.raises(IllegalAction, match="game is over"):
        R.step(s, R.Tilted(1))


# ---------------------------------------------------------------- shortage

def test_short_bag_uses_the_discards():
    s = started()
    s = give(s, 1, "".join(k * n for k, n in zip(R.KINDS, s.bag)).replace("G", "", 1).replace("B", "", 1))
    assert s.bag == R.counts("GB")
    s, ev = blasted(s)                                # 3 holes, bag 2, discards P P
    short = [e for e in ev if isinstance(e, R.ShortageUseDiscards)][0]
    assert (short.from_bag, short.from_discards) == (2, 1) and isinstance(ev[-1], R.RefillPrompt)
    with pytest.raises(IllegalAction, match="Use every candy in the bag"):
        R.step(s, refill(s, "GPP"))
    s, ev = run(s, refill(s, "GBP"))
    assert isinstance(ev[-1], R.TurnEnded) and s.bag == R.counts("P")   # the other P comes back


def test_still_short_every_player_returns_two():
    s = started()
    s = give(s, 1, "".join(k * n for k, n in zip(R.KINDS, s.bag)))      # the bag is empty
    s, ev = blasted(s)                                # 3 holes, bag 0, discards 2
    assert isinstance(ev[-1], R.ShortageReturnTwo) and ev[-1].players == (0, 1) and s.phase == R.RETURN
    with pytest.raises(IllegalAction, match="Ana: put back 1"):   # Ana has only her P
        R.step(s, R.ReturnCandies(0, ("R",)))
    s, ev = run(s, R.ReturnCandies(0, ("P",)))
    assert s.phase == R.RETURN
    with pytest.raises(IllegalAction, match="already"):
        R.step(s, R.ReturnCandies(0, ()))
    s, ev = run(s, R.ReturnCandies(1, ("R", "O")))
    assert isinstance(ev[-1], R.RefillPrompt) and s.bag == R.counts("PRO") and s.phase == R.REFILL


# ---------------------------------------------------------------- solo

SOLO = B.parse_board("RRYYGG\nBBRPRR\nYYGGBB\nPPRRYY\nGGBBPP\nRRYYGG")


def test_solo_has_no_orange_and_sixty_candies():
    s = R.new_game(["Ana"], solo=True)
    assert s.total == 60 and s.bag[R.KINDS.index("O")] == 0
    with pytest.raises(IllegalAction, match="Orange candies are out of the game"):
        R.step(s, R.PlaceCandy(0, 0, "O"))


def test_solo_loses_when_the_bag_cannot_refill_the_board():
    s = started(SOLO, players=("Ana",), goal=None, solo=True)
    s = give(s, 0, "".join(k * n for k, n in zip(R.KINDS, s.bag)))
    s, ev = run(s, R.SwapCandies((1, 2), (1, 3)), R.KeepCandies(("R",)), R.Tilted(1))
    assert isinstance(ev[-1], R.GameOver) and ev[-1].winner is None and s.phase == R.OVER


def test_solo_wins_on_six_candies_in_one_turn_and_not_across_turns():
    s = run(R.new_game(["Ana"], solo=True, quick=True), R.StartGame())[0]
    s, ev = run(s, R.QuickBlast("4", "R"), R.KeepCandies(("R", "G")), R.Tilted(1), R.Refill(()),
                R.NoMoreBlasts())                     # 2 this turn, then the turn ends
    assert s.turn_kept == 0 and s.phase == R.TURN
    big = (R.QuickBlast("5-6", "B", 5), R.KeepCandies(("B", "B")), R.Tilted(1), R.Refill(()))
    s, ev = run(s, *big, *big, R.QuickBlast("box", "Y", 9), R.KeepCandies(("Y", "P")))
    assert isinstance(ev[-1], R.GameOver) and ev[-1].winner == 0 and s.turn_kept == 6


# ---------------------------------------------------------------- quick mode

def test_quick_mode_counts_removals_from_the_blast_type():
    s = run(R.new_game(["Ana", "Ben"], "four-twos", quick=True), R.StartGame())[0]
    assert s.board is None and (s.on_board_n, s.bag_n) == (36, 36)
    with pytest.raises(IllegalAction, match="A 5-6-Blast removes 5 to 12 candies: how many"):
        R.step(s, R.QuickBlast("5-6", "R"))
    with pytest.raises(IllegalAction, match="not a candy"):
        R.step(s, R.QuickBlast("3", "X"))
    s, ev = run(s, R.QuickBlast("4", "B"), R.KeepCandies(("B", "O")))
    assert (s.on_board_n, s.discards_n) == (30, 4)
    s, ev = run(s, R.Tilted(1))
    assert ev[-1].message == "Fill 6 spaces from the bag, bottom to top"
    with pytest.raises(IllegalAction, match="just tap Done"):
        R.step(s, R.Refill((((0, 0), "R"),)))
    s, ev = run(s, R.Refill(()), R.QuickBlast("3", "R"), R.KeepCandies(("R",)), R.Tilted(1), R.Refill(()),
                R.NoMoreBlasts())
    assert isinstance(ev[-1], R.TurnEnded) and s.bag_n == 36 - 9 + 6 and s.kept[0] == R.counts("BOR")


def test_new_game_checks_players_goal_and_seats():
    with pytest.raises(ValueError):
        R.new_game(["Ana", "Ben"])                    # no Goal Card
    with pytest.raises(ValueError):
        R.new_game(["Ana"], "nine-any", solo=True)
    with pytest.raises(ValueError):
        R.new_game(["A", "B"], "nine-any", seats=(1, 1))
    assert R.new_game(["A", "B", "C", "D"], "nine-any").seats == (1, 4, 3, 2)


# ---------------------------------------------------------------- conservation through random games

def _letters(c):
    return [k for k, n in zip(R.KINDS, c) for _ in range(n)]


def _random_start(rng, state):
    pool = _letters(state.supply)
    while True:
        rng.shuffle(pool)
        board = tuple("".join(pool[r * B.COLS:(r + 1) * B.COLS]) for r in range(B.ROWS))
        if not B.start_runs(board):
            return board


def _random_action(rng, s):
    """A legal action for the phase, chosen at random (the table's side of the game)."""
    if s.phase == R.TURN:
        swaps = B.legal_swaps(s.board)
        if swaps:
            swap = rng.choice(swaps)
            return R.SwapCandies(swap.frm, swap.to)
        if not R.can_draw(s):
            return R.NoMoreBlasts()
        candy = rng.choice([k for k in R.KINDS if s.bag[R.KINDS.index(k)]])
        cell = rng.choice([c for c in B.cells(s.board) if s.board[c[0]][c[1]] != candy])
        return R.NoBlastsDraw(candy, cell)
    if s.phase == R.CHOOSE:
        return R.ChooseBlast(rng.randrange(len(s.pending)))
    if s.phase == R.KEEP:
        blast = s.pending[0]
        others = [s.board[r][c] for r, c in blast.removes if s.board[r][c] != blast.candy]
        return R.KeepCandies((blast.candy,) * blast.keep_matched + tuple(rng.sample(others, blast.keep_other)))
    if s.phase == R.TILT:
        return R.Tilted(s.seats[s.active])
    if s.phase == R.RETURN:
        p = s.to_return[0]
        return R.ReturnCandies(p, tuple(rng.sample(_letters(s.kept[p]), min(2, sum(s.kept[p])))))
    if s.phase == R.REFILL:
        n = s.holes
        pool = _letters(s.bag)
        if len(pool) < n:
            pool += rng.sample(_letters(s.discards), n - len(pool))
        drawn = rng.sample(pool, n)
        return R.Refill.of(dict(zip(B.refill_order(s.board, s.seats[s.active]), drawn)))
    raise AssertionError(s.phase)


def _junk(rng):
    cell = (rng.randrange(-1, 7), rng.randrange(-1, 7))
    return rng.choice([
        R.Tilted(rng.randrange(0, 6)), R.SwapCandies(cell, (cell[0], cell[1] + 1)), R.ChooseBlast(rng.randrange(-1, 3)),
        R.KeepCandies(tuple(rng.choice("ROYGBPX") for _ in range(rng.randrange(3)))), R.StartGame(),
        R.ReturnCandies(rng.randrange(-1, 4), ("R", "O")), R.NoBlastsDraw(rng.choice("ROYGBP"), cell),
        R.Refill(((cell, "R"),)), R.QuickBlast("3", "R"), R.PlaceCandy(0, 0, "R"),
    ])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4, 1]), st.sampled_from(sorted(R.GOALS)))
def test_candies_are_conserved_through_random_games(seed, players, goal):
    rng = random.Random(seed)                         # the bag's shuffle and the players' choices
    solo = players == 1
    s = R.new_game(["Ana", "Ben", "Cas", "Dee"][:players], None if solo else goal, solo=solo)
    s, _ = run(s, R.SetBoard(_random_start(rng, s)), R.StartGame())
    for _ in range(300):
        if s.phase == R.OVER:
            break
        if rng.random() < 0.3:                        # the table does something odd
            try:
                s, _ = run(s, _junk(rng))
            except IllegalAction:
                pass                                  # refused: the state is untouched
            continue
        s, _ = run(s, _random_action(rng, s))         # run() checks conservation after each step


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_candies_are_conserved_in_quick_mode(seed):
    rng = random.Random(seed)
    s, _ = run(R.new_game(["Ana", "Ben"], "nine-any", quick=True), R.StartGame())
    for _ in range(200):
        if s.phase == R.OVER:
            break
        kind = rng.choice(["3", "4", "5-6", "box"])
        options = {
            R.TURN: [R.QuickBlast(kind, rng.choice("ROYGBP"), rng.randrange(3, 12)), R.NoMoreBlasts()],
            R.CASCADE: [R.QuickBlast(kind, rng.choice("ROYGBP"), rng.randrange(3, 12)), R.NoMoreBlasts()],
            R.KEEP: [R.KeepCandies(("R",)), R.KeepCandies(("R", "G")), R.KeepCandies(("R", "R"))],
            R.TILT: [R.Tilted(s.seats[s.active]), R.Tilted(2)],
            R.REFILL: [R.Refill(())],
            R.RETURN: [R.ReturnCandies(p, tuple(_letters(s.kept[p])[:2])) for p in s.to_return],
        }[s.phase]
        try:
            s, _ = run(s, rng.choice(options))
        except IllegalAction:
            pass


# ---------------------------------------------------------------- several Blasts at once (issue 36)

# Swapping (1,2)<->(2,2) makes two 3-Blasts at once: Blast 1, Green along row 2 (cells
# (1,0)-(1,2)), and Blast 2, Blue down column 3 (cells (2,2)-(4,2)). Blue first: its
# removal empties column 3 below the Green row's last candy, and the slide toward Ana
# takes that candy down to (4,2): the Green row is broken. Green first: the Blue column
# only slides down one cell and still stands.
SLIDE = B.parse_board("""
BOGPBG
GGBYGB
GYGYOO
POBRBY
BGBYPG
YBRRBG
""")


def test_a_blast_broken_by_the_slide_of_the_one_solved_first_is_gone_and_the_table_is_told():
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay"): each is solved in turn, "Tilt the board in your
    direction. The Candies will slide down" ("Every Time You Make a Blast"); a Blast the
    slide broke is gone, and the table is told so."""
    s, ev = run(started(SLIDE), R.SwapCandies((1, 2), (2, 2)))
    assert s.phase == R.CHOOSE and [(b.kind, b.candy) for b in s.pending] == [("3", "G"), ("3", "B")]
    s, ev = run(s, R.ChooseBlast(1), R.KeepCandies(("B",)))
    assert not any(isinstance(e, R.BlastBroken) for e in ev)  # the removal left the Green row whole
    s, ev = run(s, R.Tilted(1))
    broken = [e for e in ev if isinstance(e, R.BlastBroken)]
    assert [(e.number, e.by, e.blast.candy) for e in broken] == [(1, "slide", "G")]
    assert broken[0].message == ("Blast 1 (3 Green along row 2) was broken by the slide: it is gone. "
                                 "Look for new Blasts after the refill.")
    assert [type(e) for e in ev] == [R.CandiesSlid, R.BlastBroken, R.RefillPrompt]  # said before the refill
    s, ev = run(s, refill(s, "PRY"))
    assert isinstance(ev[-1], R.TurnEnded) and s.active == 1 and s.waiting == ()


def test_a_blast_that_still_stands_after_the_slide_is_solved_next_and_not_said_broken():
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay")"""
    s, _ = run(started(SLIDE), R.SwapCandies((1, 2), (2, 2)), R.ChooseBlast(0), R.KeepCandies(("G",)))
    s, ev = run(s, R.Tilted(1))
    assert not any(isinstance(e, R.BlastBroken) for e in ev)
    s, ev = run(s, refill(s, "PRY"))
    assert s.phase == R.KEEP and (s.pending[0].kind, s.pending[0].candy) == ("3", "B")


def test_a_blast_broken_by_the_removal_of_the_one_solved_first_is_gone_and_the_table_is_told():
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay"): the Yellow 4-Blast removes its whole column,
    "remove all Candies in that row or column", the Red row's candy in it too."""
    s, _ = blasted(started())
    s, _ = run(s, refill(s, ORDER_REFILL))
    s, ev = run(s, R.ChooseBlast(1), R.KeepCandies(("Y", "R")))
    broken = [e for e in ev if isinstance(e, R.BlastBroken)]
    assert [(e.number, e.by, e.blast.candy) for e in broken] == [(1, "removal", "R")]
    assert broken[0].message == ("Blast 1 (3 Red along row 1) lost candies to Blast 2: it is gone. "
                                 "Look for new Blasts after the refill.")
    s, ev = run(s, R.Tilted(1))
    assert not any(isinstance(e, R.BlastBroken) for e in ev)  # told once


def test_a_two_by_three_block_is_two_3_blasts_chosen_one_after_the_other():
    """"If there are 2 or more Blasts at the same time, choose 1 to solve before the
    other." (rulebook, "Gameplay"): a Blast is a row or a column of matching Candies
    ("the swap creates a row of matching Candies. This is called a Blast!"), so two rows of
    3 side by side, which share no candy, are two 3-Blasts, not one match of 6."""
    block = B.parse_board("RRRGBO\nRRRBOG\nGBOYPY\nOGYPBP\nYPBOGO\nBOGYPY")
    blasts = B.find_blasts(block)
    assert [(b.kind, b.candy, b.cells) for b in blasts] == [
        ("3", "R", ((0, 0), (0, 1), (0, 2))), ("3", "R", ((1, 0), (1, 1), (1, 2)))]


def _follow(board, ids, seat, removes):
    """The candies' identities (``ids``: a board of one distinct letter per candy) after
    ``removes`` leave and the board slides toward ``seat``: gravity moves the letters as it
    moves the candies, so where each candy went is read off, not worked out again."""
    for cell in removes:
        board, ids = B.put(board, cell, B.EMPTY), B.put(ids, cell, B.EMPTY)
    return B.gravity(board, seat), B.gravity(ids, seat)


def test_in_long_games_every_blast_found_with_the_chosen_one_is_solved_after_it_or_said_broken():
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay"). Over long random games: each Blast found with the
    one chosen either still stands once that one is removed and the board has slid (its
    candies, followed one by one, all in one Blast on the board then) and is offered again
    after the refill, or is told broken; never both, never neither (issue 36: 9 of 48 such
    Blasts were dropped without a word)."""
    cases = broken = 0
    for seed in range(60):
        rng = random.Random(seed)
        s = R.new_game(["Ana", "Ben", "Cas"], "nine-any")
        s, _ = run(s, R.SetBoard(_random_start(rng, s)), R.StartGame())
        follow = None
        for _ in range(400):
            if s.phase == R.OVER:
                break
            action = _random_action(rng, s)
            if isinstance(action, R.ChooseBlast):
                ids = tuple("".join(chr(0x100 + r * B.COLS + c) for c in range(B.COLS)) for r in range(B.ROWS))
                others = [(n, b) for n, b in enumerate(s.pending, 1) if n != action.index + 1]
                follow = {"ids": ids, "others": others, "chosen": s.pending[action.index], "told": {}, "stands": {}}
            before = s
            s, ev = R.step(s, action)
            if follow is None:
                continue
            follow["told"].update({e.number: e.by for e in ev if isinstance(e, R.BlastBroken)})
            if isinstance(action, R.Tilted):
                slid, ids = _follow(before.board, follow["ids"], action.seat, follow["chosen"].removes)
                where = {ch: (r, c) for r, row in enumerate(ids) for c, ch in enumerate(row)}
                found = [set(b.cells) for b in B.find_blasts(slid)]
                for n, blast in follow["others"]:
                    now = {where.get(chr(0x100 + r * B.COLS + c)) for r, c in blast.cells}
                    follow["stands"][n] = None not in now and any(now <= f for f in found)
                    cases += 1
                    broken += n in follow["told"]
                    assert follow["stands"][n] != (n in follow["told"]), (seed, n, blast, follow["told"])
            if isinstance(action, R.Refill) and s.phase != R.OVER:
                offered = {b.candy for b in s.pending}
                assert all(b.candy in offered for n, b in follow["others"] if follow["stands"][n]), seed
                follow = None
            elif s.phase == R.OVER:
                follow = None
    assert cases >= 20 and broken >= 1, (cases, broken)
