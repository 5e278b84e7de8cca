"""Screens that fit (issue 38): an upright 720x1280 panel gets a layout of its own that
uses the panel's height (it had the 800x480 one letterboxed into a third of it), taps land
on the targets drawn there, nothing reads badly at 800x480, 1024x600 and 720x1280 in
either theme, and Sugar Blast's tilt cue can be read from every seat, in its own direction.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion.games import GAMES
from companion.games.sugar_blast import rules as BR
from companion.games.sugar_blast import screen as blast
from companion.games.sugar_blast.parts import board as BB
from companion.games.sugarrr import rules as SR
from companion.games.sugarrr import screen as sugarrr
from companion.table import screenshots
from companion.ui import portrait, theme
from companion.ui.app import App, TableInfo
from companion.ui.turned import FACING
from companion.ui.widgets import record_text, render

UPRIGHT = (720, 1280)
SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": UPRIGHT}


def test_an_upright_panel_draws_its_own_tall_layout_filling_the_panel():
    app = App(size=UPRIGHT)
    try:
        assert app.size == (800, 1422) and app.scale == pytest.approx(0.9)
        assert app.offset == (0, 0) and app.surface.get_size() == (800, 1422)  # no letterbox bars
        assert app.frame().get_size() == UPRIGHT
    finally:
        app.close()
    for size, rotation in (((800, 480), 0), ((1024, 600), 0), ((720, 1280), 90)):  # landscape: as before
        app = App(size=size, rotation=rotation)
        try:
            assert app.size == (800, 480)
        finally:
            app.close()


def _sugarrr_state():
    s = SR.new_game(["Ana", "Ben"])
    for c in ["SRP21", "SRS31", "SRG51", "SRA61", "SRB81"]:
        s, _ = SR.step(s, SR.StartColumn(SR.card_code(c)))
    return s


def _finger(app: App, rect: pygame.Rect) -> None:
    """A finger on the panel where ``rect`` (in the drawing) is shown."""
    x = app.offset[0] + rect.centerx * app.scale
    y = app.offset[1] + rect.centery * app.scale
    w, h = app.window_size
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1,
                                         finger_id=0, pressure=1.0))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1,
                                         finger_id=0, pressure=1.0))


def test_a_tap_on_the_upright_panel_hits_the_target_drawn_there():
    app = App(size=UPRIGHT)
    try:
        state = _sugarrr_state()
        app.show(lambda s: sugarrr.draw_game(s, state, TableInfo(prompt="Ana: scan a card", undo="x",
                                                                  can_pause=True)))
        targets = {b.command: b.rect for b in app.buttons}
        assert targets["swap"].top > 1422 * 2 // 3  # the buttons are at the foot, under the thumbs
        for command in ("column 1", "column 5", "swap", "menu table", "deck"):
            pygame.event.clear()
            _finger(app, targets[command])
            assert app.poll() == [("touch", command)], command
        # what the panel shows at that place is that target: the Swap button's colour
        frame = app.frame()
        at = (round(targets["swap"].centerx * app.scale), round((targets["swap"].top + 12) * app.scale))
        assert all(abs(a - b) <= 8 for a, b in zip(frame.get_at(at)[:3], theme.BUTTON[:3]))
        s = BR.new_game(["Ana", "Ben"], "five-different")
        app.show(lambda surf: blast.draw_game(surf, s, TableInfo()))
        cell = blast.cell_rect(5, 5)
        assert cell.width >= 100  # bigger cells than at 800x480
        pygame.event.clear()
        _finger(app, cell)
        assert app.poll() == [("touch", "cell 5 5")]
    finally:
        app.close()


def _lowest_and_area(path: Path) -> tuple[int, float]:
    """The lowest pixel row drawn in something other than the background, and the share
    of the panel's height between the highest and lowest such rows."""
    image = pygame.image.load(str(path))
    mask = pygame.mask.from_threshold(image, theme.BG, (6, 6, 6, 255))
    mask.invert()
    box = mask.get_bounding_rects()
    top = min(r.top for r in box)
    bottom = max(r.bottom for r in box)
    return bottom, (bottom - top) / image.get_height()


@pytest.fixture(params=["default", "high-contrast"])
def themed(request):
    theme.use(request.param)
    yield request.param
    theme.use("default")


@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_reads_whole_at_every_size_in_both_themes(tmp_path, size, themed, monkeypatch):
    """Every screen of the four games' demos, their menus, the paused and final screens,
    the start screen's steps, the roster, History and its score sheets: no text cut off,
    under 20 px, running into another or off its box (``companion screenshots``' checks).
    Upright, each screen also reaches down the panel: the lowest touch target is in its
    lowest third and what is drawn spans most of its height."""
    w, h = SIZES[size]
    report: list[str] = []
    lowest: dict[str, int] = {}
    shaded: set[str] = set()  # a menu over the shaded screen: the menu's box is low, the rest dimmed
    check = screenshots._check

    def checked(path, drawn, app, report):
        # The phase's own buttons: not the top bar's (Menu, Undo, Deck...) and not the
        # board's (a column, a cell, a vault): those stay where the board is.
        acts = [b.rect.bottom for b in app.buttons if b.rect.top >= 56 and b.command.split()[0] not in BOARD]
        if acts:
            lowest[str(path)] = max(acts)
        if drawn.covered:
            shaded.add(str(path))
        check(path, drawn, app, report)

    monkeypatch.setattr(screenshots, "_check", checked)
    finished: list = []
    files = []
    for game in GAMES.values():
        if game.demo:
            files += screenshots.shoot_game(game, tmp_path / game.slug, (w, h), 0, report, finished)
    files += screenshots.shoot_shared(tmp_path / "shared", (w, h), 0, report, finished)
    assert len(files) > 100
    assert report == []
    if size != "720x1280":
        return
    short = [(Path(p).parent.name, Path(p).name, b) for p, b in lowest.items() if b < 1422 * 2 // 3]
    assert short == []
    assert len(lowest) > 60
    for path in files:
        bottom, spread = _lowest_and_area(path)
        assert bottom > h * 2 / 3 and (spread > 0.6 or str(path) in shaded), (path.name, bottom, spread)


#: The commands of targets on a game's board (they stay with the board, at the top).
BOARD = {"column", "place", "cell", "vault", "from", "open", "game", "name", "players", "pick", "forget", "resume",
         "history"}


def test_the_upright_check_finds_a_letterboxed_screen(tmp_path):
    """The height check above fails on the old way: the landscape drawing letterboxed."""
    app = App(size=(720, 1280), rotation=0)
    try:
        app.size = (800, 480)
        app.surface = pygame.Surface((800, 480))
        app.scale, app._scaled, app.offset = 0.9, (720, 432), (0, 424)
        state = _sugarrr_state()
        app.show(lambda s: sugarrr.draw_game(s, state, TableInfo(prompt="Ana: scan a card")))
        path = app.save(tmp_path / "letterboxed.png", as_panel=True)
        bottom, spread = _lowest_and_area(path)
        assert not (bottom > 1280 * 2 / 3 and spread > 0.6)
    finally:
        app.close()


@pytest.mark.parametrize("slug", [g for g in GAMES if GAMES[g].demo])
def test_every_message_of_the_game_fits_its_upright_screen(slug):
    from companion.games import find_game
    from companion.table.message_fit import unfit_messages

    assert unfit_messages(find_game(slug), size=(800, 1422)) == []


def test_the_upright_verdict_is_drawn_larger_and_never_under_the_verdict_floor():
    pygame.font.init()
    state = _sugarrr_state()
    for size, least in (((800, 480), theme.VERDICT_MIN), ((800, 1422), portrait.VERDICT)):
        surface = pygame.Surface(size)
        for words in ("Apricots 5 starts column 5.",
                      "Strawberry 9 does not go on any column: each column needs a card one higher or one lower, "
                      "or the same fruit. Swap, or scan another card."):
            with record_text() as drawn:
                sugarrr.draw_game(surface, state, TableInfo(verdict=words, verdict_ok=False, prompt="Ana: scan"))
            said = [d for d in drawn if d.text == words]
            assert said and all(d.readable and d.size >= theme.VERDICT_MIN for d in said), (size, words)
            if len(words) < 40:
                assert said[0].size >= least


# ---------------------------------------------------------------- the tilt cue

def _cue_state(phase, seat):
    """Four players, the first (active) at ``seat``, in ``phase``."""
    s = BR.new_game(["Ana", "Ben", "Cy", "Di"], "five-different")
    return replace(s, phase=phase, seats=(seat, *[x for x in (1, 2, 3, 4) if x != seat][:3]), active=0)


def _cue(size, phase, seat, tilt_seen=None):
    from companion.games.sugar_blast import flow

    state = _cue_state(phase, seat)
    surface = pygame.Surface(size)
    entry = replace(flow.new_entry(), tilt_seen=tilt_seen)
    with record_text() as drawn:
        blast.draw_game(surface, state, TableInfo(entry=entry))
    return surface, drawn, BB.SEAT_EDGES[seat]


def _orientation_score(surface: pygame.Surface, d, angle: int) -> float:
    """How well the dark letters in ``d``'s ink match its words turned ``angle`` degrees."""
    ink = pygame.Rect(d.ink)
    words = pygame.transform.rotate(render(theme.font(d.size, True), d.text, (0, 0, 0)), angle)
    shown = pygame.mask.from_threshold(surface.subsurface(ink), theme.TEXT_DARK, (40, 40, 40, 255))
    want = pygame.mask.from_surface(words, 127)
    if want.get_size() != shown.get_size():
        want = want.scale(shown.get_size())
    return shown.overlap_area(want, (0, 0)) / max(1, want.count())


@pytest.mark.parametrize("size", [(800, 480), (800, 1422)])
@pytest.mark.parametrize("seat", [1, 2, 3, 4])
def test_each_seat_reads_its_tilt_cue_turned_toward_it(size, seat):
    """The tilting seat's cue: a strip along its edge of the board deep enough for words
    at the verdict's size (the top seat's was a 4 px line), the words turned to read
    upright from that seat, the arrows pointing at it (tilt toward you) or away from it
    (refill from your side), and the refill's order in that seat's direction (the top
    seat was told "bottom to top": rulebook, "fill all empty spaces from bottom to top")."""
    for phase, words in ((BR.TILT, "Tilt toward you"), (BR.REFILL, "Fill from your side")):
        surface, drawn, edge = _cue(size, phase, seat)
        cue = [d for d in drawn if d.text == words]
        assert len(cue) == 1 and cue[0].readable and cue[0].size >= theme.VERDICT_MIN, (edge, phase)
        ink = pygame.Rect(cue[0].ink)
        bar = blast._edge_bar(edge)
        assert bar.contains(ink) and min(bar.size) >= 30, (edge, bar)
        assert (ink.height > ink.width) == (edge in ("left", "right"))
        right_way = _orientation_score(surface, cue[0], FACING[edge])
        wrong_way = _orientation_score(surface, cue[0], FACING[edge] + 180)
        assert right_way > 0.6 and right_way > wrong_way + 0.2, (edge, right_way, wrong_way)
        # The arrows, in the strip beyond the words: most of their dark pixels on the
        # side they point to (toward the seat while tilting, away from it to refill).
        dark = pygame.mask.from_threshold(surface.subsurface(bar), theme.TEXT_DARK, (40, 40, 40, 255))
        words_box = ink.move(-bar.left, -bar.top).inflate(8, 8)
        down = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[edge]
        sign = 1 if phase == BR.TILT else -1
        toward = away = 0
        for x in range(bar.width):
            for y in range(bar.height):
                if dark.get_at((x, y)) and not words_box.collidepoint(x, y):
                    d = (x - bar.width / 2) * down[0] + (y - bar.height / 2) * down[1]
                    toward += d * sign > 0
                    away += d * sign < 0
        assert toward > away * 1.3, (edge, phase, toward, away)
    if size == (800, 480):
        refill = [d.text for d in _cue(size, BR.REFILL, seat)[1]]
        order = {"bottom": "bottom to top", "top": "top to bottom", "left": "left to right",
                 "right": "right to left"}[edge]
        assert any(order in t for t in refill)
        assert not any("bottom to top" in t for t in refill) or edge == "bottom"
        # the prompt and the verdict say the order the panel shows that seat (issue 38)
        from companion.games.sugar_blast import flow

        state = _cue_state(BR.REFILL, seat)
        events = []
        BR._ask_refill(state, events)  # the verdict the tilt gets: the RefillPrompt
        said = [flow.prompt(state), events[-1].message]
        assert all(f"from the bag, {order}" in words for words in said), (edge, said)
        assert not any("bottom to top" in words for words in said) or edge == "bottom"


# ---------------------------------------------------------------- the device badge

@pytest.mark.parametrize("devices", [{"scanner": "connected", "venue": "Venue: no broker"},
                                     {"scanner": "scanner disconnected", "venue": "Venue: no broker"},
                                     {"scanner": "connected", "tray": "tray offline", "venue": "Venue: no broker"}])
def test_a_device_that_is_down_is_told_in_the_top_bar_never_cut(devices):
    """The red badge of a device that is down said "Venue: no br..." in a 133 px badge
    beside Sugar Blast's pills: now the game clock, the pills' spare width and the game's
    name give way to it, and a badge still too narrow says less (the device's name, or
    how many are down), never a word cut short."""
    from companion.ui import chrome

    pygame.font.init()
    surface = pygame.Surface((800, 480))
    bars = {"Sugar Blast": [chrome.Pill("Bag 36", 130), chrome.Pill("Quick", 90)],
            "Sugarrr!": [chrome.Pill("Deck 88", 140, False, "deck"), chrome.Pill("FINAL ROUND", 170, True)],
            "Sugar Heist": [chrome.Pill("Candy 68", 124), chrome.Pill("Battle 44", 124)],
            "Sweet Deals": [chrome.Pill("Tracked", 150), chrome.Pill("Deck 20", 120)]}
    down = [n for n, s in devices.items() if s != "connected"]
    for name, pills in bars.items():
        info = TableInfo(game_name=name, devices=devices, can_pause=True, undo="x")
        with record_text() as drawn:
            chrome.top_bar(surface, pygame.Rect(0, 0, 800, 48), info, 12, pills)
        assert [d.text for d in drawn if not d.readable] == [], name
        said = [d.text for d in drawn]
        told = [w for w in said if any(n.lower() in w.lower() for n in down) or w.endswith("not working")]
        assert told, (name, said)
    info = TableInfo(game_name="Sugar Blast", devices={"venue": "Venue: no broker"}, can_pause=True, undo="x")
    with record_text() as drawn:
        chrome.top_bar(surface, pygame.Rect(0, 0, 800, 48), info, 3, bars["Sugar Blast"])
    assert "Venue: no broker" in [d.text for d in drawn]
