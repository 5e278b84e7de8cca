"""The Sweet Deals Dessert Cards, built from ``cards.toml`` (Sweet Deals rulebook, "Contents").

>>> len(CARDS), [len(deck_for(n)) for n in (2, 4, 6)]
(63, [33, 48, 63])
>>> CARDS[code_for("Pie", 1, copy=1)].name
'Pie 1'
>>> sorted(CARDS[code_for("Pie & Ice Cream")].desserts), CARDS[code_for("Strudel Cupcake")].counts
(['Ice Cream', 'Pie'], 'or')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.core.catalogue import load_toml, lookup
from companion.core.codes import make_code
from ..messages import say

GAME = "sweet-deals"
DATA = load_toml(__package__.rpartition(".")[0])  # cards.toml is in the game's folder
PREFIX: str = DATA["prefix"]
RULES = DATA["rules"]

HAND_SIZE: int = RULES["hand_size"]
MAX_BID: int = RULES["max_bid"]
BONUS: tuple[int, ...] = tuple(RULES["bonus"])
SWEET_SIX: int = RULES["sweet_six"]
HYBRID_DEFAULT: str = RULES["hybrid"]
#: How one hybrid card can count: both its desserts, or one of them.
READINGS: tuple[str, ...] = ("and", "or")
#: The game option ``hybrid``: each card as it says (``card``), or one reading forced on all.
HYBRID_MODES: tuple[str, ...] = ("card",) + READINGS


@dataclass(frozen=True)
class Card:
    """One physical Dessert Card.

    ``kind`` is ``"dessert"``, ``"hybrid"``, ``"wild"`` (Sprinkles), ``"grab"`` (Grab &
    Go) or ``"mochi"``. ``label`` is what a player says when offering it: the dessert's
    name for a dessert card, the card's own name otherwise. ``desserts`` are the sets it
    counts toward without a choice (one for a dessert, two for a hybrid, none for the
    others). ``coins`` is its Coin Value; ``copy`` numbers cards of the same name from 1.
    ``counts`` is how a hybrid counts by its own card (``"and"``: both desserts, ``"or"``:
    one of them; cards.toml's ``counts``), ``""`` for every other card.
    """

    code: str
    name: str
    kind: str
    label: str
    coins: int
    copy: int = 1
    desserts: tuple[str, ...] = ()
    counts: str = ""


DESSERTS: tuple[str, ...] = tuple(d["name"] for d in DATA["dessert"])
_LETTER: dict[str, str] = {d["name"]: d["letter"] for d in DATA["dessert"]}
_SPECIAL = {s["name"]: s for s in DATA["special"]}
_HYBRID = {h["name"]: h for h in DATA["hybrid"]}
HYBRIDS: tuple[str, ...] = tuple(_HYBRID)
SPECIALS: tuple[str, ...] = tuple(_SPECIAL)
#: Every name a player can offer, in the order the screen shows them.
LABELS: tuple[str, ...] = DESSERTS + HYBRIDS + SPECIALS


def code_for(name: str, coins: int | None = None, copy: int = 1) -> str:
    """The code of one physical card: ``code_for("Pie", 2, copy=1)``,
    ``code_for("Strudel Cupcake")``, ``code_for("Sprinkles", copy=3)``.
    Raises KeyError for an unknown name."""
    if name in _LETTER:
        body = f"{_LETTER[name]}{coins}{copy}"
    elif name in _HYBRID:
        body = _HYBRID[name]["body"]
    else:
        body = f"{_SPECIAL[name]['letter']}{copy:02d}"
    return make_code(PREFIX, body)


def _build() -> dict[str, Card]:
    cards: list[Card] = []
    for dessert in DESSERTS:
        seen: dict[int, int] = {}
        for coins in DATA["dessert_cards"]["coins"]:
            seen[coins] = seen.get(coins, 0) + 1
            cards.append(Card(code_for(dessert, coins, seen[coins]), f"{dessert} {coins}", "dessert",
                              dessert, coins, seen[coins], (dessert,)))
    for name, h in _HYBRID.items():
        if any(d not in _LETTER for d in h["desserts"]):
            raise ValueError(say("cards_toml_hybrid_names", name=name))
        if h.get("counts") not in READINGS:
            raise ValueError(say("cards_toml_hybrid_counts", name=name, counts=h.get("counts")))
        cards.append(Card(code_for(name), name, "hybrid", name, 0, 1, tuple(h["desserts"]), h["counts"]))
    for name, s in _SPECIAL.items():
        for copy in range(1, s["copies"] + 1):
            cards.append(Card(code_for(name, copy=copy), name, s["kind"], name, s["coins"], copy))
    by_code = {c.code: c for c in cards}
    if len(by_code) != len(cards):
        raise ValueError(say("cards_toml_gives_two"))
    return by_code


CARDS: dict[str, Card] = _build()


@lru_cache(maxsize=None)
def deck_for(players: int) -> tuple[str, ...]:
    """The codes of the cards played with ``players`` people, in catalogue order
    (rulebook, "Setup"). Raises ValueError for a count no deck is listed for, or when
    cards.toml's listed size does not match what is left."""
    for deck in DATA["deck"]:
        if players in deck["players"]:
            gone = set(deck["remove"])
            codes = tuple(c.code for c in CARDS.values() if c.label not in gone)
            if len(codes) != deck["size"]:
                raise ValueError(say("cards_toml_deck_for", players=players, cards=len(codes), deck=deck['size']))
            return codes
    raise ValueError(say("setup_players", players=players))


def removed_for(players: int) -> tuple[str, ...]:
    """What the dealer takes out of the box for ``players`` people, as ``cards.toml``
    lists it (dessert names mean all seven of that dessert)."""
    for deck in DATA["deck"]:
        if players in deck["players"]:
            return tuple(deck["remove"])
    raise ValueError(say("setup_players", players=players))


def card(raw: str | None) -> Card:
    """The Sweet Deals card for a scanned code. Raises :class:`~companion.core.errors.BadScan`."""
    return lookup(raw, GAME, CARDS)
