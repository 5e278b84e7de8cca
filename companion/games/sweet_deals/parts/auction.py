"""Sweet Deals bidding: who bids next, what a bid must be, and when the bidding is over
(Sweet Deals rulebook, "On Your Turn", steps 2 and 3).

Going clockwise from the offering player's left, each player Passes or Bids 0 to 5
coins. A bid matches or raises the high bid. A player below the high bid who passes is
out of this auction. A player who holds the high bid may raise, or pass to stand on it:
that is how "Tim does not raise" in the rulebook's example leaves Jillian and Tim tied.
The bidding keeps circling until everyone still in holds the high bid and has had a
turn since it last changed: one player left is the winner, several are tied.

>>> b = Bidding.open(4, offerer=0)          # Shawn 0 offers; Jillian 1, Tim 2, April 3
>>> b = b.bid(1, 1).bid(2, 2).passed(3).bid(1, 2).passed(2)
>>> b.outcome()
('tied', (1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import MAX_BID
from ..messages import say


@dataclass(frozen=True)
class Bidding:
    """One auction. ``bids`` is each seat's standing bid (None: no bid; the offerer's is
    always None); ``out`` the seats that passed below the high bid; ``to_act`` whose
    turn it is to bid (None once the bidding is over); ``acted`` the seats that have
    had their turn since the high bid last changed (the one who changed it included)."""

    offerer: int
    bids: tuple[int | None, ...]
    out: frozenset[int]
    to_act: int | None
    acted: frozenset[int] = frozenset()

    @classmethod
    def open(cls, players: int, offerer: int) -> "Bidding":
        """Bidding on an offer by seat ``offerer``: the player on their left bids first."""
        return cls(offerer, (None,) * players, frozenset({offerer}), (offerer + 1) % players)

    @property
    def high(self) -> int | None:
        """The high bid in coins, or None before anyone bids."""
        standing = [b for s, b in enumerate(self.bids) if b is not None and s not in self.out]
        return max(standing) if standing else None

    @property
    def still_in(self) -> tuple[int, ...]:
        """Seats still in the auction, clockwise from the offerer's left."""
        n = len(self.bids)
        return tuple(s for s in ((self.offerer + i) % n for i in range(1, n)) if s not in self.out)

    def holds_high(self, seat: int) -> bool:
        return self.bids[seat] is not None and self.bids[seat] == self.high

    def problem(self, seat: int, coins: int) -> str | None:
        """Why ``seat`` may not bid ``coins`` now, in words for the table, or None."""
        if self.to_act is None:
            return say("bidding_over")
        if seat != self.to_act:
            return say("not_your_turn_bid")
        if not 0 <= coins <= MAX_BID:
            return say("bid_0_coins", max_bid=MAX_BID)
        high = self.high
        if high is not None and coins < high:
            return say("high_bid_bid_more", high=high)
        if high is not None and self.bids[seat] == high and coins == high:
            return say("you_already_bid_raise", high=high)
        return None

    def bid(self, seat: int, coins: int) -> "Bidding":
        """``seat`` bids ``coins`` (checked by :meth:`problem`): a match or a raise."""
        bids = self.bids[:seat] + (coins,) + self.bids[seat + 1:]
        return replace(self, bids=bids, acted=frozenset({seat}))._advance(seat)

    def passed(self, seat: int) -> "Bidding":
        """``seat`` passes: below the high bid they are out; holding it, they stand."""
        if self.holds_high(seat):
            return replace(self, acted=self.acted | {seat})._advance(seat)
        return replace(self, out=self.out | {seat}, acted=self.acted | {seat})._advance(seat)

    def outcome(self) -> tuple[str, tuple[int, ...]] | None:
        """None while bidding goes on; ``("none", ())`` when everyone passed,
        ``("won", (seat,))`` or ``("tied", seats)`` (clockwise from the offerer's left)."""
        left = self.still_in
        if not left:
            return ("none", ())
        high = self.high
        if all(self.bids[s] == high for s in left) and set(left) <= self.acted:
            return ("won" if len(left) == 1 else "tied", left)
        return None

    def _advance(self, seat: int) -> "Bidding":
        if self.outcome() is not None:
            return replace(self, to_act=None)
        n = len(self.bids)
        for i in range(1, n + 1):
            nxt = (seat + i) % n
            if nxt not in self.out and nxt not in self.acted:
                return replace(self, to_act=nxt)
        raise AssertionError(say("bidding_with_nobody_bid"))  # outcome() covers every end
