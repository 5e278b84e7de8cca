"""The start-up speed-ups, switched on by the programs that run the table (issue 35).

Two of them patch the standard library for the rest of the process, so importing
``companion`` (or any of its modules) does neither; :func:`speed_ups` does both, and the
programs that want them call it first, before they import anything else of the package:
the ``companion`` command (``companion.cli.main``, which ``python -m companion`` runs
too) and the benches' table processes (``bench/firstframe.py``, ``bench/icount.py``,
``bench/bench_memory.py``'s games).

- :func:`companion.core.codecache.install`: :mod:`dataclasses` compiles its methods'
  texts through a cache kept between runs (a quarter of a cold start, issue 24); it must
  come before the first module that defines a dataclass.
- :func:`companion.core.lean_pygame.install`: pygame's first import skips the modules the
  table never uses, and its banner (a fifth of a cold start); it must come before pygame's
  first import, and does nothing after it.

A tool or a test that imports the package without calling it runs the same code, only
with every dataclass method parsed anew and all of pygame imported.
"""

from __future__ import annotations


def speed_ups() -> None:
    """Switch on the code cache and the lean pygame import for this process (see the
    module's docstring). Idempotent; never raises (neither install does)."""
    from . import codecache, lean_pygame

    codecache.install()
    lean_pygame.install()
