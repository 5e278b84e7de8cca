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
['palette R', 'palette O', 'palette Y']
>>> app.close()
"""

from __future__ import annotations

import math

import pygame

from companion.core.game import Result
from companion.ui import chrome, theme
from companion.ui.app import Button, TableInfo
from companion.ui.theme import FruitLook
from companion.ui.widgets import button, draw_text, draw_wrapped, panel

from . import GAME
from . import board as B
from . import flow, rules

Rect = pygame.Rect

W, H = 800, 480
TOP = Rect(0, 0, W, 44)
CELL = 66
BOARD = Rect(26, 52, CELL * B.COLS, CELL * B.ROWS)   # a margin all round for the seat marks
RIGHT = Rect(BOARD.right + 20, 52, W - BOARD.right - 28, H - 58)
HINT = (90, 240, 255)   # the hint's outline: bright cyan, unlike the yellow of a chosen candy

#: One look per candy letter: colour, letter and a shape that differs in outline (from
#: the game's descriptor).
CANDY_LOOKS: dict[str, FruitLook] = {letter: theme.look_from(spec) for letter, spec in GAME.look.items()}


def cell_rect(r: int, c: int) -> Rect:
    """Where cell (row, col) is drawn and tapped (tests sample these)."""
    return Rect(BOARD.left + c * CELL, BOARD.top + r * CELL, CELL, CELL)


def _corners(center: tuple[float, float], radius: float, sides: int, turn: float = -90.0,
             inner: float | None = None) -> list[tuple[float, float]]:
    cx, cy = center
    n = sides * 2 if inner else sides
    return [(cx + (inner if inner and i % 2 else radius) * math.cos(math.radians(turn + 360.0 * i / n)),
             cy + (inner if inner and i % 2 else radius) * math.sin(math.radians(turn + 360.0 * i / n)))
            for i in range(n)]


def candy(surface: pygame.Surface, center: tuple[int, int], radius: int, letter: str) -> None:
    """One candy: its shape in its colour, outlined dark, and its letter, the SAME size
    and weight on every shape (each shape is sized so its middle holds the letter: the
    star is a fat one, the triangle's letter sits low, in its widest part)."""
    look = CANDY_LOOKS[letter]
    cx, cy = center
    letter_y = cy
    shape = look.shape
    if shape == "circle":
        points = _corners(center, radius, 32)
    elif shape == "square":
        s = radius * 0.88
        points = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif shape == "triangle":
        r = radius * 1.25
        points = _corners((cx, cy + r * 0.22), r, 3)
        letter_y = cy + int(r * 0.34)
    elif shape == "diamond":
        points = _corners(center, radius * 1.08, 4)
    elif shape == "hexagon":
        points = _corners(center, radius * 1.05, 6, turn=0)
    else:  # star: a fat star, so the letter fits in its body like in the other shapes
        points = _corners((cx, cy + radius * 0.08), radius * 1.15, 5, inner=radius * 0.78)
    if shape == "square":
        pygame.draw.rect(surface, look.colour, pygame.Rect(cx - s, cy - s, 2 * s, 2 * s),
                         border_radius=max(2, radius // 5))
    else:
        pygame.draw.polygon(surface, look.colour, points)
        pygame.draw.polygon(surface, theme.dim(look.colour, 0.55), points, max(1, radius // 12))
    font = theme.font(max(14, int(radius * 1.75)), True)
    image = font.render(look.letter, True, theme.TEXT_DARK)
    surface.blit(image, image.get_rect(center=(cx, letter_y + max(1, radius // 12))))


# ---------------------------------------------------------------- the in-game screen

def draw_game(surface: pygame.Surface, state: rules.State, info: TableInfo) -> list[Button]:
    """Draw the whole in-game screen; returns its touch targets."""
    buttons = _top_bar(surface, state, info)
    _board(surface, state, info, buttons)
    if state.phase in (rules.TILT, rules.REFILL):
        _big_prompt(surface, state, info, buttons)
    else:
        _side(surface, state, info, buttons)
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


#: Quick mode's Blast kinds: (kind, button label, what it removes).
QUICK_KINDS = (("3", "3", "3 in a line"), ("4", "4", "a whole line"),
               ("5-6", "5-6", "all of a colour"), ("box", "Box", "T, L or +"))
#: The stepper's first count, and its range, for the Blasts whose size is entered.
QUICK_COUNTS = {"5-6": (6, 5, 12), "box": (9, 5, B.ROWS * B.COLS)}


def quick_pick(state: rules.State, info: TableInfo) -> tuple[str, int | None] | None:
    """The Blast kind (and count) chosen on the quick-mode pad, from ``info.menu``
    (``"quick KIND [N]"``), or None before a kind is tapped."""
    words = (info.menu or "").split()
    if len(words) < 2 or words[0] != "quick" or words[1] not in dict((k, 0) for k, _, _ in QUICK_KINDS):
        return None
    kind = words[1]
    if kind not in QUICK_COUNTS:
        return kind, None
    first, low, high = QUICK_COUNTS[kind]
    high = max(low, min(high, state.on_board_n))
    n = int(words[2]) if len(words) > 2 and words[2].isascii() and words[2].isdigit() else first
    return kind, max(low, min(high, n))


def _quick_pad(surface: pygame.Surface, state: rules.State, info: TableInfo, buttons: list[Button]) -> None:
    """Quick mode's Blast entry, on the board's place: the kind, then the colour (and for
    5-6 and Box how many candies it removed). The colour tap sends ``quick KIND X [N]``."""
    panel(surface, BOARD, theme.PANEL)
    area = BOARD.inflate(-16, -16)
    pick = quick_pick(state, info)
    head = Rect(area.left, area.top, area.width, 52)
    if pick is None:
        title = {rules.TURN: "Which Blast did you make?", rules.TILT: "Another Blast before tilting?",
                 rules.CASCADE: "A new Blast after the refill?"}[state.phase]
        draw_text(surface, title, head, theme.MEDIUM, theme.HIGHLIGHT, bold=True, align="center")
        for (kind, label, says), rect in zip(QUICK_KINDS, _grid(Rect(area.left, head.bottom + 6, area.width,
                                                                      area.bottom - head.bottom - 6), 4, 2)):
            panel(surface, rect, theme.BUTTON)
            draw_text(surface, label, Rect(rect.left, rect.top + 14, rect.width, rect.height * 0.55), theme.HUGE + 16,
                      theme.TEXT_DARK, bold=True, align="center")
            draw_text(surface, says, Rect(rect.left + 6, rect.bottom - 54, rect.width - 12, 40), theme.MEDIUM - 2,
                      theme.TEXT_DARK, bold=True, align="center")
            buttons.append(Button(rect, f"menu quick {kind}"))
        return
    kind, n = pick
    name = dict((k, label) for k, label, _ in QUICK_KINDS)[kind]
    back = Rect(head.right - 110, head.top, 110, head.height)
    buttons.append(Button(button(surface, back, "Back", theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "cancel"))
    draw_text(surface, f"{name}-Blast: which colour?", Rect(head.left, head.top, back.left - head.left - 8,
                                                            head.height), theme.MEDIUM, theme.HIGHLIGHT, bold=True)
    stepper = Rect(area.left, area.bottom - 84, area.width, 84) if n is not None else None
    pal = Rect(area.left, head.bottom + 8, area.width,
               (stepper.top - 10 if stepper else area.bottom) - head.bottom - 8)
    kinds = [k for k, left in zip(rules.KINDS, state.supply) if left]
    for k, rect in zip(kinds, _grid(pal, len(kinds), 2)):
        panel(surface, rect, theme.PANEL_LIGHT)
        candy(surface, rect.center, min(rect.width, rect.height) // 2 - 16, k)
        buttons.append(Button(rect, f"quick {kind} {k}" + (f" {n}" if n is not None else "")))
    if stepper is not None:
        first, low, high = QUICK_COUNTS[kind]
        high = max(low, min(high, state.on_board_n))
        minus, plus = Rect(stepper.left, stepper.top, 96, stepper.height), Rect(stepper.right - 96, stepper.top,
                                                                                96, stepper.height)
        for rect, label, to, ok in ((minus, "−", n - 1, n > low), (plus, "+", n + 1, n < high)):
            button(surface, rect, label, theme.BUTTON, size=theme.HUGE, enabled=ok)
            if ok:
                buttons.append(Button(rect, f"menu quick {kind} {to}"))
        middle = Rect(minus.right + 8, stepper.top, plus.left - minus.right - 16, stepper.height)
        panel(surface, middle, theme.BG)
        draw_text(surface, f"{n} removed", middle.inflate(-10, 0), theme.BIG, theme.TEXT, bold=True, align="center")


def _board(surface: pygame.Surface, state: rules.State, info: TableInfo, buttons: list[Button]) -> None:
    if state.quick and state.phase in (rules.TURN, rules.TILT, rules.CASCADE):
        return _quick_pad(surface, state, info, buttons)
    if state.quick:
        panel(surface, BOARD, theme.PANEL)
        draw_wrapped(surface, f"Quick mode: no board on screen. On the board: {state.on_board_n}, "
                              f"empty: {state.holes}.", BOARD.inflate(-40, -40), theme.BIG, theme.TEXT_DIM,
                     max_lines=4)
        return
    panel(surface, BOARD.inflate(8, 8), theme.PANEL, radius=theme.RADIUS)
    pending = state.pending[0] if state.phase == rules.KEEP and state.pending else None
    choosing = set().union(*(b.cells for b in state.pending)) if state.phase == rules.CHOOSE else set()
    draft = dict(state.draft)
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
                candy(surface, rect.center, 27, letter)
            elif (r, c) in draft:
                candy(surface, rect.center, 24, draft[(r, c)])
                pygame.draw.rect(surface, theme.WARN, rect, 3, border_radius=8)
            elif state.phase == rules.REFILL:
                pygame.draw.rect(surface, theme.WARN, rect, 3, border_radius=8)
            if removed:
                pygame.draw.rect(surface, theme.BAD, rect, 4, border_radius=8)
            if (r, c) in choosing or (pending is not None and (r, c) in pending.cells):
                pygame.draw.rect(surface, theme.HIGHLIGHT, rect, 4, border_radius=8)
            if state.selected == (r, c):
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
    if state.phase in (rules.TILT, rules.REFILL):
        _seat_edge(surface, state.seats[state.active])


def _seat_edge(surface: pygame.Surface, seat: int) -> None:
    """A bright bar with arrows on the board edge the candies slide toward."""
    edge = B.SEAT_EDGES[seat]
    outer = BOARD.inflate(8, 8)
    bars = {"bottom": Rect(outer.left, outer.bottom + 2, outer.width, 14),
            "top": Rect(outer.left, outer.top - 16, outer.width, 14),
            "left": Rect(outer.left - 16, outer.top, 14, outer.height),
            "right": Rect(outer.right + 2, outer.top, 14, outer.height)}
    bar = bars[edge].clip(surface.get_rect())
    pygame.draw.rect(surface, theme.HIGHLIGHT, bar, border_radius=6)
    for k in range(1, 6):  # chevrons pointing toward the edge, over the board
        f = k / 6
        if edge in ("bottom", "top"):
            x, y = outer.left + f * outer.width, outer.bottom - 10 if edge == "bottom" else outer.top + 10
            d = 1 if edge == "bottom" else -1
            points = [(x - 10, y - 10 * d), (x + 10, y - 10 * d), (x, y)]
        else:
            x, y = outer.right - 10 if edge == "right" else outer.left + 10, outer.top + f * outer.height
            d = 1 if edge == "right" else -1
            points = [(x - 10 * d, y - 10), (x - 10 * d, y + 10), (x, y)]
        pygame.draw.polygon(surface, theme.HIGHLIGHT, points)


def _players(surface: pygame.Surface, state: rules.State, top: int) -> int:
    """One row per player: name and kept candies; returns the bottom."""
    h, gap = 42, 4
    for i, who in enumerate(state.players):
        row = Rect(RIGHT.left, top + i * (h + gap), RIGHT.width, h)
        active = i == state.active and state.phase != rules.OVER
        panel(surface, row, theme.HIGHLIGHT if active else theme.PANEL)
        ink = theme.TEXT_DARK if active else theme.TEXT
        draw_text(surface, who, Rect(row.left + 8, row.top, 104, h), theme.MEDIUM - 2, ink, bold=True)
        _kept(surface, state.kept[i], Rect(row.left + 114, row.top, row.width - 120, h), ink)
    return top + len(state.players) * (h + gap)


def _kept(surface: pygame.Surface, kept: rules.Counts, rect: Rect, ink) -> None:
    x = rect.left
    if not sum(kept):
        draw_text(surface, "no candies yet", rect, theme.SMALL - 2, ink)
        return
    for letter, n in zip(rules.KINDS, kept):
        if n:
            candy(surface, (x + 14, rect.centery), 13, letter)
            draw_text(surface, f"{n}", Rect(x + 29, rect.top, 20, rect.height), theme.MEDIUM - 2, ink, bold=True)
            x += 52


def _side(surface: pygame.Surface, state: rules.State, info: TableInfo, buttons: list[Button]) -> None:
    y = _players(surface, state, RIGHT.top)
    if state.goal:
        draw_wrapped(surface, "Goal: " + rules.GOALS[state.goal]["text"], Rect(RIGHT.left, y, RIGHT.width, 44),
                     theme.SMALL - 2, theme.TEXT_DIM, max_lines=2)
        y += 46
    actions = _action_rects(state)
    bottom = actions.top - 4
    _verdict(surface, info, Rect(RIGHT.left, y, RIGHT.width, (bottom - y) // 2))
    said = info.prompt or flow.prompt(state)
    if _hinting(state, info):
        said = hint_text(state)
    draw_wrapped(surface, said, Rect(RIGHT.left, y + (bottom - y) // 2, RIGHT.width,
                                                                  (bottom - y) // 2), theme.MEDIUM, theme.HIGHLIGHT,
                 max_lines=3)
    buttons.extend(_actions(surface, state, actions))


def hint_text(state: rules.State) -> str:
    if hint_cells(state) is None:
        return "No Blasts possible: tap No Blasts?" if not rules.can_draw(state) else (
            "No Blasts possible: take 1 candy from the bag, tap its colour, then the candy it replaces.")
    return "Hint: swap the two candies in the bright blue frames."


def _verdict(surface: pygame.Surface, info: TableInfo, rect: Rect) -> None:
    chrome.verdict(surface, rect, info, theme.MEDIUM - 2, max_lines=3)


def _action_rects(state: rules.State) -> Rect:
    rows = 2 if state.phase in (rules.SETUP, rules.CHOOSE, rules.KEEP, rules.RETURN) else 1
    h = rows * 62
    return Rect(RIGHT.left, RIGHT.bottom - h, RIGHT.width, h)


def _grid(area: Rect, n: int, rows: int) -> list[Rect]:
    per_row = max(1, -(-n // rows))
    gap = 6
    w = (area.width - gap * (per_row - 1)) // per_row
    h = (area.height - gap * (rows - 1)) // rows
    return [Rect(area.left + (i % per_row) * (w + gap), area.top + (i // per_row) * (h + gap), w, h) for i in range(n)]


def _palette(surface: pygame.Surface, state: rules.State, area: Rect, extra: list[tuple[str, str]],
             rows: int) -> list[Button]:
    kinds = [k for k, n in zip(rules.KINDS, state.supply) if n]
    out = []
    rects = _grid(area, len(kinds) + len(extra), rows)
    for k, rect in zip(kinds, rects):
        chosen = state.palette == k
        panel(surface, rect, theme.PANEL_LIGHT, theme.HIGHLIGHT if chosen else None, width=5)
        candy(surface, rect.center, min(rect.height, rect.width) // 2 - 8, k)
        out.append(Button(rect, f"palette {k}"))
    for (label, command), rect in zip(extra, rects[len(kinds):]):
        fill = theme.OK if command == "start" else theme.BUTTON
        if command == "palette .":
            fill = theme.HIGHLIGHT if state.palette == B.EMPTY else theme.PANEL_LIGHT
        out.append(Button(button(surface, rect, label, fill, theme.TEXT_DARK if fill != theme.PANEL_LIGHT
                                 else theme.TEXT, size=theme.MEDIUM), command))
    return out


def _actions(surface: pygame.Surface, state: rules.State, area: Rect) -> list[Button]:
    phase = state.phase
    if phase == rules.SETUP:
        if state.quick:
            return [Button(button(surface, area, "Start", theme.OK), "start")]
        return _palette(surface, state, area, [("Clear", "palette ."), ("Start", "start")], 2)
    if phase == rules.TURN and not state.quick:
        if B.no_blasts(state.board) and rules.can_draw(state):
            return _palette(surface, state, area, [], 1)
        hint, no = Rect(area.left, area.top, area.width * 2 // 5 - 3, area.height), \
            Rect(area.left + area.width * 2 // 5 + 3, area.top, area.width - area.width * 2 // 5 - 3, area.height)
        return [Button(button(surface, hint, "Hint", theme.PANEL_LIGHT, theme.TEXT), "hint"),
                Button(button(surface, no, "No Blasts?", theme.BUTTON), "no-blasts")]
    if phase in (rules.TURN, rules.CASCADE):  # quick mode: the Blasts are entered on the pad
        return [Button(button(surface, area, "No more Blasts", theme.BUTTON), "done")]
    if phase == rules.CHOOSE:
        out = []
        for i, (blast, rect) in enumerate(zip(state.pending, _grid(area, len(state.pending), 2))):
            panel(surface, rect, theme.BUTTON)
            candy(surface, (rect.left + 26, rect.centery), 18, blast.candy)
            name = {"3": "3-Blast", "4": "4-Blast", "5-6": "5-6-Blast", "box": "Box-Blast"}[blast.kind]
            draw_text(surface, f"{i + 1}: {name}", Rect(rect.left + 50, rect.top, rect.width - 54, rect.height),
                      theme.MEDIUM, theme.TEXT_DARK, bold=True)
            out.append(Button(rect, f"blast {i + 1}"))
        return out
    if phase == rules.KEEP:
        options = flow.keep_options(state)
        return _candy_choices(surface, area, [(o, "keep " + " ".join(o)) for o in options], "Keep")
    if phase == rules.RETURN:
        p, options = flow.return_options(state)
        return _candy_choices(surface, area, [(o, f"return {p + 1} " + " ".join(o)) for o in options[:8]],
                              state.players[p])
    return []


def _candy_choices(surface: pygame.Surface, area: Rect, choices, label: str) -> list[Button]:
    out = []
    for (letters, command), rect in zip(choices, _grid(area, len(choices), 2 if len(choices) > 2 else 1)):
        panel(surface, rect, theme.BUTTON)
        x = rect.left + 8
        if len(choices) <= 2:
            x = draw_text(surface, label, Rect(x, rect.top, 80, rect.height), theme.MEDIUM, theme.TEXT_DARK,
                          bold=True).right + 8
        for letter in letters:
            candy(surface, (x + 18, rect.centery), 17, letter)
            x += 40
        out.append(Button(rect, command))
    return out


def _big_prompt(surface: pygame.Surface, state: rules.State, info: TableInfo, buttons: list[Button]) -> None:
    """The tilt and refill prompt, large enough to read across the table."""
    who = state.players[state.active]
    edge = B.SEAT_EDGES[state.seats[state.active]]
    area = RIGHT
    if state.phase == rules.TILT:
        panel(surface, area, theme.PANEL, theme.HIGHLIGHT, width=4)
        text = "Now let go" if state.tilt_seen is not None else "Tilt the board toward you"
        draw_text(surface, who, Rect(area.left + 12, area.top + 10, area.width - 24, 60), theme.HUGE,
                  theme.HIGHLIGHT, bold=True, align="center")
        draw_wrapped(surface, text, Rect(area.left + 16, area.top + 80, area.width - 32, 170), theme.HUGE,
                     theme.TEXT, bold=True, max_lines=3)
        draw_wrapped(surface, f"The candies slide to the {edge} of the board.",
                     Rect(area.left + 16, area.top + 260, area.width - 32, 70), theme.MEDIUM, theme.TEXT_DIM,
                     max_lines=2)
        if info.verdict and info.verdict_ok is False:
            _verdict(surface, info, Rect(area.left + 8, area.bottom - 90, area.width - 16, 82))
        return
    left = state.holes - len(state.draft)
    panel(surface, area, theme.PANEL, theme.HIGHLIGHT, width=4)
    draw_text(surface, f"Fill {left}", Rect(area.left + 10, area.top + 6, area.width - 20, 96), 120,
              theme.HIGHLIGHT, bold=True, align="center")
    words = f"space{'s' * (left != 1)} from the bag, bottom to top"
    draw_wrapped(surface, words, Rect(area.left + 14, area.top + 100, area.width - 28, 84), theme.BIG + 4,
                 theme.TEXT, bold=True, max_lines=2)
    draw_text(surface, f"Bag: {state.bag_n}   slid to the {edge}", Rect(area.left + 14, area.top + 186,
                                                                          area.width - 28, 36),
              theme.MEDIUM, theme.TEXT_DIM, align="center")
    if state.bag_n < state.holes:
        draw_wrapped(surface, f"Bag short: then use {state.holes - state.bag_n} discarded candies.",
                     Rect(area.left + 14, area.top + 220, area.width - 28, 40), theme.SMALL, theme.WARN, bold=True)
    if info.verdict and info.verdict_ok is False:
        _verdict(surface, info, Rect(area.left + 8, area.top + 262, area.width - 16, 64))
    pal = Rect(area.left + 8, area.bottom - 132, area.width - 16, 124)
    if state.quick:
        buttons.append(Button(button(surface, pal, "Done", theme.OK), "done"))
    else:
        buttons.extend(_palette(surface, state, pal, [], 2))


# ---------------------------------------------------------------- the final screen

def winner_line(result: rules.Result) -> str:
    if result.reason == "goal":
        return f"{result.winner} wins!"
    if result.reason == "solo-win":
        return f"{result.winner} wins the solo challenge!"
    return "Out of candies: try again!"


def draw_final(surface: pygame.Surface, outcome: Result, info: TableInfo | None = None) -> list[Button]:
    """The winner, the Goal Card, then one row per player with the candies they kept."""
    result: rules.Result = outcome.detail
    draw_text(surface, winner_line(result), Rect(10, 8, W - 20, 64), theme.TITLE + 16, theme.HIGHLIGHT,
              bold=True, align="center")
    why = ("Goal Card: " + rules.GOALS[result.goal]["text"]) if result.goal else (
        f"Solo: {rules.SOLO['win_kept_in_one_turn']} candies in one turn")
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
                draw_text(surface, f"×{k}", Rect(x + 44, row.top, 36, h), theme.BIG - 4, theme.TEXT, bold=True)
                x += 80
        total = sum(kept.values())
        draw_text(surface, str(total), Rect(row.right - 80, row.top, 66, h), theme.BIG + 12,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True, align="right")
    draw_text(surface, "kept", Rect(W - 100, top - 26, 74, 24), theme.SMALL, theme.TEXT_DIM, align="right")
    footer = f"{result.turns} turn{'s' * (result.turns != 1)}"
    draw_text(surface, footer, Rect(10, H - 48, W - 20, 40), theme.MEDIUM, theme.TEXT_DIM, align="center")
    return []
