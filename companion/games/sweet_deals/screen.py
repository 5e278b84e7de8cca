"""The Sweet Deals screen: the table during play and the final score sheet (800x480).

In game: the shared top bar; the players down the left (cards in hand, Bake Sale used,
each one's bid); on the right a panel for what the table is doing now: the desserts to
offer, the bidding panel (coin buttons 0-5 and Pass, big enough to reach from any seat),
the tied cards to choose from, the Yes/No of a Close Early vote, the face-up card of a
Bake Sale; below, the verdict, the prompt, the turn clock and the Bake Sale / Close
Early buttons. Grab & Go and (open hands) Sweet Six open a menu of players.

The screen draws only ``public_view(state, TABLE)``: with tracked hands it never has a
hidden card to draw.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> from companion.ui.app import App, TableInfo
>>> app = App()
>>> s, _ = rules.step(rules.new_game(["Ana", "Ben", "Cy"], mode="open"), rules.Offer(0, "Donut"))
>>> app.show(lambda surface: draw_game(surface, s, TableInfo(prompt="Ben: bid or pass")))
>>> sorted(b.command for b in app.buttons)
['bid 0', 'bid 1', 'bid 2', 'bid 3', 'bid 4', 'bid 5', 'menu grab', 'menu six', 'pass']
>>> app.close()
"""

from __future__ import annotations

import pygame

from companion.core.game import Screen as CoreScreen
from companion.core.game import Result
from companion.ui import chrome, portrait, theme
from companion.ui.app import Button, TableInfo
from companion.ui.theme import FruitLook
from companion.ui.widgets import button, draw_text, draw_wrapped, fruit_badge, panel, width_of

from .parts import prompts
from . import rules
from .parts.cards import CARDS, DESSERTS, LABELS, MAX_BID, removed_for
from .messages import count, say

Rect = pygame.Rect

# ---------------------------------------------------------------- layout (800x480)

W, H = 800, 480
TOP = Rect(0, 0, W, 48)
PLAYERS = Rect(8, 54, 218, 290)
MAIN = Rect(234, 54, 558, 290)
VERDICT = Rect(8, 350, 560, 62)
PROMPT = Rect(8, 416, 560, 58)
TIMER = Rect(576, 350, 216, 44)
ACTIONS = Rect(576, 400, 216, 74)
TOUCH = 48          # the smallest touch target, in pixels
ROW_MOST, FINAL_ROW_MOST = 70, 84   # the tallest a player's row gets in play and on the final sheet
VERDICT_SIZE = PROMPT_SIZE = theme.MEDIUM + 2

LANDSCAPE = dict(W=W, H=H, TOP=TOP, PLAYERS=PLAYERS, MAIN=MAIN, VERDICT=VERDICT, PROMPT=PROMPT, TIMER=TIMER,
                 ACTIONS=ACTIONS, ROW_MOST=ROW_MOST, FINAL_ROW_MOST=FINAL_ROW_MOST, VERDICT_SIZE=VERDICT_SIZE,
                 PROMPT_SIZE=PROMPT_SIZE)
#: Upright (800x1422): the players across the top, the verdict and prompt, the turn
#: clock, then the table's panel (the offer, the bids, the vote: what is tapped) and the
#: buttons at the foot, under the thumbs.
UPRIGHT = dict(W=800, H=1422, TOP=Rect(0, 0, 800, 56), PLAYERS=Rect(8, 68, 784, 420), VERDICT=Rect(8, 500, 784, 170),
               PROMPT=Rect(8, 676, 784, 130), TIMER=Rect(8, 812, 784, 56), MAIN=Rect(8, 876, 784, 400),
               ACTIONS=Rect(8, 1284, 784, 130), ROW_MOST=96, FINAL_ROW_MOST=130, VERDICT_SIZE=portrait.VERDICT,
               PROMPT_SIZE=theme.BIG + 4)


def fit_to(surface: pygame.Surface) -> bool:
    """Lay the screen out for ``surface``: :data:`UPRIGHT` when it is taller than wide,
    else :data:`LANDSCAPE` (:func:`companion.ui.portrait.use`). True when upright."""
    return portrait.use(globals(), surface, LANDSCAPE, UPRIGHT)

#: How each dessert is drawn: colour, the letter of its card codes, a shape.
LOOKS: dict[str, FruitLook] = {
    "Pie": FruitLook((235, 150, 60), "P", "triangle"),
    "Ice Cream": FruitLook((130, 200, 255), "I", "circle"),
    "Cupcake": FruitLook((255, 120, 180), "C", "square"),
    "Chocolate": FruitLook((185, 125, 80), "K", "diamond"),
    "Strudel": FruitLook((240, 215, 80), "S", "hexagon"),
    "Popsicle": FruitLook((240, 80, 80), "L", "pentagon"),
    "Donut": FruitLook((190, 140, 255), "D", "star"),
    "Sprinkles": FruitLook((245, 245, 245), "W", "star"),
    "Grab & Go": FruitLook((80, 215, 215), "G", "circle"),
    "Mochi": FruitLook((160, 235, 200), "M", "circle"),
}


def look(label: str) -> FruitLook:
    """The look of a dessert or card name; a hybrid takes its first dessert's colour."""
    if label in LOOKS:
        return LOOKS[label]
    first = next((d for d in DESSERTS if label.startswith(d)), None)
    base = LOOKS.get(first or "", theme.UNKNOWN_LOOK)
    return FruitLook(base.colour, "H", base.shape)


def player_rows(n: int, room: Rect | None = None) -> list[Rect]:
    """Each of ``n`` players' rows in seat order in ``room`` (the players' column), at most
    :data:`ROW_MOST` px tall."""
    room = PLAYERS if room is None else room
    gap = 4
    h = min(ROW_MOST, (room.height - gap * (n - 1)) // n)
    return [Rect(room.left, room.top + i * (h + gap), room.width, h) for i in range(n)]


def grid(rect: Rect, n: int, cols: int, gap: int = 8) -> list[Rect]:
    """``n`` equal cells filling ``rect`` in rows of ``cols``."""
    rows = max(1, -(-n // cols))
    w = (rect.width - gap * (cols - 1)) // cols
    h = (rect.height - gap * (rows - 1)) // rows
    return [Rect(rect.left + (i % cols) * (w + gap), rect.top + (i // cols) * (h + gap), w, h) for i in range(n)]


# ---------------------------------------------------------------- the in-game screen

def draw_game(surface: pygame.Surface, view: rules.State, info: TableInfo) -> list[Button]:
    """Draw the whole in-game screen from the table's view; returns its touch targets."""
    fit_to(surface)
    surface.fill(theme.BG)
    pills = [chrome.Pill(say("tracked_hands") if view.tracked else say("open_hands"), 150)]
    if view.tracked and view.phase != rules.DEAL:
        pills.append(chrome.Pill(say("pill_deck", cards=view.draw_count), 120))
    buttons = chrome.top_bar(surface, TOP, info, view.turn, pills, clock_below=True)
    room = PLAYERS if view.tracked else Rect(PLAYERS.left, PLAYERS.top, PLAYERS.width, PLAYERS.height - 58)
    _players(surface, view, room)
    if not view.tracked and view.phase not in (rules.SCORE, rules.OVER):
        six = Rect(PLAYERS.left, PLAYERS.bottom - 52, PLAYERS.width, 52)
        buttons.append(Button(button(surface, six, say("button_sweet_six"), theme.WARN, size=theme.BIG - 4),
                              "menu six"))
    _PANELS.get(view.phase, _scan_panel)(surface, view, buttons)
    # While setting up, the panel shows what to take out; the prompt line says only what next.
    prompt = prompts.waiting(view) if _setup_box_shown(view) else (info.prompt or prompts.waiting(view))
    chrome.verdict_and_prompt(surface, VERDICT.union(PROMPT), info, prompt, VERDICT.height,
                              size=VERDICT_SIZE, prompt_size=PROMPT_SIZE)
    chrome.turn_clock(surface, TIMER, info)
    _actions(surface, view, buttons)
    if info.menu in ("grab", "six"):
        return _player_menu(surface, view, info.menu)
    return buttons


def _setup_box_shown(view: rules.State) -> bool:
    """The dealer's instructions fill part of the panel: before the deal (tracked), or
    before the first move when cards must be taken out (open)."""
    if not rules.setting_up(view):
        return False
    return view.tracked or bool(removed_for(len(view.players)))


def _setup_box(surface: pygame.Surface, rect: Rect, view: rules.State) -> None:
    panel(surface, rect, theme.dim(theme.WARN, 0.3), theme.WARN, width=3)
    draw_wrapped(surface, rules.setup_message(view), rect.inflate(-20, -10), theme.MEDIUM, theme.TEXT, bold=True,
                 max_lines=4)


def _waiting_on(view: rules.State) -> int | None:
    """The seat the table waits on now (outlined in the players list)."""
    if view.phase == rules.BID and view.bidding is not None:
        return view.bidding.to_act
    if view.phase == rules.VOTE:
        return view.voters[0]
    if view.phase == rules.BAKE_TAKE:
        return view.bake.decider
    seat = prompts.scanner(view)
    return view.active if seat is None else seat


def _players(surface: pygame.Surface, view: rules.State, room: Rect) -> None:
    waiting = _waiting_on(view)
    # While the hands are dealt it is nobody's turn: the player scanning their deal is lit.
    lit = waiting if view.phase == rules.DEAL and waiting is not None else view.active
    for seat, (name, row) in enumerate(zip(view.players, player_rows(len(view.players), room))):
        active = seat == lit
        ink = theme.TEXT_DARK if active else theme.TEXT
        panel(surface, row, theme.HIGHLIGHT if active else theme.PANEL,
              theme.OK if seat == waiting and not active else None, width=4)
        half = row.height // 2 if row.height >= 56 else row.height
        status = _bid_text(view, seat)
        # the name takes the row's width but for the bid beside it (when there is one)
        status_w = width_of(theme.font(theme.MEDIUM), status) + 8 if status else 0
        draw_text(surface, name, Rect(row.left + 10, row.top + 2, row.width - 18 - status_w, half - 2), theme.MEDIUM,
                  ink, bold=True)
        if status:
            draw_text(surface, status, Rect(row.right - 8 - status_w, row.top, status_w, half), theme.MEDIUM, ink,
                      align="right")
        if row.height >= 56:
            # Tracked: the hand size, and "1 Bake Sale" while the player still has theirs to
            # play (a count, so it reads as something the player holds; "Bake Sale ready"
            # beside the hand size is too long for the row at 20 px). No hand size before
            # the first card is scanned.
            if view.tracked:
                bits = ([say("hand_size", cards=count(len(view.hands[seat]), "card"))] if view.hands[seat] else []) + \
                    ([] if view.bake_used[seat] else [say("bake_sale_left")])
            else:
                bits = [say("bake_sale_used") if view.bake_used[seat] else say("bake_sale_ready")]
            draw_text(surface, ", ".join(bits), Rect(row.left + 8, row.top + half, row.width - 12, half - 4),
                      theme.MIN_SIZE, theme.TEXT_DARK if active else theme.TEXT_DIM)


def _bid_text(view: rules.State, seat: int) -> str:
    b = view.bidding
    if view.phase not in (rules.BID, rules.REVEAL, rules.CHOOSE, rules.SWAP) or b is None:
        return ""
    if seat == b.offerer:
        return say("bid_offers")
    if seat in b.out:
        return say("bid_out")
    return "—" if b.bids[seat] is None else str(b.bids[seat])


def _title(surface: pygame.Surface, text: str, rect: Rect | None = None) -> Rect:
    rect = rect or Rect(MAIN.left, MAIN.top, MAIN.width, 40)
    draw_text(surface, text, rect, theme.BIG, theme.TEXT, bold=True, align="center")
    return rect


def _card(surface: pygame.Surface, rect: Rect, code: str, sub: str = "") -> Rect:
    """A face-up card as a box: its dessert's badge, its name, and a small line under it."""
    lk, label = look(CARDS[code].label), CARDS[code].name
    panel(surface, rect, theme.PANEL, lk.colour, width=4)
    r = max(12, min(22, rect.height // 4))
    fruit_badge(surface, (rect.left + r + 12, rect.centery), r, lk)
    text = Rect(rect.left + 2 * r + 22, rect.top + 4, rect.width - 2 * r - 30, rect.height - 8)
    if sub:
        half = text.height // 2
        draw_text(surface, label, Rect(text.left, text.top, text.width, half), theme.MEDIUM, lk.colour, bold=True)
        draw_text(surface, sub, Rect(text.left, text.top + half, text.width, half), theme.MIN_SIZE + 2, theme.TEXT)
    else:
        draw_wrapped(surface, label, text, theme.MEDIUM, lk.colour, bold=True, max_lines=2)
    return rect


# ---------------------------------------------------------------- the panels

def _offer_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    """Tap the dessert you offer: every name in this deck, desserts first."""
    _title(surface, say("which_dessert_do_you", name=view.name(view.active)))
    labels = [l for l in LABELS if any(CARDS[c].label == l for c in view.deck)]
    top, cols = MAIN.top + 46, 4 if len(labels) > 9 else 3
    if _setup_box_shown(view):
        tall = 100 if len(labels) <= 8 else 66        # 2-3 players: a longer list, fewer desserts
        _setup_box(surface, Rect(MAIN.left, top, MAIN.width, tall), view)
        top, cols = top + tall + 8, 4
    body = Rect(MAIN.left, top, MAIN.width, MAIN.bottom - top)
    for label, cell in zip(labels, grid(body, len(labels), cols, gap=6)):
        lk = look(label)
        panel(surface, cell, theme.dim(lk.colour, 0.45), lk.colour, width=3)
        draw_wrapped(surface, label, cell.inflate(-10, -4), theme.MEDIUM, theme.TEXT, bold=True, max_lines=2)
        buttons.append(Button(cell, f"offer {label.lower()}"))


def _bid_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    """The bidding panel: the offer and the high bid, whose bid it is, coin buttons 0-5
    (those below the high bid greyed) and Pass, each at least 88 px: reachable from any
    seat round the table."""
    b = view.bidding
    high = b.high
    leader = [view.name(s) for s in b.still_in if b.holds_high(s)]
    head = say("screen_offers", name=view.name(view.active), article=prompts.article(view.offer))
    head += say("high_bid", high=high, names=', '.join(leader)) if high is not None else say("no_bids_yet")
    _title(surface, head)
    bidder = b.to_act
    draw_text(surface, say("your_bid", name=view.name(bidder)), Rect(MAIN.left, MAIN.top + 42, MAIN.width, 40),
              theme.BIG + 4, look(view.offer).colour, bold=True, align="center")
    coins = grid(Rect(MAIN.left, MAIN.top + 88, MAIN.width, 100), MAX_BID + 1, MAX_BID + 1, gap=4)
    for n, cell in enumerate(coins):
        ok = b.problem(bidder, n) is None
        button(surface, cell, str(n), theme.BUTTON, size=theme.HUGE, enabled=ok)
        if ok:
            buttons.append(Button(cell, f"bid {n}"))
    row = Rect(MAIN.left, MAIN.top + 198, MAIN.width, MAIN.height - 198)
    pas, grab = grid(row, 2, 2, gap=8)
    label = say("keep_high", high=high) if b.holds_high(bidder) else say("button_pass")
    buttons.append(Button(button(surface, pas, label, theme.PANEL_LIGHT, theme.TEXT, size=theme.BIG + 8), "pass"))
    buttons.append(Button(button(surface, grab, "Grab & Go", LOOKS["Grab & Go"].colour, size=theme.BIG),
                          "menu grab"))


def _choose_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    _title(surface, say("whose_card_do_you", name=view.name(view.active)))
    shown = dict(view.shown)
    cells = grid(Rect(MAIN.left, MAIN.top + 50, MAIN.width, 140), len(view.tied), min(3, len(view.tied)))
    for seat, cell in zip(view.tied, cells):
        code = shown.get(seat)
        if code is not None:
            _card(surface, cell, code, say("from_player", name=view.name(seat)))
        else:
            button(surface, cell, view.name(seat), theme.BUTTON)
        buttons.append(Button(cell, f"take {seat + 1}"))


def _reveal_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    names = say("sep_and").join(view.name(s) for s in view.tied)
    _title(surface, say("tied_at_show_their", price=view.price, names=names))
    shown = dict(view.shown)
    cells = grid(Rect(MAIN.left, MAIN.top + 50, MAIN.width, 140), len(view.tied), min(3, len(view.tied)))
    for seat, cell in zip(view.tied, cells):
        if seat in shown:
            _card(surface, cell, shown[seat], say("from_player", name=view.name(seat)))
        else:
            panel(surface, cell, theme.BG, theme.LINE)
            draw_wrapped(surface, say("scan_name", name=view.name(seat)), cell.inflate(-16, -8), theme.MEDIUM,
                         theme.TEXT_DIM)
    _none_button(surface, view, buttons)


def _none_button(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    """Tracked: Pass for the player asked for a card they do not have (a tied bidder, the
    swap's two players, the offerer whose card goes face up, a Bake Sale grabber). Shown
    whatever the hands hold: the companion never tells the table a hand lacks a card."""
    if view.tracked and view.phase in (rules.REVEAL, rules.SWAP, rules.DISCARD, rules.BAKE_GRAB):
        cell = Rect(MAIN.centerx - 130, MAIN.bottom - 84, 260, 80)
        buttons.append(Button(button(surface, cell, say("button_pass"), theme.PANEL_LIGHT, theme.TEXT,
                                     size=theme.BIG + 4), "pass"))


def _vote_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    _title(surface, say("screen_asks_close_early", name=view.name(view.active)))
    draw_text(surface, say("do_you_agree", name=view.name(view.voters[0])), Rect(MAIN.left, MAIN.top + 50, MAIN.width,
                                                                                 50),
              theme.BIG + 4, theme.HIGHLIGHT, bold=True, align="center")
    yes, no = grid(Rect(MAIN.left + 20, MAIN.top + 120, MAIN.width - 40, 130), 2, 2, gap=24)
    buttons.append(Button(button(surface, yes, say("button_yes"), theme.OK, size=theme.HUGE), "yes"))
    buttons.append(Button(button(surface, no, say("button_no"), theme.BAD, theme.TEXT, size=theme.HUGE), "no"))


def _bake_take_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    _title(surface, say("bake_sale_take_pass", name=view.name(view.bake.decider)))
    top = view.discards[-1] if view.tracked and view.discards else None
    card = Rect(MAIN.centerx - 170, MAIN.top + 50, 340, 90)
    if top:
        _card(surface, card, top, say("face_up_from", name=view.name(view.bake.top_owner)))
    else:
        panel(surface, card, theme.PANEL, theme.LINE)
        draw_wrapped(surface, say("card_put_face_up", name=view.name(view.bake.top_owner)), card.inflate(-20, -8),
                     theme.MEDIUM, theme.TEXT)
    take, pas, grab = grid(Rect(MAIN.left, MAIN.top + 156, MAIN.width, MAIN.height - 156), 3, 3)
    buttons.append(Button(button(surface, take, say("button_take"), theme.OK, size=theme.BIG + 8), "take"))
    buttons.append(Button(button(surface, pas, say("button_pass"), theme.PANEL_LIGHT, theme.TEXT, size=theme.BIG + 8),
                          "pass"))
    buttons.append(Button(button(surface, grab, "Grab & Go", LOOKS["Grab & Go"].colour), "menu grab"))


def _scan_panel(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    """Phases where the table scans a card (or, open hands, taps Done): who and what."""
    seat = prompts.scanner(view)
    who = view.name(seat if seat is not None else view.active)
    what = {
        rules.DEAL: say("deal_scan_your_7"),
        rules.SCORE: say("scoring_scan_your_7"),
        rules.SWAP: say("swap_scan_face_down"),
        rules.DISCARD: say("nobody_bid_goes_face", offer=view.offer),
        rules.DRAW: say("draw_new_card"),
        rules.BAKE_DRAW: say("bake_sale_draw_card"),
        rules.BAKE_DISCARD: say("bake_sale_put_card"),
        rules.BAKE_GRAB: say("grab_go_put_face"),
    }.get(view.phase, "")
    if view.phase == rules.SCORE and view.claim is not None:
        what = say("show_sweet_six")
    if view.phase in (rules.DRAW, rules.BAKE_DRAW) and view.draw_count == 0:
        what = say("deck_empty_shuffle")
    _title(surface, what)
    draw_text(surface, who, Rect(MAIN.left, MAIN.top + 50, MAIN.width, 60), theme.TITLE + 12, theme.HIGHLIGHT,
              bold=True, align="center")
    if _setup_box_shown(view):
        _setup_box(surface, Rect(MAIN.left + 20, MAIN.top + 130, MAIN.width - 40, 130), view)
    elif view.phase in (rules.DEAL, rules.SCORE) and seat is not None:
        n = len(view.hands[seat])
        cells = grid(Rect(MAIN.left + 20, MAIN.top + 130, MAIN.width - 40, 70), 7, 7, gap=8)
        for i, cell in enumerate(cells):
            panel(surface, cell, theme.OK if i < n else theme.BG, None if i < n else theme.LINE, width=3)
        draw_text(surface, say("scanned_of_7", n=n), Rect(MAIN.left, MAIN.top + 210, MAIN.width, 40), theme.BIG,
                  theme.TEXT, align="center")
    if view.phase == rules.SWAP:
        got = say("scanned") if view.give is not None else say("scan")
        took = say("scanned") if view.take is not None else say("scan")
        line = f"{view.name(view.active)}: {got}  ·  {view.name(view.winner)}: {took}"
        draw_text(surface, line, Rect(MAIN.left, MAIN.top + 140, MAIN.width, 44), theme.BIG, theme.TEXT,
                  align="center")
    if view.phase == rules.BAKE_DISCARD and not view.tracked:
        done = Rect(MAIN.centerx - 150, MAIN.top + 150, 300, 100)
        buttons.append(Button(button(surface, done, say("button_done"), theme.OK, size=theme.HUGE), "done"))
    _none_button(surface, view, buttons)


_PANELS = {rules.OFFER: _offer_panel, rules.BID: _bid_panel, rules.CHOOSE: _choose_panel,
           rules.REVEAL: _reveal_panel, rules.VOTE: _vote_panel, rules.BAKE_TAKE: _bake_take_panel}


def _actions(surface: pygame.Surface, view: rules.State, buttons: list[Button]) -> None:
    """Bake Sale and Close Early, at the start of a turn."""
    if view.phase != rules.OFFER:
        return
    bake, close = grid(ACTIONS, 2, 2, gap=8)
    if not view.bake_used[view.active]:
        buttons.append(Button(button(surface, bake, say("bake_sale"), theme.WARN, size=theme.MEDIUM), "bake"))
    else:
        button(surface, bake, say("bake_sale"), size=theme.MEDIUM, enabled=False)
    if not view.close_refused:
        buttons.append(Button(button(surface, close, say("close_early"), theme.BUTTON, size=theme.MEDIUM), "close"))
    else:
        button(surface, close, say("close_early"), size=theme.MEDIUM, enabled=False)


def _player_menu(surface: pygame.Surface, view: rules.State, menu: str) -> list[Button]:
    """Who plays Grab & Go, or who shouts Sweet Six: one big button per player."""
    box = chrome.menu_panel(surface, say("who_plays_grab_go") if menu == "grab" else say("who_has_sweet_six"))
    seats = list(range(len(view.players)))
    if menu == "grab":
        seats = [s for s in seats if s != (view.active if view.phase == rules.BID else view.bake.top_owner)]
    area = Rect(box.left + 20, box.top + 80, box.width - 40, box.height - 190)
    out = []
    for seat, cell in zip(seats, grid(area, len(seats), 4 if len(seats) > 6 else 3)):
        out.append(Button(button(surface, cell, view.name(seat), theme.BUTTON, size=theme.BIG),
                          f"{menu} {seat + 1}"))
    out.append(chrome.cancel_button(surface, Rect(box.centerx - 120, box.bottom - 100, 240, 80)))
    return out


# ---------------------------------------------------------------- the final screen

def tie_words(result: Result) -> str:
    """How a tie on points was settled (rulebook: "Tie? The player with the most Coins
    wins! Still tied? Share"), naming who was tied, or "" when points decided."""
    if not result.tie_break:
        return ""
    top = max(p.score for p in result.players)
    tied = [p.name for p in result.players if p.score == top]
    winners = say("sep_and").join(result.winners)
    coins = max(p.sheet.coins for p in result.players if p.name in result.winners) if all(
        p.sheet is not None for p in result.players) else None
    most = say("tie_most_coins_n", most=coins) if coins is not None else say("tie_most_coins")
    if result.tie_break == "coins":
        return say("tied_points_has", tied=len(tied), top=top, winners=winners, most=most)
    if len(tied) > len(result.winners):
        return say("tied_points_have_share", tied=len(tied), top=top, winners=winners, most=most)
    return say("tied_points_coins_shared", top=top)


def draw_final(surface: pygame.Surface, result: Result, info: TableInfo | None = None) -> list[Button]:
    """The score sheet: the winners and the tie-break, then per player the coins, every
    set bonus, how each Sprinkles and hybrid was counted, and the total."""
    fit_to(surface)
    surface.fill(theme.BG)
    draw_text(surface, result.winner_line(), Rect(10, 4, W - 20, 52), theme.TITLE + 8, theme.HIGHLIGHT,
              bold=True, align="center")
    line = tie_words(result) or " ".join(result.notes)
    if line:
        draw_text(surface, line, Rect(10, 56, W - 20, 28), theme.SMALL, theme.TEXT, align="center")
    head = Rect(8, 86, W - 16, 26)
    cols = _final_columns()
    for name, (x, w, align) in cols.items():
        draw_text(surface, name, Rect(x, head.top, w, head.height), theme.MIN_SIZE, theme.TEXT_DIM, bold=True,
                  align=align)
    n = len(result.players)
    bottom = H - 44 if info and (info.prompt or info.verdict) else H - 6
    gap = 4
    row_h = min(FINAL_ROW_MOST, (bottom - head.bottom - 2 - gap * (n - 1)) // n)
    for i, p in enumerate(result.players):
        row = Rect(8, head.bottom + 2 + i * (row_h + gap), W - 16, row_h)
        _final_row(surface, row, p, p.name in result.winners, cols)
    if info and (info.prompt or info.verdict):
        footer = " ".join(result.notes) if tie_words(result) and result.notes else info.prompt or info.verdict
        chrome.footer(surface, footer, info, top=42, height=38)
    return []


def _final_columns() -> dict[str, tuple[int, int, str]]:
    return {say("col_player"): (20, 140, "left"), say("col_coins"): (160, 70, "center"), say("col_sets"): (240, 450,
                                                                                                           "left"),
            say("col_total"): (700, 84, "right")}


def _final_row(surface: pygame.Surface, row: Rect, p, won: bool, cols) -> None:
    sheet = p.sheet
    panel(surface, row, theme.PANEL, theme.HIGHLIGHT if won else None, width=4)
    x, w, _ = cols[say("col_player")]
    draw_text(surface, p.name, Rect(x, row.top, w, row.height), theme.MEDIUM + 2,
              theme.HIGHLIGHT if won else theme.TEXT, bold=True)
    x, w, _ = cols[say("col_coins")]
    draw_text(surface, str(sheet.coins), Rect(x, row.top, w, row.height), theme.BIG, theme.TEXT, bold=True,
              align="center")
    x, w, _ = cols[say("col_sets")]
    sets = "  ".join(f"{d} ×{n} +{pts}" for d, n, pts in sheet.bonuses) or say("no_sets")
    wilds = ", ".join(say("counted_as", card=name, dessert=d) for name, _, d in sheet.counted_as)
    if wilds and row.height >= 50:
        half = row.height // 2
        draw_text(surface, sets, Rect(x, row.top + 2, w, half - 2), theme.SMALL, theme.TEXT, bold=True)
        draw_text(surface, wilds, Rect(x, row.top + half, w, half - 2), theme.MIN_SIZE, theme.TEXT_DIM)
    else:
        text = sets + (f" ({wilds})" if wilds else "")
        draw_text(surface, text, Rect(x, row.top, w, row.height), theme.SMALL, theme.TEXT, bold=True)
    x, w, _ = cols[say("col_total")]
    draw_text(surface, str(p.score), Rect(x, row.top, w, row.height), theme.BIG + 8,
              theme.HIGHLIGHT if won else theme.TEXT, bold=True, align="right")


class SweetDealsScreen(CoreScreen[rules.State]):
    """Sweet Deals's screen as the table's contract, :class:`companion.core.game.Screen` (rulebooks/sweet-deals.txt)."""

    draw_game = staticmethod(draw_game)
    draw_final = staticmethod(draw_final)


#: The one SweetDealsScreen, which the descriptor's loader gives.
SCREEN = SweetDealsScreen()
