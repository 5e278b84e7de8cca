"""Sweet Deals screens at 800x480: every panel's buttons are big enough and mean
something to the flow; the bidding panel and the final score sheet."""

from __future__ import annotations

import os

import pytest

from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import Touch
from companion.core.game import TABLE
from companion.games.sweet_deals import flow, rules, screen
from companion.games.sweet_deals.rules import (AskClose, Bid, Choose, Draw, FaceUp, Offer, Pass, Reveal,
                                               StartBakeSale)
from companion.ui.app import App, TableInfo

from test_sweet_deals_rules import PLAYERS, C, deal, play


@pytest.fixture(scope="module")
def app():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    a = App()
    yield a
    a.close()


def shot(app, state, menu=None, tmp_path=None, name=""):
    view = rules.public_view(state, TABLE)
    info = TableInfo(prompt=flow.prompt(state, None), verdict="OK", verdict_ok=True, menu=menu,
                     game_name="Sweet Deals")
    app.show(lambda surface: screen.draw_game(surface, view, info))
    if tmp_path is not None:
        app.save(tmp_path / f"{name}.png")
    return {b.command: b.rect for b in app.buttons}


def _states():
    s = deal()
    bid, _ = play(s, Offer(0, "Pie"), Bid(1, 1), Bid(2, 2), Pass(3), Bid(1, 2))
    reveal, _ = play(bid, Pass(2))
    choose, _ = play(reveal, Reveal(1, C("Donut", 2, 1)), Reveal(2, C("Strudel", 2, 1)))
    swap, _ = play(choose, Choose(2))
    bake, _ = play(s, StartBakeSale(0), Draw(0, C("Cupcake", 2, 1)), FaceUp(0, C("Ice Cream", 1, 1)))
    vote, _ = play(s, AskClose(0))
    open8 = rules.new_game([f"Player {i}" for i in range(1, 9)], mode="open")
    open_bid, _ = play(open8, Offer(0, "Chocolate Popsicle"))
    return {"deal": rules.new_game(PLAYERS), "offer": s, "bid": bid, "reveal": reveal, "choose": choose,
            "swap": swap, "bake": bake, "vote": vote, "open8": open8, "open-bid": open_bid}


STATES = _states()


@pytest.mark.parametrize("name", list(STATES))
def test_every_button_is_big_enough_and_means_something(app, name, tmp_path):
    state = STATES[name]
    buttons = shot(app, state, tmp_path=tmp_path, name=name)
    for command, rect in buttons.items():
        if command.startswith("menu"):
            continue
        assert rect.width >= screen.TOUCH and rect.height >= screen.TOUCH, command
        assert rect.right <= 800 and rect.bottom <= 480
        try:
            action = flow.read(state, None, Touch(command, 0.0))[1]
        except BadCommand:
            pytest.fail(f"{command!r} is not a command the flow knows")
        except IllegalAction:
            continue
        if not state.tracked:        # (tracked: the screen cannot see the hand a bid needs)
            rules.check(state, action)   # a button the screen offers is a legal input


def test_bidding_panel_has_big_coin_buttons_and_only_legal_bids(app):
    buttons = shot(app, STATES["bid"])
    # Tim holds the high bid of 2: he may raise to 3-5 or keep his bid.
    assert {c for c in buttons if c.startswith("bid")} == {"bid 3", "bid 4", "bid 5"}
    assert all(buttons[f"bid {n}"].width >= 88 and buttons[f"bid {n}"].height >= 88 for n in (3, 4, 5))
    assert buttons["pass"].height >= 80 and "menu grab" in buttons


def test_grab_menu_lists_everyone_but_the_offerer(app):
    buttons = shot(app, STATES["bid"], menu="grab")
    assert sorted(c for c in buttons if c.startswith("grab")) == ["grab 2", "grab 3", "grab 4"]
    assert "cancel" in buttons


def test_sweet_six_button_only_with_open_hands(app):
    assert "menu six" in shot(app, STATES["open8"])
    assert "menu six" not in shot(app, STATES["offer"])
    buttons = shot(app, STATES["open-bid"], menu="six")
    assert sorted(c for c in buttons if c.startswith("six")) == [f"six {i}" for i in range(1, 9)]


def test_offer_panel_lists_only_what_this_deck_holds(app):
    offers = {c for c in shot(app, STATES["offer"]) if c.startswith("offer")}
    assert "offer pie" in offers and "offer chocolate" not in offers and len(offers) == 11
    assert len({c for c in shot(app, STATES["open8"]) if c.startswith("offer")}) == 14


def test_final_screen_shows_coins_bonuses_and_wilds(app, tmp_path):
    s, _ = play(STATES["offer"], AskClose(0), *[rules.Vote(i, True) for i in (1, 2, 3)])
    result = rules.result(s)
    drawn = []
    import companion.ui.widgets as widgets
    real = widgets.draw_text

    def spy(surface, text, *a, **k):
        drawn.append(text)
        return real(surface, text, *a, **k)

    screen.draw_text = spy
    try:
        app.show(lambda surface: screen.draw_final(surface, result, TableInfo()))
    finally:
        screen.draw_text = real
    app.save(tmp_path / "final.png")
    text = " | ".join(drawn)
    assert "April wins!" in text and "Sprinkles as Pie" in text and "Pie ×3 +7" in text
    for p in result.players:
        assert str(p.score) in drawn and str(p.sheet.coins) in drawn
