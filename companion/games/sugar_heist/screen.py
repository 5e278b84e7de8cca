"""The Sugar Heist vault board, the heist duel and the final count (800x480).

In game: the shared top bar (turn, the Candy and Battle Draw Piles, the last turn); one
row per player with their hand size, their face-down Battle Card count (never the
cards), Mom / skip markers and every vault (flavour, count / lock number, a padlock when
locked); a strip with what lies face up on the table; the verdict, the prompt, the turn
clock and the buttons of this step. A heist or Crib Fight replaces the board with the
duel; choosing a target or a flavour opens a menu of big buttons.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> from . import rules
>>> app = App()
>>> s = rules.new_game(["Zach", "Pam", "Alex"])
>>> app.show(lambda surface: draw_game(surface, rules.public_view(s), TableInfo(prompt="Zach: stash a pair")))
>>> sorted(b.command for b in app.buttons)
['cant', 'deck', 'vault 1', 'vault 2']
>>> app.close()
"""

from __future__ import annotations

import pygame

from companion.core.game import Screen as CoreScreen
from companion.core.game import Result
from companion.ui import chrome, portrait, theme
from companion.ui.app import Button, TableInfo
from companion.ui.messages import text
from companion.ui.widgets import button, draw_text, draw_wrapped, fruit_badge, panel, width_of, wrap

from .parts import battle as B
from .parts.cards import CANDY_CODES, CARDS, FLAVOURS, PURE_SUGAR
from .state import BUY, DISCARD, FINAL, OVER, STASH, SWAP, State, Vault
from .messages import count, say

Rect = pygame.Rect

W, H = 800, 480
TOP = Rect(0, 0, W, 48)
BOARD = Rect(8, 54, 784, 234)      # 4 rows of 54: vault chips stay 48 px tall to tap
CENTER = Rect(8, 292, 784, 32)
VERDICT = Rect(8, 330, 564, 70)
PROMPT = Rect(8, 402, 564, 72)
TIMER = Rect(580, 326, 212, 42)
ACTIONS = Rect(580, 370, 212, 104)
NAME_W = 180
ROW_MOST, FINAL_ROW_MOST = 80, 88   # the tallest a player's row gets in play and on the count
VERDICT_SIZE = PROMPT_SIZE = theme.MEDIUM + 4
ACTIONS_MOST = 340  # the widest the button column grows (for "Join Maya" side by side)
LANDSCAPE = dict(W=W, H=H, TOP=TOP, BOARD=BOARD, CENTER=CENTER, VERDICT=VERDICT, PROMPT=PROMPT, TIMER=TIMER,
                 ACTIONS=ACTIONS, ROW_MOST=ROW_MOST, FINAL_ROW_MOST=FINAL_ROW_MOST, VERDICT_SIZE=VERDICT_SIZE,
                 PROMPT_SIZE=PROMPT_SIZE, ACTIONS_MOST=ACTIONS_MOST)
#: Upright (800x1422): the vaults on top with taller rows, the centre strip, then the
#: verdict and prompt across the screen, the turn clock and the buttons at the foot.
UPRIGHT = dict(W=800, H=1422, TOP=Rect(0, 0, 800, 56), BOARD=Rect(8, 68, 784, 590), CENTER=Rect(8, 666, 784, 40),
               VERDICT=Rect(8, 718, 784, 190), PROMPT=Rect(8, 914, 784, 200), TIMER=Rect(8, 1122, 784, 64),
               ACTIONS=Rect(8, 1194, 784, 220), ROW_MOST=160, FINAL_ROW_MOST=130, VERDICT_SIZE=portrait.VERDICT,
               PROMPT_SIZE=theme.BIG + 4, ACTIONS_MOST=784)


def fit_to(surface: pygame.Surface) -> bool:
    """Lay the screen out for ``surface``: :data:`UPRIGHT` when it is taller than wide,
    else :data:`LANDSCAPE` (:func:`companion.ui.portrait.use`). True when upright."""
    return portrait.use(globals(), surface, LANDSCAPE, UPRIGHT)

#: Short flavour names for the vault chips (the full names are on the final screen).
SHORT = {"Nutty Butt": "Nutty", "Chocolate Rockets": "Choc", "Lucky Suckys": "Lucky", "Fruity Booty": "Fruity",
         "Gummy Grubs": "Gummy", "Sour Bombs": "Sour", PURE_SUGAR: "Sugar"}


def look_for(flavour: str | None) -> theme.FruitLook:
    from . import GAME

    spec = GAME.look.get(flavour)
    return theme.look_from(spec) if spec else theme.UNKNOWN_LOOK


ROW_MIN = 54  # a player's row: its vault chips stay 48 px tall to tap


def player_rows(n: int, board: Rect = BOARD) -> list[Rect]:
    gap = 6
    h = min(ROW_MOST, (board.height - gap * (n - 1)) // n)
    return [Rect(board.left, board.top + i * (h + gap), board.width, h) for i in range(n)]


def lift(n: int, need: int) -> int:
    """How many px the centre strip, verdict and prompt move up into the board so
    ``need`` px of verdict and prompt fit (the board gives what its ``n`` rows of at
    least :data:`ROW_MIN` px spare, no more)."""
    spare = BOARD.height - (n * ROW_MIN + 6 * (n - 1))
    return max(0, min(spare, need - VERDICT.union(PROMPT).height))


def name_width(state: State) -> int:
    """How wide the names' column is: :data:`NAME_W`, wider for a long name when every
    row keeps its vault chips at least 90 px wide."""
    font = theme.font(theme.MIN_SIZE, True)
    both = " ".join((say("flag_mom"), say("flag_skip")))
    flags = width_of(font, both) + 8 if state.protected or any(state.skips) else 0
    need = max(width_of(font, who) for who in state.players) + 16 + flags
    most = max((len(v) for v in state.vaults), default=0)
    room = BOARD.width - 10 - most * 96
    return max(NAME_W, min(need, room))


def vault_rects(row: Rect, n: int, name_w: int = NAME_W) -> list[Rect]:
    """Where a player's ``n`` vault chips go in their row (after a names column
    ``name_w`` px wide)."""
    left = row.left + name_w + 6
    space = row.right - 4 - left
    gap = 6
    w = min(118, (space - gap * (max(n, 1) - 1)) // max(n, 1))
    return [Rect(left + i * (w + gap), row.top + 3, w, row.height - 6) for i in range(n)]


# ---------------------------------------------------------------- the in-game screen

def draw_game(surface: pygame.Surface, state: State, info: TableInfo) -> list[Button]:
    """Draw the whole in-game screen from the table's view; returns its touch targets."""
    fit_to(surface)
    pills = [chrome.Pill(say("pill_candy", cards=state.draw), 124, state.draw <= 6 and state.reshuffled,
                         None if state.final or state.over else "deck"),
             chrome.Pill(say("pill_battle", cards=state.battle_draw), 124)]
    if state.final:
        pills.append(chrome.Pill(say("last_turn"), 140, True))
    # With LAST TURN there is no room for the game's name as well: the pill says more.
    buttons = chrome.top_bar(surface, TOP, info, state.turn, pills, clock_below=True,
                             title="" if state.final else None)
    f = state.frame
    actions = _actions_rect(_labels(state, info))
    area = VERDICT.union(PROMPT)
    area.width -= actions.width - ACTIONS.width  # wider buttons take from the verdict's width
    up = lift(len(state.players), chrome.verdict_and_prompt_need(info, info.prompt, area.width, VERDICT.height))
    board = Rect(BOARD.left, BOARD.top, BOARD.width, BOARD.height - up)
    if f is not None and f.step == "duel":
        _duel(surface, state, board)
    else:
        _board(surface, state, info, buttons, board)
    _center(surface, state, CENTER.move(0, -up))
    chrome.verdict_and_prompt(surface, Rect(area.left, area.top - up, area.width, area.height + up), info,
                              info.prompt, VERDICT.height, size=VERDICT_SIZE, prompt_size=PROMPT_SIZE)
    chrome.turn_clock(surface, TIMER, info)
    _actions(surface, state, info, buttons, actions)
    menu = _deck_menu(surface, state.draw if info.deck_draft is None else info.deck_draft) \
        if info.menu == "deck" else _menu(surface, state, info)
    if menu is not None:
        buttons = [b for b in buttons if b.command.startswith("menu ")] + menu
    return chrome.overlay(surface, info, buttons)


def _acting(state: State) -> int:
    f = state.frame
    if f is not None:
        return f.target if f.step == "prize" else f.actor
    return state.seat


def _vault_command(state: State, seat: int) -> bool:
    """Do this seat's vault chips take a tap now (``vault N``)?"""
    f = state.frame
    if f is not None:
        return f.step in ("haul", "prize", "stash") and seat == _acting(state)
    return state.stage in (STASH, FINAL) and seat == state.seat


def _board(surface: pygame.Surface, state: State, info: TableInfo, buttons: list[Button],
           board: Rect = BOARD) -> None:
    name_w = name_width(state)
    for seat, (who, row) in enumerate(zip(state.players, player_rows(len(state.players), board))):
        acting = seat == _acting(state) and not state.over
        panel(surface, row, theme.PANEL_LIGHT if acting else theme.PANEL, theme.HIGHLIGHT if acting else None)
        name = Rect(row.left + 10, row.top + 2, name_w - 14, row.height // 2)
        flags = [word for word, on in ((say("flag_mom"), seat in state.protected),
                                       (say("flag_skip"), bool(state.skips[seat]))) if on]
        if flags:  # beside the name, so the counts below always fit
            flag_w = theme.font(theme.MIN_SIZE, True).size(" ".join(flags))[0] + 4
            draw_text(surface, " ".join(flags), Rect(name.right - flag_w, name.top, flag_w, name.height),
                      theme.MIN_SIZE, theme.WARN, bold=True, align="right")
            name.width -= flag_w + 4
        draw_text(surface, who, name, theme.MEDIUM, theme.HIGHLIGHT if acting else theme.TEXT, bold=True)
        marks = say("hand_battle", hand=state.hands[seat], battle=len(state.held[seat]))
        draw_text(surface, marks, Rect(row.left + 10, name.bottom, name_w - 14, row.bottom - name.bottom - 2),
                  theme.SMALL, theme.TEXT_DIM)
        tap = _vault_command(state, seat)
        rects = vault_rects(row, len(state.vaults[seat]), name_w)
        for i, (vault, rect) in enumerate(zip(state.vaults[seat], rects)):
            _vault_chip(surface, rect, vault, i)
            if tap:
                buttons.append(Button(rect, f"vault {i + 1}"))
        if state.stage == SWAP and seat != state.active and state.frame is None:
            # The swap: a player's row is where a card from their hand is tapped (then scanned);
            # the free end of the row says so, and the whole row takes the tap.
            free = Rect((rects[-1].right if rects else row.left + name_w) + 8, row.top + 6, 0, row.height - 12)
            free.width = row.right - 8 - free.left
            if free.width >= 120:
                panel(surface, free, theme.BG, theme.HIGHLIGHT, width=2)
                draw_wrapped(surface, _swap_hint(who, free.inflate(-10, -4)), free.inflate(-10, -4), theme.MIN_SIZE,
                             theme.HIGHLIGHT, max_lines=2, align="center")
                buttons.append(Button(free, f"from {seat + 1}"))
            buttons.append(Button(Rect(row.left, row.top, name_w, row.height), f"from {seat + 1}"))


def _swap_hint(who: str, box: Rect) -> str:
    """The words in a row's free end during the swap: the whole hint where it fits whole
    at the smallest size, else the short one (four rows leave room for one line)."""
    font = theme.font(theme.MIN_SIZE)
    lines = min(2, max(1, box.height // font.get_linesize()))
    hint = say("swap_row_hint", who=who)
    return hint if len(wrap(hint, font, box.width)) <= lines else say("swap_row_hint_short", who=who)


def _vault_chip(surface: pygame.Surface, rect: Rect, vault: Vault, index: int) -> None:
    """A vault: its flavour badge and short name, count over lock number, a padlock."""
    if not vault.candies:
        panel(surface, rect, theme.BG, theme.LINE, width=2)
        draw_wrapped(surface, say("empty_index", index=index + 1), rect.inflate(-8, -4), theme.SMALL, theme.TEXT_DIM,
                     max_lines=2, align="center")
        return
    look = look_for(vault.flavour)
    panel(surface, rect, theme.dim(look.colour, 0.4), theme.HIGHLIGHT if vault.locked else look.colour,
          width=4 if vault.locked else 2)
    r = max(8, min(13, rect.height // 4))
    fruit_badge(surface, (rect.left + r + 6, rect.top + r + 5), r, look)
    label = SHORT.get(vault.flavour, vault.flavour)
    room = rect.width - 2 * r - 12
    if theme.font(theme.MIN_SIZE, True).size(label)[0] <= room:  # a narrow vault keeps only its badge letter
        draw_text(surface, label, Rect(rect.left + 2 * r + 10, rect.top + 2, room, 2 * r + 4), theme.MIN_SIZE,
                  theme.TEXT, bold=True)
    count = Rect(rect.left + 6, rect.top + 2 * r + 6, rect.width - 12, rect.bottom - rect.top - 2 * r - 8)
    drawn = draw_text(surface, f"{vault.count}/{vault.lock_number}", count, theme.MEDIUM, theme.TEXT, bold=True)
    if vault.locked:
        _padlock(surface, Rect(count.right - 18, count.centery - 11, 16, 22))
    elif vault.cracked:
        draw_text(surface, "!", Rect(drawn.right + 4, count.top, 14, count.height), theme.SMALL, theme.WARN, bold=True)


def _padlock(surface: pygame.Surface, rect: Rect) -> None:
    body = Rect(rect.left, rect.top + rect.height // 2 - 2, rect.width, rect.height // 2 + 2)
    pygame.draw.rect(surface, theme.HIGHLIGHT, body, border_radius=3)
    shackle = Rect(rect.left + 3, rect.top, rect.width - 6, rect.height // 2 + 4)
    pygame.draw.arc(surface, theme.HIGHLIGHT, shackle, 0, 3.1416, 3)
    pygame.draw.line(surface, theme.HIGHLIGHT, (shackle.left, shackle.centery), (shackle.left, body.top), 3)
    pygame.draw.line(surface, theme.HIGHLIGHT, (shackle.right - 1, shackle.centery), (shackle.right - 1, body.top), 3)


def _center(surface: pygame.Surface, state: State, strip: Rect = CENTER) -> None:
    """What lies face up in the middle of the table now (in ``strip``)."""
    f = state.frame
    if f is not None and f.cards:
        label, cards = "Piñata", f.cards
    elif f is not None and f.haul:
        label, cards = (say("label_prize") if f.step == "prize" else say("label_taken")), f.haul
    elif state.revealed:
        label, cards = say("label_revealed"), state.revealed
    else:
        label, cards = "", ()
    panel(surface, strip, theme.BG, theme.LINE, width=1)
    pile = say("discard_vault_cards", discard=len(state.discard), vault_pile=state.vault_pile)
    pile_w = width_of(theme.font(theme.SMALL), pile) + 4
    stop = strip.right - 10 - pile_w - 12  # the cards shown end before the pile counts
    x = strip.left + 10
    if label:
        said = label + ":"
        x = draw_text(surface, said, Rect(x, strip.top, width_of(theme.font(theme.SMALL), said) + 4, strip.height),
                      theme.SMALL, theme.TEXT_DIM).right + 10
        for code in cards:
            c = CARDS[code]
            if x + 28 + width_of(theme.font(theme.SMALL), c.name) > stop:
                break
            fruit_badge(surface, (x + 12, strip.centery), 11, look_for(c.flavour))
            x = draw_text(surface, c.name, Rect(x + 28, strip.top, stop - x - 28, strip.height), theme.SMALL,
                          theme.TEXT).right + 14
    draw_text(surface, pile, Rect(strip.right - 10 - pile_w, strip.top, pile_w, strip.height), theme.SMALL,
              theme.TEXT_DIM, align="right")


def _duel(surface: pygame.Surface, state: State, board: Rect = BOARD) -> None:
    """The heist (or Crib Fight) duel: each side's flips and Attack count, whose flip."""
    f = state.frame
    area = Rect(board)
    panel(surface, area, theme.PANEL, theme.WARN, width=3)
    if f.style == "heist":
        v = state.vaults[f.target][f.vault]
        title = say("heist_vs", who=state.players[f.actor], target=state.players[f.target], flavour=v.flavour,
                    count=v.count)
    else:
        title = say("crib_fight") + say("vs").join(state.players[s] for s in f.duelists)
    draw_text(surface, title, Rect(area.left + 12, area.top + 4, area.width - 24, 40), theme.BIG - 4, theme.WARN,
              bold=True, align="center")
    n = len(f.duelists)
    gap = 8
    w = (area.width - 24 - gap * (n - 1)) // n
    turn = f.flipper
    for i, seat in enumerate(f.duelists):
        col = Rect(area.left + 12 + i * (w + gap), area.top + 48, w, area.height - 56)
        now = i == turn
        panel(surface, col, theme.PANEL_LIGHT if now else theme.BG, theme.HIGHLIGHT if now else None)
        draw_text(surface, state.players[seat] + (say("duel_flips_next") if now else ""),
                  Rect(col.left + 8, col.top + 2, col.width - 16, 32), theme.MEDIUM,
                  theme.HIGHLIGHT if now else theme.TEXT, bold=True)
        need = f.need[i]
        mark = say("duel_mastermind_mark") if need == 1 else ""
        draw_text(surface, say("attacks_tally_need", tally=f.tally[i], need=need) + mark,
                  Rect(col.left + 8, col.top + 34, col.width - 16, 36), theme.BIG - 6, theme.TEXT, bold=True)
        mine = [c for k, c in enumerate(f.flips) if k % n == i]
        names = ", ".join(CARDS[c].name for c in mine) or say("no_flips_yet")
        draw_wrapped(surface, names, Rect(col.left + 8, col.top + 72, col.width - 16, col.height - 76),
                     theme.MEDIUM, theme.TEXT, max_lines=3)


# ---------------------------------------------------------------- buttons and menus

def _labels(state: State, info: TableInfo) -> list[tuple[str, str]]:
    entry = info.entry
    pending = bool(entry and (entry.cards or entry.moves or entry.card or entry.pay))
    f = state.frame
    if state.over:
        return []
    if f is not None:
        return {
            "mom": [(say("no_mom"), "done")],
            "haul": [(say("button_done"), "done")],
            "prize": [(say("button_hand"), "hand"), (say("button_done"), "done")],
            "spy": [(say("take_none"), "done")],
            "collect": [(say("button_done"), "done")],
            "new-vault": [(say("take_vault"), "buy vault")],
            "stash": [(say("button_done"), "done")] + ([(say("button_clear"), "clear")] if pending else []),
            "join": [(say("join_who", who=state.players[s]), f"join {s + 1}") for s in range(len(state.players))
                     if s not in f.duelists][:3] + [(say("button_fight"), "done")],
        }.get(f.step, [])
    if state.stage == STASH:
        first = (say("button_done"), "done") if state.stashed else (say("cant_stash"), "cant")
        return [first] + ([(say("button_clear"), "clear")] if pending else [])
    if state.stage == SWAP:
        out = [(say("button_deal"), "deal")] if entry and entry.moves and not entry.card else []
        return out + [(say("button_done"), "done")] + ([(say("button_clear"), "clear")] if pending else [])
    if state.stage == BUY:
        if entry and entry.pay:
            return [(say("buy_vault"), "buy vault"), (say("button_clear"), "clear")]
        return [(say("button_done"), "done")]
    if state.stage == FINAL:
        return [(say("button_done"), "done")] + ([(say("button_clear"), "clear")] if pending else [])
    return []


def _actions_rect(labels: list[tuple[str, str]]) -> Rect:
    """Where the buttons of this step go: :data:`ACTIONS`, wider to the left (up to
    :data:`ACTIONS_MOST` px) when a label would not fit its button on one line at
    :data:`theme.MIN_SIZE`."""
    if len(labels) < 2:
        return Rect(ACTIONS)
    font = theme.font(theme.MIN_SIZE, True)
    widest = max(width_of(font, label) for label, _ in labels) + 16
    width = min(ACTIONS_MOST, max(ACTIONS.width, 2 * widest + 8))
    return Rect(ACTIONS.right - width, ACTIONS.top, width, ACTIONS.height)


def _actions(surface: pygame.Surface, state: State, info: TableInfo, buttons: list[Button],
             area: Rect = ACTIONS) -> None:
    labels = _labels(state, info)
    if not labels:
        return
    cols = 1 if len(labels) == 1 else 2
    rows = (len(labels) + cols - 1) // cols
    gap = 8
    w = (area.width - gap * (cols - 1)) // cols
    h = (area.height - gap * (rows - 1)) // rows
    for k, (label, command) in enumerate(labels):
        rect = Rect(area.left + (k % cols) * (w + gap), area.top + (k // cols) * (h + gap), w, h)
        fill = theme.OK if command == "done" else theme.PANEL_LIGHT if command == "clear" else theme.BUTTON
        ink = theme.TEXT if command == "clear" else theme.BUTTON_TEXT
        buttons.append(Button(button(surface, rect, label, fill, ink, size=theme.MEDIUM), command))


def _menu(surface: pygame.Surface, state: State, info: TableInfo) -> list[Button] | None:
    """A menu of big buttons when a choice is needed: a target, a flavour, who gets a card."""
    f = state.frame
    entry = info.entry
    if f is not None and f.step == "target":
        return _target_menu(surface, state, info)
    if f is not None and f.step in ("flavour", "keep"):
        choices = f.flavours if f.step == "keep" else [x for x in FLAVOURS if x not in f.flavours]
        return _grid(surface, say("which_flavour", card=CARDS[f.card].name),
                     [(x, f"flavour {x.lower()}") for x in choices], looks=True)
    if entry is not None and state.stage == SWAP and f is None and entry.card:
        return _grid(surface, say("who_gets", card=CARDS[entry.card].name),
                     [(p, f"give {s + 1}") for s, p in enumerate(state.players)], cancel=True)
    if entry is not None and entry.cards and len(entry.cards) == 2 and f is None and \
            all(CARDS[c].is_pure for c in entry.cards) and entry.flavour is None:
        return _grid(surface, say("two_pure_sugars_which"),
                     [(x, f"flavour {x.lower()}") for x in FLAVOURS], looks=True, cancel=True)
    return None


MENU_MOST = 8  # the most buttons a menu shows at once: 2 columns of 4 at a finger's size on the 7" panel


def _target_menu(surface: pygame.Surface, state: State, info: TableInfo) -> list[Button]:
    """Whom to play a card on. When every target and the Keep it button fit one menu
    (:data:`MENU_MOST`), they are shown at once; else the targets are grouped, one button
    per player and way of playing ("Heist Pam: 5 vaults"), which opens that group's vaults
    (a window menu, ``menu targets heist 2``: nothing is stored) with a Back button. A
    group is one player's vaults, so it fits; one that would not comes a page at a time."""
    f = state.frame
    title = say("play_who_name", who=state.players[f.actor], name=CARDS[f.card].name)
    back = (say("button_keep"), "keep") if f.withdrawable else None
    groups: dict[str, tuple[str, str, list[tuple[str, str, str]]]] = {}
    for style, seat, vault in B.legal_targets(state, f.actor, f.card):
        who = state.players[seat]
        verb = {"heist": say("button_heist"), "steal": say("button_steal")}.get(style, "")
        group = groups.setdefault(f"{style} {seat + 1}", (verb, who, []))
        if vault is None:
            group[2].append((f"{who}", f"target {seat + 1}", f"{who}"))
            continue
        v = state.vaults[seat][vault]
        what = f"{SHORT.get(v.flavour, '')} {v.count}".strip() if v.candies else say("vault_empty")
        command = f"{style} {seat + 1} {vault + 1}" if verb else f"target {seat + 1} {vault + 1}"
        group[2].append((f"{verb} {who} {vault + 1}: {what}".strip(), command,
                         say("target_group_vault", vault=vault + 1, what=what)))
    options = [(label, command) for *_, group in groups.values() for label, command, _ in group]
    if len(options) + bool(back) <= MENU_MOST or len(groups) < 2:
        return _grid(surface, title, options, cancel=bool(back), back=back, page=info.page)
    opened = groups.get((info.menu or "").removeprefix("targets ")) if (info.menu or "").startswith("targets ") \
        else None
    if opened is not None:  # one group's vaults, named by their number under a title that says whose
        verb, who, group = opened
        return _grid(surface, say("target_group", verb=verb, target=who), [(short, c) for _, c, short in group],
                     cancel=True, back=(text("back"), "cancel"), page=info.page)
    heads = [(f"{verb} {who}: {count(len(group), 'vault')}", f"menu targets {key}")
             for key, (verb, who, group) in groups.items()]
    return _grid(surface, title, heads, cancel=bool(back), back=back, page=info.page)


def _grid(surface: pygame.Surface, title: str, options: list[tuple[str, str]], looks: bool = False,
          cancel: bool = False, back: tuple[str, str] | None = None, page: int = 0) -> list[Button]:
    """A menu of big buttons; ``cancel`` adds a last one: Clear, or ``back`` (label, command).

    At most :data:`MENU_MOST` buttons fit the panel. More options than that are shown a
    page at a time, with a More button (``page``) that turns to the next page and from the
    last back to the first: every choice can be reached by touch (the target menu groups
    its targets first, :func:`_target_menu`)."""
    box = chrome.menu_panel(surface, title)
    cols = 2 if len(options) > 3 else 1
    per_page = MENU_MOST if cols == 2 else MENU_MOST // 2
    shown, at, pages = chrome.paged(options, per_page - (1 if cancel else 0), page)
    # after the options, in grey: More (naming the page shown now), then Clear or ``back``
    extra = ([(text("more", page=at + 1, pages=pages), "page")] if pages > 1 else []) + \
        ([back or (say("button_clear"), "clear")] if cancel else [])
    items = len(shown) + len(extra)
    rows = max(1, (items + cols - 1) // cols)
    gap = 10
    area = Rect(box.left + 20, box.top + 78, box.width - 40, box.height - 94)
    w = (area.width - gap * (cols - 1)) // cols
    h = min(72, (area.height - gap * (rows - 1)) // rows)
    cells = [Rect(area.left + (k % cols) * (w + gap), area.top + (k // cols) * (h + gap), w, h) for k in range(items)]
    out = []
    for (label, command), rect in zip(shown, cells):
        if looks:
            look = look_for(label)
            button(surface, rect, "", theme.dim(look.colour, 0.5))
            fruit_badge(surface, (rect.left + 26, rect.centery), 16, look)
            draw_text(surface, label, Rect(rect.left + 50, rect.top, rect.width - 58, rect.height), theme.MEDIUM,
                      theme.TEXT, bold=True)
        else:
            button(surface, rect, label, theme.BUTTON, size=theme.MEDIUM)
        out.append(Button(rect, command))
    for (label, command), rect in zip(extra, cells[len(shown):]):
        out.append(Button(button(surface, rect, label, theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), command))
    return out


def _deck_menu(surface: pygame.Surface, count: int) -> list[Button]:
    """Correct the Candy Draw Pile count: -5 -1 [count] +1 +5, then OK or Cancel."""
    return chrome.count_menu(surface, say("cards_candy_draw_pile"), count, len(CANDY_CODES))


# ---------------------------------------------------------------- the final count

def draw_final(surface: pygame.Surface, result: Result, info: TableInfo | None = None) -> list[Button]:
    """The count: the winners, the tie-break, then one row per player (best first) with
    their candy by flavour, Grandma's bonus and the total."""
    fit_to(surface)
    draw_text(surface, result.winner_line(), Rect(10, 6, W - 20, 58), theme.TITLE + 8, theme.HIGHLIGHT,
              bold=True, align="center")
    if result.tie_break and result.tie_break != "shared":
        draw_text(surface, say("tied_points_wins", tie_break=result.tie_break), Rect(10, 60, W - 20, 28), theme.MEDIUM,
                  theme.TEXT, align="center")
    rows = result.ranked()
    bottom = H - 50 if info and (info.prompt or info.verdict) else H - 8
    top = 94
    gap = 8
    row_h = min(FINAL_ROW_MOST, (bottom - top - gap * (len(rows) - 1)) // len(rows))
    for i, p in enumerate(rows):
        sheet = p.sheet
        row = Rect(8, top + i * (row_h + gap), W - 16, row_h)
        won = p.name in result.winners
        panel(surface, row, theme.PANEL, theme.HIGHLIGHT if won else None, width=4)
        name_h = min(row_h // 2, 34)
        draw_text(surface, p.name, Rect(row.left + 12, row.top + 2, 180, name_h), theme.BIG - 4,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True)
        extra = say("sheet_candy", candy=sheet.candy) if sheet else ""
        bonus = say("sheet_grandma", points=6 * sheet.grandmas) if sheet and sheet.grandmas else ""
        small = theme.font(theme.SMALL)
        if bonus and width_of(small, f"{extra} {bonus}") > 180:  # the bonus on a line of its own
            line = (row.bottom - 4 - row.top - name_h) // 2
            draw_text(surface, extra, Rect(row.left + 12, row.top + name_h, 180, line), theme.SMALL, theme.TEXT_DIM)
            draw_text(surface, bonus, Rect(row.left + 12, row.top + name_h + line, 180, line), theme.SMALL,
                      theme.TEXT_DIM)
        else:
            draw_text(surface, f"{extra} {bonus}".strip(), Rect(row.left + 12, row.top + name_h, 180,
                                                                row.bottom - 4 - row.top - name_h),
                      theme.SMALL, theme.TEXT_DIM)
        x = row.left + 200
        candies = sheet.candies if sheet else ()
        step = min(92, (row.right - 100 - x) // max(1, len(candies)))
        for flavour, n in candies:
            fruit_badge(surface, (x + 16, row.top + 24), 15, look_for(flavour))
            draw_text(surface, str(n), Rect(x + 33, row.top + 6, 38, 36), theme.BIG - 4, theme.TEXT, bold=True)
            draw_text(surface, SHORT.get(flavour, flavour), Rect(x, row.top + 44, step - 2, row_h - 48), theme.SMALL,
                      look_for(flavour).colour)
            x += step
        draw_text(surface, str(p.score), Rect(row.right - 96, row.top, 82, row_h), theme.TITLE + 8,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True, align="right")
    if info and (info.prompt or info.verdict):
        chrome.footer(surface, info.prompt or info.verdict, info)
    return []


__all__ = ["draw_game", "draw_final", "DISCARD", "OVER"]


class SugarHeistScreen(CoreScreen[State]):
    """Sugar Heist's screen as the table's contract, :class:`companion.core.game.Screen` (rulebooks/sugar-heist.txt)."""

    draw_game = staticmethod(draw_game)
    draw_final = staticmethod(draw_final)


#: The one SugarHeistScreen, which the descriptor's loader gives.
SCREEN = SugarHeistScreen()
