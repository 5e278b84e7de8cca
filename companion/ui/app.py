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

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pygame

from . import fonts, theme


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
    ``deck_draft`` is the count the deck menu shows (None: the rules' count); ``page``
    which page a menu too long for the screen shows (the screen takes it modulo its
    pages). ``entry``
    is the game flow's half-entered input; ``undo`` what an Undo would take back (None:
    nothing can be); ``game_name`` the game's display name. The clocks
    (:mod:`companion.ui.timers`): ``game_seconds``, ``turn_left`` (None: no limit),
    ``warning`` and ``paused``; ``can_pause`` shows the Menu button (Pause is in it); ``bid_left`` the
    bidder's countdown while an auction waits on a bid (Sweet Deals, ``--bid-seconds``).
    ``after_game``: a final screen whose foot holds :func:`companion.ui.chrome.after_game`'s
    buttons (the footer line then sits between them: :func:`companion.ui.chrome.footer`).
    ``why``: the rulebook sentence behind a refused verdict (its section and words): the
    banner then has a Why? button, and ``menu == "why"`` shows the sentence.
    """

    verdict: str = ""
    verdict_ok: bool | None = None
    prompt: str = ""
    devices: dict[str, str] = field(default_factory=dict)
    turn_seconds: float = 0.0
    menu: str | None = None
    deck_draft: int | None = None
    page: int = 0                        # a long menu's page (counts up with its "More" button; wraps round)
    entry: Any = None
    undo: str | None = None
    game_name: str = ""
    game_seconds: float = 0.0            # the game clock, pauses left out
    turn_left: float | None = None       # seconds left with a per-turn limit (or the active bank)
    warning: bool = False                # under 10 s left: the clock turns orange
    paused: bool = False
    can_pause: bool = False              # show the Pause button
    bid_left: float | None = None        # an auction's countdown for the bidder (None: none)
    after_game: bool = False             # a final screen with History, Undo and New game along its foot
    undo_question: str | None = None     # the Undo dialog's question (None: ``undo`` is shown)
    settings: Any = None                 # the settings menu's values (companion.ui.settings.Shown)
    why: Any = None                      # a refused verdict's rulebook sentence (companion.core.why.Rule): its Why?


#: The layout every game's screen draws on a landscape panel; the App scales it to the panel.
DESIGN = (800, 480)


def design_for(panel: tuple[int, int]) -> tuple[int, int]:
    """The drawing size for a panel of ``panel`` pixels (as the players see it): the
    landscape :data:`DESIGN` on a panel wider than tall (1024x600 is scaled, with thin
    bars); on a panel taller than wide (the 720x1280 Touch Display 2 upright) the same
    800 px width and as tall as the panel's shape allows (800x1422), so the screens lay
    themselves out down its whole height instead of letterboxed into a third of it.

    >>> design_for((800, 480)), design_for((1024, 600)), design_for((720, 1280))
    ((800, 480), (800, 480), (800, 1422))
    """
    w, h = panel
    if h <= w:
        return DESIGN
    return DESIGN[0], round(DESIGN[0] * h / w)

#: Degrees the drawing may be turned clockwise on the panel (config ``rotation``).
ROTATIONS = (0, 90, 180, 270)

_ARROWS = {pygame.K_UP: "up", pygame.K_RIGHT: "right", pygame.K_DOWN: "down", pygame.K_LEFT: "left"}

Draw = Callable[[pygame.Surface], list[Button]]


#: The event a device thread posts when it has put an input on the session queue, so the
#: input takes its place among the window's own events (SDL keeps one queue, in order).
INPUT_READY = pygame.event.custom_type()


def panel_size(display: int = 0) -> tuple[int, int]:
    """The panel's own mode in pixels: SDL's desktop size of the first display (under
    kmsdrm, the mode the panel runs at: 800x480 for the 7" display, 720x1280 for Touch
    Display 2, 1024x600 for many HDMI panels). ``(800, 480)`` if SDL reports none.
    Needs ``pygame.display.init()``."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    size = sizes[display] if 0 <= display < len(sizes) else sizes[0] if sizes else None
    return tuple(size) if size and size[0] > 0 and size[1] > 0 else DESIGN


def wake(seq: int) -> bool:
    """Post :data:`INPUT_READY` for input number ``seq`` (safe from any thread). True
    when posted; False when the display is closed or SDL's queue refused it (the main
    loop then takes the input in its turn without a marker)."""
    try:
        return bool(pygame.event.post(pygame.event.Event(INPUT_READY, seq=seq)))
    except pygame.error:
        return False


def write_png(surface: pygame.Surface, path: str | os.PathLike) -> None:
    """Save ``surface`` as a PNG at ``path``: encoded in memory, then written and flushed
    to the disk by Python, so a full disk or an unwritable folder raises OSError (SDL's
    own writer left an empty file and reported success). A failed write removes the
    partial file."""
    import io

    buf = io.BytesIO()
    pygame.image.save(surface, buf, "screen.png")
    data = buf.getvalue()
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
            try:
                os.fsync(f.fileno())
            except OSError as err:
                if err.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EROFS):
                    raise  # (a pipe or a character device cannot be synced: nothing lost)
    except OSError:
        try:
            if Path(path).is_file():
                Path(path).unlink()
        except OSError:
            pass
        raise


#: SDL's hint naming the renderer behind the window's surface (what pygame draws into).
FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"


def kms_renderer(environ=None, driver: str | None = None) -> str | None:
    """On SDL's ``kmsdrm`` driver, have the window's surface shown through SDL's OpenGL ES 2
    renderer; returns the renderer named, or None (another driver, or a value already set).

    Why: under kmsdrm SDL makes only OpenGL ES contexts (EGL on GBM), yet when it picks a
    renderer for a window surface it tries its desktop ``opengl`` renderer first, and that
    one "works" on the ES context while its fixed-function calls (glVertexPointer, glOrtho)
    do nothing: only the clear colour reaches the panel, a black screen. Seen in the
    appliance VM with SDL 2.32.10 (pygame-ce 2.5.8) on Mesa 22.3 and 25.0 and traced call
    by call. SDL reads ``SDL_FRAMEBUFFER_ACCELERATION`` when it creates that surface
    (SDL_video.c, SDL_CreateWindowTexture), so this must run after ``pygame.display.init()``
    and before ``set_mode``. A value set by the user wins."""
    environ = os.environ if environ is None else environ
    driver = (pygame.display.get_driver() or "") if driver is None else driver
    if driver.lower() != "kmsdrm" or environ.get(FRAMEBUFFER_HINT):
        return None
    environ[FRAMEBUFFER_HINT] = "opengles2"
    return "opengles2"


def window_icon() -> pygame.Surface:
    """The window's icon (32x32): a candy in the highlight colour. Set before the window
    opens, so pygame does not look its own icon up through ``importlib.resources``
    (about 3 ms of a cold start here, eight times that at 1/8 of a core; issue 24). A
    panel under kmsdrm shows no icon."""
    icon = pygame.Surface((32, 32), pygame.SRCALPHA)
    pygame.draw.circle(icon, theme.HIGHLIGHT, (16, 16), 11)
    pygame.draw.polygon(icon, theme.HIGHLIGHT, [(5, 16), (0, 9), (0, 23)])
    pygame.draw.polygon(icon, theme.HIGHLIGHT, [(27, 16), (31, 9), (31, 23)])
    return icon


class App:
    """The one window. Only the display and font modules are started: the companion makes
    no sound through SDL, and skipping the audio device saves start-up time on a Zero."""

    def __init__(self, size: tuple[int, int] | None = (800, 480), fullscreen: bool = False,
                 title: str = "Sugar Table Companion", rotation: int = 0, kiosk: bool = False,
                 output: str | None = None):
        if rotation not in ROTATIONS:
            raise ValueError(f"rotation is one of {', '.join(map(str, ROTATIONS))} degrees, not {rotation}")
        pygame.display.init()
        kms_renderer()
        pygame.font.init()
        theme.clear_fonts()  # fonts from an earlier App died with its pygame.font
        # A kiosk (the Pi's service) has no way out from the table: Escape and a window
        # close are ignored (SIGTERM from systemd still stops it cleanly).
        self.kiosk = kiosk
        display = 0
        if output:  # [display] output: the connector's display (companion/ui/outputs.py)
            from .outputs import display_index

            display = display_index(output)
        if size is None:  # the panel's own mode (a full screen, or SDL's kmsdrm driver)
            size = panel_size(display)
        flags = pygame.FULLSCREEN if fullscreen else 0
        pygame.display.set_icon(window_icon())  # before set_mode: pygame's own is looked up and read from its package
        self.window = pygame.display.set_mode(size, flags, display=display)
        size = self.window.get_size() or size  # what SDL gave: the size taps are measured in
        self.window_size = tuple(size)
        self.rotation = rotation
        # The panel as the players see it (turned by ``rotation``), and the layout every
        # game's screen draws (``size``: 800x480, or 800 wide and taller on an upright
        # panel, :func:`design_for`) scaled to fill it, letterboxed.
        self.panel = tuple(size) if rotation in (0, 180) else (size[1], size[0])
        self.size = design = design_for(self.panel)
        self.scale = min(self.panel[0] / design[0], self.panel[1] / design[1])
        scaled = (round(design[0] * self.scale), round(design[1] * self.scale))
        self.offset = ((self.panel[0] - scaled[0]) // 2, (self.panel[1] - scaled[1]) // 2)
        self._scaled = scaled
        direct = rotation == 0 and self.panel == design
        self.surface = self.window if direct else pygame.Surface(design)
        # SDL's invisible drivers (tests, --simulate on a server): nobody sees this window.
        self.invisible = (pygame.display.get_driver() or "").lower() in ("offscreen", "dummy")
        pygame.display.set_caption(title)
        if fullscreen:
            pygame.mouse.set_visible(False)  # a touchscreen needs no pointer
        pygame.key.start_text_input()
        self.buttons: list[Button] = []
        #: Return presses unmatched from :meth:`poll` (the table's loop matches them later).
        self.later_hits = False
        self.pumps: list = []  # called as SDL's events are pumped (an emulated touchscreen's taps come in then)
        #: A text field is focused (a name being typed, ``--simulate``'s typed commands):
        #: keys are words, read through the keymap. Otherwise they are a keyboard-mode
        #: scanner's, handed on by key position (:meth:`poll`'s ``("key", ...)``).
        self.words = False
        self._typed = ""
        self._dragged: set[str] | None = None  # the cells a held mouse / finger has passed

    # ------------------------------------------------------------ drawing

    def show(self, draw: Draw) -> None:
        """Clear, draw one frame with ``draw``, keep its buttons for :meth:`hit`, flip."""
        self.surface.fill(theme.BG)
        self.buttons = list(draw(self.surface) or [])
        if self.surface is not self.window:
            self.window.blit(self.frame(), (0, 0))
        pygame.display.flip()

    def show_part(self, draw: Callable[[pygame.Surface], list]) -> bool:
        """Redraw part of the last frame with ``draw`` (it returns the rects it drew, in
        the 800x480 drawing) and put just those on the screen: the clocks' second. On a
        panel the drawing is scaled or turned for, each rect is scaled (with a 4 px margin
        for the filter, then cut back to the rect) and turned alone: a few hundred pixels
        instead of the whole frame, the same to within the filter's sub-pixel rounding.
        Returns True."""
        rects = draw(self.surface)
        if self.surface is self.window:
            pygame.display.update(rects)
            return True
        shown, k = [], self.scale
        for rect in rects:
            rect = rect.clip(self.surface.get_rect())
            part = rect.inflate(8, 8).clip(self.surface.get_rect())
            image = self.surface.subsurface(part)
            if k != 1:  # scale with a margin, then keep the rect: the filter's edge stays outside
                image = pygame.transform.smoothscale(image, (round(part.width * k), round(part.height * k)))
                image = image.subsurface(pygame.Rect(round((rect.x - part.x) * k), round((rect.y - part.y) * k),
                                                     round(rect.width * k), round(rect.height * k)).clip(image.get_rect()))
            else:
                image = image.subsurface(pygame.Rect(rect.x - part.x, rect.y - part.y, rect.width, rect.height))
            on_panel = pygame.Rect(self.offset[0] + round(rect.x * k), self.offset[1] + round(rect.y * k),
                                   *image.get_size())
            if self.rotation:
                image = pygame.transform.rotate(image, -self.rotation)
            box = self._to_window(on_panel)
            self.window.blit(image, box)
            shown.append(box)
        pygame.display.update(shown)
        return True

    def _to_window(self, rect: pygame.Rect) -> pygame.Rect:
        """A rect on the panel (as the players see it) as a rect of the window, which
        :meth:`frame` turns by ``rotation`` degrees clockwise (the inverse of :meth:`to_screen`)."""
        w, h = self.panel
        x, y, rw, rh = rect
        if self.rotation == 90:
            return pygame.Rect(h - (y + rh), x, rh, rw)
        if self.rotation == 180:
            return pygame.Rect(w - (x + rw), h - (y + rh), rw, rh)
        if self.rotation == 270:
            return pygame.Rect(y, w - (x + rw), rh, rw)
        return pygame.Rect(rect)

    def frame(self) -> pygame.Surface:
        """The drawn screen as the panel shows it: scaled, letterboxed and turned."""
        if self.surface is self.window:
            return self.window
        panel = pygame.Surface(self.panel)
        panel.fill(theme.BG)
        image = self.surface if self._scaled == self.size else pygame.transform.smoothscale(self.surface, self._scaled)
        panel.blit(image, self.offset)
        return pygame.transform.rotate(panel, -self.rotation) if self.rotation else panel

    def to_screen(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A point on the panel (window pixels) as a point on the drawn screen: undoes
        ``rotation`` (degrees the drawing is turned clockwise on the panel) and the
        scaling to the panel's size."""
        px, py = pos
        w, h = self.panel
        if self.rotation == 90:
            x, y = py, h - 1 - px
        elif self.rotation == 180:
            x, y = w - 1 - px, h - 1 - py
        elif self.rotation == 270:
            x, y = w - 1 - py, px
        else:
            x, y = px, py
        return (x - self.offset[0]) / self.scale, (y - self.offset[1]) / self.scale

    def hit(self, pos: tuple[float, float]) -> str | None:
        """The command of the button under ``pos`` (the last drawn wins), or None."""
        for b in reversed(self.buttons):
            if b.rect.collidepoint(int(pos[0]), int(pos[1])):
                return b.command
        return None

    def save(self, path: str | os.PathLike, as_panel: bool = False) -> Path:
        """Write the current frame as a PNG (parent folders are created): the 800x480
        drawing, or with ``as_panel`` what the panel shows. Returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_png(self.frame() if as_panel else self.surface, path)
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
        Keys are a keyboard-mode scanner's unless a text field is focused (:attr:`words`):
        every key down and up but Escape and the arrows comes back by its position, never
        through the keymap, as ``("key", (scancode, down, repeat))`` (SDL's scan code, a USB
        HID usage; True for a key down; True for SDL's key repeat), for the one
        key-position decoder (:mod:`companion.devices.scan.keys`, the window's
        :class:`~companion.table.window.TableWindow` runs it), and the keymap's text is
        dropped. With :attr:`words`, typed text (a name, a code or command typed in
        ``--simulate``) is read through the keymap and gathered until Enter as
        ``("typed", line)``; Backspace edits. Escape is ``("escape", "")`` (the table asks
        before it closes) and a window close ``("quit", "")``; a :attr:`kiosk` ignores both. ``("input", n)`` marks where
        in the window's own events a device's input number ``n`` arrived (:meth:`wake`).

        With :attr:`later_hits` set, presses, drags and releases are not matched to the
        buttons here but returned as ``("press"|"drag"|"release", (x, y) | None)``, for
        :meth:`pointer` to match once every input before them was handled and the frame
        redrawn (so what a tap hits never depends on how fast the frames kept up).
        """
        out: list[tuple[str, str]] = []
        for pump in self.pumps:
            pump()
        for event in pygame.event.get():
            if event.type == INPUT_READY:
                out.append(("input", event.seq))
            elif event.type == pygame.QUIT:
                if not self.kiosk:
                    out.append(("quit", ""))
            elif event.type == pygame.MOUSEBUTTONDOWN:
                if event.button == 1 and not getattr(event, "touch", False):
                    self._pointer("press", self.to_screen(event.pos), out)
            elif event.type == pygame.FINGERDOWN:
                self._pointer("press", self._finger(event), out)
            elif event.type == pygame.MOUSEMOTION:
                buttons = getattr(event, "buttons", (0,))
                if buttons and buttons[0] and not getattr(event, "touch", False):
                    self._pointer("drag", self.to_screen(event.pos), out)
            elif event.type == pygame.FINGERMOTION:
                self._pointer("drag", self._finger(event), out)
            elif event.type in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
                if not getattr(event, "touch", False):
                    self._pointer("release", None, out)
            elif event.type == pygame.TEXTINPUT:
                if self.words:
                    self._typed += event.text
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                if not self.kiosk:  # a kiosk ignores it: nobody at the table can start it again
                    out.append(("escape", ""))  # a game's window asks first (companion.ui.menu)
            elif event.type == pygame.KEYDOWN and event.key in _ARROWS:
                out.append(("arrow", _ARROWS[event.key]))
            elif event.type in (pygame.KEYDOWN, pygame.KEYUP) and not self.words:
                out.append(("key", (getattr(event, "scancode", 0), event.type == pygame.KEYDOWN,
                                    bool(getattr(event, "repeat", False)))))
            elif event.type == pygame.KEYDOWN:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    line, self._typed = self._typed.strip(), ""
                    if line:
                        out.append(("typed", line))
                elif event.key == pygame.K_BACKSPACE:
                    self._typed = self._typed[:-1]
        return out

    def _pointer(self, kind: str, pos, out: list) -> None:
        if self.later_hits:
            out.append((kind, pos))
        else:
            out.extend(("touch", command) for command in self.pointer(kind, pos))

    def pointer(self, kind: str, pos: tuple[float, float] | None) -> list[str]:
        """Match a press, drag or release (``kind``) at screen position ``pos`` (pixels)
        to the buttons of the last frame drawn: the commands it touches, in order."""
        out: list[tuple[str, str]] = []
        if kind == "press":
            self._dragged = set()
            self._touch(pos, out)
        elif kind == "drag":
            self._drag(pos, out)
        else:
            self._dragged = None
        return [command for _, command in out]

    def _finger(self, event) -> tuple[float, float]:
        """A finger's position (fractions of the panel) in screen pixels."""
        return self.to_screen((event.x * self.window_size[0], event.y * self.window_size[1]))

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
        theme.clear_fonts()
        fonts.clear()
        pygame.key.stop_text_input()
        pygame.font.quit()
        pygame.display.quit()
