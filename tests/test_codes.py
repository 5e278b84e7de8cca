"""Card codes: a garbled read is rejected, never read as another card."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from companion.core.codes import check_code, make_code
from companion.core.errors import BadScan
from companion.games.sugarrr.cards import CARDS, card

CODES = sorted(CARDS)
CHARS = string.digits + string.ascii_uppercase


def accepted(raw):
    try:
        return card(raw).code
    except BadScan:
        return None


def test_every_catalogue_code_is_valid_and_reads_back_as_its_own_card():
    for code in CODES:
        assert card(code).code == code
        assert card(code.lower() + "\r\n").code == code  # scanners may add case or white space


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(CODES), st.data())
def test_no_single_character_corruption_is_accepted(code, data):
    i = data.draw(st.integers(0, len(code) - 1))
    ch = data.draw(st.sampled_from(CHARS))
    kind = data.draw(st.sampled_from(["drop", "add", "change", "swap"]))
    if kind == "drop":
        bad = code[:i] + code[i + 1:]
    elif kind == "add":
        bad = code[:i] + ch + code[i:]
    elif kind == "change":
        bad = code[:i] + ch + code[i + 1:]
    else:
        j = min(i + 1, len(code) - 1)
        bad = code[:i] + code[j] + code[i] + code[j + 1:] if j > i else code
    if bad == code:
        return
    assert accepted(bad) is None


def test_exhaustively_every_changed_character_and_neighbour_swap_is_caught():
    for code in CODES:
        for i in range(len(code)):
            for ch in CHARS:
                if ch != code[i]:
                    assert accepted(code[:i] + ch + code[i + 1:]) is None
            if i + 1 < len(code) and code[i] != code[i + 1]:
                assert accepted(code[:i] + code[i + 1] + code[i] + code[i + 2:]) is None


@pytest.mark.parametrize("raw, words", [
    ("", "empty"),
    ("SRS71", "garbled"),
    (CODES[0] + CODES[0], "twice in one go"),  # a doubled read is not a longer code
    ("SR-71X", "garbled"),
    (make_code("SH", "L07"), "Sugar Heist"),  # a well-formed card of another game
    (make_code("SR", "ZZZ"), "not a Sugarrr! card"),
    (make_code("QQ", "ABC"), "no game I know"),
])
def test_bad_scans_have_a_reason(raw, words):
    with pytest.raises(BadScan) as err:
        card(raw)
    assert words in err.value.message


def test_check_code_splits_prefix_and_body():
    assert check_code(make_code("SR", "S71")) == ("SR", "S71")
