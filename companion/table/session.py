"""The session: one queue of inputs -> flow -> rules -> store -> screen.

Mutation lives here and only here. For each input the session asks the game's flow what
it means, checks and applies it with the rules, **commits the input to the event store**,
and only then takes the new state and tells the screen. A rejected input changes nothing
and is not stored.

What every game shares is a small part the session holds, each with its own tests:
Undo (:class:`~companion.table.undo.UndoStack`, the inputs still in force), Pause and
Resume (:class:`~companion.table.pause.Pauses`, the spans every clock leaves out), the
repeated-input guard (:class:`~companion.table.repeat_guard.RepeatGuard`: after a resume,
the last input saved before it, done again, is asked about first) and tap-off
(:class:`~companion.table.tap_off.TapOff`: the same card again within the tap-off window
is one tap read twice, ignored).

On start, an unfinished game in the store is rebuilt by replaying its inputs (from its
resume point, :mod:`companion.table.resume_point`, when one holds: only the inputs after it).
"""

from __future__ import annotations

import logging
import queue
from dataclasses import InitVar, dataclass, field, replace
from typing import Any, Callable

from ..core import commands
from ..core.clock import Clock
from ..core.codes import normalise
from ..core.errors import BadCommand, BadScan, DamagedStore, IllegalAction, StoreError
from ..core.events import CardScanned, DeviceStatus, GameOver, Input, Revealed, TurnEnded, Undone
from ..core.game import TABLE, Flow, Game, Rules
from ..core.i18n import count
from ..core.store import EventStore
from ..games import find_game
from ..ui import timers
from . import resume_point
from .pause import PAUSED, PLAYING_AGAIN, Pauses
from .repeat_guard import RepeatGuard
from .tap_off import TAP_OFF_SECONDS, TAPPED_TWICE, TapOff
from .teach import Teacher
from .undo import Done, UndoStack
from .verdicts import Verdict, decide, is_help, is_pause, is_undo, last_saved_words, refused

_log = logging.getLogger(__name__)


def _scan_words(desc: Game, item: CardScanned, who: str | None) -> str | None:
    """"Mia's scan of Strawberry 2": a card scanned and waiting for the rest of its input
    (``who``: whose move it was, None in set-up), named as the card is printed."""
    code = normalise(item.code) if item.code is not None else None
    card = desc.catalogue().get(code) if desc.has_cards and code else None
    if card is None:
        return None
    return f"{who}'s scan of {card.name}" if who else f"the scan of {card.name}"


class GameInProgress(ValueError):
    """A new game was asked for while another is unfinished; nothing was changed."""


@dataclass
class Session:
    """A game being played at the table.

    Build with :meth:`start` (new or resumed). ``listeners`` are called with
    ``(input, verdict)`` after every input; the JSON log and the screen are listeners.
    ``entry`` is the game's half-entered input (its flow's), rebuilt on restart like the
    rules state. The parts every game shares: ``undo`` (:class:`UndoStack`; an Undo,
    :func:`is_undo`, is stored like any input and takes back the newest input still in
    force, one more each time), ``pauses`` (:class:`Pauses`), ``repeats``
    (:class:`RepeatGuard`) and ``taps`` (:class:`TapOff`, made from ``tap_off``, the
    tap-off time in seconds). Times are seconds on the session clock (``clock``).
    """

    game: str
    store: EventStore
    game_id: int
    state: Any
    clock: Clock
    tap_off: InitVar[float] = TAP_OFF_SECONDS
    listeners: list[Callable[[Input, Verdict], None]] = field(default_factory=list)
    devices: dict[str, str] = field(default_factory=dict)
    last_message: str = ""
    last_ok: bool | None = None
    last_why: tuple | None = None        # (reason, Verdict.why) of the last refusal: see why_now
    turn_started: float = 0.0
    started: float = 0.0
    entry: Any = None
    undo: UndoStack = field(default_factory=UndoStack)
    pauses: Pauses = field(default_factory=Pauses)
    repeats: RepeatGuard = field(default_factory=RepeatGuard)
    taps: TapOff = field(init=False)
    saved_inputs: int = 0                # this game's inputs in the store (the newest one's seq)
    resumed_inputs: int = 0              # inputs restored at the start (from a point or replayed)
    resumed_from_point: int = 0          # inputs a resume point gave at the start (not replayed), 0 for none
    unsaved_result: dict | None = None   # a finished game's result the store has not taken yet (retry_finish)
    left: bool = False                   # left from the game menu: stored as abandoned, takes no more inputs
    teacher: Teacher = field(default_factory=Teacher)  # a first game's lessons (companion.table.teach)
    _spent: tuple | None = field(default=None, repr=False, compare=False)  # see spent_by_seat

    def __post_init__(self, tap_off: float) -> None:
        self.taps = TapOff(tap_off)

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
            session = cls(game, store, record.id, desc.rules.new_game(record.players, **_stored_options(desc, record, store.path)),
                          clock,
                          entry=desc.flow.new_entry(), started=record.started, **kw)
            session.turn_started = record.started
            at = clock.now()  # the resume's time, before the replay (the repeat guard's window starts here)
            session._resume(store.payloads(record.id), at)
            if session.over:
                session._finish(session.last_input_t())
            return session
        options = dict(options or {})
        state = desc.rules.new_game(players, **options)  # raises ValueError before anything is stored
        if hasattr(clock, "resync"):  # nothing is timing yet: the table's clock may take the wall time
            clock.resync()
        if record:
            store.abandon(record.id, clock.now())
        now = clock.now()
        gid = store.new_game(game, players, now, config=options)
        session = cls(game, store, gid, state, clock, entry=desc.flow.new_entry(), started=now, **kw)
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
        """What the table should do now (from the table's view: it cannot name a hidden card)."""
        return self.flow.prompt(self.view, self.entry)

    def teach(self) -> None:
        """Walk this table through its first round (:class:`Teacher`): the screen's
        prompt is the game's lesson until every player has finished one turn."""
        self.teacher = Teacher(on=True, players=len(self.state.players))

    def lesson(self) -> str | None:
        """The first game's lesson for now (:meth:`Teacher.lesson`), or None."""
        return self.teacher.lesson(self.flow, self.view, self.entry)

    def help_text(self) -> str:
        """The answer to ``help``: the commands the table's view accepts now
        (:func:`companion.core.commands.help_text`)."""
        return commands.help_text(self.desc, self.view, self.entry, self.prompt(), self.undo.can_take_back(),
                                  self.paused)

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

    @property
    def paused(self) -> bool:
        """Is a pause under way (:attr:`Pauses.paused`)?"""
        return self.pauses.paused

    @property
    def last_saved(self) -> dict | None:
        """After a resume, the last input saved before it (:attr:`RepeatGuard.last_saved`);
        None for a new game or one resumed with no inputs."""
        return self.repeats.last_saved

    def why_now(self) -> Any:
        """The rulebook sentence behind the refusal the table shows now (a
        :class:`~companion.core.why.Rule`, the screen's Why?), or None: the last thing
        said is no refusal, or not one by a rule (a bad scan, something said since)."""
        if self.last_ok is not False or self.last_why is None or self.last_why[0] != self.last_message:
            return None
        return self.last_why[1]

    def undo_label(self) -> str | None:
        """What an Undo would take back now, in words (None when nothing can be)."""
        return self.undo.label()

    def undo_question(self) -> str | None:
        """The Undo dialog's question: what an Undo would take back now and whose move it
        was, from the input itself (the game's :meth:`~companion.core.game.Flow.undo_words`:
        "Undo Mia's play of Strawberry 2 onto column 3?"), a hidden card only by whose it
        was ("Undo Mia's face-down card?"), else from what the table was told of it (None
        when nothing can be taken back)."""
        last = self.undo.last
        if last is None or not self.undo.can_take_back() or last.ended:
            return self.undo.question(self.desc.setup_phases)
        if last.hidden:  # never from the card: whose it was, not which (its events may hold it)
            return last.face_down_question(self.desc.setup_phases)
        try:  # the same input read again where it was taken: the action it made (flow.read is pure)
            action = self.flow.read(last.state, last.entry, last.item)[1]
            words = self.flow.undo_words(self.rules.public_view(last.state, TABLE), last.item, action, last.events)
            if words is None and action is None and isinstance(last.item, CardScanned):  # a card waiting for more
                words = _scan_words(self.desc, last.item, last.mover(self.desc.setup_phases))
        except Exception:  # (a stored input that no longer reads: the words it was told instead)
            _log.debug("the Undo words could not be made", exc_info=True)
            words = None
        return f"Undo {words}?" if words else self.undo.question(self.desc.setup_phases)

    # ------------------------------------------------------------ inputs

    def handle(self, item: Input | DeviceStatus) -> Verdict | None:
        """Take one input from the queue. Returns its verdict (None for a device status)."""
        if isinstance(item, DeviceStatus):
            self.devices[item.device] = item.status if not item.detail else item.detail
            for listener in self.listeners:
                listener(item, None)
            return None
        verdict = self._judge(item)
        if verdict.verdict == "accepted" and verdict.seq is not None:
            self.repeats.counted()  # something counted after the resume: no more asking
            self.teacher.heard(verdict.events)
        if verdict.verdict == "accepted":
            self.last_message = verdict.message or "OK"
            self.last_ok = None if verdict.step else True
        elif verdict.verdict == "rejected":
            self.last_message, self.last_ok = verdict.reason, False
        if verdict.verdict == "rejected":
            self.last_why = (verdict.reason, verdict.why)
        for listener in self.listeners:
            listener(item, verdict)
        return verdict

    def leave(self) -> bool:
        """Leave the game from the menu: stored as abandoned (``{"abandoned": true}``, as a
        game set aside is), so History keeps it as not finished and the figures and
        standings leave it out. False, nothing changed, when the store cannot be written."""
        from ..ui.messages import text

        if self.over or self.left:
            return False
        try:
            self.store.abandon(self.game_id, self.clock.now(), left=True)
        except StoreError as err:
            _log.error("the game could not be left: %s", err)
            self.last_message, self.last_ok = text("leave_failed"), False
            return False
        self.left = True
        self.last_message, self.last_ok = text("left_game"), True
        return True

    def _judge(self, item: Input) -> Verdict:
        """The verdict for one input, and its change to the game when accepted: a card
        read twice in one tap is ignored (:class:`TapOff`), help is answered, Pause,
        Resume and Undo are the session's own, anything else is the game's (:meth:`_play`)."""
        if isinstance(item, CardScanned) and not self.left:
            code = normalise(item.code) if item.code is not None else None
            secret = self.secret(item)
            if self.taps.read_twice(item.reader, code, item.t) and not self.flow.scan_again_counts(self.state, item):
                return Verdict("ignored", TAPPED_TWICE, code=None if secret else code, secret=secret)
            return self._play(item, code, secret, hidden=False)
        if self.left:  # (the start screen is up; a scan or tap meanwhile never joins a game that was left)
            from ..ui.messages import text

            return Verdict("rejected", text("left_over"))
        hidden = self.secret(item)  # (as a replay asks: every input)
        self.taps.forget()  # after a tap, the same card again is a new scan
        if is_help(item):  # not stored: it changes nothing, and says what is accepted now
            return Verdict("accepted", None, message=self.help_text(), step=True)
        if is_pause(item):
            return self._pause(item, store=True)
        if is_undo(item):
            return self._undo(item)
        return self._play(item, None, False, hidden)

    def _play(self, item: Input, code: str | None, secret: bool, hidden: bool) -> Verdict:
        """A game's own input: read by its flow, checked and applied by its rules, asked
        about if it repeats the last input saved before a resume, stored, then kept."""
        shown = None if secret else code
        try:
            new_state, entry, events, message = decide(self.desc, self.state, self.entry, item)
        except (BadScan, BadCommand, IllegalAction) as err:
            view = self.view
            return refused(err, self.desc, view, self.entry, item, code, secret, self.undo.can_take_back(),
                           same=view == self.state)
        except Exception as exc:  # a bug in a game must never take the table down: refuse, keep going
            _log.error("the %s rules failed on %s (%r); the input was refused", self.game, item, exc)
            _log.debug("where it failed", exc_info=True)
            return Verdict("rejected", "Something went wrong with that, so it did not count. Try another way, "
                                       "or tap Undo.", code=shown, secret=secret)
        caution = self.repeats.caution(item)
        if caution is not None:
            return Verdict("rejected", caution, code=shown, secret=secret)
        try:
            seq = self._append(item)  # committed before anything shows it
        except StoreError as err:
            return Verdict("rejected", _damaged(err, "I could not save that, so it did not count") or
                           f"I could not save that, so it did not count: {err}. "
                           "Check the storage card or disk space, then try again.", code=shown, secret=secret)
        again = PLAYING_AGAIN if self.pauses.end(item.t) else ""  # a play ends a pause: the table is told so
        step = new_state is self.state and not events
        said, events = self._keep(seq, item, new_state, entry, events, message)
        self.repeats.stored(item, secret or hidden, said or f"OK, then: {self.prompt()}")  # as a replay keeps it
        if not said.strip():  # every accepted input is answered in words: what to do next
            said = self.prompt()
        return Verdict("accepted", None, tuple(events), seq, shown, secret, again + said, step)

    def _keep(self, seq, item: Input, state, entry, events, message: str, live: bool = True) -> tuple[str, list]:
        """Make an accepted input the current state (live and in replay). Returns what
        the table is told and the events (a GameOver carrying the result). A game's end
        is told to the store here when ``live``; after a replay, by :meth:`start`."""
        said = " ".join(e.message for e in events if e.message) or message
        revealed = any(isinstance(e, Revealed) for e in events)
        ended = any(isinstance(e, GameOver) for e in events)
        self.undo.push(Done(seq, item, self.state, self.entry, self.turn_started, said, revealed, ended,
                            tuple(events), self.secret(item)))
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
            if live:
                self._finish(item.t)
        return said, events

    def _undo(self, item: Input) -> Verdict:
        """Undo: store it, then take back the newest input still in force (or say why not)."""
        refusal = self.undo.refusal()
        if refusal is not None:
            return Verdict("rejected", refusal)
        caution = self.repeats.caution(item)
        if caution is not None:
            return Verdict("rejected", caution)
        try:
            if self.undo.last.ended:  # the game is unfinished again: its result leaves the history until it ends again
                self.store.unfinish(self.game_id)
                self.unsaved_result = None
            seq = self._append(item)
        except StoreError as err:
            return Verdict("rejected", _damaged(err, "I could not save the Undo, so nothing was taken back")
                           or f"I could not save the Undo, so nothing was taken back: {err}.")
        event = self._take_back()
        self.repeats.stored(item, False, event.message)
        again = PLAYING_AGAIN if self.pauses.end(item.t) else ""  # an Undo ends a pause too
        return Verdict("accepted", None, (event,), seq, message=again + event.message)

    def _take_back(self) -> Undone:
        """Take back the newest input still in force (its Undo is already stored)."""
        last = self.undo.take_back()
        self.state, self.entry, self.turn_started = last.state, last.entry, last.turn_started
        return Undone(f"Undone: {last.undone_words()}. {self.prompt()}", last.seq or 0)

    def _pause(self, item: Input, store: bool = False) -> Verdict:
        """Pause or Resume (:class:`Pauses`): live (``store``) a wrong-way touch is
        refused and the input is stored first; a stored one, being replayed, toggles.
        Stored like any input, so the clocks, which leave pauses out, are the same after
        a restart."""
        if self.over:
            return Verdict("rejected", "The game is over: there is nothing to pause. " + commands.AFTER_GAME)
        seq = None
        if store:
            refusal = self.pauses.refusal(item, self.prompt)
            if refusal is not None:
                return Verdict("rejected", refusal)
            try:
                seq = self._append(item)
            except StoreError as err:
                return Verdict("rejected", _damaged(err, "I could not save that, so the clocks did not change")
                               or f"I could not save that, so the clocks did not change: {err}.")
        message = PAUSED if self.pauses.toggle(item.t) else f"{PLAYING_AGAIN}{self.prompt()}"
        self.repeats.stored(item, False, message)
        return Verdict("accepted", None, (), seq, message=message)

    # ------------------------------------------------------------ resume and replay

    def _resume(self, payloads: list[str], at: float) -> None:
        """Rebuild the game from its stored inputs (``payloads``, the store's texts) at
        ``at`` (the session clock's seconds): from the resume point kept beside the store
        (:func:`companion.table.resume_point.restore`) when one holds, replaying only the
        inputs after it, else by replaying them all. A game whose last input was saved
        but not its end is finished by :meth:`start`."""
        done = self.resumed_from_point = resume_point.restore(self, payloads)
        self._replay(self.store.parse(payloads[done:]), done)
        self.repeats.resumed(self.saved_inputs, at)
        if self.last_saved is not None:
            self.last_message, self.last_ok = (f"Welcome back: the game is as you left it "
                                               f"({count(self.saved_inputs, 'move')} kept). "
                                               f"{last_saved_words(self.last_saved)} {self.prompt()}"), None
        if payloads:
            _log.info("%s game %s resumed: %d inputs, %d from its resume point, %d replayed", self.game,
                      self.game_id, len(payloads), done, len(payloads) - done)

    def keep_resume_point(self) -> bool:
        """Keep this game's resume point beside the store (:mod:`companion.table.resume_point`):
        what a restart would replay its stored inputs to, so that it need not. The runner
        calls it when the table is idle and when it stops. True when written; False when
        there is nothing to keep (a store in memory or read-only, a game over) or it could
        not be written (never raises: the inputs are in the store either way)."""
        return resume_point.keep_session(self)

    def _replay(self, inputs: list[Input], before: int = 0) -> None:
        """Replay stored ``inputs``, the game's inputs numbered ``before + 1`` on, as they
        were taken live, but storing nothing. Raises :class:`StoreError` for one that
        does not replay."""
        for n, item in enumerate(inputs, before + 1):
            if is_pause(item):
                self.repeats.stored(item, False, self._pause(item).message)
                continue
            self.pauses.end(item.t)
            if is_undo(item):
                if not self.undo.can_take_back():
                    raise StoreError(f"stored game {self.game_id} does not replay at input {n}: "
                                     "an Undo with nothing to take back")
                self.repeats.stored(item, False, self._take_back().message)
                continue
            secret = self.secret(item)
            try:
                state, entry, events, message = decide(self.desc, self.state, self.entry, item)
            except (BadScan, BadCommand, IllegalAction) as err:
                raise StoreError(f"stored game {self.game_id} does not replay at input {n} ({item}): {err}") from err
            said, _ = self._keep(n, item, state, entry, events, message, live=False)
            self.repeats.stored(item, secret, said or f"OK, then: {self.prompt()}")  # a step that said nothing but "OK"
        self.resumed_inputs = self.saved_inputs = before + len(inputs)

    # ------------------------------------------------------------ store and clocks

    def _append(self, item: Input) -> int:
        """Commit ``item`` to the store (:meth:`EventStore.append`); returns its seq."""
        seq = self.saved_inputs = self.store.append(self.game_id, item)
        return seq

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

    def turns(self) -> list[tuple[float, int]]:
        """``(t, seat)``: the game's start and each input still in force, with the seat
        active after it (the chess clock's history; rebuilt from the store on resume)."""
        return self.undo.turns(self.started, self.state.active)

    def last_input_t(self) -> float:
        """Session-clock seconds of the last input still in force (the game's start before
        any): where the last of :meth:`turns` begins."""
        return self.undo.last_input_t(self.started)

    def spent_by_seat(self, now: float) -> dict[int, float]:
        """Chess clock: seconds each seat (0-based) has used by ``now``, pauses left out:
        :func:`companion.ui.timers.spent_by_seat` over :meth:`turns`. What was spent up to
        the last input is worked out once per input and pause, not on every frame: a long
        game has hundreds of inputs, and the screen asks for the clocks each frame."""
        done = self.undo.last
        last = self.last_input_t()
        key = (len(self.undo), id(done), last, self.started, tuple(self.pauses))
        if self._spent is None or self._spent[0] != key:  # done is kept with it: its id stays its own
            self._spent = (key, done, timers.spent_by_seat(self.turns(), last, self.pauses))
        spent = dict(self._spent[2])
        if now > last:  # the turn under way, as timers.spent_by_seat counts its last one
            seat = self.state.active
            spent[seat] = spent.get(seat, 0.0) + (now - last) - timers.paused_between(self.pauses, last, now)
        return spent

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
    session = Session.start(choice.game, list(choice.names), store, clock, new_game=True, options=choice.options, **kw)
    if choice.teach:  # "First game: show me how" (the start screen's last option)
        session.teach()
    return session


def _damaged(err: StoreError, lead: str) -> str | None:
    """The verdict for a store found damaged mid-game (None for another store problem):
    short for the table, the whole story (which file, how to go on) in the log."""
    if not isinstance(err, DamagedStore):
        return None
    _log.error("%s", err)
    return (f"{lead}: the game store is damaged, so nothing more can be saved. "
            "A grown-up can start afresh with a new store file (the log says how).")


def _stored_options(desc: Game, record, where: str) -> dict:
    """The set-up options an unfinished game was stored with, checked against this
    version's: a key it does not know (the game was begun by a newer companion, or the
    file was edited) raises :class:`StoreError` naming it, not a TypeError."""
    config = record.config if isinstance(record.config, dict) else {}
    unknown = sorted(set(config) - {o.name for o in desc.options})
    if unknown:
        raise StoreError(f"the unfinished {desc.name} game in {where} was set up with "
                         f"{', '.join(repr(k)[:40] for k in unknown[:3])}, a setting this version of the companion "
                         "does not know (was it begun by a newer one?): update the companion to carry it on, or "
                         "start a new game with --new-game (the unfinished one stays in the history)")
    return config
