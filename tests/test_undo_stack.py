"""The Undo stack on its own (companion.table.undo): the inputs still in force, taken back
newest first, never one that showed hidden cards, always the one that ended the game,
and the chess clock's history they make."""

import pickle
from dataclasses import dataclass

import pytest

from companion.core.events import ButtonPressed, CardScanned, Touch
from companion.table.undo import NOTHING_TO_TAKE_BACK, THE_END, Done, UndoStack


@dataclass(frozen=True)
class Board:
    """A rules state as the stack sees one: whose turn it is."""

    active: int
    turn: int = 1


def done(t, said="Ana plays a Grape.", *, before=Board(0), seq=1, revealed=False, ended=False, item=None):
    return Done(seq, item or Touch("column 1", t), before, ("entry before", t), t - 1.0, said, revealed, ended)


def test_an_empty_stack_has_nothing_to_take_back():
    stack = UndoStack()
    assert not stack.can_take_back() and stack.label() is None and stack.last is None
    assert stack.refusal() == NOTHING_TO_TAKE_BACK == "There is nothing to take back."
    with pytest.raises(ValueError, match="nothing to take back"):
        stack.take_back()


def test_undo_takes_back_the_newest_input_then_one_more_each_time():
    stack = UndoStack()
    first, second = done(1.0, "Ana plays a Grape.", seq=1), done(2.0, "Ben plays a Pear.", seq=2)
    stack.push(first)
    stack.push(second)
    assert stack.label() == "Ben plays a Pear." and stack.refusal() is None
    assert stack.take_back() is second
    assert stack.label() == "Ana plays a Grape."
    assert stack.take_back() is first
    assert len(stack) == 0 and stack.refusal() == NOTHING_TO_TAKE_BACK


def test_what_was_taken_back_is_what_it_restores():
    stack = UndoStack()
    stack.push(done(5.0, before=Board(1, turn=3)))
    back = stack.take_back()
    assert (back.state, back.entry, back.turn_started) == (Board(1, turn=3), ("entry before", 5.0), 4.0)


def test_an_input_that_revealed_hidden_cards_is_never_taken_back():
    stack = UndoStack()
    stack.push(done(1.0, "Ana plays a Grape."))
    stack.push(done(2.0, "Ana reveals her vault: 3 Grapes.", revealed=True))
    assert not stack.can_take_back() and stack.label() is None
    assert stack.refusal() == ('That cannot be taken back: "Ana reveals her vault: 3 Grapes." showed hidden '
                               "cards to everyone.")
    with pytest.raises(ValueError, match="showed hidden cards"):
        stack.take_back()
    assert len(stack) == 2  # nothing was taken off, and the input below it stays out of reach
    assert stack.last.said == "Ana reveals her vault: 3 Grapes."


def test_the_input_that_ended_the_game_is_taken_back_even_when_it_revealed_everything():
    stack = UndoStack()
    stack.push(done(1.0, "Ana plays a Grape."))
    stack.push(done(2.0, "Game over: Ana wins with 12 points.", revealed=True, ended=True))
    assert stack.can_take_back() and stack.refusal() is None
    assert stack.label() == THE_END
    assert stack.label() == "The end of the game: play goes back to before it, and its result leaves the history."
    end = stack.take_back()
    assert end.undone_words() == "the end of the game. The game is not over yet"
    assert stack.label() == "Ana plays a Grape."


def test_an_ended_input_that_said_more_than_game_over_is_named_by_its_first_sentence():
    end = done(3.0, "Ben scans the last card. Game over: Ben wins.", ended=True)
    assert end.undone_words() == "Ben scans the last card. The game is not over yet"


@pytest.mark.parametrize("said, words", [
    ("Ana swaps 2 cards. Ben's turn.", "Ana swaps 2 cards"),
    ("Blast!", "Blast"),
    ("Blast! Three in a row. Refill 3.", "Blast! Three in a row"),  # up to the first full stop
    ("Ana gathers column 1.", "Ana gathers column 1"),
    ("", "the last input"),
])
def test_what_undo_says_it_took_back_is_what_the_table_was_told_up_to_its_first_full_stop(said, words):
    assert done(1.0, said).undone_words() == words


def test_an_input_that_said_nothing_is_labelled_the_last_input():
    stack = UndoStack([done(1.0, "")])
    assert stack.label() == "the last input"


def test_the_chess_clocks_history_is_the_start_and_each_input_in_force_with_the_seat_after_it():
    stack = UndoStack()
    assert stack.turns(100.0, 0) == [(100.0, 0)] and stack.last_input_t(100.0) == 100.0
    stack.push(done(110.0, before=Board(0)))  # Ana played: Ben's turn
    stack.push(done(125.0, before=Board(1)))  # Ben played: Ana's turn
    assert stack.turns(100.0, 0) == [(100.0, 0), (110.0, 1), (125.0, 0)]
    assert stack.last_input_t(100.0) == 125.0
    stack.take_back()
    assert stack.turns(100.0, 1) == [(100.0, 0), (110.0, 1)] and stack.last_input_t(100.0) == 110.0


def test_a_card_scan_and_a_button_are_kept_as_they_came():
    stack = UndoStack()
    stack.push(done(1.0, item=CardScanned("SRG2K", "left", 1.0)))
    stack.push(done(2.0, item=ButtonPressed("confirm", 2.0)))
    assert [d.item for d in stack] == [CardScanned("SRG2K", "left", 1.0), ButtonPressed("confirm", 2.0)]


def test_a_stack_pickles_whole_for_a_resume_point_and_compares_by_its_inputs():
    stack = UndoStack([done(1.0, seq=1), done(2.0, "Ben plays a Pear.", seq=2, revealed=True)])
    again = pickle.loads(pickle.dumps(stack))
    assert again == stack and again is not stack
    assert again.refusal() == stack.refusal()
    again.done.pop()
    assert again != stack
