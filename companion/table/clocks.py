"""The runner's clocks: the game clock, the turn clock, the time left (a turn limit or a
chess-clock bank), a bid's countdown, and what happens when a turn's time runs out.

Every clock is worked out from the stored inputs' times and the pauses, so clocks survive
a restart. :class:`TableClocks` is one part a :class:`~companion.table.runner.Runner` holds.
"""

from __future__ import annotations

from ..core.events import Touch
from ..ui import timers


class TableClocks:
    """The clocks and the turn limit: one part a :class:`~companion.table.runner.Runner`
    holds (``runner.timekeeper``). It keeps the turn it last passed for the limit and
    reads the session, the timers and the clock through its runner."""

    def __init__(self, runner) -> None:
        self.runner = runner
        self._passed: float | None = None  # turn_started of the turn the limit last acted on

    def clocks(self) -> dict:
        """The game clock, the turn clock, the time left (turn limit or the active
        player's chess-clock bank) and whether to warn; all from stored input times."""
        s, now, t = self.runner.session, self.runner.clock.now(), self.runner.timers
        pauses = list(s.pauses)
        turn = timers.turn_seconds(s.turn_started, now, pauses)
        left = t.left(turn)
        banks = None if t.bank is None else t.banks(s.spent_by_seat(now), len(s.state.players))
        if banks is not None:
            bank = banks[s.state.active]
            left = bank if left is None else min(left, bank)
        bid = None
        if t.bid is not None and not s.over and s.rules.bidder(s.view) is not None:
            bid = t.bid_left(timers.turn_seconds(s.last_input_t(), now, pauses))
        return {"game": timers.game_seconds(s.started, now, pauses), "turn": turn, "bid": bid,
                "left": None if left is None else max(0.0, left), "banks": banks,
                "warning": left is not None and left <= t.warn and not s.over}

    def check_turn_limit(self) -> None:
        """At zero, once a turn: say so (headless text); with ``at_zero="pass"``, pass the
        turn if the rules allow a pass now, never while an auction waits on a bid (a bid
        is the bidder's; it has its own countdown); otherwise the clock only shows orange."""
        s, t = self.runner.session, self.runner.timers
        if t.limit is None or s.over or s.paused or self._passed == s.turn_started or s.in_setup():
            return  # set-up is no one's turn: the limit starts with the first turn
        if not t.expired(timers.turn_seconds(s.turn_started, self.runner.clock.now(), s.pauses)):
            return
        self._passed = s.turn_started
        who = s.state.players[s.state.active] if s.state.players else "this player"
        bidding = s.rules.bidder(s.view) is not None
        item = Touch("pass", self.runner.clock.now())
        # A bid is the bidder's: the turn clock never passes it.
        if t.at_zero != "pass" or bidding or not self._allowed(item):
            item = None
        if item is not None:
            said = f"Time is up for {who}: passing the turn."
        elif t.at_zero == "pass" and bidding:
            said = f"Time is up for {who}'s turn, but a bid is never passed for a player: bid or Pass."
        elif t.at_zero == "pass":
            said = f"Time is up for {who}'s turn, but the rules allow no pass now: play on."
        else:
            said = f"Time is up for {who}'s turn."
        self.runner._say(said)
        if self.runner.sounds is not None:
            self.runner.sounds.play("time_up")
        self._said_json({"event": "time_up", "player": who, "turn": s.state.turn,
                         "limit_s": t.limit, "passed": item is not None, "message": said})
        if item is not None:
            self.runner.inputs.put(item)
        else:  # on the screen too (a neutral line): nothing was done for the player
            s.last_message, s.last_ok = said, None
            self.runner.dirty = True

    def _said_json(self, record: dict) -> None:
        """A table event that is no input's verdict, as one line of the JSON log (the
        service's journal): ``record`` plus ``t``, the clock's seconds."""
        out = self.runner.json_out
        if out is not None:
            import json

            out.write(json.dumps({**record, "t": self.runner.clock.now()}) + "\n")
            out.flush()

    def _allowed(self, item) -> bool:
        """Would the rules accept ``item`` now (nothing is changed)?"""
        from .verdicts import decide

        s = self.runner.session
        try:
            decide(s.desc, s.state, s.entry, item)
        except Exception:
            return False
        return True
