"""The pygame window: draw a frame, keep its touch targets, turn touches and typing into
commands.

pygame must own the main thread, so the session calls :meth:`App.poll` and
:meth:`App.show` from its loop; a screen is just a function ``draw(surface) ->
list[Button]``. Works headless with ``SDL_VIDEODRIVER=dummy`` (tests, ``--simulate`` on a
server) and full-screen under SDL's ``kmsdrm`` driver on the Pi.

Commands are short strings the session parses: ``"column 3"`` (1-based), ``"done"``,
``"swap"`` (open the swap menu), ``"swap 2"``, ``"pass"``, ``"deck"`` (open the Fruit Deck
menu), ``"draft 37"`` (the deck menu's shown count changed), ``"deck 41"`` (set the
count), ``"cancel"`` (close a menu).

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> app = App()
>>> app.show(lambda s: [Button(pygame.Rect(0, 0, 100, 80), "done")])
>>> app.hit((50, 40)), app.hit((300, 300))
('done', None)
>>> app.close()
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pygame

from . import theme


@dataclass(frozen=True)
class Button:
    """A touch target on the current frame: tapping inside ``rect`` sends ``command``."""

    rect: pygame.Rect
    command: str


@dataclass
class TableInfo:
    """What the session knows beyond the rules state, for the screen.

    ``verdict`` is the last message and ``verdict_ok`` its colour (True accepted, green
    tick; False rejected, red cross; None neutral). ``prompt`` says what to do now.
    ``devices`` maps a device name to its status ("connected" or what is wrong).
    ``turn_seconds`` is the time since the turn started. ``menu`` is an open overlay:
    None, ``"swap"``, ``"deck"`` or ``"undo"`` (the confirm-first Undo dialog);
    ``deck_draft`` is the count the deck menu shows (None: the rules' count). ``entry``
    is the game flow's half-entered input; ``undo`` what an Undo would take back (None:
    nothing can be); ``game_name`` the game's display name.
    """

    verdict: str = ""
    verdict_ok: bool | None = None
    prompt: str = ""
    devices: dict[str, str] = field(default_factory=dict)
    turn_seconds: float = 0.0
    menu: str | None = None
    deck_draft: int | None = None
    entry: Any = None
    undo: str | None = None
    game_name: str = ""


_ARROWS = {pygame.K_UP: "up", pygame.K_RIGHT: "right", pygame.K_DOWN: "down", pygame.K_LEFT: "left"}

Draw = Callable[[pygame.Surface], list[Button]]


class App:
    """The one window. Only the display and font modules are started: the companion makes
    no sound through SDL, and skipping the audio device saves start-up time on a Zero."""

    def __init__(self, size: tuple[int, int] = (800, 480), fullscreen: bool = False,
                 title: str = "Sugar Table Companion"):
        pygame.display.init()
        pygame.font.init()
        theme.font.cache_clear()  # fonts from an earlier App died with its pygame.font
        self.size = size
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)  # a touchscreen needs no pointer
        pygame.key.start_text_input()
        self.buttons: list[Button] = []
        self._typed = ""
        self._dragged: set[str] | None = None  # the cells a held mouse / finger has passed

    # ------------------------------------------------------------ drawing

    def show(self, draw: Draw) -> None:
        """Clear, draw one frame with ``draw``, keep its buttons for :meth:`hit`, flip."""
        self.surface.fill(theme.BG)
        self.buttons = list(draw(self.surface) or [])
        pygame.display.flip()

    def hit(self, pos: tuple[float, float]) -> str | None:
        """The command of the button under ``pos`` (the last drawn wins), or None."""
        for b in reversed(self.buttons):
            if b.rect.collidepoint(int(pos[0]), int(pos[1])):
                return b.command
        return None

    def save(self, path: str | os.PathLike) -> Path:
        """Write the current frame as a PNG (parent folders are created). Returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    # ------------------------------------------------------------ input

    def poll(self) -> list[tuple[str, str]]:
        """Drain pygame's events into ``("touch", command)``, ``("typed", line)``,
        ``("arrow", "up"|"right"|"down"|"left")`` and ``("quit", "")``.

        A tap on a touchscreen arrives twice, as FINGERDOWN and as a mouse click SDL
        made from it; the copy (``event.touch``) is dropped so a tap counts once.
        Dragging (MOUSEMOTION with the left button held, or FINGERMOTION) touches each
        new board cell it passes (buttons whose command starts with ``"cell "``), never
        the same cell twice in one drag, so a colour can be painted across the board.
        Typed text (a keyboard-mode scanner, or a code typed in ``--simulate``) is
        gathered until Enter; Backspace edits; Escape quits.
        """
        out: list[tuple[str, str]] = []
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                out.append(("quit", ""))
            elif event.type == pygame.MOUSEBUTTONDOWN:
                if event.button == 1 and not getattr(event, "touch", False):
                    self._dragged = set()
                    self._touch(event.pos, out)
            elif event.type == pygame.FINGERDOWN:
                self._dragged = set()
                self._touch(self._finger(event), out)
            elif event.type == pygame.MOUSEMOTION:
                buttons = getattr(event, "buttons", (0,))
                if buttons and buttons[0] and not getattr(event, "touch", False):
                    self._drag(event.pos, out)
            elif event.type == pygame.FINGERMOTION:
                self._drag(self._finger(event), out)
            elif event.type in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
                if not getattr(event, "touch", False):
                    self._dragged = None
            elif event.type == pygame.TEXTINPUT:
                self._typed += event.text
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_ESCAPE:
                    out.append(("quit", ""))
                elif event.key in _ARROWS:
                    out.append(("arrow", _ARROWS[event.key]))
                elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    line, self._typed = self._typed.strip(), ""
                    if line:
                        out.append(("typed", line))
                elif event.key == pygame.K_BACKSPACE:
                    self._typed = self._typed[:-1]
        return out

    def _finger(self, event) -> tuple[float, float]:
        return event.x * self.size[0], event.y * self.size[1]

    def _touch(self, pos: tuple[float, float], out: list[tuple[str, str]]) -> None:
        command = self.hit(pos)
        if command is not None:
            out.append(("touch", command))
            if command.startswith("cell ") and self._dragged is not None:
                self._dragged.add(command)

    def _drag(self, pos: tuple[float, float], out: list[tuple[str, str]]) -> None:
        """A held mouse or finger moved: touch the cell under it if this drag is new to it."""
        if self._dragged is None:  # pressed before this window saw it: start the drag here
            self._dragged = set()
        command = self.hit(pos)
        if command is not None and command.startswith("cell ") and command not in self._dragged:
            self._dragged.add(command)
            out.append(("touch", command))

    def close(self) -> None:
        """Close the window and release pygame."""
        theme.font.cache_clear()
        pygame.key.stop_text_input()
        pygame.font.quit()
        pygame.display.quit()
