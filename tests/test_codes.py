"""Card codes: a garbled read is rejected, never read as another card."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from companion.core.codes import check_code, make_code
from companion.core.errors import BadScan
from companion.games.sugarrr.parts.cards import CARDS, card

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
    ("SRS71", "did not read right"),
    (CODES[0] + CODES[0], "twice at once"),  # a doubled read is not a longer code
    ("SR-71X", "did not read right"),
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


def _before(length: int) -> dict[int, str]:
    """For each running value of the check (1-36), a string of ``length`` characters
    that leads to it."""
    from itertools import product

    from companion.core.codes import _running

    found: dict[int, str] = {}
    for chars in product(CHARS, repeat=length):
        found.setdefault(_running("".join(chars)), "".join(chars))
        if len(found) == 36:
            return found
    raise AssertionError(f"only {len(found)} running values reached with {length} characters")


def test_the_check_misses_exactly_the_neighbour_swaps_the_module_names():
    """codes.py states exactly which neighbour swaps pass the check (it used to claim
    all were caught, and five printed cards had a swapped twin that passes). Every
    running value x every pair of characters, in the body and at the check's place."""
    from companion.core.codes import check_character, swap_passes

    def valid(code):
        return check_character(code[:-1]) == code[-1]

    for before in _before(2).values():  # a swap inside the payload, then one more character
        for a in CHARS:
            for b in CHARS:
                if a == b:
                    continue
                payload = before + a + b + "0"
                swapped = before + b + a + "0"
                assert valid(swapped + check_character(payload)) == swap_passes(before, a, b), (before, a, b)
    for before in _before(4).values():  # the last body character and the check character
        for a in CHARS:
            k = check_character(before + a)
            if k != a:
                assert valid(before + k + a) == swap_passes(before, a, k), (before, a, k)
    passing = sum(swap_passes(b, x, y) for b in _before(2).values() for x in CHARS for y in CHARS if x < y)
    assert passing == 36  # one pair of neighbours in each of the 36 running values: 36 of 36 x 630


def test_no_printed_card_is_one_changed_character_or_one_swap_from_another_printed_card():
    """What makes the check's one gap harmless: a swap the check misses gives a code that
    is no printed card of any game, which the table refuses."""
    from companion.games import GAMES

    printed = {info.code for desc in GAMES.values() if desc.has_cards for info in desc.cards()}
    assert len(printed) > 300
    for code in printed:
        for i in range(len(code)):
            for ch in CHARS:
                assert ch == code[i] or code[:i] + ch + code[i + 1:] not in printed
            if i + 1 < len(code):
                assert code[:i] + code[i + 1] + code[i] + code[i + 2:] == code or \
                    code[:i] + code[i + 1] + code[i] + code[i + 2:] not in printed


@pytest.mark.toy_game
def test_a_new_games_cards_keep_that_distance_from_every_printed_card():
    """The toy game's cards (tests/toy_game.py, registered for this test) among every game's."""
    from companion.games import GAMES

    assert "toy" in GAMES
    test_no_printed_card_is_one_changed_character_or_one_swap_from_another_printed_card()


@pytest.mark.parametrize("twin, game", [("SDC301", "sweet-deals"), ("SRDG01", "sugarrr"), ("SHBP01", "sugar-heist")])
def test_a_swapped_twin_that_passes_the_check_is_refused_at_the_table(twin, game):
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.session import Session

    check_code(twin)  # it passes the check character...
    session = Session.start(game, ["Ana", "Ben", "Cy"], EventStore(":memory:"), FakeClock())
    verdict = session.handle(CardScanned(twin, "scanner", 0.0))
    assert verdict.verdict == "rejected"  # ...and is no card: refused, never read as one
    assert "card I know" in verdict.reason or "could not be read" in verdict.reason  # (hidden: not named)


@pytest.mark.parametrize("raw", ["HELLO123", "SRS17M", "SRS71", CODES[0] + CODES[0], "SR-71X", "x" * 40])
def test_a_garbled_scan_is_told_without_what_the_reader_sent(raw):
    """Issue 38: "That scan was garbled (HELLO123)" showed the raw code, a jumble a child
    cannot read (and, for a card played face down, letters that might spell it). The
    verdict says what to do; what the reader sent goes to the log only."""
    with pytest.raises(BadScan) as err:
        card(raw)
    said = err.value.message
    assert raw.upper() not in said and raw.upper()[:6] not in said and "(" not in said
    assert said.endswith("again.")
