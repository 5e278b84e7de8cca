"""``companion hint sugar-blast BOARD``: every legal swap on a typed board and its Blasts."""

from __future__ import annotations

import json

from . import board as B

KIND_NAMES = {"3": "3-Blast", "4": "4-Blast", "5-6": "5-6-Blast", "box": "Box-Blast"}


def main(text: str, as_json: bool = False) -> str:
    """The hint for a board typed as text (one row per line, one letter per cell). Raises
    :class:`~companion.games.sugar_blast.board.BoardError` (a ValueError) for a bad board."""
    board = B.parse_board(text)
    hint = B.hint_json(board)
    if as_json:
        return json.dumps(hint)
    if hint["no_blasts"]:
        return "No Blasts: no swap makes one. Take 1 candy from the bag and swap it with a different one."
    lines = [f"{len(hint['swaps'])} swap{'s' * (len(hint['swaps']) != 1)} make a Blast "
             "(row, column from 0 at the top left):"]
    for swap in hint["swaps"]:
        (r1, c1), (r2, c2) = swap["from"], swap["to"]
        blasts = "; ".join(f"{KIND_NAMES[b['kind']]} of {B.NAMES[b['candy']]} ({len(b['cells'])} candies)"
                           for b in swap["blasts"])
        lines.append(f"  swap ({r1}, {c1}) {board[r1][c1]} with ({r2}, {c2}) {board[r2][c2]}: {blasts}")
    return "\n".join(lines)
