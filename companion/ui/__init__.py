"""The pygame touchscreen: the window and its input (:mod:`.app`), colours and type
(:mod:`.theme`) and drawing helpers (:mod:`.widgets`) shared by every game's screen.

A game's ``screen.py`` draws with these; the session owns the :class:`App` loop.
"""

# (pygame's banner is turned off by the table's start-up call, core/startup.py: it runs
# core/lean_pygame.py before anything in the package imports pygame.)
from .app import App, Button, TableInfo

__all__ = ["App", "Button", "TableInfo"]
