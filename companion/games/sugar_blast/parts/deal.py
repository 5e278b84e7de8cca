"""Sugar Blast "set up from the screen": the table draws a legal starting board, the
players lay the real candies out as shown (nothing to tap in), then tap Ready.

The board is drawn the way the rulebook fills it (Sugar Blast rulebook, "Setup"):
"Place all the Candies inside the Bag and mix them up. Take Candies from the Bag without
looking at them and place them on the board until it is full. There cannot be 3 or more
Candies of the same type connected in a row or column. If there are, mix the Candies on
the Board until there are no more sequences of the same Candy."

So: the game's candies (72, or 60 without orange in solo: ``State.supply``) are mixed,
the first 36 fill the board row by row, and while the board has a run of 3 or more the
candies on the board are mixed again. Pure and deterministic: the same ``seed`` and
supply give the same board on every machine (:class:`random.Random` seeded with an int;
its ``shuffle`` has not changed since Python 3.2), so a game's stored ``deal`` input
rebuilds the same board on resume, Undo and replay.

>>> board = deal(7, (12,) * 6)
>>> len(board), {len(row) for row in board}, start_runs(board)
(6, {6}, [])
>>> deal(7, (12,) * 6) == board
True
"""

from __future__ import annotations

import random

from .board import COLS, EMPTY, ROWS, Board, start_runs
from .colours import KINDS

#: Mixes of the board's candies tried before the board is filled from the bag again (a
#: board of a bad mix, e.g. 12 of one kind in 36 cells, rarely needs more than a few
#: dozen; a fresh fill from the bag is the way out the rulebook's "mix" leaves open).
MIXES = 200

#: The largest seed ``deal N`` takes (and the range a tap's time is folded into).
SEED_MAX = 2 ** 32 - 1


def deal(seed: int, supply: tuple[int, ...]) -> Board:
    """A full starting board with no run of 3 or more of one kind in a row or column,
    drawn from ``supply`` (candies per kind, in ``KINDS`` order) with ``seed`` (an int,
    0 to :data:`SEED_MAX`). Raises ValueError when the supply cannot fill the board."""
    bag = [k for k, n in zip(KINDS, supply) for _ in range(n)]
    cells = ROWS * COLS
    if len(bag) < cells:
        raise ValueError(f"{len(bag)} candies cannot fill a board of {cells}")
    rng = random.Random(seed)
    while True:
        rng.shuffle(bag)  # "Place all the Candies inside the Bag and mix them up"
        on_board = bag[:cells]
        for _ in range(MIXES):
            board = tuple("".join(on_board[r * COLS:(r + 1) * COLS]) for r in range(ROWS))
            if not start_runs(board):
                assert EMPTY not in "".join(board)
                return board
            rng.shuffle(on_board)  # "mix the Candies on the Board"


def seed_of_time(t: float) -> int:
    """The seed of a ``deal`` tapped without a number: the tap's time (seconds on the
    session clock, stored with the input) in milliseconds, folded into 0..SEED_MAX."""
    return int(round(t * 1000)) % (SEED_MAX + 1)
