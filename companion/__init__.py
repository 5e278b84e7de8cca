"""The Sugar Table Companion (see README.md and docs/design.md)."""

from .core import codecache as _codecache
from .core import lean_pygame as _lean_pygame

_codecache.install()  # before any module defines a dataclass: a quarter of a cold start (issue 24)
_lean_pygame.install()  # before pygame's first import: the modules the table never uses are skipped
