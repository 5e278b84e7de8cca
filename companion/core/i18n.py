"""The gettext marker every catalogue of player-visible words uses.

``_()`` is the identity today: the English text is the message id, as GNU gettext expects,
so ``xgettext --keyword=_`` (or Babel's ``pybabel extract``) finds every template of the
shared screen (:mod:`companion.ui.messages`) and of each game's ``messages.py``; a
translation later only replaces :func:`_` with ``gettext.translation(...).gettext``.
Templates use ``str.format`` names (``{who}``), never positional ``%s``, so a translator
may reorder them. No pygame here: the rules use it headless. The helpers every catalogue
shares live here too: :func:`count` (a number of things in words), :func:`listing`
(names joined as a sentence) and :func:`template_fields` (for the catalogue tests).

>>> _("Undo")
'Undo'
>>> count(0, "card"), count(1, "candy"), count(3, "candy"), count(2, "Fruit-O-Saur")
('no cards', '1 candy', '3 candies', '2 Fruit-O-Saurs')
>>> listing(["Ana"]), listing(["Ana", "Ben", "Cy"]), listing([1, 3], "or")
('Ana', 'Ana, Ben and Cy', '1 or 3')
"""

from __future__ import annotations

import string


def _(text: str) -> str:
    """``text`` in the table's language (today: English, the text itself)."""
    return text


class Message(str):
    """A sentence of a catalogue that remembers which template it came from (``key``),
    so a refusal can be traced to the rule behind it (its rulebook sentence: the Why? of
    a refused verdict, :class:`companion.core.why.Rule`). It is a ``str`` everywhere else;
    ``Message + str`` keeps the left-hand key (a refusal followed by what to do now).

    >>> m = Message("Not now.", "not_now")
    >>> (m + " Tap Done.").key, m == "Not now."
    ('not_now', True)
    """

    def __new__(cls, text: str, key: str | None = None) -> "Message":
        made = super().__new__(cls, text)
        made.key = key
        return made

    def __add__(self, other: str) -> "Message":
        return Message(str.__add__(self, other), self.key)

    def __reduce__(self):  # pickles (resume points, queues) as the same Message
        return (Message, (str(self), self.key))


def key_of(text: object) -> str | None:
    """The catalogue key a sentence came from (:class:`Message`), or None for plain text."""
    return text.key if isinstance(text, Message) else None


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` things in words: "no cards", "1 card", "2 cards" ("candy": "candies"). Every
    catalogue passes a number of things through this, never a raw number before a plural."""
    many = plural or (word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s")
    if n == 0:
        return f"no {many}"
    return f"1 {word}" if n == 1 else f"{n} {many}"


def listing(items: list, last: str = "and") -> str:
    """"Ana", "Ana and Ben", "Ana, Ben and Cy" (``last`` the word before the last item,
    e.g. "or", or ", " for a plain list; no items: "")."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    sep = last if last.startswith(",") else f" {last} "
    return ", ".join(items[:-1]) + sep + items[-1]


def template_fields(template: str) -> list[str]:
    """The names of the ``{fields}`` in ``template``, in order (for the catalogue tests)."""
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]
