"""The Sugar Heist screens at 800x480: the vault board, a heist in progress, the menus
and the final count; every touch target big enough for a finger; no face-down card."""

import os
from dataclasses import replace

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.core.game import TABLE  # noqa: E402
from companion.games.sugar_heist import flow, rules, screen  # noqa: E402
from companion.games.sugar_heist.state import BUY, OVER, SWAP, Done, Flip, Play, Target  # noqa: E402
from companion.ui.app import App, TableInfo  # noqa: E402

from sugar_heist_helpers import (CR, FB, GG, LS, NB, PS, SB, at, battle, candies, candy, game, holding,  # noqa: E402
                                 play, with_vault)


@pytest.fixture(scope="module")
def app():
    a = App()
    yield a
    a.close()


def table(players=("Zach", "Pam", "Alex")):
    s = at(game(players), BUY, active=2)
    s = with_vault(s, 0, 0, candies(CR, 1, 8))
    s = with_vault(s, 0, 1, candies(NB, 1, 2))
    s = with_vault(s, 1, 0, candies(FB, 1, 4))
    s = with_vault(s, 1, 1, candies(LS, 1, 6))
    s = with_vault(s, 1, 2, candies(PS, 1, 2), flavour=GG)
    s = with_vault(s, 2, 0, candies(SB, 1, 3))
    s = holding(s, 2, [battle("Attack", 1)], fresh=True)
    return holding(s, 0, [battle("Mom", 1), battle("Grandma", 1)])


def show(app, state, entry=None, path=None):
    entry = entry or flow.new_entry()
    info = TableInfo(verdict="OK", verdict_ok=True, prompt=flow.prompt(state, entry), entry=entry,
                     game_name="Sugar Heist", devices={"scanner": "connected"})
    app.show(lambda s: screen.draw_game(s, rules.public_view(state, TABLE), info))
    if path:
        app.save(path)
    return [b.command for b in app.buttons]


def big_enough(app):
    """The game's own targets (not the shared top bar's) are at least 48 px."""
    return all(b.rect.width >= 48 and b.rect.height >= 48 for b in app.buttons if b.rect.top >= 48)


def test_the_vault_board(app, tmp_path):
    commands = show(app, replace(table(), stage="stash", active=1), path=tmp_path / "board.png")
    assert commands == ["deck", "vault 1", "vault 2", "vault 3", "cant"]
    assert big_enough(app)


def test_four_players_with_many_vaults_keep_finger_sized_chips(app):
    s = at(game(("Ana", "Ben", "Cy", "Di")), "stash")
    for i in range(6):
        s = with_vault(s, 0, i, candies(CR, 1 + 2 * i, 2) if i < 4 else ())
    show(app, s)
    assert big_enough(app) and sum(c.startswith("vault") for c in [b.command for b in app.buttons]) == 6


def test_a_heist_target_menu_and_the_duel(app, tmp_path):
    s, _ = rules.step(table(), Play(battle("Attack", 1)))
    commands = show(app, s, path=tmp_path / "target.png")
    assert "heist 1 2" in commands and "steal 2 1" in commands and "heist 1 1" not in commands  # 1 1 is locked
    assert big_enough(app)
    s, _ = play(s, Target("heist", 0, 1), Done(), Flip(battle("Attack", 2)), Flip(battle("Spy", 1)))
    show(app, s, path=tmp_path / "duel.png")
    assert (tmp_path / "duel.png").stat().st_size > 0


def test_every_target_of_a_long_target_menu_is_reachable_by_touch(app, tmp_path):
    # Four players with vaults everywhere: an Attack Card has more targets than the 8
    # buttons the panel holds. They come a page at a time, More turns the page (and from
    # the last back to the first), and Keep it hidden stays on every page.
    s = table(("Zach", "Pam", "Alex", "Di"))
    for seat, vaults in ((1, 3), (3, 3)):
        for v in range(vaults):
            s = with_vault(s, seat, v, candies((FB, LS, SB)[v], 1, 3 + v))
    s = with_vault(s, 0, 2, candies(SB, 1, 5))
    s, _ = rules.step(s, Play(battle("Attack", 1)))
    from companion.games.sugar_heist.parts import battle as B

    targets = [f"{style} {seat + 1} {vault + 1}" for style, seat, vault in B.legal_targets(s, s.frame.actor, s.frame.card)]
    assert len(targets) > 8 and s.frame.withdrawable  # played from the face-down cards: Keep it is offered
    entry = flow.new_entry()
    pages = []
    for page in range(5):
        info = TableInfo(prompt=flow.prompt(s, entry), entry=entry, game_name="Sugar Heist", page=page)
        app.show(lambda surf: screen.draw_game(surf, rules.public_view(s, TABLE), info))
        commands = [b.command for b in app.buttons if b.rect.top >= 48]
        pages.append(commands)
        assert "page" in commands and big_enough(app)
        assert "keep" in commands
    assert pages[0] in pages[1:]  # More comes back round to the first page
    n = 1 + pages[1:].index(pages[0])
    assert n >= 2 and all(pages[k] == pages[k % n] for k in range(len(pages)))
    once = [c for p in pages[:n] for c in p if c in targets]
    assert sorted(once) == sorted(targets)  # every target on exactly one page
    app.save(tmp_path / "targets.png")


def test_swap_and_pure_sugar_menus(app):
    s = replace(table(), stage=SWAP, active=0, revealed=(candy(FB, 9),), draw=table().draw - 1)
    e, _, _ = flow.read(s, flow.new_entry(), flow.CardScanned(candy(FB, 9), "scanner", 0.0))
    assert show(app, s, e)[-4:] == ["give 1", "give 2", "give 3", "clear"]
    s2 = replace(table(), stage="stash", active=2)
    e2 = flow.Entry(cards=(candy(PS, 3), candy(PS, 4)))
    assert sum(c.startswith("flavour") for c in show(app, s2, e2)) == 6


def test_the_candy_pile_count_can_be_corrected(app):
    s = table()
    info = TableInfo(menu="deck", deck_draft=40, entry=flow.new_entry())
    app.show(lambda surf: screen.draw_game(surf, rules.public_view(s, TABLE), info))
    commands = [b.command for b in app.buttons]
    assert "deck 40" in commands and "draft 39" in commands and "draft 4" in commands and "cancel" in commands
    _, action, _ = flow.read(s, flow.new_entry(), flow.Touch("deck 40", 0.0))
    assert action == rules.SetPile(40)


def test_the_final_count(app, tmp_path):
    s = replace(table(), stage=OVER)
    result = rules.result(s)
    app.show(lambda surf: screen.draw_final(surf, result, TableInfo(prompt="Tap New game")))
    app.save(tmp_path / "final.png")
    assert result.winners == ("Zach",)
