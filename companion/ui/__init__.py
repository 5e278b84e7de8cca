"""The pygame touchscreen: the window and its input (:mod:`.app`), colours and type
(:mod:`.theme`) and drawing helpers (:mod:`.widgets`) shared by every game's screen.

A game's ``screen.py`` draws with these; the session owns the :class:`App` loop.
"""

import os as _os

# pygame prints a banner on import unless told not to; the table's log is not the place.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from .app import App, Button, TableInfo  # noqa: E402

__all__ = ["App", "Button", "TableInfo"]
