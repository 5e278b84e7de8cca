"""The repeated-input guard on its own (companion.table.repeat_guard): after a resume, the
last input saved before the stop, done again soon and before anything else counted, is
asked about once; done once more, it counts."""

import pickle

import pytest

from companion.core.events import ButtonPressed, CardScanned, Touch
from companion.table.repeat_guard import REPEAT_WINDOW, RepeatGuard, Stored


def resumed_after(item, said="Ana swaps 2 cards.", hidden=False, seq=7, at=100.0):
    guard = RepeatGuard()
    guard.stored(Touch("column 1", 1.0), False, "Column 1.")  # an older input: only the newest counts
    guard.stored(item, hidden, said)
    guard.resumed(seq, at)
    return guard


def test_a_new_game_never_asks():
    guard = RepeatGuard()
    guard.stored(Touch("swap 2", 1.0), False, "Ana swaps 2 cards.")  # stored live, no resume
    assert guard.caution(Touch("swap 2", 2.0)) is None
    assert guard.last_saved is None


def test_the_last_input_saved_is_what_a_restart_says():
    guard = resumed_after(Touch("swap 2", 3.0))
    assert guard.last_saved == {"seq": 7, "event": "touch", "command": "swap 2", "said": "Ana swaps 2 cards."}
    assert guard.newest == Stored(Touch("swap 2", 3.0), False, "Ana swaps 2 cards.")


def test_the_same_input_again_after_a_resume_is_asked_about_once_then_counts():
    guard = resumed_after(Touch("swap 2", 3.0))
    assert guard.caution(Touch("swap 2", 101.0)) == (
        "Careful: this is the same as the last thing saved before the restart (Ana swaps 2 cards). "
        "It did count then. If you really mean to do it again, do it once more.")
    assert guard.caution(Touch("swap 2", 102.0)) is None
    assert guard.caution(Touch("swap 2", 103.0)) is None


def test_the_touch_words_are_compared_however_they_were_typed():
    guard = resumed_after(Touch("swap 2", 3.0))
    assert guard.caution(Touch("  SWAP   2 ", 101.0)) is not None


def test_a_repeat_past_the_window_counts_without_asking():
    guard = resumed_after(Touch("swap 2", 3.0), at=100.0)
    assert guard.caution(Touch("swap 2", 100.0 + REPEAT_WINDOW + 1)) is None
    assert REPEAT_WINDOW == 120.0


def test_a_repeat_at_the_window_itself_is_still_asked_about():
    guard = resumed_after(Touch("swap 2", 3.0), at=100.0)
    assert guard.caution(Touch("swap 2", 100.0 + REPEAT_WINDOW)) is not None


def test_another_input_is_not_asked_about_and_leaves_the_question_for_the_repeat():
    guard = resumed_after(Touch("swap 2", 3.0))
    assert guard.caution(Touch("swap 1", 101.0)) is None  # refused by the rules, say: nothing counted
    assert guard.caution(Touch("swap 2", 102.0)) is not None


def test_once_something_else_counted_there_is_no_more_asking():
    guard = resumed_after(Touch("swap 2", 3.0))
    guard.counted()
    assert guard.caution(Touch("swap 2", 101.0)) is None


def test_the_same_card_on_another_reader_is_the_same_input_again():
    guard = resumed_after(CardScanned("SRG2K", "left", 3.0), said="Ana plays a Grape 2 on column 1.")
    assert guard.last_saved == {"seq": 7, "event": "scan", "code": "SRG2K",
                                "said": "Ana plays a Grape 2 on column 1."}
    assert guard.caution(CardScanned("SRG2K", "right", 101.0)) == (
        "Careful: this is the same as the last thing saved before the restart (Ana plays a Grape 2 on "
        "column 1). It did count then. If you really mean to do it again, do it once more.")


def test_a_hidden_card_is_never_named_in_the_last_input_saved():
    guard = resumed_after(CardScanned("SHX7Q", "left", 3.0), said="A card goes into Ana's vault.", hidden=True)
    assert guard.last_saved["code"] == "hidden"
    assert "SHX7Q" not in guard.caution(CardScanned("SHX7Q", "left", 101.0))


@pytest.mark.parametrize("again", [Touch("undo", 101.0), ButtonPressed("undo", 101.0)])
def test_an_undo_after_a_resume_that_ended_on_an_undo_is_asked_about_either_way(again):
    guard = resumed_after(Touch("undo", 3.0), said="Undone: Ana swaps 2 cards. Ana: swap or scan.")
    assert guard.caution(again) == (
        "Careful: the last thing saved before the restart was an Undo too (Undone: Ana swaps 2 cards. Ana: "
        "swap or scan.). If you really mean to take back one more, tap Undo once more.")


def test_a_step_that_said_nothing_is_named_the_last_input():
    guard = resumed_after(Touch("column 2", 3.0), said="")
    assert "(the last input)" in guard.caution(Touch("column 2", 101.0))


def test_a_resume_with_nothing_stored_asks_nothing():
    guard = RepeatGuard()
    guard.resumed(0, 100.0)
    assert guard.last_saved is None and guard.caution(Touch("undo", 101.0)) is None


def test_a_guard_kept_in_a_resume_point_is_armed_afresh_by_the_next_resume():
    guard = resumed_after(Touch("swap 2", 3.0), at=100.0)
    assert guard.caution(Touch("swap 2", 101.0)) is not None  # asked, before the point was kept
    guard.counted()
    kept = pickle.loads(pickle.dumps(guard))
    kept.resumed(9, 5000.0)
    assert kept.last_saved["seq"] == 9 and not kept.asked and kept.since == 5000.0
    assert kept.caution(Touch("swap 2", 5001.0)) is not None  # the new resume's own question
    assert kept.caution(Touch("swap 2", 5002.0)) is None
