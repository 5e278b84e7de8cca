"""The rulebook sentence behind each refusal: the "Why?" of a refused verdict.

Every refusal a game gives (an :class:`~companion.core.errors.IllegalAction`) carries the
key of the catalogue sentence it was said in (:class:`~companion.core.i18n.Message`).
Each game lists, in its ``parts/why.toml`` (data, not code), the rulebook sentences its
refusals rest on, each with the rulebook section it is quoted from and the keys of the
refusals it explains::

    [[rule]]
    section = "Taking a Turn"
    sentence = "Each card you play must match the Fruit or the number of the card before it in the column."
    keys = ["mismatch", "fits_nowhere"]

``tests/test_why.py`` reads each rulebook and checks that every sentence is in it, under
its section, and that every refusal the game's code can give has one.

>>> rules = parse('[[rule]]\\nsection = "Fruit Salad"\\nsentence = "They have no number."\\nkeys = ["a", "b"]\\n')
>>> rules["b"].words()
'Fruit Salad: "They have no number."'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One rulebook sentence: ``sentence`` quoted word for word from the game's rulebook,
    under its heading ``section`` (as the rulebook prints it)."""

    section: str
    sentence: str

    def words(self) -> str:
        """The section and the quoted sentence, as the Why? box shows them."""
        return f'{self.section}: "{self.sentence}"'


def parse(text: str) -> dict[str, Rule]:
    """A ``why.toml``'s refusal keys -> their :class:`Rule`. Raises ValueError for a
    file that is not TOML, a rule lacking ``section``, ``sentence`` or ``keys``, or a
    key given two rules."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"why.toml is not TOML: {err}") from None
    out: dict[str, Rule] = {}
    for n, entry in enumerate(data.get("rule", []), 1):
        try:
            rule = Rule(str(entry["section"]), str(entry["sentence"]))
            keys = [str(k) for k in entry["keys"]]
        except (KeyError, TypeError):
            raise ValueError(f"why.toml rule {n} needs a section, a sentence and keys") from None
        for key in keys:
            if key in out:
                raise ValueError(f"why.toml gives the refusal {key!r} two rules")
            out[key] = rule
    return out
