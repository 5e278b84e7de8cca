"""Sugarrr! rules against the rulebook (../shared/rulebooks/sugarrr.txt)."""

import pytest

from companion.core.errors import IllegalAction
from companion.games.sugarrr import rules
from companion.games.sugarrr.parts.cards import CARDS
from sugarrr_helpers import STARTS, fruit, run, salad, saur, started

P = rules


def test_catalogue_has_148_cards_with_unique_codes():
    assert len(CARDS) == 148
    kinds = [c.kind for c in CARDS.values()]
    assert kinds.count("fruit") == 108 and kinds.count("salad") == 10 and kinds.count("saur") == 30


def test_gather_example_pineapple_2_then_strawberry_2_salad_blueberries_4():
    # Rulebook "Gather Fruit" example: 4 cards in the column, last card a 4.
    s = started(starts=[fruit("Pineapple", 2)] + STARTS[1:])
    s, ev = run(s, P.PlayCard(fruit("Strawberry", 2), 0), P.PlayCard(salad(1), 0), P.PlayCard(fruit("Blueberries", 4), 0), P.Done())
    gathered = [e for e in ev if isinstance(e, P.Gathered)]
    assert len(gathered) == 1 and len(gathered[0].cards) == 4
    assert set(s.piles[0]) == {fruit("Pineapple", 2), fruit("Strawberry", 2), salad(1), fruit("Blueberries", 4)}
    assert s.phase == P.NEW_COLUMN and s.pending == (0,) and s.columns[0] == ()
    deck = s.deck
    s, ev = run(s, P.StartColumn(fruit("Pear", 5)))
    # The new column drew 1, then the 3 cards played were replaced from the deck.
    assert s.deck == deck - 1 - 3
    assert s.active == 1 and s.phase == P.TURN and s.columns[0] == (fruit("Pear", 5),)


def test_attract_example_three_played_in_column_of_five_takes_rex_1_and_tripearatops_2():
    s = started(starts=[fruit("Grapes", 7, 2)] + STARTS[1:])
    # Ana makes the column Grapes 7, Blueberries 7 (2 cards, last 7: attract 1).
    s, _ = run(s, P.PlayCard(fruit("Blueberries", 7), 0), P.Done(), P.TakeSaur(saur("Grapes", 1)))
    assert s.active == 1
    s, ev = run(s, P.PlayCard(fruit("Blueberries", 4), 0), P.PlayCard(fruit("Apricots", 4), 0),
                P.PlayCard(fruit("Strawberry", 4), 0), P.Done())
    assert len(s.columns[0]) == 5
    assert s.phase == P.ATTRACT and s.attract_left == 3
    s, ev = run(s, P.TakeSaur(saur("Strawberry", 1)), P.TakeSaur(saur("Pear", 2)))
    assert set(s.piles[1]) == {saur("Strawberry", 1), saur("Pear", 2)}
    assert saur("Strawberry", 1) not in s.valley and s.active == 0


def test_scoring_example_scores_102():
    pile = [fruit("Strawberry", n, c) for n, c in [(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]]
    pile += [saur("Strawberry", 1), saur("Strawberry", 3), saur("Strawberry", 5)]       # 9 x 6 = 54
    pile += [fruit("Grapes", n) for n in (2, 3, 4)] + [saur("Grapes", 4), saur("Grapes", 5)]  # 9 x 3 = 27
    pile += [fruit("Apricots", n) for n in (2, 3, 4)] + [saur("Apricots", 5)]             # 5 x 3 = 15
    pile += [fruit("Blueberries", 2), fruit("Blueberries", 3)]                             # no saur: 0
    pile += [fruit("Pineapple", 8), saur("Pineapple", 3)]                                  # 3 x 1 = 3
    pile += [saur("Pear", 2)]                                                              # no pears: 0
    pile += [salad(1), salad(2), salad(3)]                                                 # 3
    sheet = P.score_pile("Casey", pile)
    assert [f.points for f in sheet.fruits] + [sheet.salads] == [54, 27, 15, 0, 3, 0, 3]
    assert sheet.total == 102
    # Issue 38: the score line says in the rulebook's words what each pile counts ("Strawberry 1 x 0 = 0" did not)
    assert sheet.line().split("; ") == [
        "Strawberry: 6 cards x 9 points (Fruit-O-Saurs 1 + 3 + 5) = 54",
        "Grapes: 3 cards x 9 points (Fruit-O-Saurs 4 + 5) = 27",
        "Apricots: 3 cards x 5 points (Fruit-O-Saur 5) = 15",
        "Pineapple: 1 card x 3 points (Fruit-O-Saur 3) = 3",
        "Fruit Salad: 3 cards x 1 point = 3",
        "not eaten by a Fruit-O-Saur, 0 points: Blueberries 2 cards",
        "no Fruit cards to eat, 0 points: Pear Fruit-O-Saur 2"]


def test_card_must_match_fruit_or_number_with_a_readable_reason():
    s = started(starts=[fruit("Strawberry", 3, 2)] + STARTS[1:])
    with pytest.raises(IllegalAction) as err:
        rules.step(s, P.PlayCard(fruit("Grapes", 5), 0))
    assert err.value.message == "Grapes 5 does not match Strawberry 3: play a Strawberry or a 3."
    run(s, P.PlayCard(fruit("Grapes", 3), 0))
    run(s, P.PlayCard(fruit("Strawberry", 8), 0))


def test_fruit_salad_goes_on_anything_and_anything_goes_on_it():
    s = started()
    s, _ = run(s, P.PlayCard(salad(1), 4), P.PlayCard(fruit("Blueberries", 10), 4), P.PlayCard(salad(2), 4),
               P.PlayCard(salad(3), 4))
    assert len(s.columns[4]) == 5


def test_fruit_salad_cannot_be_the_gathering_card():
    # Column of Pineapple 2; playing a Fruit Salad makes 2 cards, but Salad has no number.
    s = started()
    s, ev = run(s, P.PlayCard(salad(1), 0), P.Done())
    assert not any(isinstance(e, P.Gathered) for e in ev)
    assert s.phase == P.ATTRACT and s.attract_left == 1


def test_attract_when_the_valley_has_no_exact_total_takes_nothing():
    s = started()
    # Empty The Valley of every 1 and 2 except nothing: simulate by removing values 1 from the valley.
    s = rules.State(**{**s.__dict__, "valley": tuple(c for c in s.valley if CARDS[c].value >= 3)})
    s, ev = run(s, P.PlayCard(fruit("Pineapple", 9), 0), P.Done())  # 2 cards, last 9: attract 1
    assert s.phase == P.TURN and s.active == 1
    assert any(isinstance(e, P.AttractPrompt) and e.total == 0 for e in ev)


def test_taking_a_fruit_o_saur_that_leaves_no_exact_total_is_rejected():
    s = started()
    s = rules.State(**{**s.__dict__, "valley": (saur("Grapes", 2), saur("Grapes", 4), saur("Pear", 3))})
    s, _ = run(s, P.PlayCard(fruit("Pineapple", 9), 0), P.PlayCard(fruit("Pineapple", 8), 0),
               P.PlayCard(fruit("Pineapple", 7), 0), P.Done())
    assert s.attract_left == 3
    # Grapes 2 would leave 1 to find, and The Valley (Grapes 4, Pear 3) has no 1.
    with pytest.raises(IllegalAction, match="cannot make the 1 still needed"):
        rules.step(s, P.TakeSaur(saur("Grapes", 2)))
    s, _ = run(s, P.TakeSaur(saur("Pear", 3)))
    assert s.active == 1


def test_a_fruit_o_saur_already_taken_or_too_big_is_rejected():
    s = started()
    s, _ = run(s, P.PlayCard(fruit("Pineapple", 9), 0), P.Done())
    with pytest.raises(IllegalAction, match="too many"):
        rules.step(s, P.TakeSaur(saur("Grapes", 2)))
    s, _ = run(s, P.TakeSaur(saur("Grapes", 1)))
    s, _ = run(s, P.PlayCard(fruit("Pineapple", 8), 0), P.Done())
    with pytest.raises(IllegalAction, match="not in The Valley"):
        rules.step(s, P.TakeSaur(saur("Grapes", 1)))


def test_the_same_physical_card_cannot_be_played_twice():
    s = started()
    with pytest.raises(IllegalAction, match="already in column 2"):
        rules.step(s, P.PlayCard(STARTS[1], 1))


def test_all_cards_of_a_turn_go_on_one_column_and_a_hand_holds_five():
    s = started()
    s, _ = run(s, P.PlayCard(fruit("Pineapple", 9), 0))
    with pytest.raises(IllegalAction, match="column 1"):
        rules.step(s, P.PlayCard(fruit("Strawberry", 3, 2), 1))
    s, _ = run(s, *[P.PlayCard(fruit("Pineapple", n), 0) for n in (8, 7, 6, 5)])
    with pytest.raises(IllegalAction, match="hand holds only 5"):
        rules.step(s, P.PlayCard(fruit("Pineapple", 4), 0))


def test_swap_one_to_five_ends_the_turn_and_pass_is_final_round_only():
    s = started()
    for bad in (0, 6):
        with pytest.raises(IllegalAction):
            rules.step(s, P.Swap(bad))
    with pytest.raises(IllegalAction, match="Final Round"):
        rules.step(s, P.Pass())
    s2, _ = run(s, P.Swap(3))
    assert s2.active == 1 and s2.deck == s.deck and s2.piles == s.piles


def test_column_of_ten_or_more_is_removed_at_end_of_turn_and_restarted():
    s = started()
    # Build column 1 (Pineapple 2) up to 10 cards over two turns of attracting.
    s, _ = run(s, *[P.PlayCard(fruit("Pineapple", n), 0) for n in (9, 8, 7, 6, 5)], P.Done())
    s, _ = run(s, P.TakeSaur(saur("Pear", 5)))
    s, _ = run(s, *[P.PlayCard(fruit("Pineapple", n, 2), 0) for n in (9, 8, 7, 6)], P.Done())
    assert len(s.columns[0]) == 10 and s.phase == P.ATTRACT
    s, ev = run(s, P.TakeSaur(saur("Pear", 4)))
    assert any(isinstance(e, P.ColumnRemoved) for e in ev)
    assert s.phase == P.NEW_COLUMN and s.columns[0] == () and len(s.removed) == 10
    s, _ = run(s, P.StartColumn(fruit("Grapes", 2)))
    assert s.phase == P.TURN and s.active == 0


def test_deck_running_out_starts_a_final_round_then_hands_then_scoring():
    s = started(("Ana", "Ben", "Cy"))
    s, ev = run(s, P.SetDeck(2))
    # Ana plays 2 cards and attracts: the 2 replacements empty the deck.
    s, ev = run(s, P.PlayCard(fruit("Pineapple", 9), 0), P.PlayCard(fruit("Pineapple", 8), 0), P.Done(),
                P.TakeSaur(saur("Strawberry", 2)))
    assert s.deck == 0 and s.final_round and s.final_left == 3 and s.active == 1
    assert any(isinstance(e, P.FinalRound) for e in ev)
    with pytest.raises(IllegalAction):
        rules.step(s, P.SetDeck(10))
    s, _ = run(s, P.Pass())
    assert s.phase == P.HAND and s.active == 1
    s, _ = run(s, P.HandCard(fruit("Strawberry", 9)), P.HandCard(salad(4)), P.HandDone())
    assert set(s.piles[1]) == {fruit("Strawberry", 9), salad(4)} and s.active == 2
    s, _ = run(s, P.Swap(2), P.HandDone())
    s, ev = run(s, P.PlayCard(fruit("Strawberry", 9, 2), 1), P.Done())  # Ana's final turn: Strawberry 3 + 9 => attract
    s, ev = run(s, P.TakeSaur(saur("Strawberry", 1)), P.HandDone())
    assert s.phase == P.OVER
    over = [e for e in ev if isinstance(e, P.GameOver)][0]
    # Ana: Pineapple 9, 8 (no saur) + Strawberry 9 copy 2? no: it went to the column. Saurs: Rex 2 + Rex 1, no strawberries.
    # Ben: Strawberry 9 + Fruit Salad: no Rex => 1 point. Ana 0, Cy 0.
    assert over.result.winners == ("Ben",)
    assert [p.score for p in over.result.players] == [0, 1, 0]


def test_tie_goes_to_most_fruit_o_saur_cards_then_shared():
    a = [fruit("Grapes", 2), saur("Grapes", 3)]                      # 3 points, 1 saur
    b = [fruit("Pear", 2), saur("Pear", 1), saur("Pear", 2)]         # 3 points, 2 saurs
    c = [salad(1), salad(2), salad(3)]                               # 3 points, 0 saurs
    r = P.result_of(["A", "B", "C"], [a, b, c])
    assert r.winners == ("B",) and r.tie_break == "most Fruit-O-Saur cards"
    r = P.result_of(["A", "B"], [a, [fruit("Pear", 2), saur("Pear", 3)]])
    assert r.winners == ("A", "B") and r.tie_break == "shared"
    r = P.result_of(["A", "B"], [a, c + [salad(4)]])
    assert r.winners == ("B",) and r.tie_break is None
