"""Event numbers kept as runs, so that what the dashboard holds of a table's stream stays
the size of its holes, not of its history.

A table's stream lasts as long as its game store: months of a café's games, tens of
thousands of events a week. The dashboard needs, for each stream, which numbers came
(:class:`RunSet`: to see a repeat and the holes) and how many it counted, in the order
counted (:class:`Counted`: the page's count and the loss tests). Both keep ``(first,
last)`` runs of consecutive numbers, so numbers that come in order, as nearly all do,
cost nothing more.

>>> got = RunSet()
>>> for seq in (1, 2, 3, 7, 8, 5):
...     got.add(seq)
>>> got.runs, len(got), 5 in got, 4 in got
([(1, 3), (5, 5), (7, 8)], 6, True, False)
>>> got.missing(1, 10)
[(4, 4), (6, 6), (9, 10)]
>>> got.drop_below(6); got.runs, len(got)
([(7, 8)], 2)
>>> counted = Counted()
>>> for seq in (1, 2, 3, 1, 2):
...     counted.append(seq)
>>> counted, len(counted), counted.runs
([1, 2, 3, 1, 2], 5, [(1, 3), (1, 2)])
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator


class RunSet:
    """A set of event numbers (ints) as sorted, disjoint, non-adjacent runs ``(first,
    last)``: ``add``, ``in`` and ``len`` like a set; :meth:`missing` the holes between two
    numbers; :meth:`drop_below` forgets the numbers before one. Memory: one run per hole."""

    def __init__(self) -> None:
        self.runs: list[tuple[int, int]] = []
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __contains__(self, seq: object) -> bool:
        if not isinstance(seq, int):
            return False
        i = bisect_right(self.runs, (seq, float("inf"))) - 1
        return i >= 0 and self.runs[i][0] <= seq <= self.runs[i][1]

    def add(self, seq: int) -> None:
        """Add ``seq`` (nothing when it is there already)."""
        runs = self.runs
        if runs and runs[-1][1] + 1 == seq:  # the usual case: the next number
            runs[-1] = (runs[-1][0], seq)
            self._count += 1
            return
        if seq in self:
            return
        i = bisect_right(runs, (seq, float("inf")))  # runs[:i] start at or before seq
        joins_left = i > 0 and runs[i - 1][1] + 1 == seq
        joins_right = i < len(runs) and runs[i][0] - 1 == seq
        if joins_left and joins_right:
            runs[i - 1:i + 1] = [(runs[i - 1][0], runs[i][1])]
        elif joins_left:
            runs[i - 1] = (runs[i - 1][0], seq)
        elif joins_right:
            runs[i] = (seq, runs[i][1])
        else:
            runs.insert(i, (seq, seq))
        self._count += 1

    def drop_below(self, since: int) -> None:
        """Forget every number under ``since``."""
        kept = [(max(a, since), b) for a, b in self.runs if b >= since]
        self.runs = kept
        self._count = sum(b - a + 1 for a, b in kept)

    def missing(self, base: int, newest: int) -> list[tuple[int, int]]:
        """The runs ``(first, last)`` of numbers from ``base`` to ``newest`` not here."""
        out: list[tuple[int, int]] = []
        expect = base
        for a, b in self.runs:
            if b < expect:
                continue
            if a > newest:
                break
            if a > expect:
                out.append((expect, a - 1))
            expect = b + 1
        if expect <= newest:
            out.append((expect, newest))
        return out


class Counted:
    """Event numbers in the order they were counted, repeats and all, as runs of
    consecutive numbers: ``append``, ``len`` and iteration like a list, and equal to the
    list of the same numbers (what the loss tests compare)."""

    def __init__(self) -> None:
        self.runs: list[tuple[int, int]] = []
        self._count = 0

    def append(self, seq: int) -> None:
        """Count ``seq`` after everything counted so far."""
        if self.runs and self.runs[-1][1] + 1 == seq:
            self.runs[-1] = (self.runs[-1][0], seq)
        else:
            self.runs.append((seq, seq))
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        for a, b in self.runs:
            yield from range(a, b + 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Counted):
            return self.runs == other.runs
        if isinstance(other, list):
            return len(other) == self._count and list(self) == other
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))
