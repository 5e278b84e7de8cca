"""The Sugarrr! cards, built from ``cards.toml`` (Sugarrr! rulebook, "Components").

>>> len(CARDS), sum(c.kind == "saur" for c in CARDS.values())
(148, 30)
>>> CARDS[code_for("fruit", "Strawberry", 7, copy=1)].name
'Strawberry 7'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.catalogue import load_toml, lookup
from companion.core.codes import make_code

GAME = "sugarrr"
DATA = load_toml(__package__.rpartition(".")[0])  # cards.toml is in the game's folder
SETUP = DATA["setup"]
PREFIX = DATA["prefix"]


@dataclass(frozen=True)
class Card:
    """One physical card. ``kind`` is ``"fruit"``, ``"salad"`` or ``"saur"``.

    ``fruit`` is the fruit a fruit card shows or a Fruit-O-Saur eats (None for Fruit
    Salad); ``number`` is a fruit card's printed number (2-10) and ``value`` a
    Fruit-O-Saur's value (1-5); ``copy`` numbers identical cards from 1.
    """

    code: str
    name: str
    kind: str
    copy: int
    fruit: str | None = None
    number: int | None = None
    value: int | None = None

    @property
    def is_fruit_deck(self) -> bool:
        """True for cards of the Fruit Deck (fruit cards and Fruit Salad)."""
        return self.kind != "saur"


FRUITS: tuple[str, ...] = tuple(f["name"] for f in DATA["fruit"])
SAUR_OF: dict[str, str] = {f["name"]: f["saur"] for f in DATA["fruit"]}
_LETTER: dict[str, str] = {f["name"]: f["letter"] for f in DATA["fruit"]}
SALAD_NAME: str = DATA["fruit_salad"]["name"]


def _number_char(n: int) -> str:
    return "T" if n == 10 else str(n)


def code_for(kind: str, fruit: str | None = None, number: int | None = None, copy: int = 1) -> str:
    """The code of one physical card: ``code_for("fruit", "Grapes", 5, copy=2)``,
    ``code_for("salad", copy=10)``, ``code_for("saur", "Pear", 2)`` (number = value).

    Raises KeyError for an unknown fruit.
    """
    if kind == "fruit":
        body = _LETTER[fruit] + _number_char(number) + str(copy)
    elif kind == "salad":
        body = f"F{copy:02d}"
    elif kind == "saur":
        body = "D" + _LETTER[fruit] + str(number)
    else:
        raise ValueError(f"unknown card kind {kind!r}")
    return make_code(PREFIX, body)


def _build() -> dict[str, Card]:
    cards: list[Card] = []
    fc = DATA["fruit_cards"]
    for fruit in FRUITS:
        for number in fc["numbers"]:
            for copy in range(1, fc["copies"] + 1):
                cards.append(Card(code_for("fruit", fruit, number, copy), f"{fruit} {number}", "fruit", copy, fruit, number))
    for copy in range(1, DATA["fruit_salad"]["copies"] + 1):
        cards.append(Card(code_for("salad", copy=copy), SALAD_NAME, "salad", copy))
    fs = DATA["fruit_o_saurs"]
    for fruit in FRUITS:
        for value in fs["values"]:
            for copy in range(1, fs["copies"] + 1):
                saur = SAUR_OF[fruit]
                cards.append(Card(code_for("saur", fruit, value, copy), f"{saur} {value}", "saur", copy, fruit, value=value))
    by_code = {c.code: c for c in cards}
    if len(by_code) != len(cards):
        raise ValueError("cards.toml gives two cards the same code")
    return by_code


CARDS: dict[str, Card] = _build()
FRUIT_DECK_SIZE = sum(c.is_fruit_deck for c in CARDS.values())
SAUR_CODES: tuple[str, ...] = tuple(sorted(c.code for c in CARDS.values() if c.kind == "saur"))


def card(raw: str | None) -> Card:
    """The Sugarrr! card for a scanned code. Raises :class:`~companion.core.errors.BadScan`."""
    return lookup(raw, GAME, CARDS)
