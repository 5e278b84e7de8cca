"""What the table may tap or type now, from a game's ``flow.COMMANDS``
(:class:`~companion.core.game.Command`): the ``help`` answer, the list that follows an
unknown command's refusal, the typed command beside each button's words in headless text
("tap Can't stash (/cant)"), and the hint for a ``/swap`` or ``/deck`` menu typed with no
screen.

A command is valid now when the game's flow reads one of its samples and the rules
accept the action it makes (nothing is changed: both only look).

>>> from companion.core.game import Command
>>> annotate("Tap Done, or tap Can't stash.", [Command("done", ("Done",)), Command("cant", ("Can't stash",))])
"Tap Done (/done), or tap Can't stash (/cant)."
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .errors import CompanionError
from .events import Touch, TouchCommand
from .game import Command, Game

#: The session's own commands, valid in every game (``pause`` toggles to Resume).
SESSION_COMMANDS = (Command("undo", ("Undo",)), Command("pause", ("Pause", "Resume", "Play on")), Command("help", ("Help",)))
HELP_COMMANDS = ("help", "?")
#: What the table can do once the final scores show (the final screen's buttons).
AFTER_GAME = "Tap New game (/newgame) to play again, or History (/history) to see past games."


def game_commands(game: Game) -> tuple[Command, ...]:
    """The game's touch commands (:attr:`companion.core.game.Flow.commands`)."""
    return tuple(game.flow.commands)


def accepts(game: Game, state: Any, entry: Any, command: str) -> bool:
    """Would the table accept the touch ``command`` now (the flow reads it, the rules allow it)?"""
    try:
        _, action, _ = game.flow.read(state, entry, Touch(command, 0.0))
        if action is not None:
            game.rules.check(state, action)
    except (CompanionError, ValueError, KeyError, IndexError, TypeError):
        return False
    return True


def valid_now(game: Game, state: Any, entry: Any) -> list[Command]:
    """The game's commands the table would accept now, in the flow's order."""
    if state.over:
        return []
    return [c for c in game_commands(game) if any(accepts(game, state, entry, t) for t in c.samples(state))]


def named(command: Command) -> str:
    """``Can't stash (/cant)``; ``/column N`` for a command with no button words."""
    return f"{command.labels[0]} (/{command.usage})" if command.labels else f"/{command.usage}"


def listing(game: Game, state: Any, entry: Any, undo: bool = True, paused: bool = False) -> str:
    """The commands valid now, then the session's own: ``Done (/done), Swap (/swap N), /undo, /pause, /help``
    (``/resume`` in place of ``/pause`` while ``paused``)."""
    mine = [named(c) for c in valid_now(game, state, entry)]
    own = [f"/{'resume' if paused and c.word == 'pause' else c.usage}" for c in SESSION_COMMANDS
           if undo or c.word != "undo"]
    return ", ".join(mine + own)


def help_text(game: Game, state: Any, entry: Any, prompt: str, undo: bool = True, paused: bool = False) -> str:
    """The answer to ``help``: every command accepted now (the prompt, which says what
    to do, is shown beside it on the screen and printed after it in headless text)."""
    if state.over:
        return "The game is over. " + AFTER_GAME + (" Or tap Undo (/undo) to take the end back." if undo else "")
    scans = " Or scan a card." if game.has_cards else ""
    return f"You can tap or type now: {listing(game, state, entry, undo, paused)}.{scans}"


def is_known(game: Game, command: TouchCommand) -> bool:
    """Is the first word of ``command`` a command of this game or of the session?"""
    verb = command.verb
    return verb in {c.word for c in game_commands(game) + SESSION_COMMANDS} | {"resume", *HELP_COMMANDS}


def menu_hint(game: Game, verb: str) -> str | None:
    """For a ``swap``/``deck`` tap with no number and no screen: how to type it in this
    game (``/swap 2 (how many cards to swap, 1 to 5)``), or None when it has no such menu."""
    command = next((c for c in game_commands(game) if c.word == verb and c.menu), None)
    if command is None:
        return None
    example = command.example or re.sub(r"\bN\b", "2", command.usage)
    return f"/{verb} opens a menu on the screen; without a screen type it with a number: /{example} ({command.menu})"


def annotate(text: str, commands: Iterable[Command]) -> str:
    """``text`` with the typed command after each button's words that follow "tap"
    (``tap Can't stash`` -> ``tap Can't stash (/cant)``; ``tap Heist or Steal`` names both)."""
    words = sorted({label: c for c in commands for label in c.labels}.items(), key=lambda lc: -len(lc[0]))
    if not words:
        return text
    by_label = dict(words)
    label_re = re.compile("(" + "|".join(re.escape(label) for label, _ in words) + r")(?![\w(])")
    joiner = re.compile(r",? or |, | and ")
    out, pos = [], 0
    for tap in re.finditer(r"\b[Tt]ap ", text):
        if tap.start() < pos:
            continue
        out.append(text[pos:tap.end()])
        pos = tap.end()
        while (label := label_re.match(text, pos)) is not None:
            out.append(f"{label.group(0)} (/{by_label[label.group(1)].usage})")
            pos = label.end()
            more = joiner.match(text, pos)
            if more is None or label_re.match(text, more.end()) is None:
                break
            out.append(more.group(0))
            pos = more.end()
    out.append(text[pos:])
    return "".join(out)
