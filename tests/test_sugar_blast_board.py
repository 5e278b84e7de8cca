"""Sugar Blast board geometry against the rulebook (../shared/rulebooks/sugar-blast.txt):
typed boards, every Blast kind, perft-style counts of legal swaps, gravity, the hint."""

import json

import pytest

from companion.games.sugar_blast.parts.board import (
    BoardError, KINDS, SEAT_EDGES, find_blasts, format_board, gravity, hint_json, legal_swaps,
    no_blasts, parse_board, refill_order, start_runs,
)


def b(text: str):
    """A board of any size, typed as in the rulebook's pictures (rows from 0 at the top)."""
    return parse_board(text, size=None)


# 6 kinds in a diagonal pattern: no run anywhere, and no swap makes one (see below).
NO_BLASTS = parse_board("""
ROYGBP
YGBPRO
BPROYG
ROYGBP
YGBPRO
BPROYG
""")


# ---------------------------------------------------------------- typing boards

def test_a_typed_board_round_trips():
    assert parse_board(format_board(NO_BLASTS)) == NO_BLASTS
    assert parse_board(" rgb \n\n gr. \n", size=(2, 3)) == ("RGB", "GR.")


@pytest.mark.parametrize("text, words", [
    ("RGB\nGR\nBGB", "Row 2 has 2 cells but row 1 has 3"),
    ("RGB\nGXB\nBGB", "Row 2, column 2: 'X' is not a candy"),
    ("RGB\nGRB\nBGB", "it should be 6 rows by 6 columns"),
    ("\n \n", "The board is empty"),
])
def test_malformed_boards_are_clear_errors(text, words):
    with pytest.raises(BoardError, match=words) as err:
        parse_board(text)
    assert isinstance(err.value, ValueError)


def test_orange_is_o_and_there_are_six_kinds():
    assert KINDS == ("R", "O", "Y", "G", "B", "P")


def test_setup_runs_are_found_in_rows_and_columns():
    runs = start_runs(b("RRRG\nGBGB\nGBYB\nGBYB"))
    assert [(r.candy, r.cells) for r in runs] == [
        ("R", ((0, 0), (0, 1), (0, 2))),
        ("G", ((1, 0), (2, 0), (3, 0))),
        ("B", ((1, 1), (2, 1), (3, 1))),
        ("B", ((1, 3), (2, 3), (3, 3))),
    ]
    assert start_runs(NO_BLASTS) == []


# ---------------------------------------------------------------- every Blast kind

def test_three_blast_removes_three_and_keeps_one():
    [blast] = find_blasts(b("GRRRB\nBGBGB"))
    assert (blast.kind, blast.candy, blast.cells) == ("3", "R", ((0, 1), (0, 2), (0, 3)))
    assert blast.removes == frozenset(blast.cells) and (blast.keep_matched, blast.keep_other) == (1, 0)


def test_four_blast_removes_the_whole_column_and_keeps_one_matched_one_other():
    board = b("""
    GB
    RB
    RG
    RB
    RG
    BG
    """)
    [blast] = find_blasts(board)
    assert (blast.kind, blast.candy) == ("4", "R")
    assert blast.removes == {(r, 0) for r in range(6)}
    assert (blast.keep_matched, blast.keep_other) == (1, 1)


def test_four_blast_in_a_row_with_holes_keeps_no_other_when_none_is_removed():
    [blast] = find_blasts(b("..RRRR\nGBGBGB"))
    assert blast.kind == "4" and blast.removes == {(0, c) for c in range(2, 6)}
    assert (blast.keep_matched, blast.keep_other) == (1, 0)


@pytest.mark.parametrize("row", ["RRRRRG", "RRRRRR"])
def test_five_and_six_blasts_remove_every_candy_of_that_kind(row):
    board = b(f"{row}\nGBRBGR\nRGBGRB")
    [blast] = find_blasts(board)
    assert blast.kind == "5-6" and len(blast.cells) == row.count("R")
    assert blast.removes == {(r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == "R"}
    assert (blast.keep_matched, blast.keep_other) == (2, 0)


BOX = {(r, c) for r in range(1, 4) for c in range(1, 4)}


@pytest.mark.parametrize("shape, text", [
    ("T", "BGBGB\nGYYYG\nBGYGB\nGBYBG\nBGBGB"),
    ("L", "BGBGB\nGYGBG\nBYGGB\nGYYYG\nBGBGB"),
    ("+", "BGBGB\nGBYBG\nBYYYB\nGBYBG\nBGBGB"),
])
def test_box_blast_of_five_removes_the_3x3_box_around_the_shape(shape, text):
    [blast] = find_blasts(b(text))
    assert (blast.kind, blast.candy, len(blast.cells)) == ("box", "Y", 5), shape
    assert blast.removes == BOX
    assert (blast.keep_matched, blast.keep_other) == (1, 1)


def test_an_l_of_six_is_a_five_six_blast():
    # A row of 4 and a column of 3 sharing the corner: 6 matched candies, "When you match
    # 5 or 6 Candies": every Yellow on the board leaves (issue 9, docs/rules-notes.md).
    board = b("YYYYB\nYGBGB\nYBGBG\nBGBGB")
    [blast] = find_blasts(board)
    assert (blast.kind, len(blast.cells)) == ("5-6", 6)
    assert blast.removes == {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "Y"}
    assert (blast.keep_matched, blast.keep_other) == (2, 0)


def test_a_row_of_four_crossing_a_column_of_three_is_one_five_six_blast():
    [blast] = find_blasts(b("BGYGB\nYYYYG\nBGYGB\nGBGBG"))
    assert (blast.kind, len(blast.cells)) == ("5-6", 6)


def test_a_t_of_five_is_still_a_box_blast_over_its_three_by_three_box():
    [blast] = find_blasts(b("YYYB\nGYBG\nBYGB\nGBGB"))
    assert (blast.kind, len(blast.cells)) == ("box", 5)
    assert blast.removes == {(r, c) for r in range(3) for c in range(3)}


def test_a_line_of_five_with_a_crossing_run_is_a_five_six_blast():
    [blast] = find_blasts(b("YYYYYB\nGBYBGB\nBGYGBG"))
    assert (blast.kind, len(blast.cells)) == ("5-6", 7)


def test_two_runs_of_one_kind_sharing_a_candy_are_one_blast_and_other_kinds_are_separate():
    board = b("""
    RRRGB
    BGRGB
    GBRGY
    BGBYB
    """)
    blasts = find_blasts(board)
    assert [(x.kind, x.candy) for x in blasts] == [("box", "R"), ("3", "G")]
    assert not set(blasts[0].cells) & set(blasts[1].cells)


# ---------------------------------------------------------------- perft: legal swap counts

def test_perft_3x3_has_two_legal_swaps():
    # 12 neighbour pairs, one (R,R at (1,1)-(1,2)) the same kind: 11 swaps to try.
    # Only (0,0)<->(1,0) (row 1 becomes RRR) and (1,0)<->(1,1) (column 1 becomes GGG)
    # make a line of 3; the other 9 leave every row and column mixed (checked one by one).
    swaps = legal_swaps(b("RGB\nGRR\nBGB"))
    assert [(s.frm, s.to) for s in swaps] == [((0, 0), (1, 0)), ((1, 0), (1, 1))]
    assert [[(x.kind, x.candy) for x in s.blasts] for s in swaps] == [[("3", "R")], [("3", "G")]]


def test_perft_single_row_has_one_legal_swap():
    # R R G R: pairs (0,1)-(0,2) gives R G R R (no), (0,2)-(0,3) gives R R R G (yes);
    # (0,0)-(0,1) is R with R, which changes nothing.
    assert [(s.frm, s.to) for s in legal_swaps(b("RRGR"))] == [((0, 2), (0, 3))]


def test_perft_one_swap_making_two_blasts():
    # R G R / G R G: swapping the middle column gives RRR over GGG. Every other swap
    # leaves a row with two kinds, and columns of 2 can never hold 3.
    [swap] = legal_swaps(b("RGR\nGRG"))
    assert (swap.frm, swap.to) == ((0, 1), (1, 1))
    assert [(x.candy, x.cells) for x in swap.blasts] == [("R", ((0, 0), (0, 1), (0, 2))),
                                                          ("G", ((1, 0), (1, 1), (1, 2)))]


def test_perft_4x4_checkerboard_has_twelve_legal_swaps():
    # Every one of the 24 neighbour pairs is R with G. A moved candy X lands where both
    # neighbours ACROSS the swap direction are X too (the checkerboard flips), so it makes
    # a line of 3 exactly when it has both of them: not on the first or last row (for a
    # swap along a row) or column (along a column). Along the swap direction it gets only
    # 2 alike. So: 3 swaps in each of rows 1 and 2, 3 in each of columns 1 and 2 = 12.
    swaps = legal_swaps(b("RGRG\nGRGR\nRGRG\nGRGR"))
    assert len(swaps) == 12
    assert {s.frm[0] for s in swaps if s.frm[0] == s.to[0]} == {1, 2}
    assert {s.frm[1] for s in swaps if s.frm[1] == s.to[1]} == {1, 2}
    assert all(len(s.blasts) == 2 and {x.kind for x in s.blasts} == {"3"} for s in swaps)


def test_perft_diagonal_6x6_has_no_legal_swap():
    # Each row is the row above shifted by two: every candy's line neighbours out to a
    # distance of 2 are all different kinds, so one swap can bring at most 2 alike.
    assert legal_swaps(NO_BLASTS) == [] and no_blasts(NO_BLASTS)


def test_perft_3x3_with_a_hole_never_swaps_the_hole():
    # As the first 3x3 but the R at (2,0)... is a hole: (1,0)<->(2,0) cannot be tried.
    # (0,0)<->(1,0) still makes RRR in row 1 and (1,0)<->(1,1) still makes GGG.
    swaps = legal_swaps(b("RGB\nGRR\n.GB"))
    assert [(s.frm, s.to) for s in swaps] == [((0, 0), (1, 0)), ((1, 0), (1, 1))]
    assert not no_blasts(b("RGB\nGRR\n.GB"))


def test_a_swap_lists_only_the_blasts_with_a_moved_candy():
    # Row 3 already holds BBB; swapping (0,0)<->(1,0) makes RRR in row 1.
    [swap] = [s for s in legal_swaps(b("RGYP\nGRRY\nYPGY\nBBBP")) if s.frm == (0, 0)]
    assert [(x.candy, x.kind) for x in swap.blasts] == [("R", "3")]


# ---------------------------------------------------------------- gravity and refill order

HOLEY = ("RG.", ".B.", "YPO")


@pytest.mark.parametrize("seat, after", [
    (1, (".G.", "RB.", "YPO")),   # bottom: down each column
    (3, ("RGO", "YB.", ".P.")),   # top: up each column
    (2, (".RG", "..B", "YPO")),   # right: along each row to the right
    (4, ("RG.", "B..", "YPO")),   # left: along each row to the left
])
def test_gravity_slides_toward_the_tilting_seats_edge(seat, after):
    assert gravity(HOLEY, seat) == after
    assert sorted("".join(after)) == sorted("".join(HOLEY))


def test_seats_are_bottom_right_top_left():
    assert SEAT_EDGES == {1: "bottom", 2: "right", 3: "top", 4: "left"}


def test_refill_bottom_to_top_starts_at_the_tilting_seats_edge():
    empty = ("...", "R..", "RR.")
    assert refill_order(empty, 1) == [(2, 2), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2)]
    assert refill_order(("RR.", "R..", "..."), 3) == [(0, 2), (1, 2), (1, 1), (2, 2), (2, 1), (2, 0)]
    # Seat 2 (right) faces left: nearest column first, their left (the bottom) first.
    assert gravity(empty, 2) == ("...", "..R", ".RR")
    assert refill_order(gravity(empty, 2), 2) == [(0, 2), (1, 1), (0, 1), (2, 0), (1, 0), (0, 0)]


def test_gravity_rejects_an_unknown_seat():
    with pytest.raises(ValueError, match="seat 5"):
        gravity(HOLEY, 5)


# ---------------------------------------------------------------- hint

def test_hint_json_is_exactly_the_documented_shape():
    hint = hint_json(b("RGB\nGRR\nBGB"))
    assert hint == {"swaps": [
        {"from": [0, 0], "to": [1, 0], "blasts": [{"kind": "3", "candy": "R", "cells": [[1, 0], [1, 1], [1, 2]]}]},
        {"from": [1, 0], "to": [1, 1], "blasts": [{"kind": "3", "candy": "G", "cells": [[0, 1], [1, 1], [2, 1]]}]},
    ], "no_blasts": False}
    assert json.loads(json.dumps(hint)) == hint
    assert hint_json(NO_BLASTS) == {"swaps": [], "no_blasts": True}
