"""The six candy colours, from ``cards.toml``: their letters in order and their names.
Below both the board (:mod:`.board`) and the words (:mod:`.messages`), which need them."""

from __future__ import annotations

from companion.core.catalogue import load_toml

_CANDY = load_toml(__package__.rpartition(".")[0])["candy"]
#: The candy letters, in the order cards.toml lists them (R O Y G B P).
KINDS: tuple[str, ...] = tuple(c["letter"] for c in _CANDY)
#: Candy letter -> its name on screen ("R" -> "Red").
NAMES: dict[str, str] = {c["letter"]: c["name"] for c in _CANDY}
