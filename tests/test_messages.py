"""Every message a player can see is in its game's ``messages.py`` catalogue (issue 9),
and none says "0 cards", "1 cards", a 0-based row, or names a Blast by a count."""

import ast
import inspect
import re
from pathlib import Path

import pytest

from companion.core.events import Outcome
from companion.games.sugar_blast import messages as blast_messages
from companion.games.sugar_blast import rules as blast_rules
from companion.games.sugarrr import messages as sugarrr_messages
from companion.games.sugarrr import rules as sugarrr_rules

GAMES = {"sugarrr": (sugarrr_messages, sugarrr_rules), "sugar-blast": (blast_messages, blast_rules)}
PACKAGES = {"sugarrr": ("rules", "checks", "actions", "flow", "scoring"),
            "sugar-blast": ("rules", "checks", "flow", "hint", "actions")}

#: Fields that are always a number of things, already in words (``count``).
COUNTED = {"cards": "card", "deck": "card", "scanned": "card", "spaces": "space", "n_candies": "candy",
           "discarded": "candy", "swaps": "swap"}
#: Fields that are a number always 2 or more where they are used (player counts, limits,
#: the line of 3+ at set-up, the Blasts found at once).
MANY = {"n", "most", "rows", "cols"}
#: Fields that are a plain number (1 and up).
NUMBERS = {"col", "need", "rest", "seat", "number", "on", "holes", "cells", "left"}


def bad_words(text: str) -> list[str]:
    """What a child must never read: "0 cards", "1 cards", a row or column 0, a Blast
    named by a number of candies."""
    found = re.findall(r"\b(?:0 (?:cards|candies|spaces|cells|swaps)|1 (?:cards|candies|spaces|cells|swaps))\b", text)
    found += re.findall(r"\b(?:row|column|Row|Column)s? 0\b", text)
    for kind in ("5-6-Blast", "3-Blast", "4-Blast"):
        text = text.replace(kind, "")
    found += re.findall(r"[0-9]+-Blast", text)
    found += re.findall(r"totalling|\(copy \d", text)
    return found


def samples(catalogue, key):
    """Every way of filling template ``key``: each counted field with 0, 1 and 2 things,
    each number 1 and 2 (or 2 and 3 for MANY), words for the rest."""
    out = []
    for n in (0, 1, 2):
        values = {}
        for f in catalogue.fields(key):
            if f in COUNTED:
                values[f] = catalogue.count(n, COUNTED[f])
            elif f in MANY:
                values[f] = n + 2
            elif f in NUMBERS:
                values[f] = n + 1
            else:
                values[f] = f"<{f}>"
        out.append(catalogue.say(key, **values))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_message_says_0_cards_1_cards_a_0_based_row_or_a_count_named_blast(game):
    catalogue, _ = GAMES[game]
    problems = {key: bad_words(text) for key in catalogue.TEXT for text in samples(catalogue, key)
                if bad_words(text)}
    assert not problems


@pytest.mark.parametrize("game", GAMES)
def test_no_template_puts_a_raw_number_before_a_plural(game):
    catalogue, _ = GAMES[game]
    raw = {key: t for key, t in catalogue.TEXT.items()
           if any(f in NUMBERS for f in re.findall(r"\{(\w+)\} (?:cards|candies|spaces|cells|swaps|columns)\b", t))}
    assert not raw


def test_counts_and_places_read_as_a_person_counts():
    assert [sugarrr_messages.count(n, "card") for n in (0, 1, 2)] == ["no cards", "1 card", "2 cards"]
    assert [blast_messages.count(n, "candy") for n in (0, 1, 3)] == ["no candies", "1 candy", "3 candies"]
    assert blast_messages.where((0, 0)) == "row 1, column 1"
    assert blast_messages.line_of([(0, 1), (1, 1), (2, 1)]) == "column 2"
    assert blast_messages.numbers(range(5, 13)) == "5 to 12" and blast_messages.numbers([6]) == "6"
    assert {blast_messages.blast_name(k) for k in ("3", "4", "5-6", "box")} == {
        "3-Blast", "4-Blast", "5-6-Blast", "Box-Blast"}


MESSAGE_CALLS = {"IllegalAction", "_no", "BadCommand", "AmbiguousAction", "BoardError", "ValueError"}


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_and_outcome_takes_its_words_from_the_catalogue(game):
    """No refusal or outcome event in the game's modules is built from a literal string:
    its words come from ``say`` (so they are all in ``messages.TEXT``)."""
    catalogue, rules = GAMES[game]
    events = {name for name, obj in vars(rules).items() if inspect.isclass(obj) and issubclass(obj, Outcome)}
    folder = Path(catalogue.__file__).parent
    literal = []
    for module in PACKAGES[game]:
        tree = ast.parse((folder / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in MESSAGE_CALLS | events:
                continue
            for arg in node.args[:2]:
                if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                                      and " " in arg.value):
                    literal.append(f"{module}.py:{node.lineno}")
    assert not literal
