"""The game menu (issue 38): one Menu button in the top bar of every game
(:func:`companion.ui.chrome.top_bar`) opens it. Pause, Settings, History and Leave the
game; leaving asks once; Escape on a desk window asks before closing. Drawn over the
game by :func:`companion.ui.chrome.overlay` for ``info.menu`` ``"table"``, ``"leave"``,
``"settings"`` and ``"quit"``; the window (:class:`companion.table.window.TableWindow`)
acts on the commands.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> app = App()
>>> app.show(lambda s: draw(s, TableInfo(menu="table", can_pause=True)))
>>> sorted(b.command for b in app.buttons)
['cancel', 'history', 'menu leave', 'menu settings', 'pause']
>>> app.close()
"""

from __future__ import annotations

import pygame

from . import theme
from .boxes import menu_panel
from .app import Button, TableInfo
from .messages import text
from .settings import theme_word
from .widgets import button, draw_text, draw_wrapped

Rect = pygame.Rect

#: The menus this module draws (``info.menu``).
MENUS = ("table", "leave", "settings", "quit")


def draw(surface: pygame.Surface, info: TableInfo) -> list[Button]:
    """The menu ``info.menu`` over the screen; its buttons replace the screen's."""
    if info.menu == "settings":
        return _settings(surface, menu_panel(surface, text("settings_title")), info)
    if info.menu == "leave":
        return _question(surface, text("leave_title"), text("leave_body"), text("leave_keep"), text("leave_it"),
                         "leave")
    if info.menu == "quit":
        return _question(surface, text("quit_title"), text("quit_body"), text("cancel"), text("quit_it"), "quit")
    box = menu_panel(surface, text("menu_title"))
    half = (box.width - 70) // 2
    row = 86
    cells = [(text("pause"), "pause", theme.PANEL_LIGHT, theme.TEXT), (text("menu_settings"), "menu settings",
                                                                       theme.PANEL_LIGHT, theme.TEXT),
             (text("history"), "history", theme.PANEL_LIGHT, theme.TEXT),
             (text("menu_leave"), "menu leave", theme.WARN, theme.TEXT_DARK)]
    out = []
    for i, (label, command, fill, ink) in enumerate(cells):
        if command == "pause" and not info.can_pause:
            continue
        rect = Rect(box.left + 25 + (i % 2) * (half + 20), box.top + 80 + (i // 2) * (row + 12), half, row)
        out.append(Button(button(surface, rect, label, fill, ink), command))
    cancel = Rect(box.centerx - 150, box.bottom - 92, 300, 76)
    out.append(Button(button(surface, cancel, text("cancel"), theme.PANEL_LIGHT, theme.TEXT), "cancel"))
    return out


def _question(surface: pygame.Surface, title: str, body: str, keep: str, do: str, command: str) -> list[Button]:
    """Asked once: ``body`` with ``keep`` (closes the menu) and ``do`` (``command``)."""
    box = menu_panel(surface, title)
    draw_wrapped(surface, body, Rect(box.left + 30, box.top + 80, box.width - 60, 160), theme.BIG, theme.TEXT,
                 max_lines=4)
    half = (box.width - 90) // 2
    keep_rect = Rect(box.left + 30, box.bottom - 110, half, 86)
    do_rect = Rect(box.right - 30 - half, box.bottom - 110, half, 86)
    return [Button(button(surface, keep_rect, keep, theme.PANEL_LIGHT, theme.TEXT), "cancel"),
            Button(button(surface, do_rect, do, theme.WARN, theme.TEXT_DARK), command)]


def _settings(surface: pygame.Surface, box: Rect, info: TableInfo) -> list[Button]:
    """Sound (volume - and +, Mute), colours (a button per theme), brightness where the
    panel has a backlight; the last setting's verdict and Done at the foot."""
    shown = info.settings
    out: list[Button] = []
    label_w, row_h, gap = 170, 60, 10
    y = box.top + 72
    left = box.left + 20 + label_w
    right = box.right - 20

    def label(words: str) -> None:
        draw_text(surface, words, Rect(box.left + 20, y, label_w - 10, row_h), theme.BIG, theme.TEXT, bold=True)

    def stepper(command: str, value: str, x: int) -> int:
        minus, shown_at, plus = Rect(x, y, 70, row_h), Rect(x + 76, y, 110, row_h), Rect(x + 192, y, 70, row_h)
        out.append(Button(button(surface, minus, "-", theme.BUTTON, size=theme.BIG), f"setting {command} down"))
        draw_text(surface, value, shown_at, theme.BIG, theme.HIGHLIGHT, bold=True, align="center")
        out.append(Button(button(surface, plus, "+", theme.BUTTON, size=theme.BIG), f"setting {command} up"))
        return plus.right

    label(text("set_sound"))
    end = stepper("volume", text("set_volume_now", volume=round(shown.volume * 100)), left)
    mute = Rect(end + gap, y, right - end - gap, row_h)
    words = text("set_unmute") if shown.muted else text("set_mute")
    out.append(Button(button(surface, mute, words, theme.WARN if shown.muted else theme.PANEL_LIGHT,
                             theme.TEXT_DARK if shown.muted else theme.TEXT, size=theme.MEDIUM), "setting mute"))
    y += row_h + gap
    label(text("set_theme_word"))
    names = list(theme.THEMES)
    w = (right - left - gap * (len(names) - 1)) // len(names)
    for i, name in enumerate(names):
        rect = Rect(left + i * (w + gap), y, w, row_h)
        chosen = name == shown.theme
        out.append(Button(button(surface, rect, theme_word(name), theme.OK if chosen else theme.PANEL_LIGHT,
                                 theme.TEXT_DARK if chosen else theme.TEXT, size=theme.MEDIUM),
                          f"setting theme {name}"))
    y += row_h + gap
    if shown.brightness is not None:
        label(text("set_light"))
        stepper("brightness", f"{round(shown.brightness * 100)} %", left)
        y += row_h + gap
    foot = box.bottom - 16 - row_h
    done = Rect(right - 170, foot, 170, row_h)
    if info.verdict:
        draw_wrapped(surface, info.verdict, Rect(box.left + 20, foot - 4, done.left - box.left - 30, row_h + 8),
                     theme.MEDIUM, theme.TEXT if info.verdict_ok is not False else theme.BAD, max_lines=2)
    out.append(Button(button(surface, done, text("done"), theme.OK), "cancel"))
    return out
