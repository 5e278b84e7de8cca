"""The session: one queue of inputs -> flow -> rules -> store -> screen.

Mutation lives here and only here. For each input the session asks the game's flow what
it means, checks and applies it with the rules, **commits the input to the event store**,
and only then takes the new state and tells the screen. A rejected input changes nothing
and is not stored; the same code again within the tap-off window is ignored.

On start, an unfinished game in the store is rebuilt by replaying its inputs.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import queue
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .core.clock import Clock
from .core.codes import normalise
from .core.errors import BadScan, IllegalAction, StoreError
from .core.events import CardScanned, DeviceStatus, Input, Touch
from .core.store import EventStore

TAP_OFF_SECONDS = 1.0


class GameInProgress(ValueError):
    """A new game was asked for while another is unfinished; nothing was changed."""
GAMES = {"sugarrr": "companion.games.sugarrr", "sugar-blast": "companion.games.sugar_blast"}


def game_modules(game: str):
    """``(rules, flow)`` modules of a game slug. Raises ValueError for an unknown game."""
    if game not in GAMES:
        known = ", ".join(GAMES)
        raise ValueError(f"no game called {game!r} yet: choose one of {known}")
    base = GAMES[game]
    return importlib.import_module(base + ".rules"), importlib.import_module(base + ".flow")


def state_digest(state: Any) -> str:
    """A short stable fingerprint of a rules state (same state, same digest, any process)."""
    text = json.dumps(asdict(state), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Verdict:
    """What the session made of one input: ``"accepted"``, ``"rejected"`` or ``"ignored"``,
    the reason when not accepted, and the outcome events when accepted."""

    verdict: str
    reason: str | None = None
    events: tuple = ()
    seq: int | None = None
    code: str | None = None  # the card code read, None when the scan was garbled


@dataclass
class Session:
    """A game being played at the table.

    Build with :meth:`start` (new or resumed). ``listeners`` are called with
    ``(input, verdict)`` after every input; the JSON log and the screen are listeners.
    """

    game: str
    store: EventStore
    game_id: int
    state: Any
    clock: Clock
    tap_off: float = TAP_OFF_SECONDS
    listeners: list[Callable[[Input, Verdict], None]] = field(default_factory=list)
    devices: dict[str, str] = field(default_factory=dict)
    last_message: str = ""
    last_ok: bool | None = None
    turn_started: float = 0.0
    resumed_inputs: int = 0
    _last_scan: tuple[tuple | None, float] = (None, float("-inf"))

    @classmethod
    def start(cls, game: str, players: list[str], store: EventStore, clock: Clock,
              resume: bool = True, new_game: bool = False, options: dict | None = None, **kw) -> "Session":
        """Resume the newest unfinished ``game`` in the store (when ``resume`` and its
        players match or none were asked for), else begin a new one.

        ``options`` are the game's set-up choices, passed to its ``rules.new_game`` and
        kept in the store with the game (Sugar Blast: ``{"goal": "five-different"}``,
        ``solo``, ``quick``, ``seats``); a resumed game uses its stored ones.

        Raises ValueError for a bad player list and :class:`StoreError` when a stored
        game does not replay.
        """
        rules, _ = game_modules(game)
        record = store.unfinished(game) if resume else None
        if record and players and list(record.players) != list(players) and not new_game:
            raise GameInProgress(f"an unfinished {game} game with {', '.join(record.players)} is in {store.path}: "
                                 "leave out --names/--players to resume it, or add --new-game to set it aside "
                                 "(it stays in the history)")
        if record and not new_game:
            session = cls(game, store, record.id, rules.new_game(record.players, **record.config), clock, **kw)
            session._replay(store.inputs(record.id))
            return session
        options = dict(options or {})
        state = rules.new_game(players, **options)  # raises ValueError before anything is stored
        if record:
            store.abandon(record.id, clock.now())
        gid = store.new_game(game, players, clock.now(), config=options)
        session = cls(game, store, gid, state, clock, **kw)
        session.turn_started = clock.now()
        session.last_message = getattr(session.flow, "NEW_GAME", "New game: scan the five starting column cards.")
        return session

    # ------------------------------------------------------------ inputs

    @property
    def rules(self):
        return game_modules(self.game)[0]

    @property
    def flow(self):
        return game_modules(self.game)[1]

    def _decide(self, item: Input):
        action = self.flow.action_for(self.state, item)
        return self.rules.step(self.state, action)

    def _replay(self, inputs: list[Input]) -> None:
        for n, item in enumerate(inputs, 1):
            try:
                self.state, events = self._decide(item)
            except (BadScan, IllegalAction) as err:
                raise StoreError(f"stored game {self.game_id} does not replay at input {n} ({item}): {err}") from err
            self._after(item, events)
        self.resumed_inputs = len(inputs)
        if inputs:
            self.last_message, self.last_ok = f"Game resumed: {len(inputs)} inputs restored.", None

    def handle(self, item: Input | DeviceStatus) -> Verdict | None:
        """Take one input from the queue. Returns its verdict (None for a device status)."""
        if isinstance(item, DeviceStatus):
            self.devices[item.device] = item.status if not item.detail else item.detail
            for listener in self.listeners:
                listener(item, None)
            return None
        verdict = self._judge(item)
        if verdict.verdict == "accepted":
            self.last_message = " ".join(e.message for e in verdict.events) or "OK"
            self.last_ok = True
        elif verdict.verdict == "rejected":
            self.last_message, self.last_ok = verdict.reason, False
        for listener in self.listeners:
            listener(item, verdict)
        return verdict

    def _judge(self, item: Input) -> Verdict:
        code = None
        if isinstance(item, CardScanned):
            code = normalise(item.code) if item.code is not None else None
            last_code, last_t = self._last_scan
            key = (item.reader, code)  # the same card on another reader is another tap
            self._last_scan = (key, item.t)
            if code and key == last_code and item.t - last_t < self.tap_off:
                return Verdict("ignored", "the same card again within the tap-off window", code=code)
        elif isinstance(item, Touch):
            self._last_scan = (None, float("-inf"))  # after a tap, the same card again is a new scan
        try:
            new_state, events = self._decide(item)
        except BadScan as err:
            return Verdict("rejected", err.message, code=err.code)
        except IllegalAction as err:
            return Verdict("rejected", err.message, code=code)
        try:
            seq = self.store.append(self.game_id, item)  # committed before anything shows it
        except StoreError as err:
            return Verdict("rejected", f"I could not save that, so it did not count: {err}. "
                                       "Check the storage card or disk space, then try again.", code=code)
        self.state = new_state
        self._after(item, events)
        return Verdict("accepted", None, tuple(events), seq, code)

    def _after(self, item: Input, events) -> None:
        for event in events:
            kind = type(event).__name__
            if kind == "TurnEnded":
                self.turn_started = item.t
            if kind == "GameOver":
                result = getattr(event, "result", None) or self.result()
                self.store.finish(self.game_id, item.t, result.to_dict(self.game))

    def pump(self, inputs: "queue.Queue", block: float | None = None) -> int:
        """Handle every input waiting on ``inputs`` (waiting up to ``block`` seconds for
        the first). Returns how many were handled."""
        handled = 0
        try:
            item = inputs.get(timeout=block) if block else inputs.get_nowait()
        except queue.Empty:
            return 0
        while True:
            try:
                self.handle(item)
            finally:
                inputs.task_done()
            handled += 1
            try:
                item = inputs.get_nowait()
            except queue.Empty:
                return handled

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def result(self):
        """The game's outcome once over (a rules ``Result``), else None."""
        if not self.over:
            return None
        return self.rules.result(self.state)


def log_record(item: Input | DeviceStatus, verdict: Verdict | None) -> list[dict]:
    """The JSON log lines for one input: the input itself, then one per outcome event."""
    if verdict is None:
        return [{"event": "device", "device": item.device, "status": item.status, "detail": item.detail, "t": item.t}]
    if isinstance(item, CardScanned):
        line = {"event": "scan", "code": verdict.code, "reader": item.reader, "t": item.t, "verdict": verdict.verdict}
        if item.code != verdict.code:
            line["raw"] = item.code  # what the reader sent, when it was not a clean card code
    elif isinstance(item, Touch):
        line = {"event": "touch", "command": item.command, "t": item.t, "verdict": verdict.verdict}
    else:
        line = {"event": type(item).__name__, **asdict(item), "verdict": verdict.verdict}
    if verdict.reason and verdict.verdict != "accepted":
        line["reason"] = verdict.reason
    if verdict.seq is not None:
        line["seq"] = verdict.seq
    lines = [line]
    for event in verdict.events:
        out = {"event": "outcome", "type": type(event).__name__, "message": event.message}
        if type(event).__name__ == "GameOver" and hasattr(event, "result"):
            out["result"] = event.result.to_dict()
        elif type(event).__name__ == "GameOver":
            out.update({k: v for k, v in asdict(event).items() if k != "message"})
        lines.append(out)
    return lines
