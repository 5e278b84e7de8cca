"""The touchscreen, drawn headless: render the Sugarrr! screens to PNG and check what is on them.

Run with ``SDL_VIDEODRIVER=dummy`` (set below if missing) so no window opens.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.games.sugarrr import rules, screen  # noqa: E402
from companion.core.errors import IllegalAction  # noqa: E402
from companion.games.sugarrr.parts.cards import FRUIT_DECK_SIZE, FRUITS, code_for  # noqa: E402
from companion.ui import chrome, theme  # noqa: E402
from companion.ui.app import App, Button, TableInfo  # noqa: E402


def fruit(name: str, number: int, copy: int = 1) -> str:
    return code_for("fruit", name, number, copy)


def saur(name: str, value: int) -> str:
    return code_for("saur", name, value)


def mid_game() -> tuple[rules.State, str]:
    """Four players, five turns in: two Gathers, two Attracts, and Ben halfway through
    a Play on column 3. Returns the state and the last accepted message."""
    s = rules.new_game(["Ana", "Ben", "Cleo", "Dev"])
    actions = [rules.StartColumn(fruit(f, n)) for f, n in
               [("Pineapple", 2), ("Strawberry", 3), ("Grapes", 5), ("Apricots", 6), ("Blueberries", 8)]]
    actions += [
        # Ana: Strawberry 2 on Strawberry 3 makes 2 cards ending in a 2: she gathers.
        rules.PlayCard(fruit("Strawberry", 2), 1), rules.Done(), rules.StartColumn(fruit("Pear", 4)),
        # Ben: Pineapple 5, Pineapple 3 on Pineapple 2: 3 cards ending in a 3: gathers.
        rules.PlayCard(fruit("Pineapple", 5), 0), rules.PlayCard(fruit("Pineapple", 3), 0), rules.Done(),
        rules.StartColumn(fruit("Apricots", 9)),
        # Cleo: Blueberries 4 on Blueberries 8 makes 2 cards, not 4: attracts 1.
        rules.PlayCard(fruit("Blueberries", 4), 4), rules.Done(), rules.TakeSaur(saur("Grapes", 1)),
        # Dev: Apricots 3 on Apricots 6 makes 2, not 3: attracts 1.
        rules.PlayCard(fruit("Apricots", 3), 3), rules.Done(), rules.TakeSaur(saur("Pineapple", 1)),
        # Ana: Pear 7 on Pear 4 makes 2, not 7: attracts 1, a Strawberry-eater for her pile.
        rules.PlayCard(fruit("Pear", 7), 1), rules.Done(), rules.TakeSaur(saur("Strawberry", 1)),
        # Ben is playing on column 3.
        rules.PlayCard(fruit("Grapes", 9), 2), rules.PlayCard(code_for("salad", copy=1), 2),
    ]
    message = ""
    for action in actions:
        s, events = rules.step(s, action)
        message = events[-1].message
    return s, message


def finished():
    """Four real score piles; Ana wins on points (the rulebook's 1+3+5 strawberry example)."""
    strawberries = [fruit("Strawberry", n, c) for n in (2, 3, 4) for c in (1, 2)]
    piles = [
        strawberries + [saur("Strawberry", v) for v in (1, 3, 5)] + [code_for("salad", copy=1)],
        [fruit("Grapes", n, c) for n in (2, 3, 4, 5) for c in (1, 2)] + [saur("Grapes", 2), saur("Grapes", 4),
                                                                          fruit("Pear", 9), saur("Blueberries", 2)],
        [fruit("Blueberries", 10), code_for("salad", copy=2), code_for("salad", copy=3)],
        [fruit("Apricots", n) for n in range(2, 9)] + [saur("Apricots", 4), fruit("Pineapple", 5, 2),
                                                       saur("Pineapple", 5)],
    ]
    return rules.result_of(["Ana", "Benedict", "Cleo", "Dev"], piles).outcome()


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


def commands(buttons: list[Button]) -> set[str]:
    return {b.command for b in buttons}


def centre(buttons: list[Button], command: str) -> tuple[int, int]:
    return next(b.rect.center for b in buttons if b.command == command)


def test_mid_game_screen_has_columns_done_and_a_highlighted_player(app, tmp_path):
    state, message = mid_game()
    assert state.phase == rules.PLAYING and state.players[state.active] == "Ben"
    info = TableInfo(verdict=message, verdict_ok=True, devices={"scanner": "connected"}, turn_seconds=75)
    app.show(lambda s: screen.draw_game(s, state, info))
    png = app.save(tmp_path / "shots" / "game.png")

    assert png.exists() and pygame.image.load(str(png)).get_size() == (800, 480)
    got = commands(app.buttons)
    assert {f"column {i}" for i in range(1, 6)} | {"done", "deck"} <= got
    assert "swap" not in got
    row = screen.player_rows(len(state.players))[state.active]
    assert app.surface.get_at((row.left + 4, row.centery))[:3] == theme.HIGHLIGHT
    other = screen.player_rows(len(state.players))[0]
    assert app.surface.get_at((other.left + 4, other.centery))[:3] != theme.HIGHLIGHT


def test_tap_on_a_column_centre_is_that_column(app):
    state, _ = mid_game()
    app.show(lambda s: screen.draw_game(s, state, TableInfo()))
    for i, rect in enumerate(screen.column_rects(), start=1):
        assert app.hit(rect.center) == f"column {i}"
    assert app.hit((790, 10)) is None


def test_turn_phase_offers_swap_and_pass_only_in_the_final_round(app):
    state, _ = mid_game()
    turn = rules.step(state, rules.Done())[0]
    turn = rules.step(turn, rules.TakeSaur(saur("Apricots", 2)))[0]
    assert turn.phase == rules.TURN
    app.show(lambda s: screen.draw_game(s, turn, TableInfo()))
    assert "swap" in commands(app.buttons) and "pass" not in commands(app.buttons)
    final = rules.step(turn, rules.SetDeck(0))[0]
    final = rules.step(final, rules.Swap(2))[0]
    assert final.final_left is not None and final.phase == rules.TURN
    app.show(lambda s: screen.draw_game(s, final, TableInfo(devices={"tray": "disconnected"})))
    assert {"swap", "pass", "done"} & commands(app.buttons) == {"swap", "pass"}


def test_menus_cover_the_screen_with_their_own_buttons(app):
    state, _ = mid_game()
    app.show(lambda s: screen.draw_game(s, state, TableInfo(menu="swap")))
    assert commands(app.buttons) == {"swap 1", "swap 2", "swap 3", "swap 4", "swap 5", "cancel"}
    app.show(lambda s: screen.draw_game(s, state, TableInfo(menu="deck", deck_draft=41)))
    most = rules.deck_most(state)
    keys = {f"draft {41 * 10 + d if 41 * 10 + d <= most else d}" for d in range(10)}
    assert commands(app.buttons) == {"draft 40", "draft 42", "draft 0", "deck 41", "cancel"} | keys


def test_final_screen_names_the_winner_and_fits_four_players(app, tmp_path):
    result = finished()
    assert result.winners == ("Ana",) and result.players[0].score == 55
    app.show(lambda s: screen.draw_final(s, result))
    png = app.save(tmp_path / "final.png")
    assert pygame.image.load(str(png)).get_size() == (800, 480)
    assert screen.winner_line(result) == "Ana is the Win-O-Saur!"
    # Ana's row is outlined in the highlight colour, Benedict's is not.
    assert theme.HIGHLIGHT in {tuple(app.surface.get_at((10, y)))[:3] for y in range(130, 220)}


def test_a_tie_says_how_it_was_decided():
    shared = rules.result_of(["Ana", "Ben"], [[code_for("salad", copy=1)], [code_for("salad", copy=2)]]).outcome()
    assert screen.winner_line(shared) == "Ana and Ben are Win-O-Saurs!"
    assert screen.tie_line(shared) == "a shared win"
    decided = rules.result_of(["Ana", "Ben"], [[code_for("salad", copy=1), saur("Pear", 1)],
                                               [code_for("salad", copy=2)]]).outcome()
    assert decided.winners == ("Ana",)
    assert screen.tie_line(decided) == "decided by most Fruit-O-Saur cards"


def test_a_click_on_a_button_comes_back_from_poll_as_a_touch(app):
    state, _ = mid_game()
    app.show(lambda s: screen.draw_game(s, state, TableInfo()))
    pygame.event.clear()
    pos = centre(app.buttons, "done")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 470), button=1, touch=False))
    assert app.poll() == [("touch", "done")]


def test_a_finger_counts_once_even_with_the_mouse_copy_sdl_makes(app):
    state, _ = mid_game()
    app.show(lambda s: screen.draw_game(s, state, TableInfo()))
    pygame.event.clear()
    x, y = centre(app.buttons, "column 2")
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x / 800, y=y / 480, touch_id=1, finger_id=0,
                                         dx=0.0, dy=0.0, pressure=1.0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True))
    assert app.poll() == [("touch", "column 2")]


def test_typed_text_and_enter_come_back_as_one_line(app):
    # (Words, through the keymap, only while a text field is focused: issue 37.)
    app.words = True
    pygame.event.clear()
    for text in ("SRS7", "1X"):
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.poll() == [("typed", "SRS71X"), ("quit", "")]


def test_keys_outside_a_text_field_come_back_by_position_and_the_keymaps_text_is_dropped(app):
    app.words = False
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=0, unicode="z", scancode=28))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="z"))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_z, mod=0, unicode="z", scancode=28))
    assert app.poll() == [("key", (28, True, False)), ("key", (28, False, False))]


@pytest.mark.parametrize("fruit_name", FRUITS)
def test_every_fruit_has_a_letter_a_child_connects_with_it_and_its_own_shape(fruit_name):
    # Issue 13: the badge says what the fruit is called (Pear is "Pe", never its code letter R).
    look = screen.look_for(fruit_name)
    assert look is not theme.UNKNOWN_LOOK
    assert fruit_name.startswith(look.letter)
    assert len({screen.look_for(f).letter for f in FRUITS}) == len(FRUITS)
    assert len({screen.look_for(f).shape for f in FRUITS} | {screen.look_for(None).shape}) == len(FRUITS) + 1


def test_the_deck_count_is_typed_in_three_taps_and_an_impossible_count_is_refused(app):
    """The trial: correcting the Fruit Deck from 88 to 40 took 10 taps, and a count
    set-up makes impossible (more cards than are left outside hands, columns and piles)
    was taken."""
    state, _ = mid_game()
    draft = 88

    def tap(label_digit):
        nonlocal draft
        app.show(lambda s: screen.draw_game(s, state, TableInfo(menu="deck", deck_draft=draft)))
        key = [b for b in app.buttons if b.command.startswith("draft ")]
        chosen = {b.command for b in key}
        new = chrome.typed_count(draft, label_digit, rules.deck_most(state))
        assert f"draft {new}" in chosen
        draft = new

    tap(4)
    tap(0)
    assert draft == 40  # two keys, then OK
    most = rules.deck_most(state)
    assert most < FRUIT_DECK_SIZE - 5 * len(state.players)
    with pytest.raises(IllegalAction, match="can hold 0 to"):
        rules.check(state, rules.SetDeck(most + 1))
    rules.check(state, rules.SetDeck(most))


def test_a_card_waiting_for_its_column_is_played_by_one_tap_on_a_column_it_fits(app):
    from sugarrr_helpers import started

    from companion.games.sugarrr import flow

    state = started()
    from companion.games.sugarrr.parts.cards import code_for as code

    card = code("fruit", "Strawberry", 2)  # fits column 1 (Pineapple 2) and column 2 (Strawberry 3)
    entry, action, _ = flow.read(state, flow.new_entry(), flow.CardScanned(card, "scanner", 0.0))
    assert action is None and entry.card == card
    app.show(lambda s: screen.draw_game(s, state, TableInfo(entry=entry)))
    taps = commands(app.buttons)
    assert {"place 1", "place 2", "column 3", "column 4", "column 5"} <= taps
    _, action, _ = flow.read(state, entry, flow.Touch("place 2", 0.0))
    assert action == rules.PlayCard(card, 1)
