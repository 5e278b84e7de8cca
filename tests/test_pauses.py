"""Pause and Resume on their own (companion.table.pause): the spans the clocks leave out,
the button that toggles, and the touches refused the wrong way round."""

import pickle

import pytest

from companion.core.events import ButtonPressed, Touch
from companion.table.pause import ALREADY_PAUSED, PAUSED, PLAYING_AGAIN, Pauses
from companion.ui import timers


def test_a_new_game_is_not_paused():
    pauses = Pauses()
    assert not pauses.paused and pauses.spans == [] and list(pauses) == [] and len(pauses) == 0


def test_pause_then_resume_toggles_and_keeps_the_span():
    pauses = Pauses()
    assert pauses.toggle(10.0) is True and pauses.paused
    assert pauses.spans == [(10.0, None)]
    assert pauses.toggle(30.0) is False and not pauses.paused
    assert pauses.spans == [(10.0, 30.0)]
    assert pauses.toggle(40.0) is True and pauses.toggle(45.0) is False
    assert list(pauses) == [(10.0, 30.0), (40.0, 45.0)] and len(pauses) == 2


def test_a_play_ends_a_pause_and_says_so_only_when_there_was_one():
    pauses = Pauses()
    assert pauses.end(5.0) is False and pauses.spans == []  # playing: nothing to end
    pauses.toggle(10.0)
    assert pauses.end(12.5) is True and pauses.spans == [(10.0, 12.5)]
    assert pauses.end(13.0) is False and pauses.spans == [(10.0, 12.5)]  # once


def test_the_clocks_leave_the_pauses_out():
    pauses = Pauses()
    pauses.toggle(110.0)
    assert timers.game_seconds(100.0, 130.0, pauses) == 10.0  # paused still: the clock stands
    pauses.toggle(125.0)
    assert timers.game_seconds(100.0, 130.0, pauses) == 15.0
    assert timers.turn_seconds(120.0, 130.0, pauses) == 5.0


class Prompt:
    """A prompt that counts how often it was asked for."""

    def __init__(self):
        self.asked = 0

    def __call__(self):
        self.asked += 1
        return "Ana: scan a card."


def test_a_resume_touch_while_playing_is_refused_with_what_to_do():
    prompt = Prompt()
    assert Pauses().refusal(Touch("resume", 1.0), prompt) == "The game is not paused. Ana: scan a card."
    assert prompt.asked == 1


def test_a_pause_touch_while_paused_is_refused():
    pauses, prompt = Pauses(), Prompt()
    pauses.toggle(1.0)
    assert pauses.refusal(Touch("pause", 2.0), prompt) == ALREADY_PAUSED
    assert ALREADY_PAUSED == "The game is already paused: type /resume, or play on."
    assert prompt.asked == 0  # the prompt is only worked out when it is said


@pytest.mark.parametrize("paused", [False, True])
def test_the_pause_button_always_toggles(paused):
    pauses, prompt = Pauses(), Prompt()
    if paused:
        pauses.toggle(1.0)
    assert pauses.refusal(ButtonPressed("pause", 2.0), prompt) is None and prompt.asked == 0


def test_the_right_way_round_is_not_refused():
    pauses, prompt = Pauses(), Prompt()
    assert pauses.refusal(Touch("pause", 1.0), prompt) is None
    pauses.toggle(1.0)
    assert pauses.refusal(Touch("resume", 2.0), prompt) is None
    assert prompt.asked == 0


def test_the_first_word_of_a_touch_is_read_as_every_part_reads_it():
    """Read once (Touch.parsed): the first word, in any case, as is_pause reads it; so a
    capital Resume while playing is refused like a small one (it used to pause)."""
    pauses, prompt = Pauses(), Prompt()
    assert pauses.refusal(Touch("resume now", 1.0), prompt) == "The game is not paused. Ana: scan a card."
    assert pauses.refusal(Touch("Resume", 1.0), prompt) == "The game is not paused. Ana: scan a card."


def test_what_the_table_is_told():
    assert PAUSED == "Paused: the clocks wait. Tap Play on, or just play."  # issue 38: the button's own words
    assert PLAYING_AGAIN == "Playing again. "


def test_pauses_pickle_whole_for_a_resume_point():
    pauses = Pauses()
    pauses.toggle(3.0)
    pauses.toggle(4.0)
    pauses.toggle(9.0)
    again = pickle.loads(pickle.dumps(pauses))
    assert again == pauses and again.paused
    assert again.end(10.0) and again.spans == [(3.0, 4.0), (9.0, 10.0)] and pauses.paused


def test_a_typed_pause_while_paused_says_what_to_type_not_a_button_that_is_not_there(tmp_path):
    """Issue 36: "tap Resume" (a capitalised Resume, as if a button) answered a typed
    /pause while paused, which only text comes to: the screen's pause box has no Pause
    button, and the GPIO pause button toggles. The words name what a typist can do."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", "--names",
                           "Ana,Ben", "--store", str(tmp_path / "table.db")], input="/pause\n/pause\n/resume\n",
                          capture_output=True, text=True, timeout=60)
    out = [line for line in proc.stdout.splitlines()[1:] if not line.startswith("  ")]
    assert out[1] == "Not allowed (pause): The game is already paused: type /resume, or play on."
    assert out[2].startswith("Playing again.")


def test_help_while_paused_offers_resume_not_pause():
    """While the game is paused a Pause touch is refused, so ``/help`` lists ``/resume``
    in its place (and ``/pause`` again once the game plays on)."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.session import Session

    s = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock())
    assert "/pause" in s.help_text() and "/resume" not in s.help_text()
    assert s.handle(Touch("pause", 1.0)).verdict == "accepted" and s.paused
    said = s.handle(Touch("help", 2.0)).message
    assert "/resume" in said and "/pause" not in said
    assert s.handle(Touch("resume", 3.0)).verdict == "accepted"
    assert "/pause" in s.handle(Touch("help", 4.0)).message
