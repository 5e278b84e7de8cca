"""The session: one queue of inputs -> flow -> rules -> store -> screen.

Mutation lives here and only here. For each input the session asks the game's flow what
it means, checks and applies it with the rules, **commits the input to the event store**,
and only then takes the new state and tells the screen. A rejected input changes nothing
and is not stored; the same code again within the tap-off window is ignored.

On start, an unfinished game in the store is rebuilt by replaying its inputs (from its
resume point, :mod:`companion.table.resume_point`, when one holds: only the inputs after it).
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..core import commands
from ..core.clock import Clock
from ..core.codes import normalise
from ..core.errors import BadCommand, BadScan, DamagedStore, IllegalAction, StoreError, WrongGame
from ..core.events import (CardScanned, DeviceStatus, GameOver, Input, Revealed, Touch, TurnEnded,
                          Undone)
from ..core.game import TABLE, Flow, Game, Rules
from ..core.i18n import count
from ..core.store import EventStore
from ..games import find_game
from ..ui import timers
from . import resume_point
from .verdicts import (Verdict, decide, is_help, is_pause, is_undo, last_saved_record, last_saved_words,
                       repeat_key)

TAP_OFF_SECONDS = 1.0
#: After a resume, the same input as the last one saved before the stop, within this many
#: seconds of the resume and before any other input counts, is asked about before it
#: counts: its verdict may never have been seen (a power cut right after the save).
REPEAT_WINDOW = 120.0
#: Said when a card is read twice in a row within the tap-off time (one tap, read twice).
TAPPED_TWICE = "That card was just scanned: it counts once."
_log = logging.getLogger(__name__)


class GameInProgress(ValueError):
    """A new game was asked for while another is unfinished; nothing was changed."""


#: Said before the verdict of a play (or Undo) that ends a pause: the clocks run again.
PLAYING_AGAIN = "Playing again. "


@dataclass(frozen=True)
class _Done:
    """One accepted input still in force, and what it takes to take it back."""

    seq: int | None
    item: Input
    state: Any             # before it
    entry: Any             # before it
    turn_started: float    # before it
    said: str              # what the table was told
    revealed: bool         # it made hidden information public: never taken back (unless it ended the game)
    ended: bool = False    # it ended the game: taken back until the table starts a new one


@dataclass
class Session:
    """A game being played at the table.

    Build with :meth:`start` (new or resumed). ``listeners`` are called with
    ``(input, verdict)`` after every input; the JSON log and the screen are listeners.
    ``entry`` is the game's half-entered input (its flow's), rebuilt on restart like the
    rules state. Undo (:func:`is_undo`) is handled here for every game: it is stored like
    any input and takes back the newest input still in force, one more each time.
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
    started: float = 0.0
    resumed_inputs: int = 0
    entry: Any = None
    unsaved_result: dict | None = None
    _last_scan: tuple[tuple | None, float] = (None, float("-inf"))
    last_saved: dict | None = None       # after a resume: the last input saved before it (see LastSaved)
    resumed_at: float | None = None      # session clock time of the resume
    _repeat_key: tuple | None = None     # the last saved input, as a repeat of it is recognised
    _repeat_asked: bool = False          # the table was asked once: the next same input counts
    _done: list[_Done] = field(default_factory=list)
    _replaying: bool = False
    pauses: list[tuple[float, float | None]] = field(default_factory=list)
    _spent: tuple | None = field(default=None, repr=False, compare=False)  # see spent_by_seat
    saved_inputs: int = 0                # this game's inputs in the store (the newest one's seq)
    _saved_last: tuple | None = None     # (input, hidden?, what it did) of the newest stored input, as a replay says it
    resumed_from_point: int = 0          # inputs a resume point gave at the start (not replayed), 0 for none

    @classmethod
    def start(cls, game: str, players: list[str], store: EventStore, clock: Clock,
              resume: bool = True, new_game: bool = False, options: dict | None = None, **kw) -> "Session":
        """Resume the newest unfinished ``game`` in the store (when ``resume`` and its
        players match or none were asked for), else begin a new one.

        ``options`` are the game's set-up choices (its descriptor's ``options``), passed
        to its ``rules.new_game`` and kept in the store with the game; a resumed game uses
        its stored ones.

        Raises ValueError for an unknown game or a bad player list or option,
        :class:`GameInProgress` when other players would set an unfinished game aside,
        and :class:`StoreError` when a stored game does not replay.
        """
        desc = find_game(game)
        record = store.unfinished(game) if resume else None
        if record and players and list(record.players) != list(players) and not new_game:
            raise GameInProgress(f"an unfinished {desc.name} game with {', '.join(record.players)} is in {store.path}: "
                                 "leave out --names/--players to resume it, or add --new-game to set it aside "
                                 "(it stays in the history)")
        if record and not new_game:
            session = cls(game, store, record.id, desc.rules.new_game(record.players, **record.config), clock,
                          entry=_new_entry(desc), started=record.started, **kw)
            session.turn_started = record.started
            session.resumed_at = clock.now()
            session._resume(store.payloads(record.id))
            if session.over:
                session._finish(session._done[-1].item.t if session._done else record.started)
            return session
        options = dict(options or {})
        state = desc.rules.new_game(players, **options)  # raises ValueError before anything is stored
        if hasattr(clock, "resync"):  # nothing is timing yet: the table's clock may take the wall time
            clock.resync()
        if record:
            store.abandon(record.id, clock.now())
        now = clock.now()
        gid = store.new_game(game, players, now, config=options)
        session = cls(game, store, gid, state, clock, entry=_new_entry(desc), started=now, **kw)
        session.turn_started = now
        session.last_message = desc.new_game_message
        return session

    # ------------------------------------------------------------ the game

    @property
    def desc(self) -> Game:
        """The game's descriptor (companion.core.game.Game)."""
        return find_game(self.game)

    @property
    def rules(self) -> Rules:
        """The game's rules (:class:`companion.core.game.Rules`)."""
        return self.desc.rules

    @property
    def flow(self) -> Flow:
        """The game's flow (:class:`companion.core.game.Flow`)."""
        return self.desc.flow

    @property
    def view(self) -> Any:
        """What the table may see of the state (the rules' ``public_view`` for TABLE)."""
        return self.rules.public_view(self.state, TABLE)

    def prompt(self) -> str:
        """What the table should do now."""
        return self.flow.prompt(self.state, self.entry)

    def in_setup(self) -> bool:
        """Is the game still being set up (its descriptor's ``setup_phases``)?"""
        return self.state.phase in self.desc.setup_phases

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    def result(self):
        """The game's :class:`~companion.core.game.Result` once over, else None."""
        if not self.over:
            return None
        return self.desc.result(self.state)

    def secret(self, item: Input) -> bool:
        """Is this input a hidden card (its code must never be shown or logged)?"""
        return self.flow.secret(self.state, item)

    # ------------------------------------------------------------ inputs

    def _resume(self, payloads: list[str]) -> None:
        """Rebuild the game from its stored inputs (``payloads``, the store's texts): from
        the resume point kept beside the store (:mod:`companion.table.resume_point`) when
        it holds, replaying only the inputs after it, else by replaying them all. A game
        whose last input was saved but not its end is finished by :meth:`start`."""
        point = resume_point.read(resume_point.path_for(self.store.path), self._point_game(), payloads)
        if point is not None and type(point[1]["state"]) is type(self.state):
            done, fields = point
            for name, value in fields.items():
                setattr(self, name, value)
            self.resumed_from_point = done
        else:
            done = 0
        self._replay(self.store.parse(payloads[done:]), done)
        if payloads:
            _log.info("%s game %s resumed: %d inputs, %d from its resume point, %d replayed", self.game,
                      self.game_id, len(payloads), done, len(payloads) - done)

    def _point_game(self) -> tuple:
        return (self.game_id, self.game, float(self.started))

    def keep_resume_point(self) -> bool:
        """Keep this game's resume point beside the store (:mod:`companion.table.resume_point`):
        what a restart would replay its stored inputs to, so that it need not. The runner
        calls it when the table is idle and when it stops. True when written; False when
        there is nothing to keep (a store in memory or read-only, a game over) or it could
        not be written (never raises: the inputs are in the store either way)."""
        path = resume_point.path_for(self.store.path)
        if path is None or getattr(self.store, "readonly", False) or self.over or not self.saved_inputs:
            return False
        try:
            payloads = self.store.payloads(self.game_id)
        except StoreError:
            return False
        if len(payloads) != self.saved_inputs:  # (the store has inputs this session did not take)
            return False
        fields = {name: getattr(self, name) for name in resume_point.FIELDS}
        return resume_point.keep(path, self._point_game(), payloads, fields)

    def _replay(self, inputs: list[Input], before: int = 0) -> None:
        """Replay stored ``inputs``, the game's inputs numbered ``before + 1`` on."""
        self._replaying = True  # the store is told the game's end once, after the replay (see start)
        try:
            self._replay_each(inputs, before)
        finally:
            self._replaying = False

    def _replay_each(self, inputs: list[Input], before: int = 0) -> None:
        for n, item in enumerate(inputs, before + 1):
            if is_pause(item):
                verdict = self._pause(item)
                self._saved_last = (item, False, verdict.message)
                continue
            self._unpause(item.t)
            if is_undo(item):
                if not self._can_take_back():
                    raise StoreError(f"stored game {self.game_id} does not replay at input {n}: "
                                     "an Undo with nothing to take back")
                self._saved_last = (item, False, self._take_back(n).message)
                continue
            secret = self.secret(item)
            try:
                state, entry, events, message = decide(self.desc, self.state, self.entry, item)
            except (BadScan, BadCommand, IllegalAction) as err:
                raise StoreError(f"stored game {self.game_id} does not replay at input {n} ({item}): {err}") from err
            said, _ = self._keep(n, item, state, entry, events, message)
            self._saved_last = (item, secret, said or f"OK, then: {self.prompt()}")  # a step that said nothing but "OK"
        total = before + len(inputs)
        self.resumed_inputs = self.saved_inputs = total
        if total and self._saved_last is not None:
            item, secret, said = self._saved_last
            self.last_saved = last_saved_record(total, item, secret, said)
            self._repeat_key = repeat_key(item)
            self.last_message, self.last_ok = (f"Game resumed: {count(total, 'input')} restored. "
                                               f"{last_saved_words(self.last_saved)} {self.prompt()}"), None

    def _is_unseen_repeat(self, item: Input) -> bool:
        """Is ``item`` the last input saved before a resume, again, soon after the resume
        and before anything else counted? Then the table is asked first (once)."""
        if self._repeat_key is None or self.resumed_at is None:
            return False
        if item.t - self.resumed_at > REPEAT_WINDOW or repeat_key(item) != self._repeat_key:
            return False
        if self._repeat_asked:
            return False  # asked once, and done again: it counts
        self._repeat_asked = True
        return True

    def handle(self, item: Input | DeviceStatus) -> Verdict | None:
        """Take one input from the queue. Returns its verdict (None for a device status)."""
        if isinstance(item, DeviceStatus):
            self.devices[item.device] = item.status if not item.detail else item.detail
            for listener in self.listeners:
                listener(item, None)
            return None
        verdict = self._judge(item)
        if verdict.verdict == "accepted" and verdict.seq is not None:
            self._repeat_key = None  # something else counted after the resume: no more asking
        if verdict.verdict == "accepted":
            self.last_message = verdict.message or "OK"
            self.last_ok = None if verdict.step else True
        elif verdict.verdict == "rejected":
            self.last_message, self.last_ok = verdict.reason, False
        for listener in self.listeners:
            listener(item, verdict)
        return verdict

    def _judge(self, item: Input) -> Verdict:
        code = None
        secret = False
        hidden = self.secret(item) if not isinstance(item, CardScanned) else False  # (as a replay asks: every input)
        if isinstance(item, CardScanned):
            code = normalise(item.code) if item.code is not None else None
            secret = self.secret(item)
            last_code, last_t = self._last_scan
            key = (item.reader, code)  # the same card on another reader is another tap
            self._last_scan = (key, item.t)
            if (code and key == last_code and item.t - last_t < self.tap_off
                    and not self.flow.scan_again_counts(self.state, item)):
                return Verdict("ignored", TAPPED_TWICE,
                               code=None if secret else code, secret=secret)
        else:
            self._last_scan = (None, float("-inf"))  # after a tap, the same card again is a new scan
        if is_help(item):  # not stored: it changes nothing, and says what is accepted now
            return Verdict("accepted", None, message=commands.help_text(self.desc, self.state, self.entry,
                                                                        self.prompt(), self.undo_label() is not None),
                           step=True)
        if is_pause(item):
            return self._pause(item, store=True)
        if is_undo(item):
            if self.undo_label() is not None and self._is_unseen_repeat(item):
                return Verdict("rejected", "Careful: the last thing saved before the restart was an Undo too "
                                           f"({self.last_saved['said']}). If you really mean to take back one "
                                           "more, tap Undo once more.")
            verdict = self._undo(item)
            if verdict.verdict == "accepted" and self.paused:
                self._unpause(item.t)
                verdict = replace(verdict, message=PLAYING_AGAIN + verdict.message)
            return verdict
        try:
            new_state, entry, events, message = decide(self.desc, self.state, self.entry, item)
        except BadScan as err:
            if secret:  # the reader's garbled text could spell the hidden card; another game's card is named by its game
                reason = err.unnamed if isinstance(err, WrongGame) else "That card could not be read: scan it again."
                return Verdict("rejected", reason, secret=True)
            return Verdict("rejected", err.message, code=err.code)
        except (BadCommand, IllegalAction) as err:
            reason = err.message
            if isinstance(err, BadCommand) and isinstance(item, Touch) and not commands.is_known(self.desc, item.command):
                reason += " Commands now: " + commands.listing(self.desc, self.state, self.entry, self.undo_label() is not None)
            return Verdict("rejected", reason, code=None if secret else code, secret=secret)
        except Exception as exc:  # a bug in a game must never take the table down: refuse, keep going
            _log.error("the %s rules failed on %s (%r); the input was refused", self.game, item, exc)
            _log.debug("where it failed", exc_info=True)
            return Verdict("rejected", "Something went wrong with that, so it did not count. Try another way, "
                                       "or tap Undo.", code=None if secret else code, secret=secret)
        if self._is_unseen_repeat(item):
            assert self.last_saved is not None
            return Verdict("rejected", f"Careful: this is the same as the last thing saved before the restart "
                                       f"({(self.last_saved['said'] or 'the last input').rstrip('.')}). It did count then. "
                                       "If you really mean to do it again, do it once more.",
                           code=None if secret else code, secret=secret)
        try:
            seq = self._append(item)  # committed before anything shows it
        except StoreError as err:
            return Verdict("rejected", _damaged(err, "I could not save that, so it did not count") or
                           f"I could not save that, so it did not count: {err}. "
                           "Check the storage card or disk space, then try again.",
                           code=None if secret else code, secret=secret)
        again = PLAYING_AGAIN if self.paused else ""  # a play ends a pause: the table is told so
        self._unpause(item.t)
        step = new_state is self.state and not events
        said, events = self._keep(seq, item, new_state, entry, events, message)
        self._saved_last = (item, secret or hidden,
                            said or f"OK, then: {self.prompt()}")  # what a replay keeps (_replay_each)
        if not said.strip():  # every accepted input is answered in words: what to do next
            said = self.prompt()
        return Verdict("accepted", None, tuple(events), seq, None if secret else code, secret, again + said, step)

    def _keep(self, seq, item: Input, state, entry, events, message: str) -> tuple[str, list]:
        """Make an accepted input the current state (live and in replay). Returns what
        the table is told and the events (a GameOver carrying the result)."""
        said = " ".join(e.message for e in events if e.message) or message
        revealed = any(isinstance(e, Revealed) for e in events)
        ended = any(isinstance(e, GameOver) for e in events)
        self._done.append(_Done(seq, item, self.state, self.entry, self.turn_started, said, revealed, ended))
        setting_up = self.in_setup()
        self.state, self.entry = state, entry
        for event in events:
            if isinstance(event, TurnEnded):
                self.turn_started = item.t
        if setting_up and not self.in_setup():  # set-up is over: the first turn's clock starts now
            self.turn_started = item.t
        if ended:
            result = self.result()
            events = [replace(e, result=result) if isinstance(e, GameOver) and e.result is None else e
                      for e in events]
            if not self._replaying:
                self._finish(item.t)
        return said, events

    def _can_take_back(self) -> bool:
        """Is there an input Undo may take back? The newest input still in force, unless
        it showed hidden cards to everyone; the input that ended the game always may be
        (its end showed everything anyway, and a wrong winner must not stand), until the
        table starts a new game."""
        if not self._done:
            return False
        last = self._done[-1]
        return last.ended or not last.revealed

    def _undo(self, item: Input) -> Verdict:
        if not self._done:
            return Verdict("rejected", "There is nothing to take back.")
        last = self._done[-1]
        if not self._can_take_back():
            return Verdict("rejected", f"That cannot be taken back: \"{last.said}\" showed hidden cards to "
                                       "everyone.")
        try:
            if last.ended:  # the game is unfinished again: its result leaves the history until it ends again
                self.store.unfinish(self.game_id)
                self.unsaved_result = None
            seq = self._append(item)
        except StoreError as err:
            return Verdict("rejected", _damaged(err, "I could not save the Undo, so nothing was taken back")
                           or f"I could not save the Undo, so nothing was taken back: {err}.")
        event = self._take_back(seq)
        self._saved_last = (item, False, event.message)
        return Verdict("accepted", None, (event,), seq, message=event.message)

    # ------------------------------------------------------------ pause and clocks

    @property
    def paused(self) -> bool:
        return bool(self.pauses) and self.pauses[-1][1] is None

    def _pause(self, item: Input, store: bool = False) -> Verdict:
        """Pause or Resume. The GPIO pause button toggles; a Pause touch while paused,
        or a Resume touch while playing, is refused (live; a stored one, from before this
        rule, still toggles when the game is rebuilt). Stored like any input, so the
        clocks, which leave pauses out, are the same after a restart."""
        if self.over:
            return Verdict("rejected", "The game is over: there is nothing to pause. " + commands.AFTER_GAME)
        resume = self.paused
        seq = None
        verb = item.command.split()[:1] if store and isinstance(item, Touch) else []
        if verb == ["resume"] and not resume:
            return Verdict("rejected", f"The game is not paused. {self.prompt()}")
        if verb == ["pause"] and resume:
            return Verdict("rejected", "The game is already paused: tap Resume, or play on.")
        if store:
            try:
                seq = self._append(item)
            except StoreError as err:
                return Verdict("rejected", _damaged(err, "I could not save that, so the clocks did not change")
                               or f"I could not save that, so the clocks did not change: {err}.")
        if resume:
            self._unpause(item.t)
            message = f"{PLAYING_AGAIN}{self.prompt()}"
        else:
            self.pauses.append((item.t, None))
            message = "Paused: the clocks have stopped. Tap Resume or play on."
        self._saved_last = (item, False, message)
        return Verdict("accepted", None, (), seq, message=message)

    def _append(self, item: Input) -> int:
        """Commit ``item`` to the store (:meth:`EventStore.append`); returns its seq."""
        seq = self.saved_inputs = self.store.append(self.game_id, item)
        return seq

    def _unpause(self, t: float) -> None:
        if self.paused:
            self.pauses[-1] = (self.pauses[-1][0], t)

    def turns(self) -> list[tuple[float, int]]:
        """``(t, seat)``: the game's start and each input still in force, with the seat
        active after it (the chess clock's history; rebuilt from the store on resume)."""
        after = [d.state.active for d in self._done[1:]] + [self.state.active]
        first = self._done[0].state.active if self._done else self.state.active
        return [(self.started, first)] + [(d.item.t, seat) for d, seat in zip(self._done, after)]

    def last_input_t(self) -> float:
        """Session-clock seconds of the last input still in force (the game's start before
        any): where the last of :meth:`turns` begins."""
        return self._done[-1].item.t if self._done else self.started

    def spent_by_seat(self, now: float) -> dict[int, float]:
        """Chess clock: seconds each seat (0-based) has used by ``now``, pauses left out:
        :func:`companion.ui.timers.spent_by_seat` over :meth:`turns`. What was spent up to
        the last input is worked out once per input and pause, not on every frame: a long
        game has hundreds of inputs, and the screen asks for the clocks each frame."""
        done = self._done[-1] if self._done else None
        last = self.last_input_t()
        key = (len(self._done), id(done), last, self.started, tuple(self.pauses))
        if self._spent is None or self._spent[0] != key:  # done is kept with it: its id stays its own
            self._spent = (key, done, timers.spent_by_seat(self.turns(), last, self.pauses))
        spent = dict(self._spent[2])
        if now > last:  # the turn under way, as timers.spent_by_seat counts its last one
            seat = self.state.active
            spent[seat] = spent.get(seat, 0.0) + (now - last) - timers.paused_between(self.pauses, last, now)
        return spent

    def undo_label(self) -> str | None:
        """What an Undo would take back now, in words (None when nothing can be)."""
        if not self._can_take_back():
            return None
        last = self._done[-1]
        if last.ended:  # the end itself: say what taking it back does
            return "The end of the game: play goes back to before it, and its result leaves the history."
        return last.said or "the last input"

    def _take_back(self, seq) -> Undone:
        """Take back the newest input still in force (its Undo is already stored)."""
        last = self._done.pop()
        self.state, self.entry, self.turn_started = last.state, last.entry, last.turn_started
        what = last.said.split(". ")[0].rstrip(".!") if last.said else "the last input"
        if last.ended:
            if what.lower().startswith("game over"):
                what = "the end of the game"
            what += ". The game is not over yet"
        return Undone(f"Undone: {what}. {self.prompt()}", last.seq or 0)

    def _finish(self, t: float) -> None:
        """Mark the game finished in the store. A failure (a full disk) is kept and
        retried by :meth:`retry_finish` and on the next start; the final screen shows."""
        result = self.result()
        self.unsaved_result = result.to_dict() if result is not None else None
        self.retry_finish(t)

    def retry_finish(self, t: float | None = None) -> bool:
        """Write the finished game's result if it is still unsaved. True when saved."""
        if self.unsaved_result is None:
            return True
        try:
            self.store.finish(self.game_id, t if t is not None else self.clock.now(), self.unsaved_result)
        except StoreError:
            return False
        self.unsaved_result = None
        return True

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


def start_session(choice, store, clock, **kw):
    """The session for ``choice``, as ``companion run`` starts one: resume the stored
    game, or begin a new one (setting an unfinished game of the same kind aside: the
    start screen offered it first). ``choice`` is a
    :class:`companion.ui.start.StartChoice`; ``kw`` go to :meth:`Session.start`."""
    if choice.resume:
        return Session.start(choice.game, [], store, clock, **kw)
    return Session.start(choice.game, list(choice.names), store, clock, new_game=True, options=choice.options, **kw)


def _damaged(err: StoreError, lead: str) -> str | None:
    """The verdict for a store found damaged mid-game (None for another store problem):
    short for the table, the whole story (which file, how to go on) in the log."""
    if not isinstance(err, DamagedStore):
        return None
    _log.error("%s", err)
    return (f"{lead}: the game store is damaged, so nothing more can be saved. "
            "A grown-up can start afresh with a new store file (the log says how).")


def _new_entry(desc: Game) -> Any:
    return desc.flow.new_entry()


