"""The Sugar Heist cards, built from ``cards.toml`` (Sugar Heist rulebook, "Components").

>>> len(CARDS), len(CANDY_CODES), len(BATTLE_CODES), len(VAULT_CODES)
(144, 86, 44, 14)
>>> CARDS[code_for("candy", "Chocolate Rockets", 1)].name, LOCK["Chocolate Rockets"]
('Chocolate Rockets', 8)
>>> CARDS[code_for("battle", "Attack", 3)].kind
'attack'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.catalogue import load_toml, lookup
from companion.core.codes import ALPHABET, make_code
from ..messages import say

GAME = "sugar-heist"
DATA = load_toml(__package__.rpartition(".")[0])  # cards.toml is in the game's folder
SETUP = DATA["setup"]
PREFIX = DATA["prefix"]
PURE_SUGAR: str = DATA["pure_sugar"]["name"]


@dataclass(frozen=True)
class Card:
    """One physical card. ``kind`` is ``"candy"``, ``"vault"`` or a Battle Card kind
    (``"attack"``, ``"action"``, ``"defense"``, ``"event"``).

    ``flavour`` is a Candy Card's flavour (``PURE_SUGAR`` for the wild card); ``copy``
    numbers identical cards from 1.
    """

    code: str
    name: str
    kind: str
    copy: int
    flavour: str | None = None

    @property
    def is_candy(self) -> bool:
        return self.kind == "candy"

    @property
    def is_battle(self) -> bool:
        return self.kind in BATTLE_KINDS

    @property
    def is_pure(self) -> bool:
        return self.flavour == PURE_SUGAR


BATTLE_KINDS = ("attack", "action", "defense", "event")
FLAVOURS: tuple[str, ...] = tuple(f["name"] for f in DATA["flavour"])
#: Lock number of each flavour: candies in one vault that lock it ("How to Lock a Vault").
LOCK: dict[str, int] = {f["name"]: f["lock"] for f in DATA["flavour"]}
#: How many of each flavour the deck holds (the rarity number on the card).
RARITY: dict[str, int] = {f["name"]: f["copies"] for f in DATA["flavour"]}
_CANDY_LETTER = {f["name"]: f["letter"] for f in DATA["flavour"]} | {PURE_SUGAR: DATA["pure_sugar"]["letter"]}
_BATTLE_LETTER = {b["name"]: b["letter"] for b in DATA["battle"]}
BATTLE_NAMES: tuple[str, ...] = tuple(b["name"] for b in DATA["battle"])


def code_for(kind: str, name: str | None = None, copy: int = 1) -> str:
    """The code of one physical card: ``code_for("candy", "Nutty Butt", 3)``,
    ``code_for("battle", "Mom", 2)``, ``code_for("vault", copy=14)``.

    Raises KeyError for an unknown flavour or Battle Card.
    """
    if kind == "candy":
        return make_code(PREFIX, f"{_CANDY_LETTER[name]}{copy:02d}")
    if kind == "battle":
        return make_code(PREFIX, "B" + _BATTLE_LETTER[name] + ALPHABET[copy])
    if kind == "vault":
        return make_code(PREFIX, f"V{copy:02d}")
    raise ValueError(say("unknown_card_kind", kind=kind))


def _build() -> dict[str, Card]:
    cards: list[Card] = []
    for f in DATA["flavour"] + [DATA["pure_sugar"]]:
        for copy in range(1, f["copies"] + 1):
            cards.append(Card(code_for("candy", f["name"], copy), f["name"], "candy", copy, f["name"]))
    for b in DATA["battle"]:
        if b["kind"] not in BATTLE_KINDS:
            raise ValueError(say("cards_toml_battle_card", card=b['name'], kind=b['kind']))
        for copy in range(1, b["copies"] + 1):
            cards.append(Card(code_for("battle", b["name"], copy), b["name"], b["kind"], copy))
    for copy in range(1, DATA["vaults"]["copies"] + 1):
        cards.append(Card(code_for("vault", copy=copy), "Vault", "vault", copy))
    by_code = {c.code: c for c in cards}
    if len(by_code) != len(cards):
        raise ValueError(say("cards_toml_gives_two"))
    return by_code


CARDS: dict[str, Card] = _build()
CANDY_CODES: tuple[str, ...] = tuple(c.code for c in CARDS.values() if c.is_candy)
BATTLE_CODES: tuple[str, ...] = tuple(c.code for c in CARDS.values() if c.is_battle)
VAULT_CODES: tuple[str, ...] = tuple(c.code for c in CARDS.values() if c.kind == "vault")


def card(raw: str | None) -> Card:
    """The Sugar Heist card for a scanned code. Raises :class:`~companion.core.errors.BadScan`."""
    return lookup(raw, GAME, CARDS)


def name(code: str) -> str:
    """The printed name of a card code."""
    return CARDS[code].name


def flavour_named(text: str) -> str | None:
    """The flavour a player typed or tapped (``"chocolate rockets"``, ``"choc"``,
    ``"C"``), or None. Pure Sugar is not a flavour one can declare."""
    t = text.strip().lower().replace("-", " ")
    for f in FLAVOURS:
        if t in (f.lower(), _CANDY_LETTER[f].lower()) or (len(t) >= 3 and f.lower().startswith(t)):
            return f
    return None
