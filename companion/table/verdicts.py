"""What one input means and what the table is told of it, without changing anything:
:func:`decide` (the game's flow, then the rules' check and apply) and what a refusal of it
says (:func:`refused`), the core inputs every game shares (Pause and Resume, help, Undo),
the :class:`Verdict`, its JSON log lines (:func:`log_record`), and how the last input
saved before a stop is recognised and told again after a resume (:func:`repeat_key`,
:func:`last_saved_record`, used by :mod:`companion.table.repeat_guard`). The
:class:`~companion.table.session.Session` uses these to change the game, in one place.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from ..core import commands
from ..core.codes import normalise
from ..core.errors import BadCommand, BadScan, IllegalAction, WrongGame
from ..core.events import ButtonPressed, CardScanned, DeviceStatus, GameOver, Input, Touch, input_kind
from ..core.game import Game
from ..core.i18n import key_of


UNDO_COMMANDS = ("undo",)


def state_digest(state: Any) -> str:
    """A short stable fingerprint of a rules state (same state, same digest, any process)."""
    import hashlib  # tests, benches and replay checks: kept off the table's start

    text = json.dumps(asdict(state), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decide(game: Game, state: Any, entry: Any, item: Input) -> tuple[Any, Any, list, str]:
    """What one input does, without changing anything: ``(state, entry, events, message)``.

    The game's flow reads the input against the state and its half-entered ``entry``; an
    action is checked and applied by the rules. Raises :class:`BadScan`,
    :class:`BadCommand` or :class:`IllegalAction` (nothing changed).
    """
    entry, action, message = game.flow.read(state, entry, item)
    if action is None:
        return state, entry, [], message
    game.rules.check(state, action)
    state, events = game.rules.apply(state, action)
    return state, entry, list(events), message


PAUSE_COMMANDS = ("pause", "resume")


def is_pause(item: Input) -> bool:
    """Pause or Resume (the touch commands, or the GPIO button named ``pause``)."""
    if isinstance(item, Touch):
        return item.parsed.is_just(PAUSE_COMMANDS)
    return isinstance(item, ButtonPressed) and item.name == "pause"


def is_help(item: Input) -> bool:
    """A ``help`` touch (``/help`` headless): the commands accepted now."""
    return isinstance(item, Touch) and item.parsed.is_just(commands.HELP_COMMANDS)


def is_undo(item: Input) -> bool:
    """An Undo: the ``undo`` touch (``/undo`` under --simulate) or the GPIO Undo button."""
    if isinstance(item, Touch):
        return item.parsed.is_just(UNDO_COMMANDS)
    return isinstance(item, ButtonPressed) and item.name == "undo"


@dataclass(frozen=True)
class Verdict:
    """What the session made of one input: ``"accepted"``, ``"rejected"`` or ``"ignored"``,
    the reason when not accepted, and the outcome events when accepted. ``code`` is the
    card code read (None when garbled, or when the card is hidden: ``secret``). ``step``
    marks an accepted input that only moved the game's half-entered input on (a column
    tapped, a colour picked): the screen shows it as a neutral prompt, not a green tick.
    ``why``: for a refusal by the rules, the rulebook sentence behind it (a
    :class:`~companion.core.why.Rule`, the screen's Why? button), found from the same words
    the table is told (the view's refusal, or the hidden-card refusal), never from a
    hidden card; None for a refusal that is not the rulebook's (a bad scan or command)."""

    verdict: str
    reason: str | None = None
    events: tuple = ()
    seq: int | None = None
    code: str | None = None
    secret: bool = False
    message: str = ""
    step: bool = False     # accepted, but only a step of a longer input (no rules action yet)
    why: Any = None        # a refusal's rulebook sentence (companion.core.why.Rule), or None


def refused(err: BadScan | BadCommand | IllegalAction, game: Game, view: Any, entry: Any, item: Input,
            code: str | None, secret: bool, can_undo: bool, same: bool = False) -> Verdict:
    """The verdict for ``item`` when :func:`decide` raised ``err`` against the real state
    (``code``: the card code read, normalised; ``secret``: the scan is a hidden card).

    Its words come from the table's ``view`` (:meth:`~companion.core.game.Rules.public_view`;
    ``same``: the view is the state, nothing is hidden), never from the hidden cards: a
    hidden card refused is told by the flow's
    :meth:`~companion.core.game.Flow.hidden_refusal`, which is given the view and not the
    card; any other input is refused in the words the same input gets against the view
    (the real state and the view refuse it alike unless a hidden card decided it: then
    ``hidden_refusal`` speaks too). A bad scan of a hidden card is told in words that
    cannot spell it (the reader's garbled text might; another game's card is named by
    its game); a touch command the game does not know is answered with the commands
    accepted now (``can_undo``: Undo is among them)."""
    if isinstance(err, BadScan):
        if secret:
            reason = err.unnamed if isinstance(err, WrongGame) else "That card could not be read: scan it again."
            return Verdict("rejected", reason, secret=True)
        return Verdict("rejected", err.message, code=err.code)
    if secret:
        reason = game.flow.hidden_refusal(view, entry)
        return Verdict("rejected", reason, secret=True, why=game.why(key_of(reason)))
    reason = err.message if same else public_reason(game, view, entry, item)
    why = game.why(key_of(reason)) if not isinstance(err, BadCommand) else None
    if isinstance(err, BadCommand) and isinstance(item, Touch) and not commands.is_known(game, item.parsed):
        reason += " Commands now: " + commands.listing(game, view, entry, can_undo)
    return Verdict("rejected", reason, code=code, why=why)


def public_reason(game: Game, view: Any, entry: Any, item: Input) -> str:
    """Why ``item`` is refused, as the table's ``view`` alone tells it: the refusal the
    same input gets against the view, or (the view would take it, or cannot tell: only a
    hidden card refused it) the flow's :meth:`~companion.core.game.Flow.hidden_refusal`."""
    try:
        decide(game, view, entry, item)
    except (BadScan, BadCommand, IllegalAction) as again:
        return again.message
    except Exception:  # the view lacks what the input needs: a hidden card decided it
        pass
    return game.flow.hidden_refusal(view, entry)


def repeat_key(item: Input) -> tuple:
    """What makes two inputs "the same again" apart from their time: a scan's card code
    (any reader), a touch's command words, a button's name, a tilt's seat."""
    if is_undo(item):
        return ("undo",)  # the Undo button on the screen and the GPIO Undo button alike
    if isinstance(item, CardScanned):
        return (input_kind(item), normalise(item.code) if item.code is not None else None)
    if isinstance(item, Touch):
        return (input_kind(item), item.parsed.key())
    if isinstance(item, ButtonPressed):
        return (input_kind(item), item.name)
    return (type(item).__name__,) + tuple(v for k, v in asdict(item).items() if k not in ("t", "angle"))


def last_saved_record(seq: int, item: Input, secret: bool, said: str) -> dict:
    """The last input saved before a resume, as the JSON log's start line gives it:
    ``{"seq", "event": "scan"|"touch"|..., "code"|"command", "said"}``; a hidden card's
    code is ``"hidden"``. ``said`` is what the table was told when it counted."""
    if isinstance(item, CardScanned):
        out = {"seq": seq, "event": "scan", "code": "hidden" if secret else
               (normalise(item.code) if item.code is not None else None)}
    elif isinstance(item, Touch):
        out = {"seq": seq, "event": "touch", "command": item.command}
    elif isinstance(item, ButtonPressed):
        out = {"seq": seq, "event": "button", "button": item.name}
    else:
        out = {"seq": seq, "event": type(item).__name__}
    out["said"] = said
    return out


def last_saved_words(last: dict) -> str:
    """The screen's sentence for :func:`last_saved_record`, in the table's words (no
    card code, no command syntax): ``The last thing saved: a tap (Mum swaps 2 cards).``"""
    kind = {"scan": "a card scan", "touch": "a tap", "button": "a button press"}.get(last["event"], "a tray move")
    said = last.get("said") or ""
    return f"The last thing saved: {kind}" + (f" ({said.rstrip('.')})." if said else ".")


def log_record(item: Input | DeviceStatus, verdict: Verdict | None) -> list[dict]:
    """The JSON log lines for one input: the input itself, then one per outcome event.
    A hidden card (``verdict.secret``) is logged as ``"code": "hidden"``, never by code."""
    if verdict is None:
        return [{"event": "device", "device": item.device, "status": item.status, "detail": item.detail, "t": item.t}]
    if isinstance(item, CardScanned):
        line = {"event": "scan", "code": "hidden" if verdict.secret else verdict.code, "reader": item.reader,
                "t": item.t, "verdict": verdict.verdict}
        if item.code != verdict.code and not verdict.secret:
            line["raw"] = item.code  # what the reader sent, when it was not a clean card code
        if item.seat is not None:
            line["seat"] = item.seat
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
        if isinstance(event, GameOver) and event.result is not None:
            out["result"] = event.result.to_dict()
        lines.append(out)
    return lines
