"""The Sugar Table Companion (see README.md and docs/design.md)."""

from .core import codecache as _codecache

_codecache.install()  # before any module defines a dataclass: a quarter of a cold start (issue 24)
