"""The shared chrome every game's screen draws its panel inside: the top bar (game name,
turn, the game's own counters, the devices, Undo), the verdict banner, the turn clock, the
menu box and the confirm-first Undo dialog.

A game's ``screen.py`` calls these instead of drawing its own; so a change to how a
verdict or a device problem looks is made once, for every game.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> app = App()
>>> info = TableInfo(game_name="Sugarrr!", undo="Strawberry 7 starts column 2")
>>> app.show(lambda s: top_bar(s, pygame.Rect(0, 0, 800, 48), info, turn=3))
>>> [b.command for b in app.buttons]
['menu undo']
>>> app.show(lambda s: overlay(s, TableInfo(menu="undo", undo="Strawberry 7 starts column 2"), []))
>>> sorted(b.command for b in app.buttons)
['cancel', 'undo']
>>> app.close()
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from . import menu, theme
from .boxes import menu_panel  # noqa: F401  (the game screens' menus reach it through chrome)
from .timers import WARN_SECONDS as WARN_AT
from .app import Button, TableInfo
from .messages import text
from .widgets import banner, button, draw_text, draw_wrapped, panel, tick, unrecorded, width_of
# The verdict banner lives in its own module; the game screens reach it through chrome.
from . import verdict as _verdict
from .verdict import prompt_need, verdict, verdict_and_prompt, verdict_and_prompt_need, verdict_lines_need  # noqa: F401

Rect = pygame.Rect

UNDO_W = 96   # the Undo button at the right of the top bar
PAUSE_W = 96  # the Pause button, right of it
CLOCK_W = 136  # the game clock pill ("Game" and mm:ss)
TOUCH = 48    # the least height of a touch target


@dataclass(frozen=True)
class Pill:
    """A counter in the top bar (``Deck 40``, ``Bag 12``, ``FINAL ROUND``): ``warn``
    draws it orange; ``command`` makes it a button (tap the deck to correct it)."""

    text: str
    width: int = 130
    warn: bool = False
    command: str | None = None


# The clocks drawn in the current frame, so that a second which moves only the clocks can
# redraw just them (:func:`tick_clocks`): ``(area, what was under it, redraw)``, where
# ``redraw(surface, info)`` draws the clock and returns the rect it drew in.
_clocks: list[tuple[Rect, pygame.Surface, "object"]] = []
_tickable = False
_overflow = False
# The last full frame's surface and info while its clocks are not checked yet (see
# end_frame): the check waits for the first second that ticks, off the input -> frame path.
_unchecked: tuple[pygame.Surface, TableInfo] | None = None


def begin_frame() -> None:
    """A full frame starts: forget the last frame's clocks."""
    global _tickable, _overflow, _unchecked
    _clocks.clear()
    _verdict._why_buttons.clear()
    _tickable = _overflow = False
    _unchecked = None


def _clock(surface: pygame.Surface, rect: Rect, info: TableInfo, redraw) -> None:
    """Draw a clock with ``redraw(surface, info)`` and remember the area it drew on
    (``rect`` and any text standing out of it) with what was under it."""
    global _overflow
    near = rect.inflate(rect.width // 2 + 16, rect.height + 16).clip(surface.get_rect())
    before = surface.subsurface(near).copy()  # not the whole frame: a clock's text stays near its rect
    area = rect.union(redraw(surface, info)).clip(surface.get_rect())
    if not near.contains(area):
        _overflow = True  # drawn further out than remembered: this frame's clocks are not redrawn alone
        return
    _clocks.append((area, before.subsurface(area.move(-near.x, -near.y)).copy(), redraw))


def end_frame(surface: pygame.Surface, info: TableInfo) -> None:
    """The full frame is drawn: its clocks may be redrawn alone only if nothing was
    drawn over them after them (a menu, a button). That is checked when first asked
    (:func:`tickable`, at the next second that ticks), not here: a frame drawn for an
    input goes on the screen without the check's work (about a seventh of a full
    Sugarrr! frame; on a Pi Zero 2 W it is time between the input and its frame)."""
    global _tickable, _unchecked
    _tickable = bool(_clocks) and not _overflow
    _unchecked = (surface, info) if _tickable else None


def _check(surface: pygame.Surface, info: TableInfo) -> None:
    """Draw each clock of the last full frame again on what was under it and compare
    with the frame (still on ``surface``: nothing is drawn on it between full frames but
    the clocks, after this check); the frame is left as it was."""
    global _tickable
    for area, under, redraw in _clocks:
        final = surface.subsurface(area).copy()
        surface.blit(under, area)
        with unrecorded():
            redraw(surface, info)
        same = pygame.image.tobytes(surface.subsurface(area), "RGB") == pygame.image.tobytes(final, "RGB")
        surface.blit(final, area)
        _tickable = _tickable and same


def tickable() -> bool:
    """True when the last full frame's clocks can be redrawn alone."""
    global _unchecked
    if _unchecked is not None:
        surface, info = _unchecked
        _unchecked = None
        _check(surface, info)
    return _tickable


def tick_clocks(surface: pygame.Surface, info: TableInfo) -> list[Rect] | None:
    """Redraw only the clocks of the last full frame for ``info``'s times (the caller
    checked that nothing else changed); returns the rects to put on the screen, or None
    when this frame's clocks cannot be redrawn alone (see :func:`end_frame`)."""
    if not tickable():
        return None
    for area, under, redraw in _clocks:
        surface.blit(under, area)
        redraw(surface, info)
    return [area for area, _, _ in _clocks]


def clock(seconds: float) -> str:
    """Seconds as ``mm:ss`` (minutes keep counting past 59).

    >>> clock(75.9), clock(3725)
    ('01:15', '62:05')
    """
    s = max(0, int(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


def top_bar(surface: pygame.Surface, rect: Rect, info: TableInfo, turn: int | None = None,
            pills: list[Pill] = (), title: str | None = None, clock_below: bool = False) -> list[Button]:
    """The bar across the top: game name, turn number, the game's ``pills``, the devices,
    the game clock, the turn's countdown (unless the screen draws its own turn clock:
    ``clock_below``), and the Undo and Pause buttons. Returns its buttons; each touch
    target is the bar's full height (at least :data:`TOUCH` px) even where the pill drawn
    is smaller. When the bar is short of room the game clock gives way first, then a
    device pill that only says all is well; a device that is down keeps its red badge
    whole: the clock, then the pills' spare width, then the game's name give way to it,
    and a badge still too narrow says less (:func:`badge_words`), never cut."""
    buttons: list[Button] = []
    pygame.draw.rect(surface, theme.PANEL, rect)
    h = rect.height

    def target(box: Rect) -> Rect:
        return Rect(box.left, rect.top, box.width, max(TOUCH, h))

    name = title if title is not None else info.game_name
    name_w = min(210, width_of(theme.font(theme.TITLE - 4, True), name) + 16) if name else 10
    said = text("turn", turn=turn) if turn is not None else ""
    turn_w = min(104, width_of(theme.font(theme.MEDIUM, True), said) + 10) if said else 0
    pad = (h - 10) // 2 + 8
    trouble = any(state != "connected" for state in info.devices.values())
    if trouble and _short_for_trouble(rect, info, pills, name_w + turn_w, clock_below):
        name, name_w = "", 10  # a device that is down is told whole: the game's name gives way first
    if name:
        draw_text(surface, name, Rect(rect.left + 10, rect.top, name_w, h), theme.TITLE - 4, theme.HIGHLIGHT, bold=True)
    x = rect.left + 10 + name_w
    if said:
        draw_text(surface, said, Rect(x, rect.top, turn_w, h), theme.MEDIUM, theme.TEXT, bold=True)
        x += turn_w + 4
    right = rect.right - 8
    if info.can_pause and not info.paused:  # the game menu: Pause, Settings, History, Leave (companion.ui.menu)
        menu = Rect(right - PAUSE_W, rect.top + 4, PAUSE_W, h - 8)
        button(surface, menu, text("menu"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM)
        buttons.append(Button(target(menu), "menu table"))
        right = menu.left - 8
    if info.undo is not None:
        undo = Rect(right - UNDO_W, rect.top + 4, UNDO_W, h - 8)
        button(surface, undo, text("undo"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM)
        buttons.append(Button(target(undo), "menu undo"))
        right = undo.left - 8
    if info.turn_left is not None and not clock_below:
        box = Rect(right - 110, rect.top + 5, 110, h - 10)

        def turn_left(surface: pygame.Surface, info: TableInfo, box: Rect = box) -> Rect:
            fill = theme.WARN if info.warning else theme.PANEL_LIGHT
            return banner(surface, box, clock(info.turn_left or 0.0), fill,
                          theme.TEXT_DARK if info.warning else theme.TEXT, size=theme.MEDIUM)
        _clock(surface, box, info, turn_left)
        right = box.left - 8
    widths = _pill_widths(pills, right - x - (trouble_need(info.devices, h - 10) if trouble else 0), pad)
    for pill, width in zip(pills, widths):
        box = Rect(x, rect.top + 5, width, h - 10)
        fill = theme.WARN if pill.warn else theme.PANEL_LIGHT
        ink = theme.TEXT_DARK if pill.warn else theme.TEXT
        if pill.command:
            button(surface, box, pill.text, fill, ink, size=theme.MEDIUM)
            buttons.append(Button(target(box), pill.command))
        else:
            banner(surface, box, pill.text, fill, ink, size=theme.MEDIUM)
        x += box.width + 8
    room = right - x
    if info.can_pause and room >= CLOCK_W + (8 + trouble_need(info.devices, h - 10) if trouble else 0):
        box = Rect(right - CLOCK_W, rect.top + 5, CLOCK_W, h - 10)
        _clock(surface, box, info, lambda surface, info, box=box: game_clock(surface, box, info.game_seconds))
        right = box.left - 8
    if right - x >= (60 if trouble else 110):
        devices(surface, Rect(x, rect.top + 5, right - x, h - 10), info.devices)
    elif info.devices and not trouble and right - x >= h - 6:
        # No room to name them: a green tick says every device is connected.
        tick(surface, Rect(right - (h - 10), rect.top + 5, h - 10, h - 10))
    return buttons


def _pill_widths(pills, room: int, pad: int) -> list[int]:
    """How wide each of the top bar's ``pills`` is drawn in ``room`` px (what is left
    between the turn number and the buttons, less what a device that is down needs):
    narrower when they would run into Undo, never over it, never under their words."""
    needs = [width_of(theme.font(theme.SMALL, True), p.text) + pad for p in pills]
    widths = [max(need, p.width) for need, p in zip(needs, pills)]
    spare = sum(w - need for w, need in zip(widths, needs))
    over = sum(widths) + 8 * len(pills) - room
    if over > 0 and spare:
        keep = max(0.0, 1 - over / spare)
        widths = [need + int((w - need) * keep) for w, need in zip(widths, needs)]
    return widths


def _short_for_trouble(rect: Rect, info: TableInfo, pills, used: int, clock_below: bool) -> bool:
    """Would the red badges of the devices that are down be short of room in the top
    bar ``rect`` beside its buttons, the ``pills`` at their narrowest and ``used`` px of
    name and turn number?"""
    h = rect.height
    taken = (PAUSE_W + 8 if info.can_pause and not info.paused else 0) + (UNDO_W + 8 if info.undo is not None else 0) \
        + (118 if info.turn_left is not None and not clock_below else 0) \
        + sum(width_of(theme.font(theme.SMALL, True), p.text) + (h - 10) // 2 + 16 for p in pills)
    return rect.width - 18 - used - taken < trouble_need(info.devices, h - 10)


def paged(options: list, slots: int, page: int) -> tuple[list, int, int]:
    """What a menu of ``slots`` buttons shows of ``options`` on ``page``: ``(shown, at,
    pages)``. All of them on one page when they fit; else ``slots - 1`` a page, the last
    slot being a More button (command ``page``, which counts ``page`` up) that turns to
    the next page, and from the last back to the first (``at`` is ``page`` modulo
    ``pages``). So every choice can be reached by touch, however many there are."""
    if len(options) <= slots:
        return list(options), 0, 1
    per = max(1, slots - 1)
    pages = -(-len(options) // per)
    at = page % pages
    return list(options[at * per:(at + 1) * per]), at, pages


def game_clock(surface: pygame.Surface, rect: Rect, seconds: float) -> Rect:
    """The game clock as a pill: the word "Game" and ``mm:ss`` (pauses left out), so it
    is never taken for the turn's clock. Returns the rect drawn in."""
    panel(surface, rect, theme.PANEL_LIGHT, radius=rect.height // 2)
    size = theme.MEDIUM if rect.height < 50 else theme.BIG
    digits = clock(seconds)
    digits_w = width_of(theme.font(size, True), digits)
    inner = rect.inflate(-14, 0)
    label = Rect(inner.left, rect.top, inner.width - digits_w - 4, rect.height)
    draw_text(surface, text("clock_game"), label, theme.SMALL, theme.TEXT_DIM)
    box = draw_text(surface, digits, Rect(label.right + 4, rect.top, digits_w, rect.height), size, theme.TEXT,
                    bold=True, align="right")
    return rect.union(box)


def devices(surface: pygame.Surface, rect: Rect, status: dict[str, str]) -> None:
    """A green pill naming the working devices, or a red badge per device that is not.
    When the names do not fit the pill it says how many are ready instead ("Both ready"),
    and when that does not fit either, it is a green tick: a name cut short ("scanner1 ·
    sc...") reads as something wrong."""
    if not status:
        return
    bad = [(n, s) for n, s in status.items() if s != "connected"]
    if not bad:
        font, room = theme.font(theme.SMALL, True), rect.width - rect.height // 2
        words = " · ".join(status)
        if width_of(font, words) > room:
            n = len(status)
            words = text("device_ok") if n == 1 else text("devices_both") if n == 2 else text("devices_all", count=n)
        if width_of(font, words) > room:
            tick(surface, Rect(rect.left, rect.top, rect.height, rect.height))
            return
        banner(surface, rect, words, theme.OK, size=theme.SMALL)
        return
    w = (rect.width - 6 * (len(bad) - 1)) // len(bad)
    font = theme.font(theme.SMALL, True)
    # The whole problem when it fits the badge, else the device's name; else one badge
    # that counts them.
    said = [[w_ for w_ in badge_words(name, state) if width_of(font, w_) <= w - rect.height // 2][:1] for name, state in bad]
    if not all(said):
        said, bad, w = [[text("devices_down", count=len(bad))]], bad[:1], rect.width
    for i, words in enumerate(said):
        banner(surface, Rect(rect.left + i * (w + 6), rect.top, w, rect.height), words[0], theme.BAD, theme.TEXT,
               size=theme.SMALL)


def badge_words(name: str, state: str) -> list[str]:
    """What a device's red badge may say, longest first: the problem with the device's
    name ("Venue: no broker", "tray offline"), the part before a colon ("scanner
    disconnected" of "scanner disconnected: check its USB cable"), then the device's
    name alone (the red badge says it is down, and which one)."""
    def named(words: str) -> str:
        return words if name.lower() in words.lower() else f"{name} {words}"

    head = state.split(":", 1)[0].strip()
    return list(dict.fromkeys((named(state), named(head) if head else name, name)))


def trouble_need(status: dict[str, str], height: int) -> int:
    """Pixels the red badges of ``status``'s devices that are not connected need to say
    their whole problem at :data:`theme.SMALL` (the game clock gives way to them)."""
    font = theme.font(theme.SMALL, True)
    bad = [badge_words(n, s)[0] for n, s in status.items() if s != "connected"]
    return sum(width_of(font, w) + height // 2 + 4 for w in bad) + 6 * max(0, len(bad) - 1)


def turn_clock(surface: pygame.Surface, rect: Rect, info: TableInfo) -> None:
    """The time since the turn began, large and dim; with a turn limit, the time left
    (orange in the last 10 seconds); while an auction waits on a bid with a bidding
    countdown, the bidder's seconds (orange from 10, the prompt then suggests Pass)."""
    _clock(surface, rect, info, lambda surface, info, rect=rect: _turn_clock(surface, rect, info))


def _turn_clock(surface: pygame.Surface, rect: Rect, info: TableInfo) -> Rect:
    if info.bid_left is not None:
        warn = info.bid_left <= WARN_AT
        return draw_text(surface, text("bid_left", seconds=math.ceil(info.bid_left)), rect, theme.HUGE,
                         theme.WARN if warn else theme.TEXT, bold=True, align="right")
    if info.turn_left is not None:
        shown, label, ink = clock(info.turn_left), text("clock_left"), theme.WARN if info.warning else theme.TEXT
    else:
        shown, label, ink = clock(info.turn_seconds), text("clock_turn"), theme.TEXT_DIM
    box = draw_text(surface, shown, rect, theme.HUGE, ink, bold=True, align="right")
    # What the digits count, beside them (two clocks on one screen must not be guessed apart).
    room = Rect(rect.left, rect.top, box.left - rect.left - 6, rect.height)
    if room.width >= width_of(theme.font(theme.SMALL), label):
        box = box.union(draw_text(surface, label, room, theme.SMALL, theme.TEXT_DIM, align="right"))
    return box


def cancel_button(surface: pygame.Surface, rect: Rect, label: str | None = None) -> Button:
    """The grey button that closes a menu (command ``cancel``)."""
    label = text("cancel") if label is None else label
    return Button(button(surface, rect, label, theme.PANEL_LIGHT, theme.TEXT), "cancel")


def overlay(surface: pygame.Surface, info: TableInfo, buttons: list[Button]) -> list[Button]:
    """Shared menus drawn over a game's screen: the Paused box, the game menu and its
    questions and settings (:mod:`companion.ui.menu`), and the confirm-first Undo
    dialog (``info.menu == "undo"``); each replaces the screen's buttons with its own."""
    if info.paused and info.menu not in ("undo", "quit"):
        box = menu_panel(surface, text("paused"))
        draw_text(surface, text("paused_body"), Rect(box.left + 30, box.top + 78, box.width - 60, 56),
                  theme.BIG, theme.TEXT, align="center")
        game_clock(surface, Rect(box.centerx - 90, box.top + 146, 180, 56), info.game_seconds)
        resume = Rect(box.left + 30, box.bottom - 110, box.width - 60, 86)
        return [Button(button(surface, resume, text("resume"), theme.OK), "resume")]
    if info.menu in menu.MENUS:
        return menu.draw(surface, info)
    if info.menu == "why" and info.why is not None:
        return why_box(surface, info.why)
    if info.menu != "undo":
        return buttons + [b for b in _verdict.why_buttons() if b not in buttons]  # (a screen may call overlay too)
    box = menu_panel(surface, text("undo_title"))
    what = (info.undo_question or info.undo or text("undo_nothing")) if info.undo is not None else text("undo_nothing")
    draw_wrapped(surface, what, Rect(box.left + 30, box.top + 84, box.width - 60, 150), theme.BIG, theme.TEXT,
                 max_lines=3)
    half = (box.width - 90) // 2
    out = [cancel_button(surface, Rect(box.left + 30, box.bottom - 110, half, 86), text("no"))]
    if info.undo is not None:
        out.append(Button(button(surface, Rect(box.right - 30 - half, box.bottom - 110, half, 86), text("undo_it"),
                                 theme.WARN), "undo"))
    return out


def why_box(surface: pygame.Surface, rule) -> list[Button]:
    """The Why? of a refusal over the screen: the rulebook's section and its sentence,
    quoted (``rule``: a :class:`~companion.core.why.Rule`), and Back (``cancel``)."""
    box = menu_panel(surface, text("why_title"))
    draw_text(surface, text("why_from", section=rule.section), Rect(box.left + 30, box.top + 70, box.width - 60, 30),
              theme.MEDIUM, theme.HIGHLIGHT, align="center")
    draw_wrapped(surface, f"\u201c{rule.sentence}\u201d", Rect(box.left + 30, box.top + 104, box.width - 60,
                                                              box.height - 104 - 96), theme.BIG, theme.TEXT, max_lines=5,
                 min_size=theme.MIN_SIZE)
    return [cancel_button(surface, Rect(box.left + 30, box.bottom - 82, box.width - 60, 66), text("back"))]


_HISTORY_W, _NEW_W, _UNDO_W = 150, 170, 110


def _after_game_rects(w: int, h: int) -> tuple[Rect, Rect, Rect]:
    """History (bottom left), Undo and New game (bottom right) on a final screen."""
    new = Rect(w - 8 - _NEW_W, h - 50, _NEW_W, 48)
    return Rect(8, h - 50, _HISTORY_W, 48), Rect(new.left - 8 - _UNDO_W, h - 50, _UNDO_W, 48), new


def footer(surface: pygame.Surface, line: str, info: TableInfo | None, colour=None, top: int = 46,
           height: int = 40) -> None:
    """A final screen's one centred line in its last 50 px (``top`` px above the foot):
    across the screen, or between the History and Undo buttons when ``info.after_game``."""
    w, h = surface.get_size()
    rect = Rect(10, h - top, w - 20, height)
    if info is not None and info.after_game:
        history, undo, _ = _after_game_rects(w, h)
        rect = Rect(history.right + 6, h - top, undo.left - 6 - history.right - 6, height)
    draw_text(surface, line, rect, theme.MEDIUM, theme.TEXT if colour is None else colour, align="center")


def after_game(surface: pygame.Surface, undo: bool = False) -> list[Button]:
    """The History and New game buttons in the bottom corners of a final screen, and
    Undo beside New game while the input that ended the game can be taken back (it asks
    first, as on the top bar). Every game's final screen keeps its last 50 px for them
    and one centred line (:func:`footer`)."""
    w, h = surface.get_size()
    history, undo_rect, new = _after_game_rects(w, h)
    out = [Button(button(surface, history, text("history"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM),
                  "history")]
    if undo:
        out.append(Button(button(surface, undo_rect, text("undo"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM),
                          "menu undo"))
    out.append(Button(button(surface, new, text("new_game"), theme.OK, size=theme.MEDIUM), "newgame"))
    return out


def typed_count(count: int, digit: int, most: int) -> int:
    """The count after tapping ``digit`` on the count menu's keys: the digit goes on the
    end while the number stays possible (``count * 10 + digit`` at most ``most``), else
    it starts a new number. So from 88 (at most 93), 4 then 0 is 40: three taps with OK.

    >>> typed_count(88, 4, 93), typed_count(4, 0, 93), typed_count(9, 3, 93), typed_count(9, 4, 93)
    (4, 40, 93, 4)
    """
    longer = count * 10 + digit
    return longer if longer <= most else min(digit, most)


def count_menu(surface: pygame.Surface, title: str, count: int, most: int) -> list[Button]:
    """Correct a counted pile (the Fruit Deck, the Candy Draw Pile): the count with -1 and
    +1 beside it, number keys that type a new count (:func:`typed_count`), Clear, then OK
    (``deck N``) or Cancel. Each key is a ``draft N`` the window keeps, so only the final
    count reaches the game. ``most`` is the largest count the pile can hold now."""
    box = menu_panel(surface, title)
    buttons = []
    row = Rect(box.left + 30, box.top + 72, box.width - 60, 60)
    step_w, mid = 110, 180
    x = row.centerx - (2 * step_w + mid + 20) // 2
    for step in (-1, None, 1):
        if step is None:
            draw_text(surface, str(count), Rect(x, row.top - 4, mid, row.height + 8), theme.HUGE + 8,
                      theme.HIGHLIGHT, bold=True, align="center")
            x += mid + 10
            continue
        rect = Rect(x, row.top, step_w, row.height)
        new = min(most, max(0, count + step))
        button(surface, rect, f"{step:+d}", theme.BUTTON, size=theme.BIG, enabled=new != count)
        if new != count:
            buttons.append(Button(rect, f"draft {new}"))
        x += step_w + 10
    keys = [str(d) for d in (1, 2, 3, 4, 5)] + ["clear"] + [str(d) for d in (6, 7, 8, 9, 0)]
    gap, key_h = 8, 52
    key_w = (box.width - 60 - 5 * gap) // 6
    for i, key in enumerate(keys):
        rect = Rect(box.left + 30 + (i % 6) * (key_w + gap), row.bottom + 10 + (i // 6) * (key_h + gap), key_w, key_h)
        if key == "clear":
            button(surface, rect, text("clear"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM, enabled=count != 0)
            if count:
                buttons.append(Button(rect, "draft 0"))
            continue
        new = typed_count(count, int(key), most)
        button(surface, rect, key, theme.BUTTON, size=theme.BIG)
        buttons.append(Button(rect, f"draft {new}"))
    ok = Rect(box.centerx - 250, box.bottom - 96, 240, 80)
    buttons.append(Button(button(surface, ok, "OK", theme.OK), f"deck {count}"))
    buttons.append(cancel_button(surface, Rect(box.centerx + 10, box.bottom - 96, 240, 80)))
    return buttons
