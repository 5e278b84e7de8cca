"""The gettext marker every catalogue of player-visible words uses.

``_()`` is the identity today: the English text is the message id, as GNU gettext expects,
so ``xgettext --keyword=_`` (or Babel's ``pybabel extract``) finds every template of the
shared screen (:mod:`companion.ui.messages`) and of each game's ``messages.py``; a
translation later only replaces :func:`_` with ``gettext.translation(...).gettext``.
Templates use ``str.format`` names (``{who}``), never positional ``%s``, so a translator
may reorder them. No pygame here: the rules use it headless.

>>> _("Undo")
'Undo'
"""

from __future__ import annotations


def _(text: str) -> str:
    """``text`` in the table's language (today: English, the text itself)."""
    return text
