"""Tap-off on its own (companion.table.tap_off): one tap a reader reads twice counts once;
after the tap-off time, on another reader, or after another input, it is a new scan."""

import pytest

from companion.table.tap_off import TAP_OFF_SECONDS, TAPPED_TWICE, TapOff

CARD, OTHER = "SRG2K", "SRP3M"


def test_the_same_card_on_the_same_reader_within_the_tap_off_time_is_one_tap():
    taps = TapOff(1.0)
    assert taps.read_twice("left", CARD, 10.0) is False
    assert taps.read_twice("left", CARD, 10.6) is True


def test_the_same_card_past_the_tap_off_time_is_a_new_scan():
    taps = TapOff(1.0)
    taps.read_twice("left", CARD, 10.0)
    assert taps.read_twice("left", CARD, 11.5) is False


def test_exactly_the_tap_off_time_later_is_a_new_scan():
    taps = TapOff(1.0)
    taps.read_twice("left", CARD, 10.0)
    assert taps.read_twice("left", CARD, 11.0) is False


def test_the_same_card_on_another_reader_is_another_tap():
    taps = TapOff(1.0)
    taps.read_twice("left", CARD, 10.0)
    assert taps.read_twice("right", CARD, 10.2) is False
    assert taps.read_twice("left", CARD, 10.4) is False  # the scan just before was on the right


def test_another_card_in_between_makes_the_first_a_new_scan_again():
    taps = TapOff(1.0)
    taps.read_twice("left", CARD, 10.0)
    assert taps.read_twice("left", OTHER, 10.2) is False
    assert taps.read_twice("left", CARD, 10.4) is False


def test_another_input_in_between_makes_it_a_new_scan():
    taps = TapOff(1.0)
    taps.read_twice("left", CARD, 10.0)
    taps.forget()  # a touch came between
    assert taps.read_twice("left", CARD, 10.3) is False


def test_a_card_left_on_the_reader_stays_one_tap_as_long_as_it_is_read():
    taps = TapOff(1.0)
    assert taps.read_twice("left", CARD, 10.0) is False
    assert all(taps.read_twice("left", CARD, 10.0 + 0.8 * n) for n in range(1, 8))  # 5.6 s on, each 0.8 s apart


@pytest.mark.parametrize("garbled", [None, ""])
def test_a_garbled_read_is_never_a_second_read(garbled):
    taps = TapOff(1.0)
    taps.read_twice("left", garbled, 10.0)
    assert taps.read_twice("left", garbled, 10.1) is False


def test_a_tap_off_time_of_zero_counts_every_read():
    taps = TapOff(0.0)
    taps.read_twice("left", CARD, 10.0)
    assert taps.read_twice("left", CARD, 10.0) is False


def test_the_default_and_what_the_table_is_told():
    assert TapOff().seconds == TAP_OFF_SECONDS == 1.0
    assert TAPPED_TWICE == "That card was just scanned: it counts once."
