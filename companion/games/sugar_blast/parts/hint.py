"""``companion hint sugar-blast BOARD``: the Blasts already on a typed board, then every
legal swap and its Blasts. People read rows and columns from 1; each swap also shows
the ``/swap`` command to type (0-based, like ``--json``)."""

from __future__ import annotations

import json

from . import board as B
from ..messages import blast_name, count, say, where


def main(text: str, as_json: bool = False) -> str:
    """The hint for a board typed as text (one row per line, one letter per cell). Raises
    :class:`~companion.games.sugar_blast.parts.board.BoardError` (a ValueError) for a bad board."""
    board = B.parse_board(text)
    hint = B.hint_json(board)
    if as_json:
        return json.dumps(hint)
    standing = B.find_blasts(board)
    if standing:  # possible after a refill: those are solved before any swap
        parts = [say("hint_already_one", blast=blast_name(b.kind), candy=B.NAMES[b.candy],
                     cells="; ".join(where(c) for c in b.cells)) for b in standing]
        return say("hint_already", blasts=" and ".join(parts), them="it" if len(parts) == 1 else "them")
    if hint["no_blasts"]:
        return say("hint_none")
    lines = [say("hint_swaps", swaps=count(len(hint["swaps"]), "swap"))]
    for swap in hint["swaps"]:
        (r1, c1), (r2, c2) = swap["from"], swap["to"]
        blasts = "; ".join(say("hint_blast", blast=blast_name(b["kind"]), candy=B.NAMES[b["candy"]],
                               n_candies=count(len(b["cells"]), "candy")) for b in swap["blasts"])
        lines.append(say("hint_swap", a=where((r1, c1)), ca=board[r1][c1], b=where((r2, c2)), cb=board[r2][c2],
                         blasts=blasts, raw=f"{r1} {c1} {r2} {c2}"))
    return "\n".join(lines)
