"""The Sugar Blast screen (800x480): the board's twin, the players' candies, the prompts.

Left: the 6x6 board, one big tappable cell per candy. Each candy is drawn in its colour
AND as a shape with its letter (R circle, O square, Y triangle, G diamond, B hexagon,
P star), so colour-blind players can read it. The edge of the board where the tilting
player sits is marked while the board waits for the tilt and the refill. "Hint" frames
one legal swap's two cells. In quick mode the board's place holds the Blast pad: the
kind (3, 4, 5-6, Box), then the colour, with a count stepper for 5-6 and Box.

Right, during play: the bag, the players with the candies they kept, the Goal Card, the
last verdict, the prompt and the buttons of the phase (palette, Start, Blasts to choose,
candies to keep, candies to put back). While waiting for the tilt and the refill the
right side becomes one LARGE prompt ("Fill 5 spaces from the bag, bottom to top") that
can be read across the table.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> app = App()
>>> s = rules.new_game(["Ana", "Ben"], "five-different")
>>> app.show(lambda surface: draw_game(surface, s, TableInfo()))
>>> [b.command for b in app.buttons if not b.command.startswith("cell")][:3]
['deal', 'palette R', 'palette O']
>>> app.close()
"""

from __future__ import annotations

import pygame

from companion.core.game import Screen as CoreScreen
from companion.core.game import Result
from companion.ui import chrome, theme
from companion.ui.app import Button, TableInfo
from companion.ui.messages import text
from companion.ui.turned import along, draw_turned
from companion.ui.widgets import button, draw_text, draw_wrapped, panel, width_of, wrap

from .parts import board as B
from . import flow, rules
from .parts import quick_pad
from .parts.candies import CANDY_LOOKS, candy  # noqa: F401  (part of the screen API)
from .parts import layout
from .parts.layout import (BAND, BOARD, CELL, H, HINT, PROMPT_SIZE, RIGHT, ROW_H, TOP, VERDICT_SIZE, W,  # noqa: F401
                           cell_rect, grid)
from .messages import blast_name, count, order_words, say
from .parts.quick_pad import QUICK_COUNTS, QUICK_KINDS, quick_pick  # noqa: F401

Rect = pygame.Rect


def draw_game(surface: pygame.Surface, state: rules.State, info: TableInfo) -> list[Button]:
    """Draw the whole in-game screen; returns its touch targets."""
    layout.fit_to(surface, globals())
    entry = info.entry if isinstance(info.entry, flow.Entry) else flow.new_entry()
    buttons = _top_bar(surface, state, info)
    _board(surface, state, info, entry, buttons)
    if state.phase in (rules.TILT, rules.REFILL):
        _big_prompt(surface, state, info, entry, buttons)
    else:
        _side(surface, state, info, entry, buttons)
    return buttons


def _top_bar(surface: pygame.Surface, state: rules.State, info: TableInfo) -> list[Button]:
    low = state.bag_n < state.holes or state.bag_n <= 6
    pills = [chrome.Pill(f"Bag {state.bag_n}", 130, low)]
    mode = "Solo" if state.solo else "Quick" if state.quick else ""
    if mode:
        pills.append(chrome.Pill(mode, 90))
    return chrome.top_bar(surface, TOP, info, state.turn, pills)


def hint_cells(state: rules.State) -> tuple[B.Cell, B.Cell] | None:
    """The two cells the Hint button lights up: the first legal swap, or None."""
    if state.quick or state.phase != rules.TURN:
        return None
    swaps = B.legal_swaps(state.board)
    return (swaps[0].frm, swaps[0].to) if swaps else None


def _hinting(state: rules.State, info: TableInfo) -> bool:
    return info.menu == "hint" and not state.quick and state.phase == rules.TURN


def _board(surface: pygame.Surface, state: rules.State, info: TableInfo, entry: flow.Entry,
           buttons: list[Button]) -> None:
    if state.quick and state.phase in (rules.TURN, rules.CASCADE):
        return quick_pad.draw(surface, state, info, buttons)
    if state.quick:
        panel(surface, BOARD, theme.PANEL)
        draw_wrapped(surface, say("screen_quick_board", on=state.on_board_n, holes=state.holes),
                     BOARD.inflate(-40, -40), theme.BIG, theme.TEXT_DIM, max_lines=4)
        return
    panel(surface, BOARD.inflate(8, 8), theme.PANEL, radius=theme.RADIUS)
    pending = state.pending[0] if state.phase == rules.KEEP and state.pending else None
    choosing = set().union(*(b.cells for b in state.pending)) if state.phase == rules.CHOOSE else set()
    draft = dict(entry.draft)
    tappable = state.phase in (rules.SETUP, rules.TURN, rules.REFILL)
    hint = hint_cells(state) if _hinting(state, info) else None
    for r in range(B.ROWS):
        for c in range(B.COLS):
            rect = cell_rect(r, c).inflate(-4, -4)
            letter = state.board[r][c]
            removed = pending is not None and (r, c) in pending.removes
            fill = theme.dim(theme.BAD, 0.5) if removed else theme.BG
            panel(surface, rect, fill, radius=8)
            if letter != B.EMPTY:
                candy(surface, rect.center, CELL * 9 // 22, letter)
            elif (r, c) in draft:
                candy(surface, rect.center, CELL * 4 // 11, draft[(r, c)])
                pygame.draw.rect(surface, theme.WARN, rect, 3, border_radius=8)
            elif state.phase == rules.REFILL:
                pygame.draw.rect(surface, theme.WARN, rect, 3, border_radius=8)
            if removed:
                pygame.draw.rect(surface, theme.BAD, rect, 4, border_radius=8)
            if (r, c) in choosing or (pending is not None and (r, c) in pending.cells):
                pygame.draw.rect(surface, theme.HIGHLIGHT, rect, 4, border_radius=8)
            if entry.selected == (r, c):
                pygame.draw.rect(surface, theme.HIGHLIGHT, rect.inflate(4, 4), 6, border_radius=10)
            if hint is not None and (r, c) in hint:
                pygame.draw.rect(surface, HINT, rect.inflate(4, 4), 7, border_radius=10)
            if tappable:
                buttons.append(Button(cell_rect(r, c), f"cell {r} {c}"))
    if hint is not None:  # a double arrow across the two cells' shared side
        a, b = (cell_rect(*cell).center for cell in hint)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        across = a[1] == b[1]
        pygame.draw.circle(surface, HINT, mid, 15)
        for d in (-1, 1):
            tip = (mid[0] + d * 11, mid[1]) if across else (mid[0], mid[1] + d * 11)
            wing = [(tip[0] - d * 8, tip[1] - 7), (tip[0] - d * 8, tip[1] + 7)] if across else \
                [(tip[0] - 7, tip[1] - d * 8), (tip[0] + 7, tip[1] - d * 8)]
            pygame.draw.polygon(surface, theme.TEXT_DARK, [tip, *wing])
    edge = B.SEAT_EDGES[state.seats[state.active]] if state.phase in (rules.TILT, rules.REFILL) else None
    if edge is not None:
        cue = "cue_fill" if state.phase == rules.REFILL else "cue_let_go" if entry.tilt_seen is not None else "cue_tilt"
        seat_cue(surface, edge, say(cue), toward=state.phase == rules.TILT)
    _numbers(surface, edge)


def _edge_bar(edge: str) -> Rect:
    """The strip :data:`~.parts.layout.BAND` px deep beside the board on ``edge``: the
    row numbers (left) and column numbers (bottom) are printed in it, and the tilting
    seat's cue takes the strip on that seat's side."""
    outer, deep = BOARD.inflate(8, 8), BAND - 6
    return {"bottom": Rect(outer.left, BOARD.bottom + 4, outer.width, deep),
            "top": Rect(outer.left, BOARD.top - 4 - deep, outer.width, deep),
            "left": Rect(BOARD.left - 4 - deep, outer.top, deep, outer.height),
            "right": Rect(BOARD.right + 4, outer.top, deep, outer.height)}[edge]


#: Where the numbers go when the tilting seat's cue takes their strip.
_OTHER_SIDE = {"left": "right", "bottom": "top"}


def _numbers(surface: pygame.Surface, edge: str | None) -> None:
    """Row numbers down the left, column numbers along the bottom, from 1, as people
    count them (and as every message names a row or a column); on the opposite side
    while the tilting seat's cue takes that strip."""
    rows = _OTHER_SIDE["left"] if edge == "left" else "left"
    cols = _OTHER_SIDE["bottom"] if edge == "bottom" else "bottom"
    side, foot = _edge_bar(rows), _edge_bar(cols)
    size = theme.SMALL if BAND < 60 else theme.BIG
    for i in range(B.ROWS):
        rect = cell_rect(i, 0)
        draw_text(surface, str(i + 1), Rect(side.left, rect.top, side.width, rect.height), size, theme.TEXT_DIM,
                  bold=True, align="center")
    for i in range(B.COLS):
        rect = cell_rect(0, i)
        draw_text(surface, str(i + 1), Rect(rect.left, foot.top, rect.width, foot.height), size, theme.TEXT_DIM,
                  bold=True, align="center")


def seat_cue(surface: pygame.Surface, edge: str, words: str, toward: bool = True) -> Rect:
    """The tilting seat's cue: a bright strip along the board's ``edge`` (the seat's
    side), ``words`` in it turned to read upright from that seat (at least
    :data:`~companion.ui.theme.VERDICT_MIN` px when the strip is long enough), and an
    arrow at each end in the seat's own frame: pointing at the seat (``toward``: tilt
    the board toward you, the candies slide to you), or away from it (fill from your
    side to the far side, the rulebook's "from bottom to top" as that seat sees it).
    Returns the strip."""
    bar = _edge_bar(edge)
    pygame.draw.rect(surface, theme.HIGHLIGHT, bar, border_radius=6)
    length, deep = along(edge, bar)
    arrow = deep + 8  # each arrow's length along the strip
    words_at = _along_rect(edge, bar, arrow + 12, length - 2 * (arrow + 12))
    size = max(theme.VERDICT_MIN, deep * 3 // 4)
    draw_turned(surface, words, words_at, size, edge, theme.TEXT_DARK, min_size=theme.MIN_SIZE)
    for start in (6, length - 6 - arrow):
        _arrow(surface, edge, _along_rect(edge, bar, start, arrow), toward)
    return bar


def _along_rect(edge: str, bar: Rect, start: int, length: int) -> Rect:
    """The part of ``bar`` from ``start`` to ``start + length`` along it, counted from the
    seat's left as it sits facing the board."""
    if edge == "bottom":
        return Rect(bar.left + start, bar.top, length, bar.height)
    if edge == "top":
        return Rect(bar.right - start - length, bar.top, length, bar.height)
    if edge == "left":
        return Rect(bar.left, bar.top + start, bar.width, length)
    return Rect(bar.left, bar.bottom - start - length, bar.width, length)


#: The way "toward the seat" points on the screen for the seat at each edge.
_DOWN = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}


def _arrow(surface: pygame.Surface, edge: str, rect: Rect, toward: bool) -> None:
    """A dark arrow filling ``rect``, pointing at the seat (``toward``) or away from it."""
    dx, dy = _DOWN[edge] if toward else tuple(-v for v in _DOWN[edge])
    cx, cy = rect.center
    half = min(rect.width, rect.height) // 2 - 3
    tip = (cx + dx * half, cy + dy * half)
    back = (cx - dx * half, cy - dy * half)
    side = (-dy * half, dx * half)
    head = [tip, (cx + side[0], cy + side[1]), (cx - side[0], cy - side[1])]
    pygame.draw.line(surface, theme.TEXT_DARK, back, (cx, cy), max(4, half // 2))
    pygame.draw.polygon(surface, theme.TEXT_DARK, head)


def goal_words(goal: str, width: int) -> str:
    """The Goal Card beside the players: its printed words (rulebook, "Goal Cards") when
    they fit two lines ``width`` px wide, else its button's shorter words ("2 sets of 2
    and 1 of 3"), never cut short."""
    full = "Goal: " + rules.GOALS[goal]["text"]
    if len(wrap(full, theme.font(theme.SMALL), width)) <= 2:
        return full
    return "Goal: " + say("goal_" + goal)


def _players(surface: pygame.Surface, state: rules.State, top: int, h: int = 38) -> int:
    """One row per player, ``h`` px tall: name and kept candies; returns the bottom."""
    gap = 4
    for i, who in enumerate(state.players):
        row = Rect(RIGHT.left, top + i * (h + gap), RIGHT.width, h)
        active = i == state.active and state.phase != rules.OVER
        panel(surface, row, theme.HIGHLIGHT if active else theme.PANEL)
        ink = theme.TEXT_DARK if active else theme.TEXT
        # the name gets what it needs (at least 104 px) of what the kept candies leave
        kinds = sum(1 for n in state.kept[i] if n)
        kept_w = 52 * kinds if kinds else width_of(theme.font(theme.MIN_SIZE), say("screen_no_candies")) + 4
        name_w = max(104, min(width_of(theme.font(theme.MEDIUM - 2, True), who) + 2, row.width - 18 - kept_w))
        draw_text(surface, who, Rect(row.left + 8, row.top, name_w, h), theme.MEDIUM - 2, ink, bold=True)
        _kept(surface, state.kept[i], Rect(row.left + name_w + 10, row.top, row.width - name_w - 16, h), ink)
    return top + len(state.players) * (h + gap)


def _kept(surface: pygame.Surface, kept: rules.Counts, rect: Rect, ink) -> None:
    x = rect.left
    if not sum(kept):
        draw_text(surface, say("screen_no_candies"), rect, theme.SMALL - 2, ink)
        return
    for letter, n in zip(rules.KINDS, kept):
        if n:
            candy(surface, (x + 14, rect.centery), 13, letter)
            draw_text(surface, f"{n}", Rect(x + 29, rect.top, 20, rect.height), theme.MEDIUM - 2, ink, bold=True)
            x += 52


def _side(surface: pygame.Surface, state: rules.State, info: TableInfo, entry: flow.Entry,
          buttons: list[Button]) -> None:
    """Players, Goal Card, verdict and prompt, the phase's buttons. A long verdict gets
    the room it needs at the smallest readable size: the player rows get shorter first,
    then the Goal Card line makes way while it is shown (it is back with the next one)."""
    actions = _action_rects(state)
    bottom = actions.top - 4
    said = info.prompt or flow.prompt(state, entry)
    if _hinting(state, info):
        said = hint_text(state)
    need = chrome.verdict_and_prompt_need(info, said, RIGHT.width, 0)
    seated = 0 if state.phase == rules.SETUP else len(state.players)  # nobody has candies yet in set-up
    row_h, goal = ROW_H, bool(state.goal)

    def room() -> int:
        return bottom - RIGHT.top - seated * (row_h + 4) - (50 if goal else 0)

    if room() < need:
        row_h = ROW_H * 4 // 5
    if room() < need:
        goal = False
    y = _players(surface, state, RIGHT.top, row_h) if seated else RIGHT.top
    if goal:
        draw_wrapped(surface, goal_words(state.goal, RIGHT.width), Rect(RIGHT.left, y, RIGHT.width, 48),
                     theme.SMALL, theme.TEXT_DIM, max_lines=2)
        y += 50
    chrome.verdict_and_prompt(surface, Rect(RIGHT.left, y, RIGHT.width, bottom - y), info, said, (bottom - y) // 2,
                              size=VERDICT_SIZE, prompt_size=PROMPT_SIZE)
    buttons.extend(_actions(surface, state, entry, actions, info.page))


def hint_words(state: rules.State) -> str:
    """The hint in words, for text mode (no screen to light the two candies up): the
    swap with its rows and columns counted from 1, and how to type it (from 0); at
    set-up, the board the table drew, row by row (there is no screen to lay it out
    from); None when no swap is being chosen (quick mode, or another step of a turn)."""
    if state.phase == rules.SETUP and state.dealt is not None:
        rows = "; ".join(f"row {r + 1}: " + " ".join(B.NAMES[k] for k in row) for r, row in enumerate(state.board))
        return say("hint_dealt", rows=rows)
    if state.quick or state.phase != rules.TURN:
        return None
    cells = hint_cells(state)
    if cells is None:
        return hint_text(state)
    (r1, c1), (r2, c2) = cells
    return say("hint_words", n_row1=r1 + 1, n_col1=c1 + 1, n_row2=r2 + 1, n_col2=c2 + 1,
               typed=f"/swap {r1} {c1} {r2} {c2}")


def hint_text(state: rules.State) -> str:
    if hint_cells(state) is None:
        return say("screen_hint_pass") if not rules.can_draw(state) else say("screen_hint_draw")
    return say("screen_hint")


def _verdict(surface: pygame.Surface, info: TableInfo, rect: Rect) -> None:
    chrome.verdict(surface, rect, info, theme.MEDIUM - 2, max_lines=3)


def _action_rects(state: rules.State) -> Rect:
    rows = 2 if state.phase in (rules.SETUP, rules.CHOOSE, rules.KEEP, rules.RETURN) else 1
    if state.phase == rules.SETUP and not state.quick:
        rows = 3  # the set-up's two ways: "Set up from the screen" (or Ready) over the palette
    if state.phase == rules.KEEP and len(flow.keep_options(state)) <= 2:
        rows = 1  # one or two choices fit side by side in one row
    h = rows * (56 if BAND < 60 else 96)
    return Rect(RIGHT.left, RIGHT.bottom - h, RIGHT.width, h)


def _palette(surface: pygame.Surface, state: rules.State, entry: flow.Entry, area: Rect,
             extra: list[tuple[str, str]], rows: int) -> list[Button]:
    kinds = [k for k, n in zip(rules.KINDS, state.supply) if n]
    out = []
    rects = grid(area, len(kinds) + len(extra), rows)
    for k, rect in zip(kinds, rects):
        chosen = entry.palette == k
        panel(surface, rect, theme.PANEL_LIGHT, theme.HIGHLIGHT if chosen else None, width=5)
        candy(surface, rect.center, min(rect.height, rect.width) // 2 - 8, k)
        out.append(Button(rect, f"palette {k}"))
    for (label, command), rect in zip(extra, rects[len(kinds):]):
        fill = theme.OK if command == "ready" else theme.BUTTON
        if command == "palette .":
            fill = theme.HIGHLIGHT if entry.palette == B.EMPTY else theme.PANEL_LIGHT
        out.append(Button(button(surface, rect, label, fill, theme.TEXT_DARK if fill != theme.PANEL_LIGHT
                                 else theme.TEXT, size=theme.MEDIUM), command))
    return out


def _actions(surface: pygame.Surface, state: rules.State, entry: flow.Entry, area: Rect,
             page: int = 0) -> list[Button]:
    phase = state.phase
    if phase == rules.SETUP:
        if state.quick:
            return [Button(button(surface, area, say("screen_start"), theme.OK), "ready")]
        return _setup_actions(surface, state, entry, area)
    if phase == rules.TURN and not state.quick:
        if B.no_blasts(state.board) and rules.can_draw(state):
            return _palette(surface, state, entry, area, [], 1)
        hint, no = Rect(area.left, area.top, area.width * 2 // 5 - 3, area.height), \
            Rect(area.left + area.width * 2 // 5 + 3, area.top, area.width - area.width * 2 // 5 - 3, area.height)
        return [Button(button(surface, hint, "Hint", theme.PANEL_LIGHT, theme.TEXT), "hint"),
                Button(button(surface, no, "No Blasts?", theme.BUTTON), "no-blasts")]
    if phase in (rules.TURN, rules.CASCADE):  # quick mode: the Blasts are entered on the pad
        return [Button(button(surface, area, say("screen_no_more"), theme.BUTTON), "done")]
    if phase == rules.CHOOSE:
        out = []
        for i, (blast, rect) in enumerate(zip(state.pending, grid(area, len(state.pending), 2))):
            panel(surface, rect, theme.BUTTON)
            candy(surface, (rect.left + 26, rect.centery), 18, blast.candy)
            name = blast_name(blast.kind)
            draw_text(surface, f"{i + 1}: {name}", Rect(rect.left + 50, rect.top, rect.width - 54, rect.height),
                      theme.MEDIUM, theme.TEXT_DARK, bold=True)
            out.append(Button(rect, f"blast {i + 1}"))
        return out
    if phase == rules.KEEP:
        options = flow.keep_options(state)
        return _candy_choices(surface, area, [(o, "keep " + " ".join(o)) for o in options], "Keep", page)
    if phase == rules.RETURN:
        p, options = flow.return_options(state)
        return _candy_choices(surface, area, [(o, f"return {p + 1} " + " ".join(o)) for o in options],
                              state.players[p], page)
    return []


def _setup_actions(surface: pygame.Surface, state: rules.State, entry: flow.Entry, area: Rect) -> list[Button]:
    """The set-up's two ways (Sugar Blast rulebook, "Setup"): on top "Set up from the
    screen" (the table draws the board, ``deal``), or once a board was drawn the big
    Ready; below, the palette, Clear and Start to copy the board candy by candy (or to
    change a drawn one). Start and Ready both send ``ready``."""
    top = Rect(area.left, area.top, area.width, (area.height - 12) // 3)
    below = Rect(area.left, top.bottom + 6, area.width, area.bottom - top.bottom - 6)
    if state.dealt is None:
        out = [Button(button(surface, top, say("screen_deal"), theme.BUTTON, size=theme.MEDIUM), "deal")]
        extra = [("Clear", "palette ."), (say("screen_start"), "ready")]
    else:
        out = [Button(button(surface, top, say("screen_ready"), theme.OK, size=theme.BIG), "ready")]
        extra = [("Clear", "palette .")]
    return out + _palette(surface, state, entry, below, extra, 2)


def _candy_choices(surface: pygame.Surface, area: Rect, choices, label: str, page: int = 0) -> list[Button]:
    """A button per choice of candies (``(letters, command)``), 8 at most on the screen at
    once: more than that come a page at a time with a More button (:func:`chrome.paged`)."""
    out = []
    few = len(choices) <= 2  # one row, each choice with the label; else two rows of candies only
    choices, _, pages = chrome.paged(choices, 8, page)
    cells = grid(area, len(choices) + (pages > 1), 1 if few else 2)
    if pages > 1:
        out.append(Button(button(surface, cells[-1], text("more_short"), theme.PANEL_LIGHT, theme.TEXT,
                                 size=theme.MEDIUM), "page"))
    for (letters, command), rect in zip(choices, cells):
        panel(surface, rect, theme.BUTTON)
        x = rect.left + 8
        if few:
            x = draw_text(surface, label, Rect(x, rect.top, 80, rect.height), theme.MEDIUM, theme.TEXT_DARK,
                          bold=True).right + 8
        for letter in letters:
            candy(surface, (x + 18, rect.centery), 17, letter)
            x += 40
        out.append(Button(rect, command))
    return out


def tray_working(info: TableInfo) -> bool:
    """Is a tray sensor connected and working now (from the devices the session heard)?"""
    return (info.devices or {}).get("tray") == "connected"


def _tilted_button(surface: pygame.Surface, info: TableInfo, rect: Rect, buttons: list[Button]) -> None:
    """"Tilted": the tilt and release by hand. Without a working tray sensor (none, or
    offline) it is sent at once; while one is connected the window asks first (``menu
    tilt``, the window's own, not stored), so a tap does not stand in for a tilt the
    sensor should have seen by mistake."""
    if info.menu == "tilt":
        panel(surface, rect.inflate(0, 150).move(0, -75), theme.PANEL_LIGHT, theme.HIGHLIGHT, width=3)
        draw_wrapped(surface, say("screen_tilt_confirm"), Rect(rect.left + 10, rect.top - 146, rect.width - 20, 140),
                     theme.MEDIUM - 2, theme.TEXT, bold=True, max_lines=4)
        back = Rect(rect.left, rect.top, rect.width * 2 // 5 - 3, rect.height)
        yes = Rect(back.right + 6, rect.top, rect.right - back.right - 6, rect.height)
        buttons.append(Button(button(surface, back, say("screen_back"), theme.PANEL_LIGHT, theme.TEXT), "cancel"))
        buttons.append(Button(button(surface, yes, say("screen_tilt_yes"), theme.OK), "tilt"))
        return
    command = "menu tilt" if tray_working(info) else "tilt"
    buttons.append(Button(button(surface, rect, say("screen_tilted"), theme.BUTTON), command))


def _big_prompt(surface: pygame.Surface, state: rules.State, info: TableInfo, entry: flow.Entry,
                buttons: list[Button]) -> None:
    """The tilt and refill prompt, large enough to read across the table."""
    who = state.players[state.active]
    edge = B.SEAT_EDGES[state.seats[state.active]]
    area = RIGHT
    if state.phase == rules.TILT:
        panel(surface, area, theme.PANEL, theme.HIGHLIGHT, width=4)
        text = say("screen_let_go") if entry.tilt_seen is not None else say("screen_tilt")
        button_top = area.bottom - 74
        refused = bool(info.verdict) and info.verdict_ok is False
        # A refusal takes the room of the small print, and as much of the big words' room
        # as it needs to be read whole (they shrink, never under the smallest size).
        below = area.top + 222
        if refused:
            below = max(area.top + 150, min(below, button_top - 8 - chrome.verdict_lines_need(
                info.verdict, area.width - 16, True)))
        if info.menu == "tilt":
            below = button_top - 150 - 2  # the question's box over the Tilted button
        draw_text(surface, who, Rect(area.left + 12, area.top + 10, area.width - 24, 60), theme.HUGE,
                  theme.HIGHLIGHT, bold=True, align="center")
        draw_wrapped(surface, text, Rect(area.left + 16, area.top + 76, area.width - 32, below - 6 - area.top - 76),
                     theme.HUGE, theme.TEXT, bold=True, max_lines=2)
        if info.menu == "tilt":
            pass  # the question over the Tilted button takes the small print's place
        elif refused:
            _verdict(surface, info, Rect(area.left + 8, below, area.width - 16, button_top - 8 - below))
        else:
            draw_wrapped(surface, say("screen_slid_to", edge=edge),
                         Rect(area.left + 16, area.top + 222, area.width - 32, 60), theme.MEDIUM, theme.TEXT_DIM,
                         max_lines=2)
            y = area.top + 284
            if state.auto_kept:  # the keep nobody tapped: said where the table is looking
                y = draw_wrapped(surface, say("screen_kept_only", who=who, kept=rules.words(rules.counts(state.auto_kept))),
                                 Rect(area.left + 16, y, area.width - 32, 60), theme.MEDIUM, theme.HIGHLIGHT,
                                 bold=True, max_lines=2).bottom + 4
            _broken_note(surface, state, Rect(area.left + 14, y, area.width - 28, button_top - 6 - y))
        _tilted_button(surface, info, Rect(area.left + 8, area.bottom - 74, area.width - 16, 66), buttons)
        return
    left = state.holes - len(entry.draft)
    panel(surface, area, theme.PANEL, theme.HIGHLIGHT, width=4)
    draw_text(surface, say("screen_fill", left=left), Rect(area.left + 10, area.top + 6, area.width - 20, 96), 82,
              theme.HIGHLIGHT, bold=True, align="center")
    pal = Rect(area.left + 8, area.bottom - 132, area.width - 16, 124)
    if info.verdict and info.verdict_ok is False:  # a refusal takes the room of the small print
        _verdict(surface, info, Rect(area.left + 8, area.top + 100, area.width - 16, pal.top - 6 - area.top - 100))
    else:
        words = say("screen_fill_words_one" if left == 1 else "screen_fill_words",
                    order=order_words(edge))
        draw_wrapped(surface, words, Rect(area.left + 14, area.top + 100, area.width - 28, 84), theme.BIG + 4,
                     theme.TEXT, bold=True, max_lines=2)
        draw_text(surface, say("screen_bag_slid", bag=state.bag_n, edge=edge),
                  Rect(area.left + 14, area.top + 186, area.width - 28, 36), theme.MEDIUM, theme.TEXT_DIM,
                  align="center")
        y = area.top + 222
        if state.bag_n < state.holes:
            draw_wrapped(surface, say("screen_bag_short", n_candies=count(state.holes - state.bag_n, "candy")),
                         Rect(area.left + 14, area.top + 220, area.width - 28, 40), theme.SMALL, theme.WARN,
                         bold=True)
            y = area.top + 262
        _broken_note(surface, state, Rect(area.left + 14, y, area.width - 28, pal.top - 4 - y))
    if state.quick:
        buttons.append(Button(button(surface, pal, "Done", theme.OK), "done"))
    else:
        buttons.extend(_palette(surface, state, entry, pal, [], 2))


def broken_note(state: rules.State) -> str:
    """The Blasts found with the one being solved that it broke, in words for the big
    prompt ("Blast 2 was broken by the slide: ..."), or "" (docs/rules-notes.md)."""
    return " ".join(say("screen_broken_" + w.broken, n=w.number, first=w.first) for w in state.waiting if w.broken)


def _broken_note(surface: pygame.Surface, state: rules.State, rect: Rect) -> None:
    note = broken_note(state)
    if note and rect.height > 0:
        draw_wrapped(surface, note, rect, theme.SMALL, theme.WARN, bold=True, max_lines=max(1, rect.height // 24))


# ---------------------------------------------------------------- the final screen

def winner_line(result: rules.Result) -> str:
    if result.reason == "goal":
        return say("final_goal", who=result.winner)
    if result.reason == "solo-win":
        return say("final_solo_win", who=result.winner)
    return say("final_solo_loss")


def draw_final(surface: pygame.Surface, outcome: Result, info: TableInfo | None = None) -> list[Button]:
    """The winner, the Goal Card, then one row per player with the candies they kept."""
    layout.fit_to(surface, globals())
    result: rules.Result = outcome.detail
    draw_text(surface, winner_line(result), Rect(10, 8, W - 20, 64), theme.TITLE + 16, theme.HIGHLIGHT,
              bold=True, align="center")
    why = say("final_goal_card", goal=rules.GOALS[result.goal]["text"]) if result.goal else (
        say("final_solo", n_candies=count(rules.SOLO["win_kept_in_one_turn"], "candy")))
    draw_wrapped(surface, why, Rect(20, 74, W - 40, 56), theme.MEDIUM, theme.TEXT, max_lines=2)
    n = len(result.players)
    top, bottom, gap = 150, H - 56, 8
    h = min(90, (bottom - top - gap * (n - 1)) // n)
    for i, (name, kept) in enumerate(zip(result.players, result.kept)):
        row = Rect(12, top + i * (h + gap), W - 24, h)
        won = name == result.winner
        panel(surface, row, theme.PANEL, theme.HIGHLIGHT if won else None, width=4)
        draw_text(surface, name, Rect(row.left + 14, row.top, 148, h), theme.BIG, theme.HIGHLIGHT if won else theme.TEXT,
                  bold=True)
        x = row.left + 168
        for letter in rules.KINDS:
            k = kept.get(letter, 0)
            if k:
                candy(surface, (x + 22, row.centery), 20, letter)
                draw_text(surface, f"×{k}", Rect(x + 44, row.top, 42, h), theme.BIG, theme.TEXT, bold=True)
                x += 88
        total = sum(kept.values())
        draw_text(surface, str(total), Rect(row.right - 80, row.top, 66, h), theme.BIG + 12,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True, align="right")
    draw_text(surface, "kept", Rect(W - 100, top - 26, 74, 24), theme.SMALL, theme.TEXT_DIM, align="right")
    footer = say("final_turns", turns=count(result.turns, "turn"))
    chrome.footer(surface, footer, info, theme.TEXT_DIM, top=48)
    return []


class SugarBlastScreen(CoreScreen[rules.State]):
    """Sugar Blast's screen as the table's contract, :class:`companion.core.game.Screen` (rulebooks/sugar-blast.txt)."""

    draw_game = staticmethod(draw_game)
    draw_final = staticmethod(draw_final)
    gives_hints = True
    hint_words = staticmethod(hint_words)


#: The one SugarBlastScreen, which the descriptor's loader gives.
SCREEN = SugarBlastScreen()
