"""The Sugarrr! scoreboard: the in-game screen and the final score sheet (800x480).

In game, from top to bottom: a bar with the turn, the Fruit Deck count (tap to correct
it), the Final Round banner and the devices; the players with live scores beside the
five columns (tap one to choose it); The Valley's Fruit-O-Saurs; the last verdict, the
prompt, the turn timer and the action buttons. Menus (Swap, Fruit Deck) cover it all.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> from . import flow, rules
>>> app = App()
>>> s = rules.new_game(["Ana", "Ben"])
>>> for c in ["SRP21", "SRS31", "SRG51", "SRA61", "SRB81"]:
...     s, _ = rules.step(s, rules.StartColumn(rules.card_code(c)))
>>> app.show(lambda surface: draw_game(surface, s, TableInfo(prompt="Ana: scan a card")))
>>> sorted(b.command for b in app.buttons)[:3]
['column 1', 'column 2', 'column 3']
>>> app.close()
"""

from __future__ import annotations

import pygame

from companion.core.game import Screen as CoreScreen
from companion.core.game import Result
from companion.ui import chrome, portrait, theme
from companion.ui.app import Button, TableInfo
from companion.ui.widgets import (button, card_chip, draw_text, draw_wrapped,
                                  fruit_badge, panel)

from . import flow, rules
from .messages import count, say
from .parts.cards import CARDS, FRUITS

Rect = pygame.Rect

def look_for(fruit: str | None) -> theme.FruitLook:
    """How a fruit is drawn (from the game's descriptor); None is Fruit Salad."""
    from . import GAME

    spec = GAME.look.get(fruit)
    return theme.look_from(spec) if spec else theme.UNKNOWN_LOOK


# ---------------------------------------------------------------- layout (800x480)

W, H = 800, 480
TOP = Rect(0, 0, W, 48)
PLAYERS = Rect(8, 54, 192, 252)
COLUMNS = Rect(208, 54, 584, 162)
VALLEY = Rect(208, 222, 584, 84)
VALLEY_LABEL_W = 66  # "The Valley" on two lines at its left
VERDICT = Rect(8, 312, 564, 76)
PROMPT = Rect(8, 394, 564, 80)
TIMER = Rect(580, 312, 212, 56)
ACTIONS = Rect(580, 376, 212, 98)
ROW_MOST = 80         # the tallest a final score sheet's row gets
VERDICT_SIZE = theme.BIG
PROMPT_SIZE = theme.BIG - 4

LANDSCAPE = dict(W=W, H=H, TOP=TOP, PLAYERS=PLAYERS, COLUMNS=COLUMNS, VALLEY=VALLEY, VERDICT=VERDICT,
                 PROMPT=PROMPT, TIMER=TIMER, ACTIONS=ACTIONS, ROW_MOST=ROW_MOST, VERDICT_SIZE=VERDICT_SIZE,
                 PROMPT_SIZE=theme.BIG - 4)
#: Upright (800x1422): the columns on top, the players and The Valley under them, then
#: the verdict and prompt across the screen, the turn clock and big action buttons.
UPRIGHT = dict(W=800, H=1422, TOP=Rect(0, 0, 800, 56), COLUMNS=Rect(8, 68, 784, 300),
               PLAYERS=Rect(8, 380, 784, 250), VALLEY=Rect(8, 642, 784, 92), VERDICT=Rect(8, 750, 784, 170),
               PROMPT=Rect(8, 926, 784, 200), TIMER=Rect(8, 1134, 784, 72), ACTIONS=Rect(8, 1214, 784, 200),
               ROW_MOST=230, VERDICT_SIZE=portrait.VERDICT, PROMPT_SIZE=theme.BIG + 4)


def fit_to(surface: pygame.Surface) -> bool:
    """Lay the screen out for ``surface``: :data:`UPRIGHT` when it is taller than wide,
    else :data:`LANDSCAPE` (:func:`companion.ui.portrait.use`). True when upright."""
    return portrait.use(globals(), surface, LANDSCAPE, UPRIGHT)


def player_rows(n: int) -> list[Rect]:
    """Where each of ``n`` players' rows is drawn, in seat order (tests sample these)."""
    gap = 6
    h = min(80, (PLAYERS.height - gap * (n - 1)) // n)
    return [Rect(PLAYERS.left, PLAYERS.top + i * (h + gap), PLAYERS.width, h) for i in range(n)]


def column_rects() -> list[Rect]:
    """The five column buttons, left to right."""
    gap = 8
    w = (COLUMNS.width - gap * (rules.COLUMNS - 1)) // rules.COLUMNS
    return [Rect(COLUMNS.left + i * (w + gap), COLUMNS.top, w, COLUMNS.height) for i in range(rules.COLUMNS)]


# ---------------------------------------------------------------- the in-game screen

def draw_game(surface: pygame.Surface, state: rules.State, info: TableInfo) -> list[Button]:
    """Draw the whole in-game screen; returns its touch targets."""
    fit_to(surface)
    low = state.deck <= 5
    pills = [chrome.Pill(f"Deck {state.deck}", 140, low, "deck")]
    if state.final_round:
        pills.append(chrome.Pill("FINAL ROUND", 170, True))
    buttons = chrome.top_bar(surface, TOP, info, state.turn, pills, clock_below=True)
    _players(surface, state)
    _columns(surface, state, buttons, info.entry)
    _valley(surface, state)
    _verdict(surface, state, info)
    _actions(surface, state, buttons)
    if info.menu == "swap":
        return _swap_menu(surface, state)
    if info.menu == "deck":
        return _deck_menu(surface, state.deck if info.deck_draft is None else info.deck_draft, state)
    return buttons


def _players(surface: pygame.Surface, state: rules.State) -> None:
    for i, (who, row) in enumerate(zip(state.players, player_rows(len(state.players)))):
        active = i == state.active and state.phase != rules.OVER
        ink = theme.TEXT_DARK if active else theme.TEXT
        panel(surface, row, theme.HIGHLIGHT if active else theme.PANEL)
        sheet = rules.score_pile(who, state.piles[i])
        score = draw_text(surface, str(sheet.total), Rect(row.right - 84, row.top, 74, row.height),
                          theme.BIG + 4, ink, bold=True, align="right")
        half = row.height // 2
        text_w = score.left - row.left - 18
        draw_text(surface, who, Rect(row.left + 10, row.top + 2, text_w, half), theme.MEDIUM, ink, bold=True)
        saurs = say("screen_saurs", saurs=count(sheet.saur_cards, "saur"))
        draw_text(surface, saurs, Rect(row.left + 10, row.top + half, text_w, half - 2),
                  theme.SMALL, theme.TEXT_DARK if active else theme.TEXT_DIM)


#: Where a fruit's name may be cut onto two lines (a soft hyphen), so that a long name
#: keeps the size of the short ones in a narrow column instead of shrinking.
BREAKS = {"Blueberries": "Blue\u00adberries", "Strawberry": "Straw\u00adberry", "Pineapple": "Pine\u00adapple",
          "Apricots": "Apri\u00adcots"}


def breakable(name: str) -> str:
    """``name`` with soft hyphens where a fruit's name may be cut (:data:`BREAKS`)."""
    for word, cut in BREAKS.items():
        name = name.replace(word, cut)
    return name


def _columns(surface: pygame.Surface, state: rules.State, buttons: list[Button], entry=None) -> None:
    # A card waiting for its column: a tap on a column it fits plays it there ("place N").
    waiting = entry.card if entry is not None and state.phase == rules.TURN else None
    fits = set(rules.legal_columns(state, waiting)) if waiting else set()
    for i, (col, rect) in enumerate(zip(state.columns, column_rects())):
        chosen = state.chosen == i and state.phase in (rules.TURN, rules.PLAYING)
        if chosen:
            panel(surface, rect.inflate(8, 8), theme.HIGHLIGHT, radius=theme.RADIUS + 4)
        elif i in fits:  # a column the waiting card may go on: outlined, one tap plays it there
            panel(surface, rect.inflate(8, 8), theme.BG, theme.HIGHLIGHT, width=3, radius=theme.RADIUS + 4)
        head = Rect(rect.left, rect.top, rect.width, 26)
        panel(surface, rect, theme.PANEL_LIGHT if chosen else theme.BG)
        head_ink = theme.TEXT_DIM if not chosen else theme.HIGHLIGHT
        number = Rect(head.left + 4, head.top, 18, head.height)
        draw_text(surface, str(i + 1), number, theme.MEDIUM, head_ink, bold=True)
        if col:
            size_ink = theme.WARN if len(col) >= rules.COLUMN_LIMIT - 2 else theme.TEXT
            draw_text(surface, say("screen_column_size", cards=count(len(col), "card")),
                      Rect(number.right + 4, head.top, head.right - number.right - 8, head.height),
                      theme.SMALL, size_ink, align="right")
            top = CARDS[col[-1]]
            card_chip(surface, Rect(rect.left, head.bottom, rect.width, rect.bottom - head.bottom),
                      breakable(top.name), top.number, look_for(top.fruit))
        else:
            body = Rect(rect.left, head.bottom, rect.width, rect.bottom - head.bottom)
            waiting = i in state.pending
            panel(surface, body, theme.BG, theme.WARN if waiting else theme.LINE)
            draw_wrapped(surface, say("screen_scan_new") if waiting else say("screen_empty"), body.inflate(-16, -16),
                         theme.MEDIUM, theme.WARN if waiting else theme.TEXT_DIM, bold=waiting)
        buttons.append(Button(rect, f"place {i + 1}" if i in fits else f"column {i + 1}"))


def _valley(surface: pygame.Surface, state: rules.State) -> None:
    """The Valley, named at its left: each Fruit-O-Saur's values 1-5, the ones already
    taken greyed."""
    there = {(CARDS[c].fruit, CARDS[c].value) for c in state.valley}
    label = Rect(VALLEY.left, VALLEY.top, VALLEY_LABEL_W, VALLEY.height)
    draw_wrapped(surface, say("screen_valley"), label, theme.SMALL, theme.TEXT_DIM, bold=True, max_lines=2,
                 align="center")
    gap, h, per_row = 8, 38, 3
    left = label.right + gap
    w = (VALLEY.right - left - gap * (per_row - 1)) // per_row
    for k, fruit in enumerate(FRUITS):
        box = Rect(left + (k % per_row) * (w + gap), VALLEY.top + (k // per_row) * (h + gap + 0), w, h)
        look = look_for(fruit)
        panel(surface, box, theme.PANEL)
        fruit_badge(surface, (box.left + 18, box.centery), 14, look)
        cell = (box.width - 38) // 5
        for v in range(1, 6):
            r = Rect(box.left + 36 + (v - 1) * cell, box.top + 4, cell - 3, box.height - 8)
            if (fruit, v) in there:
                panel(surface, r, theme.dim(look.colour, 0.45), radius=6)
                draw_text(surface, str(v), r, theme.MEDIUM + 2, theme.TEXT, bold=True, align="center")
            else:
                panel(surface, r, theme.BG, theme.GONE, width=2, radius=6)
                draw_text(surface, str(v), r, theme.MEDIUM - 2, theme.GONE, align="center")


def _verdict(surface: pygame.Surface, state: rules.State, info: TableInfo) -> None:
    prompt = info.prompt or default_prompt(state, info.entry)
    # A long refusal ("does not go on any column: ... (five top cards)") keeps 26 px, read
    # across the table, and takes the prompt's room until the next verdict: what the card
    # needs is in the refusal, and Swap is the big button beside it.
    chrome.verdict_and_prompt(surface, VERDICT.union(PROMPT), info, prompt, VERDICT.height, size=VERDICT_SIZE,
                              prompt_size=PROMPT_SIZE, least=theme.VERDICT_MIN)
    chrome.turn_clock(surface, TIMER, info)


def default_prompt(state: rules.State, entry=None) -> str:
    """What to do now, when the session has no better words (the flow's prompt)."""
    return flow.prompt(state, entry)


def _actions(surface: pygame.Surface, state: rules.State, buttons: list[Button]) -> None:
    if state.phase == rules.TURN:
        labels = [("Swap", "swap")] + ([("Pass", "pass")] if state.final_left is not None else [])
    elif state.phase in (rules.PLAYING, rules.HAND):
        labels = [("Done", "done")]
    else:
        return
    gap = 8
    w = (ACTIONS.width - gap * (len(labels) - 1)) // len(labels)
    for i, (label, command) in enumerate(labels):
        rect = Rect(ACTIONS.left + i * (w + gap), ACTIONS.top, w, ACTIONS.height)
        fill = theme.OK if command == "done" else theme.BUTTON
        buttons.append(Button(button(surface, rect, label, fill), command))


# ---------------------------------------------------------------- menus

def _swap_menu(surface: pygame.Surface, state: rules.State) -> list[Button]:
    """Swap 1-5 cards with the Market Row (counts above the Market Row are greyed)."""
    box = chrome.menu_panel(surface, say("screen_swap_how_many"))
    buttons = []
    size, gap = 100, 12
    left = box.centerx - (5 * size + 4 * gap) // 2
    for n in range(1, rules.HAND_SIZE + 1):
        rect = Rect(left + (n - 1) * (size + gap), box.top + 110, size, size)
        ok = n <= state.market
        button(surface, rect, str(n), theme.BUTTON, size=theme.HUGE, enabled=ok)
        if ok:
            buttons.append(Button(rect, f"swap {n}"))
    buttons.append(chrome.cancel_button(surface, Rect(box.centerx - 120, box.bottom - 110, 240, 86)))
    return buttons


def _deck_menu(surface: pygame.Surface, count: int, state: rules.State) -> list[Button]:
    """Correct the Fruit Deck count: -5 -1 [count] +1 +5, then OK or Cancel."""
    return chrome.count_menu(surface, say("screen_deck_menu"), count, rules.deck_most(state))


# ---------------------------------------------------------------- the final screen

def winner_line(result: Result) -> str:
    """ "Ana is the Win-O-Saur!" or "Ana and Ben are Win-O-Saurs!" (rulebook, "Scoring")."""
    return result.headline or result.winner_line()


def tie_line(result: Result) -> str:
    """Why a tie ended the way it did, or "" when points alone decided."""
    if result.tie_break is None:
        return ""
    if result.tie_break == "shared":
        return say("screen_shared")
    return say("screen_decided_by", tie_break=result.tie_break)


def draw_final(surface: pygame.Surface, result: Result, info: TableInfo | None = None) -> list[Button]:
    """The score sheet: the winners, the tie-break, then one row per player with each
    fruit as ``cards × per card`` over its points, Fruit Salad and the total."""
    fit_to(surface)
    draw_text(surface, winner_line(result), Rect(10, 6, W - 20, 58), theme.TITLE + 12, theme.HIGHLIGHT,
              bold=True, align="center")
    tie = tie_line(result)
    if tie:
        draw_text(surface, tie, Rect(10, 62, W - 20, 30), theme.MEDIUM, theme.TEXT, align="center")
    name_w, fruit_w, salad_w = 124, 86, 64  # fruit columns wide enough for "Blueberries" at 20
    xs = [8 + name_w + k * fruit_w for k in range(len(FRUITS))]
    salad_x = xs[-1] + fruit_w
    total_x = salad_x + salad_w
    total_w = W - 8 - total_x
    head = Rect(8, 92 if tie else 66, W - 16, 74)
    # Badge and name: the letter alone would leave a family guessing which fruit R is.
    for k, fruit in enumerate(FRUITS + ("Salad",)):
        x, w = (xs[k], fruit_w) if k < len(FRUITS) else (salad_x, salad_w)
        look = look_for(fruit) if k < len(FRUITS) else look_for(None)
        fruit_badge(surface, (x + w // 2, head.top + 13), 13, look)
        # One size for the whole row: a long name takes two lines instead of shrinking.
        draw_wrapped(surface, breakable(fruit), Rect(x + 2, head.top + 28, w - 4, 46), theme.MIN_SIZE,
                     look.colour, max_lines=2, min_size=theme.MIN_SIZE, align="center")
    draw_text(surface, "Total", Rect(total_x, head.top, total_w - 6, head.height), theme.SMALL, theme.TEXT,
              bold=True, align="right")
    # The legend of every fruit cell ("7 × 6" over "42"), where the names column has room.
    draw_wrapped(surface, say("screen_final_legend"), Rect(12, head.top, name_w - 12, head.height), theme.MIN_SIZE,
                 theme.TEXT_DIM, max_lines=3, min_size=theme.MIN_SIZE)
    n = len(result.players)
    bottom = H - 50 if info and (info.prompt or info.verdict) else H - 8
    gap = 6
    row_h = min(ROW_MOST, (bottom - head.bottom - 4 - gap * (n - 1)) // n)
    for i, sheet in enumerate(p.sheet for p in result.players):
        row = Rect(8, head.bottom + 4 + i * (row_h + gap), W - 16, row_h)
        won = sheet.name in result.winners
        panel(surface, row, theme.PANEL, theme.HIGHLIGHT if won else None, width=4)
        half = row.height // 2
        draw_text(surface, sheet.name, Rect(row.left + 12, row.top + 4, name_w - 16, half - 2), theme.MEDIUM,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True)
        saurs = say("screen_saurs", saurs=count(sheet.saur_cards, "saur"))
        draw_text(surface, saurs, Rect(row.left + 12, row.top + half, name_w - 16, half - 4), theme.SMALL,
                  theme.TEXT_DIM)
        for k, f in enumerate(sheet.fruits):
            _fruit_cell(surface, Rect(xs[k], row.top, fruit_w, row.height), f)
        salad = Rect(salad_x, row.top, salad_w, row.height)
        draw_text(surface, str(sheet.salads), salad, theme.BIG, theme.TEXT if sheet.salads else theme.GONE,
                  bold=True, align="center")
        draw_text(surface, str(sheet.total), Rect(total_x, row.top, total_w - 10, row.height), theme.BIG + 12,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True, align="right")
    if info and (info.prompt or info.verdict):
        chrome.footer(surface, info.prompt or info.verdict, info)
    return []


def _fruit_cell(surface: pygame.Surface, rect: Rect, f: rules.FruitScore) -> None:
    """``6 × 9`` small over ``54`` big, the same for every fruit (``0 × 0`` over a grey
    ``0`` when it has no cards), so every row reads the same way."""
    half = rect.height // 2
    draw_text(surface, f"{f.cards} × {f.per_card}", Rect(rect.left, rect.top + 4, rect.width, half - 4),
              theme.SMALL + 2, theme.TEXT, align="center")
    ink = look_for(f.fruit).colour if f.points else theme.GONE
    draw_text(surface, str(f.points), Rect(rect.left, rect.top + half, rect.width, half - 4), theme.BIG,
              ink, bold=True, align="center")


class SugarrrScreen(CoreScreen[rules.State]):
    """Sugarrr!'s screen as the table's contract, :class:`companion.core.game.Screen` (rulebooks/sugarrr.txt)."""

    draw_game = staticmethod(draw_game)
    draw_final = staticmethod(draw_final)


#: The one SugarrrScreen, which the descriptor's loader gives.
SCREEN = SugarrrScreen()
