"""Player names: what a name may hold, checked wherever a name comes in (``--names``, a
trace's header, a ``score`` file), so no name can break a screen, a log line or a
terminal.

A name is 1 to :data:`NAME_MAX` characters of text: letters of any script, digits,
spaces, punctuation and emoji, including emoji joined with a zero-width joiner
(``👩‍👧``) and variation selectors. Refused: control characters (tab, line breaks,
carriage return, escape: a terminal would act on them), line and paragraph separators,
and the bidirectional overrides that reorder the text around a name.

>>> name_problem("Maya"), name_problem("👩\u200d👧"), name_problem("Zoë-Ann")
(None, None, None)
>>> name_problem("Mum\\x1b[2J")
'has a control character (a tab, a line break or a terminal code): use letters, digits and spaces'
"""

from __future__ import annotations

import unicodedata

#: The longest name, in characters: it fits a player row on the 800x480 screen.
NAME_MAX = 40

#: Format characters (Unicode category Cf) a name may hold: zero-width joiner and
#: non-joiner (emoji sequences, Indic and Arabic scripts) and the emoji tag characters.
_ALLOWED_FORMAT = {0x200C, 0x200D} | set(range(0xE0020, 0xE0080))


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (a phrase to follow "the name ..."), or
    None when it can. Surrounding spaces are the caller's to strip."""
    if not name.strip():
        return "is empty: write them like Mum,Dad,Maya"
    if len(name) > NAME_MAX:
        return f"is longer than {NAME_MAX} characters"
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp", "Cs") or (category == "Cf" and ord(ch) not in _ALLOWED_FORMAT):
            return ("has a control character (a tab, a line break or a terminal code): "
                    "use letters, digits and spaces")
    return None
